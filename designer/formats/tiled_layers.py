"""How a Tiled map's parts are read: its tilesets (embedded or external) and the kind of each tile,
custom properties, and the puzzle's one tile layer (CSV or base64, compressed or not) as a grid of
kinds, inside the walls filled (``designer.formats.tiled_map`` reads a whole map with them)."""

from __future__ import annotations

import base64
import binascii
import zlib
from pathlib import Path

from designer.core.errors import LevelError
from designer.formats import tmx
from designer.formats.reading import decode_text, load_json, read_regular
from designer.formats.tiled_objects import layers_of

#: Kinds that make a tile layer the puzzle's.
PUZZLE_KINDS = ("rock", "wall", "ice", "snow", "free")
#: The bits of a gid that flip or rotate the tile (Tiled 1.10).
FLIP_BITS = 0xF0000000


def map_tile_kinds(document: dict, folder: Path | None) -> dict[int, str]:
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
            tileset = external_tileset(folder, source)
        for tile_id, properties in tileset_tiles(tileset):
            value = properties.get("kind")
            if isinstance(value, str):
                kinds[first + tile_id] = value
    return kinds


def property_values(properties: object, what: str) -> dict:
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


def tileset_name(tileset: dict) -> str:
    name = tileset.get("name")
    return f"tileset {name[:40]!r}" if isinstance(name, str) and name else "a tileset"


def tileset_tiles(tileset: dict):
    """(tile id, its properties by name) of every tile of a tileset that has properties:
    ``tiles`` as a list (Tiled 1.2 on) or an object keyed by id, and ``tileproperties`` (before)."""
    tiles = tileset.get("tiles") or []
    if isinstance(tiles, dict):
        tiles = [{**tile, "id": key} for key, tile in tiles.items() if isinstance(tile, dict)]
    if not isinstance(tiles, list):
        raise LevelError(f"{tileset_name(tileset)}: its tiles are neither a list nor an object")
    old = tileset.get("tileproperties") or {}
    if not isinstance(old, dict):
        raise LevelError(f"{tileset_name(tileset)}: its tileproperties are not an object")
    tiles = tiles + [{"id": key, "properties": value} for key, value in old.items()]
    for tile in tiles:
        if not isinstance(tile, dict):
            raise LevelError(f"{tileset_name(tileset)}: a tile is not an object")
        tile_id = tile.get("id")
        if (
            isinstance(tile_id, str)
            and tile_id.isascii()
            and tile_id.isdigit()
            and len(tile_id) <= 9
        ):
            tile_id = int(tile_id)
        if type(tile_id) is not int or tile_id < 0:
            raise LevelError(f"{tileset_name(tileset)}: a tile without a whole id")
        yield tile_id, property_values(tile.get("properties"), f"tile {tile_id}")


def external_tileset(folder: Path, source: str) -> dict:
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


def puzzle_layer(
    document: dict, kinds: dict, height: int, width: int
) -> tuple[tuple[int, ...], list[int]]:
    found = []
    for path, layer in layers_of("tilelayer", document["layers"]):
        data = layer_data(layer, height, width)
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


def layer_data(layer: dict, height: int, width: int) -> list[int]:
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
        data = base64_cells(data, layer.get("compression") or "", name, height * width)
    if (
        not isinstance(data, list)
        or len(data) != height * width
        or not all(type(g) is int and g >= 0 for g in data)
    ):
        raise LevelError(f"layer {name!r} does not hold {height}x{width} tiles")
    return data


def base64_cells(text: str, compression: str, name: str | None, cells: int) -> list[int]:
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


def fill_inside(grid: list[list[str]]) -> None:
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
