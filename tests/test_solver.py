import pytest
from hypothesis import given

import oracle
from conftest import IMPLS, small_levels
from designer.core import kernels
from designer.formats.level_files import read_level
from designer.core.rules import replay
from designer.analysis.solver import solve

# Published answers of the three maps of source 003 (easy, medium, hard; docs/spec.md#the-sources).
SEED003 = [("easy", "uru"), ("medium", "uldrurululu"), ("hard", "urdluruldldldldru")]


@pytest.mark.parametrize("name, published", SEED003)
def test_seed003_maps_have_their_published_min_stops(examples_dir, name, published):
    level = read_level(examples_dir / f"seed003-{name}.txt")
    solution = solve(level)
    assert solution.stops == len(published)
    assert replay(level, published)[0] == level.goal  # their solution is valid under our rules
    assert replay(level, solution.moves) == (level.goal, solution.stops, solution.distance)


@pytest.mark.parametrize("impl", IMPLS)
@given(level=small_levels(max_side=6))
def test_solution_replays_and_is_optimal_against_brute_force(impl, level):
    rows = level.rows()
    with kernels.use(impl):
        solution = solve(level)
    limit = 6
    if solution is None:
        assert oracle.brute_force(rows, limit) is None
        return
    assert replay(level, solution.moves) == (level.goal, solution.stops, solution.distance)
    assert solution.path[0] == level.start and solution.path[-1] == level.goal
    best = oracle.brute_force(rows, min(solution.stops, limit))
    if solution.stops <= limit:
        # fewest moves, then least distance, then first in u-d-l-r order: the exact same string
        assert best == (solution.stops, solution.distance, solution.moves)
    else:
        assert best is None  # nothing shorter exists


@given(small_levels(max_side=5))
def test_least_distance_solution_is_optimal(level):
    by_moves, by_dist = solve(level), solve(level, by="distance")
    assert (by_moves is None) == (by_dist is None)
    if by_dist is None:
        return
    assert replay(level, by_dist.moves) == (level.goal, by_dist.stops, by_dist.distance)
    assert by_dist.distance <= by_moves.distance
    assert by_dist.stops >= by_moves.stops
    # brute force over strings a few moves longer than the fewest-moves one
    rows = level.rows()
    horizon = min(by_moves.stops + 3, 7)
    found = []

    def dfs(cell, letters, distance):
        if cell == level.goal:
            found.append((distance, len(letters), letters))
            return
        if len(letters) < horizon:
            for letter in "udlr":
                step = oracle.walk(rows, cell, letter)
                if step:
                    dfs(step[0], letters + letter, distance + step[1])

    dfs(level.start, "", 0)
    assert min(found)[0] >= by_dist.distance


def test_moves_and_distance_can_differ():
    from designer.core.level import Level

    level = Level.from_ascii("#####G#\n#.....#\n#.....#\n#....##\n#..#..#\n#.....#\n###S###")
    by_moves, by_dist = solve(level), solve(level, by="distance")
    assert (by_moves.moves, by_moves.stops, by_moves.distance) == ("uluru", 5, 12)
    assert (by_dist.moves, by_dist.stops, by_dist.distance) == ("uruluru", 7, 10)


def test_remaining_ties_go_to_the_first_direction_in_udlr_order():
    from designer.core.level import Level

    # An open 3x3 field, corner to corner: two moves over four cells either way round.
    for text, expected in (("..G\n...\nS..", "ur"), ("S..\n...\n..G", "dr"),
                           ("G..\n...\n..S", "ul"), ("..S\n...\nG..", "dl")):
        solution = solve(Level.from_ascii(text))
        assert (solution.moves, solution.stops, solution.distance) == (expected, 2, 4)


def test_same_solution_in_every_process(examples_dir):
    # Nothing may depend on hash or set order: separate processes with different hash seeds agree.
    import os
    import subprocess
    import sys

    path = str(examples_dir / "strong-reversible.txt")
    answers = set()
    for hash_seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-m", "designer", "solve", path], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONHASHSEED": hash_seed})
        answers.add(done.stdout)
    assert answers == {f"{solve(read_level(path)).moves}\nstops: 15  distance: {solve(read_level(path)).distance}\n"}
