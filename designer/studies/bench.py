"""Benchmarks that print figures (``designer bench ...``): speed targets live here, not in tests."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from designer.core.errors import DesignerError
from designer.analysis.classify import CLASS_NAMES, classify, classify_batch
from designer.core.level import SNOW
from designer.search.sampling import batch_level, random_frame_batch


def bench_classify(count: int = 10_000, height: int = 12, width: int = 12, density: float = 0.2,
                   seed: int = 0, repeats: int = 5) -> dict:
    """Time classifying ``count`` random framed levels (class, reversibility, min stops).

    Returns the median over ``repeats`` runs of the batch call (all cores) and of a plain Python
    loop calling ``classify`` on each level, plus what the levels turned out to be.
    """
    rng = np.random.default_rng(seed)
    terrains, starts, goals = random_frame_batch(rng, count, height, width, density)
    classify_batch(terrains[:2], starts[:2], goals[:2])  # load compiled kernels before timing
    batch_times, loop_times = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        classes, reversible, stops = classify_batch(terrains, starts, goals)
        batch_times.append(time.perf_counter() - t0)
    levels = [batch_level(terrains, starts, goals, k) for k in range(count)]
    for _ in range(max(1, repeats // 2)):
        t0 = time.perf_counter()
        for level in levels:
            classify(level)
        loop_times.append(time.perf_counter() - t0)
    good = (classes == 2) & reversible
    return {
        "levels": count,
        "size": f"{height}x{width}",
        "rock_density": density,
        "batch_seconds_median": statistics.median(batch_times),
        "loop_seconds_median": statistics.median(loop_times),
        "classes": {name: int(np.count_nonzero(classes == k)) for k, name in enumerate(CLASS_NAMES)},
        "reversible": int(np.count_nonzero(reversible)),
        "strong_and_reversible": int(np.count_nonzero(good)),
        "max_min_stops_strong_reversible": int(stops[good].max()) if good.any() else None,
    }


def solvable_random_level(height: int, width: int, density: float, seed: int, tries: int = 2000):
    """The first solvable framed random level of a seeded stream (DesignerError after ``tries``)."""
    rng = np.random.default_rng(seed)
    for _ in range(0, tries, 16):
        terrains, starts, goals = random_frame_batch(rng, 16, height, width, density)
        classes, _, _ = classify_batch(terrains, starts, goals)
        for k in np.flatnonzero(classes > 0):
            return batch_level(terrains, starts, goals, int(k))
    raise DesignerError(f"no solvable {height}x{width} level in {tries} random tries at rock density {density}")


def bench_analyze(height: int = 300, width: int = 300, density: float = 0.2, seed: int = 0,
                  runs: int = 5, json_output: bool = False) -> dict:
    """Whole-process wall time of ``designer analyze`` on a random solvable level (median of runs)."""
    level = solvable_random_level(height, width, density, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"random-{height}x{width}.txt"
        path.write_text(str(level) + "\n")
        command = [sys.executable, "-m", "designer", "analyze", str(path)] + (["--json"] if json_output else [])
        subprocess.run(command, check=True, capture_output=True)  # warm the kernel cache and disk
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    return {
        "size": f"{height}x{width}",
        "rock_density": density,
        "command": "designer analyze FILE" + (" --json" if json_output else ""),
        "runs": runs,
        "seconds_median": statistics.median(times),
        "seconds_max": max(times),
    }


def run_snow(level) -> int:
    """Snow tiles in a level."""
    return int((level.terrain == SNOW).sum())


def bench_make(args: list[str], seeds: list[int]) -> dict:
    """Whole-process wall time of ``designer make ARGS --seed S --format json`` for each seed.

    Each printed level is verified again here (analysis of the level read back: strong,
    reversible, min stops at least the request's, exactly the snow tiles asked for, and with
    --tidy every placed tile needed).
    Returns per-seed results and the median.
    """
    from designer.analysis.graph import analyze
    from designer.formats.level_files import parse_level

    wanted = 1
    if "--min-stops" in args:
        wanted = int(args[args.index("--min-stops") + 1])
    snow = int(args[args.index("--snow") + 1]) if "--snow" in args else 0
    tidy_check = None
    if "--tidy" in args and "--maximize" not in args:
        from designer.cli.commands import parse_size
        from designer.analysis.tidy import is_tidy
        from designer.core.request import LayoutRequest

        size = parse_size(args[args.index("--size") + 1]) if "--size" in args else (12, 12)
        asked = LayoutRequest(height=size[0], width=size[1], frame="--no-frame" not in args, min_stops=wanted)
        tidy_check = lambda level: is_tidy(asked, level, wanted)  # noqa: E731
    runs = []
    for seed in seeds:
        command = [sys.executable, "-m", "designer", "make", *args, "--seed", str(seed), "--format", "json"]
        t0 = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        run = {"seed": seed, "seconds": round(seconds, 3), "status": done.returncode}
        if done.returncode == 0:
            level = parse_level(done.stdout)
            report = analyze(level)
            generator = json.loads(done.stdout).get("generator") or {}
            run.update(min_stops=report.min_stops, stage=generator.get("stage"), snow=run_snow(level),
                       proven_optimal=generator.get("proven_optimal"), rejected=generator.get("rejected"),
                       verified=report.solvability == "strong" and report.reversible
                       and (report.min_stops or 0) >= wanted and run_snow(level) == snow
                       and (tidy_check is None or tidy_check(level)))
        else:
            run["error"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        runs.append(run)
    ok = [r["seconds"] for r in runs if r["status"] == 0]
    return {
        "command": "designer make " + " ".join(args),
        "runs": runs,
        "successes": len(ok),
        "seconds_median": statistics.median(r["seconds"] for r in runs),
        "best_min_stops": max((r.get("min_stops") or 0 for r in runs), default=0),
        "rejected": sum(r.get("rejected") or 0 for r in runs),
        "all_verified": all(r.get("verified") for r in runs if r["status"] == 0),
    }
