"""Benchmarks that print figures (``designer bench ...``): speed targets live here, not in tests."""

from __future__ import annotations

import json
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from designer.analysis.classify import CLASS_NAMES, classify, classify_batch
from designer.core.control import die_with_parent
from designer.core.errors import DesignerError
from designer.core.terrain import SNOW
from designer.search.engines.sampling import batch_level, random_frame_batch


def bench_classify(
    count: int = 10_000,
    height: int = 12,
    width: int = 12,
    density: float = 0.2,
    seed: int = 0,
    repeats: int = 5,
) -> dict:
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
        "classes": {
            name: int(np.count_nonzero(classes == k)) for k, name in enumerate(CLASS_NAMES)
        },
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
    raise DesignerError(
        f"no solvable {height}x{width} level in {tries} random tries at rock density {density}"
    )


def designer_child(command: list[str], check: bool = True) -> subprocess.CompletedProcess:
    """Run a designer command as a child that ends with this process, however this one ends
    (``kill -9`` included: the kernel then sends it SIGTERM, and it ends its own helpers)."""
    return subprocess.run(
        command,
        check=check,
        capture_output=True,
        text=True,
        preexec_fn=die_with_parent(signal.SIGTERM),
    )


def bench_analyze(
    height: int = 300,
    width: int = 300,
    density: float = 0.2,
    seed: int = 0,
    runs: int = 5,
    json_output: bool = False,
) -> dict:
    """Whole-process wall time of ``designer analyze`` on a random solvable level (median of runs),
    and the largest resident memory of a run (``peak_rss_mb``, the children's maximum: every
    child this function runs is that same command)."""
    level = solvable_random_level(height, width, density, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"random-{height}x{width}.txt"
        path.write_text(str(level) + "\n")
        command = [sys.executable, "-m", "designer", "analyze", str(path)] + (
            ["--json"] if json_output else []
        )
        designer_child(command)  # warm the kernel cache and disk
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            designer_child(command)
            times.append(time.perf_counter() - t0)
    return {
        "size": f"{height}x{width}",
        "rock_density": density,
        "command": "designer analyze FILE" + (" --json" if json_output else ""),
        "runs": runs,
        "seconds_median": statistics.median(times),
        "seconds_max": max(times),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }


def bench_make(args: list[str], seeds: list[int]) -> dict:
    """Whole-process wall time of ``designer make ARGS --seed S --format json`` for each seed.

    Each printed level is verified again here by the one verifier (``designer.analysis.verify``),
    against the request its generator record states (the request ``make`` parsed from ARGS).
    Returns per-seed results and the median.
    """
    from designer.analysis.graph import analyze
    from designer.analysis.verify import meets
    from designer.formats.level_files import parse_level
    from designer.search.result import GeneratorRecord

    runs = []
    for seed in seeds:
        command = [
            sys.executable,
            "-m",
            "designer",
            "make",
            *args,
            "--seed",
            str(seed),
            "--format",
            "json",
        ]
        t0 = time.perf_counter()
        done = designer_child(command, check=False)
        seconds = time.perf_counter() - t0
        run: dict[str, Any] = {
            "seed": seed,
            "seconds": round(seconds, 3),
            "status": done.returncode,
        }
        if done.returncode == 0:
            level = parse_level(done.stdout)
            report = analyze(level)
            record = GeneratorRecord.from_json(json.loads(done.stdout).get("generator"))
            assert record.request is not None and report.per_stop is not None  # a designed level's
            # a maximized level keeps its own stops
            floor = report.min_stops if record.maximize else None
            run.update(
                min_stops=report.min_stops,
                options=report.options,
                per_stop=round(report.per_stop, 3),
                rail_stops=report.rail_stops,
                solutions=report.solutions,
                stage=record.stage,
                snow=int((level.terrain == SNOW).sum()),
                proven_optimal=record.proven_optimal,
                rejected=record.rejected,
                verified=meets(record.request, level, report, floor),
            )
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


#: The figures of caves (issue 42): what each asks ``designer cave``, and the seconds it may take.
CAVE_FIGURES = (
    (
        "2x2 rooms of 12x12, doorways on the shared walls",
        ["{caves}/four-rooms.txt", "--min-stops", "60"],
        30,
    ),
    (
        "an Ice Path: 3 floors, 7 rooms, 2 holes, 2 ladders, a key",
        ["{caves}/ice-path.txt", "--min-stops", "80"],
        120,
    ),
    ("from nothing: 6 rooms, 2 keys", ["--rooms", "6", "--keys", "2", "--min-stops", "70"], 60),
    (
        "from nothing: 8 rooms, 3 keys, 3 floors, the seed's shape",
        ["--rooms", "8", "--keys", "3", "--floors", "3", "--min-stops", "100"],
        60,
    ),
    (
        "a chain of 3 keys, each behind the last one's lock",
        ["--rooms", "7", "--keys", "3", "--shape", "chain", "--min-stops", "70"],
        60,
    ),
    ("a band no plan can meet", ["{caves}/four-rooms.txt", "--min-stops", "400"], 5),
)


def bench_caves(seeds: list[int], dask: bool = True) -> dict:
    """Whole-process times of ``designer cave`` on the figures of caves (``CAVE_FIGURES``), a run
    per seed, each designed cave checked again here by the cave's verifier; and, with ``dask``,
    16 rooms designed on ``--dask local`` against here (a lane per core), compared file for file."""
    from designer.caves.cave import Cave
    from designer.caves.cave_analysis import failure

    caves = Path(__file__).resolve().parents[2] / "examples" / "caves"
    if not caves.is_dir():
        raise DesignerError(
            f"the cave figures read the project's examples/caves/, not found at {caves}"
        )
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        for what, args, target in CAVE_FIGURES:
            runs = []
            for seed in seeds:
                path = Path(tmp) / f"cave-{seed}.json"
                command = [
                    sys.executable,
                    "-m",
                    "designer",
                    "cave",
                    *(a.format(caves=caves) for a in args),
                    "--seed",
                    str(seed),
                    "-o",
                    str(path),
                    "--force",
                ]
                t0 = time.perf_counter()
                done = designer_child(command, check=False)
                run: dict[str, Any] = {
                    "seed": seed,
                    "seconds": round(time.perf_counter() - t0, 2),
                    "status": done.returncode,
                }
                if done.returncode == 0:
                    obj = json.loads(path.read_text())
                    run.update(
                        min_stops=obj["analysis"]["min_stops"],
                        keys_needed=[key["needed"] for key in obj["analysis"]["keys"]],
                        verified=failure(
                            Cave.from_json(obj), int(args[args.index("--min-stops") + 1])
                        )
                        is None,
                    )
                    drawn = obj["generator"]["request"].get("grammar")
                    if drawn:
                        run["shape"] = drawn["shape"]
                else:
                    run["said"] = (
                        done.stderr.strip().splitlines()[-1][:200] if done.stderr.strip() else ""
                    )
                runs.append(run)
            median = statistics.median(run["seconds"] for run in runs)
            found.append(
                {
                    "cave": what,
                    "command": "designer cave "
                    + " ".join(args).replace("{caves}", "examples/caves"),
                    "target_seconds": target,
                    "seconds_median": median,
                    "within": median <= target,
                    "runs": runs,
                }
            )
        if dask:
            args = [
                "--rooms",
                "16",
                "--keys",
                "2",
                "--size",
                "8x8",
                "--min-stops",
                "120",
                "--seed",
                str(seeds[0]),
            ]
            files = {}
            for where, extra in (("here", []), ("dask local", ["--dask", "local"])):
                path = Path(tmp) / f"{where.replace(' ', '-')}.txt"
                t0 = time.perf_counter()
                designer_child(
                    [
                        sys.executable,
                        "-m",
                        "designer",
                        "cave",
                        *args,
                        *extra,
                        "-o",
                        str(path),
                        "--force",
                    ]
                )
                files[where] = (path.read_text(), round(time.perf_counter() - t0, 2))
            found.append(
                {
                    "cave": "16 rooms, --dask local against here (a lane per core)",
                    "command": "designer cave " + " ".join(args),
                    "seconds": {where: seconds for where, (_, seconds) in files.items()},
                    "same_cave": files["here"][0] == files["dask local"][0],
                }
            )
    return {"figures": found}
