"""The kernels: the compiled and the Python implementations agree, and bad arguments are refused
before any memory is touched. CI also runs this file against a build with AddressSanitizer and
UndefinedBehaviorSanitizer (see .ci/run)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import IMPLS, needs_compiled, small_levels
from designer.analysis.graph import analyze
from designer.core import kernel_anneal, kernel_search, kernels
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK, SNOW

NO_ROUTES = np.zeros((0, 4), np.int32)  # a level: no room's routes in a kernel's call


def run_both(call):
    """The result of ``call()`` under each available implementation."""
    results = []
    for name in kernels.available():
        with kernels.use(name):
            results.append(call())
    return results


@st.composite
def terrains(draw, max_side=7):
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    cells = draw(st.lists(st.sampled_from([ICE, ICE, ICE, ROCK, SNOW]), min_size=h * w, max_size=h * w))
    return np.array(cells, np.uint8).reshape(h, w)


@needs_compiled
@given(terrains(), st.data())
def test_slide_tables_agree(terrain, data):
    capture = data.draw(st.integers(-1, terrain.size - 1))
    compiled, python = run_both(lambda: kernels.slide_table(terrain, capture))
    assert (compiled[0] == python[0]).all() and (compiled[1] == python[1]).all()


@needs_compiled
@given(st.lists(small_levels(max_side=7), min_size=1, max_size=6))
def test_classify_and_reach_agree(levels):
    shape = levels[0].shape
    group = [lv for lv in levels if lv.shape == shape]
    terrains_ = np.stack([lv.terrain for lv in group])
    starts = [lv.index(lv.start) for lv in group]
    goals = [lv.index(lv.goal) for lv in group]
    compiled, python = run_both(lambda: kernels.classify_batch(terrains_, starts, goals))
    assert all((a == b).all() for a, b in zip(compiled, python))
    dest, _ = kernels.slide_table(group[0].terrain, goals[0])
    compiled, python = run_both(lambda: kernels.reach(dest, starts[0], goals[0]))
    assert (compiled[0] == python[0]).all() and (compiled[1] == python[1]).all()


def open_space(h, w):
    base = np.zeros((h, w), np.uint8)
    free = np.arange(h * w, dtype=np.int32)
    everywhere = np.ones((h, w), np.uint8)
    return base, free, everywhere


def mirror(h, w):
    return [[r * w + (w - 1 - c) for r in range(h) for c in range(w)]]


@needs_compiled
@settings(max_examples=15)
@given(st.integers(2, 4), st.integers(3, 4), st.integers(0, 2), st.integers(1, 6), st.booleans())
def test_exhaustive_searches_agree(h, w, rocks, threshold, symmetric):
    base, free, everywhere = open_space(h, w)
    syms = mirror(h, w) if symmetric else []
    firsts = [0] if rocks == 0 else range(h * w - rocks + 1)
    for first in firsts:
        compiled, python = run_both(
            lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, syms, rocks, first, threshold, 60))
        assert compiled == python


@pytest.mark.parametrize("impl", IMPLS)
def test_finer_shards_split_a_shard_exactly(impl):
    # The shards (rocks, first, second) for every second partition the shard (rocks, first): the
    # same layouts, the same best, and the ties of the second-level shards at that best add up.
    base, free, everywhere = open_space(3, 4)
    syms = mirror(3, 4)
    with kernels.use(impl):
        for rocks, first in ((2, 0), (3, 1), (3, 0)):
            whole = kernel_search.exhaustive(base, free, everywhere, everywhere, syms, rocks, first, 1, 60)
            parts = [kernel_search.exhaustive(base, free, everywhere, everywhere, syms, rocks, first, 1, 60, second=second)
                     for second in range(first + 1, 12 - rocks + 2)]
            assert sum(p[5] for p in parts) == whole[5] and all(p[6] for p in parts)
            assert max(p[0] for p in parts) == whole[0]
            # ties inside one kernel count only from the point its bar reached the best
            assert sum(p[1] for p in parts if p[0] == whole[0]) >= whole[1]
        with pytest.raises(ValueError, match="second"):
            kernel_search.exhaustive(base, free, everywhere, everywhere, [], 1, 0, 1, 60, second=1)  # one rock
        with pytest.raises(ValueError, match="second"):
            kernel_search.exhaustive(base, free, everywhere, everywhere, [], 3, 2, 1, 60, second=2)  # not after first


@pytest.mark.parametrize("impl", IMPLS)
def test_exhaustive_finds_the_known_optimum(impl):
    # 3x3 open field, one rock: the best strong reversible level needs 4 stops (brute force below).
    base, free, everywhere = open_space(3, 3)
    best = -1
    with kernels.use(impl):
        for first in range(9):
            got = kernel_search.exhaustive(base, free, everywhere, everywhere, [], 1, first, 1, 60)
            assert got[6] is True
            best = max(best, got[0])
    from designer.analysis.graph import analyze
    from designer.core.level import Level

    brute = -1
    for rock in range(9):
        terrain = np.zeros(9, np.uint8)
        terrain[rock] = ROCK
        for s in range(9):
            for g in range(9):
                if len({s, g, rock}) == 3:
                    report = analyze(Level(terrain.reshape(3, 3), divmod(s, 3), divmod(g, 3)))
                    if report.solvability == "strong" and report.reversible:
                        brute = max(brute, report.min_stops)
    assert best == brute


@pytest.mark.parametrize("impl", IMPLS)
def test_budget_and_stop_flag_end_a_search_incomplete(impl):
    base, free, everywhere = open_space(6, 6)
    with kernels.use(impl):
        # 3 rocks of 36 cells: thousands of layouts; no budget at all leaves the search incomplete
        assert kernel_search.exhaustive(base, free, everywhere, everywhere, [], 3, 0, 1, 0.0)[6] is False
        stop = np.ones(1, np.int32)
        assert kernel_search.exhaustive(base, free, everywhere, everywhere, [], 3, 0, 1, 60, stop)[6] is False
        # a tiny range completes
        assert kernel_search.exhaustive(base, free, everywhere, everywhere, [], 1, 35, 1, 60)[6] is True


@pytest.mark.parametrize("impl", IMPLS)
def test_best_pair_is_the_exhaustive_search_of_one_layout(impl):
    rng = np.random.default_rng(5)
    with kernels.use(impl):
        for _ in range(30):
            terrain = (rng.random((5, 6)) < 0.25).astype(np.uint8)
            ice = (terrain == ICE).astype(np.uint8)
            goals = ice * (rng.random((5, 6)) < 0.5)
            threshold = int(rng.integers(1, 6))
            best, _, _, start, goal, _, _ = kernel_search.exhaustive(terrain, np.zeros(0, np.int32), ice, goals, [], 0, 0,
                                                               threshold, 60)
            assert kernel_search.best_pair(terrain, ice, goals, threshold) == (best, start, goal)


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(terrains(max_side=9), st.data())
def test_the_compiled_layout_filter_never_drops_a_pair(terrain, data):
    # The compiled search skips a layout when a search over 64-bit cell sets shows that no pair
    # reaches the bar (grids of at most 64 cells). The Python twin has no such filter, so the two
    # agree only if the filter is exact: at the best itself, just above it, and anywhere between.
    h, w = terrain.shape
    start_ok = data.draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    goal_ok = data.draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    start_ok = np.array(start_ok, np.uint8).reshape(h, w)
    goal_ok = np.array(goal_ok, np.uint8).reshape(h, w)
    with kernels.use("python"):
        best = kernel_search.best_pair(terrain, start_ok, goal_ok, 1)[0]
    for threshold in {1, max(1, best - 1), max(1, best), best + 1, data.draw(st.integers(1, 20))}:
        compiled, python = run_both(lambda: kernel_search.best_pair(terrain, start_ok, goal_ok, threshold))
        assert compiled == python


@needs_compiled
@pytest.mark.parametrize("terrain, start_ok, goal_ok, best", [
    # levels where the filter's bound is met exactly (a bound one lower drops the best pair)
    ([[0, 0, 0], [0, 1, 0], [0, 0, 0]], [[1, 1, 0], [1, 1, 1], [0, 1, 1]], [[1, 0, 1], [1, 1, 1], [1, 1, 1]], 3),
    ([[1, 0], [0, 0]], [[0, 1], [0, 1]], [[1, 0], [1, 1]], 2),
])
def test_the_layout_filter_keeps_pairs_at_its_bound(terrain, start_ok, goal_ok, best):
    arrays = [np.array(a, np.uint8) for a in (terrain, start_ok, goal_ok)]
    for impl in kernels.available():
        with kernels.use(impl):
            assert kernel_search.best_pair(*arrays, best)[0] == best
            assert kernel_search.best_pair(*arrays, best + 1)[0] == -1


# --- guards -------------------------------------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
def test_bad_arguments_are_refused_before_the_kernel(impl):
    terrain = np.zeros((3, 4), np.uint8)
    dest, _ = kernels.slide_table(terrain, -1)
    base, free, everywhere = open_space(3, 4)
    bad_calls = [
        lambda: kernels.reach(dest, 1000, 0),  # the start far outside the grid (was a heap overflow)
        lambda: kernels.reach(dest, -1, 0),
        lambda: kernels.reach(dest, 0, 12),
        lambda: kernels.reach(np.full((4, 12), 99, np.int32), 0, 1),  # dest pointing outside
        lambda: kernels.reach(dest.reshape(2, 24), 0, 1),  # not (4, cells)
        lambda: kernels.slide_table(terrain, 12),
        lambda: kernels.slide_table(np.full((2, 2), 7, np.uint8), -1),
        lambda: kernels.classify_batch(terrain[None], [12], [0]),
        lambda: kernels.classify_batch(terrain[None], [0], [-3]),
        lambda: kernels.classify_batch(terrain[None], [0, 1], [2, 3]),
        lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, [], 2, 11, 1, 1),  # first too late
        lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, [], 13, 0, 1, 1),  # more rocks than cells
        lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, [], -1, 0, 1, 1),
        lambda: kernel_search.exhaustive(base, np.array([0, 99], np.int32), everywhere, everywhere, [], 1, 0, 1, 1),
        lambda: kernel_search.exhaustive(base, np.array([1, 1], np.int32), everywhere, everywhere, [], 1, 0, 1, 1),
        lambda: kernel_search.exhaustive(base, free, everywhere[:2], everywhere, [], 1, 0, 1, 1),
        lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, [[0] * 12], 1, 0, 1, 1),  # not a permutation
        lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, [], 1, 0, 1, float("nan")),
        lambda: kernel_search.exhaustive(base, free, everywhere, everywhere, [], 1, 0, 1, 1, np.zeros(3, np.int32)),
        lambda: kernel_search.exhaustive(np.zeros((9, 9), np.uint8), np.arange(65, dtype=np.int32),
                                   np.ones((9, 9), np.uint8), np.ones((9, 9), np.uint8), [], 1, 0, 1, 1),
        lambda: kernel_search.best_pair(base, everywhere[:2], everywhere, 1),
        lambda: kernel_search.best_pair(base, everywhere, everywhere.T, 1),
        lambda: kernel_search.best_pair(np.full((3, 4), 5, np.uint8), everywhere, everywhere, 1),
        lambda: kernel_search.best_pair(np.zeros((0, 4), np.uint8), everywhere, everywhere, 1),
    ]
    with kernels.use(impl):
        for k, call in enumerate(bad_calls):
            with pytest.raises(ValueError):
                call()
                pytest.fail(f"bad call {k} was accepted")


@needs_compiled
def test_the_compiled_bindings_check_what_keeps_memory_safe():
    # Called directly, past the Python checks, the C bindings still refuse out-of-range indices.
    from designer.core import _kernels
    from designer.core.kernel_jobs import AnnealJob, SearchJob

    n = 12
    dest = np.full(4 * n, -1, np.int32)
    stops, order = np.empty(n, np.int32), np.empty(n, np.int32)
    with pytest.raises(ValueError):
        _kernels.reach(dest, n, 1000, 0, stops, order)
    with pytest.raises(ValueError):
        _kernels.reach(np.full(4 * n, 50, np.int32), n, 0, 1, stops, order)
    base = np.zeros(n, np.uint8)
    ok = np.ones(n, np.uint8)
    cells = np.arange(n, dtype=np.int32)
    flag = np.zeros(1, np.int32)
    for rocks, first, second in ((2, 11, -1), (13, 0, -1), (-1, 0, -1), (1, -5, -1), (1, 0, 1), (3, 2, 2),
                                 (3, 2, 11), (3, 0, -7)):
        with pytest.raises(ValueError):
            _kernels.exhaustive(SearchJob(base, 3, 4, cells, ok, ok, np.zeros(0, np.int32), 0, rocks, first, second, 1,
                                          1.0, flag, NO_ROUTES, 0))
    with pytest.raises(ValueError):
        _kernels.exhaustive(SearchJob(base, 3, 4, cells, ok, ok, np.full(n, 40, np.int32), 1, 1, 0, -1, 1, 1.0, flag,
                                      NO_ROUTES, 0))
    # a room's routes: doors inside the grid and apart, floors from 0, a score the kernels know
    for routes, mode in (([[0, 12, 1, -1]], 0), ([[3, 3, 1, -1]], 0), ([[0, 3, -1, -1]], 1), ([[0, 3, 1, -1]], 2),
                         (np.zeros((1, 3), np.int32), 0)):
        with pytest.raises(ValueError):
            _kernels.exhaustive(SearchJob(base, 3, 4, cells, ok, ok, np.zeros(0, np.int32), 0, 1, 0, -1, 1, 1.0, flag,
                                          np.array(routes, np.int32), mode))
    # the annealing chain: start, goal and candidate cells are checked in C too
    terrain, best_terrain, rng = np.zeros(n, np.uint8), np.zeros(n, np.uint8), np.zeros(1, np.uint64)
    score, best = np.full(1, -1, np.int32), np.full(3, -1, np.int32)
    for starts, goals, ends in (([40], [0], [1, 0]), ([1], [-2], [1, 0]), ([1], [0], [1, 99]), ([1], [0], [1, 1]),
                                ([], [0], [1, 0])):
        with pytest.raises(ValueError):
            _kernels.anneal_layout(AnnealJob(terrain, 3, 4, ok, np.array(starts, np.int32), np.array(goals, np.int32), -1, -1,
                                   np.array(ends, np.int32), score, rng, 1.0, 1.0, 10, -1, flag, best_terrain, best,
                                   -1, -1, 0, 0, NO_ROUTES, 0))
    with pytest.raises(ValueError):  # an objective the chain does not know
        _kernels.anneal_layout(AnnealJob(terrain, 3, 4, ok, np.array([1], np.int32), np.array([0], np.int32), -1, -1,
                               np.array([1, 0], np.int32), score, rng, 1.0, 1.0, 10, -1, flag, best_terrain, best,
                               -1, -1, 0, 7, NO_ROUTES, 0))
    for routes, mode in (([[0, 1, 1, -1]], 4), ([[0, 99, 1, -1]], 0)):  # a room's score and routes, checked too
        with pytest.raises(ValueError):
            _kernels.anneal_layout(AnnealJob(terrain, 3, 4, ok, np.array([1], np.int32), np.array([0], np.int32), -1, -1,
                                   np.array([1, 0], np.int32), score, rng, 1.0, 1.0, 10, -1, flag, best_terrain, best,
                                   -1, -1, 0, 0, np.array(routes, np.int32), mode))
    for start, goal in ((12, 0), (-1, 0), (3, 3)):  # the choices of one level: its ends are checked in C too
        with pytest.raises(ValueError):
            _kernels.choice_figures(terrain, 3, 4, start, goal)
    # the open-grid chain: its terrain's size, goal and best size are checked in C too
    best5 = np.array([-1, 0, 0, -1, -1], np.int32)
    for dims, goal, best_ in (([4, 4], [-1, -1], best5), ([3, 4], [3, 0], best5), ([0, 4], [-1, -1], best5),
                              ([3, 4], [-1, -1], np.array([5, 9, 9, 0, 1], np.int32))):
        with pytest.raises(ValueError):
            _kernels.anneal_open(terrain, np.array(dims, np.int32), 3, 4, np.array(goal, np.int32), score, rng, 1.0,
                                 1.0, 10, -1, flag, best_terrain, best_)


@needs_compiled
def test_out_of_memory_is_an_error_not_a_proof():
    # With the address space capped, the search's scratch memory cannot be had: MemoryError,
    # never (best=-1, complete=True), which would read as "proven infeasible".
    script = textwrap.dedent("""
        import resource, numpy as np
        from designer.core import kernels
        from designer.core import kernel_search
        from designer.core import kernel_anneal
        with kernels.use("compiled"):
            h = w = 1000  # scratch: 20 ints per cell = 80 MB
            base = np.zeros((h, w), np.uint8); ok = np.zeros((h, w), np.uint8)
            free = np.arange(4, dtype=np.int32)
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
            resource.setrlimit(resource.RLIMIT_AS, (used + 40 * 2**20, hard))
            try:
                print(kernel_search.exhaustive(base, free, ok, ok, [], 1, 0, 1, 10))
            except MemoryError:
                print("MemoryError")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"})
    assert done.stdout.strip() == "MemoryError", done.stderr


def test_the_cli_says_once_when_it_uses_the_python_kernels(examples_dir):
    env = {**os.environ, "DESIGNER_KERNELS": "python"}
    done = subprocess.run([sys.executable, "-m", "designer", "solve", str(examples_dir / "seed003-hard.txt")],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and done.stdout.startswith("urdluruldldldldru")
    assert done.stderr.count("pure-Python kernels") == 1 and done.stderr.count("\n") == 1


def test_unknown_implementation_is_refused():
    with pytest.raises(ValueError, match="not available"):
        with kernels.use("fortran"):
            pass


@needs_compiled
@given(small_levels(max_side=7))
def test_the_compiled_choices_are_the_analysis_choices(level):
    # options and rail stops along the printed solution, and one or more fewest-moves solutions
    report = analyze(level)
    options, rails, solutions = kernel_anneal.choice_figures(level.terrain, level.index(level.start),
                                                       level.index(level.goal))
    if report.solution is None:
        assert options == -1
    else:
        assert (options, rails, solutions) == (report.options, report.rail_stops, min(report.solutions, 2))


@needs_compiled
@pytest.mark.parametrize("objective, conditions", [
    ("options", {}), ("stops", {"min_options": 3}), ("stops", {"unique": True}), ("options", {"unique": True}),
])
def test_a_chain_counting_choices_keeps_only_layouts_that_meet_its_conditions(objective, conditions):
    from designer.core.request import LayoutRequest
    from designer.search.model_stages import empty_room

    request = LayoutRequest(height=9, width=9, min_stops=1)
    room = empty_room(request)
    floor = analyze(room).min_stops  # the chain keeps only layouts in the band: it starts in it
    terrain = room.terrain.copy()
    for end in (room.start, room.goal):
        terrain[end] = 1  # the chain opens its ends itself
    w = room.width
    ends = np.array([room.index(room.start), room.index(room.goal)], np.int32)
    score, best = np.array([-1], np.int32), np.array([-1, ends[0], ends[1]], np.int32)
    best_terrain, rng = terrain.copy(), np.array([5], np.uint64)
    free = np.array(request.fixed_grid()) < 0
    starts = [(8 * w) + c for c in range(1, 8)]
    goals = list(range(1, 8))
    kernel_anneal.anneal_layout(terrain, free, starts, goals, None, None, ends, score, rng, 1.0, 0.2, 20_000, None, None,
                          best_terrain, best, min_stops=floor, objective=objective, **conditions)
    assert best[0] >= 0
    start, goal = divmod(int(best[1]), w), divmod(int(best[2]), w)
    opened = best_terrain.copy()
    opened[start] = opened[goal] = ICE  # an end in the frame is a gap in it
    level = Level(opened, start, goal)
    report = analyze(level)
    assert report.solvability == "strong" and report.reversible and report.min_stops >= floor
    assert best[0] == (report.options if objective == "options" else report.min_stops)
    if conditions.get("unique"):
        assert report.solutions == 1
    if "min_options" in conditions:
        assert report.options >= conditions["min_options"]


@settings(max_examples=60, deadline=None)
@given(terrains(), st.integers(0, 3))
def test_all_reach_goal_agrees_between_kernels_and_with_the_move_graph(terrain, items):

    from designer.analysis.graph import analyze
    from designer.core.items import state_table
    from designer.core.level import Level
    from designer.core.terrain import ICE

    ice = [tuple(int(v) for v in cell) for cell in np.argwhere(terrain == ICE)]
    if len(ice) < 2 + items:
        return
    level = Level(terrain, ice[0], ice[-1], items=tuple(ice[1:1 + items]))
    states = state_table(level)
    _, order = kernels.reach(states.dest, states.start, states.goal)
    both = run_both(lambda: kernels.all_reach_goal(states.dest, order, states.goal))
    assert len(set(both)) == 1
    report = analyze(level)
    assert both[0] == (report.solvability == "strong")
