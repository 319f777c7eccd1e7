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


def shown(text: str) -> str:
    """``text`` as a terminal may show it: every character that is not printable (a control
    character, an escape sequence's start, a newline, a bidirectional override, a lone surrogate
    half) written as its escape, never obeyed. For messages and for names read from a file.

    >>> shown("a\\x1b[31mred\\u202e\\nb")
    'a\\\\x1b[31mred\\\\u202e\\\\nb'
    """
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )
