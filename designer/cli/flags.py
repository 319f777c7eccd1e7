"""The command line's words for the fields of a design's ask (``designer.ops.asks``): each field's
flag (``flag``), through which a refusal said in the request's own words
(``designer.core.errors.RequestError``) is printed; and the ask a command's flags give
(``asked``), each read from its text form, which ``make`` and ``pareto`` pass on whole.

>>> flag("min_stops"), flag("doors"), flag("from_file")
('--min-stops', '--door', '--from')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

import typer

from designer.cli.shell import parse_cell, parse_size

#: The fields whose flag is not ``--`` and the field's name with dashes: the repeatable flags name
#: one door, one route, one room's band (``designer cave``); ``make --from FILE`` reads a file.
IRREGULAR = {
    "doors": "--door",
    "routes": "--route",
    "room_bands": "--room",
    "from_file": "--from",
    "fmt": "--format",
}


def flag(field: str) -> str:
    """The flag of an ask's (or a command's) ``field``: ``--min-stops`` for ``min_stops``."""
    return IRREGULAR.get(field) or "--" + field.replace("_", "-")


def _full_clear(text: str) -> tuple[int | None, int | None]:
    from designer.ops.asks import full_clear_band

    return full_clear_band(text)


def _player(path: str) -> tuple:
    from designer.cli.levels import read_player

    return read_player(path).as_request()


#: The parameters that give an ask's field under another name or in a text form: the field, and
#: how the flag's value reads as the field's.
READ: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "size": ("size", parse_size),
    "start": ("start", lambda text: parse_cell(text, "--start")),
    "goal": ("goal", lambda text: parse_cell(text, "--goal")),
    "no_frame": ("frame", lambda given: not given),
    "door": ("doors", lambda texts: tuple(parse_cell(text, "--door") for text in texts)),
    "route": ("routes", tuple),
    "full_clear": ("full_clear", _full_clear),
    "player": ("player", _player),
}


def given(ctx: typer.Context, leave: Iterable[str] = ()) -> list[str]:
    """The command's parameters given a value other than their default, in the order the command
    declares them, but for those in ``leave``."""
    left = set(leave)
    return [
        param.name
        for param in ctx.command.params
        if param.name is not None
        and param.name not in left
        # given at all (typer may ship click's ParameterSource as a copy of its own: by name)
        and getattr(ctx.get_parameter_source(param.name), "name", "DEFAULT") != "DEFAULT"
        and ctx.params.get(param.name) not in (None, param.default)
    ]


def asked(ctx: typer.Context) -> dict[str, Any]:
    """The ask (``designer.ops.asks``) the command's flags give: each parameter given (``given``)
    that is a field of an ask, read from its text form (``READ``; a choice as its value's name).
    The command's own parameters (where its output goes, how it is drawn) are not."""
    from designer.ops.asks import is_field

    found: dict[str, Any] = {}
    for name in given(ctx):
        field, read = READ.get(name, (name, lambda same: same))
        if is_field(field):
            value = ctx.params[name]
            found[field] = read(value.value if isinstance(value, Enum) else value)
    return found
