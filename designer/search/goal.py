"""``Goal``: what a design is after, the one way every stage is told.

Either *meet* K (the first verified level of at least K min stops will do) or *maximize*
(the most min stops the time allows, the request's K and band still holding).

>>> Goal.meet(25).met_by(25), Goal.meet(25).maximizing
(True, False)
>>> Goal.maximize().met_by(99), Goal.maximize().maximizing
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Goal:
    """``target``: the K to meet; None when maximizing."""

    target: int | None

    @classmethod
    def meet(cls, stops: int) -> Goal:
        return cls(stops)

    @classmethod
    def maximize(cls) -> Goal:
        return cls(None)

    @property
    def maximizing(self) -> bool:
        return self.target is None

    def met_by(self, stops: int) -> bool:
        """Whether a level of ``stops`` min stops ends the search (never, when maximizing)."""
        return self.target is not None and stops >= self.target

    def short(self, stops: int) -> bool:
        """Whether a level of ``stops`` falls short of a target (never, when maximizing)."""
        return self.target is not None and stops < self.target
