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

import base64
import binascii
import functools
import zlib
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
from designer.formats.tiled_objects import doors_of, items_of, layer_at, layers_of, passages

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
#: Kinds that make a tile layer the puzzle's.
PUZZLE_KINDS = ("rock", "wall", "ice", "snow", "free")
#: The bits of a gid that flip or rotate the tile (Tiled 1.10).
FLIP_BITS = 0xF0000000

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
    def is_room(self) -> bool:
        """Whether the map's doors are a room's (1-9), not a level's start and goal."""
        return any(name in DOOR_CHARS for name in self.doors)

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
    if user.is_room:
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
    kinds = _tile_kinds(document, folder)
    layer, data = _puzzle_layer(document, kinds, height, width)
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
    _fill_inside(grid)
    free = frozenset((r, c) for r in range(height) for c in range(width) if grid[r][c] == "?")
    walls = {(r, c) for r in range(height) for c in range(width) if grid[r][c] == "#"}
    doors = doors_of(document, grid, tile_w, tile_h)
    item_cells, items_layer = items_of(document, grid, tile_w, tile_h)
    items_of(
        document, grid, tile_w, tile_h, "coin", "$"
    )  # coins: marked in the rows, as the text form has them
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


def _tile_kinds(document: dict, folder: Path | None) -> dict[int, str]:
    """Every gid whose tile has a ``kind`` property, with that kind."""
    kinds: dict[int, str] = {}
    tilesets = document.get("tilesets") or []
    if not isinstance(tilesets, list):
        raise LevelError('the map\'s "tilesets" is not a list')
    for tileset in tilesets:
        if not isinstance(tileset, dict) or type(tileset.get("firstgid")) is not int:
            raise LevelError("a tileset without its firstgid")
        first, source = tileset["firstgid"], tileset.get("source")
        if source is not None:
            if not isinstance(source, str):
                raise LevelError('a tileset\'s "source" is not a file name')
            if folder is None:
                raise LevelError(
                    f"its tileset {source[:80]} is a file of its own: embed it in the map "
                    "(Tiled: Map > Embed Tileset), or use make --template"
                )
            tileset = _external(folder, source)
        for tile_id, properties in _tiles(tileset):
            value = properties.get("kind")
            if isinstance(value, str):
                kinds[first + tile_id] = value
    return kinds


def _properties(properties: object, what: str) -> dict:
    """Custom properties by name: a list of {name, type, value} (Tiled 1.2 on), or an object of
    name to value (before)."""
    if properties is None:
        return {}
    if isinstance(properties, dict):
        return properties
    if not isinstance(properties, list):
        raise LevelError(f"{what}'s properties are neither a list nor an object")
    found = {}
    for prop in properties:
        if not isinstance(prop, dict) or not isinstance(prop.get("name"), str):
            raise LevelError(f"{what} has a property without a name")
        found[prop["name"]] = prop.get("value")
    return found


def _tileset_name(tileset: dict) -> str:
    name = tileset.get("name")
    return f"tileset {name[:40]!r}" if isinstance(name, str) and name else "a tileset"


def _tiles(tileset: dict):
    """(tile id, its properties by name) of every tile of a tileset that has properties:
    ``tiles`` as a list (Tiled 1.2 on) or an object keyed by id, and ``tileproperties`` (before)."""
    tiles = tileset.get("tiles") or []
    if isinstance(tiles, dict):
        tiles = [{**tile, "id": key} for key, tile in tiles.items() if isinstance(tile, dict)]
    if not isinstance(tiles, list):
        raise LevelError(f"{_tileset_name(tileset)}: its tiles are neither a list nor an object")
    old = tileset.get("tileproperties") or {}
    if not isinstance(old, dict):
        raise LevelError(f"{_tileset_name(tileset)}: its tileproperties are not an object")
    tiles = tiles + [{"id": key, "properties": value} for key, value in old.items()]
    for tile in tiles:
        if not isinstance(tile, dict):
            raise LevelError(f"{_tileset_name(tileset)}: a tile is not an object")
        tile_id = tile.get("id")
        if (
            isinstance(tile_id, str)
            and tile_id.isascii()
            and tile_id.isdigit()
            and len(tile_id) <= 9
        ):
            tile_id = int(tile_id)
        if type(tile_id) is not int or tile_id < 0:
            raise LevelError(f"{_tileset_name(tileset)}: a tile without a whole id")
        yield tile_id, _properties(tile.get("properties"), f"tile {tile_id}")


def _external(folder: Path, source: str) -> dict:
    """An external tileset, read beside the map (a regular file only): JSON or XML (TSX)."""
    what = f"tileset {source[:80]}"
    try:
        text = decode_text(read_regular(folder / source, what))
    except LevelError as exc:
        raise LevelError(exc if str(exc).startswith(what) else f"{what}: {exc}") from None
    try:
        if text.lstrip().startswith("<"):
            return tmx.tileset_document(tmx.parse_xml(text, "tileset"))
        tileset = load_json(text)
    except LevelError as exc:
        raise LevelError(f"{what}: {exc}") from None
    if not isinstance(tileset, dict):
        raise LevelError(f"{what} is not a Tiled tileset")
    return tileset


def _puzzle_layer(
    document: dict, kinds: dict, height: int, width: int
) -> tuple[tuple[int, ...], list[int]]:
    found = []
    for path, layer in layers_of("tilelayer", document["layers"]):
        data = _layer_data(layer, height, width)
        if any(kinds.get(gid & ~FLIP_BITS) in PUZZLE_KINDS for gid in data if gid):
            found.append((path, layer, data))
    if len(found) > 1:
        named = [one for one in found if one[1].get("name") == "terrain"]
        if len(named) != 1:
            names = ", ".join(repr(one[1].get("name")) for one in found)
            raise LevelError(
                f"{len(found)} tile layers hold rock, wall, ice, snow or free tiles ({names}): "
                "name the puzzle's one 'terrain'"
            )
        found = named
    if not found:
        raise LevelError(
            "no tile layer holds tiles whose kind is rock, wall, ice, snow or free (the tiles' "
            "custom property 'kind')"
        )
    path, _, data = found[0]
    return path, data


def _layer_data(layer: dict, height: int, width: int) -> list[int]:
    """A tile layer's gids, row by row: a JSON array, or base64 (plain, zlib or gzip)."""
    name = layer.get("name")
    if "chunks" in layer:
        raise LevelError(
            f"layer {name!r} is made of chunks (an infinite map): turn Infinite off in Tiled"
        )
    if layer.get("width") != width or layer.get("height") != height:
        raise LevelError(
            f"layer {name!r} is {layer.get('width')}x{layer.get('height')}, not the map's {width}x{height}"
        )
    data = layer.get("data")
    encoding = layer.get("encoding")
    if encoding not in (None, "csv", "base64"):
        raise LevelError(
            f"layer {name!r} is encoded as {str(encoding)[:20]}: save it as CSV, or base64"
        )
    if encoding == "base64" and isinstance(data, str):
        data = _base64_cells(data, layer.get("compression") or "", name, height * width)
    if (
        not isinstance(data, list)
        or len(data) != height * width
        or not all(type(g) is int and g >= 0 for g in data)
    ):
        raise LevelError(f"layer {name!r} does not hold {height}x{width} tiles")
    return data


def _base64_cells(text: str, compression: str, name: str | None, cells: int) -> list[int]:
    """A base64 layer's gids: decoded, inflated no further than ``cells`` gids (a layer that
    inflates further is refused before it is held), four little-endian bytes each."""
    size = 4 * cells
    if len(text) > 4 * size + 64 and not compression:
        raise LevelError(f"layer {name!r} holds more data than {cells} tiles")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise LevelError(f"layer {name!r}: its data is not base64") from None
    if compression:
        if compression not in ("zlib", "gzip"):
            raise LevelError(
                f"layer {name!r} is compressed with {str(compression)[:20]}: save it as CSV, or base64 "
                "with zlib or gzip"
            )
        inflater = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
        try:
            raw = inflater.decompress(raw, size + 1)
        except zlib.error:
            raise LevelError(f"layer {name!r}: its data is not {compression} data") from None
        if len(raw) <= size and not inflater.eof:
            raise LevelError(f"layer {name!r}: its {compression} data is cut short")
    if len(raw) != size:
        raise LevelError(
            f"layer {name!r} does not hold {cells} tiles ({len(raw) if len(raw) <= size else 'more'} "
            f"bytes, not {size})"
        )
    return [int.from_bytes(raw[k : k + 4], "little") for k in range(0, size, 4)]


def _fill_inside(grid: list[list[str]]) -> None:
    """Empty cells (" ") joined to the map's edge by empty cells are wall; the rest are free."""
    height, width = len(grid), len(grid[0])
    todo = [
        (r, c)
        for r in range(height)
        for c in range(width)
        if (r in (0, height - 1) or c in (0, width - 1)) and grid[r][c] == " "
    ]
    while todo:
        r, c = todo.pop()
        if grid[r][c] != " ":
            continue
        grid[r][c] = "#"
        todo += [
            (r + dr, c + dc)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= r + dr < height and 0 <= c + dc < width and grid[r + dr][c + dc] == " "
        ]
    for row in grid:
        for c, ch in enumerate(row):
            if ch == " ":
                row[c] = "?"
