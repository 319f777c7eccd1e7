"""Caves from nothing (designer.caves.grammar): the shapes of a mission grammar, on floors, each
read by a plain walk over the links here (every key needed, holes only ever back along the way,
the way back always open), and designed caves of them read by tests/oracle_caves.py."""

from __future__ import annotations

import json
import re

import pytest

import oracle_caves as oracle
from designer.caves import grammar
from designer.caves.cave import Cave
from designer.caves.design import design
from designer.caves.dressing import Dressing, key_patterns
from designer.caves.cave_request import CaveRequest
from designer.caves.refusals import refusals
from designer.cli import main
from designer.core.errors import DesignerError


def _rooms_reached(cave: Cave, start: str, held: set, reverse: bool = False, skip=None) -> set:
    """The rooms a walk over the links reaches from room ``start``, rooms open between their
    doors, a lock open when its key is in ``held`` (``reverse``: links walked backwards; ``skip``:
    a link left out)."""
    found, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for link in cave.links:
            if link == skip or link.lock is not None and link.lock not in held:
                continue
            ends = [(link.a[0], link.b[0])] + ([] if link.one_way else [(link.b[0], link.a[0])])
            for a, b in ends:
                a, b = (b, a) if reverse else (a, b)
                if a == here and b not in found:
                    found.add(b)
                    todo.append(b)
    return found


def _played(cave: Cave, missing: str | None = None) -> tuple[set, set]:
    """The keys a player can take and the rooms they reach, picking up each key (but ``missing``)
    once its room is reached."""
    held: set = set()
    while True:
        rooms = _rooms_reached(cave, cave.entrance[0], held)
        more = {key.name for key in cave.keys if key.room in rooms and key.name != missing}
        if more <= held:
            return held, rooms
        held |= more


COUNTS = [(4, 1, 1), (5, 2, 1), (6, 1, 2), (8, 3, 3), (9, 2, 3), (12, 4, 4), (7, 0, 3), (10, 3, 2)]


@pytest.mark.parametrize("rooms, keys, floors", COUNTS)
def test_every_shape_that_fits_needs_every_key_and_can_always_climb_back(rooms, keys, floors):
    shapes = grammar.shapes_for(rooms, keys, floors)
    assert shapes
    for shape in shapes:
        for seed in range(3):
            cave = grammar.draw(rooms, keys, (9, 9), seed, floors, shape)
            assert len(cave.rooms) == rooms and len(cave.keys) == keys
            assert {room.floor for room in cave.rooms} == set(range(1, floors + 1))
            assert cave.room(cave.entrance[0]).floor == floors and cave.room(cave.exit[0]).floor == 1
            kinds = {link.kind for link in cave.links}
            assert ("hole" in kinds and "ladder" in kinds) if floors > 1 else "ladder" not in kinds
            assert refusals(cave) == []
            names = {key.name for key in cave.keys}
            assert _played(cave)[0] == names
            for key in names:  # without it, the exit's room is out of reach
                assert cave.exit[0] not in _played(cave, key)[1]
            # every room reached, and from every room the entrance's is reached again
            assert _rooms_reached(cave, cave.entrance[0], names) == {room.name for room in cave.rooms}
            assert _rooms_reached(cave, cave.entrance[0], names, reverse=True) == {room.name for room in cave.rooms}
            for room in cave.rooms:
                for r, c in room.stars:  # a key lies off the walls, and out of its doors' lines
                    assert 2 <= r < room.shape[0] - 2 and 2 <= c < room.shape[1] - 2
                    assert all(r != dr and c != dc for dr, dc in room.doors.values())


VARIED = [(3, 1, 1), (5, 2, 1), (6, 1, 2), (8, 3, 3), (9, 2, 3), (8, 4, 1), (10, 3, 2), (7, 3, 1)]


@pytest.mark.parametrize("rooms, keys, floors", VARIED)
def test_a_varied_cave_has_rooms_of_several_sizes_and_keys_of_two_patterns_each_needed(rooms, keys, floors):
    dressing = Dressing(varied=True, snow=1, coins=2)
    for shape in grammar.shapes_for(rooms, keys, floors):
        for size, seed in [((9, 9), 0), ((12, 14), 1), ((7, 7), 2), ((10, 12), 3)]:
            cave = grammar.draw(rooms, keys, size, seed, floors, shape, dressing)
            assert refusals(cave) == [] and str(Cave.parse(str(cave))) == str(cave)
            names = {key.name for key in cave.keys}
            assert _played(cave)[0] == names
            for key in names:
                assert cave.exit[0] not in _played(cave, key)[1]
            assert _rooms_reached(cave, cave.entrance[0], names, reverse=True) == {room.name for room in cave.rooms}
            assert len({room.shape for room in cave.rooms}) >= 2
            for room in cave.rooms:  # a main room's sides within 2 of the size asked, a room below it 3 smaller
                assert all(max(7, side - 5) <= own <= side + 2 for own, side in zip(room.shape, size))
            patterns = key_patterns(cave)
            # the last key opens a gate; two keys or more: a key opens another key's room too
            assert patterns[-1] == "gate" and (keys < 2 or "chain" in patterns)
            if keys >= 3 and shape != "chain":
                assert patterns.count("gate") >= 2
            main = [room for room in cave.rooms if not room.stars]
            assert sum(row.count("_") for room in main for row in room.rows) >= len(main) - 2  # loop rooms
            assert sum(row.count("$") for room in cave.rooms for row in room.rows) == 2


def test_some_varied_rooms_have_corners_cut_and_names_come_from_the_dressing():
    cut = 0
    for seed in range(6):
        cave = grammar.draw(5, 2, (12, 12), seed, shape="gates", dressing=Dressing(varied=True))
        cut += sum(room.rows[1][1] == "#" or room.rows[1][-2] == "#" for room in cave.rooms)
    assert cut >= 3
    named = Dressing(True, ("door", "aisle", "nave", "sacristy", "reliquary"), ("red", "blue"))
    cave = grammar.draw(5, 2, (10, 10), 1, shape="gates", dressing=named)
    assert [room.name for room in cave.rooms] == ["door", "aisle", "nave", "sacristy", "reliquary"]
    assert {link.lock for link in cave.links if link.lock} == {"red", "blue"}
    assert [key.name for key in cave.keys] == ["red", "blue"]


@pytest.mark.parametrize("dressing, why", [
    (Dressing(names=("a", "b")), "names names 2 rooms, not the 5 drawn"),
    (Dressing(names=("a", "b", "c", "d", "a")), "names one of its rooms twice"),
    (Dressing(names=("a", "b", "c", "d", "e f")), "'e f' is not a name"),
    (Dressing(key_names=("red",)), "key_names names 1 keys, not the 2 drawn"),
    (Dressing(snow=5), "snow takes 0 to 4 cells a room, not 5"),
    (Dressing(coins=6), "coins takes 0 to 5 coins (one a room), not 6"),
])
def test_a_dressing_the_counts_cannot_take_is_one_line(dressing, why):
    with pytest.raises(DesignerError, match=re.escape(why)):
        grammar.draw(5, 2, (10, 10), 1, shape="gates", dressing=dressing)


def test_each_shape_is_the_pattern_it_names():
    chain = grammar.draw(8, 3, (9, 9), 1, 3, "chain")
    locked = {link.b[0]: link.lock for link in chain.links if link.b[0] in grammar.SIDE_ROOMS}
    assert locked == {"vault": None, "crypt": "bronze", "shrine": "silver"}  # a key behind a key
    assert [link.lock for link in chain.links if link.lock and not link.b[0] in grammar.SIDE_ROOMS] == ["gold"]
    gates = grammar.draw(8, 3, (9, 9), 1, 3, "gates")
    assert sorted(link.lock for link in gates.links if link.lock) == ["bronze", "gold", "silver"]
    assert not any(link.lock for link in gates.links if link.b[0] in grammar.SIDE_ROOMS)
    shortcut = grammar.draw(8, 3, (9, 9), 1, 3, "shortcut")
    holes = [link for link in shortcut.links if link.kind == "hole"]
    assert len(holes) == 1 and holes[0].b[0] == shortcut.entrance[0] and holes[0].a[0] == shortcut.exit[0]
    loop = grammar.draw(9, 2, (9, 9), 1, 2, "loop")
    below = [link for link in loop.links if "cellar" in (link.a[0], link.b[0]) or "undercroft" in (link.a[0], link.b[0])]
    assert len(below) == 3 and not any(link.lock for link in below)
    for link in below:  # round the other way
        assert {"cellar", "undercroft"} <= _rooms_reached(loop, loop.entrance[0], {"bronze", "silver"}, skip=link)


def test_seeds_in_a_row_give_each_shape_that_fits_and_a_seed_its_cave_again():
    fitting = grammar.shapes_for(8, 3, 3)
    assert fitting == ["gates", "chain", "shortcut"]  # a loop of 3 keys on 3 floors needs 10 rooms
    assert [grammar.pick_shape(8, 3, 3, seed) for seed in range(1, 7)] == fitting[1:] + fitting + fitting[:1]
    assert str(grammar.draw(8, 3, (12, 12), 4, 3)) == str(grammar.draw(8, 3, (12, 12), 4, 3))
    assert str(grammar.draw(8, 3, (12, 12), 4, 3)) != str(grammar.draw(8, 3, (12, 12), 7, 3))


@pytest.mark.parametrize("args, why", [
    (["--rooms", "8", "--keys", "3", "--floors", "3", "--shape", "loop"], "the loop shape of 3 keys on 3 floors needs "
                                                                           "at least 10 rooms, not 8"),
    (["--rooms", "6", "--keys", "1", "--shape", "chain"], "needs 2 keys or more"),
    (["--rooms", "6", "--shape", "spiral"], "--shape takes one of gates, chain, shortcut, loop"),
    (["--rooms", "3", "--floors", "4"], "0 keys on 4 floors need at least 4 rooms, not 3"),
    (["--rooms", "6", "--floors", "0"], "--floors takes 1 to 9 floors, not 0"),
    (["examples/caves/four-rooms.txt", "--floors", "2"], "--keys, --size, --floors, --shape and --varied draw a "
                                                          "cave from nothing"),
    (["examples/caves/four-rooms.txt", "--varied"], "--varied draw a cave from nothing"),
])
def test_shapes_that_cannot_be_drawn_are_one_line_and_status_two(args, why, capsys):
    assert main(["cave", *args, "--min-stops", "20"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_a_chain_on_two_floors_is_designed_and_read_by_the_plain_reader(tmp_path, capsys):
    out = tmp_path / "cave.json"
    assert main(["cave", "--rooms", "5", "--keys", "2", "--floors", "2", "--shape", "chain", "--size", "7x7",
                 "--min-stops", "20", "--seed", "2", "-o", str(out)]) == 0
    capsys.readouterr()
    saved = json.loads(out.read_text())
    grammar_record = saved["generator"]["request"]["grammar"]
    assert grammar_record == {"rooms": 5, "keys": 2, "size": [7, 7], "floors": 2, "shape": "chain", "seed": 2}
    cave = Cave.from_json(saved)
    assert oracle.min_stops(cave) >= 20 and oracle.strong(cave)
    for k, _ in enumerate(cave.keys):
        assert oracle.min_stops(cave, without=k) == -1
    assert {link.kind for link in cave.links} == {"door", "ladder", "hole"}


def test_a_shaped_cave_designed_in_process_holds_every_promise():
    template = grammar.draw(6, 2, (7, 7), seed=4, floors=2, shape="shortcut")
    made = design(CaveRequest(template, 24), seed=4, time_limit=60)
    assert oracle.min_stops(made.cave) >= 24 and oracle.strong(made.cave)
    assert [key.needed for key in made.analysis.keys] == [True, True]


def test_a_varied_cave_from_the_command_line_is_designed_recorded_and_read_by_the_plain_reader(tmp_path, capsys):
    out = tmp_path / "cave.json"
    assert main(["cave", "--rooms", "5", "--keys", "2", "--size", "9x9", "--shape", "gates", "--varied",
                 "--min-stops", "12", "--seed", "3", "-o", str(out)]) == 0
    capsys.readouterr()
    saved = json.loads(out.read_text())
    assert saved["generator"]["request"]["grammar"]["dressing"] == {"varied": True}
    cave = Cave.from_json(saved)
    assert len({room.shape for room in cave.rooms}) >= 3 and key_patterns(cave) == ["chain", "gate"]
    assert oracle.min_stops(cave) >= 12 and oracle.strong(cave)
    for k, _ in enumerate(cave.keys):
        assert oracle.min_stops(cave, without=k) == -1
    again = tmp_path / "again.json"
    assert main(["cave", "--from", str(out), "-o", str(again)]) == 0
    assert Cave.from_json(json.loads(again.read_text())) == cave
    assert main(["cave", "--from", str(out), "--varied", "-o", str(tmp_path / "x.json")]) == 2
    assert "--varied does not go with --from" in capsys.readouterr().err


def test_a_cave_from_nothing_asks_more_stops_of_more_rooms_unless_told():
    """Issue 63: ``--rooms 8`` asked the 30 min stops of 3 rooms, and spread them into rooms of 4
    stops. Untold, a cave from nothing asks 10 a room, within what its rooms likely hold (so
    small rooms are not asked past it), 30 at least; a given cave 30; never above --max-stops."""
    from designer.caves.asking import default_min_stops
    from designer.ops.caves import CaveOptions, request_for

    asked = [request_for(CaveOptions(rooms=n, seed=1)).min_stops for n in (2, 3, 5, 8)]
    assert asked == [30, 30, 50, 80]
    small = request_for(CaveOptions(rooms=8, keys=3, size=(7, 7), seed=1))
    assert 30 < small.min_stops < 80 and small.min_stops == default_min_stops(small.cave)
    assert request_for(CaveOptions(rooms=8, seed=1, max_stops=40)).min_stops == 40
    assert request_for(CaveOptions(rooms=8, seed=1, min_stops=12)).min_stops == 12
    given = request_for(CaveOptions(template="examples/caves/four-rooms.txt"))
    assert given.min_stops == 30 and given.grammar is None
