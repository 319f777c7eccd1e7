"""Level files: detection, the JSON level ("ice-level", version 1), and reading from a path or stdin.

ASCII (canonical and dialects) lives with the level type in ``designer.core.level``; this module
adds the JSON form and the plumbing that turns bytes from a file into a Level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.room import Room, is_room_text
from designer.formats.level_json import level_from_json, room_from_json
from designer.formats.reading import decode_text, load_json, read_bytes


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
        # a Tiled map's are not the designer's
        stars = obj.get("stars") if "format" in obj else None
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
    hold rooms), or a game's folder (its levels, world by world:
    ``designer.formats.game_index``)."""
    if str(source) != "-" and Path(source).is_dir():
        from designer.formats.game_index import game_entries, is_game_folder

        if is_game_folder(source):  # a game's levels, named as its page names them
            return [read_level_file(path, name) for name, path in game_entries(source)]
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
