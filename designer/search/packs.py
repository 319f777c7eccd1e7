"""Packs: several distinct levels of one request, each from its own seed (seed, seed + 1, ...).

In this process the levels are designed one after another, each excluding the ones before it.
On a cluster (an executor from ``designer.search.executor``) every level is designed at once,
each from its own seed; a level that repeats an earlier one is then made again here with the
earlier ones excluded, as the in-process pack would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from designer.core.control import CancelToken
from designer.core.request import LayoutRequest
from designer.search import methods
from designer.search.result import Design, DesignFailed


@dataclass(frozen=True)
class PackJob:
    """One level of a pack, as a picklable job for an executor."""

    request: LayoutRequest
    seed: int
    time_limit: float
    workers: int | None
    maximize: bool
    method: str
    maximize_choices: bool = False
    difficulty: str | None = None
    cancel: CancelToken | None = None  # ends it (in this process; in another, a token of its own)


def run_pack_job(job: PackJob) -> Design | DesignFailed:
    """Design one level of a pack; a request that cannot be met comes back as its DesignFailed
    (so that it crosses a cluster as a value)."""
    try:
        return methods.get(job.method).run(
            job.request,
            seed=job.seed,
            time_limit=job.time_limit,
            workers=job.workers,
            maximize=job.maximize,
            maximize_choices=job.maximize_choices,
            difficulty=job.difficulty,
            cancel=job.cancel,
        )
    except DesignFailed as failed:
        return failed


def design_pack(
    request: LayoutRequest | list[LayoutRequest],
    count: int,
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    workers: int | None = None,
    maximize: bool = False,
    method: str = "auto",
    executor=None,
    maximize_choices: bool = False,
    difficulty: str | None = None,
    progress_for: Callable[[int], object] = lambda k: None,
    on_cluster_level: Callable[[], None] = lambda: None,
    cancel: CancelToken | None = None,
) -> Iterator[Design]:
    """Yield ``count`` distinct verified levels, level k from seed ``seed + k``; raise DesignFailed
    (its message saying which level) when one cannot be made. ``request`` is one request for
    every level, or one per level (a curve: ``designer.search.difficulty.curve_requests``);
    ``difficulty`` ``"expert"`` runs that preset for each. ``progress_for(k)`` gives level k's
    ``Progress``; ``on_cluster_level()`` is called as each level designed on the cluster arrives;
    ``cancel`` ends the work in this process (a cluster's jobs end with the executor)."""
    chosen = methods.get(method)
    requests = list(request) if isinstance(request, list) else [request] * count
    if len(requests) != count:
        raise ValueError(f"{len(requests)} requests for a pack of {count}")
    on_cluster: dict[int, Design | DesignFailed] = {}
    if designed_on_cluster(executor, count, method):
        jobs = [
            PackJob(
                requests[k],
                seed + k,
                time_limit,
                workers,
                maximize,
                method,
                maximize_choices,
                difficulty,
            )
            for k in range(count)
        ]

        def designed(job, result) -> None:
            on_cluster[job.seed - seed] = result
            on_cluster_level()

        executor.run(run_pack_job, jobs, designed)
    made: list[Design] = []
    for k in range(count):
        try:
            earlier = on_cluster.get(k)
            if isinstance(earlier, DesignFailed):
                raise earlier
            if earlier is not None and earlier.level not in {d.level for d in made}:
                found = earlier
            else:
                found = chosen.run(
                    requests[k],
                    seed=seed + k,
                    time_limit=time_limit,
                    workers=workers,
                    maximize=maximize,
                    exclude=tuple(d.level for d in made),
                    progress=progress_for(k),
                    executor=executor,
                    maximize_choices=maximize_choices,
                    difficulty=difficulty,
                    cancel=cancel,
                )
        except DesignFailed as failure:
            if count == 1:
                raise
            raise DesignFailed(
                failure.reason, f"level {k + 1} of {count}: {failure}", failure.best
            ) from None
        made.append(found)
        yield found


def designed_on_cluster(executor, count: int, method: str) -> bool:
    """Whether ``design_pack`` designs the levels on the cluster at once (and so advances the
    progress through ``on_cluster_level`` rather than level by level)."""
    return executor is not None and count > 1 and methods.get(method).designer
