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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Budget:
    """``time_limit`` seconds from ``t0`` (a ``time.perf_counter()`` value, by default now)."""

    time_limit: float
    t0: float = field(default_factory=time.perf_counter)

    @classmethod
    def until(cls, deadline: float) -> Budget:
        """The budget that ends at ``deadline`` (a ``time.perf_counter()`` value)."""
        now = time.perf_counter()
        return cls(max(0.0, deadline - now), now)

    @property
    def deadline(self) -> float:
        """When the budget ends, as a ``time.perf_counter()`` value."""
        return self.t0 + self.time_limit

    def left(self) -> float:
        """Seconds left (0 once spent)."""
        return max(0.0, self.deadline - time.perf_counter())

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def expired(self) -> bool:
        return time.perf_counter() >= self.deadline

    def share(self, fraction: float) -> Budget:
        """A budget of its own for ``fraction`` of the time left now."""
        return Budget(fraction * self.left())

    def within(self, seconds: float) -> Budget:
        """This budget cut to at most ``seconds`` from now."""
        return Budget(min(seconds, self.left()))

    def wall_deadline(self) -> float:
        """The deadline in wall-clock time (``time.time()``), for another machine's worker."""
        return time.time() + self.left()
