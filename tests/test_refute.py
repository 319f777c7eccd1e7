"""The proof engine by refutation (designer.models.refute): its explanations, checked against an
independent reader of the rules (tests/oracle.py) on random completions of their literals; its
compiled kernel against the Python twin; its verdicts against CP-SAT and the exhaustive search."""

from __future__ import annotations

import random

import numpy as np
import pytest

from designer.core import kernels
from designer.core.explain import refute_checker
from designer.core.budget import Budget
from designer.core.errors import DesignerError
from designer.core.request import LayoutRequest
from designer.models.refute import KINDS, Refuter, declines
from designer.search.design import design
from designer.search.result import DesignFailed
from conftest import needs_compiled
from oracle import naive_class, walk

CHARS = {0: ".", 1: "#", 2: "_"}


def random_problem(rng: random.Random, routes: int = 1):
    """A random grid (framed or open, some fixed snow and rock), its free cells' variables, one
    or more routes (a room's doors: the other ends are ice), and a random layout as a model."""
    h, w = rng.randint(4, 8), rng.randint(4, 8)
    framed = routes == 1 and rng.random() < 0.5
    cells = [(r, c) for r in range(h) for c in range(w)]
    if framed:
        ends = [(h - 1, rng.randint(1, w - 2)), (0, rng.randint(1, w - 2))]
    else:
        ends = rng.sample(cells, routes + 1)
    base = np.zeros((h, w), np.uint8)
    var = np.zeros((h, w), np.int32)
    count = 0
    for r, c in cells:
        if (r, c) in ends:
            continue
        if framed and (r in (0, h - 1) or c in (0, w - 1)):
            base[r, c] = 1
        elif rng.random() < 0.08:
            base[r, c] = rng.choice((1, 2))  # a template's drawn rock or snow
        else:
            count += 1
            var[r, c] = count
    pairs = [(ends[0], ends[k]) for k in range(1, len(ends))]
    flat = [[s[0] * w + s[1], g[0] * w + g[1], rng.randint(1, 14)] for s, g in pairs]
    density = rng.choice((0.15, 0.3, 0.45))
    model = [v if rng.random() < density else -v for v in range(1, count + 1)]
    return base, var, np.array(flat, np.int32), model


def explain(base, var, routes, model):
    out = np.zeros(4 + base.size, np.int32)
    written = refute_checker(base, var, routes)(model, out)
    return None if written < 0 else (KINDS[out[0]], int(out[1]), int(out[2]), out[4:4 + out[3]].tolist())


def rows_of(base, var, literals: dict, rng: random.Random, start, goal) -> list[str]:
    """A random completion of ``literals`` as canonical rows, with ``start`` and ``goal`` marked."""
    rows = []
    for r in range(base.shape[0]):
        row = ""
        for c in range(base.shape[1]):
            v = int(var[r, c])
            tile = (1 if literals[v] > 0 else 0) if v in literals else (rng.random() < 0.35 if v else base[r, c])
            row += "S" if (r, c) == start else "G" if (r, c) == goal else CHARS[int(tile)]
        rows.append(row)
    return rows


def naive_stops(rows: list[str], start, goal) -> int | None:
    """Fewest moves by breadth-first search over the oracle's slides (None: unsolvable)."""
    frontier, seen, depth = [start], {start}, 0
    while frontier:
        if goal in frontier:
            return depth
        depth += 1
        following = []
        for cell in frontier:
            if cell == goal:
                continue
            for letter in "udlr":
                step = walk(rows, cell, letter, goal)
                if step is not None and step[0] not in seen:
                    seen.add(step[0])
                    following.append(step[0])
        frontier = following
    return None


def test_every_kind_of_explanation_holds_on_random_completions_of_its_literals():
    """Soundness: a short clause's layouts all have a way of fewer than K moves; a trap clause's
    are all weak or unsolvable; a back clause's are none reversible (by the oracle)."""
    rng = random.Random(43)
    seen = {kind: 0 for kind in KINDS}
    trials = 0
    while min(seen.values()) < 40 and trials < 40000:
        trials += 1
        base, var, routes, model = random_problem(rng, routes=rng.choice((1, 1, 2)))
        found = explain(base, var, routes, model)
        if found is None:
            continue
        kind, route, detail, lits = found
        if kind != "back" and seen[kind] >= 200:
            continue
        seen[kind] += 1
        w = base.shape[1]
        start, goal, K = (int(x) for x in routes[route])
        start, goal = divmod(start, w), divmod(goal, w)
        literals = {abs(lit): lit for lit in lits}
        for _ in range(12):
            rows = rows_of(base, var, literals, rng, start, goal)
            if kind == "short":
                stops = naive_stops(rows, start, goal)
                assert stops is not None and stops <= detail < K, (rows, lits)
            elif kind == "trap":
                assert naive_class(rows)[0] != "strong", (rows, lits)
            else:
                assert naive_class(rows)[1] is False, (rows, lits)
    assert min(seen.values()) >= 40, seen
    assert seen["short"] == seen["trap"] == 200, seen


def test_the_compiled_kernel_and_its_twin_give_the_same_clause():
    if "compiled" not in kernels.available():
        pytest.skip("the compiled kernels are not built here")
    rng = random.Random(7)
    for _ in range(600):
        base, var, routes, model = random_problem(rng, routes=rng.choice((1, 2, 3)))
        with kernels.use("compiled"):
            compiled = explain(base, var, routes, model)
        with kernels.use("python"):
            twin = explain(base, var, routes, model)
        assert compiled == twin


def test_a_layout_that_passes_is_a_level_the_analysis_agrees_with():
    from designer.analysis.classify import classify

    request = LayoutRequest(6, 6, min_stops=8)
    with Refuter(request, [((5, 2), (0, 3), 8)]) as refuter:
        found = refuter.run(Budget(30))
        assert found.verdict == "witness"
        result = classify(found.level)
        assert result.solvability == "strong" and result.reversible and result.min_stops >= 8
        refuter.raise_floor(result.min_stops + 1)  # every clause kept: on to the proof
        while (found := refuter.run(Budget(30))).verdict == "witness":
            refuter.raise_floor(classify(found.level).min_stops + 1)
        assert found.verdict == "proof" and found.rounds > 0


def proven_best(request, method, seconds=120.0):
    found = design(request, method=method, maximize=True, time_limit=seconds, workers=2)
    assert found.generator.proven_optimal, (method, found.generator)
    return found.min_stops


@pytest.mark.parametrize("size", [5, 6])
def test_framed_optima_agree_with_cp_sat(size):
    request = LayoutRequest(size, size, min_stops=1)
    assert proven_best(request, "sat") == proven_best(request, "cpsat-ends")


@pytest.mark.parametrize("request_", [LayoutRequest(5, 5, frame=False, min_stops=1, max_rocks=3),
                                      LayoutRequest(6, 6, frame=False, min_stops=1, max_rocks=2)],
                         ids=["open 5x5, 3 rocks", "open 6x6, 2 rocks"])
def test_open_optima_agree_with_the_exhaustive_search(request_):
    exhaustive = design(request_, maximize=True, time_limit=20, workers=2)  # auto: the exhaustive search
    assert "exhaustive" in exhaustive.generator.stage_seconds and exhaustive.generator.proven_optimal
    assert proven_best(request_, "sat") == exhaustive.min_stops


def test_seven_by_seven_has_no_level_of_fifteen_and_one_of_thirteen():
    """The documented 7x7 optimum (docs/model.md): 13 stops, 15 infeasible (14 is ruled out by
    parity for every pair)."""
    with pytest.raises(DesignFailed) as failed:
        design(LayoutRequest(7, 7, min_stops=15), method="sat", time_limit=120, workers=2)
    assert failed.value.reason == "infeasible"
    assert design(LayoutRequest(7, 7, min_stops=13), method="sat", time_limit=120, workers=2).min_stops >= 13


ROOM = ("#####1##",
        "#??????#",
        "#??????#",
        "2??????#",
        "#??????#",
        "#??????3",
        "#??????#",
        "########")


@pytest.mark.parametrize("floor", [9, 14])
@pytest.mark.slow
def test_a_room_with_three_doors_gets_the_verdict_cp_sat_gives(floor):
    request = LayoutRequest(8, 8, frame=False, min_stops=floor, template=ROOM)
    verdicts = []
    for method, workers in (("sat", 2), ("cpsat", 1)):  # CP-SAT's proof on one worker: as fast, half the work
        try:
            found = design(request, method=method, time_limit=120, workers=workers)
            verdicts.append("level")
            assert found.level is not None
        except DesignFailed as failed:
            verdicts.append(failed.reason)
    assert verdicts[0] == verdicts[1] and verdicts[0] in ("level", "infeasible"), verdicts


def test_what_it_cannot_serve_it_declines_and_method_sat_says_so_in_one_line():
    assert declines(LayoutRequest(8, 8, min_stops=10, snow=2)) == "it places no snow"
    assert "ceiling" in declines(LayoutRequest(8, 8, min_stops=10, max_stops=12))
    assert declines(LayoutRequest(8, 8, min_stops=10, items=1)) is not None
    assert declines(LayoutRequest(8, 8, min_stops=10, max_rocks=6)) is None
    with pytest.raises(DesignerError, match="method sat cannot serve this request: it places no snow"):
        design(LayoutRequest(8, 8, min_stops=10, snow=2), method="sat", time_limit=5)


def test_a_rock_budget_holds_in_the_solver():
    request = LayoutRequest(7, 7, min_stops=6, max_rocks=3)
    found = design(request, method="sat", time_limit=60, workers=1)
    assert int((found.level.terrain[1:-1, 1:-1] == 1).sum()) <= 3


def test_meeting_k_the_loop_gives_the_same_level_run_after_run():
    request = LayoutRequest(7, 7, min_stops=13)
    levels = {str(design(request, method="sat", time_limit=60, workers=2).level) for _ in range(3)}
    assert len(levels) == 1


@needs_compiled
def test_auto_proves_small_walled_grids_with_the_loop_and_keeps_the_model_elsewhere():
    small = design(LayoutRequest(6, 6, min_stops=1), maximize=True, time_limit=60, workers=2)
    assert "sat loop" in small.generator.stage_seconds and small.generator.proven_optimal
    with kernels.use("python"):  # on the twin the loop is slow: the CP-SAT model proves it
        twin = design(LayoutRequest(6, 6, min_stops=1), maximize=True, time_limit=60, workers=2)
    assert "sat loop" not in twin.generator.stage_seconds and twin.generator.proven_optimal
    assert twin.min_stops == small.min_stops == 9
    open_grid = design(LayoutRequest(5, 6, frame=False, min_stops=1), maximize=True, time_limit=5, workers=2)
    assert "sat loop" not in open_grid.generator.stage_seconds
