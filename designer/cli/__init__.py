"""The ``designer`` command: a thin shell over the library (``app``), and its progress bars
(``progress``)."""

from designer.cli.commands import app, main, run

__all__ = ["app", "main", "run"]
