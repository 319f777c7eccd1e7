"""The designer's own LocalCluster (``--dask local``): dask's LocalCluster, started in a host
process of a session of its own, so that no signal meant for the designer's process group reaches
its scheduler or workers. A terminal's Ctrl-C or hangup goes to the whole foreground group; were
the workers in it, each would end on its own, with a traceback, and the nanny would restart it
while the designer waits for its results. Here only the designer hears the signal: its cancel
token ends the run, and the designer ends the cluster (``LocalHost.close``).

Nothing outlives the designer. The host dies with it, however it ends (the kernel's parent-death
signal), and dask's worker processes end when their host does (each watches a pipe from it).

The host is this module run as a program (``python -m designer.search.cluster WORKERS``): it
starts the cluster, prints one line of JSON (the scheduler's address and the number of workers),
and closes the cluster when its standard input closes or SIGTERM arrives.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

from designer.core.control import Cancelled, CancelToken, check, die_with_parent, signals_held
from designer.core.errors import DesignerError

#: Seconds a cluster may take to start before the designer gives up on it.
START_SECONDS = 60.0
#: Seconds the host has to close its cluster in order before it is ended at once.
CLOSE_SECONDS = 1.5


#: How the host starts: as ``python -m designer.search.cluster`` would, but without the current
#: folder first on its import path (``-m`` and ``-c`` put it there; ``-P`` is Python 3.11's), so a
#: folder that holds a ``designer/`` of its own (the project's checkout, with the package
#: installed by ``pip install .``) cannot shadow the package this process runs: the host imports
#: from the path this process has (``PYTHONPATH`` below).
HOST_CODE = (
    "import runpy, sys; del sys.path[0]; "
    "runpy.run_module('designer.search.cluster', run_name='__main__', alter_sys=True)"
)


class LocalHost:
    """A LocalCluster of ``workers`` single-threaded worker processes in a host process the
    designer owns; ``address`` is its scheduler's, ``workers`` how many workers it has."""

    def __init__(self, workers: int, cancel: CancelToken | None = None):
        self._log = tempfile.TemporaryFile()
        # Held while the host is forked: a signal raised in the fork's own handlers (logging's
        # lock, released after the fork) was printed as "Exception ignored", a traceback.
        with signals_held() as arrived:
            self.process = subprocess.Popen(
                [sys.executable, "-c", HOST_CODE, str(workers)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                start_new_session=True,
                preexec_fn=die_with_parent(signal.SIGKILL),
                # the cluster imports what this process imports (a script's own shard functions too)
                env={
                    **os.environ,
                    "PYTHONPATH": os.pathsep.join(path for path in sys.path if path),
                },
            )
        if arrived:
            self.close()
            raise Cancelled(arrived[0])
        try:
            line = self._first_line(cancel)
            state = json.loads(line)
            self.address, self.workers = str(state["address"]), int(state["workers"])
        except BaseException:
            self.close()
            raise

    def _first_line(self, cancel: CancelToken | None) -> str:
        """The host's line of JSON, waited for while the token is unset and the host alive."""
        deadline = time.monotonic() + START_SECONDS
        out = self.process.stdout
        assert out is not None  # started with a pipe
        while True:
            check(cancel)
            if select.select([out], [], [], 0.1)[0]:
                line = out.readline()
                if line:
                    return line.decode()
                raise DesignerError(f"the local dask cluster did not start: {self._last_words()}")
            if time.monotonic() > deadline:
                raise DesignerError(f"the local dask cluster did not start in {START_SECONDS:g} s")

    def _last_words(self) -> str:
        """The host's last line on standard error (why it ended), or its status."""
        self.process.wait()
        self._log.seek(0)
        lines = [
            line for line in self._log.read().decode(errors="replace").splitlines() if line.strip()
        ]
        return (
            lines[-1].strip()[:200]
            if lines
            else f"its process ended with status {self.process.returncode}"
        )

    def close(self) -> None:
        """End the cluster: the host closes it in order (its workers' tasks are abandoned), or,
        after ``CLOSE_SECONDS``, the host's whole session is ended at once."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(CLOSE_SECONDS)
            except subprocess.TimeoutExpired:
                pass
        try:  # whatever is left of the session: the host, its workers, multiprocessing's tracker
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self._log):
            if stream is not None:  # each a pipe or a file, opened with the host
                stream.close()


def host(workers: int) -> None:
    """The host process: start the cluster, say where it is, close it when told."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ending = []
    signal.signal(signal.SIGTERM, lambda signum, frame: ending.append(signum))

    import logging

    from distributed import LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)  # a worker ended on close is no news
    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    print(
        json.dumps({"address": cluster.scheduler_address, "workers": len(cluster.workers)}),
        flush=True,
    )
    while not ending and select.select([sys.stdin], [], [], 0.1)[0] == []:
        pass
    if ending:  # told to end now: the workers' running tasks are abandoned, not waited for
        for nanny in list(cluster.workers.values()):
            process = getattr(getattr(nanny, "process", None), "process", None)
            if process is not None and process.pid is not None:
                try:
                    os.kill(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    cluster.close(timeout=CLOSE_SECONDS)


if __name__ == "__main__":
    host(int(sys.argv[1]))
