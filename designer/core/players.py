"""The family of players the model predicts for (docs/spec.md "Difficulty", docs/player.md).

A player rests on a stop and picks one of the moves open there by a softmax over what they see
of each move (``designer.analysis.player`` says how the simplest member weighs them). The family
adds what people do that the simplest member does not:

- ``foresight``: the moves the player looks ahead of where a move ends, for the stop nearest
  the exit (``designer.analysis.player_sight``); 0 sees only where it ends;
- ``memory``: how much the player prefers a stop not yet seen this attempt (0: no memory);
- ``lapse``: the share of moves made at random, whatever the player sees;
- ``patience``: how many moves in a row without a new stop the player makes before they give up
  and restart (the chance to give up after k such moves is 1 / (1 + exp(patience - k)); None:
  never);
- ``route``: how much the player knows the way: the weight of a move that takes a move off the
  fewest to the exit (``designer.analysis.player_sight.route_gain``; 0: they do not know it, as
  on a first play; large: they play the solution);
- ``turn``: a habit of turning one way, as a maze walker keeps a hand on one wall: the weight of
  the move right of the last one, and minus it of the move left of it (negative: left);
- ``notice``: the chance that the player sees an exit one move away and takes it (1, as every
  member but the follower: always); a player who does not notice it picks as anywhere else, the
  move onto the exit one of the moves open (a player of habits walks past the exit);
- ``variety``: how much the player prefers a move it has not made from this stop this attempt
  (0: no such memory), as one who tries another way from a stop where the last one failed.

Each member names the parameters it fits (at most 5); the others keep their values of no effect.
``simple`` is the player of issue 50, unchanged; a member with no memory and no patience is a
Markov chain over (stop, last move), solved exactly; one with memory (of stops or of moves) is
played out
(``designer.analysis.player_runs``).

>>> Player().member, Player().exact
('simple', True)
>>> Player.from_json({"format": "ice-designer player 1", "skill": 2, "back_aversion": 0.5})
Player(skill=2, back_aversion=0.5, memory=0.0, foresight=0, lapse=0.0, patience=None, route=0.0, turn=0.0, notice=1.0, variety=0.0, member='simple')
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from designer.core.errors import DesignerError
from designer.core.limits import MAX_PATIENCE, PLAYER_RANGE

#: Each member's parameters, the ones a fit of it chooses (docs/player.md says how they compare).
MEMBERS = {
    "simple": ("skill", "back_aversion"),
    "careful": ("skill", "back_aversion", "foresight", "lapse"),
    "explorer": ("skill", "back_aversion", "memory", "foresight", "lapse"),
    "impatient": ("skill", "back_aversion", "memory", "lapse", "patience"),
    "seeker": ("skill", "memory", "foresight", "lapse", "patience"),
    "knowing": ("skill", "back_aversion", "route", "lapse"),
    "follower": ("skill", "back_aversion", "turn", "lapse", "notice"),
    "tinkerer": ("skill", "back_aversion", "variety", "lapse"),
}
#: Every parameter, in the order a player file writes them.
PARAMETERS = (
    "skill",
    "back_aversion",
    "memory",
    "foresight",
    "lapse",
    "patience",
    "route",
    "turn",
    "notice",
    "variety",
)
#: The parameters a member gained after its files were first written: a file without one holds
#: its value of no effect (a follower's file from before ``notice`` always notices the exit).
LATER = ("notice",)
#: The most moves a player looks ahead.
MOST_FORESIGHT = 3
PLAYER_FORMAT = "ice-designer player 1"


@dataclass(frozen=True)
class Player:
    """A member of the family and its parameters (see the module docstring); the defaults are
    the simple member that ranks glissade's 26 levels closest to their designer's order
    (docs/player.md says how weakly)."""

    skill: float = 2.0
    back_aversion: float = 0.5
    memory: float = 0.0
    foresight: int = 0
    lapse: float = 0.0
    patience: float | None = None
    route: float = 0.0
    turn: float = 0.0
    notice: float = 1.0
    variety: float = 0.0
    member: str = "simple"

    def __post_init__(self) -> None:
        if self.member not in MEMBERS:
            raise DesignerError(
                f"the player is of an unknown member {self.member!r} (the family: "
                f"{', '.join(MEMBERS)})"
            )
        for name in PARAMETERS:
            value = getattr(self, name)
            if name == "patience" and value is None:
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise DesignerError(f"the player's {name} must be a finite number, not {value!r}")
            low, high = RANGES[name]
            if not low <= value <= high:
                raise DesignerError(f"the player's {name} must lie in {low}..{high}, not {value!r}")
        if not isinstance(self.foresight, int):
            raise DesignerError(
                f"the player's foresight must be a whole number of moves, not {self.foresight!r}"
            )
        for name in PARAMETERS:
            if name not in MEMBERS[self.member] and getattr(self, name) != NO_EFFECT[name]:
                raise DesignerError(
                    f"the {self.member} player has no {name} (its parameters: "
                    f"{', '.join(MEMBERS[self.member])})"
                )

    @classmethod
    def of(cls, member: str, **values) -> Player:
        """The ``member`` with ``values`` (its parameters), every other parameter at its value of
        no effect (DesignerError, one line, for an unknown member or a parameter it has not).

        >>> Player.of("seeker", skill=2.0, memory=1.0, foresight=1, lapse=0.1, patience=12.0)
        Player(skill=2.0, back_aversion=0.0, memory=1.0, foresight=1, lapse=0.1, patience=12.0, route=0.0, turn=0.0, notice=1.0, variety=0.0, member='seeker')
        """
        if member not in MEMBERS:
            raise DesignerError(
                f"the player is of an unknown member {member!r} (the family: {', '.join(MEMBERS)})"
            )
        fixed = {name: NO_EFFECT[name] for name in PARAMETERS if name not in MEMBERS[member]}
        return cls(member=member, **{**fixed, **values})

    @property
    def exact(self) -> bool:
        """Whether the player is a Markov chain over (stop, last move): no memory of stops or of
        moves, no giving up."""
        return self.memory == 0 and self.variety == 0 and self.patience is None

    def to_json(self) -> dict:
        """The player as a file holds it: its member and that member's parameters."""
        return {
            "format": PLAYER_FORMAT,
            "member": self.member,
            **{name: getattr(self, name) for name in MEMBERS[self.member]},
        }

    def as_request(self) -> tuple:
        """The player as a request keeps it (``LayoutRequest.player``): the simple player as the
        pair (skill, back aversion), as issue 50's records hold it; another member as the
        (name, value) pairs of its file, member first."""
        if self.member == "simple":
            return (float(self.skill), float(self.back_aversion))
        return tuple((name, value) for name, value in self.to_json().items() if name != "format")

    @classmethod
    def from_request(cls, value: tuple) -> Player:
        """The player of ``as_request``'s tuple (DesignerError, one line, for another)."""
        if len(value) == 2 and all(isinstance(x, (int, float)) for x in value):
            return cls(*value)
        return cls.from_json({"format": PLAYER_FORMAT, **dict(value)})

    @classmethod
    def from_json(cls, obj: object) -> Player:
        """A player read back (a file without ``member`` is the simple player of issue 50);
        DesignerError (one line) for anything else."""
        if not isinstance(obj, dict) or obj.get("format") != PLAYER_FORMAT:
            raise DesignerError(f'a player file is a JSON object with "format": "{PLAYER_FORMAT}"')
        member = obj.get("member", "simple")
        if not isinstance(member, str) or member not in MEMBERS:
            raise DesignerError(
                f"the player file names an unknown member {member!r} (the family: "
                f"{', '.join(MEMBERS)})"
            )
        wanted = MEMBERS[member]
        unknown = sorted(set(obj) - {"format", "member", "fit", *wanted})
        if unknown:
            raise DesignerError(
                f"the player file has a field {unknown[0]!r} that the {member} player has not"
            )
        missing = [name for name in wanted if name not in obj and name not in LATER]
        if missing:
            raise DesignerError(
                f"the player file gives no {missing[0]} (the {member} player's parameters: "
                f"{', '.join(wanted)})"
            )
        return cls.of(member, **{name: obj.get(name, NO_EFFECT[name]) for name in wanted})


#: Each parameter's range (a player file's values are checked against it).
RANGES = {
    "skill": (-PLAYER_RANGE, PLAYER_RANGE),
    "back_aversion": (-PLAYER_RANGE, PLAYER_RANGE),
    "memory": (-PLAYER_RANGE, PLAYER_RANGE),
    "foresight": (0, MOST_FORESIGHT),
    "lapse": (0, 1),
    "patience": (0, MAX_PATIENCE),
    "route": (-PLAYER_RANGE, PLAYER_RANGE),
    "turn": (-PLAYER_RANGE, PLAYER_RANGE),
    "notice": (0, 1),
    "variety": (-PLAYER_RANGE, PLAYER_RANGE),
}
#: The value of each parameter that has no effect: what a member without it holds.
NO_EFFECT = {
    "skill": 0.0,
    "back_aversion": 0.0,
    "memory": 0.0,
    "foresight": 0,
    "lapse": 0.0,
    "patience": None,
    "route": 0.0,
    "turn": 0.0,
    "notice": 1.0,
    "variety": 0.0,
}
DEFAULT = Player()
