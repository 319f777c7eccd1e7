"""Optimal solutions.

``solve(level)`` finds a fewest-moves solution, ties broken by least distance slid;
``solve(level, by="distance")`` the least-distance one, ties broken by fewest moves. What tie
remains is broken by taking, at every stop, the first direction in the order u, d, l, r that
stays optimal, so the same level always prints the same solution.

Method: a Dijkstra search backwards from the goal over the cells reachable from the start gives
every cell's optimal cost to the goal; the solution then walks forward from the start, taking
at each stop the first direction whose move keeps the cost exact. A level with items is solved the
same way over its states (cell, items taken: ``designer.core.items``), and the solution says at
which move it takes each item.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from designer.core.items import States, state_table, taken_along
from designer.core.kernels import reach
from designer.core.level import Level
from designer.core.rules import DIRECTIONS
from designer.core.terrain import Cell

ORDERS = ("moves", "distance")


@dataclass(frozen=True)
class Solution:
    moves: str  # one letter per move: u, d, l, r
    stops: int  # number of moves
    distance: int  # cells slid in all
    path: tuple[Cell, ...]  # resting cells from the start to the goal
    taken: tuple[
        int, ...
    ] = ()  # for each item of the level, the move that takes it (1 for the first)

    def order(self) -> list[int]:
        """The items (their indices in ``level.items``) in the order the solution takes them; items
        taken by one move in the order of the level's items."""
        return sorted(range(len(self.taken)), key=lambda k: (self.taken[k], k))

    def to_dict(self) -> dict:
        found = {"moves": self.moves, "stops": self.stops, "distance": self.distance}
        if self.taken:
            found["items_taken_at"] = list(self.taken)
        return found


@dataclass(frozen=True)
class CostsToGoal:
    """Optimal (primary, secondary) cost from each reachable cell to the goal."""

    primary: dict[int, int]  # state (a flat cell when there are no items) -> stops or distance
    secondary: dict[int, int]
    by: str


def costs_to_goal(states: States, by: str = "moves", order=None) -> CostsToGoal:
    """Optimal (primary, secondary) costs to the goal, backwards from it, over the states
    (``designer.core.items.state_table``: the cells, when there are no items) reachable from the
    start: by "moves", breadth-first layers (each a vectorised step: a state's distance is the
    least over its moves into the layer before); by "distance", Dijkstra's search.

    States that cannot reach the goal are absent. ``order`` (the reachable states) may be passed
    when the caller has them already.
    """
    if by not in ORDERS:
        raise ValueError(f"by must be one of {ORDERS}, not {by!r}")
    dest, length, goal = states.dest, states.length, states.goal
    if order is None:
        _, order = reach(dest, states.start, goal)
    into = _moves_into(dest, length, np.asarray(order), goal)
    if by == "moves":
        return _layers(into, goal)
    return _dijkstra(into, goal, by)


def moves_out(dest, length, order, goal: int):
    """The moves out of the cells ``order`` (none leaves the goal), a direction at a time:
    (direction index, from, to, length), flat-index arrays."""
    sources = np.asarray(order)
    sources = sources[sources != goal]
    for d in range(4):
        targets = dest[d, sources]
        moving = targets >= 0
        yield d, sources[moving], targets[moving], length[d, sources[moving]]


def _moves_into(dest, length, order, goal: int):
    """The moves among the reachable cells (none leaves the goal), grouped by the cell they end
    on: (first, sources, lengths), where the moves into cell v are sources[first[v]:first[v + 1]]
    in the order of the directions, then of ``order``."""
    _, by_direction_from, by_direction_to, by_direction_len = zip(
        *moves_out(dest, length, order, goal)
    )
    froms, tos, lens = (
        np.concatenate(a).astype(np.int64)
        for a in (by_direction_from, by_direction_to, by_direction_len)
    )
    by_end = np.argsort(tos, kind="stable")
    first = np.searchsorted(tos[by_end], np.arange(dest.shape[1] + 1))
    return first, froms[by_end], lens[by_end]


def _layers(into, goal: int) -> CostsToGoal:
    """Fewest moves, then least distance: breadth-first layers from the goal, vectorised."""
    first, sources, lengths = into
    cells = len(first) - 1
    moves = np.full(cells, -1, dtype=np.int64)
    distance = np.full(cells, np.iinfo(np.int64).max, dtype=np.int64)
    moves[goal], distance[goal] = 0, 0
    frontier, layer, reached = np.array([goal]), 0, [np.array([goal])]
    while frontier.size:
        counts = first[frontier + 1] - first[frontier]
        at = np.repeat(first[frontier] - np.cumsum(counts) + counts, counts) + np.arange(
            counts.sum()
        )
        cell, through = sources[at], np.repeat(distance[frontier], counts) + lengths[at]
        new = moves[cell] < 0
        cell, through = cell[new], through[new]
        np.minimum.at(distance, cell, through)
        frontier = np.unique(cell)
        layer += 1
        moves[frontier] = layer
        reached.append(frontier)
    found = np.concatenate(reached).tolist()
    return CostsToGoal(
        dict(zip(found, moves[found].tolist())), dict(zip(found, distance[found].tolist())), "moves"
    )


def _dijkstra(into, goal: int, by: str) -> CostsToGoal:
    """Least (primary, secondary) cost by Dijkstra's search: by "distance", (distance, moves); by
    "moves", (moves, distance), which the tests use to check the layers. The pair is one integer
    on the heap, primary * scale + secondary, with the scale above any secondary cost."""
    first, sources, lengths = into
    ends = np.flatnonzero(first[1:] > first[:-1])  # the cells that moves end on
    span = dict(zip(ends.tolist(), zip(first[ends].tolist(), first[ends + 1].tolist())))
    sources, lengths = sources.tolist(), lengths.tolist()
    scale = (max(lengths, default=0) + 1) * (len(sources) + 1)  # above any sum of lengths or moves
    by_moves = by == "moves"
    best = {goal: 0}
    heap = [(0, goal)]
    while heap:
        key, v = heapq.heappop(heap)
        if key > best[v]:
            continue  # a stale entry: v was settled cheaper
        for k in range(*span.get(v, (0, 0))):
            u, w = sources[k], lengths[k]
            cost = key + (scale + w if by_moves else w * scale + 1)
            if cost < best.get(u, cost + 1):
                best[u] = cost
                heapq.heappush(heap, (cost, u))
    return CostsToGoal(
        {k: c // scale for k, c in best.items()}, {k: c % scale for k, c in best.items()}, by
    )


def solve(level: Level, by: str = "moves") -> Solution | None:
    """The optimal solution under ``by`` ("moves" or "distance"), or None when unsolvable."""
    states = state_table(level)
    return walk(states, costs_to_goal(states, by))


def walk(states: States, costs: CostsToGoal) -> Solution | None:
    """The solution that ``costs`` (from ``costs_to_goal`` on ``states``) makes optimal, or None
    when the start cannot reach the goal."""
    start, goal, dest, length = states.start, states.goal, states.dest, states.length
    if start not in costs.primary:
        return None
    by_moves = costs.by == "moves"
    cell, letters, path, distance = start, [], [start], 0
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
                path.append(v)
                distance += w
                cell = v
                break
        else:  # pragma: no cover - costs are exact, so some move always keeps them
            raise AssertionError("no optimal move found: cost table is inconsistent")
    taken = tuple(taken_along(states, path)) if states.items else ()
    return Solution(
        "".join(letters), len(letters), distance, tuple(states.cell(v) for v in path), taken
    )
