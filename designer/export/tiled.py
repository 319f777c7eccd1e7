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
``designer.export.picture.tileset`` and written beside the map; the map refers to it by file
name.
"""

from __future__ import annotations

from designer.analysis.solver import solve
from designer.analysis.stars import Stars
from designer.core.errors import LevelError
from designer.core.level import DOOR_CHARS, Level
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
from designer.formats.tiled_objects import DOOR_NAMES, layer_at, object_cell

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
TILESETS = ((TILESET_IMAGE, TILES), (ROOM_TILESET_IMAGE, ROOM_TILES), (ITEM_TILESET_IMAGE, ITEM_TILES),
            (ROOM_ITEM_TILESET_IMAGE, ROOM_ITEM_TILES))


def tileset_for(found: Level | Room) -> tuple[str, tuple[str, ...]]:
    """The tileset (image name, tiles) of ``found``'s map: a level's, a room's, each with or without items."""
    return TILESETS[isinstance(found, Room) + 2 * bool(found.items)]


def _property(name: str, kind: str, value) -> dict:
    return {"name": name, "type": kind, "value": value}


def tileset_json(cell: int = DEFAULT_CELL, image: str = TILESET_IMAGE, kinds: tuple[str, ...] = TILES) -> dict:
    """The embedded tileset: ``kinds`` (``TILES``, or a room's ``ROOM_TILES``) in one row of ``image``."""
    return {
        "firstgid": FIRST_GID, "name": "ice", "image": image,
        "imagewidth": cell * len(kinds), "imageheight": cell,
        "tilewidth": cell, "tileheight": cell, "tilecount": len(kinds), "columns": len(kinds),
        "margin": 0, "spacing": 0,
        "tiles": [{"id": k, "type": kind,
                   "properties": [_property("kind", "string", kind), _property("solid", "bool", kind in SOLID)]}
                  for k, kind in enumerate(kinds)],
    }


def gid(kind: str, kinds: tuple[str, ...] = ROOM_TILES) -> int:
    """The map's tile id of a tile kind in the tileset of ``kinds`` (a room's ``door``, or an
    ``item``, comes after every other)."""
    return FIRST_GID + kinds.index(kind)


def to_tiled(level: Level, *, cell: int = DEFAULT_CELL, seed: int | None = None, stars: Stars | None = None,
             image: str | None = None) -> dict:
    """The Tiled JSON map of ``level`` (see the module docstring). ``stars`` defaults to the
    designer's thresholds for the level's par."""
    solution = solve(level)
    default_image, kinds = tileset_for(level)
    data = [gid(kind, kinds) for row in tile_kinds(level) for kind in row]
    ends = [0] * (level.height * level.width)
    placed = [("start", level.start), ("goal", level.goal), *(("item", cell_at) for cell_at in level.items)]
    for kind, (row, col) in placed:
        ends[row * level.width + col] = gid(kind, kinds)
    # a coin: an object, no tile
    placed_objects = placed + [("coin", cell_at) for cell_at in level.coins]
    markers = [_marker(k, name, name, cell, cell_at) for k, (name, cell_at) in enumerate(placed_objects)]
    properties = [_property("min_stops", "int", solution.stops if solution else -1),
                  _property("solution", "string", solution.moves if solution else "")]
    if level.items and solution:
        properties.append(_property("items_taken_at", "string", ",".join(map(str, solution.taken))))
    if solution:
        stars = stars or Stars.default(solution.stops)
        properties += [_property("stars_two", "int", stars.two), _property("stars_one", "int", stars.one)]
    if seed is not None:
        properties.append(_property("seed", "int", int(seed)))
    if not level.plain:
        markers += passage_markers(level, cell, len(markers))

    return _map(level.height, level.width, cell, properties, tileset_json(cell, image or default_image, kinds),
                [data, ends], ("terrain", "ends"), markers)


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
            obj["properties"] = [_property("to", "string", marks[target[at]])]
        found.append(obj)
    for floor in level.floor_list():
        obj = _marker(first + len(found), floor.name, "floor", cell, (floor.top, 0))
        obj.update(width=floor.width * cell, height=floor.height * cell,
                   properties=[_property("wrap", "string", floor.wrap)])
        found.append(obj)
    return found


def _marker(k: int, name: str, kind: str, cell: int, at: tuple[int, int]) -> dict:
    """The ``k``-th object of the markers layer: a rectangle of one cell named ``name``."""
    return {"id": k + 1, "name": name, "type": kind, "x": at[1] * cell, "y": at[0] * cell,
            "width": cell, "height": cell, "rotation": 0, "visible": True}


def _map(height: int, width: int, cell: int, properties: list, tileset: dict, layers: list[list[int]],
         names: tuple[str, str], markers: list[dict]) -> dict:
    """A map of two tile layers (``names``) and the ``markers`` object layer."""
    tile_layers = [{"id": k + 1, "name": name, "type": "tilelayer", "x": 0, "y": 0, "width": width, "height": height,
                    "opacity": 1, "visible": True, "data": tiles} for k, (name, tiles) in enumerate(zip(names, layers))]
    return {
        "type": "map", "version": FORMAT_VERSION, "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
        "width": width, "height": height, "tilewidth": cell, "tileheight": cell,
        "nextlayerid": 4, "nextobjectid": len(markers) + 1,
        "properties": properties,
        "tilesets": [tileset],
        "layers": [
            *tile_layers,
            {"id": 3, "name": "markers", "type": "objectgroup", "x": 0, "y": 0, "opacity": 1, "visible": True,
             "draworder": "topdown", "objects": markers},
        ],
    }


def room_to_tiled(room: Room, *, cell: int = DEFAULT_CELL, image: str | None = None,
                  tileset: tuple[str, tuple[str, ...]] | None = None) -> dict:
    """The Tiled JSON map of a room with several doors: the ``terrain`` layer as a level's, a
    ``doors`` tile layer with the ``door`` tile at each door, and ``markers``, an object per door
    named by its number (type ``door``). For each route A:B (every pair of doors i < j) the map's
    properties ``min_stops_A_B`` (its par, -1 when it has no solution) and ``solution_A_B``."""
    from designer.analysis.routes import solve_routes

    default_image, kinds = tileset or tileset_for(room)  # ``tileset``: one for every map of a world
    data = [gid(kind, kinds) for row in tile_kinds(room) for kind in row]
    doors = [0] * (room.height * room.width)
    for _, (row, col) in room.doors:
        doors[row * room.width + col] = gid("door", kinds)
    for row, col in room.items:
        doors[row * room.width + col] = gid("item", kinds)
    markers = [_marker(k, str(number), "door", cell, cell_at) for k, (number, cell_at) in enumerate(room.doors)]
    markers += [_marker(len(markers) + k, name, name, cell, cell_at)
                for k, (name, cell_at) in enumerate([*(("item", at) for at in room.items),
                                                     *(("coin", at) for at in room.coins)])]
    properties = []
    for one in solve_routes(room):
        a, b = one.route
        properties += [_property(f"min_stops_{a}_{b}", "int", one.solution.stops if one.solution else -1),
                       _property(f"solution_{a}_{b}", "string", one.solution.moves if one.solution else "")]
    if not room.plain:
        markers += passage_markers(room, cell, len(markers))

    return _map(room.height, room.width, cell, properties, tileset_json(cell, image or default_image, kinds),
                [data, doors], ("terrain", "doors"), markers)


def into_map(user, found: Level | Room) -> dict:
    """A copy of a user's map (``designer.formats.tiled_map.UserMap``) with ``found`` (a level or
    a room of the same size) written into it. ``found`` must be what the map shows wherever the
    map fixes a cell (``disagreement``): the same rock, wall, ice, snow and items, the map's doors
    where it has them, and a room for a room's map (doors 1-9), a level for a level's (start and
    goal). Only these change: on the puzzle's layer, each free cell (and each door in a wall)
    takes the tile of its designed kind, the first tile of that kind in the map's tilesets, and
    the layer is written as a JSON array; each door object is moved onto its door's cell (one
    that lies there already is left as it is; a missing one is added to the layer of the others);
    an item on a cell the map draws as ice gets an ``item`` object; and the map's properties
    ``min_stops``/``solution`` (a level) or ``min_stops_A_B``/``solution_A_B`` (every route of a
    room) are set. Every other layer, tileset and property stays as it was. ValueError (one
    line) when the sizes differ, ``found`` disagrees with the map, or a kind has no tile in it."""
    if not found.plain:
        raise ValueError("a level or room with floors, wrap-around or portals is not written into a user's map: "
                         "export it as a map of its own (designer export LEVEL -o FILE.tmj)")
    import copy

    from designer.analysis.routes import solve_routes

    if found.shape != (user.height, user.width):
        raise ValueError(f"the level is {found.height}x{found.width} and the map {user.height}x{user.width} (height x "
                         "width): a level fills the map it was designed from")
    why = disagreement(user, found)
    if why:
        raise ValueError(why)
    document = copy.deepcopy(user.document)
    doors = [(str(n), cell) for n, cell in found.doors] if isinstance(found, Room) else [
        ("start", found.start), ("goal", found.goal)]
    door_cells = {cell for _, cell in doors}
    kinds = tile_kinds(found)
    data = list(user.cells)
    items = set(found.items)
    for (r, c) in sorted(user.free | (door_cells & user.gaps) | (door_cells - _open(user))):
        k = r * user.width + c
        kind = "ice" if (r, c) in door_cells else "item" if (r, c) in items and "item" in user.gids else kinds[r][c]
        if kind not in user.gids:
            raise ValueError(f"the map's tilesets have no tile of kind {kind!r} to draw the {_what(found)}'s {kind} "
                             "with (a tile with the custom property kind)")
        data[k] = user.gids[kind]
    layer = layer_at(document, user.layer)
    for key in ("encoding", "compression"):
        layer.pop(key, None)
    layer["data"] = data
    _place_doors(document, user, doors)
    _place_items(document, user, sorted(items))
    _place_items(document, user, sorted(found.coins), "coin")
    if isinstance(found, Room):
        figures = []
        for one in solve_routes(found):
            a, b = one.route
            figures += [(f"min_stops_{a}_{b}", "int", one.solution.stops if one.solution else -1),
                        (f"solution_{a}_{b}", "string", one.solution.moves if one.solution else "")]
    else:
        solution = solve(found)
        figures = [("min_stops", "int", solution.stops if solution else -1),
                   ("solution", "string", solution.moves if solution else "")]
        if items and solution:
            figures.append(("items_taken_at", "string", ",".join(map(str, solution.taken))))
    _set_properties(document, figures)
    return document


def into_map_text(user, found: Level | Room, folder=None) -> str:
    """The text of ``into_map``'s copy in the user's map's own format: JSON, or XML (TMX) with
    only the changed elements touched (``designer.formats.tmx.write_into``). The text is read
    back before it is returned, its external tilesets from ``folder`` (where it will be written;
    None: a map with no external tileset, as the studio's are), and must show ``found`` cell for
    cell with its figures: ValueError (one line) otherwise."""
    import json

    from designer.formats import tmx
    from designer.formats.tiled_map import map_from_text

    document = into_map(user, found)
    if user.xml is not None:
        text = tmx.write_into(user.xml, user.document, document, user.layer, layer_at(document, user.layer)["data"])
    else:
        text = json.dumps(document, indent=1) + "\n"
    try:
        back = map_from_text(text, folder)
    except LevelError as exc:
        raise ValueError(f"the map as written does not read back ({exc})") from None
    if back.rows != tuple(found.rows()):
        raise ValueError(f"the map as written does not read back as the {_what(found)}")
    claimed = {p["name"]: p["value"] for p in _as_list(document.get("properties")) if _figure(p["name"])}
    written = {p["name"]: p["value"] for p in _as_list(back.document.get("properties"))}
    if any(written.get(name) != value for name, value in claimed.items()):
        raise ValueError("the map as written does not read back with its figures")
    return text


def _figure(name: object) -> bool:
    """Whether a map property is one of the figures ``into_map`` writes (its par, solution, items)."""
    return isinstance(name, str) and (name in ("min_stops", "solution", "items_taken_at")
                                      or name.startswith(("min_stops_", "solution_")))


def _as_list(properties) -> list[dict]:
    if isinstance(properties, dict):
        return [{"name": name, "value": value} for name, value in properties.items()]
    return [p for p in properties or [] if isinstance(p, dict) and "name" in p]


def _what(found: Level | Room) -> str:
    return "room" if isinstance(found, Room) else "level"


#: What each template character of a map is, in a refusal.
_NAMES = {"#": "rock or wall", ".": "ice", "_": "snow", "*": "an item", "?": "a free cell", "S": "the start",
          "G": "the goal", "$": "a coin"}


def _name(ch: str) -> str:
    return _NAMES.get(ch) or f"door {ch}"


def disagreement(user, found: Level | Room) -> str | None:
    """Why ``found`` is not the room a user's map shows (None when it is): of another kind (a
    level's start and goal against a room's doors 1-9), or a cell the map fixes (all but its free
    cells) drawn otherwise. A fixed ice cell may hold an item, a coin, or a door the map does not place."""
    if user.is_room != isinstance(found, Room):
        mine = "a room with doors 1-9" if user.is_room else "a level with a start and a goal"
        return f"the map is {mine}, the file {'a room with doors 1-9' if isinstance(found, Room) else 'a level'}"
    rows = found.rows()
    placed = {DOOR_NAMES[name] for name in user.doors}  # the template characters of the map's doors
    unplaced = set(DOOR_CHARS if user.is_room else "SG") - placed
    for r, row in enumerate(user.rows):
        for c, drawn in enumerate(row):
            mine = rows[r][c]
            if drawn in ("?", mine) or (drawn == "." and (mine in "*$" or mine in unplaced)):
                continue
            return (f"row {r}, col {c}: the map has {_name(drawn)} there, the {_what(found)} {_name(mine)}: write a "
                    f"{_what(found)} designed from this map (make --template)")
    return None


def _set_properties(document: dict, figures: list[tuple[str, str, object]]) -> None:
    """The map's custom properties ``figures`` set (name, type, value): in a list (Tiled 1.2 on),
    or in an object of name to value with its ``propertytypes`` (before)."""
    properties = document.setdefault("properties", [])
    if isinstance(properties, dict):
        types = document.get("propertytypes")
        for name, kind, value in figures:
            properties[name] = value
            if isinstance(types, dict):
                types[name] = kind
        return
    for name, kind, value in figures:
        mine = next((p for p in properties if isinstance(p, dict) and p.get("name") == name), None)
        if mine is None:
            properties.append(_property(name, kind, value))
        else:
            mine.update(_property(name, kind, value))


def _open(user) -> set:
    """The cells of a user's map the player may stand on as drawn (ice, snow, free, doors)."""
    return {(r, c) for r, row in enumerate(user.rows) for c, ch in enumerate(row) if ch != "#"}


def _place_items(document: dict, user, items: list, name: str = "item") -> None:
    """An object named ``item`` on each item's cell: those of the map stay (they lie on the items
    the map pins), one is added for each other item, in the layer of the map's first item object,
    or of its doors. With ``name="coin"``: the same for coins."""
    if not items:
        return
    tile_w, tile_h = document["tilewidth"], document["tileheight"]
    home = user.items_layer or next(iter(user.doors.values()))[0]
    layer = layer_at(document, home)
    have = {object_cell(obj, tile_w, tile_h) for obj in layer.get("objects") or []
            if isinstance(obj, dict) and obj.get("name") == name}
    for r, c in items:
        if (r, c) in have or (name == "item" and (r, c) in user.item_cells):
            continue
        number = document.get("nextobjectid", 1)
        layer["objects"].append({"height": 0, "id": number, "name": name, "point": True, "rotation": 0,
                                 "type": name, "visible": True, "width": 0,
                                 "x": c * tile_w + tile_w / 2, "y": r * tile_h + tile_h / 2})
        document["nextobjectid"] = number + 1


def _place_doors(document: dict, user, doors: list) -> None:
    """Each door object on its door's cell; missing ones added (see ``into_map``)."""
    tile_w, tile_h = document["tilewidth"], document["tileheight"]
    home = None
    for name, (r, c) in doors:
        if name in user.doors:
            path, k = user.doors[name]
            obj = layer_at(document, path)["objects"][k]
            home = home or path
            old_r, old_c = object_cell(obj, tile_w, tile_h)
            if (old_r, old_c) != (r, c):
                obj["x"] = obj["x"] + (c - old_c) * tile_w
                obj["y"] = obj["y"] + (r - old_r) * tile_h
    missing = [(name, cell) for name, cell in doors if name not in user.doors]
    if not missing:
        return
    if home is None:
        home_layer = {"draworder": "topdown", "id": document.get("nextlayerid", len(document["layers"]) + 1),
                      "name": "doors", "objects": [], "opacity": 1, "type": "objectgroup", "visible": True,
                      "x": 0, "y": 0}
        document["layers"].append(home_layer)
        document["nextlayerid"] = home_layer["id"] + 1
    else:
        home_layer = layer_at(document, home)
    for name, (r, c) in missing:
        number = document.get("nextobjectid", 1)
        home_layer["objects"].append({"height": 0, "id": number, "name": name, "point": True, "rotation": 0,
                                      "type": "door", "visible": True, "width": 0,
                                      "x": c * tile_w + tile_w / 2, "y": r * tile_h + tile_h / 2})
        document["nextobjectid"] = number + 1


def to_tiled_file(entry: LevelFile, *, cell: int = DEFAULT_CELL, image: str | None = None) -> dict:
    """The map of a level file: with the seed its generator record keeps, and its own star
    thresholds (a pack's), when it has them."""
    seed = entry.generator.get("seed")
    assert isinstance(entry.level, Level)  # a room's map is room_to_tiled's
    solution = solve(entry.level)
    stars = entry.stars_for(solution.stops) if solution else None
    return to_tiled(entry.level, cell=cell, seed=seed if type(seed) is int else None, stars=stars, image=image)
