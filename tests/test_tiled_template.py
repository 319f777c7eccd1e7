"""A user's own Tiled map as the room (issue 31, item 5): ``make --template room.tmj`` reads a
map made by hand in Tiled's format (examples/maps/l-room.tmj: an L-shaped room, an external .tsj
tileset, a decoration layer and a lights layer, doors as point and rectangle objects), and
``export --to tiled --into room.tmj`` writes the designed room into a copy of it with every
other layer, tileset and property unchanged; refusals in one line."""

import json
import shutil
from pathlib import Path

import pytest

from designer.cli import main
from designer.core.room import Room
from designer.formats.tiled_map import read_map

DATA = Path(__file__).resolve().parents[1] / "examples" / "maps"  # the example's map, made in Tiled's format
L_TEMPLATE = ("#####3####", "#.???????#", "#????????#", "2????????#", "#???#????#",
              "#????#####", "#????#####", "#????#####", "#????#####", "##1#######")


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


@pytest.fixture
def l_room(tmp_path) -> Path:
    for name in ("l-room.tmj", "ice-kit.tsj"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path / "l-room.tmj"


def test_the_hand_made_map_reads_as_an_l_shaped_template(l_room):
    user = read_map(l_room)
    assert user.rows == L_TEMPLATE
    assert user.gids == {"wall": 1, "rock": 2, "ice": 3, "snow": 4, "free": 5}
    assert user.gaps == {(9, 2), (3, 0), (0, 5)}


def test_a_room_designed_in_the_users_map_goes_back_into_it_with_their_layers_kept(l_room, capsys):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    folder = l_room.parent
    designed, filled = folder / "designed.json", folder / "filled.tmj"
    assert main(["make", "--template", str(l_room), "--min-stops", "9", "--seed", "1", "--time-limit", "30",
                 "-o", str(designed), "--format", "json"]) == 0
    room = Room.from_rows(json.loads(designed.read_text())["rows"])
    for r, row in enumerate(L_TEMPLATE):
        for c, ch in enumerate(row):
            assert ch == "?" or room.rows()[r][c] == ch
    assert main(["export", str(designed), "--to", "tiled", "--into", str(l_room), "-o", str(filled)]) == 0
    before, after = json.loads(l_room.read_text()), json.loads(filled.read_text())
    assert [layer["name"] for layer in after["layers"]] == ["terrain", "details", "doors", "lights"]
    assert after["layers"][1:] == before["layers"][1:]  # the decoration, the doors and the lights, as they were
    assert after["tilesets"] == before["tilesets"]
    assert {k: v for k, v in after.items() if k not in ("layers", "properties")} == \
        {k: v for k, v in before.items() if k not in ("layers", "properties")}
    assert after["properties"][0] == {"name": "music", "type": "string", "value": "cave.ogg"}
    assert read_map(filled).rows == tuple(room.rows())  # every cell drawn now, the doors gaps of ice
    tmx = pytiled_parser.parse_map(filled)
    terrain = tmx.layers[0]
    kinds = {1: "#", 2: "#", 3: ".", 4: "_"}
    assert ["".join(kinds[g] for g in row) for row in terrain.data] == \
        ["".join("." if ch.isdigit() else ch for ch in row) for row in room.rows()]
    routes = {name: value for name, value in tmx.properties.items() if name.startswith("min_stops_")}
    assert set(routes) == {"min_stops_1_2", "min_stops_1_3", "min_stops_2_3"} and min(routes.values()) >= 9


def test_a_level_goes_into_a_map_whose_doors_are_start_and_goal(tmp_path, capsys):
    doc = json.loads((DATA / "l-room.tmj").read_text())
    objects = doc["layers"][2]["objects"]
    objects[0]["name"], objects[2]["name"] = "start", "goal"
    del objects[1]
    shutil.copy(DATA / "ice-kit.tsj", tmp_path / "ice-kit.tsj")
    (tmp_path / "sg.tmj").write_text(json.dumps(doc))
    assert main(["make", "--template", str(tmp_path / "sg.tmj"), "--min-stops", "8", "--seed", "2",
                 "-o", str(tmp_path / "level.txt")]) == 0
    assert main(["export", str(tmp_path / "level.txt"), "--to", "tiled", "--into", str(tmp_path / "sg.tmj"),
                 "-o", str(tmp_path / "out.tmj")]) == 0
    out = json.loads((tmp_path / "out.tmj").read_text())
    names = {p["name"] for p in out["properties"]}
    assert {"music", "min_stops", "solution"} <= names


def edited(l_room: Path, change) -> Path:
    doc = json.loads(l_room.read_text())
    change(doc)
    l_room.write_text(json.dumps(doc))
    return l_room


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(infinite=True), "an infinite map"),
    (lambda d: d.update(orientation="isometric"), "only orthogonal maps"),
    (lambda d: d["tilesets"][0].update(source="ice-kit.tsx"), "tileset ice-kit.tsx: no such file"),
    (lambda d: (d["layers"][1].update(data=[1] * 100), d["layers"][0].update(name="floor")), "2 tile layers hold"),
    (lambda d: d["layers"][2].update(objects=[]), "no door objects"),
    (lambda d: d["layers"][0]["data"].__setitem__(11, 6), "has no kind the designer knows"),
    (lambda d: d["layers"][0].update(encoding="base64", compression="zstd", data="AAAA"), "compressed with zstd"),
    (lambda d: d["layers"][3]["objects"].append({**d["layers"][2]["objects"][0], "id": 9}), "two objects named '1'"),
])
def test_a_map_the_designer_cannot_take_is_refused_in_one_line(l_room, capsys, change, words):
    assert main(["make", "--template", str(edited(l_room, change)), "--time-limit", "5"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err and str(l_room) in err, err


def test_a_base64_zlib_layer_reads_as_its_array(l_room):
    import base64
    import zlib

    def to_base64(doc):
        layer = doc["layers"][0]
        raw = b"".join(g.to_bytes(4, "little") for g in layer["data"])
        layer.update(encoding="base64", compression="zlib", data=base64.b64encode(zlib.compress(raw)).decode())

    assert read_map(edited(l_room, to_base64)).rows == L_TEMPLATE


def test_into_takes_one_level_of_the_maps_size_into_a_json_map(l_room, tmp_path, capsys):
    (tmp_path / "small.txt").write_text("#G#\n#.#\n#S#\n")
    assert main(["export", str(tmp_path / "small.txt"), "--to", "tiled", "--into", str(l_room),
                 "-o", str(tmp_path / "x.tmj")]) == 2
    assert "the level is 3x3" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "small.txt"), "--to", "tiled", "--into", str(l_room),
                 "--out", str(tmp_path / "maps")]) == 2
    assert "use -o FILE.tmj, not --out" in capsys.readouterr().err
    assert not (tmp_path / "x.tmj").exists() and not (tmp_path / "maps").exists()


def test_free_cells_may_be_drawn_as_tiles_of_kind_free(l_room):
    def draw_free(doc):
        data = doc["layers"][0]["data"]
        for k, row in enumerate(L_TEMPLATE):
            for c, ch in enumerate(row):
                if ch == "?":
                    data[k * 10 + c] = 5  # the tileset's "free" tile

    assert read_map(edited(l_room, draw_free)).rows == L_TEMPLATE


def test_a_missing_map_is_named_once(tmp_path, capsys):
    missing = tmp_path / "nothere.tmj"
    assert main(["make", "--template", str(missing)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and err.count(str(missing)) == 1 and "no such file" in err


def test_items_pinned_in_the_users_map_and_placed_by_the_designer_go_back_as_objects(tmp_path, capsys):
    doc = json.loads((DATA / "l-room.tmj").read_text())
    objects = doc["layers"][2]["objects"]
    objects[0]["name"], objects[2]["name"] = "start", "goal"
    del objects[1]
    objects.append({"height": 0, "id": 7, "name": "item", "point": True, "rotation": 0, "type": "",
                    "visible": True, "width": 0, "x": 3 * 32 + 16, "y": 2 * 32 + 16})  # row 2, col 3
    shutil.copy(DATA / "ice-kit.tsj", tmp_path / "ice-kit.tsj")
    (tmp_path / "sg.tmj").write_text(json.dumps(doc))
    assert read_map(tmp_path / "sg.tmj").rows[2][3] == "*"
    designed = tmp_path / "level.json"
    assert main(["make", "--template", str(tmp_path / "sg.tmj"), "--items", "1", "--min-stops", "8", "--seed", "2",
                 "--format", "json", "-o", str(designed)]) == 0
    items = json.loads(designed.read_text())["items"]
    assert [2, 3] in items and len(items) == 2
    assert main(["export", str(designed), "--to", "tiled", "--into", str(tmp_path / "sg.tmj"),
                 "-o", str(tmp_path / "out.tmj")]) == 0
    out = json.loads((tmp_path / "out.tmj").read_text())
    placed = [(o["y"] // 32, o["x"] // 32) for layer in out["layers"] if layer["type"] == "objectgroup"
              for o in layer["objects"] if o["name"] == "item"]
    assert sorted(placed) == sorted(tuple(cell) for cell in items)
    assert sorted(read_map(tmp_path / "out.tmj").item_cells) == sorted(tuple(cell) for cell in items)
    assert "items_taken_at" in {p["name"] for p in out["properties"]}


def test_an_exported_level_with_items_carries_them_as_tiles_and_objects(tmp_path):
    source = Path(__file__).resolve().parents[1] / "examples" / "levels" / "two-items.txt"
    assert main(["export", str(source), "--to", "tiled", "-o", str(tmp_path / "items.tmj")]) == 0
    doc = json.loads((tmp_path / "items.tmj").read_text())
    tiles = doc["tilesets"][0]["tiles"]
    item_gid = 1 + next(t["id"] for t in tiles if t["type"] == "item")
    ends = doc["layers"][1]["data"]
    width = doc["width"]
    assert sorted(divmod(k, width) for k, g in enumerate(ends) if g == item_gid) == [(1, 1), (6, 1)]
    assert [o["name"] for o in doc["layers"][2]["objects"]].count("item") == 2
    assert (tmp_path / "ice-item-tiles.png").exists() and not (tmp_path / "ice-tiles.png").exists()
