"""Checkpoints that vouch for themselves (designer.formats.signed): a records checkpoint whose
signature does not match is read as untrusted, its levels checked again and its proofs and
progress redone; every field is validated before use; reading has the level reader's limits.
(The audit's defects 3 to 6.)"""

import json
import os
import stat

import pytest

from designer.cli import main
from designer.formats import signed
from designer.search.engines import exhaustive
from designer.studies.checkpoint import record_request

UNTRUSTED = "the checkpoint is not signed by this user's designer"


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


def records(capsys, *args) -> tuple[int, dict | None, str]:
    status = main(["records", "--time-limit", "20", "--json", *args])
    captured = capsys.readouterr()
    found = {r["rocks"]: r for r in json.loads(captured.out)["records"]} if status == 0 else None
    return status, found, captured.err


def test_a_record_copied_over_others_proves_nothing(tmp_path, capsys):
    checkpoint = tmp_path / "ck.json"
    args = ["--size", "5x6", "--rocks", "1..4", "--checkpoint", str(checkpoint)]
    status, truth, err = records(capsys, *args)
    assert status == 0 and err == "" and [truth[r]["min_stops"] for r in (1, 2, 3, 4)] == [5, 7, 7, 7]
    state = json.loads(checkpoint.read_text())
    for rocks in ("2", "3", "4"):  # the 1-rock record, proven, over the others
        state["records"][rocks] = dict(state["records"]["1"], rocks=int(rocks))
    checkpoint.write_text(json.dumps(state))
    status, again, err = records(capsys, *args)
    assert status == 0 and one_error_line(err) and UNTRUSTED in err
    assert {r: (again[r]["min_stops"], again[r]["proven_optimal"]) for r in again} == \
        {r: (truth[r]["min_stops"], True) for r in truth}
    status, third, err = records(capsys, *args)  # the file written back is signed: read as it is
    assert status == 0 and err == "" and third == again


def test_forged_proof_progress_proves_nothing(tmp_path, capsys):
    checkpoint = tmp_path / "ck.json"
    args = ["--size", "5x5", "--no-frame", "--checkpoint", str(checkpoint)]
    status, truth, _ = records(capsys, "--rocks", "1..1", *args)
    state = json.loads(checkpoint.read_text())
    one = state["records"]["1"]
    keys = exhaustive.shard_keys(record_request(5, 5, False, 3))  # every shard done, none found anything
    state["partial"]["3"] = {"bound": one["level"], "threshold": one["min_stops"] + 1, "seconds": 0,
                             "shards": {",".join(map(str, key)): [-1, 0, 0, -1, -1, 1, True] for key in keys}}
    checkpoint.write_text(json.dumps(state))
    status, found, err = records(capsys, "--rocks", "1..3", *args)
    assert status == 0 and UNTRUSTED in err
    assert (found[3]["min_stops"], found[3]["proven_optimal"]) == (11, True)


@pytest.mark.parametrize("partial, words", [
    ({"bound": None, "threshold": 1, "shards": {}, "seconds": 0}, "where no proof applies"),
])
def test_progress_where_no_proof_applies_is_one_line(tmp_path, capsys, partial, words):
    checkpoint = tmp_path / "ck.json"
    args = ["--size", "5x6", "--checkpoint", str(checkpoint)]
    assert records(capsys, "--rocks", "1..2", *args)[0] == 0
    state = json.loads(checkpoint.read_text())
    state["partial"]["3"] = partial
    checkpoint.write_text(json.dumps(state))
    status, _, err = records(capsys, "--rocks", "1..3", *args)
    assert status == 2 and one_error_line(err) and "not a records checkpoint" in err and words in err


@pytest.mark.parametrize("shards, words", [
    ({"3,0,99": [-1, 0, 0, -1, -1, 1, True]}, "not a shard of the proof"),
    ({"3,0,1": [5, 0, 2 ** 40, 0, 0, 1, True]}, "out of range"),
    ({"3,0,1": [5, 0, 0, 0, 999, 1, True]}, "out of range"),
    ({"3,0,1": [-1, 0, 0, -1, -1, -4, True]}, "out of range"),
    ({"3,0,1": [-1, 0, 0, -1, -1, 1, 7]}, "out of range"),
])
def test_a_shard_no_proof_has_is_one_line(tmp_path, capsys, shards, words):
    checkpoint = tmp_path / "ck.json"
    args = ["--size", "4x5", "--no-frame", "--checkpoint", str(checkpoint)]
    assert records(capsys, "--rocks", "1..2", *args)[0] == 0
    state = json.loads(checkpoint.read_text())
    state["partial"]["3"] = {"bound": None, "threshold": 1, "shards": shards, "seconds": 0}
    checkpoint.write_text(json.dumps(state))
    status, _, err = records(capsys, "--rocks", "1..3", *args)
    assert status == 2 and one_error_line(err) and words in err


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"version": 2, "records": {"1": 1' + "0" * 40 + "}}", "digits"),
    ("x" * (9 * 1024 * 1024), "too large"),
    ('{"version": 2, "key": {"size": "5x6", "frame": true, "seed": 0}, "records": {"-1": {}}, "partial": {}}',
     "is not a rock count"),
])
def test_reading_a_checkpoint_has_the_level_readers_limits(tmp_path, capsys, text, words):
    checkpoint = tmp_path / "ck.json"
    checkpoint.write_text(text)
    status, _, err = records(capsys, "--size", "5x6", "--rocks", "1..1", "--checkpoint", str(checkpoint))
    assert status == 2 and one_error_line(err) and "not a records checkpoint" in err and words in err


def test_the_secret_is_made_once_private_and_signs_what_it_wrote(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    content = {"a": [1, 2], "b": None}
    signature = signed.sign(content)
    path = tmp_path / "ice-designer" / "secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(path.read_bytes()) == signed.SECRET_BYTES
    assert signed.sign({"b": None, "a": [1, 2]}) == signature  # the key order is no part of it
    assert signed.vouched(content, signature) and not signed.vouched({"a": [1, 3], "b": None}, signature)
    assert not signed.vouched(content, None) and not signed.vouched(content, signature.upper())
    os.chmod(path, 0o644)  # a secret others may read is no secret: nothing is vouched for
    assert signed.sign(content) is None and not signed.vouched(content, signature)


def test_with_no_data_folder_a_checkpoint_still_works_untrusted(tmp_path, capsys, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))  # no folder can be made there
    checkpoint = tmp_path / "ck.json"
    args = ["--size", "4x5", "--no-frame", "--rocks", "1..2", "--checkpoint", str(checkpoint)]
    status, first, err = records(capsys, *args)
    assert status == 0 and err == "" and "signature" not in json.loads(checkpoint.read_text())
    status, again, err = records(capsys, *args)
    assert status == 0 and UNTRUSTED in err and again[2]["min_stops"] == first[2]["min_stops"]
