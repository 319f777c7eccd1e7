"""Every map in, every answer true (issue 40): hostile and old Tiled maps refused or read in one
line, Tiled's XML formats read and written back, a level that is not the map's refused by
``export --into``, the classic generators refusing doors, signals while the command loads,
messages and help, start-up, and the split model reproducible by its seed."""

import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tracemalloc
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from designer.cli import main
from designer.formats.tiled_map import read_map

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MAPS = EXAMPLES / "maps"
DESIGNER = [sys.executable, "-m", "designer"]


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


def small_map(**change) -> dict:
    """An 8x8 room in Tiled's JSON: walls around an empty floor, doors 1 and 2 on the walls."""
    data = [2 if r in (0, 7) or c in (0, 7) else 0 for r in range(8) for c in range(8)]
    tiles = [{"id": k, "properties": [{"name": "kind", "type": "string", "value": v}]}
             for k, v in enumerate(["ice", "wall", "rock"])]
    doc = {"type": "map", "orientation": "orthogonal", "infinite": False, "width": 8, "height": 8,
           "tilewidth": 16, "tileheight": 16, "nextobjectid": 3, "nextlayerid": 3,
           "tilesets": [{"firstgid": 1, "name": "t", "tiles": tiles}],
           "properties": [{"name": "author", "type": "string", "value": "me"}],
           "layers": [{"id": 1, "name": "terrain", "type": "tilelayer", "width": 8, "height": 8, "data": data},
                      {"id": 2, "name": "doors", "type": "objectgroup", "objects": [
                          {"id": 1, "name": "1", "point": True, "x": 56, "y": 120},
                          {"id": 2, "name": "2", "point": True, "x": 72, "y": 8}]}]}
    doc.update(change)
    return doc


def write(path: Path, doc) -> Path:
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def run(capsys, *args) -> tuple[int, str]:
    status = main([str(a) for a in args])
    return status, capsys.readouterr().err


def run_traced(capsys, *args) -> tuple[int, str, int]:
    """``run``, with the most memory Python held meanwhile (bytes)."""
    tracemalloc.start()
    try:
        status, err = run(capsys, *args)
        return status, err, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- 1. export --into writes only what is true -----------------------------------------------------

def test_into_refuses_a_level_the_map_does_not_show(tmp_path, capsys):
    room = write(tmp_path / "room.tmj", small_map())
    other = tmp_path / "other.json"  # the same size, no frame: another room altogether
    assert main(["make", "--size", "8x8", "--no-frame", "--door", "7,3", "--door", "0,4", "--min-stops", "6",
                 "--first", "--format", "json", "-o", str(other)]) == 0
    capsys.readouterr()
    status, err = run(capsys, "export", other, "--into", room, "-o", tmp_path / "out.tmj")
    assert status == 2 and one_line(err) and "row 0, col 0: the map has rock or wall there" in err
    assert not (tmp_path / "out.tmj").exists()


def test_into_refuses_a_level_with_start_and_goal_in_a_rooms_map(tmp_path, capsys):
    room = write(tmp_path / "room.tmj", small_map())
    (tmp_path / "sg.txt").write_text("\n".join("".join("G" if (r, c) == (0, 4) else "S" if (r, c) == (7, 3) else
                                                       "#" if r in (0, 7) or c in (0, 7) else "." for c in range(8))
                                               for r in range(8)))
    status, err = run(capsys, "export", tmp_path / "sg.txt", "--into", room, "-o", tmp_path / "out.tmj")
    assert status == 2 and one_line(err) and "the map is a room with doors 1-9, the file a level" in err


def test_a_filled_map_reads_back_as_the_room_with_the_figures_it_claims(tmp_path, capsys):
    room = write(tmp_path / "room.tmj", small_map())
    assert main(["make", "--template", str(room), "--min-stops", "5", "--format", "json",
                 "-o", str(tmp_path / "filled.json")]) == 0
    assert main(["export", str(tmp_path / "filled.json"), "--into", str(room), "-o", str(tmp_path / "out.tmj")]) == 0
    assert "(the room in a copy of" in capsys.readouterr().err
    designed = json.loads((tmp_path / "filled.json").read_text())
    assert read_map(tmp_path / "out.tmj").rows == tuple(designed["rows"])
    claimed = {p["name"]: p["value"] for p in json.loads((tmp_path / "out.tmj").read_text())["properties"]}
    assert main(["solve", str(tmp_path / "out.tmj"), "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)["routes"][0]
    assert claimed["min_stops_1_2"] == solved["stops"] and claimed["solution_1_2"] == solved["moves"]


# --- 2. the classic generators and doors ------------------------------------------------------------

@pytest.mark.parametrize("method", ["random", "repair", "greedy"])
def test_the_classic_generators_refuse_a_rooms_doors(capsys, method):
    status, err = run(capsys, "make", "--door", "11,5", "--door", "0,5", "--door", "6,0", "--min-stops", "5",
                      "--method", method, "--time-limit", "5")
    assert status == 2 and one_line(err) and f"need --method auto or cpsat, not {method}" in err


# --- 3-7. hostile and old maps ------------------------------------------------------------------------

def _tiles_keyed_by_id(doc):
    doc["tilesets"][0]["tiles"] = {str(t["id"]): {"properties": {"kind": t["properties"][0]["value"]}}
                                   for t in doc["tilesets"][0]["tiles"]}


def test_pre_1_2_json_is_read_and_written_back_in_its_own_form(tmp_path, capsys):
    doc = small_map(properties={"author": "me"}, propertytypes={"author": "string"})
    _tiles_keyed_by_id(doc)
    room = write(tmp_path / "old.tmj", doc)
    assert read_map(room).rows == read_map(write(tmp_path / "new.tmj", small_map())).rows
    assert main(["make", "--template", str(room), "--min-stops", "5", "-o", str(tmp_path / "filled.txt")]) == 0
    assert main(["export", str(tmp_path / "filled.txt"), "--into", str(room), "-o", str(tmp_path / "out.tmj")]) == 0
    out = json.loads((tmp_path / "out.tmj").read_text())
    assert out["properties"]["author"] == "me" and out["properties"]["min_stops_1_2"] >= 5
    assert out["propertytypes"]["min_stops_1_2"] == "int"


def _layer(data: str, compression: str):
    def change(doc):
        doc["layers"][0].update(encoding="base64", compression=compression, data=data)
    return change


HOSTILE = {
    "properties a string": (lambda d: d.update(properties="junk"), "neither a list"),
    "not base64": (_layer("!!!notbase64!!!", "zlib"), "its data is not base64"),
    "not zlib": (_layer(base64.b64encode(b"not zlib at all").decode(), "zlib"), "its data is not zlib data"),
    "not gzip": (_layer(base64.b64encode(b"not gzip").decode(), "gzip"), "its data is not gzip data"),
    "too short": (_layer(base64.b64encode(b"abc").decode(), ""), "does not hold 64 tiles"),
    "a door at NaN": (lambda d: d["layers"][1]["objects"][0].update(x=float("nan")), "has no position"),
    "a door at infinity": (lambda d: d["layers"][1]["objects"][0].update(x=float("inf")), "has no position"),
    "a door without x": (lambda d: d["layers"][1]["objects"][0].pop("x"), "has no position"),
    "a door at a string": (lambda d: d["layers"][1]["objects"][0].update(x="56"), "has no position"),
    "a tile that is no object": (lambda d: d["tilesets"][0].update(tiles=[5, "x"]), "a tile is not an object"),
    "isometric": (lambda d: d.update(orientation="isometric"), "an isometric map"),
    "a wall item": (lambda d: d["layers"][1]["objects"].append({"name": "item", "point": True, "x": 8, "y": 8}),
                    "an item lies on ice"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_map_is_refused_in_one_line(tmp_path, capsys, name):
    change, words = HOSTILE[name]
    doc = small_map()
    change(doc)
    room = write(tmp_path / "room.tmj", json.dumps(doc, allow_nan=True))
    status, err = run(capsys, "make", "--template", room, "--min-stops", "3", "--time-limit", "5")
    assert status == 2 and one_line(err) and words in err and str(room) in err, err


def test_a_door_without_x_in_the_map_of_export_into_is_refused(tmp_path, capsys):
    good = write(tmp_path / "good.tmj", small_map())
    assert main(["make", "--template", str(good), "--min-stops", "5", "-o", str(tmp_path / "level.txt")]) == 0
    capsys.readouterr()
    doc = small_map()
    del doc["layers"][1]["objects"][0]["x"]
    status, err = run(capsys, "export", tmp_path / "level.txt", "--into", write(tmp_path / "bad.tmj", doc),
                      "-o", tmp_path / "out.tmj")
    assert status == 2 and one_line(err) and "object '1' has no position" in err


@pytest.mark.parametrize("route", ["²:1", "３:1", "1:٣", "0:1", "1:10"])
def test_a_route_takes_ascii_doors_only(capsys, route):
    status, err = run(capsys, "make", "--door", "11,5", "--door", "0,5", "--route", route, "--time-limit", "5")
    assert status == 2 and one_line(err) and "--route takes two doors A:B (1-9)" in err


def test_a_door_takes_ascii_digits_only(capsys):
    status, err = run(capsys, "make", "--door", "１１,5", "--door", "0,5", "--time-limit", "5")
    assert status == 2 and one_line(err) and "is not of the form R,C" in err


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_a_decompression_bomb_is_refused_before_it_is_inflated(tmp_path, capsys, compression):
    import gzip

    zeros = b"\0" * (64 * 1024 * 1024)
    packed = zlib.compress(zeros, 9) if compression == "zlib" else gzip.compress(zeros, 9)
    doc = small_map()
    _layer(base64.b64encode(packed).decode(), compression)(doc)
    bomb = write(tmp_path / "bomb.tmj", doc)
    status, err, peak = run_traced(capsys, "make", "--template", bomb, "--min-stops", "3", "--time-limit", "5")
    assert status == 2 and one_line(err) and "does not hold 64 tiles" in err
    assert peak < 20 * 1024 * 1024  # the 64 MB of zeros are never held


def test_a_map_larger_than_the_designer_reads_is_refused_before_its_layers(tmp_path, capsys):
    side = 4096
    raw = bytes(4 * side * side)
    doc = small_map(width=side, height=side)
    doc["layers"][0].update(width=side, height=side, encoding="base64", compression="zlib",
                            data=base64.b64encode(zlib.compress(raw, 9)).decode())
    huge = write(tmp_path / "huge.tmj", doc)
    status, err, peak = run_traced(capsys, "make", "--template", huge, "--min-stops", "3", "--time-limit", "5")
    assert status == 2 and one_line(err) and "the map is 4096x4096 tiles" in err and "at most 40x40" in err
    assert peak < 20 * 1024 * 1024


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize("target", ["fifo", "/dev/zero", "folder"])
def test_a_tileset_that_is_no_regular_file_is_refused_without_blocking(tmp_path, target):
    if target == "fifo":
        os.mkfifo(tmp_path / "t.tsj")
        source = "t.tsj"
    elif target == "folder":
        (tmp_path / "t.tsj").mkdir()
        source = "t.tsj"
    else:
        source = target
    write(tmp_path / "room.tmj", small_map(tilesets=[{"firstgid": 1, "source": source}]))
    done = subprocess.run(DESIGNER + ["make", "--template", "room.tmj", "--min-stops", "3", "--time-limit", "5"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and one_line(done.stderr) and "not a regular file" in done.stderr


def test_a_map_that_declares_xml_entities_is_refused(tmp_path, capsys):
    bomb = ('<?xml version="1.0"?><!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
            '<map orientation="orthogonal" width="8" height="8" tilewidth="16" tileheight="16">'
            '<properties><property name="x" value="&b;"/></properties></map>')
    status, err = run(capsys, "make", "--template", write(tmp_path / "bomb.tmx", bomb), "--time-limit", "5")
    assert status == 2 and one_line(err) and "declares XML entities" in err


@pytest.mark.parametrize("body, words", [
    ('<layer name="t" width="8" height="8"><data>' + "<tile/>" * 100_001 + "</data></layer>",
     "more than 100,000 XML elements"),
    ('<layer name="t" width="8" height="8"><data encoding="csv">' + "0," * 2_000_000 + "0</data></layer>",
     "layer 't' does not hold 8x8 tiles"),
    # one element of 700,000 attributes: 10-40 s and 0.5 GB before (the audit of issue 49)
    ('<properties ' + " ".join(f'a{i}=""' for i in range(700_000)) + '/>', "more than 200,000 XML attributes"),
    # 1,000 elements nested: read, but written back by recursion, a RecursionError traceback
    ("<properties>" + "<x>" * 1000 + "</x>" * 1000 + "</properties>", "nests XML elements more than 64 deep"),
])
def test_an_xml_map_too_large_for_a_room_costs_neither_time_nor_memory(tmp_path, capsys, body, words):
    flood = write(tmp_path / "flood.tmx", '<?xml version="1.0"?><map orientation="orthogonal" width="8" height="8" '
                                          f'tilewidth="16" tileheight="16">{body}</map>')
    status, err, peak = run_traced(capsys, "make", "--template", flood, "--time-limit", "5")
    assert status == 2 and one_line(err) and words in err, err
    assert peak < 40 * 1024 * 1024  # the text itself is 4 MB; no tree of a million elements, no list of them


def test_export_into_a_map_nested_too_deep_is_one_line(tmp_path, capsys):
    good = write(tmp_path / "good.tmj", small_map())
    assert main(["make", "--template", str(good), "--min-stops", "5", "-o", str(tmp_path / "level.txt")]) == 0
    capsys.readouterr()
    deep = write(tmp_path / "deep.tmx", '<?xml version="1.0"?><map orientation="orthogonal" width="8" height="8" '
                                        'tilewidth="16" tileheight="16"><properties>' + "<x>" * 1000 + "</x>" * 1000 +
                                        "</properties></map>")
    status, err = run(capsys, "export", tmp_path / "level.txt", "--into", deep, "-o", tmp_path / "out.tmx")
    assert status == 2 and one_line(err) and "nests XML elements more than 64 deep" in err, err


@pytest.mark.parametrize("where, words", [("item", "the item at 0,0 is walled in"),
                                          ("door", "door 1 (0,0) is walled in")])
def test_an_item_or_door_on_a_frame_corner_is_refused(tmp_path, capsys, where, words):
    doc = small_map()
    if where == "item":
        doc["tilesets"][0]["tiles"].append({"id": 3, "properties": [{"name": "kind", "type": "string",
                                                                      "value": "item"}]})
        doc["layers"][0]["data"][0] = 4
    else:
        doc["layers"][1]["objects"][0].update(x=8, y=8)
    status, err = run(capsys, "make", "--template", write(tmp_path / "room.tmj", doc), "--min-stops", "3",
                      "--time-limit", "5")
    assert status == 2 and one_line(err) and words in err, err


# --- 8. a signal while the command loads -------------------------------------------------------------

SLOW_LOAD = """
import sys, time
class Slow:
    def find_spec(self, name, path=None, target=None):
        if name == "designer.cli.entry":  # run() has set its handlers, and loads the command
            print("loading", flush=True)
            time.sleep(3)  # the command's modules load slowly (a busy machine)
        return None
sys.meta_path.insert(0, Slow())
sys.argv = ["designer", "make", "--time-limit", "60"]
from designer.cli import run
run()
"""


@pytest.mark.parametrize("ending, status, line", [(signal.SIGINT, 130, "designer: interrupted\n"),
                                                  (signal.SIGTERM, 143, "designer: terminated\n")])
def test_a_signal_while_the_command_loads_ends_it_in_one_line(ending, status, line):
    proc = subprocess.Popen([sys.executable, "-c", SLOW_LOAD], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline() == "loading\n"  # inside the slow import
    proc.send_signal(ending)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (status, line)


# --- 10. Tiled's XML ---------------------------------------------------------------------------------

@pytest.fixture
def tmx_room(tmp_path) -> Path:
    for name in ("l-room.tmx", "ice-kit.tsx"):
        shutil.copy(MAPS / name, tmp_path / name)
    return tmp_path / "l-room.tmx"


def test_the_xml_map_reads_as_its_json_twin(tmx_room):
    xml, twin = read_map(tmx_room), read_map(MAPS / "l-room.tmj")
    assert (xml.rows, xml.gids, xml.doors, xml.gaps, xml.free) == (twin.rows, twin.gids, twin.doors, twin.gaps,
                                                                      twin.free)


def test_an_xml_map_is_filled_and_written_back_with_its_other_layers_equal_as_xml(tmx_room, capsys):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    folder = tmx_room.parent
    assert main(["make", "--template", str(tmx_room), "--min-stops", "9", "--seed", "1", "--time-limit", "30",
                 "--format", "json", "-o", str(folder / "filled.json")]) == 0
    assert main(["export", str(folder / "filled.json"), "--into", str(tmx_room), "-o", str(folder / "filled.tmx")]) == 0
    before, after = ET.parse(tmx_room).getroot(), ET.parse(folder / "filled.tmx").getroot()
    layers = [[e for e in root if e.tag in ("layer", "objectgroup")] for root in (before, after)]
    assert [e.get("name") for e in layers[1]] == ["terrain", "details", "doors", "lights"]
    for old, new in zip(layers[0][1:], layers[1][1:]):  # the decoration, the doors (already in place), the lights
        assert ET.canonicalize(ET.tostring(old)) == ET.canonicalize(ET.tostring(new))
    assert ET.canonicalize(ET.tostring(before.find("tileset"))) == ET.canonicalize(ET.tostring(after.find("tileset")))
    assert {k: v for k, v in before.attrib.items()} == {k: v for k, v in after.attrib.items()}
    rows = json.loads((folder / "filled.json").read_text())["rows"]
    assert read_map(folder / "filled.tmx").rows == tuple(rows)
    parsed = pytiled_parser.parse_map(folder / "filled.tmx")  # an independent reader of Tiled's XML
    assert [layer.name for layer in parsed.layers] == ["terrain", "details", "doors", "lights"]
    assert parsed.properties["music"] == "cave.ogg" and parsed.properties["min_stops_1_3"] >= 9
    capsys.readouterr()
    status, err = run(capsys, "export", folder / "filled.json", "--into", tmx_room, "-o", folder / "x.tmj")
    assert status == 2 and one_line(err) and "written as FILE.tmx" in err


def test_a_json_map_with_an_xml_tileset_is_read(tmp_path):
    doc = json.loads((MAPS / "l-room.tmj").read_text())
    doc["tilesets"][0]["source"] = "ice-kit.tsx"
    shutil.copy(MAPS / "ice-kit.tsx", tmp_path / "ice-kit.tsx")
    assert read_map(write(tmp_path / "room.tmj", doc)).rows == read_map(MAPS / "l-room.tmj").rows


def test_solve_analyze_render_and_play_read_a_filled_map(tmx_room, capsys):
    folder = tmx_room.parent
    assert main(["make", "--template", str(tmx_room), "--min-stops", "9", "--seed", "1", "-o",
                 str(folder / "filled.txt")]) == 0
    assert main(["export", str(folder / "filled.txt"), "--into", str(tmx_room), "-o", str(folder / "filled.tmx")]) == 0
    capsys.readouterr()
    assert main(["solve", str(folder / "filled.tmx")]) == 0
    assert capsys.readouterr().out.count("route ") == 3
    assert main(["analyze", str(folder / "filled.tmx")]) == 0
    assert "(tiled)" in capsys.readouterr().out.splitlines()[0]
    assert main(["play", str(folder / "filled.tmx"), "-o", str(folder / "p.html")]) == 0
    assert "(1 room)" in capsys.readouterr().err
    status, err = run(capsys, "solve", tmx_room)  # its free cells are not filled yet
    assert status == 2 and one_line(err) and "it is a template" in err
    status, err = run(capsys, "make", "--template", folder / "filled.tmx", "--time-limit", "5")
    assert status == 2 and one_line(err) and "no free cell to fill" in err


# --- 12, 13. messages and help ----------------------------------------------------------------------

def test_export_needs_no_to_and_choices_take_any_case(tmp_path, capsys):
    level = tmp_path / "level.txt"
    level.write_text((EXAMPLES / "levels" / "strong-reversible.txt").read_text())
    assert main(["export", str(level), "-o", str(tmp_path / "x.tmj")]) == 0
    assert main(["make", "--difficulty", "Hard", "--method", "AUTO", "--time-limit", "20", "-o",
                 str(tmp_path / "hard.txt")]) == 0


def test_a_json_room_says_json(tmp_path, capsys):
    room = tmp_path / "room.json"
    assert main(["make", "--door", "11,5", "--door", "0,5", "--min-stops", "5", "--format", "json",
                 "-o", str(room)]) == 0
    capsys.readouterr()
    assert main(["analyze", str(room)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("(json)")


def test_plain_designer_lists_every_command(capsys):
    from designer.cli.entry import command_names

    assert main([]) == 2
    err = capsys.readouterr().err
    assert one_line(err) and all(name in err for name in command_names()) and "studio" in err


def test_help_groups_the_commands_and_gives_examples():
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    top = subprocess.run(DESIGNER + ["--help"], capture_output=True, text=True, timeout=60, env=env).stdout
    for panel in ("Design", "Inspect", "Export", "Studies"):
        assert f"─ {panel} ─" in top
    assert "..." not in top.replace("[ARGS]...", "")  # no summary cut mid-sentence
    make = subprocess.run(DESIGNER + ["make", "--help"], capture_output=True, text=True, timeout=60, env=env).stdout
    assert "Examples:" in make and "cpsat-ends" in make and "source 00" not in make
    assert make.index("--door") < make.index("--from")
    for command in ("solve", "analyze", "render", "export", "play", "compare", "pareto", "records", "studio"):
        text = subprocess.run(DESIGNER + [command, "--help"], capture_output=True, text=True, timeout=60,
                              env=env).stdout
        assert "Examples:" in text and "<int" not in text and "<float" not in text, command


# --- 14. start-up -----------------------------------------------------------------------------------

def test_solve_loads_neither_networkx_nor_pydantic(tmp_path):
    level = tmp_path / "level.txt"
    level.write_text((EXAMPLES / "levels" / "strong-reversible.txt").read_text())
    probe = ("import sys; from designer.cli import main; status = main(['solve', sys.argv[1]]); "
             "print([m for m in ('networkx', 'pydantic') if m in sys.modules], status)")
    done = subprocess.run([sys.executable, "-c", probe, str(level)], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "[] 0", done.stderr


# --- 15. a seed gives one level ----------------------------------------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pairs side by side: forked lanes")
def test_the_split_model_gives_one_level_for_one_seed(tmp_path, capsys):
    levels = set()
    for k in range(3):
        out = tmp_path / f"{k}.txt"
        assert main(["make", "--method", "cpsat-ends", "--size", "6x6", "--min-stops", "9", "--seed", "1",
                     "--workers", "2", "-o", str(out)]) == 0
        levels.add(out.read_text())
    assert len(levels) == 1


def test_the_studio_opens_an_xml_map_and_saves_into_it_in_xml(tmp_path):
    from designer.ops.sketches import into_map_text, open_sketch

    tileset = (MAPS / "ice-kit.tsx").read_text().split("?>", 1)[1].strip()
    embedded = (MAPS / "l-room.tmx").read_text().replace('<tileset firstgid="1" source="ice-kit.tsx"/>',
                                                          tileset.replace("<tileset ", '<tileset firstgid="1" ', 1))
    opened = open_sketch("room.tmx", embedded)
    assert opened["kind"] == "map" and opened["rows"] == list(read_map(MAPS / "l-room.tmx").rows)
    assert main(["make", "--template", str(write(tmp_path / "room.tmx", embedded)), "--min-stops", "9", "--seed", "1",
                 "-o", str(tmp_path / "filled.txt")]) == 0
    rows = (tmp_path / "filled.txt").read_text().split()
    text = into_map_text(embedded, rows)
    assert text.startswith("<?xml") and read_map(write(tmp_path / "saved.tmx", text)).rows == tuple(rows)
