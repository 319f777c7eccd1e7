"""The ``designer`` command: a thin shell over the operations (``designer.ops``). One module per
command or family: ``levels`` (solve, analyze), ``make``, ``studies`` (compare, pareto,
records), ``exports`` (render, export, play), ``bench``; ``shell`` holds what they share, and
``progress`` the bar; ``entry`` runs them (``main``)."""

from designer.cli.entry import app, main, run

__all__ = ["app", "main", "run"]
