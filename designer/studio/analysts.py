"""The studio's live figures (``designer.ops.sketch_figures.figures``), computed in processes the server
can end, so that a newer edit ends the older call's work (issue 44).

A figure of a small grid takes milliseconds, but one of a 40x40 grid with 8 items takes seconds,
and a thread cannot be stopped: each edit of a drag used to wait behind every one before it (a
tiny call waited 46 s behind 8 dropped ones). So:

- ``Analysts`` keeps ``size`` processes ready (imports and kernels loaded), each computing one
  call at a time;
- a call names its page: a page's newer call **supersedes** its older one. An older call still
  waiting for a process gives up at once; one that has computed for ``KILL_AFTER`` seconds or
  more is ended by killing its process (a fresh one takes its place, started in the background);
  a younger one is left to finish, as a new process would cost more. A superseded call is
  answered ``Superseded``;
- so a page holds at most one call running and one waiting, never a queue.

>>> import asyncio
>>> async def once():
...     analysts = Analysts(size=1)
...     try:
...         return (await analysts.figures(["#G#", "#.#", "#S#"]))["routes"][0]["min_stops"]
...     finally:
...         analysts.stop()
>>> asyncio.run(once())
1
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import threading
import time

#: Seconds a superseded call may have computed before its process is killed rather than left to
#: finish.
KILL_AFTER = 0.05
#: The name of the processes (``/proc/PID/comm``), as ``ps`` and the tests see them.
NAME = b"studio-figures"


class Superseded(Exception):
    """A page's call that its newer call replaced."""


def _serve(conn, parent: int, player=None) -> None:
    """A figures process: answer each grid of rows sent, in turn, until the pipe closes (each
    predicted difficulty for ``player``: ``designer studio --player``'s, or the default)."""
    from designer.core.control import end_with_parent, name_process
    from designer.core.errors import DesignerError
    from designer.ops.sketch_figures import figures

    end_with_parent(parent)
    name_process(NAME)
    figures(["#G#", "#.#", "#S#"])  # warm: every import and kernel loaded before the first call
    conn.send(("ready", None))
    while True:
        try:
            rows = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", figures(rows, player)))
        except DesignerError as exc:
            conn.send(("refused", str(exc)))
        except Exception as exc:  # noqa: BLE001 - a bug: said in one line, the process goes on
            conn.send(("bug", f"{type(exc).__name__}: {exc}"))


class _Process:
    """One figures process and the server's end of its pipe."""

    def __init__(self, player=None):
        context = multiprocessing.get_context("spawn")  # no fork of a server that runs threads
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve,
            args=(child, os.getpid(), player),
            name="designer studio figures",
            daemon=True,
        )
        self.process.start()
        child.close()
        self.killed = False
        self.ending = threading.Lock()

    def ready(self) -> bool:
        try:
            return self.conn.recv()[0] == "ready"
        except (EOFError, OSError):
            return False

    def ask(self, rows: list[str]):
        """(kind, value) of one call; ``Superseded`` when the process was killed meanwhile."""
        try:
            self.conn.send(rows)
            return self.conn.recv()
        except (EOFError, OSError):
            if self.killed:
                raise Superseded from None
            return ("bug", "the figures process ended without an answer")

    def kill(self) -> None:
        """End the process and close the pipe, once, however many threads ask at once."""
        self.killed = True
        with self.ending:
            self.process.kill()
            self.process.join()
            if not self.conn.closed:
                self.conn.close()


class Analysts:
    """``size`` figures processes and the calls of each page (see the module)."""

    def __init__(self, size: int = 2, player=None):
        self.size = size
        self.player = player  # the model's player of the predicted difficulty (None: the default)
        self.lock = threading.Lock()
        self.all: set[_Process] = set()
        self.latest: dict[str, int] = {}  # page -> the number of its newest call
        self.running: dict[
            str, tuple[_Process, float]
        ] = {}  # page -> its call's process, and since when
        self.count = itertools.count()
        self.idle: asyncio.Queue | None = None
        self.stopped = False

    def _ensure(self) -> asyncio.Queue:
        """The queue of idle processes, filled as they start (on the first call, in this loop)."""
        if self.idle is None:
            self.idle = asyncio.Queue()
            for _ in range(self.size):
                self._start_one()
        return self.idle

    def _start_one(self) -> None:
        """Start a process (here, on the loop's thread: the kernel ends a child whose starting
        thread ends, ``PR_SET_PDEATHSIG``), and queue it once it is ready."""
        if self.stopped:
            return
        loop, one, idle = asyncio.get_running_loop(), _Process(self.player), self.idle
        assert idle is not None  # started by _ensure, which makes the queue first
        with self.lock:
            self.all.add(one)

        def wait() -> None:
            if one.ready() and not self.stopped:
                loop.call_soon_threadsafe(idle.put_nowait, one)
            else:
                self._end(one)

        threading.Thread(target=wait, name="figures process start", daemon=True).start()

    def _end(self, one: _Process) -> None:
        with self.lock:
            self.all.discard(one)
        one.kill()

    async def figures(
        self, rows: list[str], page: str | None = None, edit: int | None = None
    ) -> dict:
        """The figures of ``rows``; ``Superseded`` when ``page``'s newer call replaced this one;
        ``DesignerError`` (one line) for rows that are no grid. ``edit`` numbers the page's edits
        (calls may arrive out of order, each on a connection of its own): a call whose edit is older
        than one already seen is superseded at once. Without it, calls are numbered as they come."""
        idle = self._ensure()
        number = next(self.count) if edit is None else edit
        doomed = None
        if page is not None:
            with self.lock:
                if page in self.latest and self.latest[page] > number:
                    raise Superseded
                self.latest[page] = number
                older = self.running.get(page)
                if older is not None and time.monotonic() - older[1] >= KILL_AFTER:
                    doomed, older[0].killed = older[0], True  # never back to the idle ones
                    del self.running[page]
            if doomed is not None:
                await asyncio.to_thread(doomed.kill)  # the older call's work ends now
        one = await idle.get()
        if page is not None and self.latest.get(page) != number:  # superseded while it waited
            idle.put_nowait(one)
            raise Superseded
        if page is not None:
            with self.lock:
                self.running[page] = (one, time.monotonic())
        try:
            kind, value = await asyncio.to_thread(one.ask, rows)
        finally:
            with self.lock:
                if page is not None and self.running.get(page, (None,))[0] is one:
                    del self.running[page]
                healthy = not one.killed and one.process.is_alive()
            if healthy:
                idle.put_nowait(one)
            # killed for a newer call, or died under this one (a bug): a fresh one takes its place
            else:
                self._end(one)
                self._start_one()
        if page is not None and self.latest.get(page) != number:
            raise Superseded
        if kind == "ok":
            return value
        if kind == "refused":
            from designer.core.errors import DesignerError

            raise DesignerError(value)
        raise RuntimeError(value)

    def stop(self) -> None:
        """End every figures process (the server stops)."""
        self.stopped = True
        with self.lock:
            every = list(self.all)
        for one in every:
            self._end(one)
