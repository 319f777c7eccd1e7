"""--tidy: every rock and snow tile the designer places is needed, checked from scratch."""

import pytest
from conftest import needs_compiled

from designer.analysis.graph import analyze
from designer.search.design import design
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK, SNOW
from designer.analysis.tidy import spare_tiles, tidy
from designer.core.request import LayoutRequest


def assert_every_tile_needed(request: LayoutRequest, level: Level, floor: int) -> None:
    """Turn each placed tile into ice and analyse the result with networkx: it must fail."""
    placed = [c for c in request.free_cells() if level.terrain[c] in (ROCK, SNOW)]
    assert placed, "a level with no placed tile is trivially tidy; pick a request that needs some"
    for cell in placed:
        terrain = level.terrain.copy()
        terrain[cell] = ICE
        report = analyze(level.replace(terrain=terrain))
        holds = (report.solvability == "strong" and report.reversible and report.min_stops >= floor
                 and (request.max_stops is None or report.min_stops <= request.max_stops))
        assert not holds, f"the tile at {cell} is not needed:\n{level}"


@pytest.mark.parametrize("request_, method", [
    (LayoutRequest(min_stops=20, tidy=True), "auto"),
    (LayoutRequest(min_stops=12, max_stops=14, tidy=True), "auto"),
    (LayoutRequest(height=8, width=8, min_stops=10, snow=2, tidy=True), "auto"),
    (LayoutRequest(height=7, width=8, min_stops=9, tidy=True), "cpsat"),
], ids=["K20", "band", "snow", "model"])
def test_tidy_designs_need_every_tile(request_, method):
    found = design(request_, seed=2, time_limit=60, method=method)
    report = analyze(found.level)
    assert report.solvability == "strong" and report.reversible and report.min_stops >= request_.min_stops
    assert int((found.level.terrain == SNOW).sum()) == request_.snow
    assert_every_tile_needed(request_, found.level, request_.min_stops)


@needs_compiled  # a one-second maximize needs the compiled kernels to find anything
def test_tidy_when_maximizing_keeps_the_stops():
    request = LayoutRequest(height=6, width=6, min_stops=1, tidy=True)
    found = design(request, seed=1, maximize=True, time_limit=1)
    assert_every_tile_needed(request, found.level, found.min_stops)


def test_a_spare_rock_is_removed_and_a_spare_snow_tile_refused():
    request = LayoutRequest(height=5, width=5, min_stops=1)
    # the rock at (3, 3) stops nothing on the way S -> up -> G
    level = Level.from_ascii("##G##\n#...#\n#...#\n#..##\n##S##")
    assert spare_tiles(request, level, 1) == [(3, 3)]
    tidied = tidy(request, level, 1)
    assert str(tidied) == "##G##\n#...#\n#...#\n#...#\n##S##" and spare_tiles(request, tidied, 1) == []
    snowy = Level.from_ascii("##G##\n#...#\n#._.#\n#...#\n##S##")
    # snow at (2, 2) on the straight way up stops the player there, one more stop: needed at floor 2
    assert spare_tiles(request, snowy, 2) == []
    # at floor 1 it is spare, and under an exact snow count it cannot be tidied away
    assert tidy(LayoutRequest(height=5, width=5, min_stops=1, snow=1), snowy, 1) is None
