"""Solving the CP-SAT model: the solve loop (``solve_model``), the solver's parameters in one
place, the solution callback, and Ctrl-C. (``cpsat.build_model`` builds the model;
``IceModel.hint`` and ``IceModel.exclude`` take a hint and cut a solution off.)"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from designer.core.budget import Budget, add_work
from designer.models.loader import cp_model

#: What ``accept`` makes of a solution (a verified design, for the searches).
Found = TypeVar("Found")

#: On the cpu clock, the wall-clock net of a CP-SAT search, as a multiple of its budget's seconds.
CPU_NET = 20.0


def new_solver(
    seed: int, seconds: float, workers: int, presolve: str = "light", clock: str = "wall"
) -> cp_model.CpSolver:
    """A solver with every parameter the designer sets (``presolve``: "light" for the level's
    models; "none" for a model whose presolve costs more than its search, such as a cave's plan,
    where CP-SAT's full presolve spent 10 s on the dual reductions of 3,600 potentials). On a budget's
    ``"cpu"`` clock (``designer.core.budget``) the search is stopped when the budget's processor
    time is spent (``solve_model``'s watcher); ``seconds`` of wall-clock time are then only a net,
    ``CPU_NET`` times the budget. (CP-SAT's deterministic time is no measure of the processor's
    work here: 0.6 s of it took 32 s on the open-grid model.) On the ``"work"`` clock, it is the
    measure all the same, as it is the same at any load: the search stops at ``seconds`` of it,
    and the wall clock's ``CPU_NET`` times them are the net."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    # Never CP-SAT's own Ctrl-C handler: it logs from inside the signal handler, which deadlocks
    # when the signal lands in malloc (OR-Tools 9.15), and it leaves SIGINT at the system's
    # default afterwards. Ctrl-C reaches the search through ``solve``'s watcher instead.
    params.catch_sigint_signal = False
    # CP-SAT's seed is a 32-bit signed number; a seed past it (``--seed`` takes up to 10^12 - 1,
    # and a cave's designs move theirs by a million each) is taken modulo 2^31, so every seed a
    # user may give designs, and the seeds below 2^31 keep their searches
    params.random_seed = seed % 2**31
    params.max_time_in_seconds = seconds * (CPU_NET if clock in ("cpu", "work") else 1)
    if clock == "work":  # a budget of work: CP-SAT's own measure of it, counted back by ``solve``
        params.max_deterministic_time = seconds
    params.num_workers = workers
    # Presolve costs seconds on these models and buys little: keep it light.
    if presolve == "light":
        params.max_presolve_iterations = 1
        params.cp_model_probing_level = 0
    elif presolve == "none":
        params.cp_model_presolve = False
    return solver


class StopsWatcher(cp_model.CpSolverSolutionCallback):
    """Passes the goal's stops of each solution to ``on_stops``; with ``stop_at``, ends the search
    at the first solution with at least that many stops (the model maximizes ``goal_stops``
    from an easy start, and any level of K stops will do)."""

    def __init__(
        self,
        goal_stops: cp_model.IntVar,
        on_stops: Callable[[int], None],
        stop_at: int | None = None,
    ):
        super().__init__()
        self.goal_stops = goal_stops
        self.on_stops = on_stops
        self.stop_at = stop_at
        self.reached = False  # the search ended because a solution reached ``stop_at``

    def on_solution_callback(self) -> None:
        stops = int(self.value(self.goal_stops))
        self.on_stops(stops)
        if self.stop_at is not None and stops >= self.stop_at:
            self.reached = True
            self.stop_search()


def solve(
    solver: cp_model.CpSolver,
    model: cp_model.CpModel,
    callback: StopsWatcher | None = None,
    *,
    stop: Callable[[], bool] | None = None,
):
    """``solver.solve``, with a cancel honoured. ``stop()`` turning true stops the search (polled
    every 50 ms by a helper thread, ``solver.stop_search`` being made to be called from another
    thread); a cancel token reaches the search this way, through the budget ``stop`` asks (a
    Ctrl-C, SIGTERM or SIGHUP sets the designer's: ``designer.core.control.cancel_on_signals``).
    Where no one else watches for signals (a script calling the library), Ctrl-C stops the search
    all the same (``_watched``) and raises KeyboardInterrupt. (Running the solve in a helper
    thread, so that Python would see the signal, crashes OR-Tools 9.15 at exit: the solve stays in
    the calling thread.)"""
    with _watched(solver, stop) as interrupted:
        status = solver.solve(model, callback)
    add_work(solver.deterministic_time)  # the work clock's count of it (``designer.core.budget``)
    if interrupted():
        raise KeyboardInterrupt
    return status


@contextmanager
def _watched(solver: cp_model.CpSolver, stop: Callable[[], bool] | None):
    """While the block runs, a helper thread stops ``solver``'s search when ``stop()`` turns true,
    or when Ctrl-C arrives in a process where nothing else reads the interpreter's wakeup
    descriptor (the main thread, no ``cancel_on_signals`` around it: the interpreter writes each
    signal's number there, even while the main thread is inside CP-SAT). Yields a function that
    tells whether a Ctrl-C stopped it."""
    done, interrupted = threading.Event(), threading.Event()
    signals = _signal_pipe()

    def watch() -> None:
        while not done.wait(0.05):
            if signals is not None and _read_sigint(signals[0]):
                interrupted.set()
                solver.stop_search()
                return
            if stop is not None and stop():
                solver.stop_search()
                return

    watcher = threading.Thread(target=watch, name="cp-sat watcher", daemon=True)
    watcher.start()
    try:
        yield interrupted.is_set
    finally:
        done.set()
        watcher.join()
        if signals is not None:
            signal.set_wakeup_fd(-1)
            for fd in signals:
                os.close(fd)


def _signal_pipe() -> tuple[int, int] | None:
    """A pipe set as the interpreter's wakeup descriptor, when this is the main thread and none
    is set yet (None otherwise)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    if previous != -1:  # someone else reads the signals (cancel_on_signals): theirs stays
        signal.set_wakeup_fd(previous, warn_on_full_buffer=False)
        os.close(read)
        os.close(write)
        return None
    return read, write


def _read_sigint(fd: int) -> bool:
    """Whether SIGINT is among the signal numbers waiting in the wakeup pipe."""
    try:
        return int(signal.SIGINT) in os.read(fd, 64)
    except BlockingIOError:
        return False


@dataclass(frozen=True)
class Outcome(Generic[Found]):
    """What the solve loop ends with: the best accepted solution (what ``accept`` returned for
    it; None when none was), and whether the model proved the answer complete (none better, or
    none at all, exists)."""

    found: Found | None
    complete: bool


def solve_model(
    built,
    budget: Budget,
    *,
    seed: int,
    workers: int,
    min_stops: int,
    maximize: bool,
    accept: Callable[..., Found | None],
    stops_of: Callable[[Found], int],
    better_than: int | None = None,
    on_stops: Callable[[int], None] = lambda stops: None,
    narrow_until: threading.Event | None = None,
    rehint: Callable[[], None] = lambda: None,
    outside_best: Callable[[], int] | None = None,
    floor_in_model: bool = False,
) -> Outcome[Found]:
    """Solve ``built`` (a ``cpsat.IceModel``, hints and cuts already added) within ``budget``.

    The model maximizes the goal's stops. Meeting a target (``maximize`` False), the search ends
    at the first solution of at least ``min_stops`` that ``accept(terrain, start, goal)`` takes
    (K is not a constraint, so a hint is a solution and CP-SAT's own neighbourhood search climbs
    from it), and an optimum below it proves the request infeasible. Maximizing, every accepted
    solution raises the bar to ``stops_of(found) + 1`` (``better_than + 1`` to begin with) until
    the model proves no better one exists or the time runs out. A solution ``accept`` refuses
    (None) is cut off and the search goes on.

    In a portfolio, the search runs on one worker until ``narrow_until`` is set (the other side
    gave up its core); the search is then stopped and started again with ``workers``, after
    ``rehint()`` (the best layout so far). Maximizing, ``outside_best()`` is the most stops the
    other side has verified: when it passes the bar, the search is stopped and the bar raised
    above it. A cancelled ``budget`` stops it at once.

    ``floor_in_model``: the model was built with ``min_stops`` as a constraint. Meeting it, the
    model is then solved for any solution, with no objective: every solution will do, and both the
    proofs that none exists and the finds were faster without one (figures in docs/model.md)."""
    if maximize or not floor_in_model:
        built.model.maximize(built.goal_stops)
    bar = better_than if maximize else None  # only a level above it is worth finding now
    if bar is not None:
        built.model.add(built.goal_stops >= bar + 1)
    best = None
    while True:
        outside = outside_best() if maximize and outside_best is not None else None
        if outside is not None and (bar is None or outside > bar):
            bar = outside
            built.model.add(built.goal_stops >= bar + 1)
            rehint()
        remaining = budget.left()
        if remaining <= 0.05:
            break
        narrow = narrow_until is not None and not narrow_until.is_set()
        solver = new_solver(seed, remaining, 1 if narrow else workers, clock=budget.clock)
        watcher = StopsWatcher(built.goal_stops, on_stops, stop_at=None if maximize else min_stops)

        def passed(start=bar) -> bool:  # the other side passed the bar this search began with
            return (
                maximize
                and outside_best is not None
                and outside_best() > (-1 if start is None else start)
            )

        work = budget.clock == "cpu"  # stopped by its processor time, polled as the cancel is

        def stop(
            work: bool = work, narrow: bool = narrow
        ) -> bool:  # this pass's, bound as it starts
            return (
                budget.cancelled()
                or (work and budget.expired())
                or (narrow and narrow_until is not None and narrow_until.is_set())
                or passed()
            )

        status = solve(solver, built.model, watcher, stop=stop)

        # stopped to go on with every worker, or above a higher bar
        def widened(narrow: bool = narrow) -> bool:
            if budget.left() > 0.05 and (
                passed() or (narrow and narrow_until is not None and narrow_until.is_set())
            ):
                rehint()
                return True
            return False

        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT model invalid: {built.model.validate()}")
        if status == cp_model.INFEASIBLE:
            return Outcome(best, True)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if widened():
                continue
            break  # time limit
        if not maximize and solver.value(built.goal_stops) < min_stops:
            if status != cp_model.OPTIMAL and widened():
                continue
            # the most stops any level has is below K (OPTIMAL), or the time ran out short of it
            return Outcome(None, status == cp_model.OPTIMAL)
        terrain, start, goal = built.layout(solver)
        found = accept(terrain, start, goal)
        if found is None:
            built.exclude(terrain, start, goal)
            continue
        if not maximize:
            return Outcome(found, False)
        best = found
        if status == cp_model.OPTIMAL:
            return Outcome(found, True)
        bar = max(stops_of(found), -1 if bar is None else bar)
        built.model.add(built.goal_stops >= bar + 1)
    return Outcome(best, False)
