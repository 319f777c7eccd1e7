"""Tiled maps: a level as a Tiled JSON map (.tmj), for the engines that import Tiled.

The map is orthogonal, one tile per cell, with the tileset embedded (Phaser, for one, rejects
external tilesets). It shows the whole level as it opens, with no code of the game's own. Three
layers, bottom to top:

- ``terrain``, a tile layer: every cell's tile: ice, rock, snow, or wall (a rock of the level's
  frame); the start and goal cells are what lies under them (ice, or a gap in the wall);
- ``ends``, a tile layer: the ``start`` and ``goal`` tiles at their cells, empty (0) elsewhere;
- ``markers``, an object layer: the ``start`` and ``goal`` as named rectangle objects, one cell
  in size, at their cells' pixel positions (x = column x tile width, y = row x tile height), for
  a game that places its player by name.

The map's custom properties are ``min_stops`` (the par), ``solution`` (the fewest-moves solution
as u/d/l/r letters, empty for an unsolvable level), ``stars_two`` and ``stars_one`` (the most
moves for 2 and 1 stars; see ``designer.analysis.stars``; solvable levels only) and ``seed``
(only when the level file records the seed it was designed from). Each tile of the tileset has
the properties ``kind`` and ``solid`` (rock and wall). The tileset image is drawn by
``designer.export.picture.tileset`` and written beside the map; the map refers to it by file
name.
"""

from __future__ import annotations

from designer.analysis.solver import solve
from designer.analysis.stars import Stars
from designer.core.level import Level
from designer.export.picture import DEFAULT_CELL, TILES, tile_kinds
from designer.formats.level_files import LevelFile

#: The Tiled JSON format version written (Tiled 1.10's).
FORMAT_VERSION = "1.10"
TILESET_IMAGE = "ice-tiles.png"
FIRST_GID = 1
#: The tiles the player cannot enter.
SOLID = ("rock", "wall")


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
                   "properties": [_property("kind", "string", kind), _property("solid", "bool", kind in SOLID)]}
                  for k, kind in enumerate(TILES)],
    }


def gid(kind: str) -> int:
    """The map's tile id of a tile kind."""
    return FIRST_GID + TILES.index(kind)


def to_tiled(level: Level, *, cell: int = DEFAULT_CELL, seed: int | None = None, stars: Stars | None = None,
             image: str = TILESET_IMAGE) -> dict:
    """The Tiled JSON map of ``level`` (see the module docstring). ``stars`` defaults to the
    designer's thresholds for the level's par."""
    solution = solve(level)
    data = [gid(kind) for row in tile_kinds(level) for kind in row]
    ends = [0] * (level.height * level.width)
    for kind, (row, col) in (("start", level.start), ("goal", level.goal)):
        ends[row * level.width + col] = gid(kind)
    markers = [{"id": k + 1, "name": name, "type": name, "x": col * cell, "y": row * cell,
                "width": cell, "height": cell, "rotation": 0, "visible": True}
               for k, (name, (row, col)) in enumerate((("start", level.start), ("goal", level.goal)))]
    properties = [_property("min_stops", "int", solution.stops if solution else -1),
                  _property("solution", "string", solution.moves if solution else "")]
    if solution:
        stars = stars or Stars.default(solution.stops)
        properties += [_property("stars_two", "int", stars.two), _property("stars_one", "int", stars.one)]
    if seed is not None:
        properties.append(_property("seed", "int", int(seed)))

    def tile_layer(layer_id: int, name: str, tiles: list[int]) -> dict:
        return {"id": layer_id, "name": name, "type": "tilelayer", "x": 0, "y": 0, "width": level.width,
                "height": level.height, "opacity": 1, "visible": True, "data": tiles}

    return {
        "type": "map", "version": FORMAT_VERSION, "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
        "width": level.width, "height": level.height, "tilewidth": cell, "tileheight": cell,
        "nextlayerid": 4, "nextobjectid": len(markers) + 1,
        "properties": properties,
        "tilesets": [tileset_json(cell, image)],
        "layers": [
            tile_layer(1, "terrain", data),
            tile_layer(2, "ends", ends),
            {"id": 3, "name": "markers", "type": "objectgroup", "x": 0, "y": 0, "opacity": 1, "visible": True,
             "draworder": "topdown", "objects": markers},
        ],
    }


def to_tiled_file(entry: LevelFile, *, cell: int = DEFAULT_CELL, image: str = TILESET_IMAGE) -> dict:
    """The map of a level file: with the seed its generator record keeps, and its own star
    thresholds (a pack's), when it has them."""
    seed = entry.generator.get("seed")
    solution = solve(entry.level)
    stars = entry.stars_for(solution.stops) if solution else None
    return to_tiled(entry.level, cell=cell, seed=seed if type(seed) is int else None, stars=stars, image=image)
