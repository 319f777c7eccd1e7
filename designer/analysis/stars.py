"""Star ratings against par: how well a player solved a level.

Par is the level's min stops (the moves of a fewest-moves solution). Solving in par moves earns
3 stars; in at most ``two`` moves, 2; in at most ``one`` moves, 1; in more, the level is solved
with no star. The thresholds are written into a JSON level as ``"stars": {"two": T2, "one": T1}``
(a pack's own, or the designer's default, ``Stars.default``); the play page and the Tiled export
read them from there.

>>> stars = Stars.default(12)
>>> stars
Stars(par=12, two=15, one=24)
>>> [stars.rating(moves) for moves in (12, 13, 15, 16, 24, 25)]
[3, 2, 2, 1, 1, 0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from designer.core.errors import LevelError


@dataclass(frozen=True)
class Stars:
    par: int  # the moves that earn 3 stars: the level's min stops
    two: int  # the most moves that earn 2 stars
    one: int  # the most moves that earn 1 star

    @classmethod
    def default(cls, par: int) -> Stars:
        """The designer's thresholds: 2 stars within a quarter over par (at least one move over),
        1 star within twice par."""
        two = par + max(1, math.ceil(par / 4))
        return cls(par, two, max(two, 2 * par))

    def rating(self, moves: int) -> int:
        """The stars a solution of ``moves`` moves earns (0 to 3)."""
        return 3 if moves <= self.par else 2 if moves <= self.two else 1 if moves <= self.one else 0

    def to_json(self) -> dict:
        return {"two": self.two, "one": self.one}

    @classmethod
    def from_json(cls, obj: object, par: int) -> Stars:
        """The thresholds of a JSON level's ``"stars"`` object, for a level of ``par`` min stops."""
        if (
            not isinstance(obj, dict)
            or set(obj) != {"two", "one"}
            or not all(type(obj[k]) is int for k in ("two", "one"))
        ):
            raise LevelError(
                'JSON level: "stars" must be {"two": N, "one": N}, the most moves for 2 and 1 stars'
            )
        if not par < obj["two"] <= obj["one"]:
            raise LevelError(
                f'JSON level: "stars" needs par ({par}) < two <= one, not two {obj["two"]}, '
                f"one {obj['one']}"
            )
        return cls(par, obj["two"], obj["one"])
