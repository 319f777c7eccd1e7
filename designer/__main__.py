"""``python -m designer`` runs the command line."""

from designer.cli import run

run()
