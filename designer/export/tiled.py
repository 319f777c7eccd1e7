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

A level with items (``designer.core.items``) has the ``item`` tile at each item's cell in the
``ends`` layer and an object named ``item`` (type ``item``) there in ``markers``, and its tileset
(``ITEM_TILES``, the image ``ice-item-tiles.png``) has the item after the level's tiles. Its map
property ``items_taken_at`` lists the move of the solution that takes each item. A room's items are
in its ``doors`` layer and objects the same way (``ROOM_ITEM_TILES``, ``ice-room-item-tiles.png``).

A level with floors, wrap-around or portals (``designer.core.floors``) is one map of its sheet
(the floors one under the other, as its rows are), with more objects in ``markers``
(``passage_markers``): each portal named by its letter, type ``portal``, with the property ``to``
(its target's letter); each cell a one-way portal leads to, type ``target``; and each floor a
rectangle over its rows, type ``floor``, named as the floor, with the property ``wrap``.

The map's custom properties are ``min_stops`` (the par), ``solution`` (the fewest-moves solution
as u/d/l/r letters, empty for an unsolvable level), ``stars_two`` and ``stars_one`` (the most
moves for 2 and 1 stars; see ``designer.analysis.stars``; solvable levels only) and ``seed``
(only when the level file records the seed it was designed from). Each tile of the tileset has
the properties ``kind`` and ``solid`` (rock and wall). The tileset image is drawn by
``designer.export.tiles.tileset`` and written beside the map; the map refers to it by file
name.
"""

from __future__ import annotations

from typing import cast

from designer.analysis.solver import solve
from designer.analysis.stars import Stars
from designer.core.level import Level
from designer.core.room import Room
from designer.export.tiles import (
    DEFAULT_CELL,
    ITEM_TILES,
    ROOM_ITEM_TILES,
    ROOM_TILES,
    TILES,
    tile_kinds,
)
from designer.formats.level_files import LevelFile

#: The Tiled JSON format version written (Tiled 1.10's).
FORMAT_VERSION = "1.10"
TILESET_IMAGE = "ice-tiles.png"
#: The tileset image of a room's map (``ROOM_TILES``: the door after the level's tiles).
ROOM_TILESET_IMAGE = "ice-room-tiles.png"
#: The tileset image of a map of a level with items (``ITEM_TILES``: the item after the level's
#: tiles).
ITEM_TILESET_IMAGE = "ice-item-tiles.png"
ROOM_ITEM_TILESET_IMAGE = "ice-room-item-tiles.png"
FIRST_GID = 1
#: The tiles the player cannot enter.
SOLID = ("rock", "wall")


#: The tileset of each kind of map: (image name, its tiles), in the order a pack's images are
#: written.
TILESETS = (
    (TILESET_IMAGE, TILES),
    (ROOM_TILESET_IMAGE, ROOM_TILES),
    (ITEM_TILESET_IMAGE, ITEM_TILES),
    (ROOM_ITEM_TILESET_IMAGE, ROOM_ITEM_TILES),
)


def level_tileset(level: Level) -> tuple[str, tuple[str, ...]]:
    """The tileset (image name, tiles) of a level's map, with or without items."""
    return TILESETS[2 * bool(level.items)]


def room_tileset(room: Room) -> tuple[str, tuple[str, ...]]:
    """The tileset (image name, tiles) of a room's map: its doors, with or without items."""
    return TILESETS[1 + 2 * bool(room.items)]


def tiled_property(name: str, kind: str, value) -> dict:
    return {"name": name, "type": kind, "value": value}


def tileset_json(
    cell: int = DEFAULT_CELL, image: str = TILESET_IMAGE, kinds: tuple[str, ...] = TILES
) -> dict:
    """The embedded tileset: ``kinds`` (``TILES``, or a room's ``ROOM_TILES``) in one row of ``image``."""
    return {
        "firstgid": FIRST_GID,
        "name": "ice",
        "image": image,
        "imagewidth": cell * len(kinds),
        "imageheight": cell,
        "tilewidth": cell,
        "tileheight": cell,
        "tilecount": len(kinds),
        "columns": len(kinds),
        "margin": 0,
        "spacing": 0,
        "tiles": [
            {
                "id": k,
                "type": kind,
                "properties": [
                    tiled_property("kind", "string", kind),
                    tiled_property("solid", "bool", kind in SOLID),
                ],
            }
            for k, kind in enumerate(kinds)
        ],
    }


def gid(kind: str, kinds: tuple[str, ...] = ROOM_TILES) -> int:
    """The map's tile id of a tile kind in the tileset of ``kinds`` (a room's ``door``, or an
    ``item``, comes after every other)."""
    return FIRST_GID + kinds.index(kind)


def to_tiled(
    level: Level,
    *,
    cell: int = DEFAULT_CELL,
    seed: int | None = None,
    stars: Stars | None = None,
    image: str | None = None,
) -> dict:
    """The Tiled JSON map of ``level`` (see the module docstring). ``stars`` defaults to the
    designer's thresholds for the level's par."""
    solution = solve(level)
    default_image, kinds = level_tileset(level)
    data = [gid(kind, kinds) for row in tile_kinds(level) for kind in row]
    ends = [0] * (level.height * level.width)
    placed = [
        ("start", level.start),
        ("goal", level.goal),
        *(("item", cell_at) for cell_at in level.items),
    ]
    for kind, (row, col) in placed:
        ends[row * level.width + col] = gid(kind, kinds)
    # a coin: an object, no tile
    placed_objects = placed + [("coin", cell_at) for cell_at in level.coins]
    markers = [
        _marker(k, name, name, cell, cell_at) for k, (name, cell_at) in enumerate(placed_objects)
    ]
    properties = [
        tiled_property("min_stops", "int", solution.stops if solution else -1),
        tiled_property("solution", "string", solution.moves if solution else ""),
    ]
    if level.items and solution:
        properties.append(
            tiled_property("items_taken_at", "string", ",".join(map(str, solution.taken)))
        )
    if solution:
        stars = stars or Stars.default(solution.stops)
        properties += [
            tiled_property("stars_two", "int", stars.two),
            tiled_property("stars_one", "int", stars.one),
        ]
    if seed is not None:
        properties.append(tiled_property("seed", "int", int(seed)))
    if not level.plain:
        markers += passage_markers(level, cell, len(markers))

    return _map(
        level.height,
        level.width,
        cell,
        properties,
        tileset_json(cell, image or default_image, kinds),
        [data, ends],
        ("terrain", "ends"),
        markers,
    )


def passage_markers(level: Level | Room, cell: int, first: int) -> list[dict]:
    """The objects of a level's portals and floors, numbered on from ``first``: each portal an
    object named by its letter, type ``portal``, with the property ``to`` (its target's letter);
    each cell a one-way portal leads to, type ``target``; each floor a rectangle over its rows,
    type ``floor``, named as the floor, with the property ``wrap`` ("", "x", "y" or "xy")."""
    from designer.core.floors import mark_cells

    marks = mark_cells(level.portals) if level.portals else {}
    target = dict(level.portals)
    found: list = []
    for at, mark in marks.items():
        obj = _marker(first + len(found), mark, "portal" if at in target else "target", cell, at)
        if at in target:
            obj["properties"] = [tiled_property("to", "string", marks[target[at]])]
        found.append(obj)
    for floor in level.floor_list():
        obj = _marker(first + len(found), floor.name, "floor", cell, (floor.top, 0))
        obj.update(
            width=floor.width * cell,
            height=floor.height * cell,
            properties=[tiled_property("wrap", "string", floor.wrap)],
        )
        found.append(obj)
    return found


def _marker(k: int, name: str, kind: str, cell: int, at: tuple[int, int]) -> dict:
    """The ``k``-th object of the markers layer: a rectangle of one cell named ``name``."""
    return {
        "id": k + 1,
        "name": name,
        "type": kind,
        "x": at[1] * cell,
        "y": at[0] * cell,
        "width": cell,
        "height": cell,
        "rotation": 0,
        "visible": True,
    }


def _map(
    height: int,
    width: int,
    cell: int,
    properties: list,
    tileset: dict,
    layers: list[list[int]],
    names: tuple[str, str],
    markers: list[dict],
) -> dict:
    """A map of two tile layers (``names``) and the ``markers`` object layer."""
    tile_layers = [
        {
            "id": k + 1,
            "name": name,
            "type": "tilelayer",
            "x": 0,
            "y": 0,
            "width": width,
            "height": height,
            "opacity": 1,
            "visible": True,
            "data": tiles,
        }
        for k, (name, tiles) in enumerate(zip(names, layers))
    ]
    return {
        "type": "map",
        "version": FORMAT_VERSION,
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": width,
        "height": height,
        "tilewidth": cell,
        "tileheight": cell,
        "nextlayerid": 4,
        "nextobjectid": len(markers) + 1,
        "properties": properties,
        "tilesets": [tileset],
        "layers": [
            *tile_layers,
            {
                "id": 3,
                "name": "markers",
                "type": "objectgroup",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": True,
                "draworder": "topdown",
                "objects": markers,
            },
        ],
    }


def room_to_tiled(
    room: Room,
    *,
    cell: int = DEFAULT_CELL,
    image: str | None = None,
    tileset: tuple[str, tuple[str, ...]] | None = None,
) -> dict:
    """The Tiled JSON map of a room with several doors: the ``terrain`` layer as a level's, a
    ``doors`` tile layer with the ``door`` tile at each door, and ``markers``, an object per door
    named by its number (type ``door``). For each route A:B (every pair of doors i < j) the map's
    properties ``min_stops_A_B`` (its par, -1 when it has no solution) and ``solution_A_B``."""
    from designer.analysis.routes import solve_routes

    default_image, kinds = tileset or room_tileset(
        room
    )  # ``tileset``: one for every map of a world
    data = [gid(kind, kinds) for row in tile_kinds(room) for kind in row]
    doors = [0] * (room.height * room.width)
    for _, (row, col) in room.doors:
        doors[row * room.width + col] = gid("door", kinds)
    for row, col in room.items:
        doors[row * room.width + col] = gid("item", kinds)
    markers = [
        _marker(k, str(number), "door", cell, cell_at)
        for k, (number, cell_at) in enumerate(room.doors)
    ]
    markers += [
        _marker(len(markers) + k, name, name, cell, cell_at)
        for k, (name, cell_at) in enumerate(
            [*(("item", at) for at in room.items), *(("coin", at) for at in room.coins)]
        )
    ]
    properties = []
    for one in solve_routes(room):
        a, b = one.route
        properties += [
            tiled_property(f"min_stops_{a}_{b}", "int", one.solution.stops if one.solution else -1),
            tiled_property(
                f"solution_{a}_{b}", "string", one.solution.moves if one.solution else ""
            ),
        ]
    if not room.plain:
        markers += passage_markers(room, cell, len(markers))

    return _map(
        room.height,
        room.width,
        cell,
        properties,
        tileset_json(cell, image or default_image, kinds),
        [data, doors],
        ("terrain", "doors"),
        markers,
    )


def to_tiled_file(entry: LevelFile, *, cell: int = DEFAULT_CELL, image: str | None = None) -> dict:
    """The map of a level file: with the seed its generator record keeps, and its own star
    thresholds (a pack's), when it has them."""
    seed = entry.generator.get("seed")
    level = cast(Level, entry.level)  # a level's file (a room's map is room_to_tiled's)
    solution = solve(level)
    stars = entry.stars_for(solution.stops) if solution else None
    return to_tiled(
        level, cell=cell, seed=seed if type(seed) is int else None, stars=stars, image=image
    )
