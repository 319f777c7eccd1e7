"""A designed level or room written into a copy of the user's own Tiled map, the template it was
designed from (``export --to tiled --into``): the puzzle layer's cells, the items and doors as objects,
the figures as map properties; every other layer, tileset and property kept as the user made it.
The copy is read back and compared with the level before it is written (``disagreement``)."""

from __future__ import annotations

from designer.analysis.solver import solve
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.room import Room
from designer.export.tiled import tiled_property
from designer.export.tiles import (
    tile_kinds,
)
from designer.formats.tiled_objects import DOOR_NAMES, layer_at, object_cell


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
        raise ValueError(
            "a level or room with floors, wrap-around or portals is not written into a user's map: "
            "export it as a map of its own (designer export LEVEL -o FILE.tmj)"
        )
    import copy

    if found.shape != (user.height, user.width):
        raise ValueError(
            f"the level is {found.height}x{found.width} and the map {user.height}x{user.width} (height x "
            "width): a level fills the map it was designed from"
        )
    why = disagreement(user, found)
    if why:
        raise ValueError(why)
    document = copy.deepcopy(user.document)
    doors = found.ends()
    door_cells = {cell for _, cell in doors}
    kinds = tile_kinds(found)
    data = list(user.cells)
    items = set(found.items)
    for r, c in sorted(user.free | (door_cells & user.gaps) | (door_cells - _open(user))):
        k = r * user.width + c
        kind = (
            "ice"
            if (r, c) in door_cells
            else "item"
            if (r, c) in items and "item" in user.gids
            else kinds[r][c]
        )
        if kind not in user.gids:
            raise ValueError(
                f"the map's tilesets have no tile of kind {kind!r} to draw the {_what(found)}'s {kind} "
                "with (a tile with the custom property kind)"
            )
        data[k] = user.gids[kind]
    layer = layer_at(document, user.layer)
    for key in ("encoding", "compression"):
        layer.pop(key, None)
    layer["data"] = data
    _place_doors(document, user, doors)
    _place_items(document, user, sorted(items))
    _place_items(document, user, sorted(found.coins), "coin")
    figures = []
    for suffix, route in found.route_levels():  # a level's one route, unnamed; a room's each
        solution = solve(route)
        figures += [
            (f"min_stops{suffix}", "int", solution.stops if solution else -1),
            (f"solution{suffix}", "string", solution.moves if solution else ""),
        ]
        if items and solution and not suffix:  # where a level's items are taken
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
        text = tmx.write_into(
            user.xml, user.document, document, user.layer, layer_at(document, user.layer)["data"]
        )
    else:
        text = json.dumps(document, indent=1) + "\n"
    try:
        back = map_from_text(text, folder)
    except LevelError as exc:
        raise ValueError(f"the map as written does not read back ({exc})") from None
    if back.rows != tuple(found.rows()):
        raise ValueError(f"the map as written does not read back as the {_what(found)}")
    claimed = {
        p["name"]: p["value"] for p in _as_list(document.get("properties")) if _figure(p["name"])
    }
    written = {p["name"]: p["value"] for p in _as_list(back.document.get("properties"))}
    if any(written.get(name) != value for name, value in claimed.items()):
        raise ValueError("the map as written does not read back with its figures")
    return text


def _figure(name: object) -> bool:
    """Whether a map property is one of the figures ``into_map`` writes (its par, solution, items)."""
    return isinstance(name, str) and (
        name in ("min_stops", "solution", "items_taken_at")
        or name.startswith(("min_stops_", "solution_"))
    )


def _as_list(properties) -> list[dict]:
    if isinstance(properties, dict):
        return [{"name": name, "value": value} for name, value in properties.items()]
    return [p for p in properties or [] if isinstance(p, dict) and "name" in p]


def _what(found: Level | Room) -> str:
    return found.kind_name


#: Each kind of puzzle as a map and as a file, when the two differ.
_AS_MAP = {"room": "a room with doors 1-9", "level": "a level with a start and a goal"}
_AS_FILE = {"room": "a room with doors 1-9", "level": "a level"}

#: What each template character of a map is, in a refusal.
_NAMES = {
    "#": "rock or wall",
    ".": "ice",
    "_": "snow",
    "*": "an item",
    "?": "a free cell",
    "S": "the start",
    "G": "the goal",
    "$": "a coin",
}


def _name(ch: str) -> str:
    return _NAMES.get(ch) or f"door {ch}"


def disagreement(user, found: Level | Room) -> str | None:
    """Why ``found`` is not the room a user's map shows (None when it is): of another kind (a
    level's start and goal against a room's doors 1-9), or a cell the map fixes (all but its free
    cells) drawn otherwise. A fixed ice cell may hold an item, a coin, or a door the map does not place."""
    if user.kind_name != found.kind_name:
        return f"the map is {_AS_MAP[user.kind_name]}, the file {_AS_FILE[found.kind_name]}"
    rows = found.rows()
    placed = {DOOR_NAMES[name] for name in user.doors}  # the template characters of the map's doors
    unplaced = set(found.end_chars) - placed
    for r, row in enumerate(user.rows):
        for c, drawn in enumerate(row):
            mine = rows[r][c]
            if drawn in ("?", mine) or (drawn == "." and (mine in "*$" or mine in unplaced)):
                continue
            return (
                f"row {r}, col {c}: the map has {_name(drawn)} there, the {_what(found)} {_name(mine)}: write a "
                f"{_what(found)} designed from this map (make --template)"
            )
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
            properties.append(tiled_property(name, kind, value))
        else:
            mine.update(tiled_property(name, kind, value))


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
    have = {
        object_cell(obj, tile_w, tile_h)
        for obj in layer.get("objects") or []
        if isinstance(obj, dict) and obj.get("name") == name
    }
    for r, c in items:
        if (r, c) in have or (name == "item" and (r, c) in user.item_cells):
            continue
        number = document.get("nextobjectid", 1)
        layer["objects"].append(
            {
                "height": 0,
                "id": number,
                "name": name,
                "point": True,
                "rotation": 0,
                "type": name,
                "visible": True,
                "width": 0,
                "x": c * tile_w + tile_w / 2,
                "y": r * tile_h + tile_h / 2,
            }
        )
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
        home_layer = {
            "draworder": "topdown",
            "id": document.get("nextlayerid", len(document["layers"]) + 1),
            "name": "doors",
            "objects": [],
            "opacity": 1,
            "type": "objectgroup",
            "visible": True,
            "x": 0,
            "y": 0,
        }
        document["layers"].append(home_layer)
        document["nextlayerid"] = home_layer["id"] + 1
    else:
        home_layer = layer_at(document, home)
    for name, (r, c) in missing:
        number = document.get("nextobjectid", 1)
        home_layer["objects"].append(
            {
                "height": 0,
                "id": number,
                "name": name,
                "point": True,
                "rotation": 0,
                "type": "door",
                "visible": True,
                "width": 0,
                "x": c * tile_w + tile_w / 2,
                "y": r * tile_h + tile_h / 2,
            }
        )
        document["nextobjectid"] = number + 1
