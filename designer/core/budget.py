"""``Budget``: the one clock of a piece of work.

Every search takes a ``Budget`` and asks it what is left; none keeps a deadline of its own
in another clock. The clock is ``time.perf_counter()`` (on Linux the same clock in every process
of the machine, so forked chains can share a budget). A budget is converted to another form only
where it leaves Python: seconds for a kernel call (``left()``), wall-clock time for a cluster
worker (``wall_deadline()``).

>>> budget = Budget(10.0)
>>> 9.0 < budget.left() <= 10.0
True
>>> 4.0 < budget.share(0.5).left() <= 5.0
True

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

import time
from dataclasses import dataclass, field

from designer.core.control import CancelToken


@dataclass(frozen=True)
class Budget:
    """``time_limit`` seconds from ``t0`` (a ``time.perf_counter()`` value, by default now)."""

    time_limit: float
    t0: float = field(default_factory=time.perf_counter)
    # set: nothing is left (a CancelToken, or a process-shared event in forked searches)
    ended: CancelToken | None = field(default=None, compare=False, repr=False)

    def cancellable(self) -> Budget:
        """This budget (same start and limit), which ``cancel`` can end early with its shares; the
        token it carried still ends it too."""
        parent = self.ended if isinstance(self.ended, CancelToken) else None
        return Budget(self.time_limit, self.t0, CancelToken(parent))

    def cancel(self) -> None:
        """End this budget, and every share and cut of it, now (it must be ``cancellable``)."""
        self.ended.set()

    def cancelled(self) -> bool:
        return self.ended is not None and self.ended.is_set()

    @classmethod
    def until(cls, deadline: float) -> Budget:
        """The budget that ends at ``deadline`` (a ``time.perf_counter()`` value)."""
        now = time.perf_counter()
        return cls(max(0.0, deadline - now), now)

    @property
    def deadline(self) -> float:
        """When the budget ends, as a ``time.perf_counter()`` value (its start, once cancelled)."""
        return self.t0 if self.cancelled() else self.t0 + self.time_limit

    def left(self) -> float:
        """Seconds left (0 once spent or cancelled)."""
        return max(0.0, self.deadline - time.perf_counter())

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def expired(self) -> bool:
        return time.perf_counter() >= self.deadline

    def share(self, fraction: float) -> Budget:
        """A budget of its own for ``fraction`` of the time left now."""
        return Budget(fraction * self.left(), ended=self.ended)

    def within(self, seconds: float) -> Budget:
        """This budget cut to at most ``seconds`` from now."""
        return Budget(min(seconds, self.left()), ended=self.ended)

    def wall_deadline(self) -> float:
        """The deadline in wall-clock time (``time.time()``), for another machine's worker."""
        return time.time() + self.left()
