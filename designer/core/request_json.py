"""How a request's fields are written in JSON and read back, each checked against its kind, in one
line when wrong (``LayoutRequest.from_json``); and the JSON of any record's fields
(``fields_to_json``, ``json_fields``), which the generator record shares."""

from __future__ import annotations

from dataclasses import fields

from designer.core.bands import RouteBand
from designer.core.errors import DesignerError, LevelError
from designer.core.limits import MAX_COUNT, PLAYER_RANGE


def fields_to_json(record, omit=lambda name, value: False) -> dict:
    """A dataclass's fields as JSON values (tuples as lists, nested records by their ``to_json``),
    those for which ``omit(name, value)`` holds left out."""
    out = {}
    for spec in fields(record):
        value = getattr(record, spec.name)
        if omit(spec.name, value):
            continue
        out[spec.name] = (
            list(value)
            if isinstance(value, tuple)
            else value.to_json()
            if hasattr(value, "to_json")
            else value
        )
    return out


def json_fields(cls, obj: object, not_an_object: str, strict: bool) -> dict:
    """The items of a JSON object that are fields of the dataclass ``cls``; DesignerError (the
    line ``not_an_object``) when ``obj`` is no object, and with ``strict`` when it has another key."""
    if not isinstance(obj, dict):
        raise DesignerError(not_an_object)
    known = {spec.name for spec in fields(cls)}
    unknown = sorted(set(obj) - known)
    if strict and unknown:
        raise DesignerError(f"the {cls.__name__} has an unknown field {unknown[0]!r}")
    return {key: value for key, value in obj.items() if key in known}


class _Kind:
    """How one request field is written in JSON."""

    def __init__(self, what: str, fits, read=lambda value: value):
        self.what, self.fits, self.read = what, fits, read


def _is_int(value) -> bool:
    return type(value) is int and abs(value) <= MAX_COUNT  # the bound make's options keep


def _maybe(kind: _Kind) -> _Kind:
    return _Kind(
        f"{kind.what} or null",
        lambda v: v is None or kind.fits(v),
        lambda v: None if v is None else kind.read(v),
    )


_INT = _Kind("a whole number", _is_int)


_BOOL = _Kind("true or false", lambda v: type(v) is bool)


_CELL = _Kind(
    "a cell [row, column]",
    lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_int, v)),
    lambda v: (v[0], v[1]),
)


def _is_door(value) -> bool:
    return (
        isinstance(value, list) and len(value) == 2 and _is_int(value[0]) and _CELL.fits(value[1])
    )


def _read_band(text: str) -> RouteBand:
    return RouteBand.parse(text)


def _is_band(value) -> bool:
    try:
        return isinstance(value, str) and len(value) < 40 and bool(RouteBand.parse(value))
    except LevelError:
        return False


def _is_pair(value) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(type(x) in (int, float) and -PLAYER_RANGE <= x <= PLAYER_RANGE for x in value)
    )


def _member(value: dict) -> tuple:
    from designer.core.players import PLAYER_FORMAT, Player

    return Player.from_json({"format": PLAYER_FORMAT, **value}).as_request()


def _is_member(value) -> bool:
    if not isinstance(value, dict) or "format" in value or "fit" in value:
        return False
    try:
        _member(value)
    except DesignerError:
        return False
    return True


_ROWS = _Kind(
    "a list of rows",
    lambda v: isinstance(v, list) and bool(v) and all(isinstance(r, str) for r in v),
    tuple,
)


REQUEST_FIELD_KINDS = {
    "height": _INT,
    "width": _INT,
    "frame": _BOOL,
    "min_stops": _INT,
    "max_stops": _maybe(_INT),
    "start": _maybe(_CELL),
    "goal": _maybe(_CELL),
    "max_rocks": _maybe(_INT),
    "snow": _INT,
    "tidy": _BOOL,
    "template": _maybe(_ROWS),
    "min_choices": _maybe(_INT),
    "unique": _BOOL,
    "items": _INT,
    "teleports": _INT,
    "first": _BOOL,
    "coins": _INT,
    "full_clear_min": _maybe(_INT),
    "full_clear_max": _maybe(_INT),
    "difficulty": _maybe(
        _Kind("a number from 1 to 10", lambda v: type(v) in (int, float) and 1 <= v <= 10, float)
    ),
    "player": _maybe(
        _Kind(
            f"a pair [skill, back aversion] of numbers from -{PLAYER_RANGE} to {PLAYER_RANGE}, or "
            "a player of the family {member, its parameters} as a player file holds it",
            lambda v: _is_pair(v) or _is_member(v),
            lambda v: (float(v[0]), float(v[1])) if _is_pair(v) else _member(v),
        )
    ),
    "doors": _maybe(
        _Kind(
            "a list of doors [number, [row, column]]",
            lambda v: isinstance(v, list) and len(v) <= 9 and all(map(_is_door, v)),
            lambda v: tuple((n, (cell[0], cell[1])) for n, cell in v),
        )
    ),
    "floors": _maybe(
        _Kind(
            "a list of floors [name, top, height, width, wrap]",
            lambda v: (
                isinstance(v, list)
                and len(v) <= 64
                and all(
                    isinstance(f, list)
                    and len(f) == 5
                    and isinstance(f[0], str)
                    and isinstance(f[4], str)
                    and all(map(_is_int, f[1:4]))
                    for f in v
                )
            ),
            lambda v: tuple(tuple(f) for f in v),
        )
    ),
    "portals": _maybe(
        _Kind(
            "a list of portals [[row, column], [row, column]]",
            lambda v: (
                isinstance(v, list)
                and len(v) <= 64
                and all(isinstance(p, list) and len(p) == 2 and all(map(_CELL.fits, p)) for p in v)
            ),
            lambda v: tuple(((p[0][0], p[0][1]), (p[1][0], p[1][1])) for p in v),
        )
    ),
    "routes": _maybe(
        _Kind(
            'a list of routes such as "1:3=15"',
            lambda v: isinstance(v, list) and len(v) <= 72 and all(map(_is_band, v)),
            lambda v: tuple(map(_read_band, v)),
        )
    ),
}
