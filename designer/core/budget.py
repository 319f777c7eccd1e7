"""``Budget``: the one clock of a piece of work.

Every search takes a ``Budget`` and asks it what is left; none keeps a deadline of its own
in another clock. A budget is converted to another form only where it leaves Python: seconds for
a kernel call (``left()``), wall-clock time for a cluster worker (``wall_deadline()``).

A budget counts seconds on one of two clocks (``CLOCKS``):

- ``"wall"``, the default: ``time.perf_counter()``, the seconds that pass (on Linux the same clock
  in every process of the machine, so forked chains can share a budget). What a user means by
  ``--time-limit``: the answer comes within it, however busy the machine is.
- ``"work"``: the work this process has done, as the compiled kernels (layouts classified,
  annealing steps), CP-SAT (its deterministic time) and the slides traced in Python
  (``designer.core.rules.trace``) report it in nominal seconds
  (``add_work``; each read of the clock in the main thread adds ``POLL_WORK``, so that a loop
  that only asks its budget still ends). A count, not a clock: the same search does the same
  work at any load, step for step, so its verdict and its level never change with the machine's
  load. A cave designs its rooms on it (``designer.caves.design``), with the wall clock as a net,
  and a game its levels (``designer.game.design``).
- ``"cpu"``: the processor time this process spends (``work_seconds``: all its threads, and its
  forked lanes once they have ended), each forked lane counting its own: a budget of **work**. A
  busy machine makes the work take longer, but about the same work is done: a search with room in
  its budget ends with the same verdict, and with a pinned seed and one worker the same level, at
  any load (not step for step: docs/performance.md, "Work budgets").
  CP-SAT is stopped when the budget's processor time is spent, and the exhaustive kernel counts
  its own thread's. Set it for a piece of work with
  ``Budget(seconds, clock="cpu")`` or ``with use_clock("cpu"):`` (every budget made inside), or for
  a whole run with ``DESIGNER_CLOCK=cpu`` in the environment (the test suite does). A cluster's
  workers on other machines still get a wall-clock deadline (``wall_deadline``).

>>> budget = Budget(10.0, clock="wall")  # (the process's CPU clock counts every thread of it)
>>> 0.0 < budget.left() <= 10.0
True
>>> budget.share(0.5).left() <= min(5.0, budget.left())
True
>>> with use_clock("cpu"):
...     Budget(10.0).clock
'cpu'

A budget may carry a cancel token (``designer.core.control``): once the token is set, the
budget and every share and cut of it have nothing left, which is how a user's Ctrl-C or a closed
connection reaches every search. ``cancellable`` gives a budget a token of its own that the
caller's still ends: the portfolio stops its other side this way when one side wins.

>>> race = Budget(10.0).cancellable()
>>> part = race.share(0.5)
>>> race.cancel()
>>> part.left(), part.expired()
(0.0, True)
>>> from designer.core.control import CancelToken
>>> users = CancelToken()
>>> race = Budget(10.0, ended=users).cancellable()
>>> users.cancel()
>>> race.cancelled()
True
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from designer.core.control import CancelToken


def work_seconds() -> float:
    """The processor time of this process (all its threads) and of its children that have ended
    (forked lanes, once their pool is shut down): the "cpu" clock."""
    spent = os.times()
    return spent.user + spent.system + spent.children_user + spent.children_system


def process_seconds() -> float:
    """Wall-clock seconds since this process started (Linux: ``/proc/self/stat``; 0.0 where that
    cannot be read): the interpreter's start-up and every import before any budget was made."""
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        # field 22: start time, in ticks since boot
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


#: The work done so far in this process, in nominal seconds (see the module docstring).
_work = [0.0]
#: What a read of the work clock in the main thread adds: nothing reads it for ever for free.
POLL_WORK = 1e-6


def add_work(seconds: float) -> None:
    """Count ``seconds`` of nominal work (the kernels and CP-SAT report theirs as they go)."""
    _work[0] += seconds


def work_done() -> float:
    """The "work" clock: the nominal seconds of work this process has done (see ``add_work``)."""
    if threading.current_thread() is threading.main_thread():
        _work[0] += POLL_WORK
    return _work[0]


_command: dict[str, float] = {}  # each clock's value when the command's process started
#: What a command's budget keeps back from its searches, to print the answer and exit within the
#: limit: this share of it, at most ``RESERVE_MOST`` seconds.
RESERVE_SHARE, RESERVE_MOST = 0.02, 0.2


def mark_command_start() -> None:
    """This process is one command (``designer ...``): ``command_budget`` counts from its start,
    start-up included (the cpu clock, a process's processor time, starts at 0 there)."""
    _command.update(wall=time.perf_counter() - process_seconds(), cpu=0.0)


def command_budget(seconds: float) -> Budget:
    """A budget of ``seconds`` for a command's whole work: from its process's start when it was
    marked (``mark_command_start``: the console command), else from now (a call from Python,
    a server, a test). What a user's ``--time-limit`` means: the answer within it, start-up too,
    so a marked command's searches stop a little before it (``RESERVE_SHARE``), leaving time to
    print the answer and exit.

    >>> with use_clock("wall"):  # (the cpu clock jumps when a process's children end: a test's may)
    ...     0.0 < command_budget(5.0).left() <= 5.0
    True
    """
    clock = default_clock()
    if clock not in _command:
        return Budget(seconds, clock=clock)
    return Budget(
        seconds - min(RESERVE_MOST, RESERVE_SHARE * seconds), _command[clock], clock=clock
    )


#: The clocks a budget counts its seconds on (see the module docstring).
CLOCKS = {"wall": time.perf_counter, "cpu": work_seconds, "work": work_done}
#: The clocks a user may set (``DESIGNER_CLOCK``): the work clock counts only what the designer
#: reports, which its own cave rooms do (``designer.caves.design``).
USER_CLOCKS = ("wall", "cpu")
#: The environment variable that sets the clock of every budget of a run.
CLOCK_VARIABLE = "DESIGNER_CLOCK"

_chosen: list[str] = []  # ``use_clock`` blocks, innermost last


def default_clock() -> str:
    """The clock a budget made now counts on: the innermost ``use_clock``, else the environment's
    ``DESIGNER_CLOCK``, else ``"wall"``. An unknown name in the environment is refused in one line."""
    if _chosen:
        return _chosen[-1]
    name = os.environ.get(CLOCK_VARIABLE, "").strip() or "wall"
    if name not in USER_CLOCKS:
        from designer.core.errors import DesignerError

        raise DesignerError(f"{CLOCK_VARIABLE}={name!r}: the clock is 'wall' or 'cpu'")
    return name


@contextmanager
def use_clock(name: str):
    """Every budget made in the block counts on clock ``name`` ("wall" or "cpu")."""
    if name not in CLOCKS:
        raise ValueError(f"the clock is 'wall', 'cpu' or 'work', not {name!r}")
    _chosen.append(name)
    try:
        yield name
    finally:
        _chosen.pop()


@dataclass(frozen=True)
class Budget:
    """``time_limit`` seconds from ``t0`` (a value of the budget's clock, by default now), on the
    clock ``clock`` ("wall" or "cpu"; by default ``default_clock()``)."""

    time_limit: float
    # None: now (filled in by __post_init__, so a budget's t0 and clock are always set)
    t0: float = None  # type: ignore[assignment]
    # set: nothing is left (a CancelToken, or a process-shared event in forked searches)
    ended: CancelToken | None = field(default=None, compare=False, repr=False)
    clock: str = None  # type: ignore[assignment]
    # when it was made, on the wall clock: what a record says the work took, whatever the clock
    began: float = field(default_factory=time.perf_counter, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.clock is None:
            object.__setattr__(self, "clock", default_clock())
        elif self.clock not in CLOCKS:
            raise ValueError(f"the clock is 'wall', 'cpu' or 'work', not {self.clock!r}")
        if self.t0 is None:
            object.__setattr__(self, "t0", self.now())

    def now(self) -> float:
        """The budget's clock now."""
        return CLOCKS[self.clock]()

    def _kin(self, time_limit: float, t0: float | None = None, ended=None) -> Budget:
        return Budget(time_limit, self.now() if t0 is None else t0, ended, self.clock)

    def cancellable(self) -> Budget:
        """This budget (same start and limit), which ``cancel`` can end early with its shares; the
        token it carried still ends it too."""
        parent = self.ended if isinstance(self.ended, CancelToken) else None
        return Budget(self.time_limit, self.t0, CancelToken(parent), self.clock)

    def cancel(self) -> None:
        """End this budget, and every share and cut of it, now (it must be ``cancellable``)."""
        assert self.ended is not None, "only a cancellable budget is cancelled"
        self.ended.set()

    def cancelled(self) -> bool:
        return self.ended is not None and self.ended.is_set()

    def until(self, deadline: float) -> Budget:
        """A budget that ends at ``deadline`` (a value of this budget's clock), keeping its cancel."""
        now = self.now()
        return Budget(max(0.0, deadline - now), now, self.ended, self.clock)

    def forked(self, ended=None) -> Budget:
        """This budget as the processes forked from this one next read it (only they), ended by
        ``ended`` (a process-shared event) too: on the wall clock, the same deadline (the clock is
        the machine's); on the cpu clock, what is left now, on each forked process's own processor
        time, which starts at 0."""
        # the machine's clock; the work counted so far, copied by the fork
        if self.clock in (
            "wall",
            "work",
        ):
            return Budget(self.time_limit, self.t0, ended, self.clock)
        return Budget(self.left(), 0.0, ended, "cpu")

    @property
    def deadline(self) -> float:
        """When the budget ends, as a value of its clock (its start, once cancelled)."""
        return self.t0 if self.cancelled() else self.t0 + self.time_limit

    def left(self) -> float:
        """Seconds left (0 once spent or cancelled)."""
        return max(0.0, self.deadline - self.now())

    def elapsed(self) -> float:
        """Seconds spent, on the budget's clock."""
        return self.now() - self.t0

    def seconds(self) -> float:
        """Seconds since the budget was made, on the wall clock: what a record or a message says
        the work took (on the cpu clock too, where ``elapsed`` is the work)."""
        return time.perf_counter() - self.began

    def expired(self) -> bool:
        return self.now() >= self.deadline

    def share(self, fraction: float) -> Budget:
        """A budget of its own for ``fraction`` of the time left now."""
        return self._kin(fraction * self.left(), ended=self.ended)

    def within(self, seconds: float) -> Budget:
        """This budget cut to at most ``seconds`` from now."""
        return self._kin(min(seconds, self.left()), ended=self.ended)

    def wall_deadline(self) -> float:
        """The deadline in wall-clock time (``time.time()``), for another machine's worker (a "cpu"
        budget's seconds left, as wall-clock seconds from now)."""
        return time.time() + self.left()
