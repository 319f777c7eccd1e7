"""Optimal solutions.

``solve(level)`` finds a fewest-moves solution, ties broken by least distance slid;
``solve(level, by="distance")`` the least-distance one, ties broken by fewest moves. What tie
remains is broken by taking, at every stop, the first direction in the order u, d, l, r that
stays optimal, so the same level always prints the same solution.

Method: a Dijkstra search backwards from the goal over the cells reachable from the start gives
every cell's optimal cost to the goal; the solution then walks forward from the start, taking
at each stop the first direction whose move keeps the cost exact.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from designer.core.kernels import reach
from designer.core.level import Cell, Level
from designer.core.rules import DIRECTIONS, slide_table

ORDERS = ("moves", "distance")


@dataclass(frozen=True)
class Solution:
    moves: str  # one letter per move: u, d, l, r
    stops: int  # number of moves
    distance: int  # cells slid in all
    path: tuple[Cell, ...]  # resting cells from the start to the goal

    def to_dict(self) -> dict:
        return {"moves": self.moves, "stops": self.stops, "distance": self.distance}


@dataclass(frozen=True)
class CostsToGoal:
    """Optimal (primary, secondary) cost from each reachable cell to the goal."""

    primary: dict[int, int]  # flat cell -> stops (by moves) or distance (by distance)
    secondary: dict[int, int]
    by: str


def costs_to_goal(level: Level, by: str = "moves", dest=None, length=None, order=None) -> CostsToGoal:
    """Backward Dijkstra from the goal over the cells reachable from the start.

    Cells that cannot reach the goal are absent. ``dest``/``length``/``order`` may be passed when
    the caller already has the slide table and the reachable cells.
    """
    if by not in ORDERS:
        raise ValueError(f"by must be one of {ORDERS}, not {by!r}")
    if dest is None or length is None:
        dest, length = slide_table(level)
    start, goal = level.index(level.start), level.index(level.goal)
    if order is None:
        _, order = reach(dest, start, goal)
    # Predecessors among reachable cells (the goal has no moves out).
    sources = np.asarray(order)
    sources = sources[sources != goal]
    preds: dict[int, list[tuple[int, int]]] = {}
    for d in range(4):
        targets = dest[d, sources]
        ok = targets >= 0
        for u, v, w in zip(sources[ok].tolist(), targets[ok].tolist(), length[d, sources[ok]].tolist()):
            preds.setdefault(v, []).append((u, w))
    by_moves = by == "moves"
    best: dict[int, tuple[int, int]] = {goal: (0, 0)}
    heap = [(0, 0, goal)]
    done: set[int] = set()
    while heap:
        a, b, v = heapq.heappop(heap)
        if v in done:
            continue
        done.add(v)
        for u, w in preds.get(v, ()):
            cost = (a + 1, b + w) if by_moves else (a + w, b + 1)
            if u not in best or cost < best[u]:
                best[u] = cost
                heapq.heappush(heap, (cost[0], cost[1], u))
    return CostsToGoal({k: c[0] for k, c in best.items()}, {k: c[1] for k, c in best.items()}, by)


def solve(level: Level, by: str = "moves") -> Solution | None:
    """The optimal solution under ``by`` ("moves" or "distance"), or None when unsolvable."""
    dest, length = slide_table(level)
    costs = costs_to_goal(level, by, dest, length)
    start, goal = level.index(level.start), level.index(level.goal)
    if start not in costs.primary:
        return None
    return _walk(level, costs, dest, length, start, goal)


def _walk(level: Level, costs: CostsToGoal, dest, length, start: int, goal: int) -> Solution:
    by_moves = costs.by == "moves"
    cell, letters, path, distance = start, [], [level.cell(start)], 0
    while cell != goal:
        here = (costs.primary[cell], costs.secondary[cell])
        for d in range(4):
            v = int(dest[d, cell])
            if v < 0 or v not in costs.primary:
                continue
            w = int(length[d, cell])
            step = (1, w) if by_moves else (w, 1)
            if (costs.primary[v] + step[0], costs.secondary[v] + step[1]) == here:
                letters.append(DIRECTIONS[d])
                path.append(level.cell(v))
                distance += w
                cell = v
                break
        else:  # pragma: no cover - costs are exact, so some move always keeps them
            raise AssertionError("no optimal move found: cost table is inconsistent")
    return Solution("".join(letters), len(letters), distance, tuple(path))
