"""The exceptions the library raises for input it refuses, and for a request it cannot meet.

Each carries one line meant for a person. The command line prints it and exits with status 2
(``DesignerError``: bad input) or 1 (``RequestNotMet``: valid, but not met).
"""


class DesignerError(Exception):
    """Base class: a request or an input that the library refuses, with a one-line reason."""


class LevelError(DesignerError, ValueError):
    """A level (or level file) that is not well formed."""


class RequestNotMet(Exception):
    """A valid request that cannot be met: an unsolvable level to solve or draw, no design
    (proven infeasible, or the time limit reached), no front in the time."""
