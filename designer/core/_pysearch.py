"""The twin of ``kernels_search.c`` in plain Python: the exhaustive search over a shard of rock
sets (``exhaustive``, one ``SearchJob``), each layout's best start and goal, and a room's score."""

from __future__ import annotations

import time
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from designer.core._pytables import classify_one, distances_to_goal, move_table, reach_lists
from designer.core.terrain import ROCK, STRONG

if TYPE_CHECKING:
    from designer.core.kernel_jobs import SearchJob


def _room_score(terrain: np.ndarray, h: int, w: int, routes: list, mode: int) -> int:
    """A room's score over its routes (mode 0: the sum of min(stops, floor); 1: every floor met,
    the shortest)."""
    total, least = 0, None
    for a, b, floor, ceiling in routes:
        klass, reversible, stops = classify_one(terrain, h, w, a, b)
        if (
            klass != STRONG
            or not reversible
            or (ceiling >= 0 and stops > ceiling)
            or (mode and stops < floor)
        ):
            return -1
        total += min(stops, floor)
        least = stops if least is None else min(least, stops)
    if mode == 0:
        return total
    assert least is not None  # a room has a route
    return least


def exhaustive(job: SearchJob) -> tuple:
    """Every rock set of ``job.rocks`` free cells whose lowest is ``first`` (and next lowest
    ``second``, unless it is -1), one per symmetry class (``designer.core.kernel_jobs.SearchJob``); returns (best, ties, mask, start, goal, layouts,
    complete) as the compiled search does. A room (``routes``): its score, as one pair."""
    h, w, nsyms, rocks, first, second = job.h, job.w, job.nsyms, job.rocks, job.first, job.second
    threshold, budget, stop, room_mode = job.threshold, job.budget, job.stop, job.room_mode
    base, free_cells, start_ok, goal_ok, syms = (
        job.base,
        job.free_cells,
        job.start_ok,
        job.goal_ok,
        job.syms,
    )
    routes, cpu_clock = job.routes, job.cpu_clock
    table = np.asarray(routes, np.int64).reshape(-1, 4).tolist()
    # the thread's processor time: work
    clock = time.thread_time if cpu_clock else time.perf_counter
    began = clock()
    n = h * w
    base = np.asarray(base, np.uint8).reshape(n)
    free = [int(c) for c in np.asarray(free_cells)]
    nfree = len(free)
    perms = np.asarray(syms, np.int64).reshape(nsyms, nfree).tolist() if nsyms else []
    s_ok = np.asarray(start_ok, np.uint8).reshape(n)
    g_ok = np.asarray(goal_ok, np.uint8).reshape(n)
    best, ties, best_mask, best_start, best_goal, layouts, complete = -1, 0, 0, -1, -1, 0, 1
    if rocks > nfree or (rocks > 0 and first > nfree - rocks) or (rocks == 0 and first != 0):
        return best, ties, best_mask, best_start, best_goal, layouts, complete
    if second >= 0 and (rocks < 2 or second <= first or second > nfree - rocks + 1):
        return best, ties, best_mask, best_start, best_goal, layouts, complete
    lead = (first,) if second < 0 else (first, second)
    rests = combinations(range(lead[-1] + 1, nfree), rocks - len(lead)) if rocks > 0 else [()]
    for rest in rests:
        chosen = (*lead, *rest) if rocks > 0 else ()
        mask = sum(1 << k for k in chosen)
        if any(sum(1 << perm[k] for k in chosen) < mask for perm in perms):
            continue
        terrain = base.copy()
        for k in chosen:
            terrain[free[k]] = ROCK
        if table:
            score = _room_score(terrain, h, w, table, room_mode)
            if score >= 0 and score >= max(best, threshold):
                if score > best:
                    best, ties, best_mask, best_start, best_goal = (
                        score,
                        0,
                        mask,
                        table[0][0],
                        table[0][1],
                    )
                ties += 1
        for g in range(n if not table else 0):
            if not g_ok[g] or terrain[g] == ROCK:
                continue
            moves = None
            to_goal = None
            for s in range(n):
                if s == g or not s_ok[s] or terrain[s] == ROCK:
                    continue
                if to_goal is None:
                    moves = move_table(terrain, h, w, g)
                    to_goal = distances_to_goal(moves, n, g)
                need = max(best, threshold)
                if to_goal[s] < need:
                    continue
                assert moves is not None  # built with to_goal, above
                _, order = reach_lists(moves, n, s, g)
                if any(to_goal[u] < 0 for u in order):
                    continue  # a trap
                back_stops, _ = reach_lists(move_table(terrain, h, w, s), n, g, s)
                if back_stops[s] < 0:
                    continue  # not reversible
                if to_goal[s] > best:
                    best, ties, best_mask, best_start, best_goal = to_goal[s], 0, mask, s, g
                ties += 1
        layouts += 1
        if stop[0] or clock() - began > budget:
            complete = 0
            break
    return best, ties, best_mask, best_start, best_goal, layouts, complete
