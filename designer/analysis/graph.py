"""Graph analysis of a level with networkx (Odland, "Slippery ice maps").

The move graph has a node per resting cell reachable from the start and an edge per move; the
goal ends the game, so no edge leaves it. From it: the class (unsolvable / weak / strong), the
strongly connected components and their condensation, the traps (cells from which the goal can
no longer be reached, grouped by the sink component they drain into), reversibility (the level
with start and goal swapped is solvable), and difficulty figures. This is the slow, thorough
path and the verifier of everything the generators produce; ``designer.analysis.classify`` is the quick one.

A level with items (``designer.core.items``) is analysed on its graph of states (cell, items
taken) in the same way: its nodes are then written (row, col, taken), and the analysis also says
what each item adds to the fewest-moves solution.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

import networkx as nx
import numpy as np

from designer.analysis.classify import min_stops
from designer.analysis.solver import Solution, costs_to_goal, moves_out, solve, walk
from designer.core.errors import LevelError
from designer.core.items import States, state_table
from designer.core.kernels import reach
from designer.core.level import ROCK, SNOW, Cell, Level
from designer.core.rules import DELTAS, DIRECTIONS, trace

#: A node of a move graph: a cell, a state, or any label.
Node = TypeVar("Node", bound=Hashable)


def move_graph(level: Level) -> nx.DiGraph:
    """The move graph: nodes are (row, col) resting cells reachable from the start ((row, col,
    taken) states with items); each edge carries ``direction`` (u/d/l/r) and ``length`` (cells
    slid). No edge leaves the goal. With portals or wrap-around, two directions can end on one
    cell: the graph is then a MultiDiGraph, an edge a move."""
    states, order = _table(level)
    label = states.label
    graph = nx.DiGraph() if level.plain else nx.MultiDiGraph()
    graph.add_node(label(states.start))
    for letter, starts, ends, lengths in _moves(states, order):
        graph.add_edges_from((label(u), label(v), {"direction": letter, "length": n})
                             for u, v, n in zip(starts.tolist(), ends.tolist(), lengths.tolist()))
    return graph


def _table(level: Level) -> tuple[States, np.ndarray]:
    """The level's states (its cells, when it has no items) and those reachable from the start."""
    states = state_table(level)
    _, order = reach(states.dest, states.start, states.goal)
    return states, np.asarray(order)


def _moves(states: States, order):
    """The moves out of the reachable states, a direction at a time: (letter, from, to, length)
    as state-number arrays. No move leaves the goal."""
    for d, starts, ends, lengths in moves_out(states.dest, states.length, order, states.goal):
        yield DIRECTIONS[d], starts, ends, lengths


def _flat_graph(states: States, order, plain: bool = True) -> nx.DiGraph:
    """The move graph on state numbers (flat cell indices when there are no items), unlabelled:
    what ``analyze`` walks (a third of the memory and time of the labelled graph on a 1000x1000
    level). The number sorts as its label does. Not ``plain`` (portals, wrap-around), it is a
    MultiDiGraph: two directions may end on one state, and each is a move."""
    graph = nx.DiGraph() if plain else nx.MultiDiGraph()
    graph.add_node(states.start)
    for _, starts, ends, _ in _moves(states, order):
        graph.add_edges_from(zip(starts.tolist(), ends.tolist()))
    return graph


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
            "p": self.p, "i": self.i, "t": self.t, "I": round(self.interactions, 4),
            "u": self.units, "s": self.empty, "g": round(self.density, 4), "d": round(self.d, 4),
            "n": self.cells, "v": round(self.v, 4), "C": round(self.C, 4),
        }


@dataclass(frozen=True)
class Analysis:
    solvability: str  # "unsolvable" | "weak" | "strong"
    reversible: bool
    solution: Solution | None  # fewest moves, then least distance
    distance_solution: Solution | None  # least distance, then fewest moves
    resting_cells: int  # nodes of the move graph
    moves: int  # edges of the move graph
    # a state is labelled by its cell, and with items by (row, col, items taken): States.label
    sccs: list[list[tuple[int, ...]]]  # strongly connected components, largest first
    sink_sccs: int  # components with no move out (the goal's is one when solvable)
    remaining: dict[tuple[int, ...], int]  # moves left to the goal from each cell that can reach it
    traps: list[dict] = field(default_factory=list)  # [{"sink": [...], "basin": [...]}]
    trap_cells: list[tuple[int, ...]] = field(default_factory=list)  # cells that cannot reach the goal
    branching: list[Stop] = field(default_factory=list)
    creativity: Creativity | None = None
    solutions: int = 0  # distinct fewest-moves move strings (0 when unsolvable)
    items: list[ItemEffect] = field(default_factory=list)  # a level with items: what each adds
    portals: list[dict] = field(default_factory=list)  # a level with portals: what each does (``passages``)
    floors: list[dict] = field(default_factory=list)  # a level with floors: which can be left for good

    @property
    def min_stops(self) -> int | None:
        return self.solution.stops if self.solution else None

    @property
    def options(self) -> int:
        """Moves open along the printed solution, other than the solution's own (source 000's
        second measure of difficulty)."""
        return sum(s.options for s in self.branching)

    @property
    def rail_stops(self) -> int:
        """Stops of the printed solution where at most one move other than the solution's is open."""
        return sum(1 for s in self.branching if s.options <= RAIL_OPTIONS)

    @property
    def per_stop(self) -> float | None:
        """Options per stop: options / min stops (None when unsolvable)."""
        return self.options / self.min_stops if self.min_stops else None

    def to_dict(self) -> dict:
        """The ``analysis`` object of the JSON level."""
        sol, by_dist = self.solution, self.distance_solution
        return {
            "solvability": self.solvability,
            "reversible": self.reversible,
            "min_stops": self.min_stops,
            "distance": sol.distance if sol else None,
            "moves": sol.moves if sol else None,
            "least_distance": by_dist.to_dict() if by_dist else None,
            "resting_cells": self.resting_cells,
            "edges": self.moves,
            "scc_count": len(self.sccs),
            "largest_scc": len(self.sccs[0]) if self.sccs else 0,
            "sink_sccs": self.sink_sccs,
            "trap_cells": [list(c) for c in self.trap_cells],
            "traps": [
                {"sink": [list(c) for c in t["sink"]], "basin": [list(c) for c in t["basin"]]} for t in self.traps
            ],
            "solutions": self.solutions,
            "branching": {
                "options": self.options,
                "per_stop": round(self.per_stop, 4) if self.per_stop is not None else None,
                "rail_stops": self.rail_stops,
                "alternatives": sum(s.alternatives for s in self.branching),
                "setbacks": sum(s.setbacks for s in self.branching),
                "traps": sum(s.traps for s in self.branching),
                "stops": [s.to_dict() for s in self.branching],
            },
            "creativity": self.creativity.to_dict() if self.creativity else None,
            **({"items": [item.to_dict() for item in self.items]} if self.items else {}),
            **({"portals": self.portals} if self.portals else {}),
            **({"floors": self.floors} if self.floors else {}),
        }

    @property
    def items_matter(self) -> bool:
        """Every item lengthens the fewest-moves solution (a level without items: True)."""
        return all(item.adds > 0 for item in self.items)


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
        if level.start == level.goal and len(level.items) == 1:  # a vault's one item: without it, no way at all
            effects.append(ItemEffect(cell, solution.taken[k], solution.stops))
            continue
        without = solve(level.replace(items=level.items[:k] + level.items[k + 1:]))
        assert without is not None  # fewer items: the same way still finishes
        effects.append(ItemEffect(cell, solution.taken[k], solution.stops - without.stops))
    return effects


def is_solvable(level: Level) -> bool:
    """Whether the goal can be reached from the start (breadth-first over the slide table, or the
    states with items; the tests check it against the networkx move graph and a naive search)."""
    return min_stops(level) >= 0


#: The largest move graph ``analyze`` takes (moves, its edges): about 500 MB and 10 s of work
#: there (measured: 554,000 moves, 7.2 s and 413 MB; 2.4 million, 21 s and 1.4 GB). A random
#: 1000x1000 level at rock density 0.2 has about 550,000; a larger graph is refused in one line.
MAX_ANALYZED_MOVES = 600_000


def analyze(level: Level) -> Analysis:
    """Everything we know how to say about a level (LevelError when its move graph has more than
    MAX_ANALYZED_MOVES moves)."""
    states, order = _table(level)
    moves = int(np.count_nonzero(states.dest[:, order[order != states.goal]] >= 0))
    if moves > MAX_ANALYZED_MOVES:
        raise LevelError(f"the level has {moves:,} moves between {len(order):,} resting "
                         f"{'states' if level.items else 'cells'}: analyze takes at most {MAX_ANALYZED_MOVES:,} "
                         "(about 500 MB); solve finds its solution")
    start, goal = states.start, states.goal
    # The solutions first, each cost table dropped once walked: on a 1000x1000 level the
    # searches' peaks and the graph's size then never add up.
    by_moves = costs_to_goal(states, "moves", order)
    solution = walk(states, by_moves)
    distance_solution = walk(states, costs_to_goal(states, "distance", order))
    remaining = by_moves.primary if solution else {}  # moves left to the goal, by state
    del by_moves
    graph = _flat_graph(states, order, level.plain)  # state numbers inside; cells (or labelled states) in what is returned
    cells = states.label
    solvable = goal in graph
    can_reach_goal = (nx.ancestors(graph, goal) | {goal}) if solvable else set()
    if not solvable:
        solvability = "unsolvable"
    elif len(can_reach_goal) == graph.number_of_nodes():
        solvability = "strong"
    else:
        solvability = "weak"
    reversible = solvable and is_solvable(level.swapped())

    components = sorted((sorted(c) for c in nx.strongly_connected_components(graph)), key=lambda c: (-len(c), c))
    condensation = nx.condensation(graph, scc=[set(c) for c in components])
    sinks = [k for k in condensation if condensation.out_degree(k) == 0]
    # A component reaches the goal whole or not at all, and whatever reaches a trap's sink without
    # reaching the goal passes through trap components only: the basins are found in their
    # subgraph, never in the (often huge) components that lead to the goal.
    trapped = condensation.subgraph(k for k in condensation if condensation.nodes[k]["members"].isdisjoint(
        can_reach_goal))
    traps = []
    for k in sinks:
        members = sorted(condensation.nodes[k]["members"])
        if goal in members:
            continue
        basin = set(members)
        for j in nx.ancestors(trapped, k):
            basin |= condensation.nodes[j]["members"]
        traps.append({"sink": [cells(i) for i in members], "basin": [cells(i) for i in sorted(basin)]})
    trap_cells = [cells(i) for i in sorted(set(graph.nodes) - can_reach_goal)]
    del condensation, trapped

    branching = _branching(states, graph, solution, remaining) if solution else []
    creativity = _creativity(level, solution) if solution else None
    items = item_effects(level, solution) if solution and level.items else []
    solutions = count_fewest_solutions(graph, start, goal, remaining) if solution else 0
    portals, floors = passages(level, states, graph, components) if not level.plain else ([], [])
    return Analysis(
        solvability=solvability,
        reversible=reversible,
        solution=solution,
        distance_solution=distance_solution,
        resting_cells=graph.number_of_nodes(),
        moves=graph.number_of_edges(),
        sccs=[[cells(i) for i in c] for c in components],
        sink_sccs=len(sinks),
        remaining={cells(i): left for i, left in remaining.items()},
        traps=traps,
        trap_cells=trap_cells,
        branching=branching,
        creativity=creativity,
        solutions=solutions,
        items=items,
        portals=portals,
        floors=floors,
    )


def passages(level: Level, states: States, graph: nx.DiGraph, components: list[list[int]]
             ) -> tuple[list[dict], list[dict]]:
    """What the portals and floors of a level do in play, on its move graph (``graph``, over
    state numbers, and its strongly connected ``components``).

    Each portal: ``{"from", "to", "pair"`` (its target leads back to it), ``"used"`` (a move from
    a reachable state falls into it), ``"one_way"`` (some such move can never be undone: it
    leaves its component of the move graph; None when unused)``}``. Each floor: ``{"name",
    "reached"`` (the player rests on it at some time), ``"no_return"`` (a reachable move leaves
    it for a state from which the player never rests on it again)``}``.
    """
    component = {state: k for k, members in enumerate(components) for state in members}
    target = dict(level.portals)
    through: dict[tuple, list[tuple[int, int]]] = {src: [] for src in target}
    fell_into: dict[tuple[int, int], Cell | None] = {}  # (cell, direction): the portal its slide falls into

    def portal_of(cell: int, d: int) -> Cell | None:
        if (cell, d) not in fell_into:  # one trace a slide, whatever items are taken
            slide = trace(level, cell, d, laps=True)
            fell_into[cell, d] = level.cell(slide.path[-2]) if slide is not None and slide.portal else None
        return fell_into[cell, d]

    for state in graph.nodes:
        if state == states.goal:
            continue
        for d in range(4):
            after = int(states.dest[d, state])
            src = portal_of(level.index(states.cell(state)), d) if after >= 0 else None
            if src is not None and states.cell(after) == target[src]:  # not caught by the goal on the way
                through[src].append((state, after))
    portals = []
    for src, dst in level.portals:
        used = through[src]
        portals.append({"from": list(src), "to": list(dst), "pair": target.get(dst) == src, "used": bool(used),
                        "one_way": any(component[a] != component[b] for a, b in used) if used else None})
    floor_of = {state: level.floor_of(states.cell(state)).name for state in graph.nodes}
    floors = []
    for floor in level.floors:
        on = {state for state, name in floor_of.items() if name == floor.name}
        back, todo = set(on), list(on)  # every state from which the player can rest on the floor again
        while todo:
            for before in graph.predecessors(todo.pop()):
                if before not in back:
                    back.add(before)
                    todo.append(before)
        leaving = [(a, b) for a in on for b in graph.successors(a) if floor_of[b] != floor.name]
        floors.append({"name": floor.name, "reached": bool(on), "no_return": any(b not in back for _, b in leaving)})
    return portals, floors


def count_fewest_solutions(graph: nx.DiGraph, start: Node, goal: Node, remaining: Mapping[Node, int]) -> int:
    """The number of distinct fewest-moves solutions from ``start``: paths of the move graph on
    which every move brings the goal one move closer (``remaining``: moves left to the goal from
    each cell that can reach it). An edge is a move: on plain slides two moves from one cell never
    end on the same cell; through portals or round a wrapping edge they can, and the graph is a
    MultiDiGraph whose parallel edges are distinct move strings.

    >>> g = nx.DiGraph([("s", "a"), ("s", "b"), ("a", "g"), ("b", "g"), ("s", "c"), ("c", "a")])
    >>> count_fewest_solutions(g, "s", "g", {"g": 0, "a": 1, "b": 1, "c": 2, "s": 2})
    2
    >>> count_fewest_solutions(nx.MultiDiGraph([("s", "a"), ("s", "a"), ("a", "g")]), "s", "g", {"g": 0, "a": 1, "s": 2})
    2
    """
    if start not in remaining:
        return 0
    ways = {goal: 1}
    for cell in sorted((c for c in remaining if remaining[c] <= remaining[start]), key=remaining.__getitem__):
        if cell != goal:
            ways[cell] = sum(ways.get(nxt, 0) for _, nxt in graph.edges(cell)
                             if remaining.get(nxt) == remaining[cell] - 1)
    return ways[start]


#: A stop with at most this many options besides the solution's move is a rail stop.
RAIL_OPTIONS = 1


def _branching(states: States, graph: nx.DiGraph, solution: Solution, remaining: dict[int, int]) -> list[Stop]:
    """The stops of ``solution`` on the state-number ``graph`` (``remaining``: moves left, by state)."""
    stops = []
    path = [states.start]
    for letter in solution.moves:
        path.append(int(states.dest[DIRECTIONS.index(letter), path[-1]]))
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
        stops.append(Stop(states.cell(here), letter, left, graph.out_degree(here) - 1, alternatives, setbacks, traps))
    return stops


# Kirillov's comfort ranges for cells, read for an ice player (see Creativity).
CELLS_MIN, CELLS_SENSE = 16, 100


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


def _creativity(level: Level, solution: Solution) -> Creativity:
    p, i = solution.distance, solution.stops
    if level.plain:
        t = len({_stopper(level, cell, m, k == i - 1)
                 for k, (cell, m) in enumerate(zip(solution.path[1:], solution.moves))})
    else:
        t = len({_traced_stopper(level, cell, m, k == i - 1)
                 for k, (cell, m) in enumerate(zip(solution.path, solution.moves))})
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
