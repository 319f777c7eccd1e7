"""Fills: ``designer.ops.design.make`` on a sketch, each in a process of its own, which the
server can end at once (OR-Tools has crashed at exit after solving off the main thread, and a
thread cannot be stopped). The child reports each progress update and its one result through a
pipe; ``Fill.events`` turns them into the server-sent events the page reads.

>>> fill = Fill.start({"template": ["#G#", "#?#", "#S#"], "min_stops": 1, "time_limit": 5})
>>> [event["kind"] for event in fill.events()][-1]
'done'
"""

from __future__ import annotations

import multiprocessing
import os
import threading

#: Seconds a fill's process is given to end after SIGTERM before it is killed.
GRACE_SECONDS = 1.0


def _child(options: dict, conn, parent: int) -> None:
    """The fill's process: design the sketch, sending ("progress", label) on each update and one
    ("done", JSON level) or ("failed", status, message) at the end. It ends with the server however
    the server ends (``kill -9`` included), at once on SIGTERM (``Fill.cancel``), and leaves Ctrl-C
    to the server; the searches it forks in turn (chains, lanes) end with it."""
    from designer.core.control import end_with_parent
    from designer.core.errors import DesignerError, RequestNotMet, worded
    from designer.ops import design as ops
    from designer.studio.bodies import form_word

    end_with_parent(parent)

    def progress(update) -> None:
        if update.label:
            conn.send(("progress", update.label))

    try:
        # a cave's free rooms (designer.ops.caves), as designer cave fills them
        if "cave" in options:
            from designer.ops import caves

            fields = {key: value for key, value in options.items() if key != "cave"}
            cave_made = caves.design(
                caves.CaveOptions(text=options["cave"], **fields), fmt="json", on_progress=progress
            )
            conn.send(("done", cave_made.text))
            return
        made = ops.make(ops.plan(options), ops.LevelOutput(fmt="json"), on_progress=progress)
        conn.send(("done", made.text))
    except RequestNotMet as exc:
        conn.send(("failed", 1, str(exc)))
    except DesignerError as exc:
        conn.send(("failed", 2, worded(exc, form_word)))
    except Exception as exc:  # a bug: said in one line, the server goes on
        conn.send(("failed", 3, f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


class Fill:
    """One fill: its process and the parent's end of its pipe."""

    def __init__(self, process, conn):
        self.process, self.conn = process, conn
        self.cancelled = threading.Event()
        self._ending = threading.Lock()  # cancel may come from several threads at once

    @classmethod
    def start(cls, options: dict) -> Fill:
        """Start designing ``options`` (an ask's fields as JSON values: ``designer.ops.asks``;
        with ``cave``, a cave's text and ``CaveOptions`` fields) in a new process."""
        context = multiprocessing.get_context("spawn")  # no fork of a server that runs threads
        parent, child = context.Pipe(duplex=False)
        # not a daemon: a fill may fork its own searches (the chains of items, the open grid's),
        # which
        # a daemon may not; it ends with the server all the same (``_child``), and the server ends
        # every fill when it stops
        process = context.Process(
            target=_child, args=(options, child, os.getpid()), name="designer studio fill"
        )
        process.start()
        child.close()
        return cls(process, parent)

    def events(self, poll: float = 0.1):
        """The fill's events, as dicts: {"kind": "progress", "label"}, then one of {"kind": "done",
        "level": JSON text}, {"kind": "failed", "status", "message"} or {"kind": "cancelled"}."""
        while True:
            if self.cancelled.is_set():
                yield {"kind": "cancelled"}
                return
            ready = self._waiting(poll)
            if ready:
                try:
                    message = self.conn.recv()
                except (EOFError, OSError):
                    message = None
                if message is None:
                    yield {
                        "kind": "cancelled" if self.cancelled.is_set() else "failed",
                        "status": 3,
                        "message": "the fill's process ended without a result",
                    }
                    return
                if message[0] == "progress":
                    yield {"kind": "progress", "label": message[1]}
                    continue
                self.process.join(GRACE_SECONDS)
                if message[0] == "done":
                    yield {"kind": "done", "level": message[1]}
                else:
                    yield {"kind": "failed", "status": message[1], "message": message[2]}
                return
            if not self.process.is_alive() and not self._waiting(0):
                if self.cancelled.is_set():
                    continue  # cancelled meanwhile (the pipe may be closed already): said above
                yield {
                    "kind": "failed",
                    "status": 3,
                    "message": "the fill's process ended without a result",
                }
                return

    def _waiting(self, seconds: float) -> bool:
        """Whether a message waits in the pipe (within ``seconds``); False once ``cancel``, from
        another thread, has closed it, even in the middle of the wait (EBADF)."""
        try:
            return self.conn.poll(seconds)
        except (OSError, EOFError):
            return False

    def cancel(self) -> None:
        """End the fill now: SIGTERM, then SIGKILL after ``GRACE_SECONDS``. Safe to call from
        several threads at once (the server stopping, a closed stream, the cancel request): the
        first ends the process and closes the pipe once; the others wait for it."""
        self.cancelled.set()
        with self._ending:
            if self.process.is_alive():
                self.process.terminate()
                self.process.join(GRACE_SECONDS)
                if self.process.is_alive():
                    self.process.kill()
                    self.process.join()
            if not self.conn.closed:
                self.conn.close()
