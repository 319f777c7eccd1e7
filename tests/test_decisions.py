"""Decisions by default (designer.search.decisions): a level that meets its request is then raised
in the choices a player has at each stop, unless --first asks for the first level found."""

import json

import numpy as np
import pytest

from designer.analysis.graph import analyze
from designer.core import kernels
from designer.core import kernel_anneal
from designer.core.request import LayoutRequest
from designer.search.decisions import decisions_milli
from designer.search.design import design
from designer.search.engines import anneal
from designer.core.budget import Budget

needs_compiled = pytest.mark.skipif(not kernel_anneal.can_anneal(), reason="the chains need the compiled kernels")


@needs_compiled
@pytest.mark.parametrize("seed", [1, 3])
def test_a_default_level_has_decisions_at_its_stops(seed):
    found = design(LayoutRequest(min_stops=25), seed=seed)
    a = found.analysis
    assert a.min_stops >= 25
    assert a.per_stop >= 1.7 and a.rail_stops <= 0.2 * a.min_stops
    assert found.generator.stage.endswith(", then decisions")
    assert found.generator.improved.startswith("decisions for ")
    assert found.generator.options == a.options and found.generator.rail_stops == a.rail_stops


@needs_compiled
def test_first_returns_the_first_level_found_and_the_same_seed_the_same_level():
    plain = design(LayoutRequest(min_stops=25, first=True), seed=3)
    assert plain.generator.stage == "climb" and plain.generator.improved is None
    raised = design(LayoutRequest(min_stops=25), seed=3)
    assert raised.analysis.per_stop > plain.analysis.per_stop
    assert design(LayoutRequest(min_stops=25), seed=3).level == raised.level  # a budget of steps, not seconds


@needs_compiled
def test_the_request_still_holds_after_the_decisions():
    request = LayoutRequest(height=10, width=10, min_stops=12, max_stops=13, min_choices=15)
    found = design(request, seed=2)
    a = found.analysis
    assert 12 <= a.min_stops <= 13 and a.options >= 15
    unique = design(LayoutRequest(height=10, width=10, min_stops=10, unique=True), seed=1)
    assert unique.analysis.solutions == 1


def test_nothing_is_improved_when_the_request_maximizes_or_names_another_method():
    cpsat = design(LayoutRequest(height=7, width=8, min_stops=9), seed=1, method="cpsat")
    assert cpsat.generator.stage == "cp-sat" and cpsat.generator.improved is None
    most = design(LayoutRequest(height=4, width=5, frame=False, min_stops=1, max_rocks=2), maximize=True,
                  time_limit=20)
    assert most.generator.improved is None


@needs_compiled
def test_the_decisions_chain_never_keeps_a_level_short_of_the_floor():
    request = LayoutRequest(min_stops=20, first=True)
    start = design(request, seed=5)
    rng = np.random.default_rng(0)
    level, score = anneal.search(request, start.level, start.min_stops, rng, Budget(30), 2,
                                 objective="decisions", steps=20_000)
    a = analyze(level)
    assert a.min_stops >= 20 and score == decisions_milli(a.options, a.rail_stops, a.min_stops)


@needs_compiled
def test_a_chain_whose_best_stops_rising_ends_before_its_steps():
    """A small grid's decisions are at their best within a few slices: the chain ends when its
    best has not risen for ``stall`` steps, long before its 500 million steps (which would take
    minutes), with the level it would have kept."""
    from designer.search.engines.anneal import run_steps, LayoutChain, _closed
    from designer.search.tuning import SLICE_STEPS

    request = LayoutRequest(7, 7, min_stops=8, first=True)
    start = design(request, seed=1)
    terrain = _closed(start.level, request)
    chain = LayoutChain.start_from(terrain, start.level, start.min_stops, 7)
    budget = Budget(120, clock="cpu")
    run_steps(request, chain, budget, 500_000_000, None, np.zeros(1, np.int32),
              anneal.choice_conditions(request, "decisions"), 1000 / 8, stall=4 * SLICE_STEPS)
    assert not budget.expired() and budget.now() - budget.t0 < 60
    assert chain.best[0] >= 0


def test_make_first_and_the_record(tmp_path, capsys):
    from designer.cli import main

    target = tmp_path / "level.json"
    assert main(["make", "--min-stops", "12", "--size", "9x9", "--first", "--format", "json", "-o", str(target)]) == 0
    record = json.loads(target.read_text())["generator"]
    assert record["request"]["first"] is True and "improved" not in record
    again = tmp_path / "again.json"
    assert main(["make", "--from", str(target), "--format", "json", "-o", str(again)]) == 0
    assert json.loads(again.read_text())["generator"]["stage"] == record["stage"]
    assert main(["make", "--from", str(target), "--first"]) == 2
    assert "--first does not go with --from" in capsys.readouterr().err
