"""Portals, floors and wrap-around (docs/spec.md, "Portals and wrap-around"): the text form, the
rule, and the library against an independent plain reader of the rules (tests/oracle_portals.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle_portals
from designer.analysis.classify import classify
from designer.analysis.graph import analyze
from designer.analysis.solver import solve
from designer.core.errors import LevelError
from designer.core.floors import Floor
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK, SNOW

TWO_FLOORS = """\
floor top
######
#S..a#
#..h.#
######
floor bottom wrap x
#####
.b.G.
#l..#
#####
portal a b
portal h > l
"""


def test_the_text_form_reads_and_prints_back_exactly():
    level = Level.from_ascii(TWO_FLOORS)
    assert [floor.name for floor in level.floors] == ["top", "bottom"]
    assert level.floors[1].wrap == "x" and level.shape == (8, 6)
    assert dict(level.portals) == {(1, 4): (5, 1), (5, 1): (1, 4), (2, 3): (6, 1)}
    # printed with marks given in row-major order: a (1, 4), b (2, 3), c (5, 1), d (6, 1)
    assert str(level) + "\n" == (TWO_FLOORS.replace("portal a b\nportal h > l", "portal a c\nportal b > d")
                                  .replace("#..h.#", "#..b.#").replace(".b.G.", ".c.G.").replace("#l..#", "#d..#"))
    assert Level.from_ascii(str(level)) == level
    assert level.where((5, 3)) == "bottom (1, 3)"


def test_a_plain_level_is_unchanged():
    text = "#####\n#S.G#\n#####"
    level = Level.from_ascii(text)
    assert level.plain and str(level) == text and level.floors == () and level.portals == ()


@pytest.mark.parametrize("text, message", [
    ("floor a\n#S.aG#\nportal a b", "'b', which no row draws"),
    ("wrap x\n#S.aG#", "'a' is drawn but no 'portal' line"),
    ("wrap q\n#S.G#", "wrap takes x, y or xy"),
    ("floor a\n#S#\nfloor a\n#G#", "two floors named 'a'"),
    ("floor a\n#Sa#\n#.bG#\nportal a b", "ragged rows"),
    ("#S.ab#\n##G###\nportal a > b\nportal a b", "given two targets"),
    ("#S.a#G\nportal a > a", "leads to itself"),
    ("floor a\n#S.a.G#\nportal a b c", "expected 'portal a b'"),
    ("wrap x\nO.s..e", "written in the canonical dialect"),  # the seed dialect's level: its O is no mark
])
def test_bad_extended_text_is_one_line(text, message):
    with pytest.raises(LevelError, match=message):
        Level.from_ascii(text)


def test_a_portal_ends_the_slide_and_the_player_rests_on_its_target():
    level = Level.from_ascii("wrap x\n#######\n#S.a..#\n##b..G#\n#######\nportal a > b")
    found = solve(level)
    # r: S slides into a (2 cells), rests on b; r again: b slides to the goal (3 cells)
    assert (found.moves, found.stops, found.distance) == ("rr", 2, 5)
    assert found.path == ((1, 1), (2, 2), (2, 5))


def test_resting_on_a_target_that_is_a_portal_does_not_trigger_it():
    level = Level.from_ascii("######\n#S.a.#\n#b..G#\n######\nportal a b")
    found = solve(level)
    assert found.path[1] == (2, 1) and found.moves == "rr"


def test_a_slide_round_a_wrapping_row_with_nothing_to_stop_it_is_not_a_move():
    level = Level.from_ascii("wrap x\n#####\n..S..\n#G###")
    assert solve(level) is None  # l and r run round for ever; u is rock; d: not from (1, 2)
    assert classify(level).solvability == "unsolvable"


def test_wrap_on_one_axis_only():
    level = Level.from_ascii("wrap y\n#.#\n#S#\n#.#\n#G#\n#.#")
    assert solve(level).moves == "d"
    down = Level.from_ascii("wrap y\n#.#\n#G#\n#_#\n#S#\n#.#")
    assert solve(down).moves == "d"  # from row 3: row 4, then wraps to row 0, then the goal
    assert solve(Level.from_ascii("wrap x\n#.#\n#G#\n#_#\n#S#\n#.#")).moves == "uu"  # no way round


def test_two_floors_solve_over_the_hole_and_the_ladder():
    level = Level.from_ascii(TWO_FLOORS)
    report = analyze(level)
    assert report.solution is not None
    assert report.solution.path[-1] == level.goal


# --- the library against the plain reader -------------------------------------------------------

@st.composite
def portal_levels(draw, side: int = 5, most_items: int = 2):
    """A level of one or two floors (each at most ``side`` x ``side``, wrapping or not) with
    snow, rock, up to ``most_items`` items and up to 3 portals."""
    floors, top = [], 0
    for _ in range(draw(st.integers(1, 2))):
        height, width = draw(st.integers(2, side)), draw(st.integers(2, side))
        floors.append((top, height, width, draw(st.sampled_from(["", "x", "y", "xy"]))))
        top += height
    sheet_width = max(f[2] for f in floors)
    terrain = np.full((top, sheet_width), ROCK, np.uint8)
    for ftop, height, width, _ in floors:
        for r in range(ftop, ftop + height):
            for c in range(width):
                terrain[r, c] = draw(st.sampled_from([ICE, ICE, ICE, ROCK, SNOW]))
    ice = [tuple(map(int, cell)) for cell in np.argwhere(terrain == ICE)]
    if len(ice) < 2:
        ice = [(floors[0][0], 0), (floors[-1][0], 1 if floors[-1][2] > 1 and len(floors) == 1 else 0)]
        for cell in ice:
            terrain[cell] = ICE
    picked = draw(st.permutations(ice))
    start, goal = picked[0], picked[1]
    rest = list(picked[2:])
    items = tuple(sorted(rest[:draw(st.integers(0, min(most_items, len(rest))))]))
    rest = rest[len(items):]
    sources = rest[:draw(st.integers(0, min(3, len(rest))))]
    open_cells = [tuple(map(int, cell)) for cell in np.argwhere(terrain == ICE)]
    portals = []
    for src in sources:
        targets = [cell for cell in open_cells if cell not in (src, start, goal, *items)]
        if not targets:
            continue
        portals.append((src, draw(st.sampled_from(targets))))
    named = len(floors) > 1
    level = Level(terrain, start, goal, items=items, portals=tuple(portals),
                  floors=tuple(Floor(f"f{k}" if named else "", *f) for k, f in enumerate(floors)))
    return level, floors


def _plain(level: Level, floors) -> dict:
    rows = ["".join("#" if t == ROCK else "_" if t == SNOW else "." for t in row) for row in level.terrain]
    return {"rows": rows, "floors": floors, "portals": dict(level.portals), "start": level.start,
            "goal": level.goal, "items": list(level.items)}


@settings(max_examples=300, deadline=None)
@given(portal_levels())
def test_classify_and_solve_agree_with_the_plain_reader(case):
    level, floors = case
    expected = oracle_portals.classify(_plain(level, floors))
    found = classify(level)
    assert (found.solvability, found.reversible, found.min_stops) == expected
    solution = solve(level)
    assert (solution.stops if solution else None) == expected[2]


@settings(max_examples=60, deadline=None)
@given(portal_levels())
def test_analyze_agrees_with_the_plain_reader(case):
    level, floors = case
    klass, reversible, stops = oracle_portals.classify(_plain(level, floors))
    report = analyze(level)
    assert (report.solvability, report.reversible) == (klass, reversible)
    assert (report.solution.stops if report.solution else None) == stops
    assert (report.moves, report.solutions) == oracle_portals.figures(_plain(level, floors))
    assert Level.from_ascii(str(level)) == level


@pytest.mark.parametrize("text, moves, solutions, options", [
    # resting on a, 'u' falls into b and puts the player back on a: no move, no edge, no option
    ("######\n#S..b#\n####a#\n#G...#\n######\nportal a b\n", 5, 1, [0, 0, 1]),
    # two one-way portals into one target: 'ld' and 'rd' are two fewest-moves strings
    ("#######\n#a.S.b#\n#######\n###c###\n###.###\n###G###\n#######\nportal a > c\nportal b > c\n", 3, 2, [1, 0]),
    # round the wrapping edge or not, 'l' and 'r' from S both stop on the snow
    ("wrap x\n#######\n.S._...\n###.###\n###G###\n#######\n", 3, 2, [1, 0]),
])
def test_moves_that_stay_put_are_none_and_moves_to_one_state_are_each_counted(text, moves, solutions, options):
    """docs/spec.md: a direction that leaves the player where they are is no move; solutions count
    the distinct fewest-moves move strings (the audit of issue 49)."""
    report = analyze(Level.from_ascii(text))
    assert report.moves == moves and report.solutions == solutions
    assert [stop.options for stop in report.branching] == options


# --- files: JSON, glissade, import, pictures, maps ------------------------------------------------

def test_the_json_level_keeps_floors_and_portals():
    from designer.formats.level_files import parse_level
    from designer.formats.level_json import dumps, level_to_json

    level = Level.from_ascii(TWO_FLOORS)
    obj = level_to_json(level, with_analysis=False)
    assert obj["floors"][1] == {"name": "bottom", "top": 4, "height": 4, "width": 5, "wrap": "x"}
    assert {"from": [2, 3], "to": [6, 1]} in obj["portals"]
    assert parse_level(dumps(level)) == level
    plain = Level.from_ascii("#####\n#S.G#\n#####")
    assert "floors" not in level_to_json(plain, with_analysis=False)


def test_a_json_level_whose_letters_and_portals_disagree_is_one_line():
    import json

    from designer.formats.level_files import parse_level
    from designer.formats.level_json import level_to_json

    obj = level_to_json(Level.from_ascii(TWO_FLOORS), with_analysis=False)
    del obj["portals"][1]  # the one-way portal: its letter and its target's are left unexplained
    with pytest.raises(LevelError, match="disagree"):
        parse_level(json.dumps(obj))


GLISSADE = [
    {"name": "Pair", "thresholds": [3, 4, 6], "data": ["#######", "#P O  #", "#     #", "#O   X#", "#######"]},
    {"name": "Wrap", "thresholds": [2, 3, 5], "data": ["#####", "  P  ", "# X #", "#####"]},
    {"name": "Coins", "thresholds": [4, 5, 6], "data": ["#####", "#P $#", "#$  #", "#  X#", "#T###"]},
    {"name": "Chain", "thresholds": [1, 2, 3], "data": ["#####", "#POO#", "# X #", "#####"],
     "connections": [{"src": {"x": 2, "y": 1}, "dst": {"x": 3, "y": 1}},
                     {"src": {"x": 3, "y": 1}, "dst": {"x": 2, "y": 1}}]},
]


def test_glissade_levels_are_read_as_the_game_reads_them():
    from designer.formats import glissade

    pair, wrap, coins, chain = glissade.read_levels(GLISSADE)
    assert dict(pair.level.portals) == {(1, 3): (3, 1), (3, 1): (1, 3)}  # two holes, no connections: a pair
    assert pair.par == 3 and pair.stars == (3, 4, 6)
    assert wrap.level.floors[0].wrap == "x"  # an open left or right edge: that axis wraps
    assert solve(wrap.level).moves == "l" or solve(wrap.level).stops == 1
    assert coins.level.coins == ((1, 3), (2, 1)) and coins.level.items == () and coins.coins_as == "coins"
    assert glissade.read_level(GLISSADE[2], coins="items").level.items == ((1, 3), (2, 1))
    assert coins.level.terrain[4, 1] == ROCK  # a tree stops a slide as rock does
    assert glissade.read_level(GLISSADE[2], coins="ice").level.items == ()
    assert solve(chain.level).moves  # the holes lead into each other; resting on one triggers nothing


@pytest.mark.parametrize("obj, message", [
    ({"data": ["#P#", "#X#", "#O#"]}, "1 holes and no \"connections\""),
    ({"data": ["#P#", "###"]}, "0 exit"),
    ({"data": ["#PX", "#O#"], "connections": [{"src": {"x": 1, "y": 1}, "dst": {"x": 0, "y": 0}}]}, "is not a hole"),
    ({"data": ["#PX", "#O"]}, "ragged rows"),
    ({"data": "nope"}, "not glissade's levels"),
])
def test_bad_glissade_levels_are_one_line(obj, message):
    from designer.formats import glissade

    with pytest.raises(LevelError, match=message):
        glissade.read_levels(obj)


def test_designer_import_writes_each_level_with_its_par_and_says_how_it_compares(tmp_path, capsys):
    import json

    from designer.cli import main

    source = tmp_path / "levels.json"
    source.write_text(json.dumps(GLISSADE))
    assert main(["import", str(source), "--out", str(tmp_path / "out")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("01-pair.json: min stops ") and len(lines) == 4
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["01-pair.json", "02-wrap.json", "03-coins.json", "04-chain.json"]
    obj = json.loads((tmp_path / "out" / "01-pair.json").read_text())
    assert obj["generator"]["game"] == "glissade" and obj["generator"]["par"] == 3 and obj["portals"]
    assert main(["solve", str(tmp_path / "out" / "01-pair.json")]) == 0
    assert main(["import", str(source), "--out", str(tmp_path / "out")]) == 2  # files there: --force
    assert "exists" in capsys.readouterr().err


def test_pictures_and_maps_show_the_portals_and_floors(tmp_path):
    import json

    from designer.cli import main

    level = tmp_path / "two.txt"
    level.write_text(TWO_FLOORS)
    assert main(["render", str(level), "-o", str(tmp_path / "two.svg"), "--solution"]) == 0
    svg = (tmp_path / "two.svg").read_text()
    assert svg.count('class="portal"') == 3 and 'class="jump"' in svg and ">bottom<" in svg
    assert main(["export", str(level), "-o", str(tmp_path / "two.tmj")]) == 0
    objects = json.loads((tmp_path / "two.tmj").read_text())["layers"][2]["objects"]
    kinds = [(obj["name"], obj["type"]) for obj in objects]
    assert ("top", "floor") in kinds and ("bottom", "floor") in kinds
    portal = next(obj for obj in objects if obj["type"] == "portal" and obj["name"] == "a")
    assert portal["properties"] == [{"name": "to", "type": "string", "value": "c"}]


def test_analyze_says_which_portals_are_one_way_and_which_floors_can_be_left_for_good():
    level = Level.from_ascii("floor up\n######\n#S.h.#\n#..G.#\n######\nfloor down\n#####\n#l..#\n#####\n"
                             "portal h > l")
    report = analyze(level)
    assert report.portals == [{"from": [1, 3], "to": [5, 1], "pair": False, "used": True, "one_way": True}]
    assert report.floors == [{"name": "up", "reached": True, "no_return": True},
                             {"name": "down", "reached": True, "no_return": False}]
    assert report.solvability == "weak"  # down there, the goal cannot be reached


def test_a_coin_solution_that_runs_over_the_closed_exit_is_no_glissade_solution():
    from designer.formats import glissade
    from designer.ops.imports import checked

    found = glissade.read_level({"data": ["######", "#$ XP#", "######"], "thresholds": [2, 3, 4], "name": "x"},
                                coins="items")
    imported = checked(found)
    assert imported.solution.moves == "lr"  # over the closed goal to the coin, and back
    assert imported.replayed == "move 1 runs into the exit with 1 coins left"
    assert imported.verdict.startswith("not a glissade solution")
    fine = checked(glissade.read_level({"data": ["######", "#X P$#", "######"], "thresholds": [2, 3, 4]}))
    assert fine.replayed is None and fine.verdict == "par" and fine.full.proven
    # read as coins (the default), the exit never waits: no full clear passes it
    shut = checked(glissade.read_level({"data": ["######", "#$ XP#", "######"], "thresholds": [2, 3, 4]}))
    assert shut.full.moves is None and shut.verdict == "no full clear"


@settings(max_examples=200, deadline=None)
@given(portal_levels())
def test_the_table_walked_line_by_line_is_the_slide_traced_cell_by_cell(case):
    """The kernels' table (compiled, and its numpy twin) against ``trace``, slide by slide."""
    from designer.core import kernels
    from designer.core.rules import NO_MOVE, trace, traced_table

    level, _ = case
    for name, capture in ((name, capture) for name in kernels.available()
                          for capture in (level.index(level.goal), -1)):
        with kernels.use(name):
            dest, length = traced_table(level, capture)
        for d in range(4):
            for cell in range(level.height * level.width):
                slide = trace(level, cell, d, capture)
                expected = (NO_MOVE, 0) if slide is None else (slide.path[-1], slide.lengths[-1])
                assert (int(dest[d, cell]), int(length[d, cell])) == expected, (str(level), cell, d)


def test_a_map_of_a_level_with_portals_and_floors_reads_back_as_the_same_level(tmp_path):
    from designer.cli import main
    from designer.formats.level_files import read_level

    for name, text in (("two", TWO_FLOORS), ("wrap", "wrap xy\n#.###\n.S.aG\n#.#b#\n#####\nportal a b")):
        source = tmp_path / f"{name}.txt"
        source.write_text(text)
        assert main(["export", str(source), "-o", str(tmp_path / f"{name}.tmj"), "--force"]) == 0
        assert read_level(tmp_path / f"{name}.tmj") == Level.from_ascii(text)


def test_a_portal_object_without_a_target_is_one_line(tmp_path):
    import json

    from designer.cli import main
    from designer.formats.level_files import read_level

    source = tmp_path / "two.txt"
    source.write_text(TWO_FLOORS)
    assert main(["export", str(source), "-o", str(tmp_path / "two.tmj")]) == 0
    document = json.loads((tmp_path / "two.tmj").read_text())
    for obj in document["layers"][2]["objects"]:
        obj.pop("properties", None) if obj["type"] == "portal" else None
    (tmp_path / "bad.tmj").write_text(json.dumps(document))
    with pytest.raises(LevelError, match="has no property 'to'"):
        read_level(tmp_path / "bad.tmj")


@pytest.mark.parametrize("floors, portal_of, message", [
    ([(0, 4, 3, 0)], [-1] * 9, "floors must be"),  # taller than the grid
    ([(0, 3, 3, 4)], [-1] * 9, "floors must be"),  # no such wrap bit
    ([(0, 3, 3, 0)], [-1] * 8, "portal_of must hold 9"),
    ([(0, 3, 3, 0)], [9] + [-1] * 8, "portal_of must hold 9"),
])
def test_the_passage_kernel_checks_its_arguments_before_c_sees_them(floors, portal_of, message):
    from designer.core import kernels

    for name in kernels.available():
        with kernels.use(name), pytest.raises(ValueError, match=message):
            kernels.passage_table(np.zeros((3, 3), np.uint8), floors, portal_of, -1)


def test_glissades_file_is_read_directly_one_level_or_a_pack(tmp_path, capsys):
    import json

    from designer.cli import main

    pack = tmp_path / "levels.json"
    pack.write_text(json.dumps(GLISSADE))
    one = tmp_path / "one.json"
    one.write_text(json.dumps(GLISSADE[0]))
    assert main(["solve", str(one)]) == 0
    assert main(["solve", str(pack)]) == 2  # four levels where one is needed: one line
    err = capsys.readouterr().err
    assert "designer import FILE --out DIR" in err and len(err.strip().splitlines()) == 1
    assert main(["play", str(pack), "-o", str(tmp_path / "play.html")]) == 0
    page = (tmp_path / "play.html").read_text()
    assert '"name": "01-pair"' in page and '"portals"' in page and '"game": "glissade"' not in page
    assert main(["render", str(pack), "-o", str(tmp_path / "sheet.svg")]) == 0
    assert main(["export", str(pack), "--out", str(tmp_path / "maps")]) == 0
    assert sorted(p.name for p in (tmp_path / "maps").glob("*.tmj"))[0] == "01-pair.tmj"


ROOM = "floor 1F\n#####\n#1.a#\n#####\nfloor B1F\n#####\n#b.2#\n#.3.#\n#####\nportal a b\n"


def test_a_room_with_doors_holds_floors_and_portals_too(tmp_path, capsys):
    """A room's routes read its portals and floors as a level's: every route as the plain reader
    plays it, and the room the same through its text, JSON and Tiled forms."""
    import json

    from designer.cli import main
    from designer.core.room import Room
    from designer.formats.level_files import parse_level_or_room, read_level_or_room
    from designer.formats.level_json import room_to_json

    room = Room.from_ascii(ROOM)
    assert [f.name for f in room.floors] == ["1F", "B1F"] and len(room.portals) == 2
    assert str(room) + "\n" == ROOM and parse_level_or_room(ROOM) == room
    assert parse_level_or_room(json.dumps(room_to_json(room))) == room
    for a, b in room.routes():
        route = room.route(a, b)
        plain = {"rows": ["".join("#" if t == ROCK else "." for t in row) for row in route.terrain],
                 "floors": [(f.top, f.height, f.width, f.wrap) for f in route.floors],
                 "portals": dict(route.portals), "start": route.start, "goal": route.goal, "items": []}
        assert oracle_portals.classify(plain)[2] == solve(route).stops
    source = tmp_path / "room.txt"
    source.write_text(ROOM)
    assert main(["export", str(source), "-o", str(tmp_path / "room.tmj")]) == 0
    assert read_level_or_room(tmp_path / "room.tmj") == room
    assert main(["solve", str(source)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "route 1:2: rr  stops: 2  distance: 4"
    assert main(["play", str(source), "-o", str(tmp_path / "room.html")]) == 0
    assert "lastPassage" in (tmp_path / "room.html").read_text()
