"""The model's player played out, run by run: a player with memory predicted by its runs
(``played``), many runs of a chain counted (``simulate``, which the tests hold the exact figures
to), both by the compiled kernel's ``player_runs``, and one run step by step (``play_out``, the
simulated playtests' logs). The chain they walk is ``designer.analysis.player.chain``'s. A
played-out figure is the runs' mean less their controls (``designer.analysis.player_controls``
says what they are and why they need far fewer runs), and the runs of each batch go in two
halves, side by side on two cores."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from designer.analysis.player_controls import (
    best_guess,
    chance,
    counted_guess,
    pooled,
    twin_guess,
)
from designer.analysis.player_figures import Figures, PlayerChain, rests_of
from designer.core.players import Player
from designer.core.rules import NO_MOVE

#: A prediction's runs: a first batch of ``FIRST`` (the one counted for the second guess), then
#: batches of ``BATCH`` until the 95% interval of the expected moves is within ``PRECISION`` of
#: them either way, at least ``LEAST_RUNS``, at most ``MOST_RUNS`` runs or ``WORK_MOST`` moves in
#: all. A run is cut off at ``CAP`` moves (its figures then lower bounds: ``Figures.at_least``).
#: Where the first batch foretells more than ``FIT_PAST`` runs (its interval with the first guess
#: alone; on a level of at most ``BASIS_MOST`` stops), the second fits the best guess, and the
#: rest play with it (where fewer are foretold, the runs it would save do not pay for its
#: basis). A batch that the runs so far foretell is the last is cut to what they foretell
#: (``next_batch``).
FIRST, BATCH, LEAST_RUNS, MOST_RUNS = 250, 500, 1_250, 40_000
LEAST_BATCH, BATCH_STEP = 100, 50
FIT_PAST = 2 * LEAST_RUNS
PRECISION = 0.01
WORK_MOST = 100_000_000
CAP = 200_000


def played(
    model: PlayerChain, player: Player, par: int, *, seed: int = 0, runs: int | None = None
) -> Figures:
    """The figures of ``player`` on the chain ``model`` (``chain`` of the same player without
    lapses: the weights before the memory and the lapses are counted in), from its runs:
    ``runs`` of them, or as many as the precision asks (see ``FIRST`` above). The expected moves
    and restarts are the runs' means less their fitted controls, the chances to finish within N
    moves the shares of runs that did (``designer.analysis.player_controls``), each with the
    half-width of its 95% interval in ``Figures.interval``; the same ``seed`` gives the same
    figures. The fits between the batches keep BLAS to this thread (``kernels.blas_alone``)."""
    from designer.core import kernels

    with kernels.blas_alone():
        return _played(model, player, par, seed, runs)


def _played(model: PlayerChain, player: Player, par: int, seed: int, runs: int | None) -> Figures:
    """``played``'s work."""
    from designer.core.kernels import BASIS_MOST

    tabled = tables(model)
    n = tabled[0]
    marks = tuple(sorted({max(1, par), 2 * max(1, par), 4 * max(1, par)}))
    exact = twin_guess(model)
    guesses = [] if exact is None else [exact]
    batches: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # moves, restarts, controls
    # each batch's set of guesses (made_with): 0 the twin's, 1 and the counted, 2 and 3 the halves
    # of the batch whose basis fits the best guess (each also with the best guess fitted on the
    # other half), 4 the best and the twin's; fit: the next batch's basis fits the best guess
    made_with: list[int] = []
    made, counted, fit = 0, None, False
    visits, counts = np.zeros(n), np.zeros(30 * n)
    size = runs if runs is not None else FIRST
    for number in itertools.count():
        state = np.random.SeedSequence([seed, number]).generate_state(2, np.uint64)
        basis = np.zeros((size, 5 * n)) if fit else None
        ran = _runs(
            model,
            tabled,
            player,
            size,
            int(state[0] >> np.uint64(1)),
            visits,
            guesses=guesses if basis is None else (),  # the basis batch's controls: below
            counts=None if number else counts,
            basis=basis,
        )
        if basis is None:
            batches.append(ran)
            made_with.append(made)
        else:
            prior = exact if counted is None else counted
            batches += _cross_fitted(ran, basis, prior, guesses)
            made_with += [2, 3]
            guesses = [best_guess(basis, ran[0], prior), *guesses[:1]]  # the twin's (else counted)
            made, fit = 4, False
        done = np.concatenate([moves for moves, _, _ in batches])
        mean, half, weights = pooled(
            [(moves, control) for moves, _, control in batches], made_with=made_with
        )
        if (
            runs is not None
            or (half <= PRECISION * mean and done.size >= LEAST_RUNS)
            or done.size >= MOST_RUNS
            or done.sum() >= WORK_MOST
        ):
            break
        if number == 0:
            counted = counted_guess(tabled, counts, model.start_row - 4 * n, exact)
            guesses += [] if counted is None else [counted]
            fit = n <= BASIS_MOST and half > PRECISION * mean * math.sqrt(FIT_PAST / FIRST)
            made = 1
        sizes = [moves.size for moves, _, _ in batches]
        ratio = half / (PRECISION * mean) if mean > 0 else math.inf
        size = next_batch(ratio, sizes, made_with, weights)
    count = done.size
    restarts, restarts_half, _ = pooled(
        [(again, control) for _, again, control in batches], weights, made_with=made_with
    )
    within, interval = {}, {"expected_moves": half, "expected_restarts": restarts_half}
    for mark in marks:
        within[mark], interval[f"within {mark}"] = chance((done < CAP) & (done <= mark))
    return Figures(
        par,
        mean,
        max(0.0, restarts),
        within,
        rests_of(model.states, tabled[1], visits / count),
        n,
        at_least=bool((done >= CAP).any()),
        runs=count,
        interval=interval,
    )


def _cross_fitted(
    ran: tuple[np.ndarray, np.ndarray, np.ndarray],
    basis: np.ndarray,
    prior: np.ndarray | None,
    guesses: Sequence[np.ndarray],
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """A batch whose ``basis`` fits the best guess, as two halves (the kernel's two, each from its
    own seed): each half's runs with the controls of ``guesses`` and of the best guess fitted on
    the other half (from ``prior``), which those runs did not shape, so its control keeps mean 0."""
    moves, restarts, _ = ran
    middle = moves.size // 2
    halves = (slice(0, middle), slice(middle, moves.size))
    out = []
    for mine, other in (halves, halves[::-1]):
        crossed = best_guess(basis[other], moves[other], prior)
        control = basis[mine] @ np.column_stack([crossed, *guesses])
        out.append((moves[mine], restarts[mine], control))
    return out


def next_batch(ratio: float, sizes: list[int], made_with: list[int], weights: list[float]) -> int:
    """The runs of the next batch, where the runs so far (``sizes``: each batch's) give an
    interval ``ratio`` times the one asked (``made_with`` and ``weights``: each batch's set of
    guesses and each set's weight, as ``pooled`` takes and gives them): ``BATCH``, or fewer
    where the runs of the last set foretell the interval met sooner (each further run of that
    set as sure as its runs so far), rounded up to ``BATCH_STEP``, at least ``LEAST_BATCH`` and
    what ``LEAST_RUNS`` still asks.

    >>> next_batch(1.04, [250, 500, 500, 500], [0, 1, 2, 2], [0.2, 0.3, 0.5])
    200
    >>> next_batch(3.0, [250, 500], [0, 1], [0.5, 0.5]), next_batch(0.9, [250, 500], [0, 1], [0.5, 0.5])
    (500, 500)
    """
    last = made_with[-1]
    share = weights[list(dict.fromkeys(made_with)).index(last)]
    if not (share > 0 and math.isfinite(ratio)):
        return BATCH
    last_runs = sum(size for size, made in zip(sizes, made_with) if made == last)
    more = last_runs / share * (ratio**2 - 1)
    size = max(LEAST_BATCH, LEAST_RUNS - sum(sizes), BATCH_STEP * math.ceil(more / BATCH_STEP))
    return min(BATCH, size)


def _runs(
    model: PlayerChain,
    tabled: tuple,
    player: Player | None,
    size: int,
    seed: int,
    visits: np.ndarray,
    cap: int = CAP,
    *,
    guesses: Sequence[np.ndarray] = (),
    counts: np.ndarray | None = None,
    basis: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``size`` runs by the kernel (``designer/core/kernels_player.c``) of ``player`` on its
    walked chain, or of the chain's own choices (``player`` None): each run's moves, restarts and
    controls (one a guess), every rest added to ``visits`` and, given ``counts``, what followed
    it to ``counts``. Given ``basis`` ((size, 5n), at most ``BASIS_MOST`` stops), each run's
    basis goes to it, and each guess's control is the basis times the guess."""
    from designer.core import kernels
    from designer.core.kernel_jobs import PlayerJob

    n = tabled[0]
    moves, restarts = np.zeros(size, np.int64), np.zeros(size, np.int64)
    control = np.zeros((0 if basis is not None else size, len(guesses)))
    value = np.concatenate(guesses) if len(guesses) and basis is None else np.zeros(0)
    out = basis if basis is not None else np.zeros((size, 0))
    # two halves, each from its own seed, that run side by side where there are two cores
    halves = ((0, size // 2), (size // 2, size))
    seeds = np.random.SeedSequence(seed).generate_state(2, np.uint64) >> np.uint64(1)
    tallies = [(np.zeros(n), np.zeros(0 if counts is None else 30 * n)) for _ in halves]
    shared = dict(job_fields(model, tabled, player, cap), value=value)
    kernels.player_runs(
        *(
            PlayerJob(
                **shared,
                runs=high - low,
                seed=int(half_seed),
                moves=moves[low:high],
                restarts=restarts[low:high],
                visits=rests,
                control=control[low:high].reshape(-1),
                counts=followed,
                basis=out[low:high].reshape(-1),
            )
            for (low, high), half_seed, (rests, followed) in zip(halves, seeds, tallies)
        )
    )
    for rests, followed in tallies:
        visits += rests
        if counts is not None:
            counts += followed
    if basis is not None:
        control = basis @ np.column_stack(guesses) if len(guesses) else np.zeros((size, 0))
    return moves, restarts, control


def job_fields(model: PlayerChain, tabled: tuple, player: Player | None, cap: int = CAP) -> dict:
    """The fields of the kernel's job (``designer.core.kernel_jobs.PlayerJob``) that every call
    for ``player`` (None: the chain's own choices) on ``model`` shares: the chain's tables
    (``tabled``, from ``tables``), the player's factors, the start and the cap of a run."""
    n, _, nxt, weight, sight = tabled
    return dict(
        n=n,
        next=nxt.reshape(-1),
        weight=weight.reshape(-1),
        sight=sight,
        give_up=give_up(player.patience if player else None),
        novelty=math.exp(player.memory) if player else 1.0,
        variety=math.exp(player.variety) if player else 1.0,
        lapse=float(player.lapse) if player else 0.0,
        notice=model.notice,
        start=model.start_row - 4 * n,
        cap=cap,
    )


def tables(model: PlayerChain) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A chain as the kernel reads it (``designer/core/kernels_player.c``): its stops (``n``,
    their states ``live``), where each move leads (``next``, (n, 4): a stop, -1 the exit, -2 a
    trap, -3 no move), each move's weight after each last move (``weight``, (n, 5, 4)) and the
    move onto the exit from each stop (``sight``, 4: none). Where the exit is in sight, a
    player who may not notice it (``model.notice`` below 1) weighs the moves as one who has not
    seen it: the chain's choice there less the part that takes the exit on sight."""
    n = model.keys.shape[0] // 5
    live = model.keys[:n, 0]
    ends = model.states.dest[:, live].T  # (n, 4)
    row_next = model.next_row[4 * n :]  # the rows of a player who has not moved: (n, 4)
    nxt = np.where(row_next >= 0, row_next % max(n, 1), row_next)
    nxt = np.ascontiguousarray(np.where(ends == NO_MOVE, -3, nxt), np.int32)
    weight = model.choice.reshape(5, n, 4).transpose(1, 0, 2)
    at_exit = ends == model.states.goal
    sight = np.where(at_exit, np.arange(4), 4).min(axis=1).astype(np.uint8)
    if model.notice < 1:
        onto = at_exit / np.maximum(1, at_exit.sum(axis=1, keepdims=True))
        blind = (weight - model.notice * onto[:, None, :]) / (1 - model.notice)
        weight = np.where((sight < 4)[:, None, None], np.maximum(blind, 0.0), weight)
    return n, live, nxt, np.ascontiguousarray(weight, np.float64), sight


def give_up(patience: float | None) -> np.ndarray:
    """The chance to give up after k moves without a new stop, k = 0, 1, ... (the last holds on):
    1 / (1 + exp(patience - k)); none for a player who never gives up."""
    if patience is None:
        return np.zeros(1)
    k = np.arange(int(math.ceil(patience)) + 40)
    return 1.0 / (1.0 + np.exp(patience - k))


def simulate(
    model: PlayerChain, runs: int, rng: np.random.Generator, *, cap: int = 1_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` playthroughs of the chain's player, by the kernel as ``played`` runs them: the
    moves and the restarts of each (a run still going after ``cap`` moves stops there). For
    checking the exact figures."""
    tabled = tables(model)
    seed = int(rng.integers(2**63))
    moves, restarts, _ = _runs(model, tabled, None, runs, seed, np.zeros(tabled[0]), cap)
    return moves, restarts


def play_out(
    model: PlayerChain,
    rng: np.random.Generator,
    *,
    player: Player | None = None,
    cap: int = 100_000,
) -> list[tuple[int, int] | None]:
    """One playthrough of the chain's player: each move as (direction, the state it ends in), and
    None after a move into a trap or a restart the player asked for (the player restarts from
    there). Ends on the exit, or after ``cap`` moves. ``player``: a member with memory or
    lapses, played on its chain without lapses (``walked_chain``, as ``played`` plays it);
    otherwise the chain's own choices."""
    if player is not None and (not player.exact or player.lapse):
        return _remembering(model, player, rng, cap)
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


def _remembering(
    model: PlayerChain, player: Player, rng: np.random.Generator, cap: int
) -> list[tuple[int, int] | None]:
    """``play_out`` of a player with memory or lapses: the kernel's rules, one run, in Python."""
    n, live, nxt, weight, sight = tables(model)
    table = model.states
    quit_after = give_up(player.patience)
    novelty, lapse, notice = math.exp(player.memory), player.lapse, player.notice
    variety = math.exp(player.variety)
    start = model.start_row - 4 * n
    out: list[tuple[int, int] | None] = []
    stop, last, stale, seen = start, 4, 0, {start}
    tried: set[tuple[int, int]] = set()  # the moves made from each stop this attempt
    while len(out) < cap:
        to = nxt[stop]
        if sight[stop] < 4 and (notice >= 1 or rng.random() < notice):
            d = int(sight[stop])
            out.append((d, int(table.dest[d, live[stop]])))
            break
        if stale and rng.random() < quit_after[min(stale, quit_after.size - 1)]:
            out.append(None)
            stop, last, stale, seen, tried = start, 4, 0, {start}, set()
            continue
        if lapse and rng.random() < lapse:
            w = (to != -3).astype(float)
        else:
            fresh = np.array([end == -2 or (end >= 0 and end not in seen) for end in to.tolist()])
            w = np.where(fresh, weight[stop, last] * novelty, weight[stop, last])
            if variety != 1.0:
                untried = np.array([(stop, a) not in tried for a in range(4)])
                w = np.where(untried, w * variety, w)
        cumulative = np.cumsum(w)
        d = min(3, int(np.searchsorted(cumulative, rng.random() * cumulative[3], side="right")))
        out.append((d, int(table.dest[d, live[stop]])))
        tried.add((stop, d))
        end = int(to[d])
        if end == -1:
            break
        if end == -2:
            out.append(None)
            stop, last, stale, seen, tried = start, 4, 0, {start}, set()
            continue
        stale = stale + 1 if end in seen else 0
        seen.add(end)
        stop, last = end, d
    return out
