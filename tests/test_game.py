"""``designer game``: the plan and its refusals, a small game of every mechanic designed once and
read back from its files alone (each teaching level against a plain reader of the rules, the
variety, the index, the Tiled project), and the same plan and seed giving the same game."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import oracle_caves
import oracle_coins
import oracle_portals
import pytest
from conftest import one_error_line

from designer.cli import main
from designer.core.level import Level
from designer.game.plan import DEFAULT, GamePlan
from designer.analysis.variety import layout_distance, near_copies

#: Every mechanic, two levels each (the teaching one and one more), one cave: what the tests read.
SMALL = """title = "Every mechanic"
seed = 4
"""
for _name in ("snow", "items", "coins", "teleports", "wrap", "floors"):
    _band = "3..4" if _name == "items" else "2.5..4"
    _cave = {
        "snow": '{ rooms = 3, keys = 1, min_stops = 5, names = ["porch", "rink", "icehouse"], key_names = ["frost"] }',
        "coins": "{ rooms = 3, keys = 1, min_stops = 5 }",
    }.get(_name, "false")
    SMALL += (
        f'\n[[worlds]]\nname = "{_name.title()}"\nmechanic = "{_name}"\nlevels = 2\n'
        f'band = "{_band}"\ncave = {_cave}\n'
    )


def build(folder: Path, plan_text: str) -> Path:
    """The game of ``plan_text`` in ``folder``, made once across the test processes (a lock file
    beside it): the first process to ask designs it, the others read it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / (folder.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "game.json").is_file():
            plan = folder.parent / (folder.name + ".toml")
            plan.write_text(plan_text)
            assert main(["game", str(plan), "--out", str(folder), "--force"]) == 0
    return folder


@pytest.fixture
def small_game(tmp_path_factory) -> Path:
    root = tmp_path_factory.getbasetemp().parent  # shared by the test processes of one run
    return build(root / f"game-every-mechanic-{os.getppid()}", SMALL)


def test_the_default_plan_prints_and_parses_back_and_holds_enough():
    assert GamePlan.parse(str(DEFAULT)) == DEFAULT
    as_json = {
        "title": DEFAULT.title,
        "seed": 0,
        "worlds": [
            {"name": w.name, "mechanic": w.mechanic, "levels": w.levels, "band": w.band,
             "cave": {"rooms": w.cave.rooms, "keys": w.cave.keys, "min_stops": w.cave.min_stops,
                      "size": f"{w.cave.size[0]}x{w.cave.size[1]}",
                      **({"shape": w.cave.shape} if w.cave.shape else {})}}
            for w in DEFAULT.worlds
        ],
    }
    assert GamePlan.parse(json.dumps(as_json)) == DEFAULT
    assert len(DEFAULT.worlds) >= 5 and sum(w.levels for w in DEFAULT.worlds) >= 40
    assert all(w.cave is not None for w in DEFAULT.worlds)
    named = GamePlan.parse(SMALL)
    assert named.worlds[0].cave.names == ("porch", "rink", "icehouse") and named.worlds[0].cave.key_names == ("frost",)
    assert GamePlan.parse(str(named)) == named


BAD = {
    "unknown mechanic": ('mechanic = "rope"', "mechanic 'rope' is not one of snow"),
    "a world of 0 levels": ("levels = 0", "levels must be a whole number from 1 to 20, not 0"),
    "a band no level can meet": ('band = "1..2"', "band 1..2 starts below 2"),
    "a band past 10": ('band = "3..11"', "band 3..11 must rise, A <= B <= 10"),
    "items too easy": ('mechanic = "items"\nband = "2..4"', "starts below 3, the least predicted"),
    "a cave past the limit": ("cave = { rooms = 40, keys = 1 }", "cave rooms must be a whole number from 2 to 8"),
    "too many keys": ("cave = { rooms = 6, keys = 9 }", "cave keys must be a whole number from 1 to 4"),
    "rooms too large": ('cave = { rooms = 3, size = "50x50" }', "cave size '50x50': rooms of 7x7 to 40x40"),
    "too few names": ('cave = { rooms = 3, names = ["a"] }', "cave: names names 1 rooms, not the 3 drawn"),
    "a name twice": ('cave = { rooms = 3, names = ["a", "b", "a"] }', "cave: names names one of its rooms twice"),
    "names not words": ("cave = { rooms = 3, names = 3 }", 'cave names must be a list of names, such as ["hall"'),
    "a key misnamed": ('cave = { rooms = 3, key_names = ["x y"] }', "cave: key_names: 'x y' is not a name"),
    "an unknown field": ("colour = 3", "unknown field 'colour'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_plan_is_refused_in_one_line_naming_the_field_with_nothing_written(case, tmp_path, capsys):
    change, said = BAD[case]
    fields = {"name": '"W"', "mechanic": '"snow"', "levels": "3", "band": '"3..5"'}
    lines = ["[[worlds]]"]
    for line in change.splitlines():
        key = line.split(" = ")[0]
        fields.pop(key, None)
        lines.append(line)
    lines += [f"{key} = {value}" for key, value in fields.items()]
    plan = tmp_path / "plan.toml"
    plan.write_text("\n".join(lines) + "\n")
    out = tmp_path / "game"
    assert main(["game", str(plan), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and said in err and err.startswith(f"designer: {plan}: world 1 (W")
    assert not out.exists()


def test_a_plan_that_is_no_plan_and_a_folder_in_use_are_refused(tmp_path, capsys):
    (tmp_path / "plan.toml").write_text("worlds = 3\n")
    assert main(["game", str(tmp_path / "plan.toml"), "--out", str(tmp_path / "g")]) == 2
    assert "worlds: a plan has 1 to 12 worlds" in capsys.readouterr().err
    (tmp_path / "plan.json").write_text("{not json")
    assert main(["game", str(tmp_path / "plan.json"), "--out", str(tmp_path / "g")]) == 2
    assert "not a JSON plan" in capsys.readouterr().err
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "mine.txt").write_text("keep")
    assert main(["game", "--out", str(tmp_path / "used")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "the folder holds files" in err
    assert (tmp_path / "used" / "mine.txt").read_text() == "keep"


# -- the plain reader: a level's file read as plain data, each mechanic taken away by the rules --


def plain(path: Path) -> dict:
    """A JSON level as plain data (``oracle_portals``'s form), from its fields alone."""
    found = json.loads(path.read_text())
    floors = [(f["top"], f["height"], f["width"], f["wrap"]) for f in found.get("floors", [])] or [
        (0, found["height"], found["width"], "")]
    rows = [row.replace("S", ".").replace("G", ".") for row in found["rows"]]
    rows = ["".join(ch if ch in "#_." else "." for ch in row) for row in rows]
    return {"rows": rows, "floors": floors,
            "portals": {tuple(p["from"]): tuple(p["to"]) for p in found.get("portals", [])},
            "start": tuple(found["start"]), "goal": tuple(found["goal"]),
            "items": [tuple(c) for c in found.get("items", [])],
            "coins": [tuple(c) for c in found.get("coins", [])]}


def taken_away(level: dict, mechanic: str) -> dict:
    """docs/spec.md, "Games": what each mechanic's taking away is."""
    if mechanic == "snow":
        return {**level, "rows": [row.replace("_", ".") for row in level["rows"]]}
    if mechanic == "items":
        return {**level, "items": []}
    if mechanic == "coins":
        return {**level, "coins": []}
    if mechanic == "teleports":
        return {**level, "portals": {}}
    if mechanic == "wrap":
        return {**level, "floors": [(t, h, w, "") for t, h, w, _ in level["floors"]]}
    assert mechanic == "floors"
    rows = [list(row) for row in level["rows"]]
    for r, c in level["portals"]:
        rows[r][c] = "#"
    return {**level, "rows": ["".join(row) for row in rows], "portals": {}}


def par(level: dict) -> int | None:
    return oracle_portals.search(level, level["start"], level["goal"])[0]


def fewest_avoiding(level: dict, away: dict) -> int | None:
    """The fewest moves to the exit by moves that end where they would with the mechanic taken
    away (breadth-first over cells: a level with no items)."""
    frontier, seen, moves = {level["start"]}, {level["start"]}, 0
    while frontier:
        if level["goal"] in frontier:
            return moves
        moves += 1
        step = set()
        for cell in frontier:
            for letter in "udlr":
                mine = oracle_portals.slide(level, cell, letter, 0)
                if mine is not None and mine[:2] == (oracle_portals.slide(away, cell, letter, 0) or (None,))[:2]:
                    if mine[0] not in seen:
                        seen.add(mine[0])
                        step.add(mine[0])
        frontier = step
    return None


def test_every_teaching_level_needs_its_mechanic_by_the_plain_reader(small_game):
    index = json.loads((small_game / "game.json").read_text())
    assert [w["mechanic"] for w in index["worlds"]] == ["snow", "items", "coins", "teleports", "wrap", "floors"]
    for world in index["worlds"]:
        mechanic, first = world["mechanic"], world["levels"][0]
        assert first["role"] == "teaching" and first["ablation"]["teaches"]
        level = plain(small_game / first["file"])
        away = taken_away(level, mechanic)
        if mechanic == "coins":  # a full clear that needs a detour; none once the coins are gone
            with_coins = oracle_coins.full_clear(level)
            assert with_coins is not None and with_coins > par(level) == oracle_coins.full_clear(away)
            assert first["ablation"]["par"] == with_coins
            continue
        with_it, without = par(level), par(away)
        assert with_it is not None and without != with_it, mechanic
        assert (first["ablation"]["par"], first["ablation"]["par_away"]) == (with_it, without)
        assert first["par"] <= 6  # small and short
        if mechanic != "items":  # an item must be taken before the exit opens: used by the rules
            avoiding = fewest_avoiding(level, away)
            assert avoiding is None or avoiding > with_it, mechanic


def test_every_level_is_verified_and_no_two_are_near_copies(small_game):
    from designer.analysis.classify import classify
    from designer.formats.level_files import read_levels

    index = json.loads((small_game / "game.json").read_text())
    levels = read_levels(str(small_game))  # the game's folder read as a pack: its levels in order
    assert len(levels) == sum(len(w["levels"]) for w in index["worlds"]) == 12
    for entry in levels:
        found = classify(entry.level)
        assert (found.solvability, found.reversible) == ("strong", True)
    solutions = [json.loads((small_game / e["file"]).read_text())["solution"]["moves"]
                 for w in index["worlds"] for e in w["levels"]]
    assert len(set(solutions)) == len(solutions) and index["variety"]["solutions_repeated"] == 0
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            assert not near_copies(a.level, b.level), (a.name, b.name)
    assert (small_game / "world-1" / "cave.txt").is_file() and not (small_game / "world-2" / "cave.txt").exists()
    cave = index["worlds"][0]["cave"]
    assert cave["par"] > 0 and cave["keys"] == ["frost"] and cave["keys_needed"] == [True]


def test_each_cave_has_rooms_of_several_sizes_named_by_the_plan_and_holds_its_worlds_mechanic(small_game):
    from designer.caves.cave import Cave

    index = json.loads((small_game / "game.json").read_text())
    snow, coins = index["worlds"][0]["cave"], index["worlds"][2]["cave"]
    assert snow["rooms"] == ["porch", "rink", "icehouse"] and coins["rooms"] == ["gate", "hall", "vault"]
    for cave in (snow, coins):
        text = (small_game / cave["file"]).read_text()
        found = Cave.parse(text)
        assert [f"{room.shape[0]}x{room.shape[1]}" for room in found.rooms] == cave["sizes"]
        assert len(set(cave["sizes"])) >= 2 and cave["key_patterns"] == ["gate"]
        assert cave["par"] == oracle_caves.min_stops(found)
    # snow in every main room, and the way through changes without it (a plain reader's par)
    text = (small_game / snow["file"]).read_text()
    assert all("_" in "".join(room.rows) for room in Cave.parse(text).rooms if not room.stars)
    melted = oracle_caves.min_stops(Cave.parse(text.replace("_", ".")))
    assert snow["ablation"] == {"mechanic": "snow", "taken_away": "snow as ice", "par": snow["par"],
                                "par_away": melted if melted > 0 else None}
    assert snow["ablation"]["par_away"] != snow["par"]
    # two coins in the coins world's cave, and its full clear takes them
    text = (small_game / coins["file"]).read_text()
    assert text.count("$") == 2 and coins["ablation"]["par_away"] == coins["par"] <= coins["ablation"]["par"]


def test_mirror_images_and_near_copies_are_caught():
    a = Level.from_ascii("#######\n#S....#\n#..#..#\n#.....#\n#...#G#\n#######")
    mirror = Level.from_ascii("#######\n#....S#\n#..#..#\n#.....#\n#G#...#\n#######")
    turned = Level.from_ascii("######\n#G...#\n##...#\n#..#.#\n#....#\n#...S#\n######")
    moved = Level.from_ascii("#######\n#S....#\n#..#..#\n#.....#\n#..#.G#\n#######")
    other = Level.from_ascii("#######\n#S.#..#\n#.....#\n##..#.#\n#....G#\n#######")
    assert layout_distance(a, mirror) == 0.0 and near_copies(a, mirror)
    assert near_copies(a, turned) or layout_distance(a, turned) == 1.0
    assert layout_distance(a, moved) < 0.15 and near_copies(a, moved)
    assert not near_copies(a, other)


def test_the_tiled_project_reads_back_as_the_games_levels(small_game):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    from designer.formats.level_files import read_level

    project = json.loads((small_game / "tiled" / "game.tiled-project").read_text())
    assert project["folders"] == ["."]
    index = json.loads((small_game / "game.json").read_text())
    for n, world in enumerate(index["worlds"], 1):
        maps = pytiled_parser.parse_world(small_game / "tiled" / f"world-{n}.world").maps
        names = [m.map_file.name for m in maps]
        assert names[:len(world["levels"])] == [f"level-{k:02d}.tmj" for k in range(1, len(world["levels"]) + 1)]
        for one, entry in zip(maps, world["levels"]):
            pytiled_parser.parse_map(one.map_file)
            assert read_level(one.map_file) == read_level(small_game / entry["file"])
        if world["cave"] is not None:
            assert sorted(names[len(world["levels"]):]) == sorted(f"{room}.tmj" for room in world["cave"]["rooms"])


def test_the_same_plan_and_seed_give_the_same_game_byte_for_byte_at_any_load(tmp_path):
    """Two worlds made twice, the second time beside a process that keeps a core busy: the
    same files, byte for byte (every design is a budget of work)."""
    import subprocess
    import sys

    plan = "\n".join(SMALL.split("\n[[worlds]]")[:1] + [
        '[[worlds]]\nname = "Snow"\nmechanic = "snow"\nlevels = 3\nband = "2.5..4"\ncave = false\n',
        '[[worlds]]\nname = "Warp"\nmechanic = "teleports"\nlevels = 2\nband = "3..4"\ncave = false\n',
    ])
    first = build(tmp_path / "first", plan)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        again = build(tmp_path / "again", plan)
    finally:
        busy.kill()
        busy.wait()
    made = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert made == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for name in made:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name


# -- the page, in Chromium: each world's first level played by its solution, progress kept --


@pytest.mark.slow  # Chromium
@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_the_page_plays_the_game_in_order_keeps_progress_and_its_playtest_is_read(
        small_game, viewport, tmp_path, capsys):
    playwright = pytest.importorskip("playwright.sync_api")
    from test_play import CHROMIUM, FLAGS, KEYS

    from designer.caves.cave import Cave
    from designer.caves.graph import solve as solve_cave

    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (.ci/run installs it)")
    index = json.loads((small_game / "game.json").read_text())
    ways = []  # each entry of the page, in order: (world, its moves)
    for n, world in enumerate(index["worlds"]):
        for entry in world["levels"]:
            ways.append((n, json.loads((small_game / entry["file"]).read_text())["solution"]["moves"]))
        if world["cave"] is not None:
            ways.append((n, solve_cave(Cave.parse((small_game / world["cave"]["file"]).read_text())).moves))
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]}, reduced_motion="reduce")
        page.goto((small_game / "game.html").as_uri())
        body = page.locator("body")
        assert body.get_attribute("data-map") == "open" and body.get_attribute("data-unlocked") == "1"
        assert page.locator("#game-title").inner_text() == index["title"]
        assert page.locator('button[data-entry="1"]').is_disabled()
        firsts = {n: k for k, (n, _) in reversed(list(enumerate(ways)))}
        for k, (n, moves) in enumerate(ways):
            if body.get_attribute("data-map") != "open":
                page.click("#open-map")
            page.click(f'button[data-entry="{k}"]')
            assert body.get_attribute("data-map") == "closed" and body.get_attribute("data-level") == str(k)
            for letter in moves:
                page.keyboard.press(KEYS[letter])
            assert body.get_attribute("data-state") == "solved", (k, moves)
            assert body.get_attribute("data-unlocked") == str(min(k + 2, len(ways)))
            if k == firsts[0]:  # the first level: kept across a reload, the next one open
                page.reload()
                assert body.get_attribute("data-unlocked") == "2"
                assert not page.locator('button[data-entry="1"]').is_disabled()
        assert sorted(firsts) == list(range(len(index["worlds"])))
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]  # no sideways scroll
        with page.expect_download() as caught:
            page.click("#save-playtest")
        log = tmp_path / "game.jsonl"
        caught.value.save_as(log)
        browser.close()
    capsys.readouterr()
    assert main(["playtest", str(log), "--pack", str(small_game)]) == 0
    out = capsys.readouterr().out
    first, *others = [entry["name"] for world in index["worlds"] for entry in world["levels"]]
    assert f"{first}: 2 players, 50% finished" in out  # the reload was a visit of its own, on level 1
    for name in others:
        assert f"{name}: 1 player, 100% finished" in out
    assert "skipped" in out and "of 2 levels not in the pack: Coins: the cave, Snow: the cave" in out


def test_the_benchmark_reads_a_games_figures_from_its_files(small_game):
    from designer.studies.bench_game import figures, spearman

    found = figures(small_game)
    assert (found["worlds"], found["levels"], found["caves"]) == (6, 12, 2)
    assert found["teaching_levels_teach"] and found["solutions_repeated"] == 0
    assert found["levels_of_25_stops_or_more"] == 0  # a game's levels are asked 24 stops at most
    assert found["cave_rooms"] == 6 and found["caves_of_several_sizes"] == 2 and found["cave_keys_all_needed"]
    assert [held.split(":")[0] for held in found["caves_holding_their_mechanic"]] == ["snow", "coins"]
    assert [world["mechanic"] for world in found["per_world"]] == [
        "snow", "items", "coins", "teleports", "wrap", "floors"]
    assert spearman([2.0, 3.5, 3.0, 5.0]) == 0.8 and spearman([4.0]) == 1.0


def test_a_plans_hint_cost_goes_onto_its_page_and_back_into_its_plan(tmp_path, capsys):
    world = '[[worlds]]\nname = "Snow"\nmechanic = "snow"\nlevels = 1\nband = "2.5..4"\ncave = false\n'
    plan = tmp_path / "plan.toml"
    plan.write_text(f'title = "Costly"\nhint_cost = 1\n\n{world}')
    assert main(["game", str(plan), "--out", str(tmp_path / "g")]) == 0
    assert "const HINT_COST = 1;" in (tmp_path / "g" / "game.html").read_text()
    again = GamePlan.parse((tmp_path / "g" / "plan.toml").read_text())
    assert again.hint_cost == 1 and GamePlan.parse(str(again)) == again
    plan.write_text(f'title = "Costly"\nhint_cost = 5\n\n{world}')
    capsys.readouterr()
    assert main(["game", str(plan), "--out", str(tmp_path / "h")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "hint_cost must be a whole number from 0 to 3, not 5" in err
    assert not (tmp_path / "h").exists()
