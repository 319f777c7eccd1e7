"""The twin of ``kernels_player.c``: runs of one member of the player family, in numpy, all runs
of a call stepped together. Its random numbers are numpy's, not the C kernel's stream, so its
runs are other runs of the same player: the same figures within their intervals, not the same
digits (a seed reproduces each implementation's own)."""

from __future__ import annotations

import numpy as np

EXIT, TRAP, NONE = -1, -2, -3


def player_runs(job) -> None:
    """The runs of ``job`` (``designer.core.kernel_jobs.PlayerJob``), into its out arrays."""
    rng = np.random.default_rng(job.seed)
    n, runs = job.n, job.runs
    nxt = job.next.reshape(n, 4)
    weight = job.weight.reshape(n, 5, 4)
    hazards = job.give_up.size
    state = np.full(runs, job.start, np.int64)
    last = np.full(runs, 4, np.int64)
    stale = np.zeros(runs, np.int64)
    made = np.zeros(runs, np.int64)
    again = np.zeros(runs, np.int64)
    seen = np.zeros((runs, n), bool)
    seen[:, job.start] = True
    keep_tried = job.variety != 1.0  # the moves made from each stop this attempt
    tried = np.zeros((runs, n, 4) if keep_tried else (0, 0, 4), bool)
    active = np.arange(runs)
    open_moves = nxt != NONE
    while active.size:
        here = state[active]
        np.add.at(job.visits, here, 1.0)
        finished = job.sight[here] < 4  # the exit in sight: taken when noticed
        if job.notice < 1:
            finished &= rng.random(here.size) < job.notice
        made[active[finished]] += 1
        quit = job.give_up[np.minimum(stale[active], hazards - 1)]
        gave_up = ~finished & (stale[active] > 0) & (quit > 0)
        gave_up &= rng.random(active.size) < quit
        _restart(active[gave_up], state, last, stale, seen, tried, again, job.start)
        choosing = ~finished & ~gave_up
        going, here = active[choosing], here[choosing]
        to = nxt[here]
        w = np.where(open_moves[here], weight[here, last[going]], 0.0)
        new = np.where(to >= 0, ~seen[going[:, None], np.maximum(to, 0)], to == TRAP)
        w = np.where(new, w * job.novelty, w)
        if keep_tried:
            w = np.where(tried[going, here], w, w * job.variety)
        if job.lapse > 0:
            lapsed = rng.random(going.size) < job.lapse
            w = np.where(lapsed[:, None], open_moves[here].astype(float), w)
        cumulative = np.cumsum(w, axis=1)
        pick = (rng.random(going.size)[:, None] * cumulative[:, 3:] >= cumulative).sum(axis=1)
        pick = np.minimum(pick, 3)
        end = to[np.arange(going.size), pick]
        made[going] += 1
        if keep_tried:
            tried[going, here, pick] = True
        _restart(going[end == TRAP], state, last, stale, seen, tried, again, job.start)
        moving = end >= 0
        movers, ends = going[moving], end[moving]
        fresh = ~seen[movers, ends]
        seen[movers, ends] = True
        stale[movers] = np.where(fresh, 0, stale[movers] + 1)
        state[movers], last[movers] = ends, pick[moving]
        finished[np.flatnonzero(choosing)[end == EXIT]] = True
        active = active[~finished & (made[active] < job.cap)]
    job.moves[:] = made
    job.restarts[:] = again


def _restart(who, state, last, stale, seen, tried, again, start) -> None:
    """The runs ``who`` back on the start, a new attempt that has seen only it and made no move."""
    again[who] += 1
    state[who], last[who], stale[who] = start, 4, 0
    seen[who] = False
    seen[who, start] = True
    if tried.size:
        tried[who] = False
