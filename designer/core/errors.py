"""The exceptions the library raises for input it refuses, and for a request it cannot meet.

Each carries one line meant for a person. The command line prints it and exits with status 2
(``DesignerError``: bad input) or 1 (``RequestNotMet``: valid, but not met).
"""

from __future__ import annotations

import re
from collections.abc import Callable


class DesignerError(Exception):
    """Base class: a request or an input that the library refuses, with a one-line reason."""


class RequestError(DesignerError):
    """A request that makes no sense, said in the request's own words: each field it names is
    written ``{field}`` in its text (``{min_stops}``, ``{coins}``), and a shell fills in its own
    words for each (``worded``: the command line its flags, the studio its form's labels). Its
    ``str`` names each field as the request does.

    >>> error = RequestError("{max_stops} 9 is below {min_stops} 12")
    >>> str(error), error.worded(lambda field: "--" + field.replace("_", "-"))
    ('max_stops 9 is below min_stops 12', '--max-stops 9 is below --min-stops 12')
    >>> str(error.within("route 1:2: "))
    'route 1:2: max_stops 9 is below min_stops 12'
    """

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(self.worded())

    def worded(self, words: Callable[[str], str] | None = None) -> str:
        """The error with each field named by ``words(field)`` (default: the field's own name)."""

        def named(match: re.Match) -> str:
            if match[1] is None:  # a brace of the text itself
                return match[0][0]
            return match[1] if words is None else words(match[1])

        return _FIELD.sub(named, self.text)

    def within(self, prefix: str) -> RequestError:
        """The same error, said of a part of the request (``prefix``: "route 1:2: ")."""
        return RequestError(literal(prefix) + self.text)


def literal(text: str) -> str:
    """``text`` (a value a user gave) as it stands in a ``RequestError``'s text: its braces its own.

    >>> str(RequestError("{curve} " + literal("'{a}..b'") + " is not a band"))
    "curve '{a}..b' is not a band"
    """
    return text.replace("{", "{{").replace("}", "}}")


def worded(error: DesignerError, words: Callable[[str], str]) -> str:
    """The one line of ``error``, its fields named by ``words`` when it names any."""
    return error.worded(words) if isinstance(error, RequestError) else str(error)


#: A field's place in a request error's text: ``{name}``; ``{{`` and ``}}`` are braces of the text.
_FIELD = re.compile(r"\{\{|\}\}|\{([a-z][a-z_]*)\}")


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
