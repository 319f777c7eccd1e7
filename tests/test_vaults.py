"""A room of one door, a vault: its route runs from the door to every item it holds and back
(docs/spec.md, "Rooms with several doors"), alone and in a cave, read again by the plain readers
of tests/oracle_caves.py and a breadth-first walk here."""

from __future__ import annotations

import json
from collections import deque

import pytest

import oracle_caves as oracle
from designer.analysis.classify import min_stops
from designer.caves.cave import Cave
from designer.caves.design import design
from designer.caves.cave_request import CaveRequest
from designer.cli import main
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.room import Room

VAULT = ["##1###", "#....#", "#.*..#", "#...##", "######"]


def _walk(room: Room) -> int:
    """The fewest moves of a vault's route by a plain walk over (cell, items taken): slide until
    a rock or the edge, taking items on the way; done on entering the door with all taken."""
    door, items = room.doors[0][1], list(room.items)
    full = (1 << len(items)) - 1
    h, w = room.terrain.shape
    seen, todo = {(door, 0)}, deque([(door, 0, 0)])
    while todo:
        (r, c), taken, moves = todo.popleft()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            at, got, done = (r, c), taken, False
            while 0 <= at[0] + dr < h and 0 <= at[1] + dc < w and room.terrain[at[0] + dr, at[1] + dc] == 0:
                at = (at[0] + dr, at[1] + dc)
                if at in items:
                    got |= 1 << items.index(at)
                if at == door and got == full:
                    done = True
                    break
            if done:
                return moves + 1
            if at != (r, c) and (at, got) not in seen:
                seen.add((at, got))
                todo.append((at, got, moves + 1))
    return -1


def test_a_vaults_route_runs_from_its_door_to_its_items_and_back():
    room = Room.from_rows(VAULT)
    assert room.vault and room.routes() == [(1, 1)]
    level = room.route(1, 1)
    assert level.start == level.goal == (0, 2) and level.items == ((2, 2),)
    assert min_stops(level) == _walk(room) == 2  # down over the item, then up into the door
    assert Room.from_rows(str(room).splitlines()) == room
    with pytest.raises(LevelError, match="one door and items to take: a vault .not 1 door and no item."):
        Room.from_rows([row.replace("*", ".") for row in VAULT])  # a dead end that holds nothing
    with pytest.raises(LevelError, match="runs from a door to itself"):
        Room.from_rows(["##1###", "#....2", "#.*..#", "######"]).routes([(1, 1)])
    with pytest.raises(LevelError, match="same cell"):
        Level.from_ascii("#G#\n#S#\n###").replace(start=(0, 1))  # a level's ends on one cell, with no item


def test_analyze_and_solve_read_a_vault(tmp_path, capsys):
    path = tmp_path / "vault.txt"
    path.write_text("\n".join(VAULT) + "\n")
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert "room: 5x6, 1 door: 1 (0, 2)" in out and "route 1:1:" in out and "min stops 2" in out
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "du"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_make_designs_a_vault_from_its_template_checked_by_a_plain_walk(tmp_path, capsys, seed):
    template = tmp_path / "vault-template.txt"
    template.write_text("####1####\n" + "#???????#\n" * 3 + "#???*???#\n" + "#???????#\n" * 3 + "#########\n")
    out = tmp_path / "vault.json"
    assert main(["make", "--template", str(template), "--min-stops", "8", "--seed", str(seed), "--format", "json", "-o", str(out)]) == 0
    assert "designed: a room of 1 door, min stops by route 1:1" in capsys.readouterr().err
    room = Room.from_rows(json.loads(out.read_text())["rows"])
    assert room.vault and room.items == ((4, 4),)
    assert _walk(room) >= 8
    assert main(["analyze", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["strong_and_reversible"] and report["routes"][0]["min_stops"] == _walk(room)


def test_a_room_of_one_door_without_items_is_refused_in_one_line(tmp_path, capsys):
    template = tmp_path / "t.txt"
    template.write_text("####1####\n" + "#???????#\n" * 7 + "#########\n")
    assert main(["make", "--template", str(template), "--min-stops", "5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "one door and the items it holds drawn (*): a vault" in err


VAULT_CAVE = """room hall at 0,0
####1#####
#????????#
#????????#
#????????#
#????????#
#????????2
#????????#
#????????#
#????????#
######3###
room vault at 10,0
######1###
#????????#
#????????#
#????????#
#????????#
#???*????#
#????????#
#????????#
#????????#
##########
room end at 0,10
##########
#????????#
#????????#
#????????2
#????????#
1????????#
#????????#
#????????#
#????????#
##########
door hall:2 end:1 lock gold
door hall:3 vault:1
key gold vault 5,4
entrance hall:1
exit end:2
"""


def test_a_caves_vault_holding_its_key_is_designed_with_a_band_of_its_own():
    made = design(CaveRequest(Cave.parse(VAULT_CAVE), 30), seed=0, time_limit=60)
    cave = made.cave
    assert oracle.min_stops(cave) >= 30 and oracle.strong(cave)
    assert oracle.min_stops(cave, without=0) == -1  # the key needed
    vault = made.analysis.rooms[[room.name for room in cave.rooms].index("vault")]
    assert [route.route for route in vault.routes] == [(1, 1)] and vault.holds
    assert next(visit for visit in made.analysis.way.visits if visit.room == "vault").stops >= 2
    assert _walk(cave.room("vault").room) == vault.routes[0].analysis.min_stops
