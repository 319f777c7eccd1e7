"""How a caller watches and stops work: one progress type and one cancel token for every
operation (``designer.ops``), and the one place where signals turn into a cancel.

``Update`` is what an operation reports as it goes (``on_progress(update)``): how many of its
steps are done, and what runs now. ``CancelToken`` is how it is stopped: a Ctrl-C, SIGTERM or
SIGHUP sets it (``cancel_on_signals``), a server sets it when its client goes away, a script sets
it on a timer. Work honours it through its ``Budget`` (``designer.core.budget``): a budget made
with a token has nothing left once the token is set, so every search, kernel loop and CP-SAT
solve that asks its budget ends; forked processes are ended by their parent, which asks it too.

>>> token = CancelToken()
>>> race = token.child()          # ended by its own cancel, or by the token's
>>> token.cancel()
>>> race.is_set(), race.reason()
(True, 2)
>>> try:
...     token.check()
... except Cancelled as stopped:  # a KeyboardInterrupt: cleanup paths run as for Ctrl-C
...     print(stopped)
cancelled (signal 2)
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

#: The signals that cancel work: Ctrl-C, and the two a session or a supervisor sends.
ENDING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@dataclass(frozen=True)
class Update:
    """One report of progress: ``done`` of ``total`` steps finished, and ``label``, what runs now
    (for example ``"level 2: climbing, best 23 stops"``; None when it did not change)."""

    done: int
    total: int
    label: str | None = None


#: The one callback type of progress: every operation takes ``on_progress`` of this type.
OnProgress = Callable[[Update], None]


def no_progress(update: Update) -> None:
    """The callback of a caller that does not watch."""


class Steps:
    """An operation's count of finished steps, reported through ``on_progress``: ``step()`` when
    one more is done, ``label(text)`` when what runs now changes."""

    def __init__(self, on_progress: OnProgress, total: int, label: str | None = None):
        self.on_progress, self.total, self.done = on_progress, total, 0
        on_progress(Update(0, total, label))

    def step(self, *_) -> None:
        self.done += 1
        self.on_progress(Update(self.done, self.total))

    def label(self, text: str) -> None:
        self.on_progress(Update(self.done, self.total, text))


class Cancelled(KeyboardInterrupt):
    """Work ended by its cancel token; ``signum`` is the signal that set it (SIGINT when a caller
    cancelled it by hand). A KeyboardInterrupt, so that every stop-and-keep-whole-files path of the
    searches (checkpoints saved, helpers ended, files left whole) runs for it as for Ctrl-C."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(f"cancelled (signal {int(signum)})")
        self.signum = int(signum)

    def __str__(self) -> str:
        return self.args[0]


class CancelToken:
    """Set once, by any thread (or a signal handler), and seen by every piece of work given it.
    ``child()`` is a token of its own that the parent's cancel also ends (a portfolio ends its
    other side with a child, and the user's cancel still ends both)."""

    def __init__(self, parent: CancelToken | None = None):
        self.parent = parent
        self._event = threading.Event()
        self._signum: int | None = (
            None  # set: the reason (asked in every search's inner loop: kept cheap)
        )

    def cancel(self, signum: int = signal.SIGINT) -> None:
        """Set the token (the first reason given is kept)."""
        if self._signum is None:
            self._signum = int(signum)
        self._event.set()

    set = cancel  # the name a budget's event answers to (``Budget.cancel``)

    def is_set(self) -> bool:
        return self._signum is not None or (self.parent is not None and self.parent.is_set())

    def reason(self) -> int | None:
        """The signal that set the token, or its parent (None while it is not set). The parent's
        comes first: a user's signal outranks the cancel a portfolio gave its other side as the
        same signal arrived (a SIGHUP then ends the run as terminated, not interrupted)."""
        above = self.parent.reason() if self.parent is not None else None
        return above if above is not None else self._signum

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this token's own cancel; whether it is set now."""
        self._event.wait(timeout)
        return self.is_set()

    def child(self) -> CancelToken:
        return CancelToken(self)

    def check(self) -> None:
        """Raise ``Cancelled`` when the token is set."""
        if self.is_set():
            raise Cancelled(self.reason() or signal.SIGINT)

    def __reduce__(self):
        # A token crossing into another process arrives as a token of its own: its parent ends
        # that process's work (a forked search or a cluster's job), never the other way round.
        return CancelToken, ()


def check(token: CancelToken | None) -> None:
    """Raise ``Cancelled`` when ``token`` (if any) is set: work that a cancel ended early must not
    read as finished, failed or timed out."""
    if token is not None:
        token.check()


@contextmanager
def cancel_on_signals(token: CancelToken):
    """For the block, Ctrl-C, SIGTERM and SIGHUP set ``token`` and raise ``Cancelled`` in the main
    thread. A signal that arrives while the main thread is inside compiled code (a CP-SAT search)
    sets the token at once all the same: the interpreter writes each signal's number to its wakeup
    descriptor, and a helper thread reads it there, so the search's watcher sees the token within
    its poll; the handler raises when the main thread runs Python again. Elsewhere than the main
    thread, no handler can be set, and the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield token
        return

    def handler(signum, frame) -> None:
        token.cancel(signum)
        raise Cancelled(signum)

    before = {s: signal.signal(s, handler) for s in ENDING_SIGNALS}
    read, write = os.pipe()
    os.set_blocking(write, False)
    wakeup_before = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    ending = {int(s) for s in ENDING_SIGNALS}

    def bridge() -> None:
        while True:
            data = os.read(read, 64)
            if not data:
                return
            for number in data:  # in order: a signal that came just before the block ended counts
                if number == 0:  # the block is over (see below)
                    return
                if number in ending:
                    token.cancel(number)

    helper = threading.Thread(target=bridge, name="signals to the cancel token", daemon=True)
    helper.start()
    try:
        yield token
    finally:
        signal.set_wakeup_fd(wakeup_before)
        for s, old in before.items():
            signal.signal(s, signal.SIG_DFL if old is None else old)
        os.write(write, b"\0")
        helper.join()
        os.close(read)
        os.close(write)


@contextmanager
def signals_held():
    """Hold Ctrl-C, SIGTERM and SIGHUP for the block (in the main thread; elsewhere the block runs
    as it is), for work that cannot be left half done (a cluster starting or closing). Yields the
    list of those that arrived; the caller ends its work and raises ``Cancelled`` for the first
    once it is whole. A token the signals set (``cancel_on_signals``) is set all the same."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    arrived: list[int] = []
    before = {
        s: signal.signal(s, lambda signum, frame: arrived.append(signum)) for s in ENDING_SIGNALS
    }
    try:
        yield arrived
    finally:
        for s, handler in before.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)


def end_with_parent(parent: int) -> None:
    """Called first in a child process: it ends when its parent does, however the parent ends
    (Linux: the kernel sends SIGKILL when the parent dies, ``PR_SET_PDEATHSIG``), at once on SIGTERM
    or SIGHUP (the parent's handlers, inherited by a fork, are dropped), and leaves Ctrl-C, which
    reaches the whole process group, to the parent, which ends it through its own means (an event
    the child watches, or ending it)."""
    for ending in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(ending, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _signal_at_parent_death(_prctl(), signal.SIGKILL, parent)


def die_with_parent(signum: int = signal.SIGKILL) -> Callable[[], None]:
    """A ``preexec_fn`` for ``subprocess.Popen``: the program started gets ``signum`` when this
    process ends, however it ends (``kill -9`` included), and never starts if it already has.
    SIGTERM lets a designer child end in order (its own helpers then end with it); SIGKILL suits a
    program that keeps nothing. Call it and start the program from the main thread: the kernel
    signals the child when the thread that started it ends."""
    parent, prctl = os.getpid(), _prctl()  # looked up here: after the fork, only the call runs

    def arrange() -> None:
        _signal_at_parent_death(prctl, signum, parent)

    return arrange


def name_process(name: bytes) -> None:
    """Name this process as ``ps`` and ``/proc/PID/comm`` show it (Linux; at most 15 bytes kept)."""
    prctl = _prctl()
    if prctl is not None:
        prctl(PR_SET_NAME, ctypes.c_char_p(name[:15]), 0, 0, 0)


def _prctl():
    """libc's ``prctl`` (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _signal_at_parent_death(prctl, signum: int, parent: int) -> None:
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
    if os.getppid() != parent:  # the parent was gone before the line above took effect
        os._exit(1)


#: prctl's option that has the kernel signal a process when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
PR_SET_NAME = 15
