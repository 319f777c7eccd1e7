"""One set of limits (designer.core.limits): whatever make accepts reads back with --from,
analyze, solve and play, and whatever they refuse, make refuses first with status 2; and the play
page is built in one pass, so no name can bring in another part of it. (The audit's defects 7 to
9.)"""

import json
import re

import pytest

from designer.cli import main
from designer.core.limits import MAX_COUNT, MAX_SECONDS, MAX_SEED

SMALL = ["make", "--size", "6x6", "--min-stops", "3", "--format", "json"]


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("option, at_most, words", [
    ("--seed", MAX_SEED, "--seed must be a whole number from 0 to 999999999999"),
    ("--time-limit", MAX_SECONDS, "--time-limit must be from 0 to 100,000,000 seconds"),
    ("--max-rocks", MAX_COUNT, "--max-rocks must be a whole number from 0 to 1000000"),
    ("--snow", MAX_COUNT, "--snow must be a whole number from 0 to 1000000"),
])
def test_what_make_accepts_reads_back_and_what_it_cannot_keep_it_refuses(tmp_path, capsys, option, at_most, words):
    for over in (at_most + 1, 10**18, 10**20):
        assert main([*SMALL, option, str(over), "-o", str(tmp_path / "no.json")]) == 2
        err = capsys.readouterr().err
        assert one_error_line(err) and words in err
    assert not (tmp_path / "no.json").exists()
    if option == "--snow":  # the most snow a level can hold does not fit a 6x6 room: the bound is refused in time
        return
    level = tmp_path / "a.json"
    assert main([*SMALL, option, str(at_most), "--time-limit", "20", "-o", str(level)] if option != "--time-limit"
                else [*SMALL, option, str(at_most), "-o", str(level)]) == 0
    capsys.readouterr()
    record = json.loads(level.read_text())["generator"]
    assert at_most in (record["seed"], record["time_limit"], record["request"]["max_rocks"])
    for command in (["analyze", str(level)], ["solve", str(level)], ["play", str(level), "-o", str(tmp_path / "p.html")],
                    ["make", "--from", str(level), "--time-limit", "20"]):
        assert main(command) == 0, capsys.readouterr().err
        capsys.readouterr()


def test_a_pack_whose_last_seed_passes_the_bound_is_refused(tmp_path, capsys):
    assert main([*SMALL, "--seed", str(MAX_SEED), "--count", "2", "--out", str(tmp_path / "pack")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "the last level's seed would pass" in err
    assert not (tmp_path / "pack").exists()


@pytest.mark.parametrize("args, words", [
    (["bench", "classify", "--count", "99999999999999999999"], "--count must be a whole number from 1 to"),
    (["bench", "classify", "--seed", "10000000000000"], "--seed must be a whole number"),
    (["bench", "make", "--seeds", "99999999999999999999"], "--seeds must be a whole number from 1 to 1000000"),
    (["bench", "studio-page", "--size", "50x50"], "--size 50x50: the studio takes grids of at most 40x40"),
    (["compare", "--seeds", "10000000000"], "--seeds must be a whole number from 1 to 1000000"),
    (["records", "--seed", "10000000000000"], "--seed must be a whole number"),
    (["pareto", "--time-limit", "1e12"], "--time-limit must be from"),
    (["make", "--count", "100000000", "--out", "pack"], "--count must be a whole number from 1 to 10000"),
    (["make", "--min-stops", "99999999999999999999"], "--min-stops must be a whole number from 0 to 1000000"),
])
def test_counts_and_seeds_beyond_their_bound_are_one_line(tmp_path, capsys, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["__LEVELS__", "__TILES__", "__KEY__", "__CELL____SLIDE_MS__", "__TITLE__"])
def test_a_level_name_that_spells_a_placeholder_stays_a_name(tmp_path, capsys, name):
    level = tmp_path / f"{name}.txt"
    level.write_text("#G####\n#....#\n#....#\n#.#..#\n#....#\n#S####\n")
    page = tmp_path / "page.html"
    assert main(["play", str(level), "-o", str(page)]) == 0
    text = page.read_text()
    assert re.search(r"<title>(.*)</title>", text).group(1) == f"ice-designer: {name}.txt"
    assert text.count("background-image") == re.search(r"<style>.*</style>", text, re.S).group(0).count("background-image")
    assert text.count("const LEVELS = [") == 1 and not re.search(r"__[A-Z_]+?__", text.replace(name, ""))


def test_the_specs_table_of_limits_is_the_designers():
    """docs/spec.md's table of limits is ``designer.core.limits.TABLE``, row for row."""
    from pathlib import Path

    from designer.core.limits import TABLE

    spec = (Path(__file__).resolve().parents[1] / "docs" / "spec.md").read_text()
    table = spec.split("| value | bound |\n| --- | --- |\n", 1)[1].split("\n\n", 1)[0]
    assert [tuple(cell.strip() for cell in row.strip("|").split(" | ")) for row in table.splitlines()] == list(TABLE)


def test_a_level_of_31_coins_is_made_solved_and_played(tmp_path, capsys):
    """Issue 60: a level of 31 coins was made and solved, but ``play`` refused it (at most 30 things
    together). What the designer makes, the page plays."""
    level = tmp_path / "coins.txt"
    level.write_text("#" * 35 + "\n#S" + "$" * 31 + "G#\n" + "#" * 35 + "\n")
    assert main(["solve", str(level)]) == 0
    assert main(["play", str(level), "-o", str(tmp_path / "play.html")]) == 0
    assert '"things": 40' in (tmp_path / "play.html").read_text()
