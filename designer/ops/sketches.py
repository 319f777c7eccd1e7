"""Sketches: the rows of canonical ASCII that a studio holds (``?`` for a free cell, ``S``/``G``
or doors ``1``-``9``), opened from a file's text and written back as a level, a room, or into
the user's own Tiled map. ``designer studio`` calls these; a script may too.

>>> opened = open_sketch("room.txt", "#G#\\n#?#\\n#S#\\n")
>>> opened["kind"], opened["rows"]
('template', ['#G#', '#?#', '#S#'])
>>> json.loads(level_text(["#G#", "#.#", "#S#"]))["analysis"]["min_stops"]
1
"""

from __future__ import annotations

import json

from designer.core.errors import DesignerError, LevelError
from designer.core.limits import sized
from designer.formats.level_files import load_json, parse_level_or_room
from designer.formats.template import parse_template
from designer.formats.tiled_map import MAP_SUFFIXES, map_from_document, map_from_text
from designer.ops.kinds.registry import entry_kind


def open_sketch(name: str, text: str) -> dict:
    """A file's text as a sketch: {"kind": "map" | "template" | "level" | "room", "rows"} (a cave:
    {"kind": "cave"} and ``designer.ops.cave_views.plan_view``'s keys); a Tiled
    map (by its name's suffix: JSON with layers, or Tiled's XML) is read as ``make --template``
    reads it (its tilesets embedded), a text with ``?`` as a template, anything else as a level or
    a room. One LevelError line naming the file for anything else."""
    from designer.caves import is_cave
    from designer.ops.cave_views import plan_view

    try:
        stripped = text.lstrip()
        if is_cave(text):  # a cave of rooms: the studio shows its plan, and edits a room at a time
            return {"kind": "cave", **plan_view(text)}
        if name.lower().endswith(MAP_SUFFIXES) and stripped.startswith("<"):
            return {"kind": "map", "rows": list(map_from_text(text, None).rows)}
        if name.lower().endswith(MAP_SUFFIXES) and stripped.startswith("{"):
            document = load_json(text)
            if isinstance(document, dict) and "layers" in document:
                return {"kind": "map", "rows": list(map_from_document(document).rows)}
        if not stripped.startswith("{"):  # a grid of text: its size is checked before it is read
            sized([line.rstrip() for line in text.splitlines() if line.strip()])
        if "?" in text and not stripped.startswith("{"):
            return {"kind": "template", "rows": sized(list(parse_template(text)))}
        found = parse_level_or_room(text)
        return {"kind": entry_kind(found).name, "rows": sized(found.rows())}
    except DesignerError as exc:
        raise LevelError(f"{name}: {exc}") from None


def _filled(rows: list[str]):
    """The level or room a sketch with no free cell left is."""
    free = sum(row.count("?") for row in sized(rows))
    if free:
        raise DesignerError(
            f"{free} free cell{'s are' if free > 1 else ' is'} not filled yet: fill them, or paint them"
        )
    return parse_level_or_room("\n".join(rows))


def level_text(rows: list[str]) -> str:
    """A filled sketch as its JSON level (or room), with its analysis."""
    found = _filled(rows)
    return entry_kind(found).sketch_json(found)


def into_map_text(document: object, rows: list[str]) -> str:
    """A filled sketch written into a copy of the user's Tiled map (``document``: its JSON, or
    the text of its XML), as ``export --to tiled --into`` writes it, in the map's own format:
    their other layers, tilesets and properties kept."""
    from designer.export.tiled_into import into_map_text

    user = (
        map_from_text(document, None) if isinstance(document, str) else map_from_document(document)
    )
    try:
        return into_map_text(user, _filled(rows))
    except ValueError as exc:
        raise DesignerError(str(exc)) from None


def picture(
    rows: list[str], *, fmt: str = "svg", solution: bool = False, graph: bool = False
) -> bytes:
    """A filled sketch drawn as ``render`` draws a file: SVG text or PNG bytes; ``solution`` draws
    the fewest-moves path (each route's, for a room), ``graph`` the move graph (a level's)."""
    from designer.core.errors import RequestNotMet
    from designer.export import picture as pictures

    found = _filled(rows)
    if fmt not in ("svg", "png"):
        raise DesignerError(f"a picture is svg or png, not {fmt!r}")
    kind = entry_kind(found)
    if graph and not kind.draws_figures:
        raise DesignerError(
            "the move graph is drawn for a level with one start and one goal, not a room"
        )
    try:
        figures = {"graph": graph} if kind.draws_figures else {}
        drawing = kind.picture(found, cell=pictures.DEFAULT_CELL, solution=solution, **figures)
    except ValueError as exc:
        raise RequestNotMet(f"unsolvable: {exc}") from None
    return pictures.png_bytes(drawing) if fmt == "png" else pictures.svg_text(drawing).encode()


def play_page(levels: list[tuple[str, list[str]]], title: str = "ice-designer studio") -> str:
    """The play page (``designer play``) of named filled sketches, in their order."""
    from designer.ops.kinds.registry import page

    return page(filled_levels(levels), title=title)


def filled_levels(levels: list[tuple[str, list[str]]]) -> list:
    """Named filled sketches as (name, level or room) pairs, in their order: a pack's levels."""
    if not levels:
        raise DesignerError("no levels in the pack yet")
    return [(name, _filled(rows)) for name, rows in levels]


def tiled_files(rows: list[str], cell: int = 32) -> dict:
    """A filled sketch as ``export --to tiled`` writes it: the map's JSON text, and its tileset
    image (PNG bytes) under the name the map gives it: {"map", "image", "image_name"}."""
    from designer.export import picture as pictures
    from designer.export import tiles
    from designer.formats.level_files import LevelFile

    found = _filled(rows)
    name, kinds = entry_kind(found).tileset(found)
    document = entry_kind(found).tiled_map(LevelFile("sketch", found, {}), cell=cell)
    return {
        "map": json.dumps(document, indent=1) + "\n",
        "image": pictures.png_bytes(tiles.tileset(cell, kinds)),
        "image_name": name,
    }
