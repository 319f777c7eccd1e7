"""A cave out and in: Tiled worlds (a map per room) written and read back, a user's world filled
and written back with its own layers kept, the floor plan, and the play page in Chromium."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from designer.caves import graph
from designer.caves.cave import Cave
from designer.caves.design import design
from designer.caves.cave_request import CaveRequest
from designer.caves.world import read_world
from designer.cli import main
from test_caves import random_cave
from test_play import CHROMIUM, KEYS, browser, open_page, state, sync_playwright  # noqa: F401  browser: a fixture

ROOT = Path(__file__).resolve().parent.parent
CAVES = ROOT / "examples" / "caves"


@pytest.fixture(scope="module")
def ice_path(tmp_path_factory) -> Path:
    """The Ice Path example designed (3 floors, holes, ladders, a key), as a cave file."""
    made = design(CaveRequest(Cave.parse((CAVES / "ice-path.txt").read_text()), 40), seed=2, time_limit=60)
    path = tmp_path_factory.mktemp("cave") / "ice-path.txt"
    path.write_text(str(made.cave) + "\n")
    return path


def test_a_cave_goes_out_as_a_world_of_maps_and_reads_back_the_same(ice_path, tmp_path, capsys):
    out = tmp_path / "world"
    assert main(["export", str(ice_path), "--to", "tiled", "--out", str(out)]) == 0
    assert "wrote 7 room maps and the world" in capsys.readouterr().err
    world = json.loads((out / "cave.world").read_text())
    assert world["type"] == "world" and len(world["maps"]) == 7
    cave = Cave.parse(ice_path.read_text())
    again = read_world(out / "cave.world")
    assert sorted(map(str, again.links)) == sorted(map(str, cave.links))  # room by room, not in the text's order
    assert again.but(links=cave.links) == cave
    assert main(["solve", str(out / "cave.world")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == graph.solve(cave).moves


def test_an_independent_tiled_reader_reads_the_world_its_maps_and_their_links(ice_path, tmp_path):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    out = tmp_path / "world"
    assert main(["export", str(ice_path), "--to", "tiled", "--out", str(out)]) == 0
    world = pytiled_parser.parse_world(out / "cave.world")
    cave = Cave.parse(ice_path.read_text())
    assert sorted(one.map_file.name for one in world.maps) == sorted(f"{room.name}.tmj" for room in cave.rooms)
    links = set()
    for one in world.maps:
        found = pytiled_parser.parse_map(one.map_file)
        room = found.properties["room"]
        assert one.size.width == cave.room(room).shape[1] * 32
        for layer in found.layers:
            if layer.name == "links":
                links |= {(room, obj.name, obj.properties["to"], obj.properties.get("lock")) for obj in layer.tiled_objects}
    want = {(link.a[0], link.kind, f"{link.b[0]}:{link.b[1]}", link.lock) for link in cave.links}
    want |= {(link.b[0], link.kind, f"{link.a[0]}:{link.a[1]}", link.lock) for link in cave.links if not link.one_way}
    assert links == want


def test_a_worlds_keys_landings_tileset_and_par_are_where_an_engine_finds_them(ice_path, tmp_path):
    """Each key an object of type key named by its key; each hole's far door a landing object
    saying where it comes from; one tileset for every map (one image written); the cave's par,
    solution and stars on every map; read by an independent Tiled reader."""
    pytiled_parser = pytest.importorskip("pytiled_parser")
    out = tmp_path / "world"
    assert main(["export", str(ice_path), "--to", "tiled", "--out", str(out)]) == 0
    cave = Cave.parse(ice_path.read_text())
    way = graph.solve(cave)
    assert sorted(path.name for path in out.glob("*.png")) == ["ice-cave-tiles.png"]
    keys, landings, images, drawn = [], [], set(), {}
    for one in pytiled_parser.parse_world(out / "cave.world").maps:
        found = pytiled_parser.parse_map(one.map_file)
        assert (found.properties["cave_par"], found.properties["cave_solution"]) == (way.stops, way.moves)
        assert found.properties["cave_stars_two"] > way.stops
        images |= {tileset.image.name for tileset in found.tilesets.values()}
        room = found.properties["room"]
        (first, tileset), = found.tilesets.items()
        kind = {tile.id + first: tile.properties["kind"] for tile in tileset.tiles.values()}
        for layer in found.layers:
            if layer.name == "doors":
                for number, (r, c) in cave.room(room).doors.items():
                    drawn[(room, number)] = kind[layer.data[r][c]]
            for obj in getattr(layer, "tiled_objects", ()):
                if obj.class_ == "key":
                    keys.append((obj.name, room))
                if obj.class_ == "landing":
                    landings.append((room, obj.name, obj.properties["from"]))
    assert images == {"ice-cave-tiles.png"}
    # four kinds of link on four tiles of their own: a doorway, a ladder up and down, a hole
    floor = {room.name: room.floor for room in cave.rooms}
    for link in cave.links:
        if link.kind == "ladder":
            down = floor[link.b[0]] > floor[link.a[0]]
            assert (drawn[link.a], drawn[link.b]) == (("ladder_down", "ladder_up") if down else ("ladder_up", "ladder_down"))
        else:
            assert drawn[link.a] == {"door": "doorway", "hole": "hole"}[link.kind]
    assert {drawn[cave.entrance], drawn[cave.exit]} == {"door"}
    assert keys == [(key.name, key.room) for key in cave.keys]
    assert sorted(landings) == sorted((link.b[0], "hole", f"{link.a[0]}:{link.a[1]}") for link in cave.links
                                      if link.one_way)


def test_a_users_world_is_filled_and_written_back_with_its_other_layers_kept(tmp_path, capsys):
    user = CAVES / "world" / "cave.world"
    filled, out = tmp_path / "cave.json", tmp_path / "filled"
    assert main(["cave", str(user), "--min-stops", "60", "--seed", "1", "-o", str(filled)]) == 0
    assert main(["export", str(filled), "--to", "tiled", "--into", str(user), "--out", str(out)]) == 0
    for name in ("one", "two", "three", "four"):
        mine = json.loads((user.parent / f"{name}.tmj").read_text())
        copy = json.loads((out / f"{name}.tmj").read_text())
        kept = {layer["name"]: layer for layer in mine["layers"] if layer["name"] != "terrain"}
        assert kept == {layer["name"]: layer for layer in copy["layers"] if layer["name"] != "terrain"}
        assert mine["tilesets"] == copy["tilesets"]
    assert (out / "cave.world").read_text() == user.read_text()
    capsys.readouterr()
    assert main(["analyze", str(out / "cave.world"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["solvability"] == "strong" and report["min_stops"] >= 60


def _world_in_folders(folder: Path, where: dict[str, str]) -> Path:
    """The example world with each room's map at ``where[room]`` (a path inside ``folder``)."""
    world = json.loads((CAVES / "world" / "cave.world").read_text())
    for entry in world["maps"]:
        name = entry["fileName"][:-len(".tmj")]
        target = folder / where[name]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CAVES / "world" / f"{name}.tmj", target)
        shutil.copy(CAVES / "world" / "tiles.png", target.parent / "tiles.png")
        entry["fileName"] = where[name]
    (folder / "cave.world").write_text(json.dumps(world, indent=1) + "\n")
    return folder / "cave.world"


@pytest.mark.parametrize("where", [
    {name: f"maps/{name}.tmj" for name in ("one", "two", "three", "four")},  # the maps in a subfolder
    {"one": "a/room.tmj", "two": "b/room.tmj", "three": "three.tmj", "four": "c/d/four.tmj"},  # two of one name
])
def test_a_world_with_maps_in_folders_is_written_back_where_it_names_them(tmp_path, capsys, where):
    """The audit of issue 49: the copies were written flat (maps/one.tmj as one.tmj), so the world
    written beside them did not read back, or read stale maps; two maps of one name collided."""
    user = _world_in_folders(tmp_path / "w", where)
    filled, out = tmp_path / "cave.json", tmp_path / "out"
    assert main(["cave", str(user), "--min-stops", "20", "--seed", "1", "--time-limit", "60", "-o", str(filled)]) == 0
    assert main(["export", str(filled), "--to", "tiled", "--into", str(user), "--out", str(out)]) == 0
    assert "wrote 4 room maps" in capsys.readouterr().err
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.tmj")) == sorted(where.values())
    for path in where.values():  # beside its tileset image, as in the user's world
        shutil.copy(CAVES / "world" / "tiles.png", (out / path).parent / "tiles.png")
    capsys.readouterr()
    figures = []
    for cave in (out / "cave.world", filled):  # the written world reads back as the designed cave
        assert main(["analyze", str(cave), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        figures.append((report["min_stops"], report["solvability"], report["rooms"]))
    assert figures[0] == figures[1] and figures[0][0] >= 20


def test_a_world_whose_map_is_a_fifo_is_refused_at_once(ice_path, tmp_path, capsys):
    import os
    import time

    user = _world_in_folders(tmp_path / "w", {name: f"{name}.tmj" for name in ("one", "two", "three", "four")})
    (tmp_path / "w" / "one.tmj").unlink()
    os.mkfifo(tmp_path / "w" / "one.tmj")  # no writer: opened for reading, it blocks for ever
    for args in (["solve", str(user)], ["analyze", str(user)], ["cave", str(user), "--min-stops", "10"],
                 ["export", str(ice_path), "--to", "tiled", "--into", str(user), "--out",
                  str(tmp_path / "out")]):
        began = time.monotonic()
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "not a regular file" in err and time.monotonic() - began < 30


def test_exporting_a_missing_file_into_a_world_says_no_such_file(tmp_path, capsys):
    assert main(["export", str(tmp_path / "nosuch.json"), "--to", "tiled", "--into",
                 str(CAVES / "world" / "cave.world"), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"designer: {tmp_path / 'nosuch.json'}: no such file\n"


def test_the_floor_plan_marks_the_way_room_by_room(ice_path, tmp_path):
    svg, png = tmp_path / "plan.svg", tmp_path / "plan.png"
    assert main(["render", str(ice_path), "-o", str(svg), "--solution"]) == 0
    text = svg.read_text()
    way = graph.solve(Cave.parse(ice_path.read_text()))
    assert text.count('class="way"') == len(way.visits)
    assert text.count("floor ") >= 3 and "ladder to" in text and "hole to" in text and "lock gold" in text
    assert main(["render", str(ice_path), "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


needs_browser = pytest.mark.skipif(sync_playwright is None or CHROMIUM is None,
                                   reason="no Playwright or no Chromium on this machine (.ci/run installs them)")


@needs_browser
def test_the_whole_cave_is_played_through_its_doors_with_its_key(browser, ice_path, tmp_path, capsys):
    page_file = tmp_path / "cave.html"
    assert main(["play", str(ice_path), "-o", str(page_file)]) == 0
    capsys.readouterr()
    assert main(["solve", str(ice_path)]) == 0
    moves = capsys.readouterr().out.splitlines()[0]
    page = open_page(browser, page_file)
    assert page.locator(".cell.lock").count() == 2 and page.locator("#items").text_content() == "Room a1 \u00b7 keys: none of 1"
    # every room named, every door labelled with what it does and where it leads, the key named
    cave = Cave.parse(ice_path.read_text())
    labels = page.locator(".link-label").all_inner_texts()
    assert len(labels) == sum(len(room.doors) for room in cave.rooms)
    assert all(re.fullmatch(r"(doorway|ladder|hole)( (up|down))? to [a-c][1-3](, locked: gold)?|hole from [a-c][1-3]"
                            r"|entrance|exit", text) for text in labels), labels
    assert "ladder down to b1" in labels and "hole from a2" in labels and "doorway to c2, locked: gold" in labels
    assert sorted(page.locator(".room-name").all_inner_texts())[:2] == ["a1 \u00b7 floor 1", "a2 \u00b7 floor 1"]
    assert page.locator(".key-name").all_inner_texts() == ["gold"]
    for letter in moves:
        page.keyboard.press(KEYS[letter])
    assert state(page) == ("solved", len(moves))
    assert page.locator("#items").text_content() == "Room c2 \u00b7 keys: gold of 1"
    assert page.fetched == []
    page.close()


@needs_browser
@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
@pytest.mark.parametrize("view", ["room", "whole"])
def test_the_player_stays_in_view_through_the_whole_cave_and_solved_is_in_view(browser, ice_path, tmp_path, capsys,
                                                                               viewport, view):
    """After every move along the solution the player's cell lies wholly inside the viewport,
    under the bar, and "Solved" is in view at the end (once it was at y = 2,874, the page never
    scrolling). One room at a time (the default) the room fits the screen, the minimap marks the
    player's room and the rooms seen; the whole cave (V) is a sheet taller than the screen, the
    page following the player."""
    page_file = tmp_path / "cave.html"
    assert main(["play", str(ice_path), "-o", str(page_file)]) == 0
    capsys.readouterr()
    assert main(["solve", str(ice_path)]) == 0
    moves = capsys.readouterr().out.splitlines()[0]
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(page_file.as_uri())
    inside = """() => { const r = document.getElementById("player").getBoundingClientRect();
        const head = document.getElementById("top").getBoundingClientRect().bottom;
        return r.top >= head - 1 && r.left >= -1 && r.bottom <= window.innerHeight + 1
            && r.right <= document.documentElement.clientWidth + 1; }"""
    assert page.get_attribute("body", "data-view") == "room"
    if view == "whole":
        page.keyboard.press("v")
        assert page.evaluate("document.documentElement.scrollHeight") > viewport[1]  # the sheet is taller
    else:
        assert page.evaluate("document.documentElement.scrollHeight") <= viewport[1]  # the room fits the screen
    assert page.get_attribute("body", "data-view") == view
    rooms = []
    for k, letter in enumerate(moves):
        page.keyboard.press(KEYS[letter])
        assert page.evaluate(inside), f"move {k + 1} ({letter}): the player is out of view"
        here = page.get_attribute("body", "data-room")
        assert page.locator("#minimap [data-here]").get_attribute("data-room") == here
        rooms.append(here)
    assert state(page) == ("solved", len(moves))
    assert sorted(page.locator("#minimap [data-seen]").evaluate_all("els => els.map(e => e.dataset.room)")) == \
        sorted(set(rooms) | {"a1"})
    box = page.locator("#status").bounding_box()
    assert "Solved" in page.inner_text("#status") and 0 <= box["y"] and box["y"] + box["height"] <= viewport[1]
    context.close()


@needs_browser
def test_the_pages_slide_agrees_with_the_state_graph_on_every_cell_and_set_of_keys(browser, ice_path, tmp_path):
    from designer.caves.play import cave_entry

    page_file = tmp_path / "cave.html"
    assert main(["play", str(ice_path), "-o", str(page_file)]) == 0
    page = open_page(browser, page_file)
    caves = [cave for cave in map(random_cave, range(400)) if any(link.lock for link in cave.links)][:10]
    assert len(caves) == 10
    for cave in caves:
        laid = graph.sheet(cave)
        table = graph.states(laid)
        entry = cave_entry(cave)
        found = page.evaluate("""(entry) => {
            level = entry;
            const out = [];
            for (let taken = 0; taken < (1 << (entry.items || []).length); taken++)
              for (let r = 0; r < entry.rows.length; r++)
                for (let c = 0; c < entry.rows[0].length; c++)
                  for (const dir of "udlr") {
                    if (!open(r, c)) { out.push(null); continue; }
                    const {to, cells, taken: now} = slide([r, c], dir, taken);
                    out.push(cells ? [to[0], to[1], now] : null);
                  }
            return out;
        }""", entry)
        k = 0
        for held in range(1 << len(cave.keys)):
            for cell in range(table.cells):
                for d in range(4):
                    want = int(table.dest[d, held * table.cells + cell])
                    got = found[k]
                    k += 1
                    if laid.level.terrain.reshape(-1)[cell] == 1 or cell in shut(cave, laid, held):
                        continue  # rock, or a locked door: no player rests there
                    if want < 0:
                        assert got is None
                    elif want == table.goal:
                        assert got is not None and (got[0], got[1]) == laid.level.goal
                    else:
                        assert got == [*table.cell(want), table.taken(want)]
    page.close()


def shut(cave, laid, held: int) -> set[int]:
    """The flat cells of the doors locked to a player holding the keys ``held``."""
    names = [key.name for key in cave.keys]
    return {laid.door(door) for link in cave.links if link.lock and not held >> names.index(link.lock) & 1
            for door in (link.a, link.b)[:1 if link.one_way else 2]}


def test_copying_the_example_world_elsewhere_keeps_it_readable(tmp_path):
    copy = tmp_path / "world"
    shutil.copytree(CAVES / "world", copy)
    cave = read_world(copy / "cave.world")
    assert cave.free and [room.name for room in cave.rooms] == ["one", "two", "three", "four"]
    bad = tmp_path / "bad.world"
    bad.write_text(json.dumps({"maps": [{"fileName": "../one.tmj"}], "type": "world"}))
    assert main(["analyze", str(bad)]) == 2


def test_the_plans_labels_sit_at_their_doors_and_none_overlaps(ice_path):
    """The Ice Path's floor plan at its default size: every label's box lies within one cell of a
    door, and no two labels' boxes overlap (read from the SVG)."""
    import xml.etree.ElementTree as ET

    from designer.caves.picture import PLAN_CELL, svg_plan

    cell = PLAN_CELL
    root = ET.fromstring(svg_plan(Cave.parse(ice_path.read_text()), way=True))
    ns = "{http://www.w3.org/2000/svg}"
    doors, boxes = [], []
    for group in root.iter(f"{ns}g"):
        moved = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", group.get("transform", ""))
        if moved:
            dx, dy = float(moved[1]), float(moved[2])
            doors += [(dx + float(one.get("cx")), dy + float(one.get("cy"))) for one in group.iter(f"{ns}circle")
                      if one.get("class") == "door"]
        if group.get("class") == "link":
            rect = group.find(f"{ns}rect")
            boxes.append(tuple(float(rect.get(k)) for k in ("x", "y", "width", "height")))
    assert len(doors) == sum(len(room.doors) for room in Cave.parse(ice_path.read_text()).rooms) and len(boxes) >= 10

    def gap(box, x, y):  # from the door's cell to the box, in pixels (0: they touch or overlap)
        dx = max(box[0] - (x + cell / 2), (x - cell / 2) - (box[0] + box[2]), 0)
        dy = max(box[1] - (y + cell / 2), (y - cell / 2) - (box[1] + box[3]), 0)
        return max(dx, dy)

    for box in boxes:
        assert min(gap(box, x, y) for x, y in doors) <= cell, box
    for k, a in enumerate(boxes):
        for b in boxes[k + 1:]:
            assert (min(a[0] + a[2], b[0] + b[2]) <= max(a[0], b[0]) + 0.01
                    or min(a[1] + a[3], b[1] + b[3]) <= max(a[1], b[1]) + 0.01), (a, b)
