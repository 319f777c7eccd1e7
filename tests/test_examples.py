"""The scripts in examples/ run as a newcomer would run them, and print what they promise."""

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import needs_compiled

pytestmark = pytest.mark.slow  # every example script run as a newcomer runs it

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "examples").glob("*.py"))


def test_every_example_is_covered():
    assert {p.name for p in SCRIPTS} == {"a_second_shell.py", "caves.py", "choices.py", "coins.py", "design_a_room.py",
                                         "design_levels.py",
                                         "game.py", "items.py", "pictures.py", "playtest.py", "portals.py", "proofs.py", "records.py",
                                         "sketch.py", "solve_and_analyze.py"}


@pytest.mark.parametrize("script, expected", [
    ("solve_and_analyze.py", ["read a 20x25 seed-style level", "fewest moves: urdluruldldldldru (17 stops",
                              '"format": "ice-level"', "route 1:3: strong, 7 stops, urdldru",
                              "every route strong and reversible: True"]),
    ("design_levels.py", ["proven optimal: True", "infeasible - proven infeasible", "L-room: ",
                          '"format": "ice-level"', "from its record, the same level: True", "distinct: True"]),
    ("design_a_room.py", ["route 1:3: strong, reversible: True, 15 stops", "infeasible - proven infeasible",
                          "route 1:3 cannot have min stops in 16..16", "L-room from Tiled, shortest route",
                          "their layers kept: True", "read back from Tiled's XML, the same room: True",
                          "  route 1:3: "]),
    ("items.py", ["fewest moves: ", "items taken in the order", "adds", "every item matters: True",
                  "(stage items "]),
    ("coins.py", ["the exit's par: 11 stops; 2 coins", "full clear: 13 moves (proven optimal)  ulrdlruldruru",
                  "coin 1 at (1, 1): adds 1, on every fewest way: False, full-clear traps: 0",
                  "(proven optimal), each coin adds [", "traps 0",
                  "the cave's full clear: 4 moves (proven optimal)  drru, resting in rooms ['a', 'a', 'b'"]),
    ("portals.py", ["fewest moves: ruruldrdrdrdrdluuldlururlrdruru (31 stops)", "'B1F (6, 3)'",
                    "one way, one-way in play: False", "floors left for good: []", "(stage portals ",
                    "strong and reversible on the whole graph: True", "glissade 'Holes': min stops 2, par 3"]),
    ("caves.py", ["fewest moves: drulrd (6 stops), key brass at move 4", "  vault: d (1 stop)",
                  "strong: True, reversible: True, key needed: True", "key gold needed: True",
                  "keys needed: [True, True]", "infeasible - proven infeasible: the way through rooms a1",
                  "read back from the Tiled world, the same rooms: True", "wrote 10 files to caves"]),
    pytest.param("proofs.py", ["witness after ", "nothing above 13 stops for this pair: proof",
                               "infeasible - proven infeasible: no strong reversible 7x7 level with min stops >= 15",
                               "the SAT loop proved it for each of the 13 start and goal pairs",
                               "6x6: 9 stops, proven optimal: True (stage sat loop)"],
                 marks=needs_compiled),  # auto hands small proofs to the loop with compiled kernels only
    ("records.py", ["| 3 | 11 | yes |", "proven optimal: True", "read back from the checkpoint: True",
                    "levels of 12 stops or more with 3 rocks: none; complete: True"]),
    pytest.param("choices.py", ["plain:    25 stops", "choices:  25 stops", "guaranteed: 21 stops",
                                "1 fewest-moves solution", "front: [("], marks=needs_compiled),
    ("playtest.py", ["level-001: par ", "predicted difficulty", "structure of level-001: Structure(",
                     "level-001: 100 players, 100% finished; moves median ", "fitted: the simple player, skill ", "the explorer on level-001: expected moves ",
                     "asked difficulty 5 for the fitted player: ", "wrote playtest-pack, playtest.jsonl"]),
    ("game.py", ["the plan: 2 worlds, 6 levels", "world 1 (Snowfield): teaches snow",
                 "with snow as ice: unsolvable", "every fewest-moves solution uses it",
                 "world 2 (Warp Gallery): teaches teleports", "its cave: rooms ",
                 "wrote game.html, game.json, plan.toml, report.html, tiled, world-1, world-2 to game"]),
    ("sketch.py", ["route 1:2: a fill can reach at most 92 stops, even counts only",
                   "route 1:3: a fill can reach at most 92 stops, odd counts only",
                   "S:G: 5 stops, strong, not reversible", "####0###", "moves left from the start: 5"]),
    ("pictures.py", ["framed: ", "(open grid), searched as a ",
                     "'graph.svg', 'level.png', 'level.svg', 'sheet.svg'", "'solution': '",
                     "['terrain', 'ends', 'markers']", "self-contained: True", "wrote 7 files to pictures"]),
])
def test_example_runs(script, expected, tmp_path):
    # run from a folder of its own, as a newcomer's: what an example writes lands there
    done = subprocess.run([sys.executable, str(ROOT / "examples" / script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for words in expected:
        assert words in done.stdout, words


@pytest.mark.parametrize("seconds, expected", [
    ("60", ["min stops 1", "min stops 4", "wrote 7 levels to pack/"]),
    ("0.01", ["cancelled after 0.01 s: the levels finished before it are in pack/"]),
])
def test_a_second_shell_designs_a_pack_and_cancels_on_a_timer(tmp_path, seconds, expected):
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "a_second_shell.py"), "pack", seconds],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for words in expected:
        assert words in done.stdout, words
    written = len(list((tmp_path / "pack").glob("level-*.txt")))
    assert written == 7 if seconds == "60" else written < 7  # cancelled: the levels finished before it


def test_pictures_keeps_what_it_finds_unless_forced(tmp_path):
    mine = tmp_path / "shots" / "level.svg"
    mine.parent.mkdir()
    mine.write_text("mine")
    script = [sys.executable, str(ROOT / "examples" / "pictures.py"), "shots"]
    done = subprocess.run(script, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "already exists" in done.stderr and mine.read_text() == "mine"
    assert sorted(p.name for p in mine.parent.iterdir()) == ["level.svg"]
