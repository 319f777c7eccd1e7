"""Neighbourhood search around good layouts, on the compiled classifier.

From a layout, every neighbour (one free cell toggled between rock and ice, one rock moved to
another cell when a rock budget is set, one snow tile moved to an ice cell when the request asks
for snow, or the start or goal moved to another allowed cell) is classified in one batch; the
climb moves to the best strong,
reversible neighbour, sideways moves allowed for a while, and kicks itself out of plateaus with a
few random toggles. Every random choice comes from the generator passed in.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet

import numpy as np

from designer.analysis.classify import classify_batch
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE, ROCK, SNOW
from designer.search.engines.rooms import room_scores
from designer.search.tuning import KICK_TOGGLES, PLATEAU_STEPS


def rock_moves(flat: np.ndarray, cells: np.ndarray, tile: int = ROCK) -> np.ndarray:
    """Every layout (a row per layout) with one ``tile`` (rock, or snow) among ``cells`` moved to an
    ice cell among them."""
    tiles, ices = cells[flat[cells] == tile], cells[flat[cells] == ICE]
    pairs = np.array(np.meshgrid(tiles, ices)).T.reshape(-1, 2)
    batch = np.repeat(flat[None], len(pairs), axis=0)
    rows = np.arange(len(pairs))
    batch[rows, pairs[:, 0]] = ICE
    batch[rows, pairs[:, 1]] = tile
    return batch


def _neighbours(space: LayoutSpace, terrain: np.ndarray, start: int, goal: int):
    """All one-step neighbours of a layout as batch arrays (terrains, starts, goals)."""
    flat = terrain.reshape(-1)
    inner = space.free[(space.free != start) & (space.free != goal)]
    toggles = inner[flat[inner] != SNOW]  # rock <-> ice; snow moves as a whole tile instead
    ends = flat == SNOW  # the start and goal never move onto snow
    moves_s = space.start_cells[
        (space.start_cells != start) & (space.start_cells != goal) & ~ends[space.start_cells]
    ]
    moves_g = space.goal_cells[
        (space.goal_cells != goal) & (space.goal_cells != start) & ~ends[space.goal_cells]
    ]
    # At a rock budget, moving a rock is one step (else it would need two, through an invalid
    # layout);
    # under a snow count, so is moving a snow tile.
    moved_tiles = (
        rock_moves(flat, toggles) if space.request.max_rocks is not None else flat[None][:0]
    )
    if space.request.placed_snow():
        moved_tiles = np.concatenate([moved_tiles, rock_moves(flat, inner, SNOW)])
    count = len(toggles) + len(moved_tiles) + len(moves_s) + len(moves_g)
    batch = np.repeat(flat[None], count, axis=0)
    starts = np.full(count, start, np.int64)
    goals = np.full(count, goal, np.int64)
    rows = np.arange(len(toggles))
    batch[rows, toggles] ^= 1  # ice <-> rock (snow cells are not among the toggles)
    k = len(toggles)
    batch[k : k + len(moved_tiles)] = moved_tiles
    k += len(moved_tiles)
    for moved, is_start in ((moves_s, True), (moves_g, False)):
        old = start if is_start else goal
        for cell in moved:
            if space.fixed[old] >= 0:
                batch[k, old] = space.fixed[
                    old
                ]  # close the old gap (frame) or restore the drawn tile
            batch[k, cell] = ICE
            (starts if is_start else goals)[k] = cell
            k += 1
    return batch.reshape(count, *terrain.shape), starts, goals


def layout_scores(
    space: LayoutSpace, terrains, starts, goals, maximizing: bool = False, objective: str = "stops"
) -> np.ndarray:
    """Min stops of admissible layouts (strong, reversible, within the request's budgets); -1
    otherwise. A room's layouts: their score over every route (``designer.search.engines.rooms``), of
    stops or, with ``objective="options"``, of the options along them."""
    if space.request.is_room:
        return room_scores(space, terrains, maximizing, objective)
    classes, reversible, stops = classify_batch(terrains, starts, goals)
    return np.where(space.admissible(terrains, classes, reversible, stops), stops, -1)


def climb(
    request: LayoutRequest,
    rng: np.random.Generator,
    seeds: list[Level],
    budget: Budget,
    target: int | None = None,
    exclude: AbstractSet[Level] = frozenset(),
    on_best: Callable[[int], None] | None = None,
    stall: float | None = None,
    objective: str = "stops",
) -> tuple[Level | None, int]:
    """Climb from the seed layouts until ``budget`` is spent, until ``target`` stops are reached, or
    until ``stall`` seconds pass without a new best. A room's climb may count the options along
    its routes instead of stops (``objective``).

    Returns the best strong, reversible layout seen (not in ``exclude``) and its min stops;
    ``on_best`` is told each new best.
    """
    space = LayoutSpace.of(request)
    maximizing = target is None
    best: Level | None = None
    best_stops = -1
    pool = list(seeds)
    last_gain = budget.now()

    def stop_time() -> float:
        return budget.deadline if stall is None else min(budget.deadline, last_gain + stall)

    while pool and budget.now() < stop_time():
        level = pool.pop(0) if len(pool) == 1 else pool.pop(int(rng.integers(len(pool))))
        terrain = level.terrain.copy()
        start, goal = level.index(level.start), level.index(level.goal)
        score = int(
            layout_scores(
                space, terrain[None], np.array([start]), np.array([goal]), maximizing, objective
            )[0]
        )
        since_gain = 0
        run_best = score
        while budget.now() < stop_time():
            terrains, starts, goals = _neighbours(space, terrain, start, goal)
            scores = layout_scores(space, terrains, starts, goals, maximizing, objective)
            top = scores.max(initial=-1)  # -1 too when the layout has no neighbour at all
            if top < 0:
                break
            if top > run_best:
                since_gain, run_best = 0, int(top)
            else:
                since_gain += 1
            # the best neighbour, even if worse
            choice = int(rng.choice(np.flatnonzero(scores == top)))
            terrain, start, goal, score = (
                terrains[choice],
                int(starts[choice]),
                int(goals[choice]),
                int(top),
            )
            if score > best_stops:
                candidate = space.level(terrain, start, goal)
                if candidate not in exclude:
                    best, best_stops = candidate, score
                    last_gain = budget.now()
                    if on_best:
                        on_best(score)
                    if target is not None and best_stops >= target:
                        return best, best_stops
            if since_gain > PLATEAU_STEPS:
                terrain = _kick(space, rng, terrain, start, goal)
                score = int(
                    layout_scores(
                        space,
                        terrain[None],
                        np.array([start]),
                        np.array([goal]),
                        maximizing,
                        objective,
                    )[0]
                )
                since_gain = 0
                if score < 0:
                    break
        if not pool and best is not None:
            pool.append(best)  # keep working around the best layout until the deadline
    return best, best_stops


def _kick(
    space: LayoutSpace, rng: np.random.Generator, terrain: np.ndarray, start: int, goal: int
) -> np.ndarray:
    flat = terrain.reshape(-1).copy()
    cells = space.free[(space.free != start) & (space.free != goal)]
    cells = cells[flat[cells] != SNOW]
    for cell in rng.choice(cells, size=min(KICK_TOGGLES, len(cells)), replace=False):
        flat[cell] ^= 1
    return flat.reshape(terrain.shape)
