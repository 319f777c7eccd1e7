"""Property-based fuzzing of everything that reads user input: level files (text and JSON), the
records checkpoint, and the command line's options. Whatever the input, the answer is a result
or one line with a documented status (0, 1, 2), never a traceback.

The suite runs a few dozen cases of each. A longer run (the figure in docs/spec.md):

    ICE_FUZZ_EXAMPLES=3000 python -m pytest tests/test_fuzz.py -p no:cacheprovider -n 2 \\
        --hypothesis-show-statistics
"""

import contextlib
import io
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES
from designer.cli import main
from designer.core.errors import DesignerError
from designer.formats.level_files import parse_level
from designer.formats.level_json import level_from_json
from designer.studies.checkpoint import Checkpoint

FUZZ = settings(max_examples=int(os.environ.get("ICE_FUZZ_EXAMPLES", "40")), deadline=None,
                suppress_health_check=list(HealthCheck))

VALID = (EXAMPLES / "strong-reversible.txt").read_text()
TILES = "#.SG*@ox+-|/ \n\t\r\u00e9\u2603\x00"


def mutated(text: str):
    """A text with a few characters replaced, inserted or deleted."""
    @st.composite
    def build(draw):
        chars = list(text)
        for _ in range(draw(st.integers(0, 6))):
            at = draw(st.integers(0, len(chars)))
            kind = draw(st.sampled_from(["put", "insert", "delete"]))
            char = draw(st.sampled_from(TILES))
            if kind == "insert" or at == len(chars):
                chars.insert(at, char)
            elif kind == "put":
                chars[at] = char
            else:
                del chars[at]
        return "".join(chars)
    return build()


level_texts = st.one_of(mutated(VALID), st.text(alphabet=TILES, max_size=80), st.text(max_size=40))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@lru_cache(maxsize=None)
def valid_level_json() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["make", "--size", "6x6", "--min-stops", "3", "--seed", "1", "--format", "json"]) == 0
    return out.getvalue()


@st.composite
def json_edits(draw, document: str):
    """``document`` with a value somewhere inside replaced by any JSON value, a key removed or added."""
    obj = json.loads(document)
    for _ in range(draw(st.integers(1, 3))):
        node = obj
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
            if not isinstance(node[key], (dict, list)) or not node[key]:
                break
            node = node[key]
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            action = draw(st.sampled_from(["replace", "delete", "add"]))
            if action == "replace":
                node[key] = draw(json_values)
            elif action == "delete":
                del node[key]
            else:
                node[draw(st.text(max_size=6))] = draw(json_values)
        elif isinstance(node, list) and node:
            node[draw(st.integers(0, len(node) - 1))] = draw(json_values)
    return json.dumps(obj)


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, err.getvalue()


def assert_clean(status: int, err: str, argv) -> None:
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err, (argv, err)
    if status != 0:
        lines = [line for line in err.splitlines() if line.startswith("designer: ")
                 and not line.startswith("designer: note:")]
        assert lines, (argv, err)


@FUZZ
@given(text=level_texts)
def test_the_text_reader_answers_or_refuses_in_one_line(text):
    try:
        parse_level(text)
    except DesignerError as exc:
        assert "\n" not in str(exc)


@FUZZ
@given(data=st.data())
def test_the_json_reader_answers_or_refuses_in_one_line(data):
    text = data.draw(st.one_of(json_edits(valid_level_json()), mutated(valid_level_json())))
    try:
        obj = json.loads(text)
    except ValueError:
        obj = text
    try:
        level_from_json(obj)
    except DesignerError as exc:
        assert "\n" not in str(exc)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "level.json"
        path.write_text(text)
        for argv in (["solve", str(path)], ["analyze", str(path), "--json"],
                     ["make", "--from", str(path), "--time-limit", "0.3"],
                     ["export", str(path), "--to", "tiled", "-o", str(Path(tmp) / "m.tmj")]):
            assert_clean(*run(argv), argv)


@lru_cache(maxsize=None)
def valid_checkpoint() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ck.json"
        status, err = run(["records", "--size", "4x5", "--no-frame", "--rocks", "2..3", "--time-limit", "10",
                           "--checkpoint", str(path)])
        assert status == 0, err
        return path.read_text()


@FUZZ
@given(data=st.data())
def test_the_checkpoint_loader_answers_or_refuses_in_one_line(data):
    text = data.draw(st.one_of(json_edits(valid_checkpoint()), mutated(valid_checkpoint())))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ck.json"
        path.write_text(text)
        try:
            checkpoint = Checkpoint(path, {"size": "4x5", "frame": False, "seed": 0})
            checkpoint.verify(4, 5, False)
        except DesignerError as exc:
            assert "\n" not in str(exc)


# --- the command line -------------------------------------------------------------------------------

WEIRD = ["", "0", "1", "-1", "2", "3", "0.5", "1e309", "nan", "inf", "-inf", "99999999999999999999", "x", "é",
         "\x00", "3x3", "1x2", "12x12", "0x5", "5x0", "x3", "1000x1000", "1..3", "3..1", "..", "-", "json", "txt",
         "auto", "cpsat", "tcp://", "local?", "/dev/null", "/proc/x", "{tmp}", "{tmp}/out.txt", "{tmp}/out.png",
         "{tmp}/missing/out.txt", "#G#/#.#/#S#", "#G#/#?#/#S#", "0,0", "5,5"]
SMALL = ["0", "1", "2", "3", "-1", "x", "", "1e3"]  # where a large value would mean long, real work
LEVELS = [str(EXAMPLES / "strong-reversible.txt"), str(EXAMPLES), "{tmp}/missing.txt", "/dev/null", "-", ""]

OPTIONS = {
    "make": {"--size": WEIRD, "--template": WEIRD, "--min-stops": WEIRD, "--max-stops": WEIRD, "--start": WEIRD,
             "--goal": WEIRD, "--seed": WEIRD, "--format": WEIRD, "-o": WEIRD, "--max-rocks": WEIRD,
             "--snow": WEIRD, "--min-choices": WEIRD, "--workers": WEIRD, "--count": SMALL, "--out": WEIRD,
             "--method": WEIRD, "--from": WEIRD, "--dask": ["", "tcp://", "x", "tls://1.2.3.4:1"],
             "--no-frame": None, "--tidy": None, "--maximize": None, "--maximize-choices": None, "--unique": None,
             "--force": None},
    "solve": {"--by": WEIRD, "--json": None},
    "analyze": {"--json": None},
    "render": {"-o": WEIRD, "--cell": WEIRD, "--solution": None, "--moves-left": None, "--force": None},
    "play": {"-o": WEIRD, "--force": None},
    "export": {"--to": WEIRD, "-o": WEIRD, "--out": WEIRD, "--cell": WEIRD, "--force": None},
    "records": {"--size": ["3x3", "2x3", "1x2", "4x4", "0x5", "x", "1000x1000"], "--rocks": ["0", "1", "1..2", "3..1", "x", "-1"],
                "--seed": WEIRD, "--workers": WEIRD, "--out": WEIRD, "--checkpoint": WEIRD, "--no-frame": None,
                "--json": None, "--force": None},
    "compare": {"--min-stops": SMALL, "--seeds": SMALL, "--methods": WEIRD, "--size": WEIRD, "--workers": WEIRD,
                "--plot": WEIRD, "--json": None, "--force": None},
    "pareto": {"--size": ["3x3", "4x4", "6x6", "x", "0x0"], "--template": WEIRD, "--max-rocks": WEIRD,
               "--snow": WEIRD, "--seed": WEIRD, "--workers": WEIRD, "--out": WEIRD, "--plot": WEIRD,
               "--json": None, "--force": None, "--no-frame": None},
    "bench classify": {"--count": SMALL, "--size": WEIRD, "--density": WEIRD, "--seed": WEIRD, "--repeats": SMALL},
}
#: Every run ends in well under a second or two: the time limit goes last (the last one counts).
LIMITS = {"make": ["--time-limit", "0.3"], "records": ["--time-limit", "0.3"], "compare": ["--budget", "0.3"],
          "pareto": ["--time-limit", "0.3"]}
ARGUMENTS = {"solve": LEVELS, "analyze": LEVELS, "render": LEVELS, "play": LEVELS, "export": LEVELS}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = command.split()
    if command in ARGUMENTS:
        argv.append(draw(st.sampled_from(ARGUMENTS[command])))
    options = OPTIONS[command]
    for name in draw(st.lists(st.sampled_from(sorted(options)), max_size=5, unique=True)):
        argv.append(name)
        if options[name] is not None:
            argv.append(draw(st.sampled_from(options[name]) | st.text(max_size=5)))
    return argv + LIMITS.get(command, [])


@contextlib.contextmanager
def working_in(folder: str):
    """Run with ``folder`` as the working directory: relative output names land there."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@FUZZ
@given(argv=command_lines())
@pytest.mark.slow
def test_any_command_line_gives_a_status_and_at_most_one_line(argv):
    with tempfile.TemporaryDirectory() as tmp, working_in(tmp):
        filled = [arg.replace("{tmp}", tmp) for arg in argv]
        before = set(os.listdir(tmp))
        status, err = run(filled)
        assert_clean(status, err, filled)
        if status != 0:  # a refused or failed command leaves no file behind
            assert set(os.listdir(tmp)) <= before | {"missing"}, (filled, os.listdir(tmp))
