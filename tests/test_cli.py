import io
import json
import subprocess
import sys

import pytest
from conftest import one_error_line

from designer.cli import main


def run(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_text_and_json(capsys, examples_dir):
    status, out, err = run(capsys, "solve", str(examples_dir / "seed003-medium.txt"))
    assert status == 0 and out.splitlines()[0] == "uldrurululu" and "stops: 11" in out
    status, out, _ = run(capsys, "solve", "--json", str(examples_dir / "seed003-medium.txt"))
    assert status == 0
    assert json.loads(out) == {"solvable": True, "moves": "uldrurululu", "stops": 11, "distance": 62}


def test_solve_by_distance(capsys, tmp_path):
    path = tmp_path / "l.txt"
    path.write_text("#####G#\n#.....#\n#.....#\n#....##\n#..#..#\n#.....#\n###S###\n")
    status, out, _ = run(capsys, "solve", "--json", "--by", "distance", str(path))
    assert json.loads(out) == {"solvable": True, "moves": "uruluru", "stops": 7, "distance": 10}


def test_unsolvable_is_status_1_with_a_reason(capsys, examples_dir):
    status, out, err = run(capsys, "solve", str(examples_dir / "unsolvable.txt"))
    assert status == 1 and out == "" and one_error_line(err)
    assert err.splitlines()[-1] == "designer: unsolvable: the goal cannot be reached from the start"
    status, out, err = run(capsys, "solve", "--json", str(examples_dir / "unsolvable.txt"))
    assert status == 1 and json.loads(out) == {"solvable": False}


def test_analyze_json_and_text(capsys, examples_dir):
    status, out, _ = run(capsys, "analyze", "--json", str(examples_dir / "weak-oneway.txt"))
    data = json.loads(out)
    assert status == 0 and data["solvability"] == "weak" and data["reversible"] is False and data["min_stops"] == 13
    status, out, _ = run(capsys, "analyze", str(examples_dir / "weak-oneway.txt"))
    assert status == 0 and "solvability: weak" in out and "! = trap" in out and "min stops: 13" in out


def test_analyze_unsolvable_is_a_valid_answer(capsys, examples_dir):
    status, out, _ = run(capsys, "analyze", "--json", str(examples_dir / "unsolvable.txt"))
    assert status == 0 and json.loads(out)["min_stops"] is None


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "/no/such/level.txt"], "designer: /no/such/level.txt: no such file"),
        (["solve"], "designer: Missing argument 'LEVEL'."),
        (["solve", "--by", "stones", "x"], "designer: Invalid value for '--by'"),
        (["frobnicate"], "designer: No such command"),
        ([], "usage: designer COMMAND"),
    ],
)
def test_bad_usage_is_one_line_status_2(capsys, args, message):
    status, out, err = run(capsys, *args)
    assert status == 2 and err.startswith(message) and one_error_line(err) and out == ""


def test_bad_level_is_one_line_status_2(capsys, tmp_path):
    for content in (b"#S#\n#.\n#G#\n", b"\x00\x01", b"", b'{"format": "ice-level", "version": 7}'):
        path = tmp_path / "bad"
        path.write_bytes(content)
        for command in ("solve", "analyze"):
            status, out, err = run(capsys, command, str(path))
            assert status == 2 and err.startswith(f"designer: {path}: ") and one_error_line(err)


def test_stdin_and_entry_point(examples_dir):
    text = (examples_dir / "kata-style.txt").read_text()
    done = subprocess.run([sys.executable, "-m", "designer", "solve", "--json", "-"], input=text,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["moves"] == "drr"
    done = subprocess.run([sys.executable, "-m", "designer", "solve", "-"], input="#S#\n?G#\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr and one_error_line(done.stderr)


def test_stdin_via_main(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"S.G\n")))
    status, out, _ = run(capsys, "solve", "--json", "-")
    assert status == 0 and json.loads(out)["stops"] == 1
