"""The exceptions the library raises for input it refuses.

Each carries one line meant for a person; the command line prints it and exits with status 2.
"""


class DesignerError(Exception):
    """Base class: a request or an input that the library refuses, with a one-line reason."""


class LevelError(DesignerError, ValueError):
    """A level (or level file) that is not well formed."""
