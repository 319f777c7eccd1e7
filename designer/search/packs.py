"""Packs: several distinct levels of one request, each from its own seed (seed, seed + 1, ...).

In this process the levels are designed one after another, each excluding the ones before it.
On a cluster (an executor from ``designer.search.executor``) every level is designed at once,
each from its own seed; a level that repeats an earlier one is then made again here with the
earlier ones excluded, as the in-process pack would. Either way, asked so (``make --count``), no
level is a near copy of an earlier one (``designer.analysis.variety``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from designer.analysis.variety import near_copies
from designer.core.limits import MAX_SEED
from designer.search import methods
from designer.search.job import DesignJob
from designer.search.result import Design, DesignFailed

#: The levels a pack's level k tries (from seeds ``seed + k``, ``seed + k + count``, ...) before it
#: fails when each is a near copy of an earlier level (``designer.analysis.variety``).
APART_TRIES = 12


def run_pack_job(job: DesignJob) -> Design | DesignFailed:
    """Design one level of a pack; a request that cannot be met comes back as its DesignFailed
    (so that it crosses a cluster as a value)."""
    try:
        return methods.get(job.method).run(job)
    except DesignFailed as failed:
        return failed


def run_on_work(job: DesignJob) -> Design | DesignFailed:
    """``run_pack_job`` on a budget of work: the job's seconds are counted on the work clock
    (``designer.core.budget``, "work": what the kernels and CP-SAT report), so that a busy machine
    takes longer over it and designs the same level, step for step. What a cave's rooms and a
    game's levels are designed by (``designer.caves.room_jobs``, ``designer.game.design``)."""
    from designer.core.budget import use_clock

    with use_clock("work"):
        return run_pack_job(job)


def design_pack(
    job: DesignJob,
    count: int,
    *,
    levels: Sequence[DesignJob] | None = None,
    progress_for: Callable[[int], object] = lambda k: None,
    on_cluster_level: Callable[[], None] = lambda: None,
    apart: bool = False,
) -> Iterator[Design]:
    """Yield ``count`` distinct verified levels of ``job`` (``designer.search.job.DesignJob``),
    level k from seed ``job.seed + k``; with ``apart`` (``make --count``), none a near copy of an
    earlier one (``designer.analysis.variety``: one that is, is excluded and designed again from
    seed ``job.seed + k + count``, then ``+ 2 count``, ..., ``APART_TRIES`` in all; without, a
    pack may hold every level of a small space, mirror images too). Raise DesignFailed (its
    message saying which level) when one cannot be made. ``levels``: the job of each level (a
    curve's requests differ: ``designer.search.difficulty.curve_requests``; each checked when it
    was built), else ``job`` for every level;
    ``job.difficulty`` ``"expert"`` runs that preset for each. ``progress_for(k)`` gives level k's
    ``Progress``; ``on_cluster_level()`` is called as each level designed on the cluster arrives;
    ``job.cancel`` ends the work in this process (a cluster's jobs end with the executor)."""
    chosen = methods.get(job.method)
    levels = [job] * count if levels is None else list(levels)
    if len(levels) != count:
        raise ValueError(f"{len(levels)} levels' jobs for a pack of {count}")
    on_cluster: dict[int, Design | DesignFailed] = {}
    executor = job.executor
    if designed_on_cluster(executor, count, job.method):
        jobs = [
            levels[k].but(seed=job.seed + k, progress=None, executor=None, cancel=None)
            for k in range(count)
        ]

        def designed(one, result) -> None:
            on_cluster[one.seed - job.seed] = result
            on_cluster_level()

        executor.run(run_pack_job, jobs, designed)
    made: list[Design] = []
    for k in range(count):
        try:
            found = on_cluster.get(k)  # the first try's level, unless it repeats an earlier one
            if isinstance(found, DesignFailed):
                raise found
            others = [d.level for d in made]
            if found is not None and found.level in others:
                found = None
            near: list = []  # the near copies designed for this level: not returned again
            for attempt in range(APART_TRIES):
                if found is None:
                    found = chosen.run(
                        levels[k].but(
                            seed=(job.seed + k + attempt * count) % (MAX_SEED + 1),
                            exclude=tuple(others + near),
                            progress=progress_for(k),
                        )
                    )
                if not apart or count == 1 or not any(near_copies(found.level, o) for o in others):
                    break
                near.append(found.level)
                found = None
            if found is None:
                raise DesignFailed(
                    "near copies",
                    f"every one of {APART_TRIES} levels designed was a near copy of an earlier "
                    "level of the pack (docs/spec.md, Variety)",
                )
        except DesignFailed as failure:
            if count == 1:
                raise
            raise DesignFailed(
                failure.reason, f"level {k + 1} of {count}: {failure}", failure.best
            ) from None
        assert found is not None  # the loop breaks on a level, or raises
        made.append(found)
        yield found


def designed_on_cluster(executor, count: int, method: str) -> bool:
    """Whether ``design_pack`` designs the levels on the cluster at once (and so advances the
    progress through ``on_cluster_level`` rather than level by level)."""
    return executor is not None and count > 1 and methods.get(method).designer
