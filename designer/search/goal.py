"""``Goal``: what a design is after, the one way every stage is told.

Either *meet* a target (the first verified level that reaches it will do) or *maximize* (the
most the time allows, every constraint of the request still holding). What is counted is the
``objective``: min stops, or the options along the printed solution (source 000's second
measure; ``--min-choices`` and ``--maximize-choices``).

>>> Goal.meet(25).met_by(25), Goal.meet(25).maximizing
(True, False)
>>> Goal.maximize().met_by(99), Goal.maximize().maximizing
(False, True)
>>> Goal.meet(40, "options").objective
'options'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Goal:
    """``target``: the count to meet (of ``objective``); None when maximizing."""

    target: int | None
    objective: str = (
        "stops"  # "stops", "options", or a room's "per_stop" (designer.search.engines.rooms)
    )

    @classmethod
    def meet(cls, count: int, objective: str = "stops") -> Goal:
        return cls(count, objective)

    @classmethod
    def maximize(cls, objective: str = "stops") -> Goal:
        return cls(None, objective)

    @property
    def maximizing(self) -> bool:
        return self.target is None

    def met_by(self, stops: int) -> bool:
        """Whether a level of ``stops`` min stops ends the search (never, when maximizing)."""
        return self.target is not None and stops >= self.target

    def short(self, stops: int) -> bool:
        """Whether a level of ``stops`` falls short of a target (never, when maximizing)."""
        return self.target is not None and stops < self.target
