"""A user's own Tiled map as a template (``designer make --template room.tmj``), and what the
designed level is written back into (``designer export --to tiled --into room.tmj``).

What is read (docs/exports.md says the same to users):

- an orthogonal map in Tiled's JSON format (``.tmj`` or ``.json``), of fixed size: an infinite
  map (chunks) is refused in one line;
- its tilesets, embedded or external JSON (``.tsj``, read beside the map); an XML tileset
  (``.tsx``) is refused in one line. A tile's ``kind`` is its custom string property ``kind``:
  ``rock``, ``wall``, ``ice``, ``snow``, ``free`` (a cell for the designer to fill), or ``door``,
  ``start``, ``goal`` (ice under a door), as ``export --to tiled`` writes them;
- the puzzle's layer: the one tile layer (groups searched too) holding tiles of kind rock, wall,
  ice, snow or free; when several do, the one named ``terrain``. Every other layer is
  decoration and is kept as it is. Its data may be a JSON array or base64 (uncompressed, zlib or
  gzip); a cell's flip bits are ignored;
- an empty cell of the puzzle's layer is free when it lies inside the room (no path of empty
  cells leads from it to the map's edge), wall otherwise;
- doors: objects of any object layer named ``1``-``9`` (a room) or ``start`` and ``goal`` (a level),
  points or rectangles (their centre) or tile objects, at the cell under them; a door in a wall
  is a gap in it;
- items (``designer.core.items``): objects named ``item``, or tiles of kind ``item`` in the
  puzzle's layer, each pinning an item on an ice cell (``*`` in the template).

The template is the canonical ASCII template of ``designer.formats.template``: ``#`` for rock
and wall, ``.`` ice, ``_`` snow, ``?`` free, the doors as their digits (or ``S``/``G``).
"""

from __future__ import annotations

import base64
import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path

from designer.core.errors import LevelError
from designer.core.level import DOOR_CHARS, Cell
from designer.formats.level_files import decode_text, load_json, read_bytes

#: The kinds of the puzzle's cells, and the template character of each.
CELL_KINDS = {"rock": "#", "wall": "#", "ice": ".", "snow": "_", "free": "?", "door": ".", "start": ".", "goal": ".",
              "item": "*"}
#: Kinds that make a tile layer the puzzle's.
PUZZLE_KINDS = ("rock", "wall", "ice", "snow", "free")
#: Door object names: a room's digits, or a level's two ends (as template characters).
DOOR_NAMES = {**{door: door for door in DOOR_CHARS}, "start": "S", "goal": "G"}
#: The bits of a gid that flip or rotate the tile (Tiled 1.10).
FLIP_BITS = 0xF0000000

MAP_SUFFIXES = (".tmj", ".json")


def is_map_path(source: str | Path) -> bool:
    """Whether a template path names a Tiled JSON map (by its suffix)."""
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

    @property
    def height(self) -> int:
        return self.document["height"]

    @property
    def width(self) -> int:
        return self.document["width"]


def read_map(source: str | Path) -> UserMap:
    """Read a Tiled map as a template (see the module docstring); one LevelError line naming
    the file for anything it cannot take."""
    text = decode_text(read_bytes(source, "Tiled map"))  # its errors name the file already
    try:
        return _from_document(load_json(text), Path(source).parent)
    except LevelError as exc:
        raise LevelError(f"{source}: {exc}") from None


def map_from_document(document: object) -> UserMap:
    """A Tiled map already read as JSON (the studio's upload): as ``read_map`` reads a file, but
    with no folder to find external tilesets in, so they are refused in one line."""
    return _from_document(document, None)


def _from_document(document: object, folder: Path | None) -> UserMap:
    if not isinstance(document, dict) or not isinstance(document.get("layers"), list):
        raise LevelError("not a Tiled JSON map (no \"layers\")")
    if document.get("orientation") != "orthogonal":
        raise LevelError(f"a {document.get('orientation')} map: only orthogonal maps hold an ice room")
    if document.get("infinite"):
        raise LevelError("an infinite map (its layers are chunks): turn Infinite off in Tiled's Map Properties")
    height, width, tile_w, tile_h = (document.get(key) for key in ("height", "width", "tilewidth", "tileheight"))
    if not all(type(v) is int and 1 <= v <= 4096 for v in (height, width, tile_w, tile_h)):
        raise LevelError("the map's width, height, tilewidth and tileheight must be whole numbers from 1")
    kinds = _tile_kinds(document, folder)
    layer, data = _puzzle_layer(document, kinds, height, width)
    chars = []
    for k, gid in enumerate(data):
        kind = kinds.get(gid & ~FLIP_BITS) if gid else None
        if gid and kind not in CELL_KINDS:
            r, c = divmod(k, width)
            raise LevelError(f"row {r}, col {c} of layer {layer_at(document, layer)['name']!r}: tile {gid & ~FLIP_BITS} "
                             f"has no kind the designer knows ({', '.join(CELL_KINDS)})")
        chars.append(CELL_KINDS[kind] if kind else " ")
    grid = [chars[r * width:(r + 1) * width] for r in range(height)]
    _fill_inside(grid)
    free = frozenset((r, c) for r in range(height) for c in range(width) if grid[r][c] == "?")
    walls = {(r, c) for r in range(height) for c in range(width) if grid[r][c] == "#"}
    doors = _doors(document, grid, tile_w, tile_h)
    item_cells, items_layer = _items(document, grid, tile_w, tile_h)
    gaps = frozenset(cell for cell in walls if grid[cell[0]][cell[1]] != "#")
    gids: dict[str, int] = {}
    for gid, kind in sorted(kinds.items()):
        gids.setdefault(kind, gid)
    return UserMap(document, layer, tuple(data), tuple("".join(row) for row in grid), free, gids, doors, gaps,
                   item_cells, items_layer)


def _tile_kinds(document: dict, folder: Path | None) -> dict[int, str]:
    """Every gid whose tile has a ``kind`` property, with that kind."""
    kinds: dict[int, str] = {}
    for tileset in document.get("tilesets") or []:
        if not isinstance(tileset, dict) or type(tileset.get("firstgid")) is not int:
            raise LevelError("a tileset without its firstgid")
        first, source = tileset["firstgid"], tileset.get("source")
        if source is not None:
            if folder is None:
                raise LevelError(f"its tileset {str(source)[:80]} is a file of its own: embed it in the map "
                                 "(Tiled: Map > Embed Tileset), or use make --template")
            tileset = _external(folder, str(source))
        for tile in tileset.get("tiles") or []:
            for prop in tile.get("properties") or []:
                if prop.get("name") == "kind" and isinstance(prop.get("value"), str) and type(tile.get("id")) is int:
                    kinds[first + tile["id"]] = prop["value"]
    return kinds


def _external(folder: Path, source: str) -> dict:
    """An external tileset, read beside the map: JSON only."""
    if Path(source).suffix.lower() == ".tsx":
        raise LevelError(f"the tileset {source} is XML (.tsx): save it as JSON (.tsj) in Tiled, or embed it")
    try:
        tileset = load_json(decode_text(read_bytes(folder / source, "tileset")))
    except LevelError as exc:
        raise LevelError(f"tileset {source}: {exc}") from None
    if not isinstance(tileset, dict):
        raise LevelError(f"tileset {source} is not a JSON tileset")
    return tileset


def _layers_of(kind: str, layers: list, path: tuple[int, ...] = ()):
    """(path, layer) of every layer of ``kind`` ("tilelayer", "objectgroup"), groups searched in
    order; a path is the layer's indices through its groups (``layer_at``)."""
    for k, layer in enumerate(layers):
        if not isinstance(layer, dict):
            continue
        if layer.get("type") == kind:
            yield (*path, k), layer
        elif layer.get("type") == "group":
            yield from _layers_of(kind, layer.get("layers") or [], (*path, k))


def layer_at(document: dict, path: tuple[int, ...]) -> dict:
    """The layer of a map at ``path`` (indices through its groups)."""
    layers, layer = document["layers"], None
    for k in path:
        layer = layers[k]
        layers = layer.get("layers") or []
    return layer


def _puzzle_layer(document: dict, kinds: dict, height: int, width: int) -> tuple[tuple[int, ...], list[int]]:
    found = []
    for path, layer in _layers_of("tilelayer", document["layers"]):
        data = _layer_data(layer, height, width)
        if any(kinds.get(gid & ~FLIP_BITS) in PUZZLE_KINDS for gid in data if gid):
            found.append((path, layer, data))
    if len(found) > 1:
        named = [one for one in found if one[1].get("name") == "terrain"]
        if len(named) != 1:
            names = ", ".join(repr(one[1].get("name")) for one in found)
            raise LevelError(f"{len(found)} tile layers hold rock, wall, ice, snow or free tiles ({names}): "
                             "name the puzzle's one 'terrain'")
        found = named
    if not found:
        raise LevelError("no tile layer holds tiles whose kind is rock, wall, ice, snow or free (the tiles' "
                         "custom property 'kind')")
    path, _, data = found[0]
    return path, data


def _layer_data(layer: dict, height: int, width: int) -> list[int]:
    """A tile layer's gids, row by row: a JSON array, or base64 (plain, zlib or gzip)."""
    name = layer.get("name")
    if "chunks" in layer:
        raise LevelError(f"layer {name!r} is made of chunks (an infinite map): turn Infinite off in Tiled")
    if layer.get("width") != width or layer.get("height") != height:
        raise LevelError(f"layer {name!r} is {layer.get('width')}x{layer.get('height')}, not the map's {width}x{height}")
    data = layer.get("data")
    if layer.get("encoding") == "base64" and isinstance(data, str):
        raw = base64.b64decode(data)
        compression = layer.get("compression") or ""
        if compression == "zlib":
            raw = zlib.decompress(raw)
        elif compression == "gzip":
            raw = gzip.decompress(raw)
        elif compression:
            raise LevelError(f"layer {name!r} is compressed with {compression}: save it as CSV, or base64 with zlib")
        data = [int.from_bytes(raw[k:k + 4], "little") for k in range(0, len(raw), 4)]
    if not isinstance(data, list) or len(data) != height * width or not all(type(g) is int and g >= 0 for g in data):
        raise LevelError(f"layer {name!r} does not hold {height}x{width} tiles")
    return data


def _fill_inside(grid: list[list[str]]) -> None:
    """Empty cells (" ") joined to the map's edge by empty cells are wall; the rest are free."""
    height, width = len(grid), len(grid[0])
    todo = [(r, c) for r in range(height) for c in range(width)
            if (r in (0, height - 1) or c in (0, width - 1)) and grid[r][c] == " "]
    while todo:
        r, c = todo.pop()
        if grid[r][c] != " ":
            continue
        grid[r][c] = "#"
        todo += [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                 if 0 <= r + dr < height and 0 <= c + dc < width and grid[r + dr][c + dc] == " "]
    for row in grid:
        for c, ch in enumerate(row):
            if ch == " ":
                row[c] = "?"


def object_cell(obj: dict, tile_w: int, tile_h: int) -> Cell:
    """The cell under an object: a point's, a rectangle's centre, a tile object's centre."""
    x, y = float(obj.get("x", 0)), float(obj.get("y", 0))
    w, h = float(obj.get("width", 0) or 0), float(obj.get("height", 0) or 0)
    if obj.get("point"):
        w = h = 0.0
    elif "gid" in obj:  # a tile object hangs from its bottom-left corner
        y -= h
    return int((y + h / 2) // tile_h), int((x + w / 2) // tile_w)


def _items(document: dict, grid: list[list[str]], tile_w: int, tile_h: int) -> tuple[frozenset, tuple | None]:
    """The cells of the objects named ``item`` (each marked ``*`` in ``grid``: an item pinned on
    ice), and the layer of the first one."""
    cells, home = set(), None
    height, width = len(grid), len(grid[0])
    for path, layer in _layers_of("objectgroup", document["layers"]):
        for obj in layer.get("objects") or []:
            if not isinstance(obj, dict) or obj.get("name") != "item":
                continue
            if not all(isinstance(obj.get(key, 0), (int, float)) for key in ("x", "y", "width", "height")):
                raise LevelError("an object 'item' has no position")
            r, c = object_cell(obj, tile_w, tile_h)
            if not (0 <= r < height and 0 <= c < width):
                raise LevelError(f"an object 'item' lies outside the {width}x{height} map")
            if grid[r][c] not in ".?*":
                raise LevelError(f"an object 'item' lies on {'snow' if grid[r][c] == '_' else 'a rock, wall or door'} "
                                 f"(row {r}, col {c}): an item lies on ice")
            grid[r][c] = "*"
            cells.add((r, c))
            home = home or path
    return frozenset(cells), home


def _doors(document: dict, grid: list[list[str]], tile_w: int, tile_h: int) -> dict:
    """The door objects, by name ((layer path, index) of each), their cells marked in ``grid``."""
    doors: dict[str, tuple[tuple[int, ...], int]] = {}
    height, width = len(grid), len(grid[0])
    for path, layer in _layers_of("objectgroup", document["layers"]):
        for k, obj in enumerate(layer.get("objects") or []):
            name = obj.get("name") if isinstance(obj, dict) else None
            if name not in DOOR_NAMES:
                continue
            if name in doors:
                raise LevelError(f"two objects named {name!r}: a door is one object")
            if not all(isinstance(obj.get(key, 0), (int, float)) for key in ("x", "y", "width", "height")):
                raise LevelError(f"object {name!r} has no position")
            r, c = object_cell(obj, tile_w, tile_h)
            if not (0 <= r < height and 0 <= c < width):
                raise LevelError(f"object {name!r} lies outside the {width}x{height} map")
            if grid[r][c] in DOOR_NAMES.values():
                raise LevelError(f"objects {grid[r][c]!r} and {name!r} lie on the same cell (row {r}, col {c})")
            if grid[r][c] == "_":
                raise LevelError(f"object {name!r} lies on snow (row {r}, col {c}): a door is an ice cell")
            grid[r][c] = DOOR_NAMES[name]
            doors[name] = (path, k)
    if not doors:
        raise LevelError("no door objects: name a point or rectangle object 1-9 (or start and goal) at each door")
    return doors
