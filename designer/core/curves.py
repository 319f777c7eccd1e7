"""A pack's curve (``Curve``): its axis and the targets of its first and last level, read from
``--curve A..B`` once for both axes, with the targets of every level between.

The words of difficulty each have one name: a *preset* is a named band of min stops
(``designer.search.difficulty.PRESETS``, ``--difficulty NAME``); a *target* is the predicted
difficulty a level is asked for (``LayoutRequest.difficulty``, 1 to 10,
``designer.search.felt``); a curve's *axis* is what it rises in, min stops ("stops") or
predicted difficulty ("difficulty", ``--curve-by``).

>>> curve = Curve.parse("5..35", "stops")
>>> curve, curve.targets(7)
(Curve(axis='stops', low=5, high=35), [5, 10, 15, 20, 25, 30, 35])
>>> Curve.parse("2..8", "difficulty").targets(4)
[2.0, 4.0, 6.0, 8.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from designer.core.bands import Band
from designer.core.errors import RequestError, literal

#: Each axis: an example of its form, and the words of the range its targets keep to.
AXES = {
    "stops": ("5..35", "needs 1 <= A <= B"),
    "difficulty": ("2..8", "by difficulty needs 1 <= A <= B <= 10"),
}


@dataclass(frozen=True)
class Curve:
    """Targets rising evenly from ``low`` (the first level's) to ``high`` (the last level's) along
    ``axis``: whole min stops, or predicted difficulty to two decimals."""

    axis: str
    low: float
    high: float

    @classmethod
    def parse(cls, text: str, axis: str) -> Curve:
        """'A..B' on ``axis``; DesignerError (one line) for anything else, or a range the axis
        does not take (min stops at least 1; predicted difficulty 1 to 10), falling."""
        example, words = AXES[axis]
        try:
            band = Band.parse(text, int if axis == "stops" else float)
        except ValueError:
            band = None
        if band is None or band.high is None:
            raise RequestError(
                f"{{curve}} {literal(repr(text))} is not of the form A..B, e.g. {example}"
            )
        low, high = band.low, band.high
        top = math.inf if axis == "stops" else 10
        if not (1 <= low <= high <= top) or math.isnan(low) or math.isnan(high):
            raise RequestError(f"{{curve}} {literal(repr(text))} {words}")
        return cls(axis, low, high)

    def targets(self, count: int) -> list:
        """The target of each of ``count`` levels, rising evenly from ``low`` to ``high``: whole
        min stops (give or take one where the steps are short), or a difficulty to two decimals."""
        if self.axis == "stops":
            if count == 1:
                return [self.low]
            return [
                round(self.low + k * (self.high - self.low) / (count - 1)) for k in range(count)
            ]
        if count == 1:
            return [float(self.low)]
        return [round(self.low + k * (self.high - self.low) / (count - 1), 2) for k in range(count)]
