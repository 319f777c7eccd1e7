"""CP-SAT formulation of "a strong, reversible level whose min stops is at least K".

Variables, per cell: ``rock``, ``snow`` (when the request asks for N snow tiles: exactly N), ``is_start``/``is_goal`` (constants when
pinned). Per possible slide (cell u, direction d, end cell v) one literal ``move`` that is true
exactly when that slide exists in the chosen layout: u and v not rock, every cell between them
passes (not rock, not snow, not the goal) and v stops the player (rock or the wall beyond, snow,
or the goal). On those literals:

- forward distances (shortest-path potentials): the start is reached at 0; an open move out of
  a reached cell other than the goal reaches its end with ``dist[v] <= dist[u] + 1``; every
  reached cell but the start picks a parent move with equality. So ``reached`` is exactly the
  set of resting cells and ``dist`` their exact min stops, and ``dist[goal] >= K`` is sound.
- strong solvability: every reached cell but the goal picks a successor move to a cell with a
  smaller ``to_goal`` potential, so a path to the goal exists from everywhere.
- reversibility: in the swapped level (the start captures, the goal is plain ice; separate move
  literals where the two differ) a chain of parent moves with increasing potential leads from the
  goal to the start.

Every literal is built through ``Literals``, which folds constants (frame rocks, pins) and shares
identical conjunctions, so pinned and framed requests give small models.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from models.request import ROCK, SNOW, Cell, LayoutRequest

DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # u, d, l, r: the order of designer.rules


class BuildTimedOut(Exception):
    """Building the model did not finish within its budget (the model is unusable)."""


class Literals:
    """Boolean algebra over CP-SAT literals and Python constants, with folding and sharing."""

    def __init__(self, model: cp_model.CpModel):
        self.model = model
        self._and_cache: dict[tuple[int, ...], object] = {}

    @staticmethod
    def negate(lit):
        if lit is True or lit is False:
            return not lit
        return ~lit

    def conj(self, lits):
        """A literal equal to the conjunction of ``lits`` (True for none)."""
        seen: dict[int, object] = {}
        for lit in lits:
            if lit is False:
                return False
            if lit is True:
                continue
            seen[lit.index] = lit
        if any(-i - 1 in seen for i in seen):
            return False
        if not seen:
            return True
        if len(seen) == 1:
            return next(iter(seen.values()))
        key = tuple(sorted(seen))
        if key not in self._and_cache:
            var = self.model.new_bool_var("and")
            parts = list(seen.values())
            self.model.add_bool_and(parts).only_enforce_if(var)
            self.model.add_bool_or([~p for p in parts] + [var])
            self._and_cache[key] = var
        return self._and_cache[key]

    def disj(self, lits):
        return self.negate(self.conj([self.negate(lit) for lit in lits]))

    def implies(self, conditions, consequence_lits):
        """AND(conditions) => OR(consequence_lits), folded."""
        clause = []
        for lit in conditions:
            if lit is False:
                return
            if lit is not True:
                clause.append(~lit)
        for lit in consequence_lits:
            if lit is True:
                return
            if lit is not False:
                clause.append(lit)
        if not clause:
            raise ValueError("constraint folds to false")
        self.model.add_bool_or(clause)

    def enforce(self, constraint, conditions):
        """Make a linear constraint hold when all ``conditions`` do (folded)."""
        lits = []
        for lit in conditions:
            if lit is False:
                return
            if lit is not True:
                lits.append(lit)
        self.model.add(constraint).only_enforce_if(lits)


@dataclass
class Move:
    source: Cell
    direction: int
    target: Cell
    lit: object  # literal (or True) that the move exists


@dataclass
class IceModel:
    """A built model with the variables needed to read a level back."""

    request: LayoutRequest
    model: cp_model.CpModel
    rock: dict[Cell, object]
    snow: dict[Cell, object]
    is_start: dict[Cell, object]
    is_goal: dict[Cell, object]
    reached: dict[Cell, object]
    dist: dict[Cell, object]
    goal_stops: cp_model.IntVar

    def value(self, solver, lit) -> bool:
        return lit if isinstance(lit, bool) else bool(solver.boolean_value(lit))

    def layout(self, solver) -> tuple[np.ndarray, Cell, Cell]:
        """(terrain, start, goal) of the solver's current solution (terrain codes of designer.level)."""
        req = self.request
        terrain = np.zeros((req.height, req.width), np.uint8)
        start = goal = None
        for cell in self.rock:
            if self.value(solver, self.rock[cell]):
                terrain[cell] = 1
            elif self.value(solver, self.snow[cell]):
                terrain[cell] = 2
            if self.value(solver, self.is_start[cell]):
                start = cell
            if self.value(solver, self.is_goal[cell]):
                goal = cell
        return terrain, start, goal

    def _assignment(self, terrain: np.ndarray, start: Cell, goal: Cell):
        """(literal, value) pairs that spell out a layout (constants included)."""
        for cell, lit in self.rock.items():
            yield lit, terrain[cell] == 1
            yield self.snow[cell], terrain[cell] == 2
            yield self.is_start[cell], cell == start
            yield self.is_goal[cell], cell == goal

    def exclude(self, terrain: np.ndarray, start: Cell, goal: Cell) -> None:
        """Forbid exactly this layout (a no-good cut)."""
        clause = []
        for var, present in self._assignment(terrain, start, goal):
            if isinstance(var, bool):
                if var != present:
                    return  # the model cannot produce this layout anyway
                continue
            clause.append(~var if present else var)
        if clause:
            self.model.add_bool_or(clause)

    def hint(self, terrain: np.ndarray, start: Cell, goal: Cell) -> None:
        """Suggest a layout as the solver's starting point (each variable hinted once). A layout
        the symmetry breaking would cut off is hinted as its kept mirror image."""
        terrain, start, goal = _kept_mirror(self.request, np.asarray(terrain), start, goal)
        self.model.clear_hints()
        values: dict[int, tuple[object, bool]] = {}
        for var, present in self._assignment(terrain, start, goal):
            if isinstance(var, bool):
                continue
            if var.index < 0:  # a negated literal: hint its variable with the opposite value
                var, present = var.negated(), not present
            values[var.index] = (var, bool(present))
        for var, present in values.values():
            self.model.add_hint(var, present)


def build_model(req: LayoutRequest, budget: float | None = None) -> IceModel:
    """Build the CP-SAT model of a request (see the module docstring).

    ``budget`` bounds the seconds building may take (the time limit covers model building too);
    past it, BuildTimedOut is raised.
    """
    give_up = None if budget is None else time.monotonic() + budget

    def check_time() -> None:
        if give_up is not None and time.monotonic() > give_up:
            raise BuildTimedOut(f"building the CP-SAT model took more than {budget:.1f} s")

    model = cp_model.CpModel()
    lits = Literals(model)
    height, width = req.height, req.width
    cells = [(r, c) for r in range(height) for c in range(width)]
    free = set(req.free_cells())
    start_cells, goal_cells = set(req.start_cells()), set(req.goal_cells())

    def indicator(allowed: set[Cell], name: str) -> dict[Cell, object]:
        chosen = {cell: False for cell in cells}
        if len(allowed) == 1:
            chosen[next(iter(allowed))] = True
        else:
            for cell in sorted(allowed):
                chosen[cell] = model.new_bool_var(f"{name}{cell}")
            model.add_exactly_one([chosen[c] for c in sorted(allowed)])
        return chosen

    is_start = indicator(start_cells, "start")
    is_goal = indicator(goal_cells, "goal")
    rock: dict[Cell, object] = {}
    snow: dict[Cell, object] = {}
    for cell in cells:
        endpoint = lits.disj([is_start[cell], is_goal[cell]])
        fixed = req.fixed_tile(cell)
        if cell in free and endpoint is not True:
            rock[cell] = model.new_bool_var(f"rock{cell}")
            lits.implies([endpoint], [~rock[cell]])
        elif cell in free:
            rock[cell] = False
        elif fixed == ROCK:  # frame or drawn rock: rock unless an end opens it (a gap in the frame)
            rock[cell] = lits.negate(endpoint)
        else:  # drawn ice or snow (no end is ever placed on drawn snow)
            rock[cell] = False
        if req.placed_snow() and cell in free and endpoint is not True:
            snow[cell] = model.new_bool_var(f"snow{cell}")
            lits.implies([snow[cell]], [~rock[cell]])
            lits.implies([snow[cell]], [lits.negate(endpoint)])
        else:
            snow[cell] = cell not in free and fixed == SNOW
        lits.implies([is_start[cell], is_goal[cell]], [])  # never both on one cell

    def inside(cell: Cell) -> bool:
        return 0 <= cell[0] < height and 0 <= cell[1] < width

    def moves(capture: dict[Cell, object]) -> list[Move]:
        """Every possible slide, with the literal that it exists when ``capture`` stops the player."""
        found = []
        for u in cells:
            check_time()
            if rock[u] is True:
                continue
            open_u = lits.negate(rock[u])
            for d, (dr, dc) in enumerate(DELTAS):
                passing = open_u  # u open and every cell so far passed through
                v = (u[0] + dr, u[1] + dc)
                while inside(v) and passing is not False:
                    beyond = (v[0] + dr, v[1] + dc)
                    blocked = rock[beyond] if inside(beyond) else True
                    stops = lits.disj([blocked, snow[v], capture[v]])
                    lit = lits.conj([passing, lits.negate(rock[v]), stops])
                    if lit is not False:
                        found.append(Move(u, d, v, lit))
                    passing = lits.conj([passing, lits.negate(rock[v]), lits.negate(snow[v]), lits.negate(capture[v])])
                    v = beyond
        return found

    forward = moves(is_goal)
    backward = moves(is_start)
    check_time()
    candidates = [c for c in cells if rock[c] is not True]
    bound = len(candidates)

    # Forward reachability with exact BFS distances.
    reached = {c: model.new_bool_var(f"reached{c}") for c in candidates}
    dist = {c: model.new_int_var(0, bound, f"dist{c}") for c in candidates}
    parents: dict[Cell, list] = {c: [] for c in candidates}
    for c in candidates:
        lits.implies([is_start[c]], [reached[c]])
        lits.enforce(dist[c] == 0, [is_start[c]])
        lits.enforce(dist[c] == 0, [~reached[c]])
    for k, mv in enumerate(forward):
        if k % 1024 == 0:
            check_time()
        u, v = mv.source, mv.target
        active = [mv.lit, reached[u], lits.negate(is_goal[u])]
        lits.implies(active, [reached[v]])
        lits.enforce(dist[v] <= dist[u] + 1, active)
        parent = model.new_bool_var("parent")
        lits.implies([parent], [lits.conj(active)])
        lits.enforce(dist[v] == dist[u] + 1, [parent])
        parents[v].append(parent)
    for c in candidates:
        lits.implies([reached[c]], [is_start[c]] + parents[c])
    check_time()

    # The target: the goal is reached, at no fewer than K (and no more than the band's top) stops.
    goal_stops = model.new_int_var(0, bound, "goal_stops")
    for c in candidates:
        if is_goal[c] is not False:
            lits.implies([is_goal[c]], [reached[c]])
            lits.enforce(goal_stops == dist[c], [is_goal[c]])
    model.add(goal_stops >= req.min_stops)
    if req.max_stops is not None:
        model.add(goal_stops <= req.max_stops)

    # Strong: every reached cell but the goal has a move to a cell nearer the goal (by potential).
    to_goal = {c: model.new_int_var(0, bound, f"to_goal{c}") for c in candidates}
    onward: dict[Cell, list] = {c: [] for c in candidates}
    for k, mv in enumerate(forward):
        if k % 1024 == 0:
            check_time()
        step = model.new_bool_var("onward")
        lits.implies([step], [mv.lit])
        model.add(to_goal[mv.source] >= to_goal[mv.target] + 1).only_enforce_if(step)
        onward[mv.source].append(step)
    for c in candidates:
        lits.implies([reached[c]], [is_goal[c]] + onward[c])
    check_time()

    # Reversible: in the swapped level a chain of moves leads from the goal to the start.
    on_way_back = {c: model.new_bool_var(f"back{c}") for c in candidates}
    back_potential = {c: model.new_int_var(0, bound, f"back_pot{c}") for c in candidates}
    back_parents: dict[Cell, list] = {c: [] for c in candidates}
    for k, mv in enumerate(backward):
        if k % 1024 == 0:
            check_time()
        u, v = mv.source, mv.target
        step = model.new_bool_var("back_parent")
        lits.implies([step], [lits.conj([mv.lit, on_way_back[u], lits.negate(is_start[u])])])
        model.add(back_potential[v] >= back_potential[u] + 1).only_enforce_if(step)
        back_parents[v].append(step)
    for c in candidates:
        lits.implies([is_start[c]], [on_way_back[c]])
        lits.implies([on_way_back[c]], [is_goal[c]] + back_parents[c])

    # Exactly the requested number of snow tiles.
    if req.placed_snow():
        placed_snow = [snow[c] for c in free if not isinstance(snow[c], bool)]
        model.add(sum(placed_snow) == req.placed_snow())

    # Rock budget (frame rocks are not counted).
    if req.max_rocks is not None:
        placed = [rock[c] for c in free if not isinstance(rock[c], bool)]
        fixed = sum(1 for c in free if rock[c] is True)
        model.add(sum(placed) + fixed <= req.max_rocks)

    # Symmetry: mirror images have the same min stops; keep the start in the left (top) half.
    _break_mirror_symmetry(model, req, is_start)

    return IceModel(req, model, rock, snow, is_start, is_goal, reached, dist, goal_stops)


def _break_mirror_symmetry(model: cp_model.CpModel, req: LayoutRequest, is_start: dict[Cell, object]) -> None:
    if req.pinned or req.template is not None:  # pins and templates break the mirror symmetry
        return
    cells = [c for c, v in is_start.items() if not isinstance(v, bool)]
    if not cells:
        return
    col = sum(c[1] * is_start[c] for c in cells)
    model.add(2 * col <= req.width - 1)  # left-right mirror keeps the frame and the edges
    if not req.frame:
        row = sum(c[0] * is_start[c] for c in cells)
        model.add(2 * row <= req.height - 1)  # without a frame, up-down too


def _kept_mirror(req: LayoutRequest, terrain: np.ndarray, start: Cell, goal: Cell):
    """The mirror image of a layout that ``_break_mirror_symmetry`` keeps (the layout itself when
    it is kept already, or when pins switch symmetry breaking off)."""
    if req.pinned or req.template is not None:
        return terrain, start, goal
    (sr, sc), (gr, gc) = start, goal
    h, w = terrain.shape
    if 2 * sc > w - 1:
        terrain, sc, gc = terrain[:, ::-1], w - 1 - sc, w - 1 - gc
    if not req.frame and 2 * sr > h - 1:
        terrain, sr, gr = terrain[::-1, :], h - 1 - sr, h - 1 - gr
    return terrain, (sr, sc), (gr, gc)
