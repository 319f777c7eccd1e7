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


def stops_watcher(goal_stops: cp_model.IntVar, on_stops: Callable[[int], None]):
    """A solution callback that passes the goal's stops of each solution to ``on_stops``."""

    class StopsWatcher(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            on_stops(int(self.value(goal_stops)))

    return StopsWatcher()


def solve(solver: cp_model.CpSolver, model: cp_model.CpModel, callback=None):
    """``solver.solve``, with Ctrl-C honoured. CP-SAT takes SIGINT while it searches and returns as
    if its time limit had come; a search that stops without an answer well before its limit was
    interrupted, so this raises KeyboardInterrupt rather than let it read as "time limit reached".
    (Running the solve in a helper thread, so that Python would see the signal, crashes OR-Tools
    9.15 at exit.)"""
    status = solver.solve(model, callback)
    if status in (cp_model.UNKNOWN, cp_model.FEASIBLE) and (
            solver.wall_time < solver.parameters.max_time_in_seconds - INTERRUPT_MARGIN):
        raise KeyboardInterrupt
    return status
