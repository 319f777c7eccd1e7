"""The controls of the played-out figures (designer.analysis.player_controls): each run's control
has mean 0 whatever the guess, the exact guess leaves each run nothing to vary by, the counts
add up to the rests, the controls cut the spread, and the runs do not depend on the cores."""

import math
import os

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



def runs_of(level, player, size, seed, guesses=(), counts=None):
    """``size`` runs of ``player`` on ``level`` (its walked chain; None: the chain's own
    choices), with ``guesses`` (each of the kernel's layout): moves, restarts, controls, rests."""
    chain = model.walked_chain(state_table(level), player or Player(), level.height)
    tabled = player_runs.tables(chain)
    visits = np.zeros(tabled[0])
    moves, restarts, control = player_runs._runs(
        chain, tabled, player, size, seed, visits, guesses=list(guesses), counts=counts
    )
    return moves, restarts, control, visits, chain


@pytest.mark.parametrize("implementation", kernels.available())
@pytest.mark.parametrize("level,player", [(SMALL, None), (TRAPPED, None), (SMALL, FOLLOWER)],
                         ids=["plain", "trapped", "walking-past-the-exit"])
def test_the_exact_guess_leaves_each_run_exactly_the_expected_moves(level, player, implementation):
    """A player without memory or lapses, guessed by its own chain's exact moves left: each run's
    moves less its control are the expected moves from the start, to the rounding (each step's
    term is the guess's surprise, and the guess is the truth), traps and an exit walked past
    included."""
    chain = model.walked_chain(state_table(level), player or Player(), level.height)
    exact = player_controls.twin_guess(chain)
    assert exact is not None
    start = model.solve_chain(chain, 1).expected_moves
    with kernels.use(implementation):
        moves, restarts, control, _, _ = runs_of(level, player, 300, 11, [exact])
    assert np.ptp(moves) > 0 and control.shape == (300, 1)
    assert np.allclose(moves - control[:, 0], start, rtol=1e-9)
    assert level is not TRAPPED or restarts.max() > 0


@pytest.mark.parametrize("implementation", kernels.available())
@pytest.mark.parametrize("player", [EXPLORER, SEEKER, TINKERER], ids=["explorer", "seeker", "tinkerer"])
def test_a_control_has_mean_zero_whatever_the_guess(player, implementation):
    """Two guesses with no sense in them (random numbers, and one that grows with the stop's
    number): each control's mean over the runs lies within four of its standard errors of 0,
    memory, lapses and giving up included."""
    n = runs_of(SMALL, player, 1, 0)[4].Q.shape[0] // 5
    rng = np.random.default_rng(5)
    guesses = [rng.uniform(0, 50, 5 * n), np.repeat(np.arange(n) * 3.0, 5)]
    with kernels.use(implementation):
        _, _, control, _, _ = runs_of(SMALL, player, 4000, 12, guesses)
    for column in control.T:
        assert column.std() > 0
        assert abs(column.mean()) <= 4 * column.std() / math.sqrt(column.size)


@pytest.mark.parametrize("implementation", kernels.available())
def test_what_followed_each_rest_adds_up_to_the_rests_and_the_moves(implementation):
    """The counts: every rest once (a move, a restart asked, or the exit taken on sight), so per
    stop they sum to its rests, and their moves and exits to the runs' moves."""
    with kernels.use(implementation):
        n = runs_of(SMALL, SEEKER, 1, 0)[4].Q.shape[0] // 5
        counts = np.zeros(30 * n)
        moves, restarts, _, visits, _ = runs_of(SMALL, SEEKER, 500, 13, counts=counts)
    followed = counts.reshape(n, 5, 6)
    assert np.array_equal(followed.sum(axis=(1, 2)), visits)
    assert followed[:, :, [0, 1, 2, 3, 5]].sum() == moves.sum()
    assert 0 < followed[:, :, 4].sum() <= restarts.sum()


def test_the_controls_cut_the_spread_of_a_12x12_level_many_times():
    """An explorer on a 12x12 level of 25 stops: the moves less the two fitted controls (the
    exact guess of its chain, then the chain the first runs walked, as counted) vary at least 5
    times less than the moves (about 30 times, measured)."""
    level = design(LayoutRequest(min_stops=25, first=True), seed=3).level
    chain = model.walked_chain(state_table(level), EXPLORER, level.height)
    tabled = player_runs.tables(chain)
    exact = player_controls.twin_guess(chain)
    counts = np.zeros(30 * tabled[0])
    player_runs._runs(chain, tabled, EXPLORER, 500, 1, np.zeros(tabled[0]), guesses=[exact], counts=counts)
    counted = player_controls.counted_guess(tabled, counts, chain.start_row - 4 * tabled[0], exact)
    moves, _, control = player_runs._runs(chain, tabled, EXPLORER, 2000, 2, np.zeros(tabled[0]),
                                          guesses=[exact, counted])
    plain = player_controls.controlled(moves, control[:, :0])[1]
    assert plain / player_controls.controlled(moves, control)[1] >= 5


def kernel_job(player, runs, seed, guesses=0, counting=False, pad=0, give_up=None):
    """The kernel's job for ``runs`` runs of ``player`` (None: the chain's own choices) on SMALL,
    from ``player_runs.job_fields`` as ``player_runs._runs`` makes one, with ``guesses`` (0 to 2: the exact moves left of its
    twin, then a guess that grows with the stop's number), with counts or not, and ``pad`` more
    stops no move reaches (each with one move, onto the exit)."""
    chain = model.walked_chain(state_table(SMALL), player or Player(), SMALL.height)
    tabled = player_runs.tables(chain)
    n, sight = tabled[0], tabled[4]
    value = [player_controls.twin_guess(chain).reshape(n, 5), np.repeat(np.arange(n) * 2.0, 5).reshape(n, 5)]
    fields = player_runs.job_fields(chain, tabled, player, cap=500)
    stops = n + pad
    return PlayerJob(
        **{
            **fields,
            "n": stops,
            "next": np.concatenate([fields["next"], np.tile(np.array([-1, -3, -3, -3], np.int32), pad)]),
            "weight": np.concatenate([fields["weight"], np.ones(20 * pad)]),
            "sight": np.concatenate([sight, np.full(pad, 4, np.uint8)]),
            "give_up": fields["give_up"] if give_up is None else give_up,
        },
        runs=runs,
        seed=seed,
        moves=np.zeros(runs, np.int64),
        restarts=np.zeros(runs, np.int64),
        visits=np.zeros(stops),
        value=np.concatenate([np.concatenate([one, np.zeros((pad, 5))]).reshape(-1) for one in value[:guesses]]
                             or [np.zeros(0)]),
        control=np.zeros(runs * guesses),
        counts=np.zeros(30 * stops if counting else 0),
    )


@needs_compiled
@pytest.mark.parametrize("player", [SEEKER, TINKERER, None], ids=["seeker", "tinkerer", "chain"])
def test_the_stops_seen_in_one_word_or_in_a_table_give_the_same_runs(player):
    """The compiled kernel keeps a level's stops seen in the bits of one word where it has at most
    64 stops, in a table where it has more: the same level with 70 stops no move reaches added
    plays the same runs, number for number, with and without guesses and counts."""
    played = []
    for pad in (0, 70):
        for guesses, counting in ((0, False), (2, True)):
            job = kernel_job(player, 400, 8, guesses, counting, pad)
            n = job.n - pad
            with kernels.use("compiled"):
                kernels.player_runs(job)
            assert not job.visits[n:].any() and not job.counts[30 * n :].any()
            played.append([job.moves, job.restarts, job.control, job.visits[:n], job.counts[: 30 * n]])
    assert np.ptp(played[0][0]) > 0 and played[1][2].std() > 0
    for small, large in zip(played[:2], played[2:]):
        for one, other in zip(small, large):
            assert np.array_equal(one, other)


@pytest.mark.parametrize("implementation", kernels.available())
def test_a_give_up_chance_holds_on_past_the_end_of_its_table(implementation):
    """give_up[k] is the chance after k moves without a new stop, the last holding on: a table
    of one chance gives up from the first such move on, as a longer table of that chance does."""
    runs = []
    for give_up in (np.array([0.4]), np.array([0.0, 0.4, 0.4, 0.4])):
        job = kernel_job(EXPLORER, 300, 4, give_up=give_up)
        with kernels.use(implementation):
            kernels.player_runs(job)
        runs.append((job.moves, job.restarts))
    assert runs[0][1].sum() > 0
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_the_runs_do_not_depend_on_how_many_cores_run_them(monkeypatch):
    """The halves of a batch run side by side where there are two cores, one after the other
    where there is one: the same figures."""
    level = design(LayoutRequest(min_stops=12, first=True), seed=1).level
    both = model.play(level, SEEKER, seed=3)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0})
    assert model.play(level, SEEKER, seed=3) == both


def test_a_call_run_beside_another_raises_its_error_on_the_caller():
    calls = []

    def fails():
        raise ValueError("the second call")

    with pytest.raises(ValueError, match="the second call"):
        kernels.side_by_side([lambda: calls.append(1), fails, lambda: calls.append(3)])
    assert sorted(calls) == [1, 3]


def test_the_kernel_refuses_guesses_controls_and_counts_it_would_read_outside_of():
    n, runs = 2, 3
    good = dict(n=n, next=np.array([1, -3, -3, -3, -1, 0, -3, -3], np.int32), weight=np.ones(20 * n),
                sight=np.array([4, 0], np.uint8), give_up=np.zeros(1), novelty=1.0, variety=1.0, lapse=0.0,
                notice=1.0, start=0, runs=runs, cap=100, seed=1, moves=np.zeros(runs, np.int64),
                restarts=np.zeros(runs, np.int64), visits=np.zeros(n), value=np.ones(10 * n),
                control=np.zeros(2 * runs), counts=np.zeros(30 * n))
    for implementation in kernels.available():
        with kernels.use(implementation):
            kernels.player_runs(PlayerJob(**good))
    for change in ({"value": np.ones(15 * n), "control": np.zeros(3 * runs)},  # three guesses
                   {"value": np.ones(7)}, {"control": np.zeros(runs)}, {"counts": np.zeros(29 * n)},
                   {"value": np.full(10 * n, math.nan)}, {"value": np.ones(10 * n, np.float32)},
                   {"control": np.zeros(0)}):
        with pytest.raises(ValueError):
            kernels.player_runs(PlayerJob(**{**good, **change}))


def test_a_figure_from_runs_that_all_gave_the_same_is_that_figure():
    same = np.full(1000, 7.0)
    mean, half, weights = player_controls.pooled([(same[:500], np.zeros((500, 1))),
                                                  (same[500:], np.zeros((500, 2)))])
    assert mean == 7.0 and half == pytest.approx(7e-9) and sum(weights) == pytest.approx(1.0)
