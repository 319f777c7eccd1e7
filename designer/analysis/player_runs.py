"""The model's player played out, run by run: many runs counted (``simulate``, which the tests hold
the exact figures to) and one run step by step (``play_out``, the simulated playtests' logs). The
chain they walk is ``designer.analysis.player.chain``'s."""

from __future__ import annotations

import numpy as np

from designer.analysis.player import PlayerChain


def simulate(
    model: PlayerChain, runs: int, rng: np.random.Generator, *, cap: int = 1_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` playthroughs of the chain's player, all at once: the moves and the restarts of
    each (a run still going after ``cap`` moves stops there). For checking the exact figures."""
    row = np.full(runs, model.start_row, np.int64)
    moves = np.zeros(runs, np.int64)
    restarts = np.zeros(runs, np.int64)
    going = np.ones(runs, bool)
    cumulative = np.cumsum(model.choice, axis=1)
    # the last column exactly 1: a pick is always a move
    cumulative /= np.maximum(cumulative[:, -1:], 1e-300)
    for _ in range(cap):
        active = np.flatnonzero(going)
        if not active.size:
            break
        here = row[active]
        pick = (rng.random(active.size)[:, None] > cumulative[here]).sum(axis=1)
        pick = np.minimum(pick, 3)
        nxt = model.next_row[here, pick]
        moves[active] += 1
        ended = nxt == -1
        trapped = nxt == -2
        restarts[active[trapped]] += 1
        nxt = np.where(trapped, model.start_row, nxt)
        row[active] = nxt
        going[active[ended]] = False
    return moves, restarts


def play_out(
    model: PlayerChain, rng: np.random.Generator, *, cap: int = 100_000
) -> list[tuple[int, int] | None]:
    """One playthrough of the chain's player: each move as (direction, the state it ends in), and
    None after a move into a trap (the player restarts from there). Ends on the exit, or after
    ``cap`` moves."""
    table = model.states
    out: list[tuple[int, int] | None] = []
    row = model.start_row
    cumulative = np.cumsum(model.choice, axis=1)
    for u in rng.random(cap):
        d = min(3, int(np.searchsorted(cumulative[row], u * cumulative[row, 3], side="right")))
        state = int(model.keys[row, 0])
        out.append((d, int(table.dest[d, state])))
        nxt = int(model.next_row[row, d])
        if nxt == -1:
            break
        if nxt == -2:
            out.append(None)
            nxt = model.start_row
        row = nxt
    return out
