"""Where independent shards of work run: threads in this process (the default), processes forked
from it (``Forked``: work that is Python between compiled calls, such as a cave's rooms), or the
workers of a dask.distributed cluster (``--dask local`` starts a LocalCluster on this machine,
``--dask tcp://HOST:PORT`` uses a running scheduler).

A shard is a plain function of one picklable job, so the same shards run either way and give the
same results. On a cluster, shards go out in batches; a batch whose worker is lost is run again by
the scheduler (dask's own bookkeeping), and each result is handed on once, so no shard is lost or
counted twice.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable
from concurrent.futures import (
    FIRST_COMPLETED,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    as_completed,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from designer.core.control import Cancelled, CancelToken, end_with_parent, signals_held
from designer.core.errors import DesignerError
from designer.core.extras import need
from designer.search.tuning import BATCHES_PER_WORKER


def run_batch(jobs: list, shard: Callable[[Any], Any]) -> list:
    """Run a batch of jobs on one worker (a lost worker's batch is run again as a whole)."""
    return [shard(job) for job in jobs]


class InProcess:
    """Shards on a pool of threads in this process (the compiled kernels release the GIL)."""

    name = "in-process"

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 1

    def run(
        self,
        shard: Callable[[Any], Any],
        jobs: Iterable[Any],
        on_result: Callable[[Any, Any], None],
        on_abort: Callable[[], None] | None = None,
    ) -> None:
        """Call ``on_result(job, shard(job))`` for every job, in the order they finish. On an error
        or Ctrl-C, ``on_abort()`` runs first (it tells running shards to end), then the rest are
        cancelled."""
        jobs = list(jobs)
        with ThreadPoolExecutor(self.workers) as pool:
            futures = {pool.submit(shard, job): job for job in jobs}
            try:
                for future in as_completed(futures):
                    on_result(futures[future], future.result())
            except BaseException:
                if on_abort is not None:
                    on_abort()  # before the pool waits for its running threads
                for future in futures:
                    future.cancel()
                raise

    def close(self) -> None:
        pass


#: Seconds the lanes of a stopped search have to end on their own before they are terminated.
LANE_GRACE = 1.0
#: Seconds between two looks at the lanes of a search (its cancel token, a signal held).
POLL = 0.1


def end_lanes(pool: ProcessPoolExecutor, grace: float = LANE_GRACE) -> None:
    """End the lanes of a stopped search (a cancel, an error): the pool is told to shut down
    without waiting (no job not yet started runs), and a lane still alive ``grace`` seconds
    later is terminated (SIGTERM, which end_with_parent left at its default). Left to the pool
    alone, a lane that had not received its first job when a signal came waited for one for
    ever, and so did the designer, at exit."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()


#: Seconds a broken pool of lanes waits for the signal that may have broken it to reach this
#: process.
SIGNAL_WAIT = 0.5


def lane_result(future, arrived: list[int]):
    """``future.result()`` of a lane's job, held signals in ``arrived``. A SIGTERM or SIGHUP sent
    to the whole process group (a terminal's hangup, ``kill -- -PGID``) ends the lanes at once,
    and the pool then says it is broken: that is the signal's doing, so it is raised as the
    signal's ``Cancelled`` (one line and 143 or 129), not as the pool's traceback. The designer's
    own handler may run a moment after the pool sees its lanes gone: it is waited for briefly."""
    try:
        return future.result()
    except BrokenProcessPool:
        deadline = time.monotonic() + SIGNAL_WAIT
        while not arrived and time.monotonic() < deadline:
            time.sleep(0.01)
        if arrived:
            raise Cancelled(arrived[0]) from None
        raise


def _ready(_: int) -> int:
    return os.getpid()


class Forked:
    """Shards on ``workers`` processes forked from this one at once, when it is made, before this
    process starts any solver's threads (a fork keeps only the thread that forks). Each lane ends
    with this process however it ends; a cancel (the token ``cancel``, or a signal, held while the
    lanes run) or an error ends them all (``end_lanes``). Jobs and results cross as pickles."""

    name = "processes"

    def __init__(self, workers: int, cancel: CancelToken | None = None):
        self.cancel = cancel
        # what a lane is given to end on its own once stopped (0: a time limit's end)
        self.grace = LANE_GRACE
        self.pool = ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("fork"),
            initializer=end_with_parent,
            initargs=(os.getpid(),),
        )
        list(self.pool.map(_ready, range(workers)))  # every lane started now

    def run(
        self,
        shard: Callable[[Any], Any],
        jobs: Iterable[Any],
        on_result: Callable[[Any, Any], None],
        on_abort: Callable[[], None] | None = None,
    ) -> None:
        """As ``InProcess.run``, the results taken in as they come."""
        try:
            with signals_held() as arrived:
                futures = {self.pool.submit(shard, job): job for job in jobs}
                pending = set(futures)
                while (
                    pending
                    and not arrived
                    and not (self.cancel is not None and self.cancel.is_set())
                ):
                    done, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
                    for future in done:
                        on_result(futures[future], lane_result(future, arrived))
            if arrived:
                raise Cancelled(arrived[0])
            if pending:  # the token's own reason: a SIGHUP that set it is no Ctrl-C
                raise Cancelled(
                    (self.cancel.reason() if self.cancel is not None else None) or signal.SIGINT
                )
        except BaseException:
            if on_abort is not None:
                on_abort()
            end_lanes(self.pool, self.grace)
            raise

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class Dask:
    """Shards on a dask.distributed cluster: a LocalCluster of one single-threaded worker process per
    core (``"local"``, in a process of its own: ``designer.search.cluster``), or an existing
    scheduler's address. ``cancel`` ends the wait for the cluster to start."""

    remote = (
        True  # its workers are other processes, maybe other machines: whole searches may go there
    )

    def __init__(self, address: str, workers: int | None = None, cancel: CancelToken | None = None):
        address = scheduler_address(address)
        distributed = need("distributed", "dask")
        self.host = self.client = None
        if address == "local":
            from designer.search.cluster import LocalHost

            self.host = LocalHost(workers or os.cpu_count() or 1, cancel)
            address = self.host.address
            self.name = f"dask local ({self.host.workers} workers)"
        else:
            self.name = f"dask {address}"
        # A client half connected cannot be closed cleanly (dask's exit hook then prints a
        # traceback): an ending signal waits until it is connected, then closes it and takes effect.
        with signals_held() as arrived:
            try:
                self.client = connect(distributed, address)
            except BaseException:
                self.close()
                raise
        if arrived:
            self.close()
            raise Cancelled(arrived[0])

    def run(
        self,
        shard: Callable[[Any], Any],
        jobs: Iterable[Any],
        on_result: Callable[[Any, Any], None],
        on_abort: Callable[[], None] | None = None,
    ) -> None:
        """As ``InProcess.run``; on an error or Ctrl-C the cluster's futures are cancelled."""
        from distributed import as_completed as dask_completed

        jobs = list(jobs)
        assert self.client is not None  # connected when the executor was entered
        # Jobs go out in batches, dealt round-robin (the jobs come biggest first), so that the
        # scheduler handles a few dozen tasks rather than thousands of small ones.
        count = min(
            len(jobs),
            BATCHES_PER_WORKER * max(1, len(self.client.scheduler_info().get("workers", {}))),
        )
        batches = [jobs[k::count] for k in range(count)]
        futures = self.client.map(run_batch, batches, shard=shard, pure=False)
        index = {future.key: batch for future, batch in zip(futures, batches)}
        try:
            for future, results in dask_completed(futures, with_results=True):
                for job, result in zip(index[future.key], results):
                    on_result(job, result)
        except BaseException:
            if on_abort is not None:
                on_abort()
            if self.host is None:  # a cluster of our own ends whole, its running tasks with it
                self.client.cancel(futures)
            raise

    def close(self) -> None:
        """Close the client, and the cluster this started, whole: an ending signal that arrives
        meanwhile takes effect once they are closed."""
        import logging

        # A client closed mid-request (an ending signal) leaves dask's comm futures to time out
        # unread; asyncio would print each as "Future exception was never retrieved" after the
        # designer's one line, tornado a traceback for the results tracker whose gather the
        # closing cluster cut ("Exception in callback ... CommClosedError"), and the client
        # "Couldn't gather 1 keys". The work is over: what the client's loop says of it is no news.
        for name in ("asyncio", "tornado.application", "distributed.client"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        with signals_held() as arrived:
            if self.client is not None:
                self.client.close(timeout=CLOSE_SECONDS)
            if self.host is not None:
                self.host.close()
            self.client = self.host = None
        if arrived:
            raise Cancelled(arrived[0])


#: Seconds to reach a scheduler (its port closed, silent, or not dask's), and to close a client.
CONNECT_SECONDS = 10.0
CLOSE_SECONDS = 2.0


def connect(distributed, address: str):
    """A client of the scheduler at ``address``; one DesignerError line when none answers within
    ``CONNECT_SECONDS``, however the address fails (dask's own connection waits without end for
    a listener that never answers its handshake, so a probe with a deadline goes first)."""
    import asyncio

    started = time.monotonic()

    async def probe():
        comm = await asyncio.wait_for(
            distributed.comm.connect(address, timeout=CONNECT_SECONDS), CONNECT_SECONDS
        )
        await comm.close()

    try:
        asyncio.run(probe())
        left = max(1.0, CONNECT_SECONDS - (time.monotonic() - started))
        return distributed.Client(address, timeout=left)
    except (
        Exception
    ) as exc:  # unreachable, refused, silent, or not a scheduler: one line, whatever dask raised
        if isinstance(exc, TimeoutError):
            reason = f"no answer in {CONNECT_SECONDS:g} s"
        else:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DesignerError(f"cannot reach the dask scheduler at {address}: {reason}") from None


def scheduler_address(text: str) -> str:
    """``local``, or a scheduler's ``tcp://HOST:PORT``, checked before any connection; any other
    text is one DesignerError line.

    >>> scheduler_address("tcp://10.0.0.5:8786"), scheduler_address("local")
    ('tcp://10.0.0.5:8786', 'local')
    """
    if text == "local":
        return text
    scheme, _, rest = text.partition("://")
    host, _, port = rest.rpartition(":")
    if scheme != "tcp" or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DesignerError(
            f"--dask takes 'local' or a scheduler address tcp://HOST:PORT (such as "
            f"tcp://127.0.0.1:8786), not {text!r}"
        )
    return text


def open_executor(dask: str | None, workers: int | None = None, cancel: CancelToken | None = None):
    """The executor a command asks for: in process unless ``dask`` names a cluster."""
    return InProcess(workers) if dask is None else Dask(dask, workers, cancel)
