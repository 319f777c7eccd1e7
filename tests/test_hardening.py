"""Every input, output and interrupt handled: one line and the right status, never a traceback,
never a replaced special file, never a half-written or unasked-for file."""

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import one_error_line

from designer.cli import entry as cli
from designer.cli import main
from designer.formats.level_files import parse_level
from designer.core.level import Level

DESIGNER = [sys.executable, "-m", "designer"]


def run(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> bool:
    return one_error_line(err) and err.startswith("designer: ") and "Traceback" not in err


def shell(command: str, **kwargs) -> subprocess.CompletedProcess:
    """Run ``designer ...`` through sh, for redirections a test cannot make otherwise."""
    line = command.replace("designer", " ".join(DESIGNER), 1)
    return subprocess.run(["sh", "-c", line], capture_output=True, text=True, timeout=120, **kwargs)


# --- levels that were misread ----------------------------------------------------------------------

def test_kata_rows_of_ice_at_the_edges_are_rows(capsys, tmp_path):
    path = tmp_path / "k.txt"
    path.write_text("   \nS#E\n###\n")
    status, out, _ = run(capsys, "solve", str(path))
    assert status == 0 and out.splitlines()[0] == "urd"
    level = Level.from_ascii("S#E\n###\n   \n")
    assert level.shape == (3, 3) and str(level) == "S#G\n###\n..."
    # blank lines of another width around a kata level are padding, not rows
    assert Level.from_ascii("\n \nS E\n\n").shape == (1, 3)


@pytest.mark.parametrize("content, words", [
    (b'{"format": "ice-level", "version": 1, "rows": ["S.G"], "start": 5}', '"start" must be [row, col]'),
    (b'{"format": "ice-level", "version": 1, "rows": ["S.G"], "goal": [0, "2"]}', '"goal" must be [row, col]'),
    (b'{"format": "ice-level", "version": 1, "rows": ["S.G"], "height": true}', '"height" is true'),
    (b'{"format": "ice-level", "version": true, "rows": ["S.G"]}', "unsupported ice-level version true"),
    (b'["S.G"]', "JSON level must be an object"),
    (b"[" * 100_000, "nested too deeply"),
    (b'{"a":' * 100_000, "nested too deeply"),
    (b"G\nE\ne\nS\n", "goal characters 'G' (canonical), 'e' (seed-style) and 'E' (kata-style) all appear"),
    (b"#" * (9 * 2**20), "input of 9,437,184 bytes is too large: at most 8,388,608 bytes"),
])
def test_bad_levels_are_one_line(capsys, tmp_path, content, words):
    path = tmp_path / "bad"
    path.write_bytes(content)
    status, out, err = run(capsys, "solve", str(path))
    assert status == 2 and out == "" and one_line(err) and words in err, err


def test_closed_stdin_is_one_line():
    done = shell("designer solve - <&-")
    assert done.returncode == 2 and done.stderr == "designer: standard input is closed\n"


# --- outputs ---------------------------------------------------------------------------------------

@pytest.fixture
def no_design(monkeypatch):
    """Fail the test if a design is started: refusals must come before any work."""
    def refuse(*args, **kwargs):
        raise AssertionError("a design was started before the output path was checked")

    monkeypatch.setattr("designer.search.design.design", refuse)
    monkeypatch.setattr("designer.search.engines.baselines.generate", refuse)


@pytest.mark.parametrize("args, words", [
    (["-o", "{tmp}"], "is a folder"),
    (["-o", ""], "-o: the file name is empty"),
    (["--out", ""], "--out: the folder name is empty"),
    (["-o", "{tmp}/newdir/"], "names a folder"),
    (["-o", "{tmp}/missing/level.txt"], "no such directory"),
    (["-o", "/proc/x.txt"], "cannot write there"),
    (["--out", "/proc/x"], "cannot write there"),
    (["-o", "{tmp}/taken.txt"], "already exists"),
    (["--seed", "-5", "--out", "{tmp}/D"], "--seed"),
    (["--count", "2", "--out", "{tmp}/taken.txt"], "exists and is not a directory"),
])
def test_outputs_are_checked_before_any_work(capsys, tmp_path, no_design, args, words):
    (tmp_path / "taken.txt").write_text("mine\n")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    status, out, err = run(capsys, "make", *args)
    assert status == 2 and out == "" and one_line(err) and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.txt"]  # nothing made, nothing changed
    assert (tmp_path / "taken.txt").read_text() == "mine\n"


@pytest.mark.skipif(os.geteuid() != 0 or not Path("/sys/kernel").is_dir(), reason="needs root and /sys")
def test_sysfs_is_refused_even_for_root(capsys, no_design):
    status, _, err = run(capsys, "make", "-o", "/sys/kernel/x")
    assert status == 2 and one_line(err) and "cannot write there" in err


def test_dev_null_stays_a_device(capsys):
    before = os.stat("/dev/null")
    for extra in ([], ["--force"]):
        status, out, err = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "-o", "/dev/null", *extra)
        assert status == 0 and out == ""
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_a_full_disk_is_one_line(capsys):
    # /dev/full answers every write with ENOSPC, as a full disk does.
    status, out, err = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "-o", "/dev/full")
    assert status == 2 and one_line(err) and "No space left on device" in err
    done = shell("designer solve examples/levels/kata-style.txt > /dev/full", cwd=Path(__file__).parents[1])
    assert done.returncode == 2 and one_line(done.stderr) and "No space left on device" in done.stderr


def test_a_fifo_is_written_not_replaced(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    status, _, _ = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "-o", str(fifo))
    text, _ = reader.communicate(timeout=60)
    assert status == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert Level.from_ascii(text).shape == (8, 8)


def test_modes_follow_the_umask_and_a_replaced_file_keeps_its_mode(capsys, tmp_path):
    target = tmp_path / "level.txt"
    old = os.umask(0o027)
    try:
        status, _, _ = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "-o", str(target))
    finally:
        os.umask(old)
    assert status == 0 and stat.S_IMODE(os.stat(target).st_mode) == 0o640
    os.chmod(target, 0o604)
    status, _, _ = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "--seed", "4", "-o", str(target),
                       "--force")
    assert status == 0 and stat.S_IMODE(os.stat(target).st_mode) == 0o604


def test_a_link_is_kept_and_its_file_replaced(capsys, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    status, _, _ = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "-o", str(link), "--force")
    assert status == 0 and link.is_symlink() and parse_level(real.read_text()).shape == (8, 8)


def test_a_failed_pack_leaves_no_empty_folder(capsys, tmp_path):
    folder = tmp_path / "pack"
    status, _, err = run(capsys, "make", "--min-stops", "95", "--time-limit", "0.5", "--count", "2",
                         "--out", str(folder))
    assert status == 1 and one_line(err) and not folder.exists()


def test_plot_path_is_checked_first(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("designer.studies.compare.compare", lambda *a, **k: pytest.fail("compared before checking"))
    status, _, err = run(capsys, "compare", "--plot", str(tmp_path), "--seeds", "1")
    assert status == 2 and one_line(err) and "is a folder" in err


# --- interrupts and pipes ----------------------------------------------------------------------

def interrupt_after(args, seconds):
    proc = subprocess.Popen(DESIGNER + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def test_ctrl_c_says_interrupted_with_status_130(tmp_path):
    status, out, err = interrupt_after(["make", "--min-stops", "95", "--time-limit", "60", "--out",
                                        str(tmp_path / "pack"), "--count", "2"], 2.5)
    assert status == 130 and one_line(err) and err.endswith("designer: interrupted\n") and out == ""
    assert not (tmp_path / "pack").exists()


def test_ctrl_c_ends_the_open_grid_chains_at_once():
    # The chains run in forked processes: Ctrl-C must end them, not wait for the time limit.
    started = time.monotonic()
    status, out, err = interrupt_after(["make", "--size", "16x24", "--no-frame", "--max-rocks", "5", "--maximize",
                                        "--time-limit", "60", "--workers", "2"], 3)
    assert status == 130 and one_line(err) and err.endswith("designer: interrupted\n") and out == ""
    assert time.monotonic() - started < 30


def test_ctrl_c_ends_the_annealing_chains_at_once():
    # Maximizing on the framed 12x12, the climb gets 5% of the 60 s: at 6 s the chains anneal in
    # threads; Ctrl-C must end them at their next slice.
    started = time.monotonic()
    status, out, err = interrupt_after(["make", "--maximize", "--time-limit", "60", "--workers", "2"], 6)
    assert status == 130 and one_line(err) and err.endswith("designer: interrupted\n") and out == ""
    assert time.monotonic() - started < 20


def test_ctrl_c_during_cp_sat_is_not_a_time_limit():
    # CP-SAT takes the signal itself; a search that gives up early must still read as interrupted.
    script = """
import signal, threading, os, time
from designer.models.cpsat import build_model
from designer.models.solve import new_solver, solve
from designer.core.request import LayoutRequest
from ortools.sat.python import cp_model
built = build_model(LayoutRequest(min_stops=95))
solver = new_solver(0, 60, 2)
threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    solve(solver, built.model)
    print("returned")
except KeyboardInterrupt:
    print("interrupted")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "interrupted", done.stderr


def test_a_closed_pipe_ends_quietly_with_status_0():
    proc = subprocess.Popen(DESIGNER + ["make", "--size", "8x8", "--min-stops", "5"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before anything is written, as with `| head -c 0`
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err and b"Broken pipe" not in err


# --- smaller slips ---------------------------------------------------------------------------------

def test_help_shows_flags_without_a_value():
    done = subprocess.run(DESIGNER + ["make", "--help"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "200", "TERM": "dumb"})
    assert done.returncode == 0 and "--force" in done.stdout and "--maximize" in done.stdout
    assert "<bool>" not in done.stdout
    for command in ("solve", "analyze", "compare"):
        help_text = subprocess.run(DESIGNER + [command, "--help"], capture_output=True, text=True, timeout=60,
                                   env={**os.environ, "COLUMNS": "200"}).stdout
        assert "--json" in help_text and "<bool>" not in help_text


def test_repair_places_snow_only_when_asked(capsys):
    for seed in range(4):
        status, out, _ = run(capsys, "make", "--method", "repair", "--min-stops", "10", "--seed", str(seed))
        assert status == 0 and "_" not in out
    # with --snow N, 002's snow step places up to N tiles, and the level has exactly N
    for snow, seed in ((1, 3), (2, 2)):
        status, out, _ = run(capsys, "make", "--method", "repair", "--snow", str(snow), "--min-stops", "10",
                             "--seed", str(seed))
        assert status == 0 and out.count("_") == snow


def test_interrupted_status_is_documented():
    assert cli.INTERRUPTED == 130 and "130 interrupted" in cli.main.__doc__
    readme = (Path(__file__).parents[1] / "docs" / "spec.md").read_text()  # the exit statuses
    assert "130" in readme and "designer: interrupted" in readme


def test_json_output_is_valid_when_written_to_a_file(capsys, tmp_path):
    target = tmp_path / "l.json"
    status, _, _ = run(capsys, "make", "--size", "8x8", "--min-stops", "5", "--format", "json", "-o", str(target))
    assert status == 0 and json.loads(target.read_text())["format"] == "ice-level"


def test_ctrl_c_ends_a_running_exhaustive_search():
    # The worker threads run compiled searches with a 10-minute budget; Ctrl-C sets their stop
    # flag, so the process ends at once instead of waiting for them.
    script = """
import os, signal, threading, time
from designer.core.budget import Budget
from designer.search.engines import exhaustive
from designer.core.request import LayoutRequest
request = LayoutRequest(height=6, width=7, frame=False, max_rocks=8, min_stops=21)
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
began = time.monotonic()
try:
    exhaustive.search(request, 21, Budget(600), workers=2)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - began < 60)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["interrupted", "True"], done.stderr
