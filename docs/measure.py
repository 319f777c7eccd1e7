"""Measure the guides' tables again: every row runs its command on this machine and prints
the figure, so stale figures are replaced, not patched.

Run: python docs/measure.py                 # the quick tables (about 15 minutes on 2 cores)
     python docs/measure.py --long          # also the proofs that take up to 10 minutes each
     python docs/measure.py --only make     # the rows whose group or label contains "make"
     python docs/measure.py --list          # the rows and their commands, without running them

Each row names the guide and table it belongs to. ``make`` rows run ``designer bench make``
(whole process, seeds 1-5 unless the row says otherwise, every level read back and verified
again) and print the median seconds and the stops; the other rows print what their command
prints. Measure on an idle machine: the figures are wall-clock times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass

DESIGNER = [sys.executable, "-m", "designer"]


@dataclass(frozen=True)
class Row:
    guide: str  # the guide and table the figure belongs to
    label: str
    kind: str  # "make" (bench make), "bench" (a designer bench command), "timed" (a whole command)
    args: tuple[str, ...]
    seeds: int = 5
    long: bool = False  # only with --long


def make(guide, label, *args, seeds=5, long=False):
    return Row(guide, label, "make", args, seeds, long)


ROWS = [
    Row("performance.md: benchmarks", "classify 10,000 random 12x12 levels", "bench", ("classify",)),
    Row("performance.md: benchmarks", "analyze a random 300x300 level", "bench", ("analyze",)),
    Row("performance.md: benchmarks", "analyze a random 1000x1000 level", "bench",
        ("analyze", "--size", "1000x1000", "--runs", "3")),
    *[make("performance.md: benchmarks", f"make --min-stops {k}", "--min-stops", str(k)) for k in (15, 20, 25, 30, 35)],
    make("performance.md: benchmarks", "15x20 --min-stops 40", "--size", "15x20", "--min-stops", "40"),
    make("performance.md: benchmarks", "--snow 4 --min-stops 20", "--snow", "4", "--min-stops", "20"),
    make("performance.md: benchmarks", "l-room template, K=25", "--template", "examples/templates/l-room.txt",
         "--min-stops", "25"),
    make("performance.md: benchmarks", "--snow 4 --tidy --min-stops 20", "--snow", "4", "--tidy", "--min-stops", "20"),
    make("performance.md: benchmarks", "40x40 --maximize, 20 s", "--size", "40x40", "--maximize", "--time-limit", "20",
         seeds=3),
    make("performance.md: benchmarks", "--max-rocks 0 --min-stops 1", "--max-rocks", "0", "--min-stops", "1"),
    make("performance.md: benchmarks", "parity proof, K in 22..22", "--min-stops", "22", "--max-stops", "22"),
    make("performance.md: benchmarks", "12x12 --maximize, 300 s", "--maximize", "--time-limit", "300", seeds=3,
         long=True),
    *[make("model.md: the model alone", f"--method cpsat --min-stops {k}", "--method", "cpsat", "--min-stops", str(k))
      for k in (15, 25, 30)],
    *[make("designing.md: the portfolio", f"{size} K={k} (infeasible), {method}", "--size", size, "--min-stops", str(k),
           "--time-limit", "60", "--method", method)
      for size, k in (("6x6", 11), ("5x6", 9), ("6x7", 13), ("7x7", 15)) for method in ("auto", "cpsat", "cpsat-ends")],
    make("model.md: split by its ends", "8x8 K=21 (infeasible), cpsat-ends", "--size", "8x8", "--min-stops", "21",
         "--time-limit", "1800", "--method", "cpsat-ends", seeds=1, long=True),
    make("designing.md: choices", "K=25 band, --maximize-choices, 30 s", "--min-stops", "25", "--max-stops", "25",
         "--maximize-choices", "--time-limit", "30", seeds=3),
    make("designing.md: choices", "--min-stops 25 --unique", "--min-stops", "25", "--unique"),
    make("designing.md: difficulty", "--difficulty hard", "--difficulty", "hard"),
    Row("designing.md: difficulty", "--curve 5..35 --count 7 (12x12)", "timed",
        ("make", "--curve", "5..35", "--count", "7", "--out", "{tmp}/curve")),
    *[make("records.md: rooms with a frame", f"{n}x{n} --maximize, 600 s", "--size", f"{n}x{n}", "--maximize",
           "--time-limit", "600", seeds=1, long=n >= 8) for n in (5, 6, 7, 8, 9, 10)],
    make("records.md: rooms with a frame", "8x8 --maximize --method cpsat-ends, 1800 s", "--size", "8x8", "--maximize",
         "--method", "cpsat-ends", "--time-limit", "1800", seeds=1, long=True),
    Row("records.md: records", "records 6x7 --no-frame --rocks 3..8", "timed",
        ("records", "--size", "6x7", "--no-frame", "--rocks", "3..8", "--time-limit", "60", "--json"), long=True),
    Row("records.md: records", "records 7x7 --no-frame --rocks 3..9 (about 13 min)", "timed",
        ("records", "--size", "7x7", "--no-frame", "--rocks", "3..9", "--time-limit", "2400", "--json"), long=True),
    Row("records.md: open grids", "records 16x24 --no-frame --rocks 1..16 (about 30 min)", "timed",
        ("records", "--size", "16x24", "--no-frame", "--rocks", "1..16", "--time-limit", "118", "--json"), long=True),
    Row("records.md: open grids", "records 24x32 --no-frame --rocks 7..16 (about 20 min)", "timed",
        ("records", "--size", "24x32", "--no-frame", "--rocks", "7..16", "--time-limit", "118", "--json"), long=True),
    Row("generators.md: compare", "compare K=10..30, 20 s a run, 5 seeds (about 40 min)", "timed",
        ("compare", "--min-stops", "10,15,20,25,30", "--budget", "20", "--seeds", "5"), long=True),
    Row("designing.md: choices", "pareto 12x12, 120 s", "timed",
        ("pareto", "--size", "12x12", "--time-limit", "120", "--json"), long=True),
]


def run_row(row: Row, tmp: str) -> str:
    if row.kind == "make":
        done = subprocess.run([*DESIGNER, "bench", "make", "--seeds", str(row.seeds), "--", *row.args],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return f"failed: {done.stderr.strip().splitlines()[-1:]}"
        result = json.loads(done.stdout)
        stops = sorted({r.get("min_stops") for r in result["runs"] if r.get("min_stops") is not None})
        errors = sorted({r.get("error", "")[:60] for r in result["runs"] if r["status"] != 0})
        proven = [r.get("proven_optimal") for r in result["runs"] if r["status"] == 0]
        parts = [f"median {result['seconds_median']:.2f} s over {len(result['runs'])} seeds",
                 f"stops {stops}" if stops else "", f"proven {proven}" if any(p is not None for p in proven) else "",
                 f"verified {result['all_verified']}", "; ".join(errors)]
        return ", ".join(p for p in parts if p)
    if row.kind == "bench":
        done = subprocess.run([*DESIGNER, "bench", *row.args], capture_output=True, text=True)
        result = json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr.strip()}
        return ", ".join(f"{k} {v}" for k, v in result.items() if "median" in k or k in ("peak_rss_mb", "error"))
    args = [a.format(tmp=tmp) for a in row.args]
    t0 = time.perf_counter()
    wide = {**os.environ, "COLUMNS": "200"}  # a table printed whole, not folded to 80 columns
    done = subprocess.run([*DESIGNER, *args], capture_output=True, text=True, env=wide)
    seconds = time.perf_counter() - t0
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    if "--json" in args and done.returncode == 0:  # the figures themselves: each record, or the front
        result = json.loads(done.stdout)
        rows = result.get("records") or result.get("front") or []
        last = "; ".join(f"{r.get('rocks', '')} {r.get('min_stops')}{' proven' if r.get('proven_optimal') else ''}"
                         f"{' ' + str(r['options']) + ' options' if 'options' in r else ''}".strip() for r in rows)
    elif done.returncode == 0 and done.stdout.count("\n") > 1:  # a table (compare): print it as it came
        last = "\n\n" + done.stdout
    return f"{seconds:.1f} s, status {done.returncode}: {last}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="also the rows that take up to 10 minutes each")
    parser.add_argument("--only", default="", help="only rows whose guide or label contains this")
    parser.add_argument("--list", action="store_true", help="list the rows and their commands")
    options = parser.parse_args()
    import tempfile

    rows = [r for r in ROWS if (options.long or not r.long) and options.only in f"{r.guide} {r.label}"]
    guide = None
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            if row.guide != guide:
                guide = row.guide
                print(f"\n## {guide}\n\n| row | command | measured |\n| --- | --- | --- |")
            command = ("designer bench make --seeds %d -- " % row.seeds if row.kind == "make" else
                       "designer bench " if row.kind == "bench" else "designer ") + " ".join(row.args)
            figure = "(not run)" if options.list else run_row(row, tmp)
            print(f"| {row.label} | `{command}` | {figure} |", flush=True)


if __name__ == "__main__":
    main()
