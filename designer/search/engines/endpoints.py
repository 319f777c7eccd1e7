"""The one layout a request allows (no rock and no snow to place: ``fixed_terrain``), every start and
goal on it tried in compiled batches (``search_endpoints``): exact, and complete when every pair
was tried."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

import numpy as np

from designer.analysis.classify import classify_batch
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE
from designer.search.engines.exhaustive import base_terrain
from designer.search.tuning import ENDPOINT_BATCH


def fixed_terrain(request: LayoutRequest) -> np.ndarray | None:
    """The one terrain a request allows, when it allows just one: no rock may be placed (a budget
    of 0) and no snow. The start and goal are then all that is left to choose."""
    if request.max_rocks != 0 or request.placed_snow() or not request_kind(request).lays_ends:
        return None
    return base_terrain(request)


def endpoint_batch(
    space: LayoutSpace, terrain: np.ndarray, pairs: list
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch of ``terrain`` with each (start, goal) pair of ``pairs``, each end's cell opened (a
    start or goal in the frame is a gap in it): (terrains, starts, goals) for the classifier."""
    batch = np.repeat(terrain[None], len(pairs), axis=0)
    starts = space.flat([start for start, _ in pairs])
    goals = space.flat([goal for _, goal in pairs])
    flat = batch.reshape(len(pairs), -1)
    flat[np.arange(len(pairs)), starts] = ICE
    flat[np.arange(len(pairs)), goals] = ICE
    return batch, starts, goals


def search_endpoints(
    request: LayoutRequest,
    terrain: np.ndarray,
    budget: Budget,
    excluded: AbstractSet[Level] = frozenset(),
    first_only: bool = False,
) -> tuple[list[tuple[int, Level]], bool]:
    """Every allowed (start, goal) pair on ``terrain``, classified in batches on all cores.

    Returns the strong, reversible levels with min stops in the request's band (best first, not
    in ``excluded``), and whether every pair was tried before ``budget`` was spent:
    when it was, the list is complete, so an empty one proves the request infeasible and its
    first entry is optimal. With ``first_only`` it stops after the first batch that holds a level
    (``complete`` is then False).
    """
    space = LayoutSpace.of(request)
    pairs = [(s, g) for s in request.start_cells() for g in request.goal_cells() if s != g]
    found: list[tuple[int, Level]] = []
    for k in range(0, len(pairs), ENDPOINT_BATCH):
        if budget.expired() or (first_only and found):
            return sorted(found, key=lambda item: -item[0]), False
        chunk = pairs[k : k + ENDPOINT_BATCH]
        batch, starts, goals = endpoint_batch(space, terrain, chunk)
        classes, reversible, stops = classify_batch(batch, starts, goals)
        good = space.admissible(batch, classes, reversible, stops, floor=request.min_stops)
        for j in np.flatnonzero(good):
            level = Level(batch[j], chunk[j][0], chunk[j][1])
            if level not in excluded:
                found.append((int(stops[j]), level))
    return sorted(found, key=lambda item: -item[0]), True
