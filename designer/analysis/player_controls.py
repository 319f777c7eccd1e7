"""What the played-out figures rest on (``designer.analysis.player_runs.played``): guesses at the
moves left, and the figures of runs less their controls.

Each run sums, step by step, how much a guess at the moves left moved beyond what the step was
expected to move it, given all the run held before the step (``designer/core/kernels_player.c``):
its control, of mean 0 whatever the guess. A run whose luck was good or bad moves its controls
with its moves, so the moves less the fitted controls (``controlled``) keep the mean and lose
most of the spread. Three guesses:

- ``twin_guess``: the exact moves left of the chain the runs walk (the same player without memory
  or lapses; for a player who has neither, the exact figure itself);
- ``counted_guess``: the exact moves left of the chain some runs walked, as counted (memory and
  giving up included, on average);
- ``best_guess``: the guess over (stop, last move) whose control carries the most of some runs'
  luck, fitted by least squares on each run's control of every (stop, last move) alone (its
  basis: a control is linear in its guess).

On ten 12x12 levels the variance of the moves less the controls is 3.9 to 77 times less than the
moves' with the first two (the seeker's, who gives up, the least: what it remembers moves its
luck beyond a stop and a last move), and as many times fewer runs give the same interval; the
best guess beside the twin's cuts it 0.97 to 2.94 times more (docs/player.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from designer.analysis.player_figures import EXACT_MOST, PlayerChain, absorbing_solve

#: The z of a two-sided 95% interval.
Z95 = 1.96
#: The least half-width of an interval, relative to its figure: the rounding of the sums (a
#: guess that is the exact moves left leaves the runs nothing to vary by but it).
ROUNDING = 1e-9
#: The ridge of ``best_guess``'s fit: each (stop, last move)'s own, this share of its mean square.
RIDGE = 0.01


def controlled(outcome: np.ndarray, controls: np.ndarray) -> tuple[float, float]:
    """The mean of ``outcome`` (one a run) less its controls (runs, k), each of mean 0, fitted by
    least squares, and the variance of that mean.

    >>> rng = np.random.default_rng(0)
    >>> luck = rng.normal(size=(4000, 1))
    >>> moves = 100 + 30 * luck[:, 0] + rng.normal(size=4000)
    >>> (mean, variance), (_, alone) = controlled(moves, luck), controlled(moves, luck[:, :0])
    >>> abs(mean - 100) < 3 * variance**0.5, round(variance**0.5, 3), round(alone**0.5, 2)
    (True, 0.016, 0.47)
    """
    outcome = outcome.astype(float)
    if outcome.size < 2:
        return float(outcome.mean()), math.inf
    left = outcome
    if controls.shape[1]:
        centred = controls - controls.mean(axis=0)
        beta = np.linalg.lstsq(centred, outcome - outcome.mean(), rcond=None)[0]
        left = outcome - controls @ beta
    return float(left.mean()), float(left.var()) / outcome.size


def pooled(
    batches: list[tuple[np.ndarray, np.ndarray]],
    weights: list[float] | None = None,
    *,
    made_with: Sequence[int] | None = None,
) -> tuple[float, float, list[float]]:
    """One figure from batches of runs (each: the outcome of each run, and its controls): the
    batches made with the same guesses (``made_with``: a number for each batch that names its
    guesses; by default, how many controls it has) fitted together (``controlled``), the groups
    weighed by ``weights``, or by how sure each is; the figure, the half-width of its 95%
    interval, and the weights (to weigh another figure of the same runs alike)."""
    groups: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
    keys = made_with if made_with is not None else [control.shape[1] for _, control in batches]
    for key, (outcome, control) in zip(keys, batches):
        groups.setdefault(key, []).append((outcome, control))
    estimates = [
        controlled(np.concatenate([o for o, _ in group]), np.concatenate([c for _, c in group]))
        for group in groups.values()
    ]
    if weights is None:
        level = abs(float(np.mean([mean for mean, _ in estimates])))
        least = (ROUNDING * level) ** 2 or 1e-300  # runs that all gave the same: sure
        sure = [0.0 if math.isinf(v) else 1 / max(v, least) for _, v in estimates]
        weights = [w / sum(sure) for w in sure] if sum(sure) else [1 / len(sure)] * len(sure)
    mean = sum(w * m for w, (m, _) in zip(weights, estimates))
    variance = sum(w * w * v for w, (_, v) in zip(weights, estimates) if w)
    return mean, max(Z95 * math.sqrt(variance), ROUNDING * abs(mean)), weights


def chance(hits: np.ndarray) -> tuple[float, float]:
    """The share of runs where something happened, and the half-width of its 95% interval
    (Agresti and Coull's, which a share of 0 or 1 seen does not shrink to nothing).

    >>> share, half = chance(np.zeros(1500, bool))
    >>> share, round(half, 4)
    (0.0, 0.0018)
    """
    count, seen = hits.size, float(hits.sum())
    share = (seen + Z95**2 / 2) / (count + Z95**2)
    return seen / count, Z95 * math.sqrt(share * (1 - share) / (count + Z95**2))


def twin_guess(model: PlayerChain) -> np.ndarray | None:
    """The exact moves left on arriving at each (stop, last move) of the chain the runs walk, as
    the kernel reads a guess (``designer/core/kernels_player.c``); None where the chain is too
    close to never finishing to solve (``EXACT_MOST``)."""
    total = model.Q.shape[0]
    left = absorbing_solve(model.Q, np.ones(total))
    return trusted(left.reshape(5, total // 5).T.reshape(-1))


def counted_guess(
    tabled: tuple, counts: np.ndarray, start: int, fallback: np.ndarray | None
) -> np.ndarray | None:
    """The exact moves left of the chain some runs walked, as counted (``counts``: what followed
    each rest on each (stop, last move), as the kernel adds it): each row's moves taken with the
    shares the runs took them, a restart they asked for a step back to the start that costs no
    move. A row the runs never rested on keeps ``fallback``'s guess (or 0). None where that chain
    is too close to never finishing to solve."""
    from scipy.sparse import csr_matrix

    n, _, nxt, _, _ = tabled
    seen = counts.reshape(5 * n, 6)
    rests = seen.sum(axis=1)
    share = seen / np.maximum(rests, 1.0)[:, None]
    rows = np.arange(5 * n)
    ends = np.repeat(nxt, 5, axis=0)  # (5n, 4): where each move of each row ends
    fresh = start * 5 + 4
    target = np.where(ends >= 0, ends * 5 + np.arange(4), np.where(ends == -2, fresh, -1))
    into = np.column_stack([target, np.full(5 * n, fresh)])  # the moves, then a restart asked
    taken = share[:, :5] * (into >= 0)
    keep = taken > 0
    step = csr_matrix(
        (taken[keep], (np.broadcast_to(rows[:, None], keep.shape)[keep], into[keep])),
        shape=(5 * n, 5 * n),
    )
    guess = np.zeros(5 * n) if fallback is None else fallback
    cost = np.where(rests > 0, 1.0 - share[:, 4], guess)  # a row never rested on: its guess
    return trusted(absorbing_solve(step, cost))


def best_guess(basis: np.ndarray, moves: np.ndarray, prior: np.ndarray | None) -> np.ndarray:
    """The guess over (stop, last move) whose control carries the most of the luck of these runs
    (``moves``; ``basis`` (runs, 5n): each run's control of the guess of each (stop, last move)
    alone, as the kernel sums it): least squares from ``prior`` (or 0), each change held back by a
    ridge of ``RIDGE`` of its (stop, last move)'s own mean square, so that one the runs barely
    reached stays near its prior. A (stop, last move) no run's control moved keeps the prior.

    >>> rng = np.random.default_rng(0)
    >>> basis = np.column_stack([rng.normal(size=(2000, 2)), np.zeros(2000)])
    >>> moves = 50 + basis @ [2.0, -1.0, 7.0] + rng.normal(size=2000) / 10
    >>> best_guess(basis, moves, None).round(1).tolist(), float(best_guess(basis, moves, np.ones(3))[2])
    ([2.0, -1.0, 0.0], 1.0)
    """
    guess = np.zeros(basis.shape[1]) if prior is None else prior.astype(float)
    moved = basis.std(axis=0) > 0
    x = basis[:, moved] - basis[:, moved].mean(axis=0)
    left = moves - moves.mean() - x @ guess[moved]
    gram = x.T @ x
    change = np.linalg.solve(gram + RIDGE * np.diag(np.diag(gram)), x.T @ left)
    if np.isfinite(change).all():
        guess[moved] += change
    return np.ascontiguousarray(guess)


def trusted(left: np.ndarray) -> np.ndarray | None:
    """A guess the kernel can take: finite, at least 0, at most ``EXACT_MOST``."""
    if not (np.isfinite(left).all() and left.min() >= -1e-6 and left.max() <= EXACT_MOST):
        return None
    return np.ascontiguousarray(np.maximum(left, 0.0))
