"""Side-by-side comparison of generators on the same requests, budget and verifier.

Runs are interleaved (for each target and seed, every method in a rotating order), so machine
noise hits all methods alike. Every level counted as a success passed the same verification as
``designer make``; a method that finds nothing is reported with zero successes, never dropped.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import replace

from designer.core.control import CancelToken, check
from designer.core.request import LayoutRequest
from designer.search import methods as registry
from designer.search.job import DesignJob
from designer.search.result import Design, DesignFailed

#: Every method of the registry (``designer.search.methods``).
METHODS = registry.names()


def run_method(
    method: str,
    request: LayoutRequest,
    seed: int,
    budget: float,
    workers: int | None = None,
    cancel: CancelToken | None = None,
) -> Design:
    """One attempt of a registered method, ``budget`` seconds."""
    job = DesignJob(request, seed=seed, time_limit=budget, workers=workers, cancel=cancel)
    return registry.get(method).run(job)


def _figures(found: Design) -> dict:
    a = found.analysis
    return {
        "min_stops": a.min_stops,
        "options": a.options,
        "options_per_stop": round(a.per_stop or 0.0, 3),
        "rail_stops": a.rail_stops,
        "setbacks": sum(s.setbacks for s in a.branching),
        "trap_moves": sum(s.traps for s in a.branching),
        "creativity": round(a.creativity.C, 3) if a.creativity else None,
    }


def _summary(runs: list[dict]) -> dict:
    wins = [r for r in runs if r["success"]]
    times = [r["seconds"] for r in wins]

    def mean(key):
        values = [r[key] for r in wins if r.get(key) is not None]
        return round(statistics.fmean(values), 3) if values else None

    return {
        "attempts": len(runs),
        "successes": len(wins),
        "success_rate": round(len(wins) / len(runs), 3) if runs else 0.0,
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "max_seconds": round(max(times), 3) if times else None,
        "best_min_stops": max((r["min_stops"] for r in wins), default=None),
        "mean_min_stops": mean("min_stops"),
        "mean_options": mean("options"),
        "mean_options_per_stop": mean("options_per_stop"),
        "mean_rail_stops": mean("rail_stops"),
        "mean_setbacks": mean("setbacks"),
        "mean_trap_moves": mean("trap_moves"),
        "mean_creativity": mean("creativity"),
    }


def compare(
    request: LayoutRequest,
    targets: list[int],
    seeds: list[int],
    budget: float,
    methods: tuple[str, ...] = METHODS,
    *,
    workers: int | None = None,
    keep_levels: bool = False,
    on_run: Callable[[dict], None] | None = None,
    cancel: CancelToken | None = None,
) -> dict:
    """Run ``methods`` on ``request`` at each min-stops target and seed, ``budget`` seconds each;
    ``cancel`` ends them (``Cancelled``)."""
    for method in methods:
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}: choose from {', '.join(METHODS)}")
    runs = []
    turn = 0
    for target in targets:
        asked = replace(request, min_stops=target)
        for seed in seeds:
            order = methods[turn % len(methods) :] + methods[: turn % len(methods)]
            turn += 1
            for method in order:
                t0 = time.perf_counter()
                try:
                    found = run_method(method, asked, seed, budget, workers, cancel)
                except DesignFailed as failure:
                    check(cancel)  # a cancelled run is no failure of the method
                    run = {
                        "method": method,
                        "min_stops_target": target,
                        "seed": seed,
                        "success": False,
                        "seconds": round(time.perf_counter() - t0, 3),
                        "reason": failure.reason,
                    }
                else:
                    run = {
                        "method": method,
                        "min_stops_target": target,
                        "seed": seed,
                        "success": True,
                        "seconds": round(time.perf_counter() - t0, 3),
                        **_figures(found),
                    }
                    if keep_levels:
                        run["level"] = found.level.rows()
                        run["start"], run["goal"] = list(found.level.start), list(found.level.goal)
                runs.append(run)
                if on_run:
                    on_run(run)
    return {
        "request": {
            "height": request.height,
            "width": request.width,
            "frame": request.frame,
            "min_stops": targets,
            "seeds": seeds,
            "budget_seconds": budget,
        },
        "methods": {m: _summary([r for r in runs if r["method"] == m]) for m in methods},
        "by_min_stops": {
            str(t): {
                m: _summary([r for r in runs if r["method"] == m and r["min_stops_target"] == t])
                for m in methods
            }
            for t in targets
        },
        "runs": runs,
    }


def table_rows(result: dict) -> list[list[str]]:
    """Rows for a terminal table: one per (target, method)."""

    def show(value, unit=""):
        return "-" if value is None else f"{value}{unit}"

    rows = []
    for target, per_method in result["by_min_stops"].items():
        for method, s in per_method.items():
            rows.append(
                [
                    target,
                    method,
                    f"{s['successes']}/{s['attempts']}",
                    show(s["median_seconds"], " s"),
                    show(s["max_seconds"], " s"),
                    show(s["best_min_stops"]),
                    show(s["mean_options"]),
                    show(s["mean_options_per_stop"]),
                    show(s["mean_rail_stops"]),
                    show(s["mean_creativity"]),
                ]
            )
    return rows


TABLE_HEADER = [
    "K",
    "method",
    "verified",
    "median",
    "worst",
    "best stops",
    "options on path",
    "options/stop",
    "rail stops",
    "creativity C",
]


def plot(result: dict, path) -> None:
    """Median time to a verified level against K, one line per method (PNG to a path or binary file)."""
    from designer.core.extras import need

    matplotlib = need("matplotlib", "plot")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    budget = result["request"]["budget_seconds"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    targets = [int(t) for t in result["by_min_stops"]]
    for method in result["methods"]:
        xs, ys, missed = [], [], []
        for t in targets:
            s = result["by_min_stops"][str(t)][method]
            if s["median_seconds"] is None:
                missed.append(t)
            else:
                xs.append(t)
                ys.append(s["median_seconds"])
        line = ax.plot(xs, ys, marker="o", label=method)[0]
        if missed:
            ax.scatter(missed, [budget] * len(missed), marker="x", color=line.get_color())
    ax.axhline(budget, color="grey", linestyle=":", linewidth=1)
    ax.set_yscale("log")
    ax.set_xlabel("min stops K")
    ax.set_ylabel("median seconds to a verified level")
    req = result["request"]
    ax.set_title(
        f"{req['height']}x{req['width']}, {len(req['seeds'])} seeds, budget {budget:g} s "
        f"(x: no level within the budget)"
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
