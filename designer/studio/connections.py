"""The studio's connections, bounded: a slow client cannot hold the server.

uvicorn's HTTP/1.1 protocol waits for a request's headers as long as the client likes, and takes
every connection the listening socket accepts, until the process runs out of file descriptors
(then asyncio writes a traceback at every accept). ``Connections`` is that protocol with two
bounds (issue 44):

- **a header deadline**: a connection that has not sent a whole request head within
  ``HEADER_SECONDS`` of opening (or of its last answer, on a kept-alive connection) is closed;
- **a cap**: at most ``cap`` connections are open. One more closes the connection that has
  waited longest for its headers (so a flood of slow clients cannot keep a real one out); when
  every open connection is busy with a request, the new one is closed at once.

Both close the socket quietly: nothing is logged.
"""

from __future__ import annotations

import resource
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a connection may take to send a request's headers.
HEADER_SECONDS = 10.0
#: The most connections open at once (fewer when the process may open few files:
#: ``connection_cap``).
MAX_CONNECTIONS = 100
#: The most connections accepted in one turn of the event loop (uvicorn's ``backlog``, which asyncio
#: also takes as the number to accept at once): the cap closes the excess only in the next turn, so
#: a larger batch (uvicorn's default is 2048) runs the process out of files first.
ACCEPT_BATCH = 32
#: File descriptors kept for everything else (the fills' pipes, the files the server reads).
_SPARE_FILES = 64


def connection_cap() -> int:
    """The cap for this process: ``MAX_CONNECTIONS``, or fewer when its open-file limit is low. The
    soft limit is first raised to the hard one (as far as 4096)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, (soft - _SPARE_FILES - 2 * ACCEPT_BATCH) // 2))


def bounded(cap: int, header_seconds: float = HEADER_SECONDS) -> type:
    """uvicorn's HTTP/1.1 protocol with a header deadline and a cap of ``cap`` connections (the
    class ``uvicorn.Config(http=...)`` takes)."""

    class Connections(H11Protocol):
        waiting_since: float | None = (
            None  # since when it waits for a request's head; None while busy
        )

        def connection_made(self, transport) -> None:
            self.waiting_since = time.monotonic()
            super().connection_made(transport)
            self.loop.call_later(header_seconds, self._deadline)
            if len(self.connections) > cap:
                waiting: list[Any] = [
                    one
                    for one in self.connections
                    if getattr(one, "waiting_since", None) is not None
                ]
                min(
                    waiting, key=lambda one: one.waiting_since
                )._drop()  # itself, when all others are busy

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self.waiting_since = None  # a whole head came: the app answers it

        def on_response_complete(self) -> None:
            # before the next request's head (pipelined ones too)
            self.waiting_since = time.monotonic()
            super().on_response_complete()

        def _deadline(self) -> None:
            if self.transport.is_closing():
                return
            if self.waiting_since is None:
                self.loop.call_later(header_seconds, self._deadline)
                return
            waited = time.monotonic() - self.waiting_since
            if waited >= header_seconds:
                self._drop()
            else:
                self.loop.call_later(header_seconds - waited, self._deadline)

        def _drop(self) -> None:
            self.waiting_since = None
            self.transport.close()

    return Connections
