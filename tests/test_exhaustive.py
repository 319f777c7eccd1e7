import itertools

import numpy as np
import pytest

from designer.search.result import DesignFailed
from designer.search.design import design
from designer.core.budget import Budget
from designer.search.engines.exhaustive import applies, base_terrain, search, symmetries
from designer.analysis.classify import STRONG, classify_batch
from designer.core.request import LayoutRequest


def brute_force_best(request: LayoutRequest) -> int:
    """Every rock set of up to max_rocks free cells, every (start, goal): the plain way."""
    h, w = request.height, request.width
    free = [r * w + c for r, c in request.free_cells()]
    starts = [r * w + c for r, c in request.start_cells()]
    goals = [r * w + c for r, c in request.goal_cells()]
    terrains, s_list, g_list = [], [], []
    for k in range(request.max_rocks + 1):
        for rocks in itertools.combinations(free, k):
            flat = base_terrain(request).reshape(-1).copy()
            flat[list(rocks)] = 1
            for s in starts:
                for g in goals:
                    if s != g and flat[s] == 0 and flat[g] == 0:
                        terrains.append(flat.reshape(h, w))
                        s_list.append(s)
                        g_list.append(g)
    classes, rev, stops = classify_batch(np.array(terrains), np.array(s_list), np.array(g_list))
    good = (classes == STRONG) & rev
    return int(stops[good].max()) if good.any() else -1


SPACES = [
    LayoutRequest(height=3, width=4, frame=False, max_rocks=3),
    LayoutRequest(height=4, width=4, frame=False, max_rocks=2),  # square: eight symmetries
    LayoutRequest(height=4, width=5, frame=False, max_rocks=2, start=(1, 1)),
    LayoutRequest(height=5, width=5, max_rocks=3, start=(4, 2), goal=(0, 1)),  # frame, pinned gaps
]


@pytest.mark.parametrize("request_", SPACES, ids=lambda r: f"{r.height}x{r.width}-{r.max_rocks}")
def test_exhaustive_best_matches_brute_force(request_):
    assert applies(request_)
    result = search(request_, 1, Budget(60))
    assert result.complete
    assert result.best == brute_force_best(request_)
    if result.level is not None:
        from designer.analysis.graph import analyze

        report = analyze(result.level)
        assert report.solvability == "strong" and report.reversible and report.min_stops == result.best


def test_symmetries_found():
    assert len(symmetries(LayoutRequest(height=4, width=4, frame=False, max_rocks=1), base_terrain(
        LayoutRequest(height=4, width=4, frame=False, max_rocks=1)))) == 7
    pinned = LayoutRequest(height=4, width=5, frame=False, max_rocks=1, start=(1, 1))
    assert symmetries(pinned, base_terrain(pinned)) == []


def test_not_applicable_without_budget_or_with_framed_free_ends():
    assert not applies(LayoutRequest(height=4, width=4, frame=False))
    assert not applies(LayoutRequest(height=5, width=5, max_rocks=2))  # ends on the frame, unpinned
    assert not applies(LayoutRequest(height=4, width=4, frame=False, max_rocks=2, snow=1))


def test_maximize_proves_optimality_on_a_tiny_space():
    request = LayoutRequest(height=4, width=4, frame=False, max_rocks=2, min_stops=1)
    found = design(request, maximize=True, time_limit=30)
    assert found.generator.proven_optimal is True
    assert found.min_stops == brute_force_best(request)


def test_one_above_the_optimum_is_proven_infeasible():
    request = LayoutRequest(height=4, width=4, frame=False, max_rocks=2)
    best = brute_force_best(request)
    with pytest.raises(DesignFailed) as info:
        design(LayoutRequest(height=4, width=4, frame=False, max_rocks=2, min_stops=best + 1), time_limit=30)
    assert info.value.reason == "infeasible" and "exhaustive search" in str(info.value)
