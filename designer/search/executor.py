"""Where independent shards of work run: threads in this process (the default), or the workers of
a dask.distributed cluster (``--dask local`` starts a LocalCluster on this machine, ``--dask
tcp://HOST:PORT`` uses a running scheduler).

A shard is a plain function of one picklable job, so the same shards run either way and give the
same results. On a cluster, shards go out in batches; a batch whose worker is lost is run again by
the scheduler (dask's own bookkeeping), and each result is handed on once, so no shard is lost or
counted twice.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Callable, Iterable

from designer.core.control import Cancelled, signals_held
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

    def run(self, shard: Callable[[Any], Any], jobs: Iterable[Any], on_result: Callable[[Any, Any], None],
            on_abort: Callable[[], None] | None = None) -> None:
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


class Dask:
    """Shards on a dask.distributed cluster: a LocalCluster of one single-threaded worker process per
    core (``"local"``), or an existing scheduler's address."""

    def __init__(self, address: str, workers: int | None = None):
        address = scheduler_address(address)
        distributed = need("distributed", "dask")
        Client, LocalCluster = distributed.Client, distributed.LocalCluster
        self.cluster = self.client = None
        if address == "local":
            # A cluster half started cannot be closed cleanly (dask's exit hook then prints a
            # traceback): an ending signal waits until it is up, then closes it and takes effect.
            with signals_held() as arrived:
                try:
                    self.cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                                processes=True, dashboard_address=":0")  # any free port
                    self.client = Client(self.cluster)
                except BaseException:
                    self.close()
                    raise
            if arrived:
                self.close()
                raise Cancelled(arrived[0])
            self.name = f"dask local ({len(self.cluster.workers)} workers)"
        else:
            try:
                self.client = Client(address, timeout=10)
            except Exception as exc:  # unreachable, refused, or not a scheduler: one line, whatever dask raised
                raise DesignerError(f"cannot reach the dask scheduler at {address}: {exc}") from None
            self.name = f"dask {address}"

    def run(self, shard: Callable[[Any], Any], jobs: Iterable[Any], on_result: Callable[[Any, Any], None],
            on_abort: Callable[[], None] | None = None) -> None:
        """As ``InProcess.run``; on an error or Ctrl-C the cluster's futures are cancelled."""
        from distributed import as_completed as dask_completed

        jobs = list(jobs)
        # Jobs go out in batches, dealt round-robin (the jobs come biggest first), so that the
        # scheduler handles a few dozen tasks rather than thousands of small ones.
        count = min(len(jobs), BATCHES_PER_WORKER * max(1, len(self.client.scheduler_info().get("workers", {}))))
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
            self.client.cancel(futures)
            raise

    def close(self) -> None:
        """Close the client and the cluster this started, whole: an ending signal that arrives
        meanwhile takes effect once they are closed."""
        with signals_held() as arrived:
            if self.client is not None:
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
            self.client = self.cluster = None
        if arrived:
            raise Cancelled(arrived[0])


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
        raise DesignerError(f"--dask takes 'local' or a scheduler address tcp://HOST:PORT (such as "
                            f"tcp://127.0.0.1:8786), not {text!r}")
    return text


def open_executor(dask: str | None, workers: int | None = None):
    """The executor a command asks for: in process unless ``dask`` names a cluster."""
    return InProcess(workers) if dask is None else Dask(dask, workers)
