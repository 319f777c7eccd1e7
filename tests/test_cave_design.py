"""Designing caves (designer cave): the figures of the issue that are not speed, each cave checked
by the independent reader of tests/oracle_caves.py; the command line; --from and dask."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import oracle_caves as oracle
from designer.caves import cave_analysis, grammar, graph
from designer.caves.cave import Cave
from designer.caves.design import design
from designer.caves.cave_request import CaveFailed, CaveRequest
from designer.cli import main

ROOT = Path(__file__).resolve().parent.parent
CAVES = ROOT / "examples" / "caves"


def _holds(cave: Cave, min_stops: int) -> None:
    """What every designed cave promises, read by the plain reader where it can."""
    assert cave_analysis.failure(cave, min_stops) is None
    assert oracle.min_stops(cave) >= min_stops
    assert oracle.strong(cave)
    for k, _ in enumerate(cave.keys):
        assert oracle.min_stops(cave, without=k) == -1  # every key needed: no way out without it
    for room in cave.rooms:
        assert not room.free


def test_four_rooms_on_one_floor_meet_the_band_of_the_whole_way():
    template = Cave.parse((CAVES / "four-rooms.txt").read_text())
    made = design(CaveRequest(template, 60), seed=1, time_limit=60)
    _holds(made.cave, 60)
    assert all(routes.holds for routes in made.analysis.rooms)  # every room strong and reversible, every route
    assert made.analysis.min_stops == oracle.min_stops(made.cave)


def test_an_ice_path_of_three_floors_needs_its_key():
    template = Cave.parse((CAVES / "ice-path.txt").read_text())
    made = design(CaveRequest(template, 80), seed=1, time_limit=120)
    _holds(made.cave, 80)
    assert made.analysis.keys[0].needed and made.analysis.way.keys["gold"] > 0
    assert {room.floor for room in made.cave.rooms} == {1, 2, 3}


def test_a_cave_from_nothing_needs_both_its_keys():
    template = grammar.draw(6, 2, (12, 12), seed=3)
    made = design(CaveRequest(template, 70), seed=3, time_limit=60)
    _holds(made.cave, 70)
    assert [key.needed for key in made.analysis.keys] == [True, True]


def test_a_band_no_plan_can_meet_is_proven_and_names_the_rooms(capsys):
    template = Cave.parse((CAVES / "four-rooms.txt").read_text())
    with pytest.raises(CaveFailed, match="proven infeasible: the way through rooms one, t(wo|hree), four holds") as e:
        design(CaveRequest(template, 400), seed=1, time_limit=60)
    assert e.value.reason == "infeasible"
    assert main(["cave", str(CAVES / "four-rooms.txt"), "--min-stops", "400"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "proven infeasible" in err


def test_the_command_writes_json_and_from_makes_the_same_cave_again(tmp_path, capsys):
    first, again = tmp_path / "cave.json", tmp_path / "again.json"
    assert main(["cave", "--rooms", "4", "--keys", "1", "--size", "7x7", "--min-stops", "20", "--seed", "5",
                 "-o", str(first)]) == 0
    assert "designed: a cave of 4 rooms" in capsys.readouterr().err
    assert main(["cave", "--from", str(first), "-o", str(again)]) == 0
    one, two = json.loads(first.read_text()), json.loads(again.read_text())
    assert one["rooms"] == two["rooms"] and one["analysis"]["min_stops"] >= 20
    assert main(["cave", "--from", str(first), "--seed", "2"]) == 2  # the record gives the request
    assert main(["cave", "--from", str(first), "-o", str(first)]) == 2  # never over a user's file unasked
    capsys.readouterr()
    assert main(["solve", str(first)]) == 0
    out = capsys.readouterr().out
    assert f"stops: {one['analysis']['min_stops']}" in out and "takes key bronze" in out
    assert main(["analyze", str(first), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["keys"][0]["needed"] is True


@pytest.mark.parametrize("band", [("--room", "two=9..10"), ("--route", "two:1:2=9..10")])
def test_a_rooms_ceiling_is_kept(band, tmp_path, capsys):
    """--room ROOM=K..M and --route ROOM:A:B=K..M: the ceiling holds too (it was dropped: room
    two's route came back with 16 stops, called verified; the audit of issue 49)."""
    out = tmp_path / "cave.json"
    assert main(["cave", str(CAVES / "four-rooms.txt"), "--min-stops", "30", *band, "--seed", "0",
                 "--time-limit", "60", "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["analyze", str(out), "--json"]) == 0
    routes = json.loads(capsys.readouterr().out)["rooms"]["two"]["routes"]
    assert [(r["route"], 9 <= r["min_stops"] <= 10) for r in routes] == [("1:2", True)]
    from designer.ops.caves import read_cave

    _holds(read_cave(str(out)), 30)


@pytest.mark.parametrize("args, why", [
    (["--rooms", "4", "--room", "gate=9..5"], "the band's ceiling is below its floor"),
    (["--rooms", "3", "--keys", "2"], "need at least 5 rooms"),
    (["--rooms", "4", "--size", "5x5"], "7x7 to 40x40"),
    ([], "give a cave to fill"),
    (["--rooms", "4", "--route", "gate:1=5"], "--route takes ROOM:A:B=K"),
    (["--rooms", "4", "--room", "nowhere=5"], "no room 'nowhere'"),
])
def test_bad_requests_are_one_line_and_status_two(args, why, capsys):
    assert main(["cave", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_a_room_drawn_whole_that_fails_its_own_route_is_refused_at_once(tmp_path, capsys):
    """No fill can change a room without free cells: a cave that needs it strong and reversible
    is refused before any work (it once ran 60 s of rounds to "time limit reached")."""
    from designer.caves.refusals import refusals

    text = ("room a\n##1##\n#...#\n3._.2\n#...#\n#####\nroom b\n#####\n1???#\n#???#\n#???#\n###2#\n"
            "door a:2 b:1\nentrance a:1\nexit b:2\n").replace("3._.2", "#._.2")
    cave = tmp_path / "cave.txt"
    cave.write_text(text)
    why = "room a is drawn whole and its route 1:2 is weak: no fill can change it (free some of its cells with ?)"
    assert refusals(Cave.parse(text)) == [why]
    assert main(["cave", str(cave), "--min-stops", "5"]) == 2
    assert capsys.readouterr().err == f"designer: {why}\n"


def test_a_key_that_cannot_matter_is_refused_before_any_work(tmp_path, capsys):
    text = (CAVES / "ice-path.txt").read_text().replace("door c1:3 c2:1 lock gold", "door c1:3 c2:1").replace(
        "ladder b1:4 c1:2", "ladder b1:4 c1:2 lock gold")
    cave = tmp_path / "cave.txt"
    cave.write_text(text)
    assert main(["cave", str(cave), "--min-stops", "20"]) == 2
    assert "key gold cannot matter" in capsys.readouterr().err


def _free_room(name: str, where: str, doors: dict, key=None, size: int = 9) -> str:
    """A free room of ``size`` square, its doors at the given cells, a key's * at ``key``."""
    rows = [["#"] * size] + [["#"] + ["?"] * (size - 2) + ["#"] for _ in range(size - 2)] + [["#"] * size]
    for number, (r, c) in doors.items():
        rows[r][c] = str(number)
    if key is not None:
        rows[key[0]][key[1]] = "*"
    return f"room {name} at {where}\n" + "\n".join("".join(row) for row in rows) + "\n"


def test_a_key_behind_another_keys_lock_is_needed_and_the_cave_is_designed(tmp_path, capsys):
    """Key tin lies behind amber's lock, and tin's locks close every other way to the exit: amber
    is needed (the check once held every other key, tin too, and said amber could not matter)."""
    text = (_free_room("hall", "0,0", {1: (0, 4), 2: (4, 8), 3: (8, 6)})
            + _free_room("gallery", "0,9", {1: (4, 0), 2: (8, 2), 3: (3, 8), 4: (8, 6)})
            + _free_room("alcove", "9,9", {1: (0, 2), 2: (0, 6)}, key=(4, 5), size=8)
            + _free_room("cellar", "0,9 floor 2", {1: (3, 8), 2: (5, 0)}, key=(5, 4))
            + _free_room("well", "0,0 floor 2", {1: (5, 8), 2: (8, 3), 3: (0, 6)})
            + "door hall:2 gallery:1\ndoor gallery:2 alcove:1\ndoor gallery:4 alcove:2\n"
              "hole gallery:3 cellar:1 lock amber\ndoor cellar:2 well:1 lock tin\nladder well:3 hall:3 lock tin\n"
              "key amber alcove 4,5\nkey tin cellar 5,4\nentrance hall:1\nexit well:2\n")
    cave = tmp_path / "cave.txt"
    cave.write_text(text)
    out = tmp_path / "filled.txt"
    assert main(["cave", str(cave), "--min-stops", "5", "-o", str(out)]) == 0, capsys.readouterr().err
    assert "key amber needed, key tin needed" in capsys.readouterr().err
    from designer.ops.caves import read_cave

    _holds(read_cave(str(out)), 5)  # the plain reader: each key needed, strong, the min stops


@pytest.mark.slow
def test_rooms_on_dask_make_the_same_cave_as_in_process(tmp_path):
    here, there = tmp_path / "here.txt", tmp_path / "there.txt"
    args = ["cave", "--rooms", "5", "--keys", "1", "--size", "7x7", "--min-stops", "25", "--seed", "4"]
    assert main([*args, "-o", str(here)]) == 0
    assert main([*args, "--dask", "local", "-o", str(there)]) == 0
    assert here.read_text() == there.read_text()
    # run from a folder with a designer/ of its own (the project's checkout after a plain `pip
    # install .`, which maps designer.models from models/): the cluster's host and its workers
    # import the package the command runs, not the folder's (it was an 85-line traceback)
    import subprocess
    import sys

    shadow = tmp_path / "checkout"
    (shadow / "designer").mkdir(parents=True)
    (shadow / "designer" / "__init__.py").write_text("raise ImportError(\"this folder's designer/\")\n")
    command = [str(Path(sys.executable).parent / "designer"), *args, "--dask", "local", "-o", "shadowed.txt"]
    done = subprocess.run(command, cwd=shadow, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr.count("\n") <= 1, done.stderr[-2000:]
    assert (shadow / "shadowed.txt").read_text() == here.read_text()


def test_what_a_fill_would_refuse_is_said_with_the_caves_figures_before_any_fill():
    """The studio's cave panel (``plan_view``): a walled-in door of a free room, and a key that
    cannot matter, are said at once, not only under a room's fill; counts read as words."""
    from designer.ops.cave_views import plan_view

    text = (CAVES / "four-rooms.txt").read_text()
    lines = text.split("\n")
    lines[lines.index("#??????????#")] = "#????#?????#"  # the cell inside room one's door 1: rock
    found = plan_view("\n".join(lines))
    assert found["refused"] == ["room one: door 1 (0,5) is walled in on every side: nothing can move there or "
                                "from there"]
    assert found["figures"].startswith("4 rooms, 4 links, 0 keys: room one: door 1 (0,5) is walled in")
    assert plan_view(text)["refused"] == []
    keyed = (CAVES / "ice-path.txt").read_text().replace("door c1:3 c2:1 lock gold", "door c1:3 c2:1").replace(
        "ladder b1:4 c1:2", "ladder b1:4 c1:2 lock gold")
    found = plan_view(keyed)
    assert "1 key:" in found["figures"] and any("key gold cannot matter" in one for one in found["refused"])


def _plan_inputs(cave: Cave):
    from designer.caves import asking, plan, room_jobs

    free = {room.name for room in cave.rooms if room.free}
    edges = plan.edges(cave, free, room_jobs.measured_rooms(cave))
    passages, most, likely = asking.passage_bounds(cave, edges)
    return edges, {p: 1 for p in passages}, most, likely


def test_a_plan_of_48_rooms_and_4_keys_is_settled_by_its_work_and_a_net_too_short_says_time_limit(capsys):
    """Issue 60: the plan of 48 rooms and 4 keys (3,600 edges) spent its 10 s in CP-SAT's presolve
    and exited with status 2 (the cave's plan found no bands). Without presolve, and from a plan
    it is given, it is settled by its budget of work (the same plan at any load); when its seconds
    end first there is no plan, and the cave says time limit reached (status 1)."""
    from designer.caves import plan
    from designer.core.budget import use_clock

    cave = grammar.draw(48, 4, (8, 8), seed=1)
    edges, low, most, likely = _plan_inputs(cave)
    assert len(edges) > 3000
    first = plan.solve(cave, edges, low, most, 10, 60.0, 1, likely)
    assert first == plan.solve(cave, edges, low, most, 10, 60.0, 1, likely)
    assert plan.shortest(cave, edges, lambda e: first[e.passage] if e.designed else e.weight)[0] >= 10
    with use_clock("wall"), pytest.raises(plan.Unsettled, match="was not settled within 0.5 s"):
        plan.solve(cave, edges, low, most, 10, 0.01, 1, likely)  # a net of 0.5 s: the plan takes over a second


def test_a_ceiling_below_the_shortest_way_is_proven_infeasible_at_once(capsys):
    assert main(["cave", "--rooms", "4", "--min-stops", "1", "--max-stops", "1", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert "proven infeasible: the shortest way, through rooms gate, hall, gallery, chamber, makes at least 4 stops" in err


def test_a_cave_drawn_by_hand_with_a_chain_of_three_keys_fills_and_needs_every_key():
    """Issue 60's cave as a game maker draws it: six rooms on two floors, three keys in a chain, a
    hole down, a locked ladder up and a hall of four doors. Each key is carried only on the
    passage its plan takes it on (the crypt's silver was an item of all six of its routes), and
    the cave is filled, every key needed by the plain reader."""
    from designer.caves import asking, plan, room_jobs

    template = Cave.parse((CAVES / "chain-of-three.txt").read_text())
    edges, low, most, likely = _plan_inputs(template)
    bands = plan.solve(template, edges, low, most, 30, 60.0, 1, likely)
    carried = room_jobs.keys_carried(template, edges, bands)
    # the shrine's two doors have one route (or the way leaves by the door it came in by): it carries bronze there
    assert {"crypt", "vault"} <= set(carried) <= {"shrine", "crypt", "vault"}
    assert all(len(routes) == 1 for routes in carried.values())
    crypt = room_jobs.request_for_room(template, "crypt", {}, None, carry=carried["crypt"])
    assert sum(band.items for band in crypt.route_bands) == 1 and len(crypt.route_bands) == 6
    made = design(CaveRequest(template, 30), seed=1, time_limit=60)
    _holds(made.cave, 30)
    assert [key.needed for key in made.analysis.keys] == [True, True, True]


def test_a_room_designed_on_the_work_clock_is_the_same_however_slow_the_machine(monkeypatch):
    """Issue 60: a cave's seed gave two caves on a busy machine (its rooms were designed on
    shares of the seconds left). A room is designed on the work clock: whatever the wall and
    processor clocks say, here running ten times as fast as the work, the same room comes back."""
    from designer.caves import asking, plan, room_jobs
    from designer.core import budget as budgets
    from designer.search.job import DesignJob

    template = Cave.parse((CAVES / "ice-path.txt").read_text())
    edges, low, most, likely = _plan_inputs(template)
    bands = plan.solve(template, edges, low, most, 80, 60.0, 1, likely)
    mine = {p: s for p, s in bands.items() if p.room == "b2"}
    job = DesignJob(room_jobs.request_for_room(template, "b2", mine, None), seed=5, time_limit=4.0, workers=1)
    first = room_jobs.design_room(job)
    for name in ("wall", "cpu"):
        real, ahead = budgets.CLOCKS[name], [0.0]

        def slow(real=real, ahead=ahead) -> float:
            ahead[0] += 0.01
            return real() + ahead[0]
        monkeypatch.setitem(budgets.CLOCKS, name, slow)
    again = room_jobs.design_room(job)
    assert str(first.room) == str(again.room) and first.generator.stage == again.generator.stage


@pytest.mark.slow
def test_a_fill_that_fails_names_the_rooms_that_held_it_back_as_it_goes_and_at_the_end():
    """Issue 60: a failed fill said "time limit reached" after its rounds, naming nothing. Each
    round says what held it back (the studio shows it live), and so does the failure."""
    template = Cave.parse((CAVES / "chain-of-three.txt").read_text())
    labels = []
    with pytest.raises(CaveFailed) as failed:
        design(CaveRequest(template, 140), seed=1, time_limit=8,
               on_progress=lambda update: labels.append(update.label or ""))
    assert failed.value.reason == "time limit" and "room" in str(failed.value)
    held = [label for label in labels if label.startswith("round ") and ": room " in label]
    assert held and "out of its work" in held[0] and "route" in held[0], labels
