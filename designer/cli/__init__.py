"""The ``designer`` command: a thin shell over the operations (``designer.ops``). One module per
command or family: ``levels`` (solve, analyze), ``make``, ``studies`` (compare, pareto,
records), ``exports`` (render, export, play), ``studio``, ``bench``; ``shell`` holds what they
share, and ``progress`` the bar; ``entry`` runs them (``main``).

This module loads nothing else until it is asked: ``run`` first sets what Ctrl-C, SIGTERM and
SIGHUP do while the command's modules load (one line and the signal's status, as later), then
loads them."""

from __future__ import annotations

import os
import signal

__all__ = ["app", "main", "run"]

#: The line for each signal that ends the command (``entry`` says the same once it runs).
_ENDED = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated", signal.SIGHUP: "terminated"}


def _ended_while_loading(signum: int, _frame) -> None:
    """A signal before the command runs: nothing is started or written yet, so say so and go."""
    try:
        os.write(2, f"designer: {_ENDED[signal.Signals(signum)]}\n".encode())
    finally:
        os._exit(128 + signum)


def run() -> None:
    """Console-script entry point: the signal handlers for the loading, then ``entry.run``."""
    for signum in _ENDED:
        if signal.getsignal(signum) is not signal.SIG_IGN:  # nohup's ignored SIGHUP stays ignored
            signal.signal(signum, _ended_while_loading)
    from designer.cli.entry import run as run_command

    run_command()


def __getattr__(name: str):
    """``app`` and ``main``, from ``designer.cli.entry``, loaded when asked for."""
    if name in ("app", "main"):
        from designer.cli import entry

        return getattr(entry, name)
    raise AttributeError(f"module 'designer.cli' has no attribute {name!r}")
