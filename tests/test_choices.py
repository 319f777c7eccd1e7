"""Choices along the solution (source 000's second measure): --min-choices, --unique and
--maximize-choices, every level verified by the one verifier, which recounts them."""

import json

import pytest
from conftest import EXAMPLES, needs_compiled

from designer.analysis.graph import analyze
from designer.analysis.verify import failure
from designer.cli import main
from designer.core import kernels
from designer.core.errors import DesignerError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.formats.level_files import read_level
from designer.search.design import design


def test_the_verifier_counts_options_and_solutions():
    level = read_level(EXAMPLES / "strong-reversible.txt")
    report = analyze(level)
    size = {"height": level.height, "width": level.width}
    assert failure(LayoutRequest(**size, min_stops=1), level, report) is None
    assert "options along the solution, fewer than" in failure(
        LayoutRequest(**size, min_stops=1, min_choices=report.options + 1), level, report)
    assert failure(LayoutRequest(**size, min_stops=1, min_choices=report.options), level, report) is None
    assert report.solutions == 1 and failure(LayoutRequest(**size, min_stops=1, unique=True), level, report) is None
    two = Level.from_ascii("#####\n#G..#\n#...#\n#..S#\n#####")  # up-left or left-up
    assert analyze(two).solutions == 2
    assert "2 fewest-moves solutions, not exactly one" == failure(
        LayoutRequest(height=5, width=5, frame=False, min_stops=1, unique=True), two)


@needs_compiled
def test_min_choices_is_a_guarantee():
    request = LayoutRequest(min_stops=21, max_stops=21, min_choices=34)
    found = design(request, seed=1, time_limit=60)
    report = analyze(found.level)
    assert report.min_stops == 21 and report.options >= 34 and report.solvability == "strong" and report.reversible
    record = found.generator
    assert (record.options, record.rail_stops, record.solutions) == (report.options, report.rail_stops,
                                                                      report.solutions)


@needs_compiled
def test_unique_gives_one_fewest_moves_solution():
    found = design(LayoutRequest(min_stops=25, unique=True), seed=2, time_limit=60)
    report = analyze(found.level)
    assert report.solutions == 1 and report.min_stops >= 25


@needs_compiled
def test_maximize_choices_keeps_the_band_and_raises_the_options():
    request = LayoutRequest(min_stops=15, max_stops=15)
    plain = design(request, seed=3, time_limit=20)
    found = design(request, seed=3, time_limit=3, maximize_choices=True)
    report = analyze(found.level)
    assert report.min_stops == 15 and report.options >= analyze(plain.level).options
    assert found.generator.maximize_choices and not found.generator.maximize
    assert found.generator.proven_optimal is False and found.generator.options == report.options


@needs_compiled
def test_maximize_with_a_floor_on_choices():
    found = design(LayoutRequest(min_stops=15, min_choices=25), seed=1, time_limit=4, maximize=True)
    report = analyze(found.level)
    assert report.options >= 25 and report.min_stops >= 15 and found.generator.maximize


def test_counting_choices_needs_the_compiled_chains_and_says_so():
    with kernels.use("python"):
        with pytest.raises(DesignerError, match="compiled kernels"):
            design(LayoutRequest(min_stops=5, min_choices=3), time_limit=5)
        found = design(LayoutRequest(height=8, width=8, min_stops=5, unique=True), seed=1, time_limit=30)
    assert analyze(found.level).solutions == 1


@pytest.mark.parametrize("args, words", [
    (["--maximize", "--maximize-choices"], "two objectives"),
    (["--method", "cpsat", "--min-choices", "10"], "does not count choices"),
    (["--method", "cpsat", "--unique"], "does not count choices"),
    (["--method", "random", "--maximize-choices"], "--maximize-choices needs --method auto"),
    (["--min-choices", "-1"], "--min-choices must not be negative"),
])
def test_refusals_are_one_line(capsys, args, words):
    assert main(["make", *args, "--time-limit", "5"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@needs_compiled
def test_a_choices_level_designs_itself_again(tmp_path, capsys):
    first = tmp_path / "first.json"
    assert main(["make", "--min-stops", "19", "--max-stops", "19", "--min-choices", "28", "--unique", "--seed", "4",
                 "--format", "json", "-o", str(first)]) == 0
    err = capsys.readouterr().err
    assert "options (" in err and "1 fewest-moves solution" in err
    level = json.loads(first.read_text())
    assert level["generator"]["request"]["min_choices"] == 28 and level["generator"]["request"]["unique"] is True
    assert level["analysis"]["branching"]["options"] >= 28 and level["analysis"]["solutions"] == 1
    assert main(["make", "--from", str(first), "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["generator"]["request"] == level["generator"]["request"]
    assert again["analysis"]["branching"]["options"] >= 28 and again["analysis"]["solutions"] == 1


# --- the Pareto front ------------------------------------------------------------------------------

@needs_compiled
def test_pareto_prints_a_front_none_dominated_and_every_level_verified(tmp_path, capsys):
    from designer.formats.level_files import read_levels
    from designer.formats.level_json import level_from_json
    from designer.studies.pareto import Point, dominates

    out, plot = tmp_path / "front", tmp_path / "front.png"
    assert main(["pareto", "--size", "9x9", "--time-limit", "8", "--seed", "1", "--json", "--out", str(out),
                 "--plot", str(plot)]) == 0
    captured = capsys.readouterr()
    front = json.loads(captured.out)["front"]
    assert front and "none dominated" in captured.err
    points = []
    for item in front:
        report = analyze(level_from_json(item["level"]))
        assert report.solvability == "strong" and report.reversible
        assert (report.min_stops, report.options) == (item["min_stops"], item["options"])
        points.append(Point(report.min_stops, report.options))
    assert [p.min_stops for p in points] == sorted(p.min_stops for p in points)
    assert not any(dominates(a, b) for a in points for b in points)
    files = read_levels(out)  # what render and play read
    assert [entry.name for entry in files] == [f"level-{k + 1:03d}" for k in range(len(front))]
    assert json.loads((out / "front.json").read_text()) == {"axis": "options", "front": front}
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_pareto_refuses_before_any_work(tmp_path, capsys):
    assert main(["pareto", "--time-limit", "5", "--plot", str(tmp_path / "front.gif")]) == 2
    assert "written as FILE.png" in capsys.readouterr().err
    taken = tmp_path / "taken.png"
    taken.write_bytes(b"x")
    assert main(["pareto", "--time-limit", "5", "--plot", str(taken)]) == 2
    assert "already exists" in capsys.readouterr().err and taken.read_bytes() == b"x"
    assert main(["pareto", "--size", "2x2", "--time-limit", "5"]) == 2
