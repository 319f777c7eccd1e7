"""docs/model_study.py: every variant of the model answers each pair as the model does (the
reformulations exactly; a relaxation may find a level the model refuses, never the reverse)."""

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

from designer.analysis import bounds
from designer.core.request import LayoutRequest
from designer.models.cpsat import build_model
from designer.models.symmetry import end_pairs

spec = importlib.util.spec_from_file_location("model_study", Path(__file__).parent.parent / "docs" / "model_study.py")
study = importlib.util.module_from_spec(spec)
spec.loader.exec_module(study)


@pytest.mark.parametrize("stops, expected", [(7, "feasible"), (8, "infeasible")])  # 5x6 framed: at most 7
def test_every_variant_agrees_with_the_model(stops, expected):
    request = LayoutRequest(5, 6, min_stops=stops)
    verdicts = {variant: [] for variant in study.VARIANTS}
    for start, goal in end_pairs(request):
        sub = replace(request, start=start, goal=goal)
        floor = bounds.least_possible(sub, stops)
        for variant in study.VARIANTS:
            verdicts[variant].append(study.pose(variant, sub, floor, 30.0))
    model = verdicts["model"]
    assert set(model) == {expected}
    for variant in ("objective", "layered", "sat"):
        assert verdicts[variant] == model, variant
    for variant in study.RELAXED:
        assert all(r == "feasible" for m, r in zip(model, verdicts[variant]) if m == "feasible"), variant


def test_a_relaxation_drops_its_constraints_and_nothing_else():
    request = LayoutRequest(6, 6, min_stops=5, start=(5, 2), goal=(0, 3))
    size = {relax: len(build_model(request, relax=frozenset(relax)).model.proto.constraints)
            for relax in [(), ("strong",), ("reversible",), ("parents",)]}
    assert all(size[()] > size[relax] for relax in size if relax)
    with pytest.raises(ValueError, match="unknown relaxation 'symmetry'"):
        build_model(request, relax=frozenset({"symmetry"}))


def test_the_study_prints_its_table(capsys):
    study.main(["--size", "5x5", "--min-stops", "8", "--variants", "model,sat", "--pairs", "1,2"])
    out = capsys.readouterr().out
    assert out.startswith("5x5, K=8, 2 pairs")
    assert "| pair | model | sat |" in out and out.count("infeasible") == 4


@pytest.mark.parametrize("args, says", [(["--size", "3x"], "not of the form HxW"),
                                        (["--size", "50x50"], "at most 40 per side"),
                                        (["--variants", "model,nope"], "unknown variant 'nope'")])
def test_bad_input_is_one_line_and_status_2(args, says, capsys):
    with pytest.raises(SystemExit) as ended:
        study.main(args)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
