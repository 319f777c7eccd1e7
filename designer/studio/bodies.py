"""What the studio's requests must hold, read from their JSON bodies: a grid's rows, a fill's
options (each of its kind, the plan then checking its value as ``make`` does), a cave and its
fill's options. Each refusal is one line (``designer.studio.guard.Refused``)."""

from __future__ import annotations

import json

from designer.core.limits import sized
from designer.studio.guard import Refused

#: The fill request's fields (the fields of ``make``'s ask that the page sets:
#: ``designer.ops.asks``), and what each must be in JSON (the plan then checks its value as
#: ``make`` does).
_WHOLE = ("a whole number", lambda v: type(v) is int)
_FLAG = ("true or false", lambda v: type(v) is bool)
FILL_FIELDS = {
    **{
        name: _WHOLE
        for name in (
            "min_stops",
            "max_stops",
            "max_rocks",
            "snow",
            "min_choices",
            "items",
            "coins",
            "seed",
        )
    },
    **{name: _FLAG for name in ("tidy", "maximize", "maximize_choices", "unique")},
    "time_limit": ("a number of seconds", lambda v: type(v) in (int, float)),
    "method": ("a method's name", lambda v: isinstance(v, str)),
    "routes": (
        'a list of routes such as "1:3=15"',
        lambda v: isinstance(v, list) and all(isinstance(r, str) for r in v),
    ),
}

#: The options of a cave's fill (``designer.ops.caves.CaveOptions`` fields), each checked as above.
CAVE_FIELDS = ("min_stops", "max_stops", "seed", "time_limit")


def form_word(field: str) -> str:
    """The studio's word for a request's ``field``: its form's label ("min stops"), by which it
    says a refusal in the request's own words (``designer.core.errors.RequestError``)."""
    return field.replace("_", " ")


def rows_of(obj: dict) -> list[str]:
    rows = obj.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise Refused(400, "rows: a list of the grid's rows of text is needed")
    return sized(rows)


def fields_of(obj: dict, allowed) -> dict:
    """The fill request's options (``request``: JSON values), each one ``allowed`` and of its
    kind (``FILL_FIELDS``); those given as null left out."""
    fields = obj.get("request") or {}
    if not isinstance(fields, dict):
        raise Refused(400, "request: an object of the fill's options is needed")
    found = {}
    for name, value in fields.items():
        if name not in allowed:
            raise Refused(400, f"request: unknown option {str(name)[:40]!r}")
        if value is None:
            continue
        what, fits = FILL_FIELDS[name]
        if not fits(value):
            raise Refused(400, f"{form_word(name)} must be {what}, not {json.dumps(value)[:40]}")
        found[name] = tuple(value) if name == "routes" else value
    return found


def options_of(obj: dict) -> dict:
    """The fill request as an ask's fields (JSON values), each checked by the plan."""
    return {"template": rows_of(obj), **fields_of(obj, FILL_FIELDS)}


def plan_of(options: dict):
    from designer.ops import design as ops

    return ops.plan({**options, "template": tuple(options["template"])})


def cave_of(obj: dict) -> str:
    cave = obj.get("cave")
    if not isinstance(cave, dict):
        raise Refused(400, "cave: the cave (its JSON form) is needed")
    rooms = cave.get("rooms")
    for room in rooms if isinstance(rooms, list) else ():
        rows = room.get("rows") if isinstance(room, dict) else None
        if isinstance(rows, list) and all(isinstance(row, str) for row in rows):
            # every room goes on the board: at most 40x40 (the cave's reader checks the rest)
            sized(rows)
    return json.dumps(cave)


def cave_options(obj: dict) -> dict:
    """A cave fill: the cave's text and ``designer cave``'s options, checked before any process."""
    from designer.ops.caves import CaveOptions, request_for

    text, fields = cave_of(obj), fields_of(obj, CAVE_FIELDS)
    request_for(CaveOptions(text=text, **fields))
    return {"cave": text, **fields}
