"""Packs of distinct levels (designer.search.packs): every level a request allows can be made, and
a proof that no level is left is true. The model and the SAT loop pose one of each mirror pair,
so a pack's earlier levels leave their mirror images unposed; a pack must still reach them.

The space is counted here by an independent reader of the rules (tests/oracle.py)."""

from __future__ import annotations

import itertools
from collections import deque

import pytest

from designer.core.request import LayoutRequest
from designer.search.job import DesignJob
from designer.search.packs import design_pack
from designer.search.result import DesignFailed
from conftest import needs_compiled
from oracle import naive_class, reachable


def oracle_min_stops(rows: list[str]) -> int | None:
    start = next((r, row.index("S")) for r, row in enumerate(rows) if "S" in row)
    goal = next((r, row.index("G")) for r, row in enumerate(rows) if "G" in row)
    graph = reachable(rows, start, goal)
    depth, todo = {start: 0}, deque([start])
    while todo:
        cell = todo.popleft()
        if cell == goal:
            return depth[cell]
        for nxt in graph.get(cell, ()):
            if nxt not in depth:
                depth[nxt] = depth[cell] + 1
                todo.append(nxt)
    return None


def every_level(height: int, width: int, min_stops: int) -> set[str]:
    """Every strong, reversible framed level of rocks and ice with at least ``min_stops``, as
    text: the start on the bottom wall, the goal on the top one, as the request's frame has them."""
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    found = set()
    for rocks in itertools.product("#.", repeat=len(inner)):
        grid = [["#"] * width for _ in range(height)]
        for (r, c), ch in zip(inner, rocks):
            grid[r][c] = ch
        for s, g in itertools.product(range(1, width - 1), repeat=2):
            rows = [list(row) for row in grid]
            rows[height - 1][s], rows[0][g] = "S", "G"
            text = ["".join(row) for row in rows]
            if (oracle_min_stops(text) or 0) >= min_stops and naive_class(text) == ("strong", True):
                found.add("\n".join(text))
    return found


@needs_compiled
@pytest.mark.parametrize("method", ["sat", "auto", "cpsat", "cpsat-ends"])
def test_a_pack_makes_every_level_then_proves_no_other_is_left(method):
    space = every_level(5, 5, 7)
    assert len(space) == 2  # one level and its mirror image
    request = LayoutRequest(5, 5, min_stops=7)
    made = []
    with pytest.raises(DesignFailed) as failed:
        for found in design_pack(DesignJob(request, method=method, time_limit=60, workers=1), len(space) + 1):
            made.append(found)
    assert {str(found.level) for found in made} == space
    assert failed.value.reason == "infeasible"
    assert f"level {len(space) + 1} of {len(space) + 1}: proven infeasible" in str(failed.value)
    assert "other than the 2 made before and their mirror images" in str(failed.value)


@needs_compiled
def test_the_sat_loops_pack_reaches_all_74_levels_of_six_by_six_and_nine_stops():
    """74: the count of an independent reader's enumeration (the audit of issue 49); before, the
    loop stopped at 37, one of each mirror pair, with a false proof."""
    request = LayoutRequest(6, 6, min_stops=9)
    made = []
    with pytest.raises(DesignFailed, match="other than the 74 made before"):
        for found in design_pack(DesignJob(request, method="sat", time_limit=60, workers=1), 75):
            made.append(found)
    texts = {str(found.level) for found in made}
    assert len(texts) == 74
    for text in texts:
        rows = text.split("\n")
        assert naive_class(rows) == ("strong", True) and oracle_min_stops(rows) >= 9
        assert "\n".join(row[::-1] for row in rows) in texts  # closed under the mirror
