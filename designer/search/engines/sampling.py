"""Random levels in bulk, as arrays: the raw material of random generation and of benchmarks.

Levels are drawn the way Odland and the 003 generator draw them: each interior cell is rock with
probability ``rock_density``, the border is a rock frame, the start is a gap in the bottom edge
and the goal a gap in the top edge (corners excluded, since nothing can reach them). Every random
choice comes from the generator passed in, so a seed reproduces the batch.
"""

from __future__ import annotations

import numpy as np

from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE, ROCK, SNOW


def random_frame_batch(
    rng: np.random.Generator, count: int, height: int, width: int, rock_density: float
):
    """``count`` random framed levels as (terrains (B,H,W) uint8, starts (B,), goals (B,)) flat indices."""
    if height < 3 or width < 3:
        raise ValueError("a framed level needs at least 3 rows and 3 columns")
    terrains = (rng.random((count, height, width)) < rock_density).astype(np.uint8)
    terrains[:, 0, :] = ROCK
    terrains[:, -1, :] = ROCK
    terrains[:, :, 0] = ROCK
    terrains[:, :, -1] = ROCK
    start_cols = rng.integers(1, width - 1, count)
    goal_cols = rng.integers(1, width - 1, count)
    rows = np.arange(count)
    terrains[rows, height - 1, start_cols] = ICE
    terrains[rows, 0, goal_cols] = ICE
    return terrains, (height - 1) * width + start_cols, goal_cols.copy()


def batch_level(terrains: np.ndarray, starts: np.ndarray, goals: np.ndarray, k: int) -> Level:
    """Level number ``k`` of a batch."""
    width = terrains.shape[2]
    return Level(terrains[k], divmod(int(starts[k]), width), divmod(int(goals[k]), width))


def sample_for_request(
    rng: np.random.Generator, request: LayoutRequest, count: int, rock_density: float
):
    """``count`` random levels in the layout space of a ``LayoutRequest``.

    Free cells are rock with probability ``rock_density``; fixed cells (the frame, a template's
    drawn tiles) keep their tile; start and goal are the pins or drawn from the cells the request
    allows, always distinct and on ice.
    With ``request.snow`` = N, exactly N free cells (not the start or goal) are snow. Returns
    (terrains, starts, goals) as for ``random_frame_batch``; rock budgets are not applied here
    (callers filter).
    """
    space = LayoutSpace.of(request)
    fixed = space.fixed.reshape(space.height, space.width)
    free = fixed < 0
    terrains = np.where(
        free, rng.random((count, space.height, space.width)) < rock_density, fixed
    ).astype(np.uint8)
    start_cells, goal_cells = space.start_cells, space.goal_cells
    starts = start_cells[rng.integers(0, len(start_cells), count)]
    goals = goal_cells[rng.integers(0, len(goal_cells), count)]
    clash = starts == goals
    while clash.any():  # the request guarantees two distinct cells exist
        if len(goal_cells) > 1:
            goals[clash] = goal_cells[rng.integers(0, len(goal_cells), int(clash.sum()))]
        else:
            starts[clash] = start_cells[rng.integers(0, len(start_cells), int(clash.sum()))]
        clash = starts == goals
    flat = terrains.reshape(count, -1)
    rows = np.arange(count)
    flat[rows, starts] = ICE
    flat[rows, goals] = ICE
    if request.placed_snow():
        _place_snow(rng, flat, space.free, starts, goals, request.placed_snow())
    return terrains, starts, goals


def _place_snow(
    rng: np.random.Generator, flat: np.ndarray, free: np.ndarray, starts, goals, count: int
) -> None:
    """Snow on ``count`` random free cells of each level (a row of ``flat``), never on its ends."""
    keys = rng.random((flat.shape[0], len(free)))
    keys[free[None, :] == starts[:, None]] = np.inf  # the ends are never snow
    keys[free[None, :] == goals[:, None]] = np.inf
    chosen = free[np.argsort(keys, axis=1)[:, :count]]
    flat[np.arange(flat.shape[0])[:, None], chosen] = SNOW
