"""Records (designer.studies.records), the sharded exhaustive search, and its executors."""

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import needs_compiled

from designer.core.budget import Budget
from designer.search.engines import exhaustive
from designer.studies import checkpoint
from designer.studies import records as rec
from designer.analysis.graph import analyze
from designer.cli import main
from designer.search.executor import Dask, InProcess
from designer.core.terrain import ROCK

SMALL = checkpoint.record_request(5, 5, False, 3)


def far() -> float:
    return Budget(120)


def same(a: exhaustive.ExhaustiveResult, b: exhaustive.ExhaustiveResult) -> None:
    assert (a.best, a.ties, a.layouts, a.complete) == (b.best, b.ties, b.layouts, b.complete)
    assert a.level == b.level


@needs_compiled  # proofs over every layout: seconds compiled, minutes in Python
def test_records_are_verified_and_proven():
    found = rec.records(5, 5, False, [1, 2, 3], 10)
    assert [(r.rocks, r.min_stops, r.proven_optimal) for r in found] == [(1, 5, True), (2, 7, True), (3, 11, True)]
    for one in found:
        report = analyze(one.level)
        assert report.solvability == "strong" and report.reversible and report.min_stops == one.min_stops
        assert int((one.level.terrain == ROCK).sum()) <= one.rocks


@needs_compiled
def test_a_proof_leaves_out_the_rock_sets_a_proven_record_covers(monkeypatch):
    # With 2 rocks proven at 7 stops, the proof for 3 rocks looks for 12 or more among sets of
    # exactly 3 rocks; run alone, it searches the smaller sets too. Same record either way.
    ran = []
    original = checkpoint.Checkpoint.add_shard
    monkeypatch.setattr(checkpoint.Checkpoint, "add_shard", lambda self, r, key, result: (ran.append((r, key)), original(self, r, key, result)))
    two, three = rec.records(5, 5, False, [2, 3], 10)
    assert (two.min_stops, two.proven_optimal, three.min_stops, three.proven_optimal) == (7, True, 11, True)
    assert {key[0] for r, key in ran if r == 3} == {3}
    ran.clear()
    alone, = rec.records(5, 5, False, [3], 10)
    assert (alone.min_stops, alone.proven_optimal) == (11, True)
    assert {key[0] for r, key in ran} == {0, 1, 2, 3}


@needs_compiled
def test_the_record_for_one_rock_fewer_is_a_lower_bound(monkeypatch):
    # With the lower-bound stage finding nothing, the 3-rock proof still starts from the 2-rock
    # record (7 stops): it looks for 8 or more among sets of exactly 3 rocks.
    seen = []
    original = exhaustive.search
    monkeypatch.setattr(rec, "lower_bound", lambda *args, **kwargs: None)
    monkeypatch.setattr(rec.exhaustive, "search", lambda request, threshold, *args, **kwargs: (
        seen.append((request.max_rocks, threshold, kwargs.get("fewest_rocks"))),
        original(request, threshold, *args, **kwargs))[1])
    two, three = rec.records(5, 5, False, [2, 3], 10)
    assert seen == [(2, 1, 0), (3, 8, 3)]
    assert (two.min_stops, three.min_stops, three.proven_optimal) == (7, 11, True)


def test_only_a_proven_record_below_the_threshold_leaves_rock_sets_out():
    point = checkpoint.Checkpoint(None, {})
    point.records[4] = {"min_stops": 13, "proven_optimal": True}
    assert rec._fewest_rocks(point, 5, 14) == 5
    assert rec._fewest_rocks(point, 5, 13) == 0  # 4 rocks reach the threshold themselves
    assert rec._fewest_rocks(point, 6, 14) == 0  # no record for 5 rocks
    point.records[4]["proven_optimal"] = False
    assert rec._fewest_rocks(point, 5, 14) == 0


def test_shards_merge_to_the_same_result_in_any_order_and_from_any_start():
    whole = exhaustive.search(SMALL, 9, far(), workers=1)
    assert whole.complete and whole.best == 11
    keys = []
    exhaustive.search(SMALL, 9, far(), workers=2, on_shard=lambda key, result: keys.append((key, result)))
    same(exhaustive.search(SMALL, 9, far(), workers=2), whole)
    # Resuming with some shards known runs only the others, and ends with the same result.
    known = dict(keys[:7])
    ran = []
    resumed = exhaustive.search(SMALL, 9, far(), workers=2, done=known, on_shard=lambda key, result: ran.append(key))
    same(resumed, whole)
    assert len(ran) == len(keys) - 7 and not set(ran) & set(known)


def test_a_stopped_records_run_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    original = checkpoint.Checkpoint.add_shard
    calls = []

    def stop_after_five(self, rocks, key, result):
        original(self, rocks, key, result)
        calls.append(key)
        if len(calls) == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint.Checkpoint, "add_shard", stop_after_five)
    with pytest.raises(KeyboardInterrupt):
        rec.records(5, 5, False, [3], 30, checkpoint_path=path)
    saved = json.loads(path.read_text())
    assert len(saved["partial"]["3"]["shards"]) == 5 and not saved["records"]
    monkeypatch.setattr(checkpoint.Checkpoint, "add_shard", original)
    ran = []
    monkeypatch.setattr(checkpoint.Checkpoint, "add_shard", lambda self, r, key, result: (ran.append(key), original(self, r, key, result)))
    found = rec.records(5, 5, False, [3], 30, checkpoint_path=path)
    assert not set(ran) & set(calls)  # nothing run twice
    threshold = saved["partial"]["3"]["threshold"]
    assert len(ran) + 5 == len(exhaustive.shard_jobs(SMALL, threshold, Budget(0)))  # nothing lost
    assert (found[0].min_stops, found[0].proven_optimal) == (11, True)
    assert json.loads(path.read_text())["records"]["3"]["min_stops"] == 11
    # A finished count is read back, not searched again.
    ran.clear()
    again = rec.records(5, 5, False, [3], 30, checkpoint_path=path)
    assert again[0].min_stops == 11 and not ran


def crash_once(item):
    """A shard that kills its worker process the first time it runs (a lost worker)."""
    marker, job = item
    if marker and not os.path.exists(marker):
        Path(marker).write_text("crashed")
        os._exit(1)
    return exhaustive.run_shard(job)


@needs_compiled
@pytest.mark.slow
def test_dask_local_cluster_gives_the_in_process_result_and_survives_a_lost_worker(tmp_path):
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    whole = exhaustive.search(SMALL, 9, far(), workers=2)
    cluster = Dask("local", workers=2)
    try:
        same(exhaustive.search(SMALL, 9, far(), executor=cluster), whole)
        jobs = exhaustive.shard_jobs(SMALL, 9, Budget(120))
        marker = str(tmp_path / "crashed")
        items = [(marker if k == 3 else None, job) for k, job in enumerate(jobs)]
        results = {}
        cluster.run(crash_once, items, lambda item, result: results.__setitem__(item[1].key, result))
        assert Path(marker).exists()  # a worker was lost ...
        same(exhaustive.merge(SMALL, results), whole)  # ... and its shard ran again, once
        assert len(results) == len(jobs)
    finally:
        cluster.close()


def test_in_process_executor_reports_every_job():
    seen = []
    InProcess(2).run(lambda x: x * x, range(10), lambda job, result: seen.append((job, result)))
    assert sorted(seen) == [(k, k * k) for k in range(10)]


@needs_compiled
def test_records_command_writes_a_table_json_and_levels(tmp_path, capsys):
    out = tmp_path / "rec"
    assert main(["records", "--size", "5x5", "--no-frame", "--rocks", "1..2", "--time-limit", "5", "--json", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [r["min_stops"] for r in printed["records"]] == [5, 7]
    assert set(printed["records"][0]) == {"rocks", "min_stops", "proven_optimal", "seconds", "time_limit", "level"}
    assert "| 2 | 7 | yes |" in (out / "records.md").read_text()
    assert json.loads((out / "records.json").read_text()) == printed
    assert (out / "rocks-01.txt").exists() and (out / "rocks-02.txt").exists()


@pytest.mark.parametrize("args, words", [
    (["--rocks", "5..2"], "--rocks 5..2"),
    (["--rocks", "x"], "--rocks takes"),
    (["--dask", "nowhere"], "--dask takes 'local'"),
])
def test_records_refusals(capsys, args, words):
    assert main(["records", "--size", "5x5", "--no-frame", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@needs_compiled
@pytest.mark.slow
def test_make_runs_its_exhaustive_search_on_dask(capsys):
    args = ["make", "--size", "5x5", "--no-frame", "--max-rocks", "3", "--maximize", "--time-limit", "30",
            "--format", "json"]
    assert main(args + ["--dask", "local", "--workers", "2"]) == 0
    on_dask = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    here = json.loads(capsys.readouterr().out)
    assert on_dask["analysis"]["min_stops"] == here["analysis"]["min_stops"] == 11
    assert on_dask["generator"]["proven_optimal"] and here["generator"]["proven_optimal"]
    assert main(["make", "--size", "5x5", "--dask", "somewhere"]) == 2


def test_a_pack_runs_on_dask_and_equals_the_in_process_pack(tmp_path, capsys):
    args = ["make", "--size", "8x8", "--min-stops", "7", "--count", "3", "--force"]
    assert main(args + ["--out", str(tmp_path / "here")]) == 0
    assert main(args + ["--out", str(tmp_path / "dask"), "--dask", "local", "--workers", "2"]) == 0
    capsys.readouterr()
    for k in (1, 2, 3):
        name = f"level-{k:03d}.txt"
        assert (tmp_path / "dask" / name).read_text() == (tmp_path / "here" / name).read_text()


@pytest.mark.parametrize("listener", ["silent", "http"])
def test_an_address_that_is_no_scheduler_gives_up_in_the_connect_time(capsys, monkeypatch, listener):
    import socket
    import threading
    import time

    from designer.search import executor

    monkeypatch.setattr(executor, "CONNECT_SECONDS", 1.0)
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            if listener == "http":
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    started = time.monotonic()
    try:
        status = main(["records", "--size", "5x5", "--rocks", "1..1", "--time-limit", "60", "--dask",
                       f"tcp://127.0.0.1:{port}"])
    finally:
        server.close()
        for conn in held:
            conn.close()
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and f"cannot reach the dask scheduler at tcp://127.0.0.1:{port}" in err
    assert time.monotonic() - started < 30  # refused at once, not at the time limit (loaded machines are slow)


@needs_compiled  # the loop goes to the cluster with compiled kernels only
@pytest.mark.slow
def test_framed_records_on_dask_prove_with_the_sat_loops_pairs_on_the_cluster():
    cluster = Dask("local", workers=2)
    shards = []
    run = cluster.run

    def watched(shard, jobs, on_result, on_abort=None):
        shards.append(shard.__name__)
        return run(shard, jobs, on_result, on_abort)

    cluster.run = watched
    try:
        on_dask = rec.records(6, 6, True, [2, 3], 60, executor=cluster, workers=2)
    finally:
        cluster.close()
    here = rec.records(6, 6, True, [2, 3], 60, workers=2)
    assert shards == ["pair_shard", "pair_shard"]
    assert [(r.min_stops, r.proven_optimal) for r in on_dask] == [(r.min_stops, r.proven_optimal) for r in here]
    assert all(r.proven_optimal for r in here)
    for one in on_dask:
        report = analyze(one.level)
        assert report.solvability == "strong" and report.reversible and report.min_stops == one.min_stops
