"""Levels asked in predicted difficulty (designer.search.felt; make --curve-by difficulty), and
packs ordered by it."""

import json

import pytest

from conftest import one_error_line
from designer.analysis.player import Player, play
from designer.cli import main
from designer.core import kernels
from designer.core import kernel_anneal
from designer.core.request import LayoutRequest
from designer.formats.level_json import level_from_json
from designer.search.design import design
from designer.search.felt import FELT_TOLERANCE

needs_compiled = pytest.mark.skipif(not kernel_anneal.can_anneal(), reason="the chains need the compiled kernels")


@needs_compiled
@pytest.mark.parametrize("target", [2.5, 5.0])
def test_a_level_asked_in_predicted_difficulty_comes_within_the_tolerance(target):
    found = design(LayoutRequest(min_stops=1, difficulty=target), seed=2)
    felt = play(found.level).difficulty
    assert abs(felt - target) <= FELT_TOLERANCE * target and found.generator.difficulty_felt == felt
    assert found.generator.request.difficulty == target and found.generator.seed == 2
    assert found.generator.stage.endswith(f", for difficulty {target:g}")


@needs_compiled
def test_a_pack_by_difficulty_rises_and_make_from_gives_the_level_again(tmp_path, capsys):
    out = tmp_path / "pack"
    assert main(["make", "--count", "3", "--curve-by", "difficulty", "--curve", "3..6", "--out", str(out),
                 "--format", "json"]) == 0
    records = [json.loads(path.read_text()) for path in sorted(out.iterdir())]
    felt = [r["generator"]["difficulty_felt"] for r in records]
    assert felt == sorted(felt) and all(abs(f - t) <= FELT_TOLERANCE * t for f, t in zip(felt, (3, 4.5, 6)))
    assert "predicted difficulty" in capsys.readouterr().err
    again = tmp_path / "again.json"
    assert main(["make", "--from", str(sorted(out.iterdir())[1]), "--format", "json", "-o", str(again)]) == 0
    assert json.loads(again.read_text())["rows"] == records[1]["rows"]


@needs_compiled
def test_a_dense_curve_is_written_rising_each_level_within_its_places_tolerance(tmp_path):
    out = tmp_path / "pack"
    assert main(["make", "--count", "8", "--curve-by", "difficulty", "--curve", "3..4", "--size", "9x9",
                 "--seed", "0", "--out", str(out), "--format", "json"]) == 0
    records = [json.loads(path.read_text())["generator"] for path in sorted(out.iterdir())]
    felt = [record["difficulty_felt"] for record in records]
    asked = [record["request"]["difficulty"] for record in records]
    places = [round(3 + k / 7, 2) for k in range(8)]
    assert felt == sorted(felt) and sorted(asked) == places and asked != places  # levels moved, none lost
    for level, own, place in zip(felt, asked, places):  # within its own target, and its place's
        assert abs(level - own) <= FELT_TOLERANCE * own and abs(level - place) <= FELT_TOLERANCE * place


@needs_compiled
@pytest.mark.parametrize("mechanic, field, seed", [
    (["--teleports", "1"], "portals", "1"),
    # short bands with an item run out their tries: seed 2 made this pack in 11.4 s, seed 1 in 20.9 s
    pytest.param(["--items", "1"], "items", "2", marks=pytest.mark.slow),
    (["--coins", "2"], "coins", "1"),
])
def test_a_pack_with_a_mechanic_rises_in_predicted_difficulty(mechanic, field, seed, tmp_path):
    out = tmp_path / "pack"
    assert main(["make", "--count", "3", "--curve-by", "difficulty", "--curve", "3..6", *mechanic, "--seed", seed,
                 "--out", str(out), "--format", "json"]) == 0
    levels = [json.loads(path.read_text()) for path in sorted(out.iterdir())]
    felt = [level["generator"]["difficulty_felt"] for level in levels]
    assert felt == sorted(felt) and all(abs(f - t) <= FELT_TOLERANCE * t for f, t in zip(felt, (3, 4.5, 6)))
    assert all(level.get(field) for level in levels)  # each level holds its mechanic
    # the difficulty is the level's own, as analyze predicts it (coins and all)
    assert [round(play(level_from_json(level)).difficulty, 6) for level in levels] == [round(f, 6) for f in felt]


@needs_compiled
def test_a_plain_pack_is_ordered_by_predicted_difficulty(tmp_path):
    out = tmp_path / "pack"
    assert main(["make", "--size", "9x9", "--min-stops", "6", "--count", "4", "--out", str(out), "--format", "json"]) == 0
    felt = [json.loads(path.read_text())["generator"]["difficulty_felt"] for path in sorted(out.iterdir())]
    assert felt == sorted(felt) and len(felt) == 4


def test_a_player_file_changes_the_difficulty_asked(tmp_path):
    player = tmp_path / "player.json"
    player.write_text(json.dumps(Player(4.0, 2.0).to_json()))
    assert main(["make", "--size", "8x8", "--curve-by", "difficulty", "--difficulty", "easy", "--player", str(player),
                 "--format", "json", "-o", str(tmp_path / "easy.json")]) == 0
    record = json.loads((tmp_path / "easy.json").read_text())["generator"]
    assert record["request"]["player"] == [4.0, 2.0] and abs(record["difficulty_felt"] - 3) <= 0.45


@pytest.mark.parametrize("args, words", [
    (["--curve-by", "difficulty"], "give one"),
    (["--curve-by", "difficulty", "--difficulty", "expert"], "a search of its own"),
    (["--curve-by", "difficulty", "--curve", "0..11", "--count", "2", "--out", "p"], "1 <= A <= B <= 10"),
    (["--curve-by", "difficulty", "--curve", "2..nan", "--count", "2", "--out", "p"], "1 <= A <= B <= 10"),
    (["--curve-by", "difficulty", "--difficulty", "easy", "--maximize"], "does not go with --curve-by difficulty"),
])
def test_bad_requests_by_difficulty_are_refused_in_one_line(args, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["make", *args]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err


def test_pareto_takes_predicted_difficulty_as_an_axis(capsys):
    assert main(["pareto", "--size", "6x6", "--time-limit", "4", "--axis", "difficulty", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    front = made["front"]
    assert made["axis"] == "difficulty" and front
    stops, felt = [p["min_stops"] for p in front], [p["difficulty"] for p in front]
    assert stops == sorted(stops) and all(a > b for a, b in zip(felt, felt[1:]))  # none dominated
    assert main(["pareto", "--size", "6x6", "--time-limit", "4", "--axis", "fun"]) == 2


def test_pareto_measures_its_difficulty_for_the_player_it_is_given(tmp_path, capsys):
    """``pareto --player FILE``: the difficulty axis is that player's, a member of the family with
    memory included (issue 63: the model is used everywhere it is used)."""
    explorer = Player.of("explorer", skill=2.0, back_aversion=0.5, memory=1.0, foresight=1, lapse=0.1)
    (tmp_path / "explorer.json").write_text(json.dumps(explorer.to_json()))
    assert main(["pareto", "--size", "6x6", "--time-limit", "4", "--axis", "difficulty", "--json",
                 "--player", str(tmp_path / "explorer.json")]) == 0
    front = json.loads(capsys.readouterr().out)["front"]
    assert front and all(point["difficulty"] == play(level_from_json(point["level"]), explorer).difficulty
                         for point in front)
