"""A cave as Tiled maps: one map per room and a Tiled ``.world`` file placing them (the file Tiled
opens maps that join with), out and in.

Each room's map is the room's own (``designer.export.tiled.room_to_tiled``) with, on a ``links``
object layer, an object on each door a link leaves by: named by its kind (``door``, ``ladder``,
``hole``), of type ``link``, its property ``to`` naming the door it leads to (``ROOM:N``) and
``lock`` its key, if any; on a ``landings`` layer, an object (type ``landing``, property
``from``) where each hole lands; and each key an object of type ``key`` named by its key. The
map's properties say which room it is (``room``), its ``floor``, its place on the floor plan
(``at``, "R,C"), the ``entrance`` or ``exit`` door it holds, and the whole cave's par, solution
and stars (``cave_par``, ``cave_solution``, ``cave_stars_two``, ``cave_stars_one``). Every map
uses one tileset (``world_tileset``). The world places each floor's rooms where the plan has
them, the floors one under the other. A key is read from its object, or from a map property
``key_NAME`` ("R,C") as earlier worlds write it.

A user's own world of room maps is read the same way, as a cave (free cells are what the
designer fills); ``into_world`` writes a designed cave back into copies of those maps, every
other layer, tileset and property kept (``designer.export.tiled_into.into_map``).
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

from designer.caves.cave import Cave, door_roles
from designer.caves.parts import KINDS, CaveRoom, Key, Link, door_text, parse_cell, parse_door
from designer.core.errors import LevelError

#: Rows left empty between two floors in the world.
FLOOR_GAP = 2


def _prop(name: str, kind: str, value) -> dict:
    return {"name": name, "type": kind, "value": value}


def world_files(cave: Cave, cell: int = 32) -> dict[str, str]:
    """The files of the cave's world: ``NAME.tmj`` per room and ``cave.world`` (texts by name).
    The tileset images the maps name are the Tiled export's (``designer.export.tiled.room_tileset``)."""
    from designer.analysis.stars import Stars
    from designer.caves.graph import solve
    from designer.caves.picture import layout
    from designer.export.tiled import room_to_tiled

    places = layout(cave)
    way = solve(cave)
    stars = Stars.default(way.stops) if way else None
    whole = [
        _prop("cave_par", "int", way.stops if way else -1),
        _prop("cave_solution", "string", way.moves if way else ""),
    ]
    if stars:
        whole += [
            _prop("cave_stars_two", "int", stars.two),
            _prop("cave_stars_one", "int", stars.one),
        ]
    tileset, tiles = world_tileset(cave), door_tiles(cave)
    kinds = tileset[1]
    files, entries, top = {}, [], 0
    for floor in sorted({room.floor for room in cave.rooms}):
        rooms = [room for room in cave.rooms if room.floor == floor]
        for room in rooms:
            document = room_to_tiled(room.room, cell=cell, tileset=tileset)
            for layer in document["layers"]:  # each linked door drawn by the kind of its link
                if layer.get("name") == "doors":
                    for number, (r, c) in room.doors.items():
                        if (room.name, number) in tiles:
                            layer["data"][r * room.shape[1] + c] = (
                                kinds.index(tiles[(room.name, number)]) + 1
                            )
            r0, c0 = places[room.name]
            props = [
                _prop("room", "string", room.name),
                _prop("floor", "int", room.floor),
                _prop("at", "string", f"{r0},{c0}"),
            ]
            for what, door in (("entrance", cave.entrance), ("exit", cave.exit)):
                if door[0] == room.name:
                    props.append(_prop(what, "int", door[1]))
            document["properties"] = props + whole + document["properties"]
            for layer in document["layers"]:  # each key's object: of type key, named by the key
                for obj in layer.get("objects", ()):
                    if obj.get("type") == "item":
                        r, c = int(obj["y"]) // cell, int(obj["x"]) // cell
                        key = next(k for k in cave.keys if k.room == room.name and k.cell == (r, c))
                        obj.update(name=key.name, type="key")
            objects: list[dict] = []
            for link in cave.links:
                for door, other in ((link.a, link.b), (link.b, link.a))[: 1 if link.one_way else 2]:
                    if door[0] != room.name:
                        continue
                    r, c = cave.door_cell(door)
                    extra = [_prop("lock", "string", link.lock)] if link.lock else []
                    objects.append(
                        {
                            "id": document["nextobjectid"] + len(objects),
                            "name": link.kind,
                            "type": "link",
                            "x": c * cell,
                            "y": r * cell,
                            "width": cell,
                            "height": cell,
                            "rotation": 0,
                            "visible": True,
                            "properties": [_prop("to", "string", door_text(other)), *extra],
                        }
                    )
            document["nextobjectid"] += len(objects)
            landings: list[
                dict
            ] = []  # where each hole lands: an object on its far door, saying where it comes from
            for link in cave.links:
                if link.one_way and link.b[0] == room.name:
                    r, c = cave.door_cell(link.b)
                    landings.append(
                        {
                            "id": document["nextobjectid"] + len(landings),
                            "name": link.kind,
                            "type": "landing",
                            "x": c * cell,
                            "y": r * cell,
                            "width": cell,
                            "height": cell,
                            "rotation": 0,
                            "visible": True,
                            "properties": [_prop("from", "string", door_text(link.a))],
                        }
                    )
            document["nextobjectid"] += len(landings)
            for name, layer_objects in (("links", objects), ("landings", landings)):
                if name == "links" or layer_objects:
                    document["layers"].append(
                        {
                            "id": document["nextlayerid"],
                            "name": name,
                            "type": "objectgroup",
                            "x": 0,
                            "y": 0,
                            "opacity": 1,
                            "visible": True,
                            "draworder": "topdown",
                            "objects": layer_objects,
                        }
                    )
                    document["nextlayerid"] += 1
            files[f"{room.name}.tmj"] = json.dumps(document, indent=1) + "\n"
            h, w = room.shape
            entries.append(
                {
                    "fileName": f"{room.name}.tmj",
                    "x": c0 * cell,
                    "y": (top + r0) * cell,
                    "width": w * cell,
                    "height": h * cell,
                }
            )
        top += max(places[r.name][0] + r.shape[0] for r in rooms) + FLOOR_GAP
    files["cave.world"] = (
        json.dumps({"maps": entries, "onlyShowAdjacentMaps": False, "type": "world"}, indent=1)
        + "\n"
    )
    return files


#: The one tileset of every map of a cave's world: its image's name.
CAVE_TILESET_IMAGE = "ice-cave-tiles.png"


def world_tileset(cave: Cave) -> tuple[str, tuple[str, ...]]:
    """The one tileset (image name, tiles) of every map of a cave's world: a room's, the key's
    tile, and a tile for each kind of link's door (``CAVE_TILES``)."""
    from designer.export.tiles import CAVE_TILES

    return CAVE_TILESET_IMAGE, CAVE_TILES


def door_tiles(cave: Cave) -> dict:
    """The tile of each linked door in the world's maps: its role (``door_roles``: a doorway, a
    ladder up or down, a hole where it leaves); a hole's landing, the entrance and the exit keep
    the room's ``door`` tile."""
    return {door: role for door, (role, _, _) in door_roles(cave).items() if role != "landing"}


def _world(source) -> list[tuple[Path, dict]]:
    """The maps a world file names, each (path, its entry); one LevelError line for a world that
    is not one, or names a map outside its own folder."""
    from designer.formats.reading import decode_text, load_json, read_bytes

    document = load_json(decode_text(read_bytes(source, "Tiled world")))
    maps = document.get("maps") if isinstance(document, dict) else None
    if not isinstance(maps, list) or not maps:
        raise LevelError(f'{source}: not a Tiled world with maps (a "maps" list)')
    folder = Path(source).parent
    found: list = []
    for entry in maps[: 64 + 1]:
        name = entry.get("fileName") if isinstance(entry, dict) else None
        if (
            not isinstance(name, str)
            or not name
            or PurePosixPath(name).is_absolute()
            or ".." in PurePosixPath(name).parts
        ):
            raise LevelError(
                f"{source}: each map is a fileName inside the world's folder, not {name!r}"
            )
        path = folder / PurePosixPath(name)
        if any(path == other for other, _ in found):
            raise LevelError(f"{source}: the map {name} is named twice")
        found.append((path, entry))
    return found


def read_world(source) -> Cave:
    """The cave a world of room maps shows (see the module docstring): a template where maps
    have free cells; one LevelError line naming the map for anything it cannot take."""
    return _read(source)[0]


def _read(source):
    from designer.formats.tiled_map import read_map
    from designer.formats.tiled_objects import layers_of, object_cell

    rooms: list[CaveRoom] = []
    links: list[Link] = []
    keys: list[Key] = []
    ends: dict[str, Any] = {}
    users: dict[str, Any] = {}
    for path, entry in _world(source):
        user = read_map(path, named=True)
        try:
            props = {p.get("name"): p.get("value") for p in _properties(user.document)}
            given = props.get("room")
            name: str = given if isinstance(given, str) else path.stem
            tw, th = user.document["tilewidth"], user.document["tileheight"]
            at = (
                parse_cell(props["at"], "the map's property at")
                if isinstance(props.get("at"), str)
                else (int(entry.get("y", 0)) // th, int(entry.get("x", 0)) // tw)
            )
            floor = props.get("floor", 1)
            rows = [list(row) for row in user.rows]
            for r, c in user.item_cells:
                rows[r][c] = "*"
            for what in ("entrance", "exit"):
                if what in props:
                    if what in ends or type(props[what]) is not int:
                        raise LevelError(f"one map holds the {what}, as a whole door number")
                    ends[what] = (name, props[what])
            named = set()
            # keys: objects of type key
            for _, layer in layers_of("objectgroup", user.document["layers"]):
                for obj in layer.get("objects") or []:
                    if isinstance(obj, dict) and obj.get("type", obj.get("class")) == "key":
                        r, c = object_cell(obj, tw, th)
                        if not (
                            isinstance(obj.get("name"), str)
                            and 0 <= r < len(rows)
                            and 0 <= c < len(rows[0])
                            and rows[r][c] in ".*"
                        ):
                            raise LevelError(
                                "a key object is named by its key and lies on ice in the map"
                            )
                        rows[r][c] = "*"
                        keys.append(Key(obj["name"], name, (r, c)))
                        named.add(obj["name"])
            for (
                prop,
                value,
            ) in props.items():  # and, as earlier worlds have them, properties key_NAME
                if isinstance(prop, str) and prop.startswith("key_") and prop[4:] not in named:
                    keys.append(Key(prop[4:], name, parse_cell(str(value), f"property {prop}")))
            rooms.append(
                CaveRoom(
                    name,
                    tuple("".join(row) for row in rows),
                    at,
                    floor if type(floor) is int else 0,
                )
            )
            for _, layer in layers_of("objectgroup", user.document["layers"]):
                for obj in layer.get("objects") or []:
                    if not isinstance(obj, dict) or obj.get("type", obj.get("class")) != "link":
                        continue
                    r, c = object_cell(obj, tw, th)
                    number = rows[r][c] if 0 <= r < len(rows) and 0 <= c < len(rows[0]) else ""
                    lp = {p.get("name"): p.get("value") for p in _as_list(obj.get("properties"))}
                    if (
                        obj.get("name") not in KINDS
                        or not number.isdigit()
                        or not isinstance(lp.get("to"), str)
                    ):
                        raise LevelError(
                            "a link object is named door, ladder or hole, lies on a door, and has a "
                            "property 'to' (ROOM:N)"
                        )
                    links.append(
                        Link(obj["name"], (name, int(number)), parse_door(lp["to"]), lp.get("lock"))
                    )
        except LevelError as exc:
            raise LevelError(f"{path}: {exc}") from None
        users[name] = (path, user)
    for what in ("entrance", "exit"):
        if what not in ends:
            raise LevelError(
                f"{source}: no map holds the {what} (a map property {what}: its door number)"
            )
    kept, seen = [], set()
    for link in links:  # a two-way link is drawn on both of its doors: kept once
        pair = frozenset((link.a, link.b)) if link.kind != "hole" else (link.a, link.b)
        if pair not in seen:
            seen.add(pair)
            kept.append(link)
    try:
        return Cave(tuple(rooms), tuple(kept), ends["entrance"], ends["exit"], tuple(keys)), users
    except LevelError as exc:
        raise LevelError(f"{source}: {exc}") from None


def into_world(source, cave: Cave) -> dict[str, str]:
    """Copies of the maps of the world ``source`` with ``cave``'s designed rooms written in, and
    the world file itself, texts by file name: each map's as the world names it (``maps/one.tmj``),
    relative to the world's folder."""
    from designer.export.tiled_into import into_map_text

    template, users = _read(source)
    files = {}
    folder = Path(source).parent
    for room in template.rooms:
        path, user = users[room.name]
        try:
            # by its name in the world (maps/one.tmj): the world written beside the copies names
            # them
            # as it did, and two maps of one name in two folders stay two
            files[path.relative_to(folder).as_posix()] = into_map_text(
                user, cave.room(room.name).room, path.parent
            )
        except ValueError as exc:
            raise LevelError(f"{path}: {exc}") from None
    files[Path(source).name] = Path(source).read_text(encoding="utf-8")
    return files


def _properties(document: dict) -> list:
    return _as_list(document.get("properties"))


def _as_list(properties) -> list:
    if isinstance(properties, dict):  # before Tiled 1.2: an object
        return [{"name": k, "value": v} for k, v in properties.items()]
    return [p for p in properties or [] if isinstance(p, dict)]
