"""Tiled maps: a level as a Tiled JSON map (.tmj), for the engines that import Tiled.

The map is orthogonal, one tile per cell, with the tileset embedded (Phaser, for one, rejects
external tilesets). It has two layers:

- ``terrain``, a tile layer: every cell's tile (ice, rock or snow; the start and goal cells are
  ice underneath);
- ``markers``, an object layer: the ``start`` and ``goal`` as named rectangle objects, one cell
  in size, at their cells' pixel positions (x = column x tile width, y = row x tile height).

The map's custom properties are ``min_stops``, ``solution`` (the fewest-moves solution as
u/d/l/r letters, empty for an unsolvable level) and ``seed`` (only when the level file records
the seed it was designed from). Each tile of the tileset has the properties ``kind`` and
``solid`` (rock). The tileset image is drawn by ``designer.export.picture.tileset`` and written beside
the map; the map refers to it by file name.
"""

from __future__ import annotations

from designer.analysis.graph import analyze
from designer.core.level import Level
from designer.export.picture import DEFAULT_CELL, TILE_OF_TERRAIN, TILES

#: The Tiled JSON format version written (Tiled 1.10's).
FORMAT_VERSION = "1.10"
TILESET_IMAGE = "ice-tiles.png"
FIRST_GID = 1


def _property(name: str, kind: str, value) -> dict:
    return {"name": name, "type": kind, "value": value}


def tileset_json(cell: int = DEFAULT_CELL, image: str = TILESET_IMAGE) -> dict:
    """The embedded tileset: ``TILES`` in one row of ``image``."""
    return {
        "firstgid": FIRST_GID, "name": "ice", "image": image,
        "imagewidth": cell * len(TILES), "imageheight": cell,
        "tilewidth": cell, "tileheight": cell, "tilecount": len(TILES), "columns": len(TILES),
        "margin": 0, "spacing": 0,
        "tiles": [{"id": k, "type": kind,
                   "properties": [_property("kind", "string", kind), _property("solid", "bool", kind == "rock")]}
                  for k, kind in enumerate(TILES)],
    }


def gid(kind: str) -> int:
    """The map's tile id of a tile kind."""
    return FIRST_GID + TILES.index(kind)


def to_tiled(level: Level, *, cell: int = DEFAULT_CELL, seed: int | None = None,
             image: str = TILESET_IMAGE) -> dict:
    """The Tiled JSON map of ``level`` (see the module docstring)."""
    solution = analyze(level).solution
    data = [gid(TILE_OF_TERRAIN[int(level.terrain[r, c])]) for r in range(level.height) for c in range(level.width)]
    markers = [{"id": k + 1, "name": name, "type": name, "x": col * cell, "y": row * cell,
                "width": cell, "height": cell, "rotation": 0, "visible": True}
               for k, (name, (row, col)) in enumerate((("start", level.start), ("goal", level.goal)))]
    properties = [_property("min_stops", "int", solution.stops if solution else -1),
                  _property("solution", "string", solution.moves if solution else "")]
    if seed is not None:
        properties.append(_property("seed", "int", int(seed)))
    return {
        "type": "map", "version": FORMAT_VERSION, "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
        "width": level.width, "height": level.height, "tilewidth": cell, "tileheight": cell,
        "nextlayerid": 3, "nextobjectid": len(markers) + 1,
        "properties": properties,
        "tilesets": [tileset_json(cell, image)],
        "layers": [
            {"id": 1, "name": "terrain", "type": "tilelayer", "x": 0, "y": 0, "width": level.width,
             "height": level.height, "opacity": 1, "visible": True, "data": data},
            {"id": 2, "name": "markers", "type": "objectgroup", "x": 0, "y": 0, "opacity": 1, "visible": True,
             "draworder": "topdown", "objects": markers},
        ],
    }
