"""Seconds that pass, or seconds of work (designer.core.budget): the same seeded designs run on an
idle machine and beside four busy processes, on each clock; prints, for each, its status and a
digest of what it wrote, idle and loaded, and whether they agree.

    python docs/clock_study.py                 # both clocks
    python docs/clock_study.py --clock cpu

The figures in docs/performance.md ("Work budgets") come from this script.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Seeded designs: some end well within their budget, one ends near it, two spend it all.
CASES = [
    ["make", "--size", "9x9", "--min-stops", "21", "--method", "sat", "--seed", "1", "--time-limit", "30"],
    ["make", "--min-stops", "25", "--seed", "3", "--time-limit", "30"],
    ["make", "--min-stops", "40", "--seed", "2", "--time-limit", "30"],
    ["make", "--method", "cpsat", "--min-stops", "30", "--seed", "2", "--workers", "1", "--time-limit", "30"],
    ["make", "--items", "2", "--min-stops", "15", "--seed", "1", "--time-limit", "30"],
    ["make", "--teleports", "1", "--min-stops", "15", "--seed", "1", "--time-limit", "30"],
    ["make", "--size", "7x7", "--min-stops", "15", "--time-limit", "30"],
    ["make", "--min-stops", "25", "--seed", "3", "--maximize-choices", "--time-limit", "3"],
    ["make", "--size", "8x8", "--min-stops", "7", "--count", "3", "--out", "PACK", "--time-limit", "30"],
    ["cave", "examples/caves/four-rooms.txt", "--min-stops", "30", "--seed", "0", "--time-limit", "60"],
    # a cave's rooms are designed on the work clock whatever the clock (issue 60)
    ["cave", "examples/caves/ice-path.txt", "--min-stops", "80", "--seed", "1", "--time-limit", "60"],
    ["cave", "examples/caves/chain-of-three.txt", "--min-stops", "30", "--seed", "2", "--time-limit", "60"],
]


def run(args: list[str], clock: str) -> tuple[int, str, float]:
    """(status, digest of the level or pack written, seconds that passed)."""
    folder = Path(tempfile.mkdtemp(prefix="clock-study-"))
    try:
        args = [str(folder / "pack") if a == "PACK" else a for a in args]
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "designer", *args], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "DESIGNER_CLOCK": clock})
        took = time.perf_counter() - began
        text = done.stdout
        if (folder / "pack").is_dir():
            text = "".join(p.read_text() for p in sorted((folder / "pack").iterdir()))
        return done.returncode, hashlib.sha1(text.encode()).hexdigest()[:8], took
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def busy(count: int = 4) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clock", choices=("wall", "cpu", "both"), default="both")
    clocks = ("wall", "cpu") if parser.parse_args().clock == "both" else (parser.parse_args().clock,)
    print("| clock | command | idle | beside 4 busy processes | same |")
    print("| --- | --- | --- | --- | --- |")
    for clock in clocks:
        idle = [run(args, clock) for args in CASES]
        spinners = busy()
        try:
            loaded = [run(args, clock) for args in CASES]
        finally:
            for one in spinners:
                one.kill()
        for args, (s1, d1, t1), (s2, d2, t2) in zip(CASES, idle, loaded):
            shown = " ".join(a for a in args if a != "PACK")
            print(f"| {clock} | `{shown}` | {s1}, {d1}, {t1:.1f} s | {s2}, {d2}, {t2:.1f} s | "
                  f"{'yes' if (s1, d1) == (s2, d2) else '**no**'} |", flush=True)


if __name__ == "__main__":
    main()
