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

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from designer.analysis.along import (
    RAIL_OPTIONS,
    Creativity,
    ItemEffect,
    Stop,
    creativity_of,
    fewest_solutions,
    item_effects,
    stops_along,
)
from designer.analysis.classify import min_stops
from designer.analysis.solver import Solution, costs_to_goal, moves_out, walk
from designer.core.errors import LevelError
from designer.core.items import States, state_table
from designer.core.kernels import reach
from designer.core.level import Level
from designer.core.rules import DIRECTIONS, trace
from designer.core.terrain import Cell


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
        graph.add_edges_from(
            (label(u), label(v), {"direction": letter, "length": n})
            for u, v, n in zip(starts.tolist(), ends.tolist(), lengths.tolist())
        )
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
    # cells that cannot reach the goal
    trap_cells: list[tuple[int, ...]] = field(default_factory=list)
    branching: list[Stop] = field(default_factory=list)
    creativity: Creativity | None = None
    solutions: int = 0  # distinct fewest-moves move strings (0 when unsolvable)
    items: list[ItemEffect] = field(default_factory=list)  # a level with items: what each adds
    # a level with portals: what each does (``passages``)
    portals: list[dict] = field(default_factory=list)
    # a level with floors: which can be left for good
    floors: list[dict] = field(default_factory=list)

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
                {"sink": [list(c) for c in t["sink"]], "basin": [list(c) for c in t["basin"]]}
                for t in self.traps
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
        raise LevelError(
            f"the level has {moves:,} moves between {len(order):,} resting "
            f"{'states' if level.items else 'cells'}: analyze takes at most {MAX_ANALYZED_MOVES:,} "
            "(about 500 MB); solve finds its solution"
        )
    goal = states.goal
    # The solutions first, each cost table dropped once walked: on a 1000x1000 level the
    # searches' peaks and the graph's size then never add up.
    by_moves = costs_to_goal(states, "moves", order)
    solution = walk(states, by_moves)
    distance_solution = walk(states, costs_to_goal(states, "distance", order))
    remaining = by_moves.primary if solution else {}  # moves left to the goal, by state
    del by_moves
    # state numbers inside; cells (or labelled states) in what is returned
    graph = _flat_graph(states, order, level.plain)
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

    components = sorted(
        (sorted(c) for c in nx.strongly_connected_components(graph)), key=lambda c: (-len(c), c)
    )
    condensation = nx.condensation(graph, scc=[set(c) for c in components])
    sinks = [k for k in condensation if condensation.out_degree(k) == 0]
    # A component reaches the goal whole or not at all, and whatever reaches a trap's sink without
    # reaching the goal passes through trap components only: the basins are found in their
    # subgraph, never in the (often huge) components that lead to the goal.
    trapped = condensation.subgraph(
        k for k in condensation if condensation.nodes[k]["members"].isdisjoint(can_reach_goal)
    )
    traps = []
    for k in sinks:
        members = sorted(condensation.nodes[k]["members"])
        if goal in members:
            continue
        basin = set(members)
        for j in nx.ancestors(trapped, k):
            basin |= condensation.nodes[j]["members"]
        traps.append(
            {"sink": [cells(i) for i in members], "basin": [cells(i) for i in sorted(basin)]}
        )
    trap_cells = [cells(i) for i in sorted(set(graph.nodes) - can_reach_goal)]
    del condensation, trapped

    branching = stops_along(states, graph, solution, remaining) if solution else []
    creativity = creativity_of(level, solution) if solution else None
    items = item_effects(level, solution) if solution and level.items else []
    solutions = fewest_solutions(states, remaining) if solution else 0
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


def passages(
    level: Level, states: States, graph: nx.DiGraph, components: list[list[int]]
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
    fell_into: dict[
        tuple[int, int], Cell | None
    ] = {}  # (cell, direction): the portal its slide falls into

    def portal_of(cell: int, d: int) -> Cell | None:
        if (cell, d) not in fell_into:  # one trace a slide, whatever items are taken
            slide = trace(level, cell, d, laps=True)
            fell_into[cell, d] = (
                level.cell(slide.path[-2]) if slide is not None and slide.portal else None
            )
        return fell_into[cell, d]

    for state in graph.nodes:
        if state == states.goal:
            continue
        for d in range(4):
            after = int(states.dest[d, state])
            src = portal_of(level.index(states.cell(state)), d) if after >= 0 else None
            # not caught by the goal on the way
            if src is not None and states.cell(after) == target[src]:
                through[src].append((state, after))
    portals = []
    for src, dst in level.portals:
        used = through[src]
        portals.append(
            {
                "from": list(src),
                "to": list(dst),
                "pair": target.get(dst) == src,
                "used": bool(used),
                "one_way": any(component[a] != component[b] for a, b in used) if used else None,
            }
        )
    floor_of = {state: level.floor_of(states.cell(state)).name for state in graph.nodes}
    floors = []
    for floor in level.floors:
        on = {state for state, name in floor_of.items() if name == floor.name}
        # every state from which the player can rest on the floor again
        back, todo = (
            set(on),
            list(on),
        )
        while todo:
            for before in graph.predecessors(todo.pop()):
                if before not in back:
                    back.add(before)
                    todo.append(before)
        leaving = [(a, b) for a in on for b in graph.successors(a) if floor_of[b] != floor.name]
        floors.append(
            {
                "name": floor.name,
                "reached": bool(on),
                "no_return": any(b not in back for _, b in leaving),
            }
        )
    return portals, floors
