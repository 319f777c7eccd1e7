"""The runs' basis and the best guess (designer.analysis.player_controls.best_guess): each run's
control of every (stop, last move) alone, so that the basis times any guess is that guess's
control, each of mean 0; the best guess fitted on it; and the played-out figures that use it."""

import math

import numpy as np
import pytest

from designer.analysis import player as model
from designer.analysis import player_controls, player_runs
from designer.core import kernels
from designer.core.items import state_table
from designer.core.kernel_jobs import PlayerJob
from designer.core.players import Player
from designer.core.request import LayoutRequest
from designer.search.design import design

from conftest import needs_compiled
from player_cases import EXPLORER, FOLLOWER, SEEKER, SMALL, TINKERER, TRAPPED



def chain_of(level, player):
    chain = model.walked_chain(state_table(level), player or Player(), level.height)
    return chain, player_runs.tables(chain)


@pytest.mark.parametrize("implementation", kernels.available())
@pytest.mark.parametrize(
    "level,player",
    [(SMALL, EXPLORER), (SMALL, SEEKER), (SMALL, TINKERER), (TRAPPED, SEEKER), (SMALL, FOLLOWER), (TRAPPED, None)],
    ids=["explorer", "seeker", "tinkerer", "seeker-trapped", "walking-past-the-exit", "chain-trapped"],
)
def test_a_runs_basis_times_a_guess_is_the_control_the_kernel_sums_for_it(level, player, implementation):
    """The same runs (one seed) played with two guesses, then with the basis: the same moves, and
    the basis times each guess is the control the kernel summed step by step, to the rounding
    (memory, moves made, giving up, traps and an exit walked past included)."""
    chain, tabled = chain_of(level, player)
    n = tabled[0]
    rng = np.random.default_rng(3)
    guesses = [rng.uniform(0, 40, 5 * n), np.repeat(np.arange(n) * 2.0, 5)]
    basis = np.zeros((600, 5 * n))
    with kernels.use(implementation):
        moves, restarts, control = player_runs._runs(chain, tabled, player, 600, 9, np.zeros(n), guesses=guesses)
        again = player_runs._runs(chain, tabled, player, 600, 9, np.zeros(n), guesses=guesses, basis=basis)
    assert np.array_equal(moves, again[0]) and np.array_equal(restarts, again[1])
    assert control.std(axis=0).min() > 0 and np.count_nonzero(basis.std(axis=0)) > 5
    assert np.allclose(basis @ np.column_stack(guesses), control, rtol=1e-9, atol=1e-7 * np.abs(control).max())
    assert np.allclose(again[2], control, rtol=1e-9, atol=1e-7 * np.abs(control).max())
    assert level is not TRAPPED or restarts.max() > 0


@pytest.mark.parametrize("implementation", kernels.available())
@pytest.mark.parametrize("player", [SEEKER, TINKERER], ids=["seeker", "tinkerer"])
def test_each_column_of_the_basis_has_mean_zero(player, implementation):
    """Each (stop, last move) alone is a guess, so its control has mean 0: over 4,000 runs, each
    column the runs moved lies within four of its standard errors of 0."""
    chain, tabled = chain_of(SMALL, player)
    n = tabled[0]
    basis = np.zeros((4000, 5 * n))
    with kernels.use(implementation):
        player_runs._runs(chain, tabled, player, 4000, 14, np.zeros(n), basis=basis)
    moved = basis[:, basis.std(axis=0) > 0]
    assert moved.shape[1] >= 8
    assert (np.abs(moved.mean(axis=0)) <= 4 * moved.std(axis=0) / math.sqrt(4000)).all()


def test_the_best_guess_cuts_the_spread_more_than_the_two_guesses_on_runs_it_was_not_fitted_on():
    """The seeker on a 12x12 level: the best guess fitted on 500 runs (from the counted guess),
    beside the twin's, leaves other runs' moves less spread than the twin's and the counted
    guesses do (about twice less, measured), and moves no column no run reached."""
    level = design(LayoutRequest(min_stops=25, first=True), seed=6).level
    chain, tabled = chain_of(level, SEEKER)
    n = tabled[0]
    exact = player_controls.twin_guess(chain)
    counts, basis = np.zeros(30 * n), np.zeros((500, 5 * n))
    player_runs._runs(chain, tabled, SEEKER, 250, 1, np.zeros(n), guesses=[exact], counts=counts)
    counted = player_controls.counted_guess(tabled, counts, chain.start_row - 4 * n, exact)
    fitted = player_runs._runs(chain, tabled, SEEKER, 500, 2, np.zeros(n), basis=basis)[0]
    best = player_controls.best_guess(basis, fitted, counted)
    unmoved = basis.std(axis=0) == 0
    assert unmoved.any() and np.array_equal(best[unmoved], counted[unmoved])
    moves, _, control = player_runs._runs(chain, tabled, SEEKER, 2000, 3, np.zeros(n), guesses=[exact, counted])
    _, _, with_best = player_runs._runs(chain, tabled, SEEKER, 2000, 3, np.zeros(n), guesses=[best, exact])
    two = player_controls.controlled(moves, control)[1]
    assert two / player_controls.controlled(moves, with_best)[1] >= 1.3


def test_played_figures_with_the_best_guess_agree_with_plain_runs(monkeypatch):
    """``played`` fits the best guess where its first runs foretell many runs (and on each half of
    those runs, for the other's controls), with BLAS on its own thread alone (its worker threads would spin on the cores the runs play on): its
    expected moves and restarts lie within their intervals (and the plain runs' own) of the
    means of 40,000 plain runs of the same player."""
    from threadpoolctl import threadpool_info

    level = design(LayoutRequest(min_stops=25, first=True), seed=2).level
    chain, tabled = chain_of(level, SEEKER)
    n = tabled[0]
    fitted = []

    def fit(basis, moves, prior):
        blas = [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]
        fitted.append((basis.shape, max(blas, default=1)))
        return player_controls.best_guess(basis, moves, prior)

    monkeypatch.setattr(player_runs, "best_guess", fit)
    figures = player_runs.played(chain, SEEKER, 10, seed=5)
    half = (player_runs.BATCH // 2, 5 * n)  # each half's runs controlled by the other's best guess
    assert fitted == [(half, 1), (half, 1), ((player_runs.BATCH, 5 * n), 1)]
    assert figures.runs > player_runs.FIRST + player_runs.BATCH
    moves, restarts, _ = player_runs._runs(chain, tabled, SEEKER, 40_000, 21, np.zeros(n))
    for figure, runs in (("expected_moves", moves), ("expected_restarts", restarts)):
        plain = 1.96 * runs.std() / math.sqrt(runs.size)
        gap = abs(getattr(figures, figure) - runs.mean())
        assert gap <= 1.5 * math.hypot(figures.interval[figure], plain), figure


def test_batches_made_with_other_guesses_are_fitted_apart_however_many_controls_they_have():
    """Two batches with one control each, made with other guesses: each fitted alone (two groups,
    two weights), where by default they would be one group."""
    rng = np.random.default_rng(2)
    luck = rng.normal(size=(2, 600, 1))
    batches = [(10 + 3 * luck[0, :, 0], luck[0]), (10 - 3 * luck[1, :, 0], luck[1])]
    apart = player_controls.pooled(batches, made_with=[0, 2])
    together = player_controls.pooled(batches)
    assert len(apart[2]) == 2 and len(together[2]) == 1
    assert apart[0] == pytest.approx(10, abs=1e-9) and apart[1] < 1e-6 < together[1]


def tiny_job(**change) -> PlayerJob:
    """Three runs with a basis on a level of two stops (the second's one move onto the exit in
    sight, noticed half the time), with ``change``."""
    n, runs = 2, 3
    fields = dict(n=n, next=np.array([1, -3, -3, -3, -1, 0, -3, -3], np.int32), weight=np.ones(20 * n),
                  sight=np.array([4, 0], np.uint8), give_up=np.zeros(1), novelty=1.0, variety=1.0, lapse=0.0,
                  notice=0.5, start=0, runs=runs, cap=100, seed=1, moves=np.zeros(runs, np.int64),
                  restarts=np.zeros(runs, np.int64), visits=np.zeros(n), basis=np.zeros(5 * n * runs))
    return PlayerJob(**{**fields, **change})


#: What no kernel may take: a basis beside a guess, of the wrong size or kind.
BAD_BASES = [{"value": np.ones(10), "control": np.zeros(3)}, {"basis": np.zeros(29)},
             {"basis": np.zeros(30, np.float32)}]


def test_the_kernel_refuses_a_basis_beside_guesses_past_64_stops_or_of_the_wrong_size():
    for implementation in kernels.available():
        with kernels.use(implementation):
            kernels.player_runs(tiny_job())
    far = 65
    past_64 = dict(n=far, next=np.tile(np.array([-1, -3, -3, -3], np.int32), far), weight=np.ones(20 * far),
                   sight=np.zeros(far, np.uint8), visits=np.zeros(far), basis=np.zeros(5 * far * 3))
    for change in (*BAD_BASES, past_64):
        with pytest.raises(ValueError):
            kernels.player_runs(tiny_job(**change))


@needs_compiled
def test_the_compiled_binding_refuses_a_bad_basis_on_its_own():
    """The binding checks what it reads, whoever calls it."""
    from designer.core import _kernels

    job = tiny_job()
    _kernels.player_runs(job)
    assert np.abs(job.basis).sum() > 0
    for change in BAD_BASES[:2]:
        with pytest.raises(ValueError, match="basis"):
            _kernels.player_runs(tiny_job(**change))
