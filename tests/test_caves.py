"""Caves: the value type and its forms, and the whole state graph held to an independent reader."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import oracle_caves as oracle
from designer.caves import cave_analysis, graph
from designer.caves.cave import Cave
from designer.caves.parts import CaveRoom, Key, Link
from designer.core.budget import Budget
from designer.core.errors import LevelError

TWO = "room a\n#1#\n#.2\n###\nroom b\n#1#\n2.#\n###\ndoor a:2 b:2\nentrance a:1\nexit b:1"


def random_cave(seed: int, coins: int = 0) -> Cave:
    """A small random cave: framed rooms with doors in their frames, snow now and then, links
    (doorways, ladders, holes) between rooms, up to two keys and the locks they open, and up to
    ``coins`` coins on ice anywhere."""
    rng = random.Random(seed)
    count = rng.randint(2, 4)
    rooms, free_doors = [], []
    for k in range(count):
        h, w = rng.randint(4, 6), rng.randint(4, 6)
        grid = [["#"] * w for _ in range(h)]
        for r in range(1, h - 1):
            for c in range(1, w - 1):
                grid[r][c] = rng.choice("....#_") if rng.random() < 0.9 else "."
        sides = [(0, c) for c in range(1, w - 1)] + [(h - 1, c) for c in range(1, w - 1)] + \
                [(r, 0) for r in range(1, h - 1)] + [(r, w - 1) for r in range(1, h - 1)]
        cells = rng.sample(sides, rng.randint(2, 3))
        for number, (r, c) in enumerate(cells, 1):
            grid[r][c] = str(number)
            free_doors.append((f"r{k}", number))
        rooms.append((f"r{k}", grid))
    rng.shuffle(free_doors)
    entrance, exit_ = free_doors.pop(), free_doors.pop()
    links = []
    while len(free_doors) >= 2:
        a, b = free_doors.pop(), free_doors.pop()
        if a[0] == b[0]:
            # two doors of one room: the second goes back for another pairing, or turns to rock
            name, grid = next(x for x in rooms if x[0] == b[0])
            r, c = next((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == str(b[1]))
            grid[r][c] = "#"
            free_doors.append(a)
            continue
        links.append([rng.choice(("door", "ladder", "hole")), a, b, None])
    for door in free_doors:  # a door left over: rock
        name, grid = next(x for x in rooms if x[0] == door[0])
        r, c = next((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == str(door[1]))
        grid[r][c] = "#"
    keys = []
    for k in range(rng.randint(0, 2)):
        name, grid = rng.choice(rooms)
        ice = [(r, c) for r in range(1, len(grid) - 1) for c in range(1, len(grid[0]) - 1) if grid[r][c] == "."]
        if ice:
            cell = rng.choice(ice)
            grid[cell[0]][cell[1]] = "*"
            keys.append(Key(f"k{k}", name, cell))
            if links:
                rng.choice(links)[3] = f"k{k}"
    made = []
    for name, grid in rooms:  # a room left with fewer than two doors gets renumbered doors back
        made.append(CaveRoom(name, tuple("".join(row) for row in grid)))
    try:
        cave = Cave(tuple(made), tuple(Link(*link) for link in links), entrance, exit_, tuple(keys))
    except LevelError:
        cave = Cave.parse(TWO)  # a draw whose rooms lost a door: the smallest cave instead
    return _with_coins(cave, rng, coins) if coins else cave


def _with_coins(cave: Cave, rng: random.Random, most: int) -> Cave:
    """The cave with up to ``most`` coins on ice: mostly on cells the player can rest on (so that
    many have a full clear), now and then anywhere."""
    rests = sorted({(s[0], (s[1], s[2])) for s in oracle.explore(cave) if s != oracle.EXIT})
    ice = [(room.name, (r, c)) for room in cave.rooms for r, row in enumerate(room.rows)
           for c, ch in enumerate(row) if ch == "."]
    rows = {room.name: [list(row) for row in room.rows] for room in cave.rooms}
    for _ in range(rng.randint(0, most)):
        pool = [cell for cell in rests if cell in ice] if rng.random() < 0.85 else ice
        if pool:
            name, (r, c) = rng.choice(pool)
            rows[name][r][c] = "$"
    return cave.but(rooms=tuple(CaveRoom(room.name, tuple("".join(row) for row in rows[room.name]), room.at,
                                         room.floor) for room in cave.rooms))


def test_the_text_and_json_forms_read_back_exactly():
    cave = Cave.parse(TWO)
    assert str(cave) == TWO
    assert Cave.from_json(json.loads(json.dumps(cave.to_json()))) == cave
    for seed in range(40):
        cave = random_cave(seed)
        assert Cave.parse(str(cave)) == cave
        assert Cave.from_json(cave.to_json()) == cave


@pytest.mark.parametrize("text, why", [
    (TWO.replace("exit b:1", ""), "no exit"),
    (TWO.replace("door a:2 b:2", "door a:2 a:1"), "used twice"),
    (TWO.replace("door a:2 b:2", "door a:2 b:2 lock red"), "no key is named 'red'"),
    (TWO.replace("door a:2 b:2", ""), "door a:2 leads nowhere"),
    (TWO.replace("#.2", "#*2"), "is no key"),
    (TWO.replace("door a:2", "tunnel a:2"), "not a line of a cave"),
    (TWO.replace("room b", "room a"), "two rooms named 'a'"),
    (TWO + "\nkey k a 9,9", r"has no \* at row 9"),
])
def test_a_bad_cave_is_refused_in_one_line(text, why):
    with pytest.raises(LevelError, match=why) as error:
        Cave.parse(text)
    assert "\n" not in str(error.value)


def _agree(cave: Cave) -> None:
    report = cave_analysis.analyze(cave, rooms=False)
    stops = oracle.min_stops(cave)
    assert (report.min_stops if report.way else -1) == stops
    if report.way:
        assert report.strong == oracle.strong(cave)
    assert report.reversible == oracle.reversible(cave)
    reached = oracle.rooms_reached(cave)
    assert set(report.unreached) == {room.name for room in cave.rooms} - reached
    for k, worth in enumerate(report.keys):
        without = oracle.min_stops(cave, without=k)
        assert (worth.without if worth.without is not None else -1) == without


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_the_state_graph_agrees_with_an_independent_reader(seed):
    _agree(random_cave(seed))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_a_caves_full_clear_agrees_with_an_independent_reader_and_replays(seed):
    from designer.caves.coins import full_clear

    cave = random_cave(seed, coins=6)
    tour = full_clear(cave, Budget(60.0, clock="cpu"))
    assert tour.proven  # small caves: always proven within the budget
    assert (tour.stops if tour.moves else -1) == oracle.full_clear(cave)
    _agree(cave)  # coins change nothing of the way to the exit
    if tour.moves:
        state = (*oracle.start(cave), 0)
        for letter in tour.moves:
            state = oracle.moves(cave, state)["udlr".index(letter)]
        assert state == (oracle.EXIT, (1 << len(oracle.coin_bits(cave))) - 1)


def test_a_cave_with_coins_reads_back_designs_around_them_and_reports_its_full_clear(tmp_path):
    from designer.caves.coins import full_clear
    from designer.cli import app
    from typer.testing import CliRunner

    text = ("room a\n#1###\n#...#\n#$..2\n#####\nroom b\n###1#\n2..$#\n#...#\n#####\n"
            "door a:2 b:2\nentrance a:1\nexit b:1")
    cave = Cave.parse(text)
    assert [room.coins for room in cave.rooms] == [((2, 1),), ((1, 3),)]
    assert str(cave) == text and Cave.from_json(cave.to_json()) == cave
    tour = full_clear(cave)
    assert (tour.moves, tour.proven, tour.taken) == ("drru", True, (1, 3))
    assert tour.path[:2] == (("a", (0, 1)), ("a", (2, 1)))
    assert graph.solve(cave).stops == 4  # the exit never waits for coins
    path = tmp_path / "c.txt"
    path.write_text(text)
    runner = CliRunner()
    solved = runner.invoke(app, ["solve", str(path)])
    assert solved.exit_code == 0 and "full clear (2 coins): 4 moves (proven optimal)\ndrru" in solved.output
    analysed = runner.invoke(app, ["analyze", str(path), "--json"])
    assert json.loads(analysed.output)["full_clear"]["taken_at"] == [1, 3]
    from designer.ops.cave_views import plan_view

    assert plan_view(text)["figures"].endswith("full clear (2 coins) 4 moves (proven optimal)")  # the studio's
    from designer.caves.world import read_world
    from designer.ops.caves import export_world

    export_world(str(path), str(tmp_path / "world"))  # a Tiled world: each room's coins as its map's objects
    assert [room.rows for room in read_world(str(tmp_path / "world" / "cave.world")).rooms] == [r.rows for r in cave.rooms]
    many = ("room a\n#1" + "#" * 20 + "\n#" + "$" * 20 + "2\n" + "#" * 22 + "\n"
            "room b\n#1" + "#" * 15 + "\n2" + "$" * 15 + "#\n" + "#" * 17 + "\n")
    with pytest.raises(LevelError, match="35 coins: a cave holds at most 32, in all its rooms"):
        Cave.parse(many + "door a:2 b:2\nentrance a:1\nexit b:1")  # its full clear takes a bit a coin
    # a room still to fill keeps its coin where the cave draws it
    free = text.replace("#...#\n#$..2", "#???#\n#$??2")
    made = runner.invoke(app, ["cave", "-", "--min-stops", "3", "--seed", "2"], input=free)
    assert made.exit_code == 0, made.output
    assert "full clear (2 coins)" in made.output
    filled = Cave.parse(made.stdout.split("designed:")[0])
    assert [room.coins for room in filled.rooms] == [((2, 1),), ((1, 3),)]


def test_the_way_is_told_room_by_room_and_replays():
    cave = Cave.parse(TWO)
    way = graph.solve(cave)
    assert way.moves == "drru" and [(v.room, v.door, v.stops) for v in way.visits] == [("a", 1, 2), ("b", 2, 2)]
    solvable = [cave for cave in map(random_cave, range(300)) if graph.solve(cave) is not None]
    assert len(solvable) >= 20
    for cave in solvable[:20]:
        way = graph.solve(cave)
        assert sum(visit.stops for visit in way.visits) == way.stops == oracle.min_stops(cave)
        state = oracle.start(cave)
        for letter in way.moves:  # the moves, replayed by the plain reader, end at the exit
            state = oracle.moves(cave, state)["udlr".index(letter)]
            assert state is not None
        assert state == oracle.EXIT


def test_a_key_taken_mid_slide_opens_its_lock_in_the_same_slide():
    text = ("room a\n#1#####\n#..*..2\n#######\nroom b\n#1#\n#.#\n#2#\n"
            "door a:2 b:1 lock k\nkey k a 1,3\nentrance a:1\nexit b:2")
    cave = Cave.parse(text)
    way = graph.solve(cave)
    assert way.moves == "drd" and way.keys == {"k": 2}
    assert oracle.min_stops(cave) == 3
    report = cave_analysis.analyze(cave)
    assert report.keys[0].needed and report.keys[0].matters


def test_a_hole_with_no_way_back_is_one_way_in_play_and_a_doorway_is_not():
    hole = cave_analysis.analyze(Cave.parse(TWO.replace("door a:2 b:2", "hole a:2 b:2")))
    door = cave_analysis.analyze(Cave.parse(TWO))
    assert [(use.used, use.one_way) for use in hole.links] == [(True, True)] and not hole.reversible
    assert [(use.used, use.one_way) for use in door.links] == [(True, False)] and door.reversible
    assert hole.reversible == oracle.reversible(hole.cave) and door.reversible == oracle.reversible(door.cave)


@pytest.mark.parametrize("change, why", [
    ({"rooms": [{"name": "a", "rows": ["#1#", "#.2", "###"], "at": [-1, 2]}]}, "a cell is \\[row, col\\]"),
    ({"links": "none"}, '"links" must be a list'),
    ({"version": 2}, "unsupported ice-cave version 2"),
    ({"rooms": [{"name": "a", "rows": "#1#"}]}, "must be a list of strings"),
    ({"links": [{"kind": "door", "from": "a:2", "to": "b:2", "lock": [1]}]}, "no key is named"),
])
def test_a_bad_json_cave_is_refused_in_one_line_said_once(change, why):
    obj = {**Cave.parse(TWO).to_json(), **change}
    with pytest.raises(LevelError, match=why) as error:
        Cave.from_json(obj)
    assert "\n" not in str(error.value) and str(error.value).count("JSON cave") <= 1


def test_no_move_leaves_the_exit_in_the_links_figures():
    """A link reached only by sliding on past the exit is never passed, and its room never
    reached, in the same report (it once said "rooms never reached: b" and called the link into
    b one way in play)."""
    cave = Cave.parse("room a\n##1###\n##.#.#\n##2#4#\n##.###\n##3###\nroom b\n#1#\n#.#\n#2#\n###\n"
                      "door a:3 b:1\ndoor a:4 b:2\nentrance a:1\nexit a:2")
    found = cave_analysis.analyze(cave, rooms=False)
    assert found.unreached == ("b",)
    assert [(use.used, use.one_way) for use in found.links] == [(False, False), (False, False)]


def test_a_hole_whose_only_way_on_is_the_exit_is_one_way_in_play():
    """After the hole the only move is into the exit: no way back in play (a slide out of the exit
    once made it look undone)."""
    cave = Cave.parse("room a\n#1###\n#...#\n3_..2\n#####\nroom b\n#1######\n#.#....#\n#3.._..2\n########\n"
                      "hole a:2 b:1\ndoor b:2 a:3\nentrance a:1\nexit b:3")
    found = cave_analysis.analyze(cave, rooms=False)
    hole = next(use for use in found.links if use.link.kind == "hole")
    assert hole.used and hole.one_way


def test_a_room_over_40x40_is_refused_in_one_line():
    rows = ["#1" + "#" * 39] + ["#" + "." * 39 + "#"] * 39 + ["#" * 39 + "2#"]
    text = "room a\n" + "\n".join(rows) + "\nroom b\n#1#\n2.#\n###\ndoor a:2 b:2\nentrance a:1\nexit b:1\n"
    with pytest.raises(LevelError, match="room a: 41x41 is over the largest room, 40x40"):
        Cave.parse(text)
    forty = ["#1" + "#" * 38] + ["#" + "." * 38 + "#"] * 38 + ["#" * 38 + "2#"]
    assert Cave.parse(text.replace("\n".join(rows), "\n".join(forty))).room("a").shape == (40, 40)


def test_a_cave_being_drawn_says_what_it_lacks_however_odd_its_json():
    import json

    from designer.ops.cave_views import plan_view

    odd = [{"format": "ice-cave", "version": 1, "rooms": "x", "links": 5},
           {"format": "ice-cave", "version": 1, "rooms": [{"name": "a", "rows": ["#1#", "#.#", "###"]}, {"name": 7}, None],
            "links": [{"kind": "door", "from": 3}, {"kind": "door", "from": "a:1", "to": ["x"]}], "entrance": 5}]
    for obj in odd:
        found = plan_view(json.dumps(obj), True)
        assert found["draft"] and found["figures"].startswith("not a cave yet: ") and "\n" not in found["figures"]


def test_the_players_figures_name_each_cell_by_its_room_as_a_player_sees_it(tmp_path):
    from typer.testing import CliRunner

    from designer.cli import app

    path = tmp_path / "two.txt"
    path.write_text(TWO)
    cave = Cave.parse(TWO)
    runner = CliRunner()
    printed = runner.invoke(app, ["analyze", str(path)])
    assert printed.exit_code == 0, printed.output
    line = next(line for line in printed.output.splitlines() if line.startswith("player: "))
    hottest = json.loads(runner.invoke(app, ["analyze", str(path), "--json"]).output)["player"]["hottest"]
    names = {room.name for room in cave.rooms}
    for room, (r, c), rests in hottest:  # a cell of its room, never of the sheet the rooms lie on
        assert room in names and cave.room(room).rows[r][c] != "#"
        assert f"{room} ({r}, {c}) {rests:.1f}" in line
