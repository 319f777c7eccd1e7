"""``auto``'s portfolio: the model from the first second beside the climb and the annealing.
The first verified level wins, whoever found it; a proof from the model ends both sides at once;
when the other side gives up, the model goes on with every worker. The searches are replaced by
stand-ins here, so that each test decides which side wins and checks what the other saw."""

import threading

import pytest

from designer.core.request import LayoutRequest
from designer.search import design as policy
from designer.search import policies, race
from designer.search.result import DesignFailed
from designer.search.state import StageResult

REQUEST = LayoutRequest(height=6, width=6, min_stops=11)  # infeasible: the model proves it


@pytest.fixture(autouse=True)
def beside_the_model(monkeypatch):
    """These small framed grids go to the SAT loop after sampling (``reach.refutes``); here they
    take the portfolio that larger grids take, whose workings these tests are about."""
    from designer.search import tuning

    monkeypatch.setattr(tuning, "REFUTE_CELLS", 0)


def test_a_proof_from_the_model_ends_the_climb_at_once(monkeypatch):
    seen = {}

    def climb_until_stopped(search, goal, budget, **_):
        budget.ended.wait(30)  # the climb's share is half a minute: only a cancel ends it sooner
        seen["cancelled"] = budget.cancelled()
        return StageResult()

    monkeypatch.setattr(race, "climb_stage", climb_until_stopped)
    monkeypatch.setattr(race, "anneal_stage", lambda *a, **k: StageResult())
    with pytest.raises(DesignFailed) as failed:
        policy.design(REQUEST, time_limit=60, workers=2)
    assert failed.value.reason == "infeasible" and seen == {"cancelled": True}


def test_the_climbs_level_ends_the_model_at_once(monkeypatch):
    from designer.formats.level_files import parse_level

    level = parse_level("#G####\n#...##\n#....#\n#....#\n#....#\n#S####\n")  # whatever the climb returns
    seen, searching = {}, threading.Event()

    def climb_finds(search, goal, budget, **_):
        searching.wait(30)  # the model is searching
        return StageResult(search.verify(level, "climb"))

    def model_until_stopped(search, goal, budget, **_):
        searching.set()
        budget.ended.wait(30)
        seen["cancelled"] = budget.cancelled()
        return StageResult()

    easy = LayoutRequest(height=6, width=6, min_stops=1, first=True)
    monkeypatch.setattr(policies, "sample_stage", lambda search, goal: StageResult(pool=((1, level),)))
    monkeypatch.setattr(race, "climb_stage", climb_finds)
    monkeypatch.setattr(race, "model_stage", model_until_stopped)
    monkeypatch.setattr(race, "MODEL_HEAD_START", 0.0)
    found = policy.design(easy, time_limit=60, workers=2)
    assert found.level == level and found.generator.stage == "climb" and seen == {"cancelled": True}


def test_the_model_gets_every_worker_once_the_other_side_gives_up(monkeypatch, wall_clock):
    from designer.models import solve as model_solve

    counts = []
    real = model_solve.new_solver

    def counting(seed, seconds, workers, **options):
        counts.append(workers)
        return real(seed, seconds, workers, **options)

    gave_up = threading.Event()

    def climb_gives_up(search, goal, budget, **_):
        budget.ended.wait(1.5)  # the model has started on one worker meanwhile
        gave_up.set()
        return StageResult()

    monkeypatch.setattr(model_solve, "new_solver", counting)
    monkeypatch.setattr(race, "climb_stage", climb_gives_up)
    monkeypatch.setattr(race, "anneal_stage", lambda *a, **k: StageResult())
    with pytest.raises(DesignFailed):
        policy.design(LayoutRequest(height=7, width=7, min_stops=15), time_limit=4, workers=2)  # proof: 9 s
    assert gave_up.is_set() and counts[0] == 1 and 2 in counts


def test_one_worker_runs_the_stages_one_after_another(monkeypatch):
    started = []
    monkeypatch.setattr(policies, "meet_beside_model", lambda search: started.append(search) or None)
    with pytest.raises(DesignFailed):
        policy.design(REQUEST, time_limit=3, workers=1)
    assert started == []


NINE = "###G##\n##..##\n#....#\n#..#.#\n###..#\n###S##\n"  # 6x6 with a frame: 9 stops, the most there are


def test_maximizing_the_models_bar_follows_the_other_side_and_its_proof_ends_both(monkeypatch):
    from designer.formats.level_files import parse_level

    level, seen = parse_level(NINE), {}

    def climb_finds_the_best(search, goal, budget, **_):
        search.absorb(StageResult(search.verify(level, "climb")))
        budget.ended.wait(30)  # then climbs on: only the model's proof ends it sooner
        seen["cancelled"] = budget.cancelled()
        return StageResult()

    monkeypatch.setattr(race, "climb_stage", climb_finds_the_best)
    monkeypatch.setattr(race, "anneal_stage", lambda *a, **k: StageResult())
    found = policy.design(LayoutRequest(height=6, width=6, min_stops=1), maximize=True, time_limit=60, workers=2)
    assert found.level == level and found.generator.proven_optimal and found.generator.stage == "climb"
    assert seen == {"cancelled": True} and found.generator.stage_seconds["cp-sat"] < 30


def test_maximizing_a_small_room_is_proven_optimal():
    found = policy.design(LayoutRequest(height=6, width=6, min_stops=1), maximize=True, time_limit=60, workers=2, seed=3)
    assert found.min_stops == 9 and found.generator.proven_optimal
