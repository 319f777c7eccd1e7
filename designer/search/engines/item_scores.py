"""How a layout with items scores, on its graph of states (``designer.core.items``): valid
(strong, reversible, in the band, every item mattering) or far below every valid one, with its
min stops and, when asked, the choices along its solution. The chains
(``designer.search.engines.item_chain``) climb and anneal on these scores."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.analysis.along import fewest_solutions, options_along, solution_path
from designer.analysis.classify import all_finish, items_matter_on, min_stops, pairs_matter
from designer.analysis.solver import costs_to_goal, walk
from designer.core.budget import add_work
from designer.core.items import States, state_table
from designer.core.kernels import reach
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.search.tuning import (
    EVALUATE_SECONDS,
    EVALUATE_STATE_SECONDS,
)

#: What an invalid layout loses against every valid one (more than any level's min stops).
INVALID = 100_000


@dataclass(frozen=True)
class Scored:
    """A layout's figures: its min stops on the states (-1: the goal cannot be reached), whether
    it is **sound** (strong, reversible, within the band's top, every item mattering), and, when
    the request counts choices, the options along its printed solution and the number of
    fewest-moves solutions."""

    stops: int
    sound: bool
    options: int = 0
    solutions: int = 0
    floors: int = 0  # a room: the sum over its routes of min(stops, the route's floor)
    spare: int = 0  # with --tidy: placed snow tiles the layout does not need


def evaluate(level: Level, request: LayoutRequest, choices: bool = False) -> Scored:
    """The figures of a layout with items (see ``Scored``); a room's over all its routes (``stops``:
    the shortest route's; sound when every route is)."""
    if not request.is_room:
        return _evaluate(
            level, request.max_stops, choices, request.unique, tuple(request.portals or ())
        )
    shortest, floors, sound = None, 0, True
    for band in request.route_bands:
        route = Level(
            level.terrain,
            request.door(band.a),
            request.door(band.b),
            level.dialect,
            level.items if band.items else (),
        )
        scored = _evaluate(route, band.max_stops, False, False)
        shortest = scored.stops if shortest is None else min(shortest, scored.stops)
        floors += min(max(scored.stops, 0), band.floor)
        sound = sound and scored.sound
    assert shortest is not None  # a room has a route
    return Scored(shortest, sound, floors=floors)


def _evaluate(
    level: Level, max_stops: int | None, choices: bool, unique: bool, pinned: tuple = ()
) -> Scored:
    """The figures of a level with items: cheapest checks first; the choices (``choices``; the
    solutions with ``unique``) only of a sound layout."""
    states = state_table(level)
    # the work clock's count of it
    add_work(EVALUATE_SECONDS + states.count * EVALUATE_STATE_SECONDS)
    stops, order = reach(states.dest, states.start, states.goal)
    k = int(stops[states.goal])
    if k < 0:
        return Scored(-1, False)
    if max_stops is not None and k > max_stops:
        return Scored(k, False)
    if not items_matter_on(states, k) or not all_finish(states, order):
        return Scored(k, False)
    if min_stops(level.swapped()) < 0:
        return Scored(k, False)
    if level.portals and not pairs_matter(level, k, pinned):
        return Scored(k, False)
    if not choices:
        return Scored(k, True)
    return Scored(k, True, *choice_figures(states, order, count_solutions=unique))


def choice_figures(states: States, order: np.ndarray, count_solutions: bool) -> tuple[int, int]:
    """(options along the printed solution, fewest-moves solutions: 0 unless ``count_solutions``)
    of a solvable level's states, as ``designer.analysis.graph.analyze`` counts them
    (``designer.analysis.along``)."""
    costs = costs_to_goal(states, "moves", order)
    solution = walk(states, costs)
    assert solution is not None  # asked of a solvable level
    options = options_along(states, solution_path(states, solution.moves))
    return options, fewest_solutions(states, costs.primary) if count_solutions else 0
