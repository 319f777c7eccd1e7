"""The golden set: what the commands print and write, over every kind of puzzle, kept byte for
byte (apart from clocks) while the house is rebuilt around them.

Each case is a ``designer`` command run from the project's root, with the suite's work clock
(``DESIGNER_CLOCK=cpu``, every search on a budget of work). Its record is its exit status, its
standard output and error, and every file it wrote, each normalised by :func:`normalise` (the
seconds a run took, the date it ran, the path it ran in). The records live in
``tests/golden/NAME.txt``; ``tests/test_golden.py`` compares them.

Write them again, on purpose only, after a change of behaviour the spec records::

    python tests/golden.py            # every case
    python tests/golden.py solve-     # the cases whose names start so
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "golden"
LEVELS = "examples/levels"
CAVES = "examples/caves"
INPUTS = "tests/golden/inputs"

#: name -> (arguments after ``designer``, the output it writes or None). ``{out}`` is a fresh
#: folder of the run; a file or folder named there is read back into the record. A design runs
#: on one worker: two race, and the first to finish wins (the spec says so).
CASES: dict[str, tuple[list[str], str | None]] = {
    # the command line itself: its commands in their panels and order, and each command's options
    "help": (["--help"], None),
    **{f"help-{name}": ([name, "--help"], None) for name in (
        "solve", "analyze", "make", "cave", "studio", "playtest", "render", "export", "play", "import",
        "compare", "pareto", "records", "bench", "game")},
    # solve: a level of each family, a room, a cave
    "solve-plain": (["solve", f"{LEVELS}/seed003-hard.txt"], None),
    "solve-json": (["solve", f"{LEVELS}/seed003-hard.txt", "--json"], None),
    "solve-distance": (["solve", f"{LEVELS}/kata-style.txt", "--by", "distance"], None),
    "solve-snow": (["solve", f"{LEVELS}/snow-and-hole.txt"], None),
    "solve-floors": (["solve", f"{LEVELS}/two-floors.txt", "--json"], None),
    "solve-items": (["solve", f"{LEVELS}/two-items.txt"], None),
    "solve-coins": (["solve", f"{LEVELS}/coins.txt", "--json"], None),
    "solve-unsolvable": (["solve", f"{LEVELS}/unsolvable.txt"], None),
    "solve-cave": (["solve", f"{INPUTS}/cave.txt"], None),
    "solve-room": (["solve", f"{INPUTS}/room.txt", "--json"], None),
    "solve-template": (["solve", f"{CAVES}/world/cave.world"], None),
    "solve-bad-input": (["solve", "README.md"], None),
    # analyze
    "analyze-plain": (["analyze", f"{LEVELS}/seed003-medium.txt"], None),
    "analyze-json": (["analyze", f"{LEVELS}/strong-reversible.txt", "--json"], None),
    "analyze-weak": (["analyze", f"{LEVELS}/weak-oneway.txt"], None),
    "analyze-items": (["analyze", f"{LEVELS}/two-items.txt", "--json"], None),
    "analyze-coins": (["analyze", f"{LEVELS}/coins.txt"], None),
    "analyze-floors": (["analyze", f"{LEVELS}/two-floors.txt"], None),
    "analyze-cave": (["analyze", f"{INPUTS}/cave.txt", "--json"], None),
    "analyze-room": (["analyze", f"{INPUTS}/room.txt"], None),
    # make: each option family
    "make-plain": (["make", "--workers", "1", "--min-stops", "12", "--seed", "1"], None),
    "make-json": (["make", "--workers", "1", "--min-stops", "10", "--seed", "2", "--format", "json"], None),
    "make-band": (["make", "--workers", "1", "--min-stops", "8", "--max-stops", "9", "--seed", "3", "--size", "9x9"], None),
    "make-difficulty": (["make", "--workers", "1", "--difficulty", "medium", "--seed", "4"], None),
    "make-items": (["make", "--workers", "1", "--items", "2", "--min-stops", "6", "--seed", "1"], None),
    "make-coins": (["make", "--workers", "1", "--coins", "2", "--min-stops", "6", "--seed", "1", "--size", "9x9"], None),
    "make-teleports": (["make", "--workers", "1", "--teleports", "1", "--min-stops", "6", "--seed", "1"], None),
    "make-snow": (["make", "--workers", "1", "--snow", "2", "--min-stops", "8", "--seed", "5", "--size", "10x10"], None),
    "make-choices": (["make", "--workers", "1", "--min-stops", "8", "--min-choices", "12", "--seed", "1", "--size", "10x10"],
                     None),
    "make-unique-tidy": (["make", "--workers", "1", "--min-stops", "8", "--unique", "--tidy", "--seed", "1",
                          "--size", "10x10"], None),
    "make-no-frame": (["make", "--workers", "1", "--min-stops", "8", "--no-frame", "--size", "8x8", "--seed", "1"], None),
    "make-template": (["make", "--workers", "1", "--template", "examples/templates/l-room.txt", "--min-stops", "6",
                       "--seed", "1"], None),
    "make-floors": (["make", "--workers", "1", "--template", "examples/templates/two-floors.txt", "--min-stops", "6",
                     "--seed", "1"], None),
    "make-room": (["make", "--workers", "1", "--size", "9x9", "--door", "8,4", "--door", "0,4", "--door", "4,0",
                   "--min-stops", "4", "--seed", "1"], None),
    "make-cpsat": (["make", "--method", "cpsat", "--min-stops", "10", "--seed", "1", "--workers", "1",
                    "--size", "9x9"], None),
    "make-pack": (["make", "--workers", "1", "--count", "3", "--curve", "4..8", "--seed", "1", "--size", "9x9",
                   "--out", "{out}/pack"], "pack"),
    "make-bad-band": (["make", "--workers", "1", "--min-stops", "9", "--max-stops", "3"], None),
    # caves
    "cave-drawn": (["cave", "--workers", "1", f"{CAVES}/four-rooms.txt", "--min-stops", "20", "--seed", "1",
                    "--format", "text"], None),
    "cave-nothing": (["cave", "--workers", "1", "--rooms", "4", "--keys", "1", "--size", "8x8", "--min-stops", "12",
                      "--seed", "2", "--format", "text"], None),
    # pictures, Tiled, the play page, playtests
    "render-level": (["render", f"{LEVELS}/seed003-hard.txt", "-o", "{out}/level.svg", "--solution"],
                     "level.svg"),
    "render-coins": (["render", f"{LEVELS}/coins.txt", "-o", "{out}/coins.svg"], "coins.svg"),
    "render-cave": (["render", f"{INPUTS}/cave.txt", "-o", "{out}/cave.svg", "--solution"],
                    "cave.svg"),
    "export-tiled": (["export", f"{LEVELS}/two-floors.txt", "--to", "tiled", "--out", "{out}/tiled"],
                     "tiled"),
    "export-cave": (["export", f"{INPUTS}/cave.txt", "--to", "tiled", "--out", "{out}/world"],
                    "world"),
    "play-level": (["play", f"{LEVELS}/coins.txt", "-o", "{out}/play.html"], "play.html"),
    "play-cave": (["play", f"{INPUTS}/cave.txt", "-o", "{out}/cave.html"], "cave.html"),
    "playtest": (["playtest", f"{INPUTS}/log.jsonl", "--pack", f"{INPUTS}/pack.txt"], None),
    "playtest-report": (["playtest", f"{INPUTS}/log.jsonl", "--pack", f"{INPUTS}/pack.txt", "-o",
                         "{out}/report.html", "--fit", "{out}/player.json"], "."),
    "analyze-player": (["analyze", f"{LEVELS}/seed003-hard.txt", "--player", f"{INPUTS}/player.json"],
                       None),
    "render-heat": (["render", f"{LEVELS}/seed003-hard.txt", "--heat", "-o", "{out}/heat.svg"],
                    "heat.svg"),
    "render-graph": (["render", f"{LEVELS}/seed003-hard.txt", "--graph", "-o", "{out}/graph.svg"],
                     "graph.svg"),
    "render-png": (["render", f"{LEVELS}/two-items.txt", "-o", "{out}/items.png"], "items.png"),
}

#: What changes from run to run without the behaviour changing.
CLOCKS = [
    (re.compile(r"\b\d+(?:\.\d+)?(?:e-?\d+)? ?(s|ms|us|min)\b"), r"<time> \1"),
    (re.compile(r'"(seconds|elapsed|wall|cpu|time_seconds)": -?[\d.e+-]+'), r'"\1": <time>'),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"), "<date>"),
]


#: A JSON object of seconds by name, as a design's record keeps its stages' times.
TIMES_BY_NAME = re.compile(r'"(stage_seconds)": \{[^{}]*\}')


def normalise(text: str, out: str) -> str:
    """The run's own folder and its clocks replaced by placeholders."""
    text = text.replace(out, "<out>").replace(str(ROOT), "<root>")
    text = TIMES_BY_NAME.sub(lambda m: re.sub(r": [\d.e+-]+", ": <time>", m.group(0)), text)
    for pattern, replacement in CLOCKS:
        text = pattern.sub(replacement, text)
    return text


def read_back(path: Path, out: str) -> list[str]:
    """A written file (or every file of a written folder) as lines of the record: text as
    itself, normalised; anything else as its length and digest."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    lines = []
    for file in files:
        data = file.read_bytes()
        name = file.relative_to(out).as_posix()
        try:
            text = data.decode()
        except UnicodeDecodeError:
            digest = hashlib.sha256(data).hexdigest()
            lines.append(f"--- {name}: {len(data)} bytes, sha256 {digest}")
            continue
        if "\x00" in text:
            lines.append(f"--- {name}: {base64.b64encode(data).decode()}")
            continue
        lines.append(f"--- {name}")
        lines.append(normalise(text, out))
    return lines


def record(name: str) -> str:
    """Run one case and give its record."""
    args, written = CASES[name]
    with tempfile.TemporaryDirectory() as out:
        argv = [a.replace("{out}", out) for a in args]
        env = dict(os.environ, DESIGNER_CLOCK="cpu", COLUMNS="100", NO_COLOR="1", TERM="dumb")
        done = subprocess.run([sys.executable, "-m", "designer", *argv], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        lines = [f"$ designer {' '.join(args)}", f"status {done.returncode}", "--- stdout",
                 normalise(done.stdout, out), "--- stderr", normalise(done.stderr, out)]
        if written is not None and (Path(out) / written).exists():
            lines += read_back(Path(out) / written, out)
    return "\n".join(lines) + "\n"


def main(prefixes: list[str]) -> None:
    RECORDS.mkdir(exist_ok=True)
    for name in CASES:
        if prefixes and not any(name.startswith(p) for p in prefixes):
            continue
        (RECORDS / f"{name}.txt").write_text(record(name))
        print(name, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
