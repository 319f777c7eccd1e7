"""The cheap proofs: each bound's theorem checked on random levels, and the stages that use them."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from designer.analysis import bounds
from designer.analysis.graph import analyze
from designer.search.result import DesignFailed
from designer.search.design import design
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK
from designer.core.request import LayoutRequest


@st.composite
def framed_levels_with_ends_in_the_frame(draw):
    """Framed levels without snow, start and goal anywhere in the frame but the corners."""
    h, w = draw(st.integers(3, 8)), draw(st.integers(3, 8))
    terrain = np.array(draw(st.lists(st.sampled_from([ICE, ICE, ICE, ROCK]), min_size=h * w, max_size=h * w)),
                       np.uint8).reshape(h, w)
    terrain[0, :] = terrain[-1, :] = ROCK
    terrain[:, 0] = terrain[:, -1] = ROCK
    edge = [(0, c) for c in range(1, w - 1)] + [(h - 1, c) for c in range(1, w - 1)]
    edge += [(r, 0) for r in range(1, h - 1)] + [(r, w - 1) for r in range(1, h - 1)]
    start, goal = draw(st.lists(st.sampled_from(edge), min_size=2, max_size=2, unique=True))
    terrain[start] = terrain[goal] = ICE
    return Level(terrain, start, goal)


def axis(level: Level, cell) -> str:
    return "vertical" if cell[0] in (0, level.height - 1) else "horizontal"


@given(framed_levels_with_ends_in_the_frame())
def test_parity_theorem(level):
    (sr, sc), (gr, gc) = level.start, level.goal
    assume(abs(sr - gr) + abs(sc - gc) != 1)  # side by side in the frame, they are a pair apart
    report = analyze(level)
    assume(report.min_stops is not None)
    odd = axis(level, level.start) == axis(level, level.goal)
    assert (report.min_stops % 2 == 1) == odd


@given(framed_levels_with_ends_in_the_frame(), st.integers(1, 30), st.integers(0, 3))
def test_no_bound_refuses_a_request_a_level_meets(level, low, width):
    report = analyze(level)
    assume(report.solvability == "strong" and report.reversible)
    request = LayoutRequest(height=level.height, width=level.width, start=level.start, goal=level.goal,
                            min_stops=min(low, report.min_stops), max_stops=max(low, report.min_stops) + width,
                            min_choices=report.options)  # the level's own options: the choices bound too
    assert bounds.infeasible(request) is None


@pytest.mark.parametrize("request_, applies", [
    (LayoutRequest(min_stops=22, max_stops=22), True),
    (LayoutRequest(min_stops=22, max_stops=23), False),
    (LayoutRequest(min_stops=22), False),  # no band: 23 would do
    (LayoutRequest(min_stops=22, max_stops=22, snow=2), False),
    (LayoutRequest(min_stops=22, max_stops=22, frame=False), False),
    (LayoutRequest(min_stops=22, max_stops=22, start=(6, 6)), False),  # an interior start: any axis
    (LayoutRequest(min_stops=21, max_stops=21, start=(5, 0)), True),  # left column to top row: even
    (LayoutRequest(min_stops=22, max_stops=22, start=(0, 2), goal=(0, 3)), False),  # side by side
])
def test_parity_bound_applies_where_its_argument_holds(request_, applies):
    assert (bounds.parity(request_) is not None) == applies


def test_parity_proof_is_immediate_and_says_why():
    with pytest.raises(DesignFailed, match="min stops is odd") as info:
        design(LayoutRequest(min_stops=22, max_stops=22), time_limit=60)
    assert info.value.reason == "infeasible"


def test_resting_cells_bound():
    # 6x6 with a frame: 16 inner cells, 4 places for the start and 4 for the goal
    assert "at most 24 different cells" in bounds.resting_cells(LayoutRequest(height=6, width=6, min_stops=24))
    assert bounds.resting_cells(LayoutRequest(height=6, width=6, min_stops=23)) is None


# --- a fixed layout: every start and goal ------------------------------------------------------

def best_by_brute_force(request: LayoutRequest) -> int:
    base = np.full((request.height, request.width), ROCK, np.uint8)
    for cell in request.free_cells():
        base[cell] = ICE
    best = -1
    for s in request.start_cells():
        for g in request.goal_cells():
            terrain = base.copy()
            terrain[s] = terrain[g] = ICE
            report = analyze(Level(terrain, s, g))
            if report.solvability == "strong" and report.reversible:
                best = max(best, report.min_stops)
    return best


def test_no_rocks_is_decided_by_trying_every_start_and_goal():
    request = LayoutRequest(height=7, width=9, min_stops=1, max_rocks=0)
    found = design(request, maximize=True, time_limit=30)
    assert found.generator.stage == "endpoints" and found.generator.proven_optimal is True
    assert found.min_stops == best_by_brute_force(request)
    assert not (found.level.terrain[1:-1, 1:-1] == ROCK).any()
    with pytest.raises(DesignFailed, match="every start and goal tried") as info:
        design(LayoutRequest(height=7, width=9, min_stops=found.min_stops + 1, max_rocks=0), time_limit=30)
    assert info.value.reason == "infeasible"
    easy = design(LayoutRequest(min_stops=1, max_rocks=0), time_limit=30)
    assert easy.generator.stage == "endpoints" and easy.min_stops >= 1
