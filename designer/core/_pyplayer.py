"""The twin of ``kernels_player.c``: runs of one member of the player family, in numpy, all runs
of a call stepped together, with the same controls, counts and basis. Its random numbers are
numpy's, not the C kernel's stream, so its runs are other runs of the same player: the same
figures within their intervals, not the same digits (a seed reproduces each implementation's
own)."""

from __future__ import annotations

import numpy as np

EXIT, TRAP, NONE = -1, -2, -3
QUIT, SIGHTED = 4, 5  # what followed a rest, after the moves 0 to 3 (kernels_player.c)


def player_runs(job) -> None:
    """The runs of ``job`` (``designer.core.kernel_jobs.PlayerJob``), into its out arrays."""
    rng = np.random.default_rng(job.seed)
    n, runs = job.n, job.runs
    nxt = job.next.reshape(n, 4)
    weight = job.weight.reshape(n, 5, 4)
    guesses = job.value.size // (5 * n)
    value = job.value.reshape(guesses, n, 5)
    fresh = value[:, job.start, 4]  # each guess on the start, a new attempt
    control = job.control.reshape(runs, guesses)
    counts = job.counts.reshape(n, 5, 6) if job.counts.size else None
    # the basis: each (stop, last move)'s column, and one more for the moves that end on none
    basis = np.zeros((runs if job.basis.size else 0, 5 * n + 1))
    into = np.where(
        nxt >= 0, nxt * 5 + np.arange(4), np.where(nxt == TRAP, job.start * 5 + 4, 5 * n)
    )
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
    moves = np.arange(4)
    while active.size:
        here, after = state[active], last[active]
        np.add.at(job.visits, here, 1.0)
        to = nxt[here]
        chance = _chances(job, to, weight[here, after], seen[active], tried, active, here)
        # each guess after each move (guesses, runs, 4): where it ends, the start after a trap
        ahead = np.where(to >= 0, value[:, np.maximum(to, 0), moves], 0.0)
        ahead = np.where(to == TRAP, fresh[:, None, None], ahead)
        sighted = job.sight[here] < 4
        noticed = np.where(sighted, job.notice, 0.0)
        quit = np.where(stale[active] > 0, job.give_up[np.minimum(stale[active], hazards - 1)], 0.0)
        expected = (1 - noticed) * (
            quit * fresh[:, None] + (1 - quit) * (ahead * chance).sum(axis=2)
        )
        control[active] -= expected.T
        if basis.size:  # the same, for the guess of each (stop, last move) alone
            np.add.at(
                basis,
                (active[:, None], into[here]),
                -((1 - noticed) * (1 - quit))[:, None] * chance,
            )
            np.add.at(basis, (active, job.start * 5 + 4), -(1 - noticed) * quit)
        finished = sighted & (rng.random(active.size) < job.notice)
        gave_up = ~finished & (rng.random(active.size) < quit)
        if counts is not None:
            np.add.at(counts, (here[finished], after[finished], SIGHTED), 1.0)
            np.add.at(counts, (here[gave_up], after[gave_up], QUIT), 1.0)
        made[active[finished]] += 1
        control[active[gave_up]] += fresh
        if basis.size:
            basis[active[gave_up], job.start * 5 + 4] += 1.0
        _restart(active[gave_up], state, last, stale, seen, tried, again, job.start)
        choosing = ~finished & ~gave_up
        going, here, after = active[choosing], here[choosing], after[choosing]
        cumulative = np.cumsum(chance[choosing], axis=1)
        top = 3 - np.argmax(chance[choosing][:, ::-1] > 0, axis=1)  # the last move with a chance
        pick = (rng.random(going.size)[:, None] >= cumulative[:, :3]).sum(axis=1)
        pick = np.minimum(pick, top)
        end = to[choosing][np.arange(going.size), pick]
        made[going] += 1
        if counts is not None:
            np.add.at(counts, (here, after, pick), 1.0)
        if keep_tried:
            tried[going, here, pick] = True
        control[going] += ahead[:, choosing][:, np.arange(going.size), pick].T
        if basis.size:  # where each move ended (a trap: the start; the exit: the column of none)
            basis[going, into[here, pick]] += 1.0
        _restart(going[end == TRAP], state, last, stale, seen, tried, again, job.start)
        moving = end >= 0
        movers, ends = going[moving], end[moving]
        fresh_stop = ~seen[movers, ends]
        seen[movers, ends] = True
        stale[movers] = np.where(fresh_stop, 0, stale[movers] + 1)
        state[movers], last[movers] = ends, pick[moving]
        finished[np.flatnonzero(choosing)[end == EXIT]] = True
        active = active[~finished & (made[active] < job.cap)]
    job.moves[:] = made
    job.restarts[:] = again
    if basis.size:
        job.basis[:] = basis[:, : 5 * n].reshape(-1)


def _chances(job, to, weight, seen, tried, active, here) -> np.ndarray:
    """Each move's chance (runs, 4) from the stops ``here``: the weights after the last move, a
    stop not seen this attempt (or a trap: a new one) weighed by the novelty, a move not made by
    the variety, then a share ``lapse`` of the moves at random."""
    opened = to != NONE
    w = np.where(opened, weight, 0.0)
    new = np.where(to >= 0, ~seen[np.arange(to.shape[0])[:, None], np.maximum(to, 0)], to == TRAP)
    w = np.where(new, w * job.novelty, w)
    if tried.size:
        w = np.where(tried[active, here], w, w * job.variety)
    total = w.sum(axis=1, keepdims=True)
    w = np.where(total > 0, w, opened.astype(float))  # factors of 0 on every open move: alike
    total = w.sum(axis=1, keepdims=True)
    share = opened / opened.sum(axis=1, keepdims=True)
    return (1 - job.lapse) * w / total + job.lapse * share


def _restart(who, state, last, stale, seen, tried, again, start) -> None:
    """The runs ``who`` back on the start, a new attempt that has seen only it and made no move."""
    again[who] += 1
    state[who], last[who], stale[who] = start, 4, 0
    seen[who] = False
    seen[who, start] = True
    if tried.size:
        tried[who] = False
