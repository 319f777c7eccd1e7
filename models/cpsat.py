"""CP-SAT formulation of "a strong, reversible level whose min stops is at least K".

Variables, per cell: ``rock``, ``snow`` (when the request asks for N snow tiles: exactly N),
``is_start``/``is_goal`` (constants when pinned). The player's motion is modelled per *slide*,
a cell and a direction: "the player is on cell c, sliding in direction d". A slide either passes
on to the next cell or stops on c (the next cell is rock or off the grid, c is snow, or c
captures). That is O(cells x 4) variables per layer of the model, against O(cells x slide length)
for one literal per possible move, so 40x40 builds in seconds. On those slides:

- forward distances: ``rests[c]`` is exactly the set of cells the player can rest on and
  ``moves_to[c]`` the exact min stops to each (BFS distances: every value has a parent move or
  slide that attains it). The start rests at 0; leaving a resting cell other than the goal gives
  the slide that distance + 1; passing keeps it; stopping hands it to the cell. So ``goal_stops``
  is the level's min stops, and ``goal_stops >= K`` is exact.
- a redundant bound that propagates: a fewest-moves solution rests on ``goal_stops + 1``
  different cells, so at least that many cells rest.
- strong solvability: every resting cell but the goal takes a move whose slide stops on a cell
  with a smaller ``to_goal`` potential (slides carry the potential of where they stop), so the
  goal can be reached from everywhere.
- reversibility: in the swapped level (the start captures, the goal is plain ice) a way of moves
  with decreasing ``back_potential`` leads from the goal to the start.

Every literal is built through ``Literals``, which folds constants (frame rocks, pins) and shares
identical conjunctions, so pinned and framed requests give small models.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from designer.models.loader import cp_model

from designer.core.budget import Budget
from designer.core.level import ROCK, SNOW, Cell
from designer.core.request import LayoutRequest
from designer.core.rules import DELTAS  # u, d, l, r
from designer.models.symmetry import break_mirror_symmetry, kept_mirror


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

    @staticmethod
    def _live(conditions) -> list | None:
        """The conditions that are not constants; None when one is False (nothing to enforce)."""
        conditions = list(conditions)
        if any(lit is False for lit in conditions):
            return None
        return [lit for lit in conditions if lit is not True]

    def implies(self, conditions, consequence_lits):
        """AND(conditions) => OR(consequence_lits), folded."""
        live = self._live(conditions)
        if live is None:
            return
        clause = [~lit for lit in live]
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
        lits = self._live(conditions)
        if lits is not None:
            self.model.add(constraint).only_enforce_if(lits)


@dataclass
class IceModel:
    """A built model with the variables needed to read a level back."""

    request: LayoutRequest
    model: cp_model.CpModel
    rock: dict[Cell, object]
    snow: dict[Cell, object]
    is_start: dict[Cell, object]
    is_goal: dict[Cell, object]
    rests: dict[Cell, object]
    moves_to: dict[Cell, object]
    goal_stops: cp_model.IntVar

    def value(self, solver, lit) -> bool:
        return lit if isinstance(lit, bool) else bool(solver.boolean_value(lit))

    def layout(self, solver) -> tuple[np.ndarray, Cell, Cell]:
        """(terrain, start, goal) of the solver's current solution (terrain codes of designer.core.level)."""
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
        terrain, start, goal = kept_mirror(self.request, np.asarray(terrain), start, goal)
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


Slide = tuple[Cell, int]  # (cell, direction): the player is on ``cell``, sliding in ``direction``
OPPOSITE = (1, 0, 3, 2)


def build_model(req: LayoutRequest, budget: Budget | None = None, *, require_min_stops: bool = True) -> IceModel:
    """Build the CP-SAT model of a request (see the module docstring).

    ``budget`` bounds the time building may take (the time limit covers model building too);
    past it, BuildTimedOut is raised. With ``require_min_stops=False`` the request's min stops is
    left out (the caller maximizes ``goal_stops`` instead, and the empty room is then a solution).
    """

    def check_time() -> None:
        if budget is not None and budget.expired():
            raise BuildTimedOut(f"building the CP-SAT model took more than {budget.time_limit:.1f} s")

    model = cp_model.CpModel()
    lits = Literals(model)
    is_start, is_goal, rock, snow = _tiles(model, lits, req)
    check_time()
    grid = _Grid(req, rock)
    if req.is_room:
        rests, moves_to, goal_stops = _room_routes(model, lits, grid, req, rock, snow, require_min_stops, check_time)
    else:
        def band(stops) -> None:
            if require_min_stops:
                model.add(stops >= req.min_stops)
            if req.max_stops is not None:
                model.add(stops <= req.max_stops)

        rests, moves_to, goal_stops = _route(model, lits, grid, rock, snow, is_start, is_goal, band, check_time)

    if req.placed_snow():  # exactly the requested number of snow tiles
        placed_snow = [snow[c] for c in req.free_cells() if not isinstance(snow[c], bool)]
        model.add(sum(placed_snow) == req.placed_snow())
    if req.max_rocks is not None:  # the rock budget (frame rocks are not counted)
        free = req.free_cells()
        placed = [rock[c] for c in free if not isinstance(rock[c], bool)]
        fixed = sum(1 for c in free if rock[c] is True)
        model.add(sum(placed) + fixed <= req.max_rocks)
    break_mirror_symmetry(model, req, is_start)
    return IceModel(req, model, rock, snow, is_start, is_goal, rests, moves_to, goal_stops)


def _route(model, lits: Literals, grid: _Grid, rock, snow, is_start, is_goal, band, check_time):
    """One start and goal's part of the model: exact forward distances, the goal's min stops
    (``band(stops)`` adds its bounds), strong solvability and reversibility. Returns (rests,
    moves_to, the goal's stops)."""
    stops_forward = _stop_literals(lits, grid, rock, snow, is_goal)
    stops_backward = _stop_literals(lits, grid, rock, snow, is_start)
    check_time()

    rests, moves_to = _forward_distances(model, lits, grid, is_start, is_goal, stops_forward, check_time)
    goal_stops = model.new_int_var(0, grid.bound, "goal_stops")
    for cell in grid.cells:
        if is_goal[cell] is not False:
            lits.implies([is_goal[cell]], [rests[cell]])
            lits.enforce(goal_stops == moves_to[cell], [is_goal[cell]])
    band(goal_stops)
    # Redundant, and it propagates: a fewest-moves solution rests on goal_stops + 1 distinct cells.
    model.add(sum(rests.values()) >= goal_stops + 1)
    check_time()

    _strongly_solvable(model, lits, grid, rests, is_goal, stops_forward, check_time)
    _reversible(model, lits, grid, is_start, is_goal, stops_backward, check_time)
    return rests, moves_to, goal_stops


def _room_routes(model, lits: Literals, grid: _Grid, req: LayoutRequest, rock, snow, require_min_stops: bool,
                 check_time):
    """A room's routes on the one set of tile variables: each route's part of the model
    (``_route``), its doors as constant ends, its ceiling a constraint. The objective variable:
    with ``require_min_stops`` (maximizing) every floor is a constraint and it is the shortest
    route's stops; else the sum over routes of min(stops, floor), which reaches
    ``req.room_target()`` exactly when every route meets its floor. Returns the first route's
    rests and moves_to, and that variable."""
    cells = [(r, c) for r in range(req.height) for c in range(req.width)]
    parts = []
    for route in req.route_bands:
        start, goal = req.door(route.a), req.door(route.b)

        def band(stops, route=route) -> None:
            if require_min_stops:
                model.add(stops >= route.min_stops)
            if route.max_stops is not None:
                model.add(stops <= route.max_stops)

        parts.append(_route(model, lits, grid, rock, snow, {c: c == start for c in cells},
                            {c: c == goal for c in cells}, band, check_time))
    score = model.new_int_var(0, grid.bound * len(parts), "room_score")
    if require_min_stops:
        model.add_min_equality(score, [stops for _, _, stops in parts])
    else:
        capped = []
        for route, (_, _, stops) in zip(req.route_bands, parts):
            least = model.new_int_var(0, route.min_stops, "capped_stops")
            model.add_min_equality(least, [stops, route.min_stops])
            capped.append(least)
        model.add(score == sum(capped))
    rests, moves_to, _ = parts[0]
    return rests, moves_to, score


def _tiles(model: cp_model.CpModel, lits: Literals, req: LayoutRequest):
    """The layout's variables: ``is_start``, ``is_goal``, ``rock`` and ``snow`` per cell (literals,
    or constants where the request fixes the tile)."""
    cells = [(r, c) for r in range(req.height) for c in range(req.width)]
    free = set(req.free_cells())

    def indicator(allowed: set[Cell], name: str) -> dict[Cell, object]:
        chosen = {cell: False for cell in cells}
        if len(allowed) == 1:
            chosen[next(iter(allowed))] = True
        else:
            for cell in sorted(allowed):
                chosen[cell] = model.new_bool_var(f"{name}{cell}")
            model.add_exactly_one([chosen[c] for c in sorted(allowed)])
        return chosen

    is_start = indicator(set(req.start_cells()), "start")
    is_goal = indicator(set(req.goal_cells()), "goal")
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
    return is_start, is_goal, rock, snow


class _Grid:
    """The cells the player may stand on (every cell that is not rock for sure) and the slides
    through them."""

    def __init__(self, req: LayoutRequest, rock: dict[Cell, object]):
        self.height, self.width = req.height, req.width
        self.cells = [c for c in rock if rock[c] is not True]
        self.cell_set = set(self.cells)
        self.slides: list[Slide] = [(c, d) for c in self.cells for d in range(4)]
        self.bound = len(self.cells)  # no potential or distance needs more
        self.open = {c: Literals.negate(rock[c]) for c in self.cells}
        self.rock = rock

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    @staticmethod
    def step(cell: Cell, direction: int) -> Cell:
        dr, dc = DELTAS[direction]
        return cell[0] + dr, cell[1] + dc

    def next_slide(self, slide: Slide) -> Slide | None:
        """The slide one cell further on (None when that cell is rock for sure or off the grid)."""
        cell, d = slide
        nxt = self.step(cell, d)
        return (nxt, d) if nxt in self.cell_set else None

    def previous_slide(self, slide: Slide) -> Slide | None:
        cell, d = slide
        prev = self.step(cell, OPPOSITE[d])
        return (prev, d) if prev in self.cell_set else None


def _stop_literals(lits: Literals, grid: _Grid, rock, snow, capture) -> dict[Slide, object]:
    """Per slide (c, d): a player sliding onto c in direction d stops there (the next cell is rock
    or off the grid, c is snow, or c captures: the goal forward, the start in the swapped level)."""
    stops = {}
    for cell, d in grid.slides:
        nxt = grid.step(cell, d)
        blocked = rock[nxt] if grid.inside(nxt) else True
        stops[(cell, d)] = lits.disj([blocked, snow[cell], capture[cell]])
    return stops


def _forward_distances(model, lits: Literals, grid: _Grid, is_start, is_goal, stops, check_time):
    """``rests[c]``: the player can rest on c; ``moves_to[c]``: the min stops to get there, exact
    (every value has a parent that attains it; 0 where c is not reached). Slides carry the
    distance of the move they belong to: ``moves_to[u] + 1`` leaving a resting cell u, kept while
    the player passes a cell, handed to the cell where the slide stops."""
    bound = grid.bound
    rests = {c: model.new_bool_var(f"rests{c}") for c in grid.cells}
    moves_to = {c: model.new_int_var(0, bound, f"moves_to{c}") for c in grid.cells}
    sliding = {s: model.new_bool_var(f"sliding{s}") for s in grid.slides}
    slide_moves = {s: model.new_int_var(0, bound, f"slide_moves{s}") for s in grid.slides}
    parents: dict[object, list] = {key: [] for key in [*grid.cells, *grid.slides]}

    def feeds(target_flag, target_value, conditions, value_expr, key) -> None:
        """When ``conditions`` hold the target is on (and its value at most ``value_expr``); a
        parent literal picks the condition set that attains the value."""
        lits.implies(conditions, [target_flag])
        lits.enforce(target_value <= value_expr, conditions)
        parent = model.new_bool_var("parent")
        lits.implies([parent], [lits.conj(conditions)])
        model.add(target_value == value_expr).only_enforce_if(parent)
        parents[key].append(parent)

    for cell in grid.cells:
        lits.implies([rests[cell]], [grid.open[cell]])
        lits.implies([is_start[cell]], [rests[cell]])
        lits.enforce(moves_to[cell] == 0, [is_start[cell]])
        lits.enforce(moves_to[cell] == 0, [~rests[cell]])
    for k, slide in enumerate(grid.slides):
        if k % 512 == 0:
            check_time()
        cell, d = slide
        lits.implies([sliding[slide]], [grid.open[cell]])
        lits.enforce(slide_moves[slide] == 0, [~sliding[slide]])
        prev = grid.previous_slide(slide)
        if prev is not None:
            behind = prev[0]  # leave a resting cell ...
            feeds(sliding[slide], slide_moves[slide], [rests[behind], lits.negate(is_goal[behind]), grid.open[cell]],
                  moves_to[behind] + 1, slide)
            # ... or pass the cell behind
            feeds(sliding[slide], slide_moves[slide], [sliding[prev], lits.negate(stops[prev])],
                  slide_moves[prev], slide)
        feeds(rests[cell], moves_to[cell], [sliding[slide], stops[slide]], slide_moves[slide], cell)
    for cell in grid.cells:
        lits.implies([rests[cell]], [is_start[cell]] + parents[cell])
    for slide in grid.slides:
        lits.implies([sliding[slide]], parents[slide])
    return rests, moves_to


def _strongly_solvable(model, lits: Literals, grid: _Grid, rests, is_goal, stops, check_time) -> None:
    """Every resting cell but the goal has a move to a cell with a smaller ``to_goal`` potential,
    so the goal can be reached from everywhere the player can rest. ``slide_to_goal`` carries the
    potential of the cell where a slide stops back to the cell it leaves from."""
    bound = grid.bound
    to_goal = {c: model.new_int_var(0, bound, f"to_goal{c}") for c in grid.cells}
    slide_to_goal = {s: model.new_int_var(0, bound, f"slide_to_goal{s}") for s in grid.slides}
    for k, slide in enumerate(grid.slides):
        if k % 512 == 0:
            check_time()
        cell, _ = slide
        nxt = grid.next_slide(slide)
        if nxt is not None:
            lits.enforce(slide_to_goal[slide] >= slide_to_goal[nxt], [grid.open[cell], lits.negate(stops[slide])])
        lits.enforce(slide_to_goal[slide] >= to_goal[cell], [grid.open[cell], stops[slide]])
    for cell in grid.cells:
        onward = _moves_down(model, lits, grid, cell, to_goal, slide_to_goal, "onward")
        lits.implies([rests[cell]], [is_goal[cell]] + onward)


def _moves_down(model, lits: Literals, grid: _Grid, cell: Cell, potential, slide_potential, name: str,
                sliding=None) -> list:
    """One literal per direction a move can leave ``cell`` in: when true, the first cell of the
    slide is open (and, given ``sliding``, that slide is marked), and the cell where the slide
    stops has a smaller potential than ``cell``."""
    moves = []
    for d in range(4):
        first = (grid.step(cell, d), d)
        if first[0] not in grid.cell_set:
            continue
        move = model.new_bool_var(name)
        lits.implies([move], [grid.open[first[0]]])
        if sliding is not None:
            lits.implies([move], [sliding[first]])
        model.add(potential[cell] >= slide_potential[first] + 1).only_enforce_if(move)
        moves.append(move)
    return moves


def _reversible(model, lits: Literals, grid: _Grid, is_start, is_goal, stops, check_time) -> None:
    """In the swapped level (the start captures, the goal is plain ice) a way leads from the goal to
    the start: each cell on it but the start takes a move to the next with a smaller
    ``back_potential``; ``on_way_back`` and ``back_sliding`` mark the cells and slides it uses."""
    bound = grid.bound
    on_way_back = {c: model.new_bool_var(f"on_way_back{c}") for c in grid.cells}
    back_potential = {c: model.new_int_var(0, bound, f"back_potential{c}") for c in grid.cells}
    back_sliding = {s: model.new_bool_var(f"back_sliding{s}") for s in grid.slides}
    slide_back_potential = {s: model.new_int_var(0, bound, f"slide_back_potential{s}") for s in grid.slides}
    for k, slide in enumerate(grid.slides):
        if k % 512 == 0:
            check_time()
        cell, _ = slide
        lits.implies([back_sliding[slide]], [grid.open[cell]])
        nxt = grid.next_slide(slide)
        if nxt is not None:
            passing = [back_sliding[slide], lits.negate(stops[slide])]
            lits.implies(passing, [back_sliding[nxt]])
            lits.enforce(slide_back_potential[slide] >= slide_back_potential[nxt], passing)
        stopping = [back_sliding[slide], stops[slide]]
        lits.implies(stopping, [on_way_back[cell]])
        lits.enforce(slide_back_potential[slide] >= back_potential[cell], stopping)
    for cell in grid.cells:
        lits.implies([is_goal[cell]], [on_way_back[cell]])
        onward = _moves_down(model, lits, grid, cell, back_potential, slide_back_potential, "back_move", back_sliding)
        lits.implies([on_way_back[cell]], [is_start[cell]] + onward)
