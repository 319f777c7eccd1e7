"""The annealing stage (designer.search.engines.anneal) and its compiled chain (kernel_anneal.anneal_layout)."""

import numpy as np
import pytest
from conftest import needs_compiled

from designer.search.engines import anneal
from designer.core import kernels
from designer.core import kernel_anneal
from designer.analysis.graph import analyze
from designer.core.budget import Budget
from designer.search.design import design
from designer.search.goal import Goal
from designer.search.stages import anneal_stage
from designer.search.model_stages import empty_room
from designer.search.state import Progress, Search
from designer.core.level import Level
from designer.core.terrain import ROCK
from designer.core.request import LayoutRequest

FRAMED = LayoutRequest(height=8, width=8, frame=True, min_stops=1, max_rocks=7)


def chain_for(request: LayoutRequest, seed: int) -> anneal.LayoutChain:
    level = empty_room(request)
    stops = analyze(level).min_stops
    return anneal.LayoutChain.start_from(anneal._closed(level, request), level, stops, seed)


def step(request: LayoutRequest, chain: anneal.LayoutChain, steps: int, heat: float = 1.0, target=None, stop=None) -> int:
    free = np.array(request.fixed_grid()) < 0
    w = request.width
    return kernel_anneal.anneal_layout(chain.terrain, free, [r * w + c for r, c in request.start_cells()],
                                 [r * w + c for r, c in request.goal_cells()], request.max_rocks, request.max_stops,
                                 chain.ends, chain.score, chain.rng, heat, heat, steps, target, stop,
                                 chain.best_terrain, chain.best)


def current_level(chain: anneal.LayoutChain, w: int) -> Level:
    terrain = chain.terrain.copy()
    start, goal = divmod(int(chain.ends[0]), w), divmod(int(chain.ends[1]), w)
    terrain[start] = terrain[goal] = 0
    return Level(terrain, start, goal)


@needs_compiled
def test_a_chain_keeps_only_strong_reversible_layouts_within_the_request():
    request = FRAMED
    chain = chain_for(request, 7)
    first = int(chain.best[0])
    fixed = np.array(request.fixed_grid())
    moved = 0
    for _ in range(40):
        before = chain.terrain.copy(), chain.ends.copy()
        assert step(request, chain, 50) == 50
        moved += not (np.array_equal(before[0], chain.terrain) and np.array_equal(before[1], chain.ends))
        level = current_level(chain, request.width)
        report = analyze(level)
        assert report.solvability == "strong" and report.reversible and report.min_stops == chain.score[0]
        assert int(((level.terrain == ROCK) & (fixed < 0)).sum()) <= request.max_rocks
        assert level.start in request.start_cells() and level.goal in request.goal_cells()
        assert np.array_equal(chain.terrain[fixed >= 0], fixed[fixed >= 0])  # frame kept (ends closed)
    assert moved > 10  # the chain does move
    best = chain.best_level()
    assert analyze(best).min_stops == chain.best[0] >= first


@needs_compiled
def test_a_chain_is_reproducible_from_its_seed_and_stops_at_its_target():
    a, b, c = chain_for(FRAMED, 3), chain_for(FRAMED, 3), chain_for(FRAMED, 4)
    for chain in (a, b, c):
        step(FRAMED, chain, 3000)
    assert np.array_equal(a.terrain, b.terrain) and np.array_equal(a.best, b.best)
    assert not (np.array_equal(a.terrain, c.terrain) and np.array_equal(a.ends, c.ends))
    d = chain_for(FRAMED, 3)
    target = int(d.best[0]) + 1
    taken = step(FRAMED, d, 100_000, target=target)
    assert taken < 100_000 and d.best[0] >= target
    e = chain_for(FRAMED, 3)
    assert step(FRAMED, e, 100_000, stop=np.ones(1, np.int32)) == 0  # a set stop flag ends it at once


@needs_compiled
def test_bad_chain_arguments_are_refused():
    chain = chain_for(FRAMED, 1)
    free = np.array(FRAMED.fixed_grid()) < 0
    good = dict(terrain=chain.terrain, free=free, starts=[57], goals=[3], max_rocks=7, max_stops=None,
                ends=chain.ends, score=chain.score, rng_state=chain.rng, heat_hi=1.0, heat_lo=1.0, steps=10,
                target=None, stop=None, best_terrain=chain.best_terrain, best=chain.best)
    kernel_anneal.anneal_layout(**good)
    read_only = np.zeros(1, np.int32)
    read_only.flags.writeable = False
    for change in ({"score": read_only}, {"starts": [64]}, {"goals": [-1]}, {"starts": []}, {"ends": np.array([3, 3], np.int32)},
                   {"ends": np.array([0, 99], np.int32)}, {"free": free[:4]}, {"heat_lo": 0.0},
                   {"steps": -1}, {"best": np.zeros(2, np.int32)}, {"rng_state": np.zeros(1, np.int64)},
                   {"terrain": chain.terrain.astype(np.int16)}, {"best_terrain": chain.best_terrain[:4]}):
        with pytest.raises(ValueError):
            kernel_anneal.anneal_layout(**{**good, **change})
    with kernels.use("python"):
        assert not anneal.applies(FRAMED)
        with pytest.raises(RuntimeError):
            kernel_anneal.anneal_layout(**good)


@needs_compiled
def test_the_stage_meets_a_target_from_the_best_layout_so_far():
    request = LayoutRequest(height=10, width=10, frame=True, min_stops=1)
    room = empty_room(request)
    stops = analyze(room).min_stops
    goal = Goal.meet(stops + 3)
    search = Search(request, goal, seed=2, budget=Budget(20.0), workers=2, method="auto", excluded=set(),
                    progress=Progress())
    search.pool = [(stops, room)]
    found = search.absorb(anneal_stage(search, goal, search.budget))
    assert found is not None and found.generator.stage == "anneal"
    report = analyze(found.level)
    assert report.solvability == "strong" and report.reversible and report.min_stops >= stops + 3


@needs_compiled
def test_maximize_on_a_framed_grid_anneals_and_is_verified():
    found = design(LayoutRequest(height=9, width=9, frame=True, min_stops=1), seed=1, time_limit=4, maximize=True)
    assert found.generator.stage in ("anneal", "cp-sat") and found.generator.proven_optimal is False
    report = analyze(found.level)
    assert report.solvability == "strong" and report.reversible and report.min_stops == found.min_stops
