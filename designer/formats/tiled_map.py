"""A user's own Tiled map as a template (``designer make --template room.tmj``), and what the
designed level is written back into (``designer export --to tiled --into room.tmj``).

What is read (docs/exports.md says the same to users):

- an orthogonal map in Tiled's JSON format (``.tmj`` or ``.json``) or its XML format (``.tmx``,
  read by ``designer.formats.tmx`` as the JSON document Tiled writes for it), of fixed size and at
  most ``MAX_DESIGN_SIDE`` (40) a side, checked before any layer is decoded: an infinite map
  (chunks) is refused in one line; so is JSON from before Tiled 1.2 that is not read as below;
- its tilesets, embedded or external (``.tsj``/``.json`` or ``.tsx``, read beside the map; only a
  regular file, never a FIFO or a device). A tile's ``kind`` is its custom string property ``kind``:
  ``rock``, ``wall``, ``ice``, ``snow``, ``free`` (a cell for the designer to fill), or ``door``,
  ``start``, ``goal`` (ice under a door), as ``export --to tiled`` writes them;
- the puzzle's layer: the one tile layer (groups searched too) holding tiles of kind rock, wall,
  ice, snow or free; when several do, the one named ``terrain``. Every other layer is
  decoration and is kept as it is. Its data may be a JSON array or base64 (uncompressed, zlib or
  gzip); a cell's flip bits are ignored;
- an empty cell of the puzzle's layer is free when it lies inside the room (no path of empty
  cells leads from it to the map's edge), wall otherwise;
- doors: objects of any object layer named ``1``-``9`` (a room) or ``start`` and ``goal`` (a level),
  points or rectangles (their centre) or tile objects, at the cell under them (x and y finite
  numbers); a door in a wall is a gap in it;
- items (``designer.core.items``): objects named ``item``, or tiles of kind ``item`` in the
  puzzle's layer, each pinning an item on an ice cell (``*`` in the template).

The template is the canonical ASCII template of ``designer.formats.template``: ``#`` for rock
and wall, ``.`` ice, ``_`` snow, ``?`` free, the doors as their digits (or ``S``/``G``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.limits import MAX_DESIGN_SIDE
from designer.core.room import Room
from designer.core.terrain import DOOR_CHARS
from designer.formats import tmx
from designer.formats.reading import decode_text, load_json, read_bytes, read_regular
from designer.formats.tiled_layers import FLIP_BITS, fill_inside, map_tile_kinds, puzzle_layer
from designer.formats.tiled_objects import doors_of, items_of, layer_at, passages

#: The kinds of the puzzle's cells, and the template character of each.
CELL_KINDS = {
    "rock": "#",
    "wall": "#",
    "ice": ".",
    "snow": "_",
    "free": "?",
    "door": ".",
    "start": ".",
    "goal": ".",
    "item": "*",
    "doorway": ".",
    "ladder_up": ".",
    "ladder_down": ".",
    "hole": ".",
}

#: The suffixes of a Tiled map: JSON (``.tmj``, ``.json``) and XML (``.tmx``).
MAP_SUFFIXES = (".tmj", ".json", ".tmx")
#: The suffixes of a map in Tiled's XML format.
XML_SUFFIXES = (".tmx",)


def is_map_path(source: str | Path) -> bool:
    """Whether a template path names a Tiled map (by its suffix: JSON or XML)."""
    return str(source) != "-" and Path(source).suffix.lower() in MAP_SUFFIXES


@dataclass(frozen=True)
class UserMap:
    """A user's map as read: the JSON ``document`` (untouched), where its puzzle layer is
    (``layer``: the path of indices through groups), each cell's gid there, the template
    ``rows``, the ``free`` cells, a gid for each kind its tilesets have (the first tile of that
    kind), and the door objects found ((path of their layer, index), by door name)."""

    document: dict
    layer: tuple[int, ...]
    cells: tuple[int, ...]
    rows: tuple[str, ...]
    free: frozenset
    gids: dict
    doors: dict
    gaps: frozenset  # door cells drawn as rock or wall: gaps in it
    item_cells: frozenset = frozenset()  # cells of the map's item objects
    items_layer: tuple[int, ...] | None = None  # the layer of its first item object
    xml: object = (
        None  # a TMX map's root element (``designer.formats.tmx``), which a write-back copies
    )

    @property
    def kind_name(self) -> str:
        """The kind of puzzle the map draws: "room" when its doors are a room's (1-9), "level"
        for a start and a goal."""
        return "room" if any(name in DOOR_CHARS for name in self.doors) else "level"

    @property
    def height(self) -> int:
        return self.document["height"]

    @property
    def width(self) -> int:
        return self.document["width"]


def _malformed(read):
    """``read`` with any fault of the document the checks below did not foresee (a value of an
    unexpected type deep in it) said in one LevelError line, as every other fault of a map is."""

    @functools.wraps(read)
    def checked(*args, **kwargs):
        try:
            return read(*args, **kwargs)
        except LevelError:
            raise
        except (
            TypeError,
            AttributeError,
            KeyError,
            IndexError,
            ValueError,
            OverflowError,
            RecursionError,
        ) as exc:
            raise LevelError(
                f"the map is not laid out as Tiled writes it ({type(exc).__name__}: "
                f"{str(exc)[:80]})"
            ) from None

    return checked


def read_map(source: str | Path, named: bool = False) -> UserMap:
    """Read a Tiled map (JSON or XML) as a template (see the module docstring); one LevelError
    line naming the file for anything it cannot take. ``named``: the map is one that another file
    names (a world's), so it must be a regular file, as a tileset must: a FIFO, a device or a
    folder is refused at once, never opened for reading."""
    # its errors name the file already
    data = read_regular(source, str(source)) if named else read_bytes(source, "Tiled map")
    try:
        return map_from_text(decode_text(data), Path(source).parent)
    except LevelError as exc:
        raise LevelError(f"{source}: {exc}") from None


@_malformed
def map_from_text(text: str, folder: Path | None) -> UserMap:
    """A Tiled map's text, JSON or XML (TMX), read as ``read_map`` reads a file; external
    tilesets are read from ``folder`` (None: refused in one line)."""
    if text.lstrip().startswith("<"):
        root = tmx.parse_xml(text, "map")
        return _from_document(tmx.map_document(root), folder, root)
    return _from_document(load_json(text), folder)


@_malformed
def level_from_map(user: UserMap) -> Level | Room:
    """The level (start and goal objects) or room (doors 1-9) a filled map shows, as ``solve``,
    ``analyze``, ``render``, ``export`` and ``play`` read it (dialect ``"tiled"``); a map with
    free cells left is refused in one line: it is a template for ``make``."""
    free = len(user.free)
    if free:
        raise LevelError(
            f"the map has {free} free cell{'s' if free > 1 else ''} (empty inside the room, or of kind "
            "free): it is a template; fill it with designer make --template first"
        )
    portals, floors = passages(user)
    if user.kind_name == "room":
        found = Room.from_rows(list(user.rows))
        return Room(found.terrain, found.doors, "tiled", found.items, portals, floors, found.coins)
    level = Level.from_rows(list(user.rows))
    return Level(
        level.terrain, level.start, level.goal, "tiled", level.items, portals, floors, level.coins
    )


@_malformed
def map_from_document(document: object, folder: Path | None = None) -> UserMap:
    """A Tiled map already read as JSON (the studio's upload): as ``read_map`` reads a file; its
    external tilesets from ``folder`` (None: refused in one line)."""
    return _from_document(document, folder)


def _size(document: dict) -> tuple[int, int, int, int]:
    """The map's height, width and tile size, checked before anything is decoded."""
    sizes: list[Any] = [document.get(key) for key in ("height", "width", "tilewidth", "tileheight")]
    height, width, tile_w, tile_h = sizes
    if not all(type(v) is int and v >= 1 for v in (height, width, tile_w, tile_h)):
        raise LevelError(
            "the map's width, height, tilewidth and tileheight must be whole numbers from 1"
        )
    if height > MAX_DESIGN_SIDE or width > MAX_DESIGN_SIDE:
        raise LevelError(
            f"the map is {height}x{width} tiles (height x width): the designer reads rooms of at most "
            f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE}"
        )
    if tile_w > 4096 or tile_h > 4096:
        raise LevelError(f"tiles of {tile_w}x{tile_h} pixels: at most 4096 a side")
    return height, width, tile_w, tile_h


def _an(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def _from_document(document: object, folder: Path | None, xml=None) -> UserMap:
    if not isinstance(document, dict) or not isinstance(document.get("layers"), list):
        raise LevelError('not a Tiled map (no "layers")')
    height, width, tile_w, tile_h = _size(document)
    orientation = document.get("orientation")
    if orientation != "orthogonal":
        raise LevelError(f"{_an(str(orientation)[:20])} map: only orthogonal maps hold an ice room")
    if document.get("infinite"):
        raise LevelError(
            "an infinite map (its layers are chunks): turn Infinite off in Tiled's Map Properties"
        )
    if not isinstance(document.get("properties", []), (list, dict)):
        raise LevelError(
            'the map\'s "properties" is neither a list (Tiled 1.2 on) nor an object (before)'
        )
    kinds = map_tile_kinds(document, folder)
    layer, data = puzzle_layer(document, kinds, height, width)
    chars = []
    for k, gid in enumerate(data):
        kind = kinds.get(gid & ~FLIP_BITS) if gid else None
        if gid and kind not in CELL_KINDS:
            r, c = divmod(k, width)
            raise LevelError(
                f"row {r}, col {c} of layer {layer_at(document, layer)['name']!r}: tile {gid & ~FLIP_BITS} "
                f"has no kind the designer knows ({', '.join(CELL_KINDS)})"
            )
        chars.append(CELL_KINDS[kind] if kind else " ")
    grid = [chars[r * width : (r + 1) * width] for r in range(height)]
    fill_inside(grid)
    free = frozenset((r, c) for r in range(height) for c in range(width) if grid[r][c] == "?")
    walls = {(r, c) for r in range(height) for c in range(width) if grid[r][c] == "#"}
    doors = doors_of(document, grid, tile_w, tile_h)
    item_cells, items_layer = items_of(document, grid, tile_w, tile_h)
    # coins: marked in the rows, as the text form has them
    items_of(document, grid, tile_w, tile_h, "coin", "$")
    gaps = frozenset(cell for cell in walls if grid[cell[0]][cell[1]] != "#")
    gids: dict[str, int] = {}
    for gid, kind in sorted(kinds.items()):
        gids.setdefault(kind, gid)
    return UserMap(
        document,
        layer,
        tuple(data),
        tuple("".join(row) for row in grid),
        free,
        gids,
        doors,
        gaps,
        item_cells,
        items_layer,
        xml,
    )
