"""Designing rooms with several doors (issue 31, item 4): make with --door, --route bands and
templates that draw doors; every route of every room checked against the independent oracle
(the naive reader of the rules, run once per route); the CP-SAT model's proven best checked by
brute force on a tiny room; the refusals, one line each."""

import itertools
import json

import numpy as np
import pytest

import oracle
from conftest import IMPLS
from designer.cli import main
from designer.core.errors import DesignerError
from designer.core.bands import RouteBand
from designer.core.request import LayoutRequest
from designer.ops.design import LevelOutput, make, plan
from designer.search.design import design

THREE = ("--door", "8,4", "--door", "4,0", "--door", "0,4")
L_ROOM = ["#####3####", "#????????#", "#????????#", "2????????#", "#????????#",
          "#????#####", "#????#####", "#????#####", "#????#####", "##1#######"]


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


def naive_route(rows: list[str], a: int, b: int) -> list[str]:
    table = {str(d): "." for d in range(1, 10)} | {str(a): "S", str(b): "G"}
    return ["".join(table.get(ch, ch) for ch in row) for row in rows]


def naive_stops(rows: list[str]) -> int | None:
    """Min stops by breadth-first search over the naive slides."""
    start, goal = oracle.find(rows, "S"), oracle.find(rows, "G")
    frontier, seen, depth = [start], {start}, 0
    while frontier:
        if goal in frontier:
            return depth
        depth += 1
        nxt = []
        for cell in frontier:
            for letter in "udlr":
                step = oracle.walk(rows, cell, letter, goal)
                if step is not None and step[0] not in seen:
                    seen.add(step[0])
                    nxt.append(step[0])
        frontier = nxt
    return None


def naive_routes(rows: list[str], routes) -> dict:
    """(class, reversible, min stops) of each route, the naive way."""
    out = {}
    for a, b in routes:
        view = naive_route(rows, a, b)
        klass, reversible = oracle.naive_class(view)
        out[(a, b)] = (klass, reversible, naive_stops(view))
    return out


def assert_room_holds(rows: list[str], bands: dict) -> None:
    for (a, b), (klass, reversible, stops) in naive_routes(rows, bands).items():
        low, high = bands[(a, b)]
        assert (klass, reversible) == ("strong", True), (a, b, rows)
        assert stops >= low and (high is None or stops <= high), (a, b, stops, rows)


def test_make_designs_a_room_whose_every_route_meets_its_own_band():
    made = make(plan({"size": (9, 9), "doors": ((8, 4), (4, 0), (0, 4)), "seed": 1, "time_limit": 30,
                      "routes": ("1:3=9", "1:2=5..9", "2:3=5")}), LevelOutput())
    room = made.designs[0].room
    assert room.doors == ((1, (8, 4)), (2, (4, 0)), (3, (0, 4)))
    assert made.text == str(room) + "\n"
    assert_room_holds(room.rows(), {(1, 3): (9, None), (1, 2): (5, 9), (2, 3): (5, None)})


def test_with_no_route_every_pair_of_doors_is_one_and_min_stops_is_each_floor():
    found = design(LayoutRequest(height=9, width=9, min_stops=6, doors=((1, (8, 4)), (2, (4, 0)), (3, (0, 4)))),
                   seed=2, time_limit=30)
    assert [one.name for one in found.routes.routes] == ["1:2", "1:3", "2:3"]
    assert_room_holds(found.room.rows(), {(1, 2): (6, None), (1, 3): (6, None), (2, 3): (6, None)})
    assert found.min_stops == min(one.analysis.min_stops for one in found.routes.routes)


def test_a_template_that_draws_its_doors_pins_them_and_keeps_its_shape(tmp_path, capsys):
    (tmp_path / "l.txt").write_text("\n".join(L_ROOM) + "\n")
    assert main(["make", "--template", str(tmp_path / "l.txt"), "--min-stops", "7", "--seed", "3",
                 "--time-limit", "30"]) == 0
    rows = capsys.readouterr().out.split()
    for r, row in enumerate(L_ROOM):
        for c, ch in enumerate(row):
            if ch != "?":
                assert rows[r][c] == ch
    assert_room_holds(rows, {(1, 2): (7, None), (1, 3): (7, None), (2, 3): (7, None)})


def test_the_json_room_keeps_its_request_and_make_from_makes_it_again(tmp_path, capsys):
    out = tmp_path / "room.json"
    assert main(["make", "--size", "9x9", *THREE, "--route", "1:3=9", "--route", "2:3", "--min-stops", "5",
                 "--seed", "4", "--time-limit", "30", "--format", "json", "-o", str(out)]) == 0
    obj = json.loads(out.read_text())
    assert obj["doors"] == {"1": [8, 4], "2": [4, 0], "3": [0, 4]}
    assert [one["route"] for one in obj["analysis"]["routes"]] == ["1:3", "2:3"]
    assert obj["generator"]["request"]["routes"] == ["1:3=9", "2:3"]
    capsys.readouterr()
    assert main(["make", "--from", str(out)]) == 0
    assert capsys.readouterr().out.split() == obj["rows"]
    assert main(["analyze", str(out), "--json"]) == 0  # the file reads back as a room


def test_a_room_request_reads_back_from_its_json_exactly():
    request = LayoutRequest(height=9, width=9, doors=((1, (8, 4)), (2, (4, 0))),
                            routes=(RouteBand.parse("2:1=7..9"),), max_rocks=20)
    assert LayoutRequest.from_json(json.loads(json.dumps(request.to_json()))) == request
    assert "doors" not in LayoutRequest().to_json()  # a level's record is as it was
    with pytest.raises(DesignerError, match="routes"):
        LayoutRequest.from_json({**request.to_json(), "routes": ["1:1x"]})


def test_a_route_whose_floor_no_room_can_reach_is_proven_infeasible_by_name(capsys):
    # doors 1 (bottom) and 3 (top) are entered and left vertically: min stops of 1:3 is odd
    assert main(["make", "--size", "9x9", *THREE, "--route", "1:2=5", "--route", "1:3=10..10"]) == 1
    err = capsys.readouterr().err
    assert one_error_line(err) and "proven infeasible" in err and "route 1:3 cannot have min stops in 10..10" in err
    assert main(["make", "--size", "7x7", "--door", "6,3", "--door", "3,0", "--route", "1:2=40"]) == 1
    err = capsys.readouterr().err
    assert one_error_line(err) and "route 1:2 cannot have min stops >= 40" in err


def test_the_model_proves_a_tiny_rooms_best_as_brute_force_finds_it():
    doors = ((1, (4, 1)), (2, (2, 5)), (3, (0, 3)))
    request = LayoutRequest(height=5, width=6, min_stops=1, doors=doors)
    found = design(request, seed=0, time_limit=60, maximize=True, method="cpsat")
    assert found.generator.proven_optimal
    best = -1
    base = [list(row) for row in ["###3##", "#....#", "#....2", "#....#", "#1####"]]
    inner = [(r, c) for r in range(1, 4) for c in range(1, 5)]
    for rocks in itertools.product(".#", repeat=len(inner)):
        rows = [row[:] for row in base]
        for (r, c), ch in zip(inner, rocks):
            rows[r][c] = ch
        rows = ["".join(row) for row in rows]
        figures = naive_routes(rows, [(1, 2), (1, 3), (2, 3)]).values()
        if all(klass == "strong" and reversible for klass, reversible, _ in figures):
            best = max(best, min(stops for _, _, stops in figures))
    assert found.min_stops == best == 5


def test_the_model_meets_every_routes_floor():
    request = LayoutRequest(height=7, width=7, doors=((1, (6, 3)), (2, (3, 0)), (3, (0, 3))),
                            routes=(RouteBand(1, 3, 7), RouteBand(1, 2, 4), RouteBand(2, 3, 4, 8)))
    found = design(request, seed=1, time_limit=60, method="cpsat")
    assert found.generator.stage == "cp-sat"
    assert_room_holds(found.room.rows(), {(1, 3): (7, None), (1, 2): (4, None), (2, 3): (4, 8)})


def test_maximize_choices_raises_the_fewest_options_a_stop_and_keeps_every_floor():
    request = LayoutRequest(height=9, width=9, doors=((1, (8, 4)), (2, (4, 0)), (3, (0, 4))),
                            routes=(RouteBand(1, 3, 7), RouteBand(1, 2, 5), RouteBand(2, 3, 5)))
    found = design(request, seed=1, time_limit=4, maximize_choices=True)
    assert found.generator.maximize_choices and found.generator.options is not None
    assert_room_holds(found.room.rows(), {(1, 3): (7, None), (1, 2): (5, None), (2, 3): (5, None)})
    assert found.per_stop_milli == min(1000 * one.analysis.options // one.analysis.min_stops
                                       for one in found.routes.routes)


def test_min_choices_holds_along_every_route():
    request = LayoutRequest(height=9, width=9, min_stops=5, min_choices=6,
                            doors=((1, (8, 4)), (2, (4, 0)), (3, (0, 4))))
    found = design(request, seed=1, time_limit=30)
    assert all(one.analysis.options >= 6 for one in found.routes.routes)


def test_the_verifier_names_the_route_that_fails():
    from designer.analysis.verify import failure
    from designer.core.level import Level

    request = LayoutRequest(height=5, width=5, min_stops=2, doors=((1, (4, 2)), (2, (2, 0)), (3, (0, 2))))
    level = Level.from_ascii("##G##\n#...#\n....#\n#...#\n##S##")
    assert failure(request, level).startswith("route 1:2: the level is unsolvable")


@pytest.mark.parametrize("argv, words", [
    ([*THREE, "--route", "1:1"], "runs from a door to itself"),
    ([*THREE, "--route", "1:4"], "names door 4"),
    ([*THREE, "--route", "1:2", "--route", "1:2=5"], "asked for twice"),
    ([*THREE, "--route", "1-2"], "--route takes two doors"),
    ([*THREE, "--route", "1:2=5..x"], "--route takes A:B, A:B=K or A:B=K..M"),
    ([*THREE, "--start", "8,3"], "--start does not go with doors"),
    ([*THREE, "--tidy"], "--tidy does not go with doors"),
    ([*THREE, "--unique"], "--unique does not go with doors"),
    ([*THREE, "--method", "cpsat-ends"], "use --method cpsat"),
    (["--door", "8,8", "--door", "4,0"], "is a corner of the frame"),
    (["--door", "8,4", "--door", "8,4"], "the same cell"),
    (["--door", "9,4", "--door", "4,0"], "outside the 9x9 grid"),
    (["--door", "8,4"], "needs two doors"),
    ([*(x for k in range(10) for x in ("--door", f"{1 + k % 7},{1 + k // 7}"))], "at most 9 doors"),
    (["--route", "1:2"], "--route names a room's doors"),
])
def test_a_room_request_that_makes_no_sense_is_refused_in_one_line(capsys, argv, words):
    assert main(["make", "--size", "9x9", "--time-limit", "5", *argv]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err, err


def test_a_template_may_not_mix_ends_and_doors(tmp_path, capsys):
    (tmp_path / "t.txt").write_text("#1#\n#?#\n#G#\n")
    assert main(["make", "--template", str(tmp_path / "t.txt")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "'S' and 'G', or a room's doors with 1-9, not both" in err
    (tmp_path / "d.txt").write_text("#1#\n#?#\n#2#\n")
    assert main(["make", "--template", str(tmp_path / "d.txt"), "--door", "1,1"]) == 2
    assert "--door does not go with a template that draws its doors" in capsys.readouterr().err


def brute_force_best(base_rows: list[str], routes, max_rocks: int) -> int:
    """The longest shortest route over every layout of at most ``max_rocks`` rocks, the naive way."""
    base = [list(row) for row in base_rows]
    inner = [(r, c) for r, row in enumerate(base_rows) for c, ch in enumerate(row) if ch == "."]
    best = -1
    for rocks in range(max_rocks + 1):
        for chosen in itertools.combinations(inner, rocks):
            rows = [row[:] for row in base]
            for r, c in chosen:
                rows[r][c] = "#"
            figures = naive_routes(["".join(row) for row in rows], routes).values()
            if all(klass == "strong" and reversible for klass, reversible, _ in figures):
                best = max(best, min(stops for _, _, stops in figures))
    return best


@pytest.mark.parametrize("impl", IMPLS)
def test_the_exhaustive_search_proves_a_tiny_rooms_best_in_both_kernels(impl):
    from designer.core import kernels
    from designer.core.budget import Budget
    from designer.search.engines import exhaustive

    request = LayoutRequest(height=5, width=6, min_stops=1, max_rocks=3,
                            doors=((1, (4, 1)), (2, (2, 5)), (3, (0, 3))))
    assert exhaustive.applies(request)
    with kernels.use(impl):
        found = exhaustive.search(request, 1, Budget(120), 1, maximizing=True)
    assert found.complete
    best = brute_force_best(["###3##", "#....#", "#....2", "#....#", "#1####"], [(1, 2), (1, 3), (2, 3)], 3)
    assert found.best == best
    assert_room_holds(room_of(request, found.level).rows(),
                      {(1, 2): (best, None), (1, 3): (best, None), (2, 3): (best, None)})


def room_of(request, level):
    from designer.core.room import Room

    return Room(level.terrain, request.room_doors)


def test_make_proves_a_small_rooms_best_by_the_exhaustive_search():
    request = LayoutRequest(height=5, width=6, min_stops=1, max_rocks=3,
                            doors=((1, (4, 1)), (2, (2, 5)), (3, (0, 3))))
    found = design(request, seed=0, time_limit=60, maximize=True, workers=1)
    assert found.generator.proven_optimal and "exhaustive" in (found.generator.stage, *found.generator.stage_seconds)
    assert found.min_stops == brute_force_best(["###3##", "#....#", "#....2", "#....#", "#1####"],
                                               [(1, 2), (1, 3), (2, 3)], 3)


def test_the_annealing_chains_score_a_room_over_its_routes():
    from designer.core.budget import Budget
    from designer.search.engines import anneal

    request = LayoutRequest(height=12, width=12, doors=((1, (11, 5)), (2, (6, 0)), (3, (0, 6))),
                            routes=(RouteBand(1, 3, 20), RouteBand(1, 2, 12), RouteBand(2, 3, 12)))
    start = design(replace_floors(request, 1), seed=1, time_limit=30)  # any room that holds: where the chains start
    level, score = anneal.search(request, start.level, -1, np.random.default_rng(1), Budget(20), 2,
                                 target=request.room_target())
    assert score == request.room_target() == 44
    assert_room_holds(room_of(request, level).rows(), {(1, 3): (20, None), (1, 2): (12, None), (2, 3): (12, None)})


def replace_floors(request, floor):
    from dataclasses import replace

    return replace(request, routes=tuple(RouteBand(band.a, band.b, floor) for band in request.routes))


def test_a_door_given_on_a_template_opens_its_wall_but_never_its_snow(tmp_path, capsys):
    (tmp_path / "t.txt").write_text("#######\n#?????#\n#??_??#\n#?????#\n#######\n")
    assert main(["make", "--template", str(tmp_path / "t.txt"), "--door", "4,3", "--door", "2,0", "--door", "0,3",
                 "--min-stops", "2", "--time-limit", "20"]) == 0
    rows = capsys.readouterr().out.split()
    assert (rows[4][3], rows[2][0], rows[0][3], rows[2][3]) == ("1", "2", "3", "_")
    assert_room_holds(rows, {(1, 2): (2, None), (1, 3): (2, None), (2, 3): (2, None)})
    assert main(["make", "--template", str(tmp_path / "t.txt"), "--door", "2,3", "--door", "2,0"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "door 1 (2,3) is a drawn snow tile" in err


def test_a_pack_of_rooms_is_drawn_mapped_and_played(tmp_path, capsys):
    pytest.importorskip("drawsvg")
    pack = tmp_path / "pack"
    assert main(["make", "--size", "9x9", *THREE, "--min-stops", "6", "--count", "2", "--out", str(pack),
                 "--time-limit", "20"]) == 0
    (pack / "level-003.txt").write_text("#G#\n#.#\n#S#\n")  # a level beside the rooms
    assert main(["render", str(pack), "-o", str(tmp_path / "sheet.svg"), "--solution"]) == 0
    sheet = (tmp_path / "sheet.svg").read_text()
    assert sheet.count('class="door"') == 6 and "level-001: 3 doors, " in sheet and "level-003: 1 stops" in sheet
    assert main(["export", str(pack), "--to", "tiled", "--out", str(tmp_path / "maps")]) == 0
    assert sorted(p.name for p in (tmp_path / "maps").iterdir()) == [
        "ice-room-tiles.png", "ice-tiles.png", "level-001.tmj", "level-002.tmj", "level-003.tmj"]
    doors = json.loads((tmp_path / "maps" / "level-001.tmj").read_text())["layers"][1]
    assert doors["name"] == "doors"
    assert main(["play", str(pack), "-o", str(tmp_path / "play.html")]) == 0
    page = (tmp_path / "play.html").read_text()
    assert "level-001: door 1 to door 2" in page and "level-003" in page
    capsys.readouterr()
    assert main(["render", str(pack), "-o", str(tmp_path / "graph.svg"), "--graph"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "level-001 is a room" in err


def test_pareto_refuses_a_room_in_one_line(tmp_path, capsys):
    (tmp_path / "l.txt").write_text("\n".join(L_ROOM) + "\n")
    assert main(["pareto", "--template", str(tmp_path / "l.txt"), "--time-limit", "5"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "a template with doors (a room) is designed with make" in err
