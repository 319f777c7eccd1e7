"""--template: a sketch in canonical ASCII plus '?', filled by the designer; every other cell kept."""

from pathlib import Path

import pytest
from conftest import one_error_line

from designer.analysis.graph import analyze
from designer.cli import main
from designer.search.design import design
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.terrain import ROCK, SNOW
from designer.formats.template import parse_template
from designer.core.request import LayoutRequest

ROOT = Path(__file__).resolve().parents[1]
L_ROOM = ROOT / "examples" / "templates" / "l-room.txt"


def run(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def request_for(rows, **kwargs) -> LayoutRequest:
    rows = parse_template("\n".join(rows) if isinstance(rows, list) else rows)
    snow = kwargs.pop("snow", sum(row.count("_") for row in rows))
    return LayoutRequest(height=len(rows), width=len(rows[0]), frame=False, template=rows, snow=snow, **kwargs)


def assert_fills(template: tuple[str, ...], level: Level) -> None:
    """Every drawn cell is kept; the ends are on the pins, or on free or ice cells."""
    text = str(level).splitlines()
    for r, row in enumerate(template):
        for c, ch in enumerate(row):
            if ch == "?":
                assert text[r][c] in "#._SG"
            elif ch in "SG":
                assert text[r][c] == ch
            elif text[r][c] in "SG":
                assert ch == "."  # an unpinned end may take drawn ice
            else:
                assert text[r][c] == ch, f"drawn cell ({r}, {c}) changed"


@pytest.mark.parametrize("method", ["auto", "cpsat"])
@pytest.mark.slow
def test_the_l_room_is_filled_to_the_target(method):
    request = request_for(L_ROOM.read_text(), min_stops=25)
    assert len(request.free_cells()) == 84
    found = design(request, seed=1, time_limit=60, method=method)
    report = analyze(found.level)
    assert report.solvability == "strong" and report.reversible and report.min_stops >= 25
    assert_fills(request.template, found.level)
    assert found.level.start == (12, 2) and found.level.goal == (0, 12)


def test_unpinned_ends_drawn_ice_and_snow_count_toward_n():
    rows = ["#########",
            "#???????#",
            "#??._???#",
            "#???????#",
            "#???????#",
            "#########"]
    request = request_for(rows, min_stops=6, snow=2)
    found = design(request, seed=3, time_limit=60)
    assert_fills(request.template, found.level)
    assert int((found.level.terrain == SNOW).sum()) == 2  # the drawn one and one placed
    assert found.level.terrain[2, 4] == SNOW
    report = analyze(found.level)
    assert report.solvability == "strong" and report.reversible and report.min_stops >= 6


def test_a_template_the_model_proves_hopeless_is_status_1(capsys, tmp_path):
    # A 2x3 pocket: sampling and the climb find nothing with 5 stops, so auto hands the request to
    # the model, which proves it impossible.
    path = tmp_path / "pocket.txt"
    path.write_text("#####\n#???#\n#???#\n##S##\n")
    status, out, err = run(capsys, "make", "--template", str(path), "--min-stops", "5", "--time-limit", "30")
    assert status == 1 and out == "" and one_error_line(err) and "proven infeasible" in err


def test_tidy_leaves_drawn_tiles_alone():
    from designer.analysis.tidy import placed_tiles

    request = request_for(L_ROOM.read_text(), min_stops=20, tidy=True)
    found = design(request, seed=2, time_limit=60)
    assert_fills(request.template, found.level)
    assert all(request.template[r][c] == "?" for r, c in placed_tiles(request, found.level))


@pytest.mark.parametrize("text, words", [
    ("#S#\n#?\n#G#\n", "ragged rows"),
    ("#S#\n#x#\n#G#\n", "unknown character 'x'"),
    ("S?S\n???\n", "2 starts"),
    ("S.G\n...\n", "no free cell"),
    ("\n\n", "empty template"),
])
def test_bad_templates_are_one_line_status_2(capsys, tmp_path, text, words):
    with pytest.raises(LevelError, match=words):
        parse_template(text)
    path = tmp_path / "t.txt"
    path.write_text(text)
    status, out, err = run(capsys, "make", "--template", str(path))
    assert status == 2 and out == "" and one_error_line(err) and words in err


@pytest.mark.parametrize("extra, words", [
    (["--size", "12x12"], "--size does not go with --template"),
    (["--no-frame"], "--no-frame does not go with --template"),
    (["--method", "repair"], "--template needs --method auto, cpsat, cpsat-ends or sat"),
    (["--start", "12,3"], "both pin the same end"),
    (["--goal", "0,0"], "both pin the same end"),
    (["--snow", "0", "--template", "SNOWY"], "draws 1 snow tiles, more than --snow 0"),
    (["--template", "PINLESS", "--start", "0,0"], "drawn rock or snow tile"),
])
def test_template_refusals(capsys, tmp_path, extra, words):
    snowy = tmp_path / "snowy.txt"
    snowy.write_text("#####\n#?_?#\n#???#\n##S##\n")
    pinless = tmp_path / "pinless.txt"
    pinless.write_text("#####\n#???#\n#???#\n#####\n")
    args = ["make", "--template", str(L_ROOM)]
    if "--template" in extra:
        args = ["make"]
        extra = [{"SNOWY": str(snowy), "PINLESS": str(pinless)}.get(a, a) for a in extra]
    status, out, err = run(capsys, *args, *extra)
    assert status == 2 and out == "" and one_error_line(err) and words in err, err


def test_a_missing_template_file_is_one_line(capsys):
    status, _, err = run(capsys, "make", "--template", "/no/such/template.txt")
    assert status == 2 and one_error_line(err) and "no such file" in err


def test_rock_budget_counts_only_placed_rocks():
    request = request_for(L_ROOM.read_text(), min_stops=12, max_rocks=10)
    found = design(request, seed=1, time_limit=60)
    assert sum(found.level.terrain[c] == ROCK for c in request.free_cells()) <= 10
    assert_fills(request.template, found.level)
