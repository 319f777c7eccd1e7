"""A cave designed to a band of predicted difficulty (``designer.caves.felt``): ``--difficulty``
asked, and the aim of a cave drawn from nothing, which rises with its rooms."""

import json

import pytest

from designer.caves import felt
from designer.caves.cave_request import CaveDesign, CaveFailed, CaveRequest
from designer.cli import main
from designer.core.errors import DesignerError
from designer.ops.caves import CaveOptions, request_for

SMALL = [
    "cave",
    "--rooms",
    "2",
    "--size",
    "7x7",
    "--min-stops",
    "8",
    "--seed",
    "1",
    "--workers",
    "1",
]


def test_the_aims_of_caves_whose_rooms_differ_by_six_tenths_never_meet():
    for rooms in range(2, 65):
        low, high = felt.aimed(rooms)
        assert low < high
        for more in range(-(-16 * rooms // 10), 65):
            assert high < felt.aimed(more)[0], (rooms, more)
    assert felt.aimed(4)[1] >= felt.aimed(5)[0]  # closer counts may meet: the docs say 1.6


def test_a_cave_from_nothing_aims_at_its_rooms_band_unless_stops_or_a_band_are_asked():
    drawn = request_for(CaveOptions(rooms=5, seed=1))
    assert (drawn.difficulty, drawn.aim) == (felt.aimed(5), True)
    assert request_for(CaveOptions(rooms=5, seed=1, min_stops=20)).difficulty is None
    asked = request_for(CaveOptions(rooms=5, seed=1, min_stops=20, difficulty="9..10"))
    assert (asked.difficulty, asked.aim) == ((9.0, 10.0), False)
    given = request_for(CaveOptions(template="examples/caves/four-rooms.txt"))
    assert given.difficulty is None
    assert request_for(
        CaveOptions(template="examples/caves/four-rooms.txt", difficulty="8")
    ).difficulty == (8.0, None)
    again = CaveRequest.from_json(json.loads(json.dumps(drawn.to_json())))
    assert (again.difficulty, again.aim) == (drawn.difficulty, True)


@pytest.mark.parametrize(
    "band, why",
    [
        ("x", "--difficulty takes A or A..B"),
        ("9..8", "the band's ceiling is below its floor"),
        ("nan", "from 1 to 19, not nan"),
        ("0.5", "from 1 to 19, not 0.5"),
        ("8..25", "from 1 to 19, not 25"),
    ],
)
def test_a_band_that_cannot_be_asked_is_refused_in_one_line(capsys, band, why):
    assert main(["cave", "--rooms", "3", "--difficulty", band]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_a_record_with_a_bad_band_is_refused_in_one_line():
    record = request_for(CaveOptions(rooms=3, seed=1)).to_json()
    for bad in ([9, 8], [1], "9..10", [float("nan"), None], [True, 9]):
        with pytest.raises(DesignerError, match="'difficulty'"):
            CaveRequest.from_json({**record, "difficulty": bad})


def test_a_band_is_met_by_designing_again_and_made_again_from_its_record(tmp_path, capsys):
    # the designs of this request from seed 1 feel 4.8, 5.4, 4.9, 5.8 (on budgets of work)
    out = tmp_path / "cave.json"
    assert main([*SMALL, "--difficulty", "5..5.6", "-o", str(out)]) == 0
    said = capsys.readouterr().err
    assert "predicted difficulty 5.4, asked 5..5.6, design 2 of at most 8 (seed 1000001)" in said
    record = json.loads(out.read_text())["generator"]
    assert record["seed"] == 1 and record["request"]["difficulty"] == [5.0, 5.6]
    assert {k: record["felt"][k] for k in ("difficulty", "designs", "in_band", "aim")} == {
        "difficulty": 5.4,
        "designs": 2,
        "in_band": True,
        "aim": False,
    }
    again = tmp_path / "again.json"
    assert main(["cave", "--from", str(out), "-o", str(again)]) == 0
    assert json.loads(again.read_text())["rooms"] == json.loads(out.read_text())["rooms"]


def test_a_band_no_design_reaches_fails_with_what_the_designs_felt(tmp_path, capsys):
    out = tmp_path / "cave.txt"
    assert main([*SMALL, "--difficulty", "15..19", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not met: 8 designs of the cave felt 4.8, 5.4, 4.9, 5.8" in err
    assert "none within --difficulty 15..19" in err and not out.exists()


def test_an_aim_no_design_reaches_keeps_the_nearest_and_says_so(monkeypatch):
    felts = iter([7.0, 10.4, 8.1, 7.5, 10.3, 7.2, 7.3, 7.4])

    def made(seed: int) -> CaveDesign:
        return CaveDesign(f"cave {seed}", None, {"seed": seed, "rounds": 1})  # type: ignore[arg-type]

    monkeypatch.setattr(
        "designer.caves.cave_analysis.played",
        lambda cave: type("F", (), {"difficulty": next(felts)}),
    )
    found = felt.designed((8.6, 9.7), True, 5, made, lambda text: None, lambda: 1.5)
    assert found.cave == "cave 2000005" and found.record["seed"] == 5
    assert found.record["felt"] == {
        "band": [8.6, 9.7],
        "aim": True,
        "difficulty": 8.1,
        "designs": 8,
        "in_band": False,
        "seed": 2000005,
    }
    felts = iter([7.0, 10.4])

    def late(seed: int) -> CaveDesign:
        if seed > 5:
            raise CaveFailed("time limit", "time limit reached")
        return made(seed)

    assert (
        felt.designed((8.6, 9.7), True, 5, late, lambda text: None, lambda: 1.5).record["felt"][
            "designs"
        ]
        == 1
    )
    felts = iter([7.0])
    with pytest.raises(
        CaveFailed, match="1 design of the cave felt 7, none within --difficulty 8.6..9.7"
    ):
        felt.designed((8.6, 9.7), False, 5, late, lambda text: None, lambda: 1.5)


def test_the_largest_seed_designs_a_cave_and_a_level(capsys):
    """CP-SAT's seed is 32 bits: ``--seed 999999999999`` (the bound) ended in a traceback."""
    assert main(["cave", "--rooms", "2", "--size", "7x7", "--min-stops", "8", "--seed", "999999999999",
                 "--workers", "1"]) == 0
    assert main(["make", "--min-stops", "8", "--method", "cpsat", "--seed", "999999999999"]) == 0
    assert "seed 999999999999" in capsys.readouterr().err
