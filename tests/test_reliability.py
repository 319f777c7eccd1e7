"""The reliability suite: each case an audit found breaking the contract (one line, the right
status, nothing lost, whole files), kept fixed. Numbers refer to the audit's table."""

import json
import os
import signal
import subprocess
import sys
import time
import re

import pytest
from conftest import one_error_line

from designer.cli import main
from designer.ops.kinds.registry import page
from designer.formats.level_files import read_levels

pytestmark = pytest.mark.slow  # signals, clusters and checkpoints: processes started and stopped

LEVEL = "#G#\n#.#\n#S#\n"


def test_13_a_pack_name_cannot_bend_the_page_script(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("<!--<script>", "<b>x", "plain"):
        (pack / f"{name}.txt").write_text(LEVEL)
    html = page(read_levels(pack), title="t")
    assert html.count("<script>") == 1 and html.count("</script>") == 1 and "<!--" not in html
    data = re.search(r"const LEVELS = (.*);\n", html).group(1)
    assert "<" not in data and ">" not in data
    assert sorted(entry["name"] for entry in json.loads(data)) == ["<!--<script>", "<b>x", "plain"]


@pytest.mark.parametrize("field", ["version", "height", "generator", "extra"])
@pytest.mark.parametrize("command", ["solve", "analyze", "render", "play", "export"])
def test_6_a_huge_integer_in_a_json_level_is_one_line(tmp_path, capsys, field, command):
    obj = {"format": "ice-level", "version": 1, "rows": LEVEL.split()}
    digits = "9" * 5000
    text = json.dumps(obj)[:-1] + f', "{field}": ' + (digits if field != "generator" else f'{{"seed": {digits}}}') + "}"
    path = tmp_path / "huge.json"
    path.write_text(text)
    args = {"solve": ["solve", str(path)], "analyze": ["analyze", str(path)],
            "render": ["render", str(path), "-o", str(tmp_path / "x.svg")],
            "play": ["play", str(path), "-o", str(tmp_path / "x.html")],
            "export": ["export", str(path), "--to", "tiled", "-o", str(tmp_path / "x.tmj")]}[command]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "an integer of 5,000 digits" in err


@pytest.mark.parametrize("address", ["", "tcp://", "tls://127.0.0.1:1", "inproc://", "ucx://x:1", "tcp://host:99999",
                                     "tcp://:8786", "127.0.0.1:8786"])
@pytest.mark.parametrize("command", [["make", "--min-stops", "3"], ["records", "--rocks", "1"]])
def test_12_a_dask_address_is_checked_before_any_work(capsys, address, command):
    assert main([*command, "--dask", address]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "--dask takes 'local' or a scheduler address tcp://HOST:PORT" in err


@pytest.mark.parametrize("command", [["compare", "--min-stops", "5", "--seeds", "1", "--budget", "1"],
                                     ["pareto", "--time-limit", "5"]])
def test_17_a_plot_is_a_png(tmp_path, capsys, command):
    gif = tmp_path / "x.gif"
    assert main([*command, "--plot", str(gif)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "is written as FILE.png" in err and not gif.exists()


def test_17_dash_is_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["make", "--min-stops", "3", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 12 and "S" in out and not (tmp_path / "-").exists()


def test_10_tiny_grids_are_real_grids(tmp_path, capsys):
    assert main(["make", "--size", "3x3", "--min-stops", "1"]) == 0
    assert capsys.readouterr().out == LEVEL
    template = tmp_path / "t.txt"
    template.write_text("#G#\n#?#\n#S#\n")
    assert main(["make", "--template", str(template), "--min-stops", "1"]) == 0
    assert capsys.readouterr().out == LEVEL
    assert main(["make", "--size", "4x4", "--no-frame", "--snow", "15"]) == 2  # the message names what was asked
    assert "--snow 15 does not fit" in capsys.readouterr().err
    assert main(["make", "--size", "3x3", "--min-stops", "2"]) in (1, 2)
    assert "--snow" not in capsys.readouterr().err


def test_11_records_on_the_smallest_grid(capsys):
    assert main(["records", "--size", "1x2", "--no-frame", "--rocks", "0", "--time-limit", "5", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["records"][0]
    assert (found["rocks"], found["min_stops"], found["proven_optimal"]) == (0, 1, True)


def test_8_workers_are_capped_at_the_machine(capsys):
    import os

    assert main(["make", "--workers", "1000000", "--min-stops", "5", "--format", "json", "--time-limit", "10"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["generator"]["workers"] == (os.cpu_count() or 1)
    assert f"--workers 1000000 is more than the {os.cpu_count() or 1} cores here" in captured.err


@pytest.mark.parametrize("args, words", [
    (["make", "--time-limit", "inf"], "must be a finite number of seconds"),
    (["make", "--time-limit", "nan"], "--time-limit"),
    (["records", "--time-limit", "inf"], "must be a finite number of seconds"),
    (["pareto", "--time-limit", "inf"], "must be a finite number of seconds"),
    (["compare", "--budget", "inf"], "must be a finite number of seconds"),
])
def test_9_a_time_limit_is_finite(capsys, args, words):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err


# --- signals end the whole process tree (row 1) ----------------------------------------------------

OPEN_GRID = [sys.executable, "-m", "designer", "make", "--size", "16x24", "--no-frame", "--max-rocks", "5",
             "--maximize", "--time-limit", "60", "--workers", "2"]


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def chains_started(proc) -> set[int]:
    """The open-grid chain processes of ``proc``, once it has forked them."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = children(proc.pid)
        if len(found) >= 2:
            return found
        time.sleep(0.1)
    pytest.fail("the chains never started")


#: How long processes may take to go once their parent ended or was killed. The test asserts that
#: they go, not how fast: on a loaded machine (CI's two cores busy) a second is not a promise.
GONE = 10.0


def gone_within(pids: set[int], seconds: float = GONE) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked chain processes: Linux only")
@pytest.mark.parametrize("ending, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_1_sigterm_and_sighup_end_the_chains_and_say_terminated(ending, status):
    proc = subprocess.Popen(OPEN_GRID, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    chains = chains_started(proc)
    time.sleep(1.0)
    proc.send_signal(ending)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == status and out == ""
    assert one_error_line(err) and err.endswith("designer: terminated\n")
    assert gone_within(chains)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG: Linux only")
def test_1_no_chain_outlives_a_killed_parent():
    proc = subprocess.Popen(OPEN_GRID, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    chains = chains_started(proc)
    proc.kill()
    proc.wait(timeout=10)
    assert gone_within(chains)


def test_14_two_writers_of_one_new_path_cannot_both_succeed(tmp_path, monkeypatch):
    # The second writer's check passes, then the first one's file appears before it writes: the
    # second must refuse and leave the first one's file alone.
    from designer.formats import output
    from designer.core.errors import DesignerError

    target = tmp_path / "level.txt"
    real_check = output.check_file

    def check_then_race(path, **kwargs):
        checked = real_check(path, **kwargs)
        target.write_text("the first writer's level\n")
        return checked

    monkeypatch.setattr(output, "check_file", check_then_race)
    with pytest.raises(DesignerError, match="already exists"):
        output.write(target, "the second writer's level\n")
    assert target.read_text() == "the first writer's level\n"
    assert [p.name for p in tmp_path.iterdir()] == ["level.txt"]  # no temporary file left
    monkeypatch.setattr(output, "check_file", real_check)
    output.write(target, "forced\n", force=True)
    assert target.read_text() == "forced\n"


# --- checkpoints are evidence, not trust (rows 2 and 3) ----------------------------------------------

RECORDS = ["records", "--size", "4x5", "--no-frame", "--rocks", "2..3", "--time-limit", "10", "--json"]


def run_records(capsys, checkpoint):
    assert main([*RECORDS, "--checkpoint", str(checkpoint)]) == 0
    return {r["rocks"]: r for r in json.loads(capsys.readouterr().out)["records"]}


def test_2_an_edited_checkpoint_is_found_out(tmp_path, capsys):
    checkpoint = tmp_path / "ck.json"
    truth = run_records(capsys, checkpoint)
    state = json.loads(checkpoint.read_text())
    state["records"]["3"]["min_stops"] += 6  # a better record than the level shows
    state["records"]["2"]["level"] = truth[3]["level"]  # a level with more rocks than its count
    state["records"]["2"]["min_stops"] = truth[3]["min_stops"]
    checkpoint.write_text(json.dumps(state))
    again = run_records(capsys, checkpoint)
    for rocks in (2, 3):
        assert (again[rocks]["min_stops"], again[rocks]["proven_optimal"]) == (truth[rocks]["min_stops"], True)
        level = again[rocks]["level"]
        assert sum(row.count("#") for row in level["rows"]) <= rocks


def test_2_a_bound_that_is_not_evidence_is_dropped(tmp_path):
    from designer.formats.level_files import parse_level
    from designer.formats.level_json import level_to_json
    from designer.studies.checkpoint import Checkpoint

    level = parse_level("S.#..\n.....\n..#..\n.....\n....G\n")
    checkpoint = Checkpoint(None, {})
    good = {"bound": level_to_json(level, with_analysis=False), "threshold": 0, "shards": {}, "seconds": 0.0}
    from designer.analysis.graph import analyze
    good["threshold"] = analyze(level).min_stops + 1
    checkpoint.partial = {2: dict(good), 3: dict(good, threshold=good["threshold"] + 4), 1: dict(good)}
    assert checkpoint.verify(5, 5, False) == [1, 3]  # 1: two rocks over its budget; 3: a skipped bar
    assert list(checkpoint.partial) == [2]


@pytest.mark.parametrize("edit", [
    lambda s: s["records"].update({"7": 5}),
    lambda s: s["partial"].update({"7": []}),
    lambda s: s["partial"].update({"7": {"bound": None, "threshold": "a", "shards": {}, "seconds": 0}}),
    lambda s: s["partial"].update({"7": {"bound": None, "threshold": 1, "shards": {"a,b": [0] * 7}, "seconds": 0}}),
    lambda s: s["partial"].update({"7": {"bound": None, "threshold": 1, "shards": {}, "seconds": "x"}}),
    lambda s: s["records"]["2"].update({"level": {"format": "ice-level", "version": 1, "rows": 5}}),
    lambda s: s["records"]["2"].update({"time_limit": "x"}),
    lambda s: s["records"]["2"].update({"time_limit": -1}),
])
def test_3_a_malformed_checkpoint_is_one_line(tmp_path, capsys, edit):
    checkpoint = tmp_path / "ck.json"
    run_records(capsys, checkpoint)
    state = json.loads(checkpoint.read_text())
    edit(state)
    checkpoint.write_text(json.dumps(state))
    assert main([*RECORDS, "--checkpoint", str(checkpoint)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "not a records checkpoint" in err


def test_2_a_record_left_unproven_by_a_short_limit_is_tried_again(tmp_path):
    from designer.studies.records import records

    checkpoint = tmp_path / "ck.json"
    short = records(6, 7, False, [6], 1.0, checkpoint_path=checkpoint)[0]
    assert not short.proven_optimal and short.time_limit == 1.0  # 17 stops, no proof in a second
    again = records(6, 7, False, [6], 1.0, checkpoint_path=checkpoint)[0]
    assert again.to_json() == short.to_json()  # the same limit: taken as it is
    state = json.loads(checkpoint.read_text())
    longer = records(6, 7, False, [6], 60.0, checkpoint_path=checkpoint)[0]
    assert longer.proven_optimal and longer.min_stops >= short.min_stops and longer.time_limit == 60.0
    assert longer.seconds > short.seconds  # the time of both runs
    state["records"]["6"].pop("time_limit")  # as a checkpoint from before the limit was kept (unsigned)
    checkpoint.write_text(json.dumps(state))
    older = records(6, 7, False, [6], 1.0, checkpoint_path=checkpoint)[0]
    assert older.min_stops >= short.min_stops and older.time_limit == 1.0  # tried again, its level the bound


# --- closed standard streams (row 5) ---------------------------------------------------------------

def shell(line: str) -> subprocess.CompletedProcess:
    command = line.replace("designer", f"{sys.executable} -m designer", 1)
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120)


def test_5_closed_stderr_does_not_stop_the_work(tmp_path):
    done = shell(f"designer make --min-stops 5 -o {tmp_path / 'level.txt'} 2>&-")
    assert done.returncode == 0 and (tmp_path / "level.txt").read_text().count("\n") == 12


@pytest.mark.parametrize("line", ["designer solve {level} >&-", "designer make --min-stops 5 >&-",
                                  "designer analyze {level} >&-"])
def test_5_closed_stdout_is_one_line(line):
    from conftest import EXAMPLES

    done = shell(line.format(level=EXAMPLES / "strong-reversible.txt"))
    assert done.returncode == 2 and done.stderr == "designer: cannot write to standard output (it is closed)\n"


def test_5_both_closed_is_still_a_status(tmp_path):
    from conftest import EXAMPLES

    assert shell(f"designer solve {EXAMPLES / 'strong-reversible.txt'} >&- 2>&-").returncode == 2
    assert shell(f"designer make --min-stops 5 -o {tmp_path / 'l.txt'} >&- 2>&-").returncode == 0


# --- pictures too large to draw (row 7) ------------------------------------------------------------

@pytest.mark.parametrize("rows, cell, words", [
    (["S" + "." * 998 + "G"], "40", "would be 40,000x40 pixels: at most 16,384 a side"),
    (["S" + "." * 699 + "G"] + ["." * 701] * 699, "16", "GB: at most 2 GB"),
])
def test_7_a_picture_too_large_is_refused_before_drawing(tmp_path, capsys, rows, cell, words):
    import time as clock

    level = tmp_path / "big.txt"
    level.write_text("\n".join(rows) + "\n")
    started = clock.monotonic()
    assert main(["render", str(level), "-o", str(tmp_path / "big.png"), "--cell", cell, "--moves-left"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err and not (tmp_path / "big.png").exists()
    assert clock.monotonic() - started < 20  # refused before the analysis and the drawing


# --- a stream the shell opened is written in place (row 4) -----------------------------------------

@pytest.mark.parametrize("path, redirect", [("/dev/stdout", ">> {log}"), ("/dev/fd/1", ">> {log}"),
                                            ("/proc/self/fd/1", ">> {log}"), ("/dev/stderr", "2>> {log}"),
                                            ("/dev/fd/7", "7>> {log}"), ("{link}", ">> {log}")])
def test_4_a_path_to_an_open_descriptor_appends_in_place(tmp_path, path, redirect):
    log, link = tmp_path / "log", tmp_path / "link.txt"
    log.write_text("earlier line\n")
    link.symlink_to("/dev/stdout")
    line = f"designer make --size 6x6 --min-stops 3 --seed 1 --first -o {path} {redirect}".format(log=log, link=link)
    done = shell(line + (" 2>/dev/null" if "2>>" not in redirect else ""))
    assert done.returncode == 0
    text = log.read_text()
    assert text.startswith("earlier line\n###G##\n") and text.count("\n") >= 7  # kept, then the level
    assert link.is_symlink() and os.readlink(link) == "/dev/stdout"


def test_4_a_descriptor_that_is_not_open_is_one_line(capsys):
    assert main(["make", "--min-stops", "3", "-o", "/dev/fd/63"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "descriptor 63 is not open" in err


def test_17_the_tileset_goes_beside_the_real_map(tmp_path, capsys):
    from conftest import EXAMPLES

    (tmp_path / "maps").mkdir()
    real = tmp_path / "maps" / "level.tmj"
    real.write_text("{}")
    link = tmp_path / "link.tmj"
    link.symlink_to(real)
    assert main(["export", str(EXAMPLES / "strong-reversible.txt"), "--to", "tiled", "-o", str(link), "--force"]) == 0
    assert (tmp_path / "maps" / "ice-tiles.png").exists() and not (tmp_path / "ice-tiles.png").exists()
    assert link.is_symlink() and json.loads(real.read_text())["tilesets"][0]["image"] == "ice-tiles.png"


# --- bench inputs (row 15) and the size of an analysis (the audit's 1000x1000) ---------------------

@pytest.mark.parametrize("args, words", [
    (["bench", "classify", "--seed", "-1", "--count", "5", "--repeats", "1"], "--seed"),
    (["bench", "analyze", "--seed", "-1", "--runs", "1"], "--seed"),
    (["bench", "analyze", "--size", "2000x2000", "--runs", "1"], "level of 2000x2000 is too large"),
    (["bench", "classify", "--size", "1x5000", "--count", "5"], "at least 3x3"),
    (["bench", "make", "--seeds", "1", "--", "--min-stops", "3", "-o", "{out}"], "bench make: -o is bench's own"),
    (["bench", "make", "--seeds", "1", "--", "--min-stops", "3", "--format=txt"], "bench make: --format is bench's own"),
])
def test_15_bench_refuses_bad_input_and_leaks_no_file(tmp_path, capsys, args, words):
    out = tmp_path / "leak.txt"
    assert main([a.format(out=out) for a in args]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err and not out.exists()


def test_an_analysis_too_large_for_its_memory_is_one_line(tmp_path, capsys, monkeypatch):
    from designer.analysis import graph

    monkeypatch.setattr(graph, "MAX_ANALYZED_MOVES", 5)
    level = tmp_path / "open.txt"
    level.write_text("#####\n#S..#\n#...#\n#..G#\n#####\n")
    assert main(["analyze", str(level)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "moves between" in err and "analyze takes at most 5" in err
    assert main(["solve", str(level)]) == 0  # the solution is still there


# --- messages say what was asked and what was found (row 16) ---------------------------------------

def test_16_a_maximize_that_ran_out_of_time_asks_for_no_min_stops(capsys):
    assert main(["make", "--time-limit", "0.0001", "--maximize"]) == 1
    err = capsys.readouterr().err
    assert one_error_line(err) and "no strong reversible level found in 0.0001 s" in err and ">= 1" not in err


def test_12_a_time_limit_of_0_is_refused(capsys):
    assert main(["make", "--time-limit", "0"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "--time-limit must be more than 0 seconds" in err


def test_16_layouts_beyond_the_bar_that_failed_say_why():
    from designer.core.budget import Budget
    from designer.core.level import Level
    from designer.core.request import LayoutRequest
    from designer.search.goal import Goal
    from designer.search.state import Progress, Search

    request = LayoutRequest(height=3, width=3, min_stops=1, snow=1)
    search = Search(request, Goal.meet(1), seed=0, budget=Budget(1.0), workers=1, method="auto", excluded=set(),
                    progress=Progress())
    search.seen(1)
    assert "no level was checked in the time" in str(search.timed_out())
    assert search.verify(Level.from_ascii("#G#\n#.#\n#S#"), "test") is None  # no snow placed
    message = str(search.timed_out())
    assert "with min stops >= 1" in message and "needs" not in message
    assert "the closest level seen, of 1 stop, failed the checks: 0 snow tiles placed, not 1" in message


# --- a LocalCluster ends with its command (rows 1 and 18) ------------------------------------------

CLUSTER = [sys.executable, "-m", "designer", "records", "--size", "8x8", "--dask", "local", "--workers", "2",
           "--time-limit", "60"]


def descendants(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for child in children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("when", ["starting", "working"])
def test_18_sigterm_closes_a_local_cluster_cleanly(tmp_path, when):
    proc = subprocess.Popen(CLUSTER, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    if when == "starting":  # the cluster's first process is up, its workers not yet
        deadline = time.monotonic() + 30
        while not (seen := descendants(proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        deadline = time.monotonic() + 30
        while len(seen := descendants(proc.pid)) < 3 and time.monotonic() < deadline:  # tracker and 2 workers
            time.sleep(0.1)
        time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (143, "", "designer: terminated\n")  # no warning, no traceback
    assert gone_within(seen | descendants(proc.pid))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_1_no_cluster_process_outlives_a_killed_parent(tmp_path):
    proc = subprocess.Popen(CLUSTER, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.monotonic() + 30
    while len(seen := descendants(proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(seen) >= 3
    time.sleep(1.0)
    seen |= descendants(proc.pid)
    proc.kill()
    proc.wait(timeout=10)
    assert gone_within(seen)


@pytest.mark.parametrize("ending, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_1_sigterm_stops_a_running_cp_sat_search(ending, status):
    # CP-SAT catches SIGINT only; a SIGTERM used to wait for the search's whole time limit.
    proc = subprocess.Popen([sys.executable, "-m", "designer", "make", "--method", "cpsat", "--min-stops", "60",
                             "--time-limit", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6.0)  # the model is built and searching
    sent = time.monotonic()
    proc.send_signal(ending)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (status, "", "designer: terminated\n")
    assert time.monotonic() - sent < 15  # as Ctrl-C ends it (about 2 s here), not at the time limit



ENDS = [sys.executable, "-m", "designer", "make", "--method", "cpsat-ends", "--size", "8x8", "--min-stops", "21",
        "--workers", "2", "--time-limit", "120"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked pair processes: Linux only")
@pytest.mark.parametrize("ending, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_1_sigterm_ends_the_pairs_of_the_split_model(ending, status):
    proc = subprocess.Popen(ENDS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lanes = chains_started(proc)
    time.sleep(2.0)  # each builds its pair's model and searches
    sent = time.monotonic()
    proc.send_signal(ending)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (status, "", "designer: terminated\n")
    assert time.monotonic() - sent < 15
    assert gone_within(lanes)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG: Linux only")
def test_1_no_pair_process_outlives_a_killed_parent():
    proc = subprocess.Popen(ENDS, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lanes = chains_started(proc)
    time.sleep(1.0)
    proc.kill()
    proc.wait(timeout=10)
    assert gone_within(lanes)


# --- what the fuzz run found (tests/test_fuzz.py) ---------------------------------------------------

@pytest.mark.parametrize("argv", [["records", "--out", "\x00", "--time-limit", "0.3"], ["make", "--from", "\x00"],
                                  ["compare", "--plot", "\x00", "--budget", "0.3"], ["solve", "a\x00b"],
                                  ["make", "--min-stops", "3", "-o", "x\x00.txt"]])
def test_a_nul_in_a_file_name_is_one_line(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "NUL" in err


@pytest.mark.parametrize("edit, words", [
    (lambda g: g.pop("seconds"), "has no 'seconds'"),
    (lambda g: g.update(seconds="x"), "'seconds' is not a number of seconds"),
    (lambda g: g.update(time_limit=1e300), "'time_limit' is not a number of seconds"),
    (lambda g: g.update(skipped=5), "'skipped' is not a list of texts"),
    (lambda g: g.update(workers=-2), "'workers' is not a whole number from 0 or null"),
    (lambda g: g.update(seed=-1), "'seed' is not a whole number from 0"),
])
def test_a_damaged_generator_record_is_one_line(tmp_path, capsys, edit, words):
    level = tmp_path / "level.json"
    assert main(["make", "--size", "6x6", "--min-stops", "3", "--format", "json", "-o", str(level)]) == 0
    obj = json.loads(level.read_text())
    edit(obj["generator"])
    level.write_text(json.dumps(obj))
    capsys.readouterr()
    assert main(["make", "--from", str(level)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and words in err


def test_a_checkpoint_for_another_run_is_named_on_one_line(tmp_path, capsys):
    checkpoint = tmp_path / "ck.json"
    checkpoint.write_text(json.dumps({"version": 2, "key": "\n", "records": {}, "partial": {}}))
    assert main([*RECORDS, "--checkpoint", str(checkpoint)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and 'another run ("\\n")' in err


def test_any_message_is_one_line_whatever_the_input_holds(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "two\nlines.txt")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "two\\nlines.txt" in err


def test_a_checkpoint_in_the_place_of_the_out_folder_is_refused_before_any_work(tmp_path, capsys):
    (tmp_path / "rec").mkdir()
    for checkpoint, out in (("same", "same"), ("rec/records.json", "rec")):
        assert main(["records", "--size", "4x5", "--no-frame", "--rocks", "1", "--checkpoint", str(tmp_path / checkpoint),
                     "--out", str(tmp_path / out), "--force"]) == 2
        err = capsys.readouterr().err
        assert one_error_line(err) and "give the checkpoint a path of its own" in err
    assert [p.name for p in tmp_path.iterdir()] == ["rec"] and not any((tmp_path / "rec").iterdir())


def test_a_huge_choices_floor_is_proven_infeasible_at_once(capsys):
    assert main(["make", "--min-choices", "1000000", "--time-limit", "0.3"]) == 1
    err = capsys.readouterr().err
    assert one_error_line(err) and "proven infeasible" in err and "at most 3 other moves open at each stop" in err
    assert main(["make", "--min-choices", "99999999999999999999", "--time-limit", "0.3"]) == 2  # no file keeps it
    err = capsys.readouterr().err
    assert one_error_line(err) and "--min-choices must be a whole number from 0 to 1000000" in err


def test_an_unknown_method_in_a_generator_record_is_one_line(tmp_path, capsys):
    level = tmp_path / "level.json"
    assert main(["make", "--size", "6x6", "--min-stops", "3", "--format", "json", "-o", str(level)]) == 0
    obj = json.loads(level.read_text())
    obj["generator"]["method"] = "#uto"
    level.write_text(json.dumps(obj))
    capsys.readouterr()
    assert main(["make", "--from", str(level)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "unknown method '#uto'" in err
