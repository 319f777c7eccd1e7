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

One module per family of constraints: ``literals`` (the boolean algebra), ``grid`` (tiles,
cells, slides and when they stop), ``distances`` (exact forward distances), ``properties``
(strong solvability and reversibility), ``symmetry`` (mirror images); this module puts a route
or a room together (``build_model``) and reads a level back (``IceModel``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.core.budget import Budget
from designer.core.request import LayoutRequest
from designer.core.terrain import Cell
from designer.models.distances import forward_distances
from designer.models.grid import SlideGrid, stop_literals, tiles
from designer.models.literals import Lit, Literals
from designer.models.loader import cp_model
from designer.models.properties import reversible, strongly_solvable
from designer.models.symmetry import break_mirror_symmetry, kept_mirror


class BuildTimedOut(Exception):
    """Building the model did not finish within its budget (the model is unusable)."""


@dataclass
class IceModel:
    """A built model with the variables needed to read a level back."""

    request: LayoutRequest
    model: cp_model.CpModel
    rock: dict[Cell, Lit]
    snow: dict[Cell, Lit]
    is_start: dict[Cell, Lit]
    is_goal: dict[Cell, Lit]
    rests: dict[Cell, Lit]
    moves_to: dict[Cell, Lit]
    goal_stops: cp_model.IntVar

    def value(self, solver, lit) -> bool:
        return lit if isinstance(lit, bool) else bool(solver.boolean_value(lit))

    def layout(self, solver) -> tuple[np.ndarray, Cell | None, Cell | None]:
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
        values: dict[int, tuple[Lit, bool]] = {}
        for var, present in self._assignment(terrain, start, goal):
            if isinstance(var, bool):
                continue
            if var.index < 0:  # a negated literal: hint its variable with the opposite value
                var, present = var.negated(), not present
            values[var.index] = (var, bool(present))
        for var, present in values.values():
            self.model.add_hint(var, present)


#: The families of constraints ``build_model`` can leave out (``relax``).
RELAXATIONS = ("parents", "strong", "reversible")


def build_model(
    req: LayoutRequest,
    budget: Budget | None = None,
    *,
    require_min_stops: bool = True,
    relax: frozenset[str] = frozenset(),
) -> IceModel:
    """Build the CP-SAT model of a request (see the module docstring).

    ``budget`` bounds the time building may take (the time limit covers model building too);
    past it, BuildTimedOut is raised. With ``require_min_stops=False`` the request's min stops is
    left out (the caller maximizes ``goal_stops`` instead, and the empty room is then a solution).

    ``relax`` leaves families of constraints out (``RELAXATIONS``): "parents" keeps the
    distances as upper bounds only (with strong solvability kept, the goal is still reached, and
    ``goal_stops >= K`` allows exactly the levels it did), "strong" and "reversible" drop those
    properties. A relaxed model allows every level the full one does, so its proof that no level
    exists is a proof for the request; ``docs/model_study.py`` times what each family is worth.
    """
    unknown = set(relax) - set(RELAXATIONS)
    if unknown:
        raise ValueError(f"unknown relaxation {sorted(unknown)[0]!r}: use {', '.join(RELAXATIONS)}")

    def check_time() -> None:
        if budget is not None and budget.expired():
            raise BuildTimedOut(
                f"building the CP-SAT model took more than {budget.time_limit:.1f} s"
            )

    model = cp_model.CpModel()
    lits = Literals(model)
    is_start, is_goal, rock, snow = tiles(model, lits, req)
    check_time()
    grid = SlideGrid(req, rock)
    if req.is_room:
        rests, moves_to, goal_stops = _room_routes(
            model, lits, grid, req, rock, snow, require_min_stops, check_time, relax
        )
    else:

        def band(stops) -> None:
            if require_min_stops:
                model.add(stops >= req.min_stops)
            if req.max_stops is not None:
                model.add(stops <= req.max_stops)

        rests, moves_to, goal_stops = _route(
            model, lits, grid, rock, snow, is_start, is_goal, band, check_time, relax
        )

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


def _route(
    model,
    lits: Literals,
    grid: SlideGrid,
    rock,
    snow,
    is_start,
    is_goal,
    band,
    check_time,
    relax: frozenset[str] = frozenset(),
):
    """One start and goal's part of the model: exact forward distances, the goal's min stops
    (``band(stops)`` adds its bounds), strong solvability and reversibility. Returns (rests,
    moves_to, the goal's stops)."""
    stops_forward = stop_literals(lits, grid, rock, snow, is_goal)
    stops_backward = stop_literals(lits, grid, rock, snow, is_start)
    check_time()

    rests, moves_to = forward_distances(
        model,
        lits,
        grid,
        is_start,
        is_goal,
        stops_forward,
        check_time,
        exact="parents" not in relax,
    )
    goal_stops = model.new_int_var(0, grid.bound, "goal_stops")
    for cell in grid.cells:
        if is_goal[cell] is not False:
            lits.implies([is_goal[cell]], [rests[cell]])
            lits.enforce(goal_stops == moves_to[cell], [is_goal[cell]])
    band(goal_stops)
    # Redundant, and it propagates: a fewest-moves solution rests on goal_stops + 1 distinct cells.
    model.add(sum(rests.values()) >= goal_stops + 1)
    check_time()

    if "strong" not in relax:
        strongly_solvable(model, lits, grid, rests, is_goal, stops_forward, check_time)
    if "reversible" not in relax:
        reversible(model, lits, grid, is_start, is_goal, stops_backward, check_time)
    return rests, moves_to, goal_stops


def _room_routes(
    model,
    lits: Literals,
    grid: SlideGrid,
    req: LayoutRequest,
    rock,
    snow,
    require_min_stops: bool,
    check_time,
    relax: frozenset[str] = frozenset(),
):
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

        parts.append(
            _route(
                model,
                lits,
                grid,
                rock,
                snow,
                {c: c == start for c in cells},
                {c: c == goal for c in cells},
                band,
                check_time,
                relax,
            )
        )
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
