"""Tiled's XML formats: a TMX map and a TSX tileset, read as the JSON documents Tiled writes for
the same map (so that one reader, ``designer.formats.tiled_map``, reads both formats), and a
copy of a TMX map with a level written into it.

Tiled saves maps as XML by default (``.tmx``, tilesets ``.tsx``). The parse is the standard
library's (expat); a map that declares XML entities is refused in one line (Tiled never writes
them, and expanding them is how a small file becomes a large one). What is read (the rest is
kept for the write-back, never interpreted):

- ``<map>``: orientation, width, height, tilewidth, tileheight, infinite, nextlayerid,
  nextobjectid and its ``<properties>``;
- ``<tileset>``: ``firstgid`` with ``source`` (an external tileset), or embedded, each ``<tile
  id>``'s ``<properties>``;
- the layers in order, groups searched: ``<layer>`` with ``<data>`` as CSV, base64 (plain, zlib
  or gzip) or ``<tile gid>`` elements (chunks are an infinite map's, refused as for JSON);
  ``<objectgroup>`` with each ``<object>``'s name, x, y, width, height, gid and ``<point/>``;
  ``<imagelayer>`` and ``<group>``.

A TMX object's missing x or y is 0, as the format says (Tiled's JSON requires them).

>>> doc = map_document(parse_xml('<map orientation="orthogonal" width="3" height="1" tilewidth="8" '
...     'tileheight="8"><layer name="t" width="3" height="1"><data encoding="csv">1,2,0</data></layer>'
...     '</map>', "map"))
>>> doc["width"], doc["layers"][0]["data"]
(3, [1, 2, 0])
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any
from xml.parsers import expat

from designer.core.errors import LevelError
from designer.core.limits import MAX_DESIGN_SIDE

#: Layer elements, with the JSON ``type`` of each.
LAYER_TAGS = {
    "layer": "tilelayer",
    "objectgroup": "objectgroup",
    "imagelayer": "imagelayer",
    "group": "group",
}
#: Groups nested deeper than this are refused (Tiled's own maps nest a few).
MAX_GROUP_DEPTH = 32
#: XML elements a map may hold: a 40x40 room drawn as <tile> elements on 50 layers holds 80,000.
MAX_ELEMENTS = 100_000
#: Elements nested deeper than this are refused: the groups above, and a layer's data, objects and
#: properties under them. Written back, a tree is serialised by recursion (1,000 deep failed).
MAX_XML_DEPTH = MAX_GROUP_DEPTH + 32
#: '=' signs a map may hold, an attribute's each: a <tile gid=".."/> each on the map above is
#: 80,000.
#: Counted before expat runs: it took 1.2 s on one element of 700,000 attributes, and the tree 0.5
#: GB.
MAX_ATTRIBUTES = 200_000
_WHOLE = re.compile(r"[+-]?\d{1,10}")


def parse_xml(text: str, what: str) -> ET.Element:
    """The root element of XML text; one LevelError line for bad XML, a declared entity, more
    than ``MAX_ELEMENTS`` elements or ``MAX_ATTRIBUTES`` attributes, elements nested deeper than
    ``MAX_XML_DEPTH``, or a map or layer larger than the designer reads. A first
    pass (expat itself, streaming) refuses these before the tree is built, so that a hostile
    file costs neither the time nor the memory of its tree."""
    if text.count("=") > MAX_ATTRIBUTES:
        raise LevelError(
            f"the {what} holds more than {MAX_ATTRIBUTES:,} XML attributes: no room of at most "
            f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE} needs so many"
        )
    scan = expat.ParserCreate()
    count = depth = 0

    def refuse(*_args) -> None:
        raise LevelError(
            f"the {what} declares XML entities: Tiled never writes them, and they are not read"
        )

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    def element(name: str, attributes: dict) -> None:
        nonlocal count, depth
        count += 1
        depth += 1
        if depth > MAX_XML_DEPTH:
            raise LevelError(
                f"the {what} nests XML elements more than {MAX_XML_DEPTH} deep: Tiled's maps nest a few"
            )
        if count > MAX_ELEMENTS:
            raise LevelError(
                f"the {what} holds more than {MAX_ELEMENTS:,} XML elements: no room of at most "
                f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE} needs so many"
            )
        if name in ("map", "layer"):
            height, width = _whole(attributes.get("height")), _whole(attributes.get("width"))
            if any(type(v) is int and v > MAX_DESIGN_SIDE for v in (height, width)):
                raise LevelError(
                    f"the {'map' if name == 'map' else 'layer ' + repr(attributes.get('name', ''))[:40]} "
                    f"is {height}x{width} tiles (height x width): the designer reads rooms of at most "
                    f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE}"
                )

    scan.EntityDeclHandler = refuse
    scan.UnparsedEntityDeclHandler = refuse
    scan.StartElementHandler = element
    scan.EndElementHandler = end
    scan.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        scan.Parse(text, True)
        return ET.fromstring(text)
    except expat.ExpatError as exc:
        raise LevelError(
            f"bad XML at line {exc.lineno}, column {exc.offset + 1}: {expat.ErrorString(exc.code)}"
        ) from None
    except ET.ParseError as exc:
        line, column = exc.position
        raise LevelError(f"bad XML at line {line}, column {column + 1}") from None


def _whole(text: str | None):
    """An attribute as a whole number, or the text itself (which the reader then refuses)."""
    return int(text) if text is not None and _WHOLE.fullmatch(text.strip()) else text


def _number(text: str | None, default=None):
    """An attribute as a number (finite or not: the reader refuses what is not), or the text itself."""
    if text is None:
        return default
    if _WHOLE.fullmatch(text.strip()):
        return int(text)
    try:
        return float(text)
    except ValueError:
        return text


def _properties(element: ET.Element) -> list[dict]:
    """The ``<properties>`` of an element, as Tiled's JSON lists them."""
    found = []
    holder = element.find("properties")
    for prop in holder.findall("property") if holder is not None else ():
        kind = prop.get("type", "string")
        value: Any = prop.get("value", prop.text or "")
        if kind == "int":
            value = _whole(value)
        elif kind == "float":
            value = _number(value)
        elif kind == "bool":
            value = value == "true"
        found.append({"name": prop.get("name"), "type": kind, "value": value})
    return found


def tileset_document(root: ET.Element, first_gid: bool = False) -> dict:
    """A ``<tileset>`` (a TSX file's root, or one embedded in a map) as Tiled's JSON tileset."""
    if root.tag != "tileset":
        raise LevelError(f"not a Tiled tileset (its XML root is <{root.tag[:40]}>)")
    tileset: dict = {}
    if first_gid:
        tileset["firstgid"] = _whole(root.get("firstgid"))
        if root.get("source") is not None:
            tileset["source"] = root.get("source")
            return tileset
    tileset["name"] = root.get("name", "")
    tileset["tiles"] = [
        {"id": _whole(tile.get("id")), "properties": _properties(tile)}
        for tile in root.findall("tile")
    ]
    return tileset


def _layer_data(data: ET.Element | None) -> dict:
    """A ``<layer>``'s data as the JSON layer keys: ``data`` (and its encoding), or ``chunks``."""
    if data is None:
        return {"data": []}
    if data.find("chunk") is not None:
        return {"chunks": []}
    encoding, compression = data.get("encoding"), data.get("compression")
    if encoding == "csv":
        if (data.text or "").count(",") >= MAX_DESIGN_SIDE * MAX_DESIGN_SIDE:
            return {"data": None}  # more than any room holds: refused as a layer of the wrong size
        cells = [part.strip() for part in (data.text or "").split(",")]
        if cells == [""]:
            cells = []
        return {"data": [int(part) if _WHOLE.fullmatch(part) else -1 for part in cells]}
    if encoding == "base64":
        return {
            "encoding": "base64",
            "compression": compression or "",
            "data": "".join((data.text or "").split()),
        }
    if encoding:
        return {"encoding": encoding, "data": None}
    return {"data": [_whole(tile.get("gid", "0")) for tile in data.findall("tile")]}


def _object(obj: ET.Element) -> dict:
    found = {
        "id": _whole(obj.get("id")),
        "name": obj.get("name", ""),
        "type": obj.get("type", obj.get("class", "")),
        "x": _number(obj.get("x"), 0),
        "y": _number(obj.get("y"), 0),
        "width": _number(obj.get("width"), 0),
        "height": _number(obj.get("height"), 0),
    }
    if obj.find("point") is not None:
        found["point"] = True
    if obj.get("gid") is not None:
        found["gid"] = _whole(obj.get("gid"))
    return found


def layer_elements(parent: ET.Element) -> list[ET.Element]:
    """The layer elements of a map or group, in order (a JSON document's ``layers``)."""
    return [child for child in parent if child.tag in LAYER_TAGS]


def _layers(parent: ET.Element, depth: int) -> list[dict]:
    if depth > MAX_GROUP_DEPTH:
        raise LevelError(f"groups nested more than {MAX_GROUP_DEPTH} deep")
    layers = []
    for element in layer_elements(parent):
        layer = {
            "type": LAYER_TAGS[element.tag],
            "name": element.get("name", ""),
            "id": _whole(element.get("id")),
        }
        if element.tag == "layer":
            layer.update(
                width=_whole(element.get("width")),
                height=_whole(element.get("height")),
                **_layer_data(element.find("data")),
            )
        elif element.tag == "objectgroup":
            layer["objects"] = [_object(obj) for obj in element.findall("object")]
        elif element.tag == "group":
            layer["layers"] = _layers(element, depth + 1)
        layers.append(layer)
    return layers


def map_document(root: ET.Element) -> dict:
    """A ``<map>`` as Tiled's JSON map (the keys the designer reads; see the module docstring)."""
    if root.tag != "map":
        raise LevelError(f"not a Tiled map (its XML root is <{root.tag[:40]}>, not <map>)")
    document: dict[str, Any] = {
        "type": "map",
        "orientation": root.get("orientation"),
        "infinite": root.get("infinite") == "1",
    }
    for key in ("width", "height", "tilewidth", "tileheight", "nextlayerid", "nextobjectid"):
        document[key] = _whole(root.get(key))
    document["properties"] = _properties(root)
    document["tilesets"] = [
        tileset_document(element, first_gid=True) for element in root.findall("tileset")
    ]
    document["layers"] = _layers(root, 0)
    return document


def element_at(root: ET.Element, path: tuple[int, ...]) -> ET.Element:
    """The layer element at ``path`` (indices through groups, as ``tiled_map.layer_at``)."""
    element = root
    for k in path:
        element = layer_elements(element)[k]
    return element


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def write_into(
    root: ET.Element, before: dict, after: dict, puzzle: tuple[int, ...], cells: list[int]
) -> str:
    """The TMX text of a copy of ``root`` changed as ``before`` (its document, ``map_document``)
    became ``after`` (``designer.export.tiled_into.into_map``'s copy): the puzzle layer (at ``puzzle``)
    holding ``cells`` as CSV, objects moved or added, map properties set,
    ``nextobjectid``/``nextlayerid``. Nothing else is touched: every other element and attribute
    stays as it was."""
    root = copy.deepcopy(root)
    data = element_at(root, puzzle).find("data")
    assert data is not None  # the puzzle layer was read from its <data>
    for key in list(data.attrib):
        del data.attrib[key]
    data.set("encoding", "csv")
    for child in list(data):
        data.remove(child)
    width = after["width"]
    gids = [str(gid) for gid in cells]
    data.text = (
        "\n" + ",\n".join(",".join(gids[k : k + width]) for k in range(0, len(gids), width)) + "\n"
    )
    _objects_into(root, before["layers"], after["layers"])
    for key in ("nextobjectid", "nextlayerid"):
        if after.get(key) != before.get(key) and after.get(key) is not None:
            root.set(key, str(after[key]))
    old = {p["name"]: p for p in before.get("properties") or []}
    holder = root.find("properties")
    for prop in after.get("properties") or []:
        if old.get(prop["name"]) == prop:
            continue
        if holder is None:
            holder = ET.Element("properties")
            holder.text, holder.tail = root.text, root.text
            root.insert(0, holder)
        mine = next((p for p in holder.findall("property") if p.get("name") == prop["name"]), None)
        if mine is None:
            mine = _append(holder, ET.Element("property", name=prop["name"]))
        if prop["type"] == "string":
            mine.attrib.pop("type", None)
        else:
            mine.set("type", prop["type"])
        mine.text = None
        mine.set("value", _text(prop["value"]))
    # Tiled writes empty elements as <point/>; ElementTree as <point />. A '>' in text or in an
    # attribute is escaped, so " />" only ever closes an empty element.
    text = ET.tostring(root, encoding="unicode").replace(" />", "/>")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n"


def _append(parent: ET.Element, child: ET.Element) -> ET.Element:
    """``child`` appended to ``parent`` with the whitespace of its siblings (the file's own
    indentation), so that the elements around it stay as they were, character for character."""
    kids = list(parent)
    if kids:
        child.tail = kids[-1].tail
        kids[-1].tail = kids[-2].tail if len(kids) > 1 else parent.text
    else:
        indent = (parent.tail or "\n") + " "
        parent.text, child.tail = indent, parent.tail
    parent.append(child)
    return child


def _objects_into(parent: ET.Element, before: list, after: list) -> None:
    """The object layers of ``after`` written over ``parent``'s elements: objects of ``before``
    whose x or y changed get the new value; objects and layers after those of ``before`` are added."""
    elements = layer_elements(parent)
    for k, layer in enumerate(after):
        if k >= len(before):  # a layer the write added
            element = _append(
                parent,
                ET.Element("objectgroup", id=str(layer.get("id", "")), name=layer.get("name", "")),
            )
            _add_objects(element, layer.get("objects") or [])
            continue
        if layer.get("type") == "group":
            _objects_into(elements[k], before[k].get("layers") or [], layer.get("layers") or [])
        elif layer.get("type") == "objectgroup":
            mine = elements[k].findall("object")
            old = before[k].get("objects") or []
            for obj, was, element in zip(layer["objects"], old, mine):
                for key in ("x", "y"):
                    if obj.get(key) != was.get(key):
                        element.set(key, _text(obj[key]))
            _add_objects(elements[k], layer["objects"][len(old) :])


def _add_objects(element: ET.Element, objects: list[dict]) -> None:
    for obj in objects:
        added = _append(
            element,
            ET.Element(
                "object",
                id=str(obj["id"]),
                name=obj["name"],
                type=obj.get("type", ""),
                x=_text(obj["x"]),
                y=_text(obj["y"]),
            ),
        )
        if obj.get("point"):
            _append(added, ET.Element("point"))
