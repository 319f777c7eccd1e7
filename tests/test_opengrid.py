"""Open grids (designer.search.engines.opengrid): compressing and expanding keep the puzzle; the designer's
open-grid stage."""


import numpy as np
import pytest
from conftest import IMPLS, needs_compiled

from designer.core import kernels

from designer.core import kernel_anneal
from designer.core.budget import Budget
from designer.search.engines import compressed, opengrid
from designer.search.design import design
from designer.analysis.classify import classify
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK
from designer.core.request import LayoutRequest


def random_open_level(rng, height, width, rocks) -> Level:
    terrain = np.zeros((height, width), np.uint8)
    terrain.reshape(-1)[rng.choice(height * width, rocks, replace=False)] = ROCK
    ice = np.flatnonzero(terrain.reshape(-1) == ICE)
    start, goal = rng.choice(ice, 2, replace=False)
    return Level(terrain, divmod(int(start), width), divmod(int(goal), width))


def puzzle(level: Level):
    """What the move graph decides: solvability, reversibility, min stops."""
    return classify(level)


#: Two rocks far apart on a 9x11 grid: rows 3..5 and columns 3..6 are never rested on.
SPARSE = Level.from_ascii("\n".join([
    "...........",
    ".#.........",
    "...........",
    "...........",
    "...........",
    "...........",
    "...........",
    "........#..",
    "S.........G",
]))


def test_compress_removes_the_lines_never_rested_on():
    small = compressed.compress(SPARSE)
    assert small.terrain.shape == (6, 7)
    assert int((small.terrain == ROCK).sum()) == 2
    assert puzzle(small) == puzzle(SPARSE)
    assert compressed.compress(small) == small  # nothing more to remove


def test_expand_undoes_compress_up_to_where_lines_go():
    small = compressed.compress(SPARSE)
    grown = compressed.expand(small, 9, 11)
    assert grown.terrain.shape == (9, 11)
    assert puzzle(grown) == puzzle(SPARSE)
    assert compressed.compress(grown) == small
    big = compressed.expand(small, 30, 40)
    assert big.terrain.shape == (30, 40) and puzzle(big) == puzzle(SPARSE)
    assert compressed.expand(small, 5, 7) is None  # never shrinks


def test_expand_needs_two_neighbouring_rock_free_lines():
    tight = Level.from_ascii("#..\n.#.\n..#\nS.G")  # every column, and every row but one, holds a rock
    assert not compressed.expandable(tight.terrain, 6, 3)
    assert compressed.expand(tight, 6, 3) is None
    assert compressed.expand(tight, 4, 6) is None
    assert compressed.expand(tight, 4, 3) == tight  # already that size
    loose = Level.from_ascii("#..\n...\n..#\nS.G")  # the rock-free rows 1 and 3 are not neighbours
    assert compressed.expand(loose, 6, 3) is None
    roomy = Level.from_ascii("#..\n...\n...\nS.G")
    assert puzzle(compressed.expand(roomy, 7, 3)) == puzzle(roomy)


@pytest.mark.parametrize("seed", range(4))
def test_compress_and_expand_keep_every_puzzle(seed):
    rng = np.random.default_rng(seed)
    for _ in range(150):
        level = random_open_level(rng, int(rng.integers(5, 12)), int(rng.integers(5, 14)), int(rng.integers(1, 7)))
        small = compressed.compress(level)
        assert puzzle(small) == puzzle(level)
        h, w = level.terrain.shape
        grown = compressed.expand(small, h + int(rng.integers(0, 6)), w + int(rng.integers(0, 6)))
        if grown is not None:
            assert puzzle(grown) == puzzle(level)
            assert int((grown.terrain == ROCK).sum()) == int((level.terrain == ROCK).sum())


def test_best_ends_matches_trying_every_pair():
    rng = np.random.default_rng(7)
    for _ in range(20):
        level = random_open_level(rng, 6, 7, 5)
        stops, start, goal = compressed.best_ends(level.terrain)
        w = level.width
        best = -1
        for s in np.flatnonzero(level.terrain.reshape(-1) == ICE):
            for g in np.flatnonzero(level.terrain.reshape(-1) == ICE):
                if s != g:
                    c = classify(Level(level.terrain, divmod(int(s), w), divmod(int(g), w)))
                    if c.solvability == "strong" and c.reversible:
                        best = max(best, c.min_stops)
        assert stops == best
        if stops >= 0:
            found = classify(Level(level.terrain, divmod(start, w), divmod(goal, w)))
            assert (found.solvability, found.reversible, found.min_stops) == ("strong", True, stops)


def test_applies_only_to_open_grids_with_a_rock_budget():
    assert opengrid.applies(LayoutRequest(16, 24, frame=False, max_rocks=5))
    assert not opengrid.applies(LayoutRequest(16, 24, frame=True, max_rocks=5))
    assert not opengrid.applies(LayoutRequest(16, 24, frame=False))
    assert not opengrid.applies(LayoutRequest(16, 24, frame=False, max_rocks=5, snow=2))
    assert not opengrid.applies(LayoutRequest(16, 24, frame=False, max_rocks=5, start=(0, 0)))
    assert not opengrid.applies(LayoutRequest(6, 7, frame=False, max_rocks=5))  # the exhaustive search's


@needs_compiled  # thousands of terrains a second compiled; the Python twin is too slow for a short test
def test_design_meets_an_open_grid_request_with_few_rocks():
    request = LayoutRequest(16, 24, frame=False, min_stops=8, max_rocks=2)
    found = design(request, seed=1, time_limit=30, workers=2)
    assert found.generator.stage in ("open grid", "open grid, then decisions")
    assert found.level.terrain.shape == (16, 24)
    assert found.min_stops >= 8 and int((found.level.terrain == ROCK).sum()) <= 2
    assert found.analysis.solvability == "strong" and found.analysis.reversible


@needs_compiled
def test_design_maximizes_an_open_grid():
    request = LayoutRequest(16, 24, frame=False, min_stops=1, max_rocks=3)
    found = design(request, seed=2, time_limit=6, workers=2, maximize=True)
    assert found.generator.stage == "open grid"
    assert found.min_stops >= 9 and not found.generator.proven_optimal
    assert int((found.level.terrain == ROCK).sum()) <= 3


def test_the_goal_follows_inserted_and_removed_lines():
    goal = (3, 5)
    assert opengrid._moved_goal(goal, None) == goal  # a rock move
    assert opengrid._moved_goal(goal, (0, 3, 1)) == (4, 5)  # a row inserted at the goal's row pushes it down
    assert opengrid._moved_goal(goal, (0, 4, 1)) == (3, 5)
    assert opengrid._moved_goal(goal, (1, 2, -1)) == (3, 4)  # a column removed to its left
    assert opengrid._moved_goal(goal, (1, 5, -1)) is None  # its own column removed
    assert opengrid._moved_goal(goal, (1, 6, -1)) == (3, 5)


@pytest.mark.parametrize("impl", IMPLS)
def test_an_annealing_chain_reports_an_exact_best(impl):
    rng = np.random.default_rng(0)
    with kernels.use(impl):
        found = opengrid.anneal(3, 10, 12, rng, Budget(1.0))
    assert found.level is not None and found.level.terrain.shape[0] <= 10 and found.level.terrain.shape[1] <= 12
    c = classify(found.level)
    assert (c.solvability, c.reversible, c.min_stops) == ("strong", True, found.stops)
    assert int((found.level.terrain == ROCK).sum()) <= 3
    assert compressed.expand(found.level, 10, 12) is not None


def compiled_chain(seed: int, rocks: int = 4, height: int = 9, width: int = 11):
    first = opengrid._first_terrain(rocks, height, width, np.random.default_rng(seed))
    terrain = np.zeros(height * width, np.uint8)
    terrain[:first.size] = first.reshape(-1)
    return dict(terrain=terrain, dims=np.array(first.shape, np.int32), height=height, width=width,
                goal=np.array([-1, -1], np.int32), score=np.array([-1], np.int32),
                rng_state=np.array([seed], np.uint64), best_terrain=np.zeros(height * width, np.uint8),
                best=np.array([-1, 0, 0, -1, -1], np.int32))


@needs_compiled
def test_the_compiled_chain_keeps_its_state_consistent_and_repeats_itself():
    chain, twin = compiled_chain(5), compiled_chain(5)
    seen_moves = set()
    for _ in range(30):
        for state in (chain, twin):
            assert kernel_anneal.anneal_open(**state, heat_hi=2.0, heat_lo=2.0, steps=40, target=None, stop=None) == 40
        assert all(np.array_equal(chain[key], twin[key]) for key in chain if isinstance(chain[key], np.ndarray))
        h, w = chain["dims"]
        grid = chain["terrain"][:h * w].reshape(h, w)
        seen_moves.add(grid.tobytes())
        assert h <= 9 and w <= 11 and int((grid == ROCK).sum()) == 4  # moves keep the rocks
        if chain["score"][0] >= 0:  # the score is a lower bound: the pair it came from, at its goal
            goal = chain["goal"][0] * w + chain["goal"][1]
            assert compressed.expandable(grid, 9, 11)
            assert compressed.best_ends(grid, 1, np.array([goal]))[0] >= chain["score"][0]
    assert len(seen_moves) > 5
    stops, h, w, start, goal = (int(v) for v in chain["best"])
    best = Level(chain["best_terrain"][:h * w].reshape(h, w).copy(), divmod(start, w), divmod(goal, w))
    assert compressed.best_ends(best.terrain)[0] == stops == classify(best).min_stops  # the best is exact


@needs_compiled
def test_bad_open_chain_arguments_are_refused():
    for change in ({"dims": np.array([10, 3], np.int32)}, {"goal": np.array([8, 0], np.int32)},
                   {"terrain": np.zeros(5, np.uint8)}, {"best": np.zeros(4, np.int32)},
                   {"score": np.zeros(1, np.int64)}, {"height": 0}):
        state = {**compiled_chain(1), **change}
        with pytest.raises(ValueError):
            kernel_anneal.anneal_open(**state, heat_hi=1.0, heat_lo=1.0, steps=5, target=None, stop=None)
    with pytest.raises(ValueError):
        kernel_anneal.anneal_open(**compiled_chain(1), heat_hi=0.0, heat_lo=1.0, steps=5, target=None, stop=None)
    with kernels.use("python"), pytest.raises(RuntimeError):
        kernel_anneal.anneal_open(**compiled_chain(1), heat_hi=1.0, heat_lo=1.0, steps=5, target=None, stop=None)
