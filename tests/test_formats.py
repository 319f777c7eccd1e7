import io
import json

import pytest
from hypothesis import given

from conftest import small_levels
from designer.core.errors import LevelError
from designer.formats.level_files import parse_level, read_level
from designer.formats.level_json import dumps, level_from_json, level_to_json
from designer.core.level import Level

LEVEL = Level.from_ascii("#####G#\n#..._.#\n#S....#\n#######")


@given(small_levels())
def test_json_round_trip(level):
    text = dumps(level)
    back = parse_level(text)
    assert back == level and back.dialect == "json"
    obj = json.loads(text)
    assert obj["format"] == "ice-level" and obj["version"] == 1
    assert obj["rows"] == level.rows() and obj["start"] == list(level.start)


def test_json_holds_solution_and_analysis():
    obj = json.loads(dumps(LEVEL, generator={"method": "hand", "seed": None}))
    assert obj["solution"]["stops"] == obj["analysis"]["min_stops"]
    assert obj["analysis"]["solvability"] in ("strong", "weak", "unsolvable")
    assert obj["generator"] == {"method": "hand", "seed": None}


def test_unknown_keys_are_ignored():
    obj = level_to_json(LEVEL, with_analysis=False)
    obj["made_by"] = "someone"
    assert level_from_json(obj) == LEVEL


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda o: o.update(format="tiled"), "not an ice level"),
        (lambda o: o.update(version=2), "unsupported ice-level version 2"),
        (lambda o: o.update(rows="#S#G#"), "must be a list of strings"),
        (lambda o: o.update(start=[0, 0]), r'"start" is \[0, 0\] but rows put it at \[2, 1\]'),
        (lambda o: o.update(width=9), '"width" is 9 but rows give 7'),
        (lambda o: o.update(rows=["#S#", "#G"]), "ragged rows"),
    ],
)
def test_bad_json_levels(mutate, message):
    obj = level_to_json(LEVEL, with_analysis=False)
    mutate(obj)
    with pytest.raises(LevelError, match=message):
        parse_level(json.dumps(obj))


def test_bad_bytes_and_files(tmp_path):
    with pytest.raises(LevelError, match="not a text file"):
        parse_level(b"#S\x00G#")
    with pytest.raises(LevelError, match="not a text file"):
        parse_level(b"\xff\xfe#SG")
    with pytest.raises(LevelError, match="bad JSON at line 1"):
        parse_level("{ nope")
    with pytest.raises(LevelError, match="no such file"):
        read_level(tmp_path / "missing.txt")
    with pytest.raises(LevelError, match="is a directory"):
        read_level(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("#S#\n#?G")
    with pytest.raises(LevelError, match=r"bad.txt: unknown character '\?' at row 1, col 1"):
        read_level(bad)


def test_read_from_stdin(monkeypatch):
    fake = io.TextIOWrapper(io.BytesIO(str(LEVEL).encode()))
    monkeypatch.setattr("sys.stdin", fake)
    assert read_level("-") == LEVEL
