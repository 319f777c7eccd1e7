"""``designer bench game``: the figures of a whole game, as issue 62 sets them, measured on the
command a user runs (``designer game``, a child process per run, timed whole).

For each seed: the wall-clock seconds; the worlds, levels and caves; every teaching level's
ablation (teaches or not); within each world, the rank correlation (Spearman) of the practice
levels' predicted difficulty with their place, and the worlds' medians rising; the closest two
levels and the sizes and styles of layout; fewest-moves solutions repeated; the most rail stops
as a share of a level's stops among levels of 25 stops or more; the caves' rooms and their sizes,
the caves with keys of more than one pattern, every key needed, and what each cave holds of its
world's mechanic, taken away. Then the first seed is made again and compared file for file
(``reproducible``).

>>> spearman([1.0, 2.0, 3.0]), spearman([3.0, 2.0, 1.0]), spearman([1.0, 1.0, 2.0])
(1.0, -1.0, 0.866)
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: Levels of at least this many stops are held to a quarter of rail stops or fewer.
LONG = 25


def spearman(values: list[float]) -> float:
    """The rank correlation of ``values`` with their places (ties: their mean rank), to 3 places;
    1.0 for fewer than two."""
    if len(values) < 2:
        return 1.0
    ranks = _ranks(values)
    places = np.arange(len(values), dtype=float)
    if np.std(ranks) == 0:
        return 0.0
    return round(float(np.corrcoef(places, ranks)[0, 1]), 3)


def _ranks(values: list[float]) -> np.ndarray:
    order = sorted(range(len(values)), key=lambda k: values[k])
    ranks = np.empty(len(values))
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for m in range(k, j + 1):
            ranks[order[m]] = (k + j) / 2
        k = j + 1
    return ranks


def figures(folder: Path) -> dict:
    """The figures of the game written in ``folder`` (its ``game.json`` and level files)."""
    index = json.loads((folder / "game.json").read_text())
    worlds, medians, rails, teaches = [], [], [], []
    for world in index["worlds"]:
        practice = [level["difficulty"] for level in world["levels"] if level["role"] == "practice"]
        medians.append(statistics.median(practice) if practice else None)
        teaches += [
            level["ablation"]["teaches"] for level in world["levels"] if "ablation" in level
        ]
        for level in world["levels"]:
            analysis = json.loads((folder / level["file"]).read_text())["analysis"]
            if analysis["min_stops"] >= LONG:
                rails.append(analysis["branching"]["rail_stops"] / analysis["min_stops"])
        worlds.append(
            {
                "name": world["name"],
                "mechanic": world["mechanic"],
                "spearman": spearman(practice),
                "median": medians[-1],
            }
        )
    known = [m for m in medians if m is not None]
    variety = index["variety"]
    return {
        "worlds": len(worlds),
        "levels": sum(len(world["levels"]) for world in index["worlds"]),
        "caves": sum(world["cave"] is not None for world in index["worlds"]),
        "teaching_levels_teach": all(teaches) and len(teaches) == len(worlds),
        "per_world": worlds,
        "medians_rising": all(a < b for a, b in zip(known, known[1:])),
        "closest": variety["closest"],
        "sizes": len(variety["sizes"]),
        "styles": variety["styles"],
        "solutions_repeated": variety["solutions_repeated"],
        "levels_of_25_stops_or_more": len(rails),
        "most_rail_share_of_those": round(max(rails), 3) if rails else None,
        **_caves([world["cave"] for world in index["worlds"] if world["cave"] is not None]),
    }


def _caves(caves: list[dict]) -> dict:
    """The caves' figures: rooms and sizes, key patterns, keys needed, the mechanic held."""
    return {
        "cave_rooms": sum(len(cave["rooms"]) for cave in caves),
        "cave_room_sizes": len({size for cave in caves for size in cave["sizes"]}),
        "caves_of_several_sizes": sum(len(set(cave["sizes"])) > 1 for cave in caves),
        "caves_of_two_key_patterns": sum(len(set(cave["key_patterns"])) > 1 for cave in caves),
        "cave_keys_all_needed": all(all(cave["keys_needed"]) for cave in caves),
        "caves_holding_their_mechanic": [
            f"{held['mechanic']}: par {held['par']}, {held['par_away'] or 'unsolvable'} without"
            for held in (cave["ablation"] for cave in caves)
            if held is not None
        ],
    }


def bench_game(seeds: list[int], plan: str | None = None) -> dict:
    """``designer game [PLAN] --seed S`` run whole for each of ``seeds``, its figures read from
    what it wrote; the first seed made again and compared file for file."""
    from designer.studies.bench import designer_child

    runs: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, seed in enumerate([*seeds, seeds[0]]):
            out = Path(tmp) / f"game-{k}"
            command = [sys.executable, "-m", "designer", "game", *([plan] if plan else [])]
            command += ["--out", str(out), "--seed", str(seed)]
            t0 = time.perf_counter()
            done = designer_child(command, check=False)
            seconds = round(time.perf_counter() - t0, 2)
            if k == len(seeds):  # the first seed again
                first = Path(tmp) / "game-0"
                names = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
                again = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
                same = names == again and all(
                    (first / name).read_bytes() == (out / name).read_bytes() for name in names
                )
                return {
                    "runs": runs,
                    "median_seconds": statistics.median(run["seconds"] for run in runs),
                    "reproducible": same,
                }
            run: dict = {"seed": seed, "seconds": seconds, "status": done.returncode}
            if done.returncode == 0:
                run.update(figures(out))
            else:
                run["error"] = done.stderr.strip().splitlines()[-1:]
            runs.append(run)
    raise AssertionError("unreachable: the loop returns on its last run")
