"""A level's and a room's JSON form: written with their generator record, report and stars
(``level_to_json``, ``room_to_json``, ``dumps``), and read back, ``rows`` the truth that every other
field must agree with (``level_from_json``, ``room_from_json``)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.room import Room

#: The JSON level's format and version.
FORMAT_NAME, FORMAT_VERSION = "ice-level", 1


def level_to_json(
    level: Level, *, with_analysis: bool = True, generator=None, report=None, stars=None
) -> dict:
    """The JSON level object. Solution and analysis are computed (or taken from ``report``, an
    ``Analysis`` of this level) unless ``with_analysis`` is False. ``generator`` is the
    ``generator`` record: a ``GeneratorRecord`` (a designed level's) or a plain dict. A solvable
    level with its analysis also gets its star thresholds (``stars``, a ``Stars``, or the
    designer's default)."""
    if hasattr(generator, "to_json"):
        generator = generator.to_json()
    solution = analysis = None
    extra = {}
    if with_analysis:
        from designer.analysis.graph import analyze
        from designer.analysis.stars import Stars

        report = report or analyze(level)
        solution = report.solution.to_dict() if report.solution else None
        analysis = report.to_dict()
        if report.solution:
            extra["stars"] = (stars or Stars.default(report.solution.stops)).to_json()
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "height": level.height,
        "width": level.width,
        "rows": level.rows(),
        "start": list(level.start),
        "goal": list(level.goal),
        **({"items": [list(cell) for cell in level.items]} if level.items else {}),
        **({"coins": [list(cell) for cell in level.coins]} if level.coins else {}),
        **extended_json(level),
        "solution": solution,
        "analysis": analysis,
        **extra,
        "generator": generator,
    }


def dumps(level: Level, **kwargs) -> str:
    """The JSON level as text: one key per line, one row per line, nested values compact."""
    return format_json(level_to_json(level, **kwargs))


def format_json(obj: dict) -> str:
    """Pretty-print a JSON level object so that it stays readable in a diff."""
    lines = []
    for key, value in obj.items():
        if key == "rows":
            body = ",\n    ".join(json.dumps(row) for row in value)
            lines.append(f'  "rows": [\n    {body}\n  ]')
        elif isinstance(value, dict) and value:
            inner = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            lines.append(f"  {json.dumps(key)}: {{\n{inner}\n  }}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _json_header(obj: object) -> None:
    """The format, version and rows every JSON level and room has."""
    if not isinstance(obj, dict):
        raise LevelError("JSON level must be an object")
    if obj.get("format") != FORMAT_NAME:
        raise LevelError(f'JSON is not an ice level: "format" must be {FORMAT_NAME!r}')
    version = obj.get("version")
    if type(version) is not int or version != FORMAT_VERSION:  # true == 1 in Python; not here
        raise LevelError(
            f"unsupported ice-level version {json.dumps(version)}: this reader knows version 1"
        )
    rows = obj.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise LevelError('JSON level: "rows" must be a list of strings')


def _json_size(obj: dict, height: int, width: int) -> None:
    for key, value in (("height", height), ("width", width)):
        if key in obj and (type(obj[key]) is not int or obj[key] != value):
            raise LevelError(f'JSON level: "{key}" is {json.dumps(obj[key])} but rows give {value}')


def extended_json(level: Level | Room) -> dict:
    """The keys of a level with floors, wrap-around or portals (none for a plain level):
    ``floors`` (each with its name, top row, height, width and wrap) and ``portals`` (each
    ``{"from": [row, col], "to": [row, col]}``), sheet cells as everywhere."""
    found = {}
    if level.floors:
        found["floors"] = [floor.to_json() for floor in level.floors]
    if level.portals:
        found["portals"] = [{"from": list(src), "to": list(dst)} for src, dst in level.portals]
    return found


def _extended_from_json(obj: dict) -> tuple[list[str], tuple, tuple]:
    """The parts of a JSON level or room with ``floors`` or ``portals``: its rows with every
    portal and target mark read as ice (the rows mark each with a letter, ``designer.core.floors``,
    and must agree with ``portals``), its portals and its floors."""
    from designer.core.floors import MARKS, WRAPS, Floor

    rows = obj["rows"]
    portals = obj.get("portals", [])
    floors = obj.get("floors", [])
    if not isinstance(portals, list) or not all(
        isinstance(p, dict)
        and set(p) == {"from", "to"}
        and all(
            isinstance(p[k], list) and len(p[k]) == 2 and all(type(v) is int for v in p[k])
            for k in p
        )
        for p in portals
    ):
        raise LevelError(
            'JSON level: "portals" must be a list of {"from": [row, col], "to": [row, col]}'
        )
    if not isinstance(floors, list) or not all(
        isinstance(f, dict)
        and isinstance(f.get("name"), str)
        and f.get("wrap", "") in WRAPS
        and all(type(f.get(k)) is int for k in ("top", "height", "width"))
        for f in floors
    ):
        raise LevelError(
            'JSON level: "floors" must be a list of {"name", "top", "height", "width", "wrap"}'
        )
    marked, plain = set(), []
    for r, row in enumerate(rows):
        chars = list(row)
        for c, ch in enumerate(row):
            if ch in MARKS:
                marked.add((r, c))
                chars[c] = "."
        plain.append("".join(chars))
    pairs = tuple((tuple(p["from"]), tuple(p["to"])) for p in portals)
    ends = {cell for pair in pairs for cell in pair}
    if marked != ends:
        odd = sorted(marked ^ ends)[0]
        raise LevelError(f'JSON level: "portals" and the letters in "rows" disagree at {list(odd)}')
    return (
        plain,
        pairs,
        tuple(
            Floor(f["name"], f["top"], f["height"], f["width"], f.get("wrap", "")) for f in floors
        ),
    )


def level_from_json(obj: Any) -> Level:
    """Read a JSON level object; ``rows`` is the truth and ``start``/``goal`` must agree with it."""
    _json_header(obj)
    extended = "floors" in obj or "portals" in obj
    if extended:
        plain, portals, floors = _extended_from_json(obj)
        flat = Level.from_rows(plain)
        level = Level(
            flat.terrain, flat.start, flat.goal, "json", flat.items, portals, floors, flat.coins
        )
    else:
        level = Level.from_rows(obj["rows"])
    _json_size(obj, level.height, level.width)
    for key, cell in (("start", level.start), ("goal", level.goal)):
        value = obj.get(key)
        if value is None:
            continue
        if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)):
            raise LevelError(f'JSON level: "{key}" must be [row, col], not {json.dumps(value)}')
        if value != list(cell):
            raise LevelError(
                f'JSON level: "{key}" is {json.dumps(value)} but rows put it at {list(cell)}'
            )
    for key, cells in (("items", level.items), ("coins", level.coins)):
        given = obj.get(key)
        if given is not None and given != [list(cell) for cell in cells]:
            raise LevelError(
                f'JSON level: "{key}" is {json.dumps(given)[:120]} but rows put them at '
                f"{json.dumps([list(cell) for cell in cells])[:120]}"
            )
    if extended:
        return level
    return Level(level.terrain, level.start, level.goal, "json", level.items, coins=level.coins)


def room_from_json(obj: dict) -> Room:
    """A JSON room: a JSON level whose ``rows`` mark doors 1-9, with no ``start`` or ``goal`` and
    an optional ``doors`` object (``{"1": [row, col], ...}``) that must agree with the rows."""
    _json_header(obj)
    for key in ("start", "goal"):
        if obj.get(key) is not None:
            raise LevelError(f'JSON room: "{key}" does not go with doors (1-9) in its rows')
    if "floors" in obj or "portals" in obj:
        plain, portals, floors = _extended_from_json(obj)
        flat = Room.from_rows(plain)
        room = Room(flat.terrain, flat.doors, "json", flat.items, portals, floors, flat.coins)
    else:
        room = replace(Room.from_rows(obj["rows"]), dialect="json")
    _json_size(obj, room.height, room.width)
    for key, cells in (("items", room.items), ("coins", room.coins)):
        given = obj.get(key)
        if given is not None and given != [list(cell) for cell in cells]:
            raise LevelError(
                f'JSON room: "{key}" is {json.dumps(given)[:120]} but rows put them at '
                f"{json.dumps([list(cell) for cell in cells])[:120]}"
            )
    doors = obj.get("doors")
    if doors is not None:
        expected = {str(number): list(cell) for number, cell in room.doors}
        if doors != expected:
            raise LevelError(
                f'JSON room: "doors" is {json.dumps(doors)[:120]} but rows put them at '
                f"{json.dumps(expected)[:120]}"
            )
    return room


def room_to_json(room: Room, *, generator=None, report=None) -> dict:
    """The JSON room object; a designed room's also with ``analysis`` (``report``, a
    ``RoomAnalysis``: the room as a whole and every route, as ``designer analyze --json`` gives
    them) and its ``generator`` record, as a designed level's."""
    obj = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "height": room.height,
        "width": room.width,
        "rows": room.rows(),
        "doors": {str(number): list(cell) for number, cell in room.doors},
    }
    if room.items:
        obj["items"] = [list(cell) for cell in room.items]
    if room.coins:
        obj["coins"] = [list(cell) for cell in room.coins]
    obj.update(extended_json(room))
    if report is not None:
        obj["analysis"] = report.to_dict()
    if generator is not None:
        obj["generator"] = generator.to_json() if hasattr(generator, "to_json") else generator
    return obj
