"""Level files: detection, the JSON level ("ice-level", version 1), and reading from a path or stdin.

ASCII (canonical and dialects) lives with the level type in ``designer.core.level``; this module
adds the JSON form and the plumbing that turns bytes from a file into a Level.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.room import Room, is_room_text
from designer.formats.reading import decode_text, load_json, read_bytes

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


def parse_level(data: bytes | str, folder: Path | None = None) -> Level:
    """A level from the bytes of a file, whatever its format (JSON, any ASCII dialect, a filled
    Tiled map); a room with several doors is refused in one line (``parse_level_or_room`` reads it)."""
    found = parse_level_or_room(data, folder)
    if isinstance(found, Room):
        raise LevelError(
            f"a room with {len(found.doors)} doors ({found.numbers()}): a level with one start (S) "
            "and one goal (G) is needed here (solve, analyze, render, export and play read a room "
            "file on its own)"
        )
    return found


def parse_level_or_room(data: bytes | str, folder: Path | None = None) -> Level | Room:
    """A level, or a room with several doors (``designer.core.room``), from the bytes of a file:
    JSON or any ASCII dialect; ASCII with a door digit (1-9) is a room; a filled Tiled map (JSON
    or XML, ``designer.formats.tiled_map.level_from_map``), its external tilesets read from
    ``folder`` (None: refused in one line)."""
    text = decode_text(data)
    if text.lstrip().startswith("<"):  # no ASCII level starts so: Tiled's XML (TMX)
        return _from_map(text, folder)
    if text.lstrip().startswith(("{", "[")):  # no ASCII level starts so: '[' and '{' are no tiles
        obj = load_json(text)
        glissade = _glissade(obj)
        if glissade is not None:
            return glissade
        if isinstance(obj, dict) and "layers" in obj and "format" not in obj:  # a Tiled JSON map
            return _from_map(obj, folder)
        rows = obj.get("rows") if isinstance(obj, dict) else None
        if isinstance(rows, list) and any(
            isinstance(row, str) and is_room_text(row) for row in rows
        ):
            return room_from_json(obj)
        return level_from_json(obj)
    from designer.core.floors import is_extended

    if is_extended(text.splitlines()) and not is_room_text(text):  # floors, wrap or portals
        return Level.from_ascii(text)
    return Room.from_ascii(text) if is_room_text(text) else Level.from_ascii(text)


def _glissade(obj: object) -> Level | None:
    """The level of a glissade level object (``designer.formats.glissade``), or of its
    ``levels.json`` when it holds one; None for any other JSON. A file of several levels is one
    line here (``read_levels`` takes it as a pack, ``designer import`` writes each)."""
    from designer.formats import glissade

    if not glissade.is_glissade(obj):
        return None
    levels = glissade.read_levels(obj)
    if len(levels) > 1:
        raise LevelError(
            f"glissade's levels: {len(levels)} of them, and one level is needed here (render, export "
            "and play take them all; designer import FILE --out DIR writes each as a level file)"
        )
    return levels[0].level


def _from_map(text_or_document: str | dict, folder: Path | None) -> Level | Room:
    from designer.formats import tiled_map

    if isinstance(text_or_document, dict):
        user = tiled_map.map_from_document(text_or_document, folder)
    else:
        user = tiled_map.map_from_text(text_or_document, folder)
    return tiled_map.level_from_map(user)


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


def read_level(source: str | Path) -> Level:
    """Read a level from a path, or from standard input when ``source`` is ``-``."""
    return _read(source, parse_level)


def read_level_or_room(source: str | Path) -> Level | Room:
    """Read a level or a room with several doors from a path, or from standard input (``-``)."""
    return _read(source, parse_level_or_room)


def _folder(source: str | Path) -> Path | None:
    """Where a file's Tiled map finds its external tilesets: its own folder (none for stdin)."""
    return None if str(source) == "-" else Path(source).parent


def _read(source: str | Path, parse):
    data = read_bytes(source)
    try:
        return parse(data, _folder(source))
    except LevelError as exc:
        raise LevelError(exc if str(source) == "-" else f"{source}: {exc}") from None


class LevelFile(NamedTuple):
    """A level as read from its file: its name (the file name without suffix), the level (or a
    room with several doors, which the exports take on its own), and, for a JSON level, its
    ``generator`` object (empty for ASCII: where a designed level's request and seed are kept) and
    its ``stars`` object (None when absent)."""

    name: str
    level: Level | Room
    generator: dict
    stars: object = None

    def stars_for(self, par: int):
        """The level's star thresholds for its par (its own, or the designer's default)."""
        from designer.analysis.stars import Stars

        if self.stars is None:
            return Stars.default(par)
        try:
            return Stars.from_json(self.stars, par)
        except LevelError as exc:
            raise LevelError(f"{self.name}: {exc}") from None


def read_level_file(source: str | Path, name: str | None = None) -> LevelFile:
    """A level with what its JSON form keeps beside it (see ``LevelFile``)."""
    return _level_file(source, name, parse_level)


def read_level_file_or_room(source: str | Path) -> LevelFile:
    """A level, or a room with several doors, with what its JSON form keeps beside it."""
    return _level_file(source, None, parse_level_or_room)


def _level_file(source: str | Path, name: str | None, parse) -> LevelFile:
    data = read_bytes(source)
    try:
        level = parse(data, _folder(source))
        text = decode_text(data)
    except LevelError as exc:
        raise LevelError(exc if str(source) == "-" else f"{source}: {exc}") from None
    generator: dict[str, Any] = {}
    stars = None
    if text.lstrip().startswith("{"):
        obj = load_json(text)
        generator = obj.get("generator") if isinstance(obj.get("generator"), dict) else {}
        stars = (
            obj.get("stars") if "format" in obj else None
        )  # a Tiled map's are not the designer's
    if name is None:
        name = "level" if str(source) == "-" else Path(source).stem
    return LevelFile(name, level, generator, stars)


#: File names a pack folder's levels may have (what ``designer make --out`` writes).
LEVEL_SUFFIXES = (".txt", ".json")
#: The index files the project writes beside the levels of a folder (``pareto --out``,
#: ``records --out``): not levels, so a pack read skips them.
PACK_INDEXES = ("front.json", "records.json")


def read_pack(folder: str | Path) -> list[LevelFile]:
    """Every level (or room with several doors) of a pack folder, in the order of their file names.
    Files of other suffixes, and the index files of ``PACK_INDEXES``, are left alone; an
    unreadable level file is an error."""
    path = Path(folder)
    try:
        names = sorted(
            p
            for p in path.iterdir()
            if p.suffix in LEVEL_SUFFIXES and p.name not in PACK_INDEXES and p.is_file()
        )
    except OSError as exc:
        raise LevelError(f"{folder}: cannot read the folder ({exc.strerror})") from None
    if not names:
        raise LevelError(f"{folder}: no level files (*.txt, *.json) in the folder")
    return [read_level_file_or_room(name) for name in names]


def read_levels(source: str | Path) -> list[LevelFile]:
    """A level file (or - for standard input) as a pack of one, or a pack folder (whose files may
    hold rooms)."""
    if str(source) != "-" and Path(source).is_dir():
        return read_pack(source)
    many = None if str(source) == "-" else read_glissade_pack(source)
    return many if many is not None else [read_level_file(source)]


def read_glissade_pack(source: str | Path) -> list[LevelFile] | None:
    """A glissade ``levels.json`` of several levels as a pack (each named ``NN-name``, its stars
    the game's thresholds where they fit its par, a ``generator`` record naming the game); None
    for any other file."""
    from designer.formats import glissade

    data = read_bytes(source)
    text = decode_text(data)
    if not text.lstrip().startswith("["):
        return None
    obj = load_json(text)
    if not glissade.is_glissade(obj) or len(obj) < 2:
        return None
    from designer.analysis.solver import solve

    try:
        levels = glissade.read_levels(obj)
    except LevelError as exc:
        raise LevelError(f"{source}: {exc}") from None
    pack = []
    for one in levels:
        found = solve(one.level)
        stars = one.stars
        fits = found is not None and len(stars) >= 3 and found.stops < stars[1] <= stars[2]
        pack.append(
            LevelFile(
                glissade.file_name(one.index, one.name)[: -len(".json")],
                one.level,
                glissade.record(one),
                {"two": stars[1], "one": stars[2]} if fits else None,
            )
        )
    return pack
