"""Coins: the tile in every form, the full clear and each coin's figures, held to a plain reader
(``oracle_coins``), and glissade's coin levels read as the game counts them."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings, strategies as st

import oracle_coins
from designer.analysis.coins import coin_report
from designer.analysis.tour import full_clear
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.formats.level_json import dumps, level_from_json
from test_portals import _plain, portal_levels


@st.composite
def coin_levels(draw, side: int = 5, most_items: int = 2, most_coins: int = 6):
    """A portal level (floors, wrap, snow, items) with coins on its free ice: by default floors
    of at most 5x5, 0-2 items and 0-6 coins; ``wide_coin_levels`` up to 8x8, 0-4 and 0-12."""
    level, floors = draw(portal_levels(side, most_items))
    busy = {level.start, level.goal, *level.items, *(cell for pair in level.portals for cell in pair)}
    free = [(r, c) for r in range(level.height) for c in range(level.width)
            if level.terrain[r, c] == 0 and (r, c) not in busy and any(f.holds((r, c)) for f in level.floor_list())]
    count = draw(st.sampled_from(range(most_coins + 1)))  # drawn first (evenly), so that many hold many
    if draw(st.integers(0, 9)) < 7:  # mostly where the player can rest, so that many have a full clear
        resting = oracle_coins.rests({**_plain(level, floors), "coins": []})
        free = [cell for cell in free if cell in resting] or free
    coins = draw(st.permutations(free))[:count] if free else []
    return level.replace(coins=tuple(coins)), floors


def wide_coin_levels():
    return coin_levels(side=8, most_items=4, most_coins=12)


def _plain_coins(level: Level, floors) -> dict:
    return {**_plain(level, floors), "coins": list(level.coins)}


@settings(max_examples=250, deadline=None)
@given(coin_levels())
def test_the_full_clear_is_the_plain_readers(case):
    _full_clear_agrees(case)


@settings(max_examples=150, deadline=None)
@given(wide_coin_levels())
def test_the_full_clear_is_the_plain_readers_with_up_to_12_coins_and_4_items(case):
    _full_clear_agrees(case)


def _full_clear_agrees(case) -> None:
    level, floors = case
    plain = _plain_coins(level, floors)
    expected = oracle_coins.full_clear(plain)
    found = full_clear(level, 30.0)
    assert found.proven and found.stops == expected, (str(level), found)
    if found.moves:  # the moves replayed by the plain reader: every coin taken, then the exit
        state = (level.start, 0, 0)
        for k, letter in enumerate(found.moves):
            cell, items, coins, exited = oracle_coins.slide(plain, *state[:1], letter, *state[1:])
            assert exited == (k == len(found.moves) - 1)
            state = (cell, items, coins)
        assert state[2] == (1 << len(level.coins)) - 1


@settings(max_examples=120, deadline=None)
@given(coin_levels().filter(lambda case: case[0].coins))
def test_each_coins_figures_are_the_plain_readers(case):
    _coin_figures_agree(case)


@settings(max_examples=60, deadline=None)
@given(wide_coin_levels().filter(lambda case: case[0].coins))
def test_each_coins_figures_are_the_plain_readers_with_up_to_12_coins_and_4_items(case):
    _coin_figures_agree(case, most=50_000)


def _coin_figures_agree(case, most=None) -> None:
    level, floors = case
    plain = _plain_coins(level, floors)
    explored = oracle_coins.explore(plain, most)
    assume(explored is not None)  # the plain reader walks every state, a few seconds per 100,000
    report = coin_report(level, 30.0)
    fewest, every = oracle_coins.exit_ways(plain)
    lost = oracle_coins.lost_coins(plain, explored)
    full, withouts = oracle_coins.full_clears(plain, explored)
    for k, coin in enumerate(report.coins):
        assert coin.on_every_way == bool(fewest is not None and every >> k & 1), (str(level), k)
        labels = sorted((cell, items) for *cell, items in
                        ((t[0], t[1], t[2] if level.items else 0) for t in coin.traps))
        assert [((r, c), items) for (r, c), items in labels] == lost[k], (str(level), k)
        without = withouts[k]
        if full is not None and without is not None:
            assert coin.adds == full - without
        else:
            assert coin.adds is None


def test_a_coin_is_a_tile_of_its_own_in_text_and_json():
    level = Level.from_ascii("#G####\n#...$#\n#S.*.#\n######")
    assert level.coins == ((1, 4),) and level.items == ((2, 3),)
    assert str(level) == "#G####\n#...$#\n#S.*.#\n######"
    obj = json.loads(dumps(level))
    assert obj["coins"] == [[1, 4]] and level_from_json(obj) == level
    with pytest.raises(LevelError, match='"coins" is'):
        level_from_json({**obj, "coins": [[1, 3]]})
    assert hash(level) != hash(level.replace(coins=()))
    plain = Level.from_ascii("#G###\n#...#\n#S..#\n#####")
    assert "coins" not in json.loads(dumps(plain))  # a level without coins: as before


def test_the_exit_never_waits_for_coins_and_the_full_clear_keeps_out_of_it():
    level = Level.from_ascii("#####\n#S..#\n#.#$#\n#.G.#\n#####")
    from designer.analysis.solver import solve

    assert solve(level).moves == "d" or solve(level).stops <= 2  # the exit par: coins aside
    tour = full_clear(level)
    assert tour.moves == "rdl" and tour.proven and tour.taken == (2,)


def test_a_coin_that_cannot_be_taken_means_no_full_clear_and_a_trap_is_named():
    shut = Level.from_ascii("######\n#S.G$#\n######")  # the coin lies past the exit
    assert full_clear(shut).moves is None and full_clear(shut).proven
    # from (1, 4) the only way on is down into the exit: the coin is lost for good there
    level = Level.from_ascii("######\n##.#.#\n#....#\n#$.SG#\n######")
    report = coin_report(level)
    assert report.full.moves == "lr" and report.full.proven
    assert report.coins[0].traps == ((1, 4),) and report.traps == 1


def test_too_many_coins_are_refused_in_one_line():
    rows = ["#" * 36, "#S" + "$" * 33 + "#", "#G" + "." * 33 + "#", "#" * 36]
    with pytest.raises(LevelError, match="33 coins: a level holds at most 32"):
        Level.from_ascii("\n".join(rows))


def test_coins_go_through_tiled_maps_pictures_and_the_play_page(tmp_path):
    from designer.cli import main

    source = tmp_path / "coins.txt"
    source.write_text("#######\n#S...$#\n#.##.##\n#..G..#\n#######\n")
    assert main(["export", str(source), "-o", str(tmp_path / "coins.tmj")]) == 0
    objects = json.loads((tmp_path / "coins.tmj").read_text())["layers"][2]["objects"]
    assert [(o["name"], o["x"], o["y"]) for o in objects if o["name"] == "coin"] == [("coin", 5 * 32, 1 * 32)] or \
        [o["name"] for o in objects].count("coin") == 1
    from designer.formats.level_files import read_level

    assert read_level(str(tmp_path / "coins.tmj")) == Level.from_ascii(source.read_text())
    assert main(["render", str(source), "-o", str(tmp_path / "coins.svg")]) == 0
    assert "#ffd84d" in (tmp_path / "coins.svg").read_text()


def test_glissades_coins_are_read_as_coins_and_the_full_clear_replays_under_its_rules():
    """(glissade's own 26 levels: docs/exports.md, measured with designer import.)"""
    from designer.formats import glissade

    rows = ["#######", "#P $ O#", "#  $  #", "#O   X#", "#######"]
    found = glissade.read_level({"data": rows, "thresholds": [4, 5, 6], "name": "t"})
    tour = full_clear(found.level)
    assert found.level.coins == ((1, 3), (2, 3)) and found.coins_as == "coins" and tour.proven
    expected = oracle_coins.full_clear({"rows": ["".join("#" if ch == "#" else "." for ch in row) for row in rows],
                                        "floors": [(0, 5, 7, "")], "portals": dict(found.level.portals),
                                        "start": (1, 1), "goal": (3, 5), "items": [], "coins": [(1, 3), (2, 3)]})
    assert tour.stops == expected
    if tour.moves:
        assert glissade.replay(found, tour.moves) is None  # every coin taken, then the exit, by glissade's rule


def test_make_places_coins_each_worth_taking_none_to_lose_the_full_clear_in_its_band(tmp_path):
    from designer.cli import main
    from designer.formats.level_files import read_level_file

    out = tmp_path / "coins.json"
    assert main(["make", "--size", "9x9", "--min-stops", "10", "--coins", "2", "--full-clear", "14",
                 "--seed", "1", "--time-limit", "60", "--format", "json", "-o", str(out)]) == 0
    found = read_level_file(out)
    level = found.level
    assert len(level.coins) == 2
    report = coin_report(level, 30.0)
    assert report.full.proven and report.full.stops >= 14 and report.traps == 0
    assert all(coin.adds >= 1 for coin in report.coins)
    record = json.loads(out.read_text())["generator"]
    assert record["request"]["coins"] == 2 and record["request"]["full_clear_min"] == 14
    assert record["full_clear"] == report.full.stops
    plain = oracle_coins.full_clear({"rows": [row.replace("$", ".").replace("S", ".").replace("G", ".")
                                              for row in level.rows()], "floors": [(0, 9, 9, "")], "portals": {},
                                     "start": level.start, "goal": level.goal, "items": [], "coins": list(level.coins)})
    assert plain == report.full.stops


@pytest.mark.parametrize("args, words", [
    (["--full-clear", "20"], "it needs --coins"),
    (["--coins", "2", "--full-clear", "20..10"], "M at least K"),
    (["--coins", "2", "--full-clear", "ten"], "K or K..M"),
    (["--coins", "33"], "at most 32"),
])
def test_a_coin_request_that_cannot_be_asked_is_one_line(args, words, capsys):
    from designer.cli import main

    assert main(["make", "--min-stops", "10", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_a_templates_coins_stay_where_it_draws_them(tmp_path):
    from designer.cli import main
    from designer.formats.level_files import read_level

    template = tmp_path / "t.txt"
    template.write_text("#########\n" + "#???????#\n" * 2 + "#??$????#\n" + "#???????#\n" * 4 + "#########\n")
    out = tmp_path / "out.txt"
    assert main(["make", "--template", str(template), "--min-stops", "10", "--coins", "1", "--seed", "1",
                 "--time-limit", "60", "-o", str(out)]) == 0
    level = read_level(str(out))
    assert (3, 3) in level.coins and len(level.coins) == 2
    report = coin_report(level, 30.0)
    assert report.traps == 0 and all(coin.adds >= 1 for coin in report.coins)


def test_a_full_clear_the_limits_cut_short_is_status_1_with_the_bound_reached(tmp_path, capsys, monkeypatch):
    from designer.analysis import tour
    from designer.cli import main

    level = tmp_path / "far.txt"
    level.write_text("##########\n#S$.$.$..#\n########.#\n#G$.$.$..#\n##########\n")
    cut = full_clear(Level.from_ascii(level.read_text()), 0.0)  # no time at all: nothing searched
    assert cut.moves is None and not cut.proven and cut.how == "time limit reached" and cut.lower_bound >= 1
    searched = tour.full_clear
    monkeypatch.setattr(tour, "full_clear", lambda found, budget=None, *a: searched(found, 0.0, *a))
    assert main(["solve", str(level)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"designer: full clear: none found, time limit reached (no full clear has fewer than "
                   f"{cut.lower_bound} moves)"]
    # analyze reports it among its figures, status 0, for a level, a room and a cave alike (issue 60:
    # a cave's analyze exited 1 after printing the whole analysis, a level's 0)
    room = tmp_path / "room.txt"
    room.write_text("##########\n#1$.$.$..#\n########.#\n#2$.$.$..#\n##########\n")
    cave = tmp_path / "cave.txt"
    cave.write_text("room a\n#####\n1.$.2\n#####\nroom b\n#####\n1$..2\n#####\n"
                    "door a:2 b:1\nentrance a:1\nexit b:2\n")
    from designer.analysis import coins as level_coins
    from designer.caves import coins as cave_coins

    for module in (level_coins, cave_coins):  # no time at all for any full clear
        monkeypatch.setattr(module, "full_clear", lambda found, budget=None, *a, _was=module.full_clear: _was(found, 0.0, *a))
    for path in (level, room, cave):
        assert main(["analyze", str(path)]) == 0, path
        assert "none found" in capsys.readouterr().out
        assert main(["solve", str(path)]) == 1, path
        assert capsys.readouterr().err.startswith("designer: full clear: none found, time limit reached")
    monkeypatch.setattr(tour, "full_clear", searched)
    assert main(["solve", str(level)]) == 0
    assert "full clear (6 coins): " in capsys.readouterr().out


def test_coins_go_into_a_users_map_once(tmp_path):
    from designer.cli import main
    from designer.formats.level_files import read_level

    coins = tmp_path / "coins.txt"
    coins.write_text("#######\n#S...$#\n#.##.##\n#..G..#\n#######\n")
    plain = tmp_path / "plain.txt"
    plain.write_text(coins.read_text().replace("$", "."))
    assert main(["export", str(plain), "-o", str(tmp_path / "map.tmj")]) == 0
    assert main(["export", str(coins), "--into", str(tmp_path / "map.tmj"), "-o", str(tmp_path / "one.tmj")]) == 0
    assert main(["export", str(coins), "--into", str(tmp_path / "one.tmj"), "-o", str(tmp_path / "two.tmj")]) == 0
    document = json.loads((tmp_path / "two.tmj").read_text())
    assert [o["name"] for layer in document["layers"] if layer.get("type") == "objectgroup"
            for o in layer["objects"]].count("coin") == 1
    assert read_level(str(tmp_path / "two.tmj")) == Level.from_ascii(coins.read_text())


def test_a_rooms_coins_read_back_in_every_form_and_each_route_has_its_full_clear(tmp_path, capsys):
    from designer.cli import main
    from designer.core.room import Room
    from designer.formats.level_files import parse_level_or_room, read_level_or_room
    from designer.formats.level_json import room_to_json
    from designer.ops.sketch_figures import figures

    rows = ["###2###", "#.#...#", "#$..#.#", "#..#$.#", "#.#..##", "###1###"]
    room = Room.from_rows(rows)
    assert room.coins == ((2, 1), (3, 4)) and room.rows() == rows
    assert Room.from_rows(rows) == room and Room.from_rows([r.replace("$", ".") for r in rows]) != room
    assert room.route(1, 2).coins == room.coins  # a route is the level it is, coins and all
    assert parse_level_or_room(json.dumps(room_to_json(room))) == room
    path = tmp_path / "room.txt"
    path.write_text("\n".join(rows))
    assert main(["export", str(path), "-o", str(tmp_path / "room.tmj")]) == 0
    assert read_level_or_room(str(tmp_path / "room.tmj")) == room
    tour = full_clear(room.route(1, 2))
    assert tour.proven and tour.stops == oracle_coins.full_clear(_plain_coins(room.route(1, 2), [(0, 6, 7, "")]))
    capsys.readouterr()
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["ururulu", "stops: 7  distance: 9",
                                                    f"full clear (2 coins): {tour.words()}", tour.moves]
    assert tour.words() == "10 moves (proven optimal)"
    found = figures(["#######", "#S...$#", "#.##.##", "#..G..#", "#######"])  # the studio's sketch
    assert found["routes"][0]["min_stops"] == 2
    assert figures(rows)["routes"][0]["route"] == "1:2"

def test_the_rock_and_coin_chain_brings_the_full_clear_nearer_and_keeps_every_guarantee():
    """Rocks and coins moved together on a level whose coins alone fall short of the band: the
    full clear comes nearer (never farther), and the level still meets its request with nothing
    of the way to the exit lost; the same seed gives the same level."""
    from designer.analysis.graph import analyze
    from designer.analysis.verify import failure
    from designer.core.budget import Budget
    from designer.core.request import LayoutRequest
    from designer.search.coins import place_coins, rock_and_coin_chain

    level = Level.from_ascii("\n".join([
        "#######G####", "#######....#", "####.....###", "#.#.#......#", "#...#.....##", "##...####..#",
        "#....##.#..#", "#..#....#..#", "##....#....#", "##..#....#.#", "##.#...#.#.#", "##S#########"]))
    request = LayoutRequest(height=12, width=12, min_stops=20)
    before = analyze(level)
    placed = place_coins(level, 5, (50, None), seed=1, budget=Budget(60, clock="cpu"))
    assert not placed.met and placed.report.full.stops == 32
    chained = [rock_and_coin_chain(request, placed, (50, None), seed=1, budget=Budget(120, clock="cpu"), steps=120)
               for _ in range(2)]
    assert chained[0].level == chained[1].level
    found = chained[0]
    assert found.report.full.proven and found.report.full.stops > 32 and found.worth and not found.report.traps
    bare = found.level.replace(coins=())
    assert bare != level  # rocks moved, not only coins
    after = analyze(bare)
    assert failure(request, bare, after) is None
    assert after.min_stops >= before.min_stops and after.options >= before.options


# --- issue 60: the full clear keeps its time limit and a bound on its memory, at any size -------

@settings(max_examples=120, deadline=None)
@given(coin_levels())
def test_a_plain_levels_slides_from_the_kernels_are_those_traced_slide_by_slide(case):
    from designer.analysis import tour_tables

    level, _ = case
    if not level.plain:
        level = Level(level.terrain, level.start, level.goal, level.dialect, level.items, coins=level.coins)
    fast, traced = tour_tables.slide_moves(level), tour_tables._traced_moves(level, (*level.items, *level.coins))
    for name in ("end", "takes", "first", "before1", "second", "before2"):
        assert (getattr(fast, name) == getattr(traced, name)).all(), name


def _big_level(side: int, coins: int, seed: int = 5) -> Level:
    """A side x side level of 10% rock and 1% snow, with coins on free ice (as the audit's)."""
    import random

    rng = random.Random(seed)
    grid = [["#" if r in (0, side - 1) or c in (0, side - 1) or rng.random() < 0.1 else
             "_" if rng.random() < 0.01 else "." for c in range(side)] for r in range(side)]
    free = [(r, c) for r in range(side) for c in range(side) if grid[r][c] == "."]
    rng.shuffle(free)
    (grid[free[0][0]][free[0][1]], grid[free[1][0]][free[1][1]]) = ("S", "G")
    for r, c in free[2:2 + coins]:
        grid[r][c] = "$"
    return Level.from_ascii("\n".join("".join(row) for row in grid))


def test_a_full_clear_of_a_large_level_keeps_its_budget_of_work():
    """A 300x300 level with 32 coins: its tables and its search within the budget (the audit saw
    13 s for a 3 s limit, its tables built with no regard for it), answered either way."""
    from designer.core.budget import Budget

    level = _big_level(300, 32)
    for seconds in (0.5, 2.0):
        budget = Budget(seconds, clock="cpu")
        found = full_clear(level, budget)
        assert found.proven or found.how == "time limit reached"
        assert budget.elapsed() < seconds + 1.5, budget.elapsed()  # a layer is not begun past its time


def test_the_proof_keeps_at_most_its_states_however_wide_a_layer():
    """The state cap is asked chunk by chunk, not between layers (a layer of 40x40 and 32 coins
    grew to 9 GB before the cap was read): a cut ends the proof with no more kept than the cap."""
    from designer.analysis import tour, tour_tables
    from designer.core.budget import Budget
    from designer.core.request import LayoutRequest
    from designer.search.design import design

    plain = design(LayoutRequest(height=16, width=16, min_stops=15, first=True), seed=1).level  # strong, reversible
    resting = sorted(cell for cell in oracle_coins.rests({**_plain(plain, [(0, 16, 16, "")]), "coins": []})
                     if plain.terrain[cell] == 0 and cell not in (plain.start, plain.goal))  # ice, not snow
    level = plain.replace(coins=tuple(resting[:32]))  # each coin where one rests: every one can be taken
    moves = tour_tables.slide_moves(level)
    found, kept, done, reached, cut = tour._layers(moves, tour_tables.bounds(moves), (1 << 32) - 1,
                                                   Budget(60.0, clock="cpu"), max_states=5_000)
    assert cut == "states" and kept <= 5_000 and not done and found is None


def test_a_full_clear_band_past_every_full_clear_is_proven_infeasible_at_once(capsys):
    """Issue 60: --full-clear 999999 on 12x12 searched its whole time limit. A shortest full clear
    rests on no cell twice between two takes, so (things + 1) x cells bounds it."""
    from designer.cli import main

    assert main(["make", "--coins", "5", "--full-clear", "999999", "--seed", "1"]) == 1
    assert capsys.readouterr().err == ("designer: proven infeasible: a full clear of 5 coins on 12x12 makes at most 864 "
                                       "moves (one cell at most once between two takes), below --full-clear 999,999\n")
