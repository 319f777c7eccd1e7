import json

import pytest
from conftest import one_error_line

from designer.analysis.graph import analyze
from designer.search.engines.baselines import generate
from designer.cli import main
from designer.studies.compare import compare
from designer.search.result import DesignFailed
from designer.core.level import Level
from designer.core.request import LayoutRequest
from test_design import check

REQUESTS = [
    LayoutRequest(min_stops=10),
    LayoutRequest(height=8, width=8, frame=False, min_stops=6),
    LayoutRequest(height=10, width=10, min_stops=8, start=(9, 3), goal=(0, 6)),
]


@pytest.mark.parametrize("method", ["random", "repair", "greedy"])
@pytest.mark.parametrize("request_", REQUESTS, ids=["12x12", "no-frame", "pinned"])
def test_baseline_output_verifies(method, request_):
    found = generate(method, request_, seed=2, time_limit=30)
    check(request_, found.level)
    assert found.generator.method == method


@pytest.mark.parametrize("method", ["random", "repair", "greedy"])
def test_a_baseline_that_finds_nothing_says_so(method):
    with pytest.raises(DesignFailed) as info:
        generate(method, LayoutRequest(min_stops=70), seed=1, time_limit=0.5)
    assert info.value.reason == "time limit" and method in str(info.value)


def test_comparison_numbers_agree_with_reverifying_its_levels():
    result = compare(LayoutRequest(height=9, width=9), [6, 60], [1], budget=0.5, keep_levels=True)
    assert set(result["methods"]) == {"auto", "cpsat", "cpsat-ends", "sat", "random", "repair", "greedy"}
    for run in result["runs"]:
        if not run["success"]:
            continue
        report = analyze(Level.from_rows(run["level"]))
        assert report.solvability == "strong" and report.reversible
        assert report.min_stops == run["min_stops"] >= run["min_stops_target"]
    for method, summary in result["methods"].items():
        mine = [r for r in result["runs"] if r["method"] == method]
        assert summary["attempts"] == len(mine) == 2  # failures are counted, never dropped
        assert summary["successes"] == sum(r["success"] for r in mine)
        assert summary["best_min_stops"] == max((r["min_stops"] for r in mine if r["success"]), default=None)
        at_60 = result["by_min_stops"]["60"][method]
        assert at_60["attempts"] == 1 and at_60["successes"] == 0 and at_60["median_seconds"] is None


def test_compare_command_json_and_plot(capsys, tmp_path):
    plot = tmp_path / "plot.png"
    status = main(["compare", "--min-stops", "8", "--budget", "1", "--seeds", "1", "--size", "9x9", "--json",
                   "--plot", str(plot)])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert status == 0 and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for method in ("auto", "cpsat", "cpsat-ends", "random", "repair", "greedy"):
        assert {"attempts", "successes", "median_seconds", "max_seconds", "best_min_stops"} <= set(data["methods"][method])
    status = main(["compare", "--min-stops", "8", "--budget", "1", "--seeds", "1", "--plot", str(plot)])
    _, err = capsys.readouterr()
    assert status == 2 and "already exists" in err


@pytest.mark.parametrize("args, words", [
    (["compare", "--methods", "cpsat,magic"], "unknown method magic"),
    (["compare", "--min-stops", "ten"], "not a number"),
    (["make", "--method", "random", "--maximize"], "--maximize needs --method auto, cpsat, cpsat-ends or sat"),
])
def test_compare_and_method_refusals(capsys, args, words):
    status = main(args)
    _, err = capsys.readouterr()
    assert status == 2 and words in err and one_error_line(err)


def test_make_with_a_baseline_method(capsys):
    status = main(["make", "--method", "repair", "--min-stops", "10", "--seed", "3", "--format", "json"])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert status == 0 and data["generator"]["method"] == "repair" and data["analysis"]["min_stops"] >= 10
