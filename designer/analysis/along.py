"""The figures along a level's solution: each stop's options, setbacks and traps (``Stop``), the rail
stops, the creativity of the way (``Creativity``), what each item adds (``ItemEffect``), and how many
fewest-moves solutions there are (``fewest_solutions``): the one place each is counted. ``designer.analysis.graph.analyze``
gathers them into its ``Analysis``."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import networkx as nx
import numpy as np

from designer.analysis.solver import Solution, solve
from designer.core.items import States
from designer.core.level import Level
from designer.core.rules import DELTAS, DIRECTIONS, trace
from designer.core.terrain import ROCK, SNOW, Cell

#: A node of a move graph: a cell, a state, or any label.
Node = TypeVar("Node", bound=Hashable)

# Kirillov's comfort ranges for cells, read for an ice player (see Creativity).
CELLS_MIN, CELLS_SENSE = 16, 100


@dataclass(frozen=True)
class Stop:
    """One stop along the solution and the other moves open there."""

    cell: Cell
    move: str  # the solution's move from here
    remaining: int  # moves left to the goal from here
    options: int  # other moves open here
    alternatives: int  # of those, moves that are just as good
    setbacks: int  # of those, moves that leave the player no closer to the goal
    traps: int  # of those, moves after which the goal cannot be reached

    def to_dict(self) -> dict:
        return {
            "cell": list(self.cell),
            "move": self.move,
            "remaining": self.remaining,
            "options": self.options,
            "alternatives": self.alternatives,
            "setbacks": self.setbacks,
            "traps": self.traps,
        }


@dataclass(frozen=True)
class Creativity:
    """The creativity metric C = d / v of Kirillov's "Map Creativity Metric", adapted to ice.

    Mapping (see the README): p = cells slid by the fewest-moves solution (the Sokoban steps);
    i = its stops (each an interaction with a stopper: rock, wall, snow or goal); t = distinct
    stoppers it uses (a change of target); I = 2(2t + (i - t))/3; u = rock and snow tiles that
    touch a playable cell, s = ice cells, g = min(u/s, 1); d = I + (p - i) g; v = cell boredom
    n' for n playable cells (1 up to 16, 2 at 100, 1 + n/100 beyond), breeds and rules never
    bored (hero, rock, goal, snow; slide, snow stops) so v = n'; C = d / v.
    """

    p: int
    i: int
    t: int
    interactions: float  # I
    units: int  # u
    empty: int  # s
    density: float  # g
    d: float
    cells: int  # n
    v: float
    C: float

    def to_dict(self) -> dict:
        return {
            "p": self.p,
            "i": self.i,
            "t": self.t,
            "I": round(self.interactions, 4),
            "u": self.units,
            "s": self.empty,
            "g": round(self.density, 4),
            "d": round(self.d, 4),
            "n": self.cells,
            "v": round(self.v, 4),
            "C": round(self.C, 4),
        }


@dataclass(frozen=True)
class ItemEffect:
    """One item of a level: its cell, the move of the printed solution that takes it, and how many
    moves it adds (min stops with it, minus min stops without it: 0 when it lies on the way)."""

    cell: Cell
    taken_at: int
    adds: int

    def to_dict(self) -> dict:
        return {"cell": list(self.cell), "taken_at": self.taken_at, "adds": self.adds}


def item_effects(level: Level, solution: Solution) -> list[ItemEffect]:
    """What each item adds to the fewest-moves ``solution`` of ``level`` (see ``ItemEffect``)."""
    effects = []
    for k, cell in enumerate(level.items):
        # a vault's one item: without it, no way at all
        if level.start == level.goal and len(level.items) == 1:
            effects.append(ItemEffect(cell, solution.taken[k], solution.stops))
            continue
        without = solve(level.replace(items=level.items[:k] + level.items[k + 1 :]))
        assert without is not None  # fewer items: the same way still finishes
        effects.append(ItemEffect(cell, solution.taken[k], solution.stops - without.stops))
    return effects


def solution_path(states: States, moves: str) -> list[int]:
    """The states a solution's ``moves`` (letters u/d/l/r) rest in, from the start to the goal."""
    path = [states.start]
    for letter in moves:
        path.append(int(states.dest[DIRECTIONS.index(letter), path[-1]]))
    return path


def options_at(states: States, state: int) -> int:
    """The moves open at ``state`` besides the one taken: each direction that moves is one (through
    portals or round a wrapping edge, two directions may end in one state, and are two options)."""
    return int((states.dest[:, state] >= 0).sum()) - 1


def options_along(states: States, path: list[int]) -> int:
    """The options along a solution's ``path`` (``solution_path``): ``options_at`` summed over its
    stops, the goal not among them. The compiled kernels' ``choice_figures`` counts the same for a
    plain level (``designer.core.kernel_anneal``), and the tests hold the two together."""
    return int((states.dest[:, path[:-1]] >= 0).sum()) - (len(path) - 1)


def fewest_solutions(states: States, remaining: Mapping[int, int]) -> int:
    """The number of distinct fewest-moves solutions from the start: ways through ``states`` on
    which every move brings the goal one move closer (``remaining``: moves left to the goal from
    each state that can reach it). Two directions that end in one state are two ways.

    >>> level = Level.from_rows(["#####", "#..G#", "#...#", "#S..#", "#####"])
    >>> from designer.analysis.solver import costs_to_goal
    >>> from designer.core.items import state_table
    >>> states = state_table(level)
    >>> fewest_solutions(states, costs_to_goal(states).primary)  # up then right, or right then up
    2
    """
    if states.start not in remaining:
        return 0
    ways = {states.goal: 1}
    for here in sorted(
        (s for s in remaining if remaining[s] <= remaining[states.start]), key=remaining.__getitem__
    ):
        if here != states.goal:
            ways[here] = sum(
                ways.get(int(t), 0)
                for t in states.dest[:, here]
                if t >= 0 and remaining.get(int(t)) == remaining[here] - 1
            )
    return ways[states.start]


#: A stop with at most this many options besides the solution's move is a rail stop.
RAIL_OPTIONS = 1


def stops_along(
    states: States, graph: nx.DiGraph, solution: Solution, remaining: dict[int, int]
) -> list[Stop]:
    """The stops of ``solution`` on the state-number ``graph`` (``remaining``: moves left, by state)."""
    stops = []
    path = solution_path(states, solution.moves)
    for here, nxt, letter in zip(path, path[1:], solution.moves):
        left = remaining[here]
        alternatives = setbacks = traps = 0
        taken = False  # the solution's own move; another direction to the same state is an option
        for _, other in graph.edges(here):
            if other == nxt and not taken:
                taken = True
                continue
            if other not in remaining:
                traps += 1
            elif remaining[other] >= left:
                setbacks += 1
            else:
                alternatives += 1
        stops.append(
            Stop(
                states.cell(here),
                letter,
                left,
                options_at(states, here),
                alternatives,
                setbacks,
                traps,
            )
        )
    return stops


def _cell_boredom(n: int) -> float:
    if n <= CELLS_MIN:
        return 1.0
    if n >= CELLS_SENSE:
        return 1.0 + n / CELLS_SENSE
    return 1.0 + (n - CELLS_MIN) / (CELLS_SENSE - CELLS_MIN)


def _stopper(level: Level, cell: Cell, letter: str, last: bool) -> Cell:
    """What stopped a slide that ended on ``cell``: the snow tile or the goal (the ``last`` move's:
    before it, the goal of a level with items may be plain ice) itself, or the rock (or the
    outside position, for the wall) just beyond it."""
    if (last and cell == level.goal) or level.terrain[cell] == SNOW:
        return cell
    dr, dc = DELTAS[DIRECTIONS.index(letter)]
    return (cell[0] + dr, cell[1] + dc)


def _traced_stopper(level: Level, before: Cell, letter: str, last: bool):
    """``_stopper`` on a level with portals, floors or wrap-around: the portal fallen into, the
    snow or goal entered, or (end cell, direction) for the rock or edge beyond the end, which
    names it as well (wrapped or not)."""
    d = DIRECTIONS.index(letter)
    # a move of the solution: one back onto its cell moves all the same when it takes an item
    slide = trace(level, level.index(before), d, level.index(level.goal) if last else -1, laps=True)
    assert slide is not None  # a move of the solution slides
    end = level.cell(slide.path[-1])
    if slide.portal:
        return ("portal", level.cell(slide.path[-2]))
    if (last and end == level.goal) or level.terrain[end] == SNOW:
        return end
    return (end, d)


def creativity_of(level: Level, solution: Solution) -> Creativity:
    p, i = solution.distance, solution.stops
    if level.plain:
        t = len(
            {
                _stopper(level, cell, m, k == i - 1)
                for k, (cell, m) in enumerate(zip(solution.path[1:], solution.moves))
            }
        )
    else:
        t = len(
            {
                _traced_stopper(level, cell, m, k == i - 1)
                for k, (cell, m) in enumerate(zip(solution.path, solution.moves))
            }
        )
    interactions = 2 * (2 * t + (i - t)) / 3
    blocking = level.terrain != 0
    playable = ~(level.terrain == ROCK)
    padded = np.pad(playable, 1)
    touches_play = padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:]
    units = int(np.count_nonzero(blocking & (touches_play | (level.terrain == SNOW))))
    empty = int(np.count_nonzero(level.terrain == 0))
    density = min(units / empty, 1.0) if empty else 1.0
    d = interactions + (p - i) * density
    n = int(np.count_nonzero(playable))
    v = _cell_boredom(n)
    return Creativity(p, i, t, interactions, units, empty, density, d, n, v, d / v)
