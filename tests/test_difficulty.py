"""Difficulty as a game asks for it: the presets (make --difficulty) and rising packs (--curve)."""

import json

import pytest
from conftest import one_error_line

from designer.analysis.graph import analyze
from designer.analysis.verify import failure
from designer.cli import main
from designer.formats.level_files import read_levels
from designer.core.curves import Curve
from designer.search.difficulty import PRESETS, banded


def curve_targets(low, high, count):
    return Curve("stops", low, high).targets(count)


def parse_curve(text):
    curve = Curve.parse(text, "stops")
    return curve.low, curve.high
from designer.core.request import LayoutRequest
from designer.core.errors import DesignerError


def made(tmp_path, capsys, *argv, name="level.json"):
    path = tmp_path / name
    assert main(["make", *argv, "--format", "json", "-o", str(path)]) == 0, capsys.readouterr().err
    return json.loads(path.read_text()), capsys.readouterr().err


@pytest.mark.parametrize("name, low, high", [("easy", 3, 5), ("medium", 6, 9), ("hard", 10, None)])
def test_the_banded_presets_are_source_003s_bands(tmp_path, capsys, name, low, high):
    for seed in (1, 2, 3):
        level, _ = made(tmp_path, capsys, "--difficulty", name, "--seed", str(seed), "--time-limit", "20",
                        name=f"{seed}.json")
        stops = level["solution"]["stops"]
        assert low <= stops and (high is None or stops <= high), (name, seed, stops)
        request = level["generator"]["request"]
        assert (request["min_stops"], request["max_stops"]) == (low, high)  # make --from poses the band again


def test_expert_is_the_longest_found_then_the_most_choices_and_runs_again_from_its_record(tmp_path, capsys):
    level, err = made(tmp_path, capsys, "--difficulty", "expert", "--size", "6x6", "--time-limit", "6")
    generator = level["generator"]
    assert generator["difficulty"] == "expert" and generator["stage"].startswith("expert: longest ")
    # 6x6 with a frame: 9 stops is the most there is (the model proves it in about a second)
    assert level["solution"]["stops"] == 9 and generator["proven_optimal"] is True
    assert "the longest there is (proven)" in err and "options" in err and generator["options"] >= 1
    assert main(["make", "--from", str(tmp_path / "level.json"), "--time-limit", "6", "--format", "json",
                 "-o", str(tmp_path / "again.json")]) == 0
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["generator"]["difficulty"] == "expert" and again["solution"]["stops"] == 9


def test_a_curve_rises_evenly_and_every_level_is_verified(tmp_path, capsys):
    out = tmp_path / "pack"
    assert main(["make", "--curve", "5..35", "--count", "7", "--out", str(out), "--format", "json"]) == 0
    levels = read_levels(out)
    assert [entry.name for entry in levels] == [f"level-{k:03d}" for k in range(1, 8)]  # play and render order
    stops = []
    for entry, target in zip(levels, curve_targets(5, 35, 7)):
        report = analyze(entry.level)
        assert abs(report.min_stops - target) <= 1
        request = LayoutRequest.from_json(entry.generator["request"])
        assert failure(request, entry.level, report) is None  # strong, reversible, in its band
        stops.append(report.min_stops)
    assert stops == sorted(stops) and len({entry.level for entry in levels}) == 7


def test_curve_targets_and_presets():
    assert curve_targets(5, 35, 7) == [5, 10, 15, 20, 25, 30, 35]
    assert curve_targets(3, 4, 4) == [3, 3, 4, 4]  # rising, give or take one where the steps are short
    assert curve_targets(9, 20, 1) == [9]
    assert parse_curve("5..35") == (5, 35)
    assert set(PRESETS) == {"easy", "medium", "hard", "expert"}
    assert banded(LayoutRequest(), "expert").min_stops == 1
    for text in ("5-35", "35..5", "0..3", "a..b"):
        with pytest.raises(DesignerError):
            parse_curve(text)


@pytest.mark.parametrize("argv, words", [
    (["--difficulty", "easy", "--min-stops", "4"], "--min-stops does not go with --difficulty"),
    (["--difficulty", "hard", "--maximize"], "--maximize does not go with --difficulty"),
    (["--difficulty", "nightmare"], "'nightmare' is not one of"),
    (["--difficulty", "easy", "--curve", "3..9"], "choose one"),
    (["--curve", "5..35", "--count", "3", "--out", "p", "--max-stops", "9"], "--max-stops does not go with --curve"),
    (["--curve", "35..5", "--count", "3", "--out", "p"], "needs 1 <= A <= B"),
    (["--difficulty", "expert", "--method", "cpsat"], "--difficulty expert needs --method auto"),
])
def test_refusals_are_one_line(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    assert main(["make", *argv]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err
    assert list(tmp_path.iterdir()) == []


def test_a_record_with_another_difficulty_is_one_line(tmp_path, capsys):
    level, _ = made(tmp_path, capsys, "--difficulty", "easy")
    level["generator"]["difficulty"] = "hard"  # the bands are requests of their own, never a record's
    (tmp_path / "edited.json").write_text(json.dumps(level))
    assert main(["make", "--from", str(tmp_path / "edited.json")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "'difficulty' is not \"expert\" or null" in err
