"""What a level's shape asks of a player, beside the player model (``designer.analysis.player``).

- ``subgoals``: the stops every way from the start to the exit must pass (the exit's dominators
  in the move graph, start and exit left out): the level decomposes into that many legs plus one;
- ``counter_intuitive``: moves of the printed solution that end farther from the exit (Manhattan
  distance, as the level is drawn) than they began: the moves a player heading for the exit
  would not try first;
- ``reachable``: stops the player can rest on; ``dead_ends``: of those, the ones with a single
  way on; ``traps``: the ones the exit cannot be reached from;
- ``branching``: moves a reachable stop offers, on average.

>>> from designer.core.level import Level
>>> shape = structure(Level.from_rows(["#####", "#S.G#", "#####"]))
>>> shape.subgoals, shape.counter_intuitive, shape.reachable, shape.traps
(0, 0, 1, 0)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import networkx as nx

from designer.core.level import Level


@dataclass(frozen=True)
class Structure:
    subgoals: int
    counter_intuitive: int
    reachable: int
    dead_ends: int
    traps: int
    branching: float

    def to_json(self) -> dict:
        out = asdict(self)
        out["branching"] = round(self.branching, 3)
        return out


def structure(level: Level) -> Structure:
    """The structure measures of ``level`` (items, portals and floors included: on its states)."""
    from designer.analysis.graph import move_graph
    from designer.analysis.solver import solve

    graph = move_graph(level)
    start = next(iter(graph.nodes))
    goal = _goal_label(level)
    solution = solve(level)
    subgoals = 0
    if solution is not None and goal in graph:
        dominators = nx.immediate_dominators(graph, start)
        node = dominators[goal]
        while node != start:
            subgoals += 1
            node = dominators[node]
    alive = nx.ancestors(graph, goal) | {goal} if goal in graph else set()
    stops = [node for node in graph.nodes if node != goal]
    traps = sum(node not in alive for node in stops)
    dead_ends = sum(graph.out_degree(node) == 1 for node in stops if node in alive)
    branching = sum(graph.out_degree(node) for node in stops) / max(1, len(stops))
    return Structure(
        subgoals, _counter_intuitive(level, solution), len(stops), dead_ends, traps, branching
    )


def _goal_label(level: Level):
    """The exit as ``move_graph`` labels it: its cell, with every item taken when there are items."""
    if not level.items:
        return level.goal
    return (*level.goal, (1 << len(level.items)) - 1)


def _counter_intuitive(level: Level, solution) -> int:
    if solution is None:
        return 0
    gr, gc = level.goal
    cells = list(solution.path)
    count = 0
    for before, after in zip(cells, cells[1:]):
        br, bc = before[:2]
        ar, ac = after[:2]
        count += abs(ar - gr) + abs(ac - gc) > abs(br - gr) + abs(bc - gc)
    return count
