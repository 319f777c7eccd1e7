"""Solving the CP-SAT model: the solver's parameters in one place, the solution callback, and
Ctrl-C. (``ice_cpsat.build_model`` builds the model; ``IceModel.hint`` takes a hint.)"""

from __future__ import annotations

from typing import Callable

from ortools.sat.python import cp_model

#: A search that ends without an answer this many seconds before its time limit was interrupted.
INTERRUPT_MARGIN = 0.25


def new_solver(seed: int, seconds: float, workers: int) -> cp_model.CpSolver:
    """A solver with every parameter the designer sets."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.catch_sigint_signal = True  # Ctrl-C stops the search: see solve()
    params.random_seed = seed
    params.max_time_in_seconds = seconds
    params.num_workers = workers
    # Presolve costs seconds on these models and buys little: keep it light.
    params.max_presolve_iterations = 1
    params.cp_model_probing_level = 0
    return solver


class StopsWatcher(cp_model.CpSolverSolutionCallback):
    """Passes the goal's stops of each solution to ``on_stops``; with ``stop_at``, ends the search
    at the first solution with at least that many stops (the model maximizes ``goal_stops``
    from an easy start, and any level of K stops will do)."""

    def __init__(self, goal_stops: cp_model.IntVar, on_stops: Callable[[int], None], stop_at: int | None = None):
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


def solve(solver: cp_model.CpSolver, model: cp_model.CpModel, callback: StopsWatcher | None = None):
    """``solver.solve``, with Ctrl-C honoured. CP-SAT takes SIGINT while it searches and returns as
    if its time limit had come; a search that stops early, without reaching the callback's target,
    was interrupted, so this raises KeyboardInterrupt rather than let it read as "time limit
    reached". (Running the solve in a helper thread, so that Python would see the signal, crashes
    OR-Tools 9.15 at exit.)"""
    status = solver.solve(model, callback)
    if callback is not None and callback.reached:
        return status
    if status in (cp_model.UNKNOWN, cp_model.FEASIBLE) and (
            solver.wall_time < solver.parameters.max_time_in_seconds - INTERRUPT_MARGIN):
        raise KeyboardInterrupt
    return status
