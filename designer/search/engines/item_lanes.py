"""The item chains run side by side: one in this process, the others each in a process of its own
that ends with its parent (``chains``), every result handed back for the one verifier."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

import numpy as np

from designer.core.budget import Budget
from designer.core.control import Cancelled, end_with_parent, signals_held
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.search.engines.item_chain import NO_LIMIT, ItemChain
from designer.search.executor import end_lanes, lane_result

_shared: dict = {}


def chains(
    request: LayoutRequest,
    plain: Level,
    budget: Budget,
    rng: np.random.Generator,
    workers: int,
    *,
    target: int | None,
    objective: str = "stops",
) -> list[tuple[int, int, str, Level]]:
    """``workers`` chains from ``plain``, each in a process of its own (Linux: forked, so that
    each has a core; the chains are numpy between compiled calls), each with its own random
    stream drawn from ``rng``; a signal is held while they run (it sets the cancel token, and is
    raised once they are ended). The best valid layouts, (objective, stops, phase, level), best first.

    Meeting ``target``, the chain that met it in the fewest steps wins (the first of them by
    number): a chain that meets it at step s has the others stop after step s, so the one handed
    back is the same whichever core was faster. Maximizing, every chain runs to the end of the
    budget, and their bests are merged."""

    context = multiprocessing.get_context("fork")
    stop = context.Event()
    limit = context.Value("q", NO_LIMIT)  # the fewest steps any chain met the target in
    shared = budget.forked(stop)  # what the chains read: the machine's clock, or each its own work
    jobs = [(request, plain, stream, target, objective) for stream in rng.spawn(workers)]
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_chain, initargs=(shared, limit, os.getpid())
    ) as pool:
        futures: list = []
        try:
            with signals_held() as arrived:
                futures = [pool.submit(_chain, job) for job in jobs]
                pending = set(futures)
                while pending and not arrived and not budget.cancelled():
                    _, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                if arrived:
                    raise Cancelled(arrived[0])
                if pending:  # cancelled
                    stop.set()
                    end_lanes(pool)
                    return []
                results = [lane_result(future, arrived) for future in futures]
        except BaseException:
            stop.set()
            end_lanes(pool)
            raise
    met = [(met_at, k) for k, (met_at, _) in enumerate(results) if met_at is not None]
    chosen = [results[min(met)[1]]] if met else results
    return sorted((one for _, kept in chosen for one in kept), key=lambda one: (-one[0], -one[1]))


def _start_chain(budget: Budget, limit, parent: int) -> None:
    """Called first in each forked process: what the chains share (inherited, not pickled: the
    budget's event ends them all, and ``limit`` holds the fewest steps the target was met in)."""
    end_with_parent(parent)  # Ctrl-C reaches the whole group: the caller ends the chains
    _shared.update(budget=budget, limit=limit)


def _chain(job) -> tuple[int | None, list[tuple[int, int, str, Level]]]:
    request, plain, stream, target, objective = job
    chain, limit = ItemChain(request, stream, objective), _shared["limit"]
    chain.run(plain, _shared["budget"], target=target, limit=lambda: limit.value)
    if chain.met_at is not None:
        with limit.get_lock():
            limit.value = min(limit.value, chain.met_at)
    return chain.met_at, [
        (value, stops, phase, level) for level, (value, stops, phase) in chain.kept.items()
    ]
