"""The ``designer`` command's entry point: every command module registered (in the order of
``designer --help``), and ``main``, which runs one under the run's cancel token and turns how it
ended into one line and an exit status.

Exit status (``docs/spec.md``): 0 success; 1 the request cannot be met (an unsolvable level for
``solve``; no design for ``make``: proven infeasible, or the time limit reached); 2 bad input or
usage, always as one line on standard error; 128 + the signal when Ctrl-C (130), SIGTERM (143)
or SIGHUP (129) ended it.
"""

from __future__ import annotations

import io
import os
import signal
import sys

import typer

# The command modules register their commands on ``app`` as they are imported: these lines are
# the order of ``designer --help`` (its panels: design, inspect, export, studies), which the
# import sorter leaves as it is.
# isort: off
from designer.cli import make  # noqa: E402
from designer.cli import caves  # noqa: E402  cave
from designer.cli import studio  # noqa: E402
from designer.cli import levels  # noqa: E402  solve, analyze
from designer.cli import exports  # noqa: E402  render, export, play
from designer.cli import studies  # noqa: E402  compare, pareto
from designer.cli import records  # noqa: E402
from designer.cli import bench  # noqa: E402
from designer.cli import playtest  # noqa: E402, F401  playtest
from designer.cli import game  # noqa: E402, F401  game

# isort: on
from designer.cli.flags import flag
from designer.cli.shell import OutputClosed, app
from designer.core.control import Cancelled, CancelToken, cancel_on_signals
from designer.core.errors import DesignerError, RequestNotMet, shown, worded

COMMANDS = (make, caves, studio, levels, exports, studies, records, bench)

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 128 + signal.SIGINT


def command_names() -> list[str]:
    """The commands, in the order ``designer --help`` lists them: what ``app`` has registered."""
    names = [
        command.name or getattr(command.callback, "__name__", "").replace("_", "-")
        for command in app.registered_commands
    ]
    return names + [group.name for group in app.registered_groups]


def _one_line(message: str) -> str:
    """An error message as one line: control characters a user's input brought in (a newline in
    a file name or a JSON value) are shown escaped, never obeyed."""
    return shown(message)


class _ClosedStream(io.TextIOBase):
    """Standing in for a standard stream the shell closed (``>&-``, ``2>&-``): Python then has
    None there. It is no terminal, and writing to it fails as writing to a closed file does, so a
    command that must print says so in one line (status 2) instead of crashing."""

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        raise ValueError("I/O operation on closed file")


def _stand_in_for_closed_streams() -> None:
    """Closed standard output or error never crash a command: error messages go nowhere, and
    output fails with one line on standard error (see ``shell.echo``)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # messages are lost, the work and the status are not
    if sys.stdout is None:
        sys.stdout = _ClosedStream()


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _note_slow_kernels() -> None:
    """Say once, on standard error, when the pure-Python kernels run, and why."""
    from designer.core import kernels  # numpy is loaded already (designer.core.level needs it)

    def note() -> None:
        typer.echo(
            f"designer: note: using the pure-Python kernels, slower ({kernels.why_python()})",
            err=True,
        )

    kernels.notify_python_use(note)


def _ended(signum: int) -> int:
    """The line and the status of a run that a signal (or its cancel token) ended."""
    typer.echo(
        "designer: interrupted" if signum == signal.SIGINT else "designer: terminated", err=True
    )
    return 128 + signum


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status instead of raising.

    0 success; 1 the request cannot be met; 2 bad input or usage; 130 interrupted (Ctrl-C); 143
    and 129 terminated (SIGTERM, SIGHUP). Every failure is one line on standard error.
    """
    argv = sys.argv[1:] if argv is None else argv
    _stand_in_for_closed_streams()
    if not argv:
        typer.echo(
            f"usage: designer COMMAND [ARGS]... (commands: {', '.join(command_names())}; see designer --help)",
            err=True,
        )
        return 2
    _note_slow_kernels()
    token = CancelToken()
    try:
        with cancel_on_signals(token):
            result = app(args=argv, prog_name="designer", standalone_mode=False, obj=token)
    except Cancelled as exc:
        return _ended(exc.signum)
    except (KeyboardInterrupt, typer.Abort):  # CP-SAT's own Ctrl-C, or typer's
        return _ended(token.reason() or signal.SIGINT)
    except DesignerError as exc:  # a request's own words for its fields said as the flags
        typer.echo(f"designer: {_one_line(worded(exc, flag))}", err=True)
        return 2
    except RequestNotMet as exc:
        typer.echo(f"designer: {_one_line(str(exc))}", err=True)
        return 1
    except MemoryError:
        typer.echo(
            "designer: out of memory: the request needs more memory than this machine has", err=True
        )
        return 1
    except OutputClosed:
        _quiet_stdout()
        return 0
    except Exception as exc:
        # Usage errors of the command-line parser (click's, or the copy newer typer ships).
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        typer.echo(f"designer: {_one_line(exc.format_message())}", err=True)
        return 2
    if result == INTERRUPTED:  # typer turns Ctrl-C into Exit(130) and prints nothing
        return _ended(token.reason() or signal.SIGINT)
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point: this process is one command, and its time limits count from
    its start (``designer.core.budget.command_budget``)."""
    from designer.core.budget import mark_command_start

    mark_command_start()
    sys.exit(main())
