"""The objects and layers of a user's Tiled map (``designer.formats.tiled_map`` reads the map):
the layers by kind through their groups, and what the object layers place: doors (``1``-``9``,
``start``, ``goal``), items, portals, their targets and floors. Each reader checks what it takes
and refuses, in one LevelError line, anything not laid out as Tiled writes it.
"""

from __future__ import annotations

import math
from typing import Any

from designer.core.errors import LevelError
from designer.core.terrain import DOOR_CHARS, Cell

#: The names of door objects, and the template character of each.
DOOR_NAMES = {**{door: door for door in DOOR_CHARS}, "start": "S", "goal": "G"}


#: The object types of portals, one-way targets and floors
#: (``designer.export.tiled.passage_markers``).
PASSAGE_TYPES = ("portal", "target", "floor")


def passages(user) -> tuple[tuple, tuple]:
    """A map's (a ``UserMap``'s) portals and floors: objects of type ``portal`` (named by a letter, the property
    ``to`` naming its target's), ``target`` and ``floor`` (a rectangle over its rows, the property
    ``wrap``), as ``designer export`` writes them; ((), ()) for a map with none. LevelError (one
    line) for one that does not add up."""
    from designer.core.floors import Floor, resolve_links

    document = user.document
    tile_w, tile_h = document["tilewidth"], document["tileheight"]
    marks, links, floors = {}, [], []
    for _, layer in layers_of("objectgroup", document["layers"]):
        for obj in objects_of(layer):
            kind = obj.get("type", obj.get("class")) if isinstance(obj, dict) else None
            if kind not in PASSAGE_TYPES:
                continue
            name = obj.get("name")
            if not isinstance(name, str) or not (name or kind == "floor") or not placed(obj):
                raise LevelError(
                    f"an object of type {kind!r} needs a name and a position (x and y finite numbers)"
                )
            props = {p.get("name"): p.get("value") for p in _as_properties(obj.get("properties"))}
            if kind == "floor":
                top, rows = round(obj["y"] / tile_h), round((obj.get("height") or 0) / tile_h)
                wrap = props.get("wrap", "")
                floors.append(
                    Floor(
                        name,
                        top,
                        rows,
                        round((obj.get("width") or 0) / tile_w),
                        wrap if isinstance(wrap, str) else "?",
                    )
                )
                continue
            if name in marks:
                raise LevelError(f"two portal or target objects named {name!r}")
            marks[name] = object_cell(obj, tile_w, tile_h)
            if kind == "portal":
                target = props.get("to")
                if not isinstance(target, str):
                    raise LevelError(f"portal {name!r} has no property 'to' naming its target")
                links.append((name, target, False))
    portals = resolve_links(marks, links) if marks else ()
    floors.sort(key=lambda floor: floor.top)
    return portals, tuple(floors)


def _as_properties(properties) -> list[dict]:
    """An object's properties as a list of {name, value}: Tiled 1.2+'s list, or an older object."""
    if isinstance(properties, dict):
        return [{"name": key, "value": value} for key, value in properties.items()]
    return [p for p in properties or [] if isinstance(p, dict)]


def layers_of(kind: str, layers: list, path: tuple[int, ...] = ()):
    """(path, layer) of every layer of ``kind`` ("tilelayer", "objectgroup"), groups searched in
    order; a path is the layer's indices through its groups (``layer_at``)."""
    for k, layer in enumerate(layers):
        if not isinstance(layer, dict):
            continue
        if layer.get("type") == kind:
            yield (*path, k), layer
        elif layer.get("type") == "group":
            inner = layer.get("layers") or []
            if not isinstance(inner, list):
                raise LevelError('a group layer\'s "layers" is not a list')
            yield from layers_of(kind, inner, (*path, k))


def objects_of(layer: dict) -> list:
    """An object layer's objects (a list; LevelError when it is not one)."""
    objects = layer.get("objects") or []
    if not isinstance(objects, list):
        raise LevelError(
            f'object layer {str(layer.get("name"))[:40]!r}: its "objects" is not a list'
        )
    return objects


def layer_at(document: dict, path: tuple[int, ...]) -> Any:
    """The layer of a map at ``path`` (indices through its groups)."""
    layers, layer = document["layers"], None
    for k in path:
        layer = layers[k]
        layers = layer.get("layers") or []
    return layer


def _finite(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and abs(value) < 1e9


def placed(obj: dict) -> bool:
    """Whether an object has a position: finite numbers x and y (width and height, when given,
    finite too)."""
    return (
        _finite(obj.get("x"))
        and _finite(obj.get("y"))
        and all(_finite(obj.get(key) or 0) for key in ("width", "height"))
    )


def object_cell(obj: dict, tile_w: int, tile_h: int) -> Cell:
    """The cell under an object (``placed``): a point's, a rectangle's centre, a tile object's centre."""
    x, y = float(obj["x"]), float(obj["y"])
    w, h = float(obj.get("width", 0) or 0), float(obj.get("height", 0) or 0)
    if obj.get("point"):
        w = h = 0.0
    elif "gid" in obj:  # a tile object hangs from its bottom-left corner
        y -= h
    return int((y + h / 2) // tile_h), int((x + w / 2) // tile_w)


def items_of(
    document: dict,
    grid: list[list[str]],
    tile_w: int,
    tile_h: int,
    name: str = "item",
    mark: str = "*",
) -> tuple[frozenset, tuple | None]:
    """The cells of the objects named ``item`` (each marked ``*`` in ``grid``: an item pinned on
    ice), and the layer of the first one; with ``name="coin"``, ``mark="$"``: the coins."""
    cells, home = set(), None
    height, width = len(grid), len(grid[0])
    for path, layer in layers_of("objectgroup", document["layers"]):
        for obj in objects_of(layer):
            if not isinstance(obj, dict) or obj.get("name") != name:
                continue
            if not placed(obj):
                raise LevelError(f"an object {name!r} has no position (x and y finite numbers)")
            r, c = object_cell(obj, tile_w, tile_h)
            if not (0 <= r < height and 0 <= c < width):
                raise LevelError(f"an object {name!r} lies outside the {width}x{height} map")
            if grid[r][c] not in ".?" + mark:
                what = (
                    "snow"
                    if grid[r][c] == "_"
                    else "an item"
                    if grid[r][c] == "*"
                    else "a rock, wall or door"
                )
                raise LevelError(
                    f"an object {name!r} lies on {what} (row {r}, col {c}): an {name} lies on ice"
                    if name == "item"
                    else f"an object {name!r} lies on {what} (row {r}, col {c}): a {name} lies on free ice"
                )
            grid[r][c] = mark
            cells.add((r, c))
            home = home or path
    return frozenset(cells), home


def doors_of(document: dict, grid: list[list[str]], tile_w: int, tile_h: int) -> dict:
    """The door objects, by name ((layer path, index) of each), their cells marked in ``grid``."""
    doors: dict[str, tuple[tuple[int, ...], int]] = {}
    height, width = len(grid), len(grid[0])
    for path, layer in layers_of("objectgroup", document["layers"]):
        for k, obj in enumerate(objects_of(layer)):
            name = obj.get("name") if isinstance(obj, dict) else None
            if name is not None and not isinstance(name, str):
                raise LevelError(
                    f"an object's name is {type(name).__name__}, not text: Tiled names objects with text"
                )
            if name not in DOOR_NAMES:
                continue
            if name in doors:
                raise LevelError(f"two objects named {name!r}: a door is one object")
            if not placed(obj):
                raise LevelError(f"object {name!r} has no position (x and y finite numbers)")
            r, c = object_cell(obj, tile_w, tile_h)
            if not (0 <= r < height and 0 <= c < width):
                raise LevelError(f"object {name!r} lies outside the {width}x{height} map")
            if grid[r][c] in DOOR_NAMES.values():
                raise LevelError(
                    f"objects {grid[r][c]!r} and {name!r} lie on the same cell (row {r}, col {c})"
                )
            if grid[r][c] == "_":
                raise LevelError(
                    f"object {name!r} lies on snow (row {r}, col {c}): a door is an ice cell"
                )
            grid[r][c] = DOOR_NAMES[name]
            doors[name] = (path, k)
    if not doors:
        raise LevelError(
            "no door objects: name a point or rectangle object 1-9 (or start and goal) at each door"
        )
    return doors
