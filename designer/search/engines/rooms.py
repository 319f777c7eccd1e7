"""A room's layouts scored as one number, so that every stage that ranks layouts ranks rooms.

A room request (``designer.core.request_kinds.ROOM_REQUEST``) asks every route A:B to be strong, reversible and in
its band. A stage's candidate is a terrain with the doors open; it is scored once per route,
all routes in one compiled batch:

- a layout any route of which is not strong, not reversible, above its ceiling, or outside the
  rock or snow budget scores -1;
- meeting the floors, a layout scores the sum over routes of min(stops, floor): it reaches
  ``request.room_target()`` exactly when every route meets its own floor, and a step that
  lengthens a short route counts while one that lengthens a long route does not;
- maximizing, every floor met, the shortest route's min stops (``--maximize`` raises the
  shortest route);
- counting choices, a layout must meet every floor too, and scores the fewest options along
  any route's printed solution (``objective="options"``: ``--min-choices``), or the fewest
  options a stop along any route, in thousandths (``"per_stop"``: ``--maximize-choices``, as
  routes of different lengths compare by options a stop, not by their totals); the compiled
  ``choice_figures``, once per route of each layout that passes.

The verifier (``designer.analysis.verify.room_failure``) has the last word on every route.
"""

from __future__ import annotations

import numpy as np

from designer.analysis.classify import classify_batch
from designer.core import kernel_anneal
from designer.core.request_kinds import ROOM_REQUEST
from designer.core.space import LayoutSpace
from designer.core.terrain import STRONG


def room_scores(
    space: LayoutSpace, terrains: np.ndarray, maximizing: bool, objective: str = "stops"
) -> np.ndarray:
    """The score of each terrain of a batch (see the module docstring); -1 where one fails."""
    bands = space.request.route_bands
    count = terrains.shape[0]
    if count == 0:
        return np.zeros(0, np.int64)
    table = ROOM_REQUEST.kernel_routes(space)
    routes = len(table)
    starts = np.repeat([a for a, _, _, _ in table], count)
    goals = np.repeat([b for _, b, _, _ in table], count)
    classes, reversible, stops = classify_batch(np.concatenate([terrains] * routes), starts, goals)
    stops = stops.reshape(routes, count).astype(np.int64)
    ok = ((classes == STRONG) & reversible).reshape(routes, count).all(axis=0)
    ok &= space.within_budgets(terrains)
    for k, band in enumerate(bands):
        if band.max_stops is not None:
            ok &= stops[k] <= band.max_stops
    if objective != "stops" or maximizing:
        ok &= (stops >= floors_of(bands)).all(axis=0)
    if objective != "stops":
        return _fewest_options(space, terrains, ok, stops, objective == "per_stop")
    if maximizing:
        score = stops.min(axis=0)
    else:
        score = np.minimum(stops, floors_of(bands)).sum(axis=0)
    return np.where(ok, score, -1)


def floors_of(bands) -> np.ndarray:
    """The routes' floors as a column (one row per route)."""
    return np.array([band.floor for band in bands], np.int64)[:, None]


def per_stop_milli(options: int, stops: int) -> int:
    """Options a stop, in thousandths (rounded down), as a room's choices are compared."""
    return 1000 * options // max(stops, 1)


def _fewest_options(
    space: LayoutSpace, terrains: np.ndarray, ok: np.ndarray, stops: np.ndarray, per_stop: bool
) -> np.ndarray:
    """The fewest options along any route's solution (``per_stop``: options a stop, in
    thousandths), for each terrain where ``ok``; -1 elsewhere."""
    ends = [(a, b) for a, b, _, _ in ROOM_REQUEST.kernel_routes(space)]
    score = np.full(terrains.shape[0], -1, np.int64)
    for k in np.flatnonzero(ok):
        options = [
            kernel_anneal.choice_figures(terrains[k], start, goal)[0] for start, goal in ends
        ]
        score[k] = min(
            per_stop_milli(n, int(stops[r, k])) if per_stop else n for r, n in enumerate(options)
        )
    return score
