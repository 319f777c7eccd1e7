"""What a cave drawn from nothing holds beyond its counts and shape (``designer.caves.grammar``):
a ``Dressing`` (varied rooms, keys in more than one pattern, names, snow and coins), each key's
pattern as drawn (``patterns``) and as a cave shows it (``key_patterns``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from designer.caves.cave import Cave
from designer.caves.parts import ROOM_NAME
from designer.core.errors import RequestError, literal


@dataclass(frozen=True)
class Dressing:
    """What a cave drawn from nothing holds beyond its counts and shape: ``varied`` rooms (each
    main room's sides within 2 of the size asked, a vault's up to 3 smaller, corners cut off rooms
    of 9x9 and more, and keys in more than one pattern: ``patterns``), the ``names`` of its rooms
    (the main way's in order, then the key rooms', then a loop's two) and of its keys (the first
    key first), ``snow`` cells in each main room, and ``coins`` in as many rooms.

    >>> from designer.caves.grammar import draw
    >>> cave = draw(5, 2, (10, 10), seed=1, shape="gates", dressing=Dressing(True, snow=1))
    >>> sorted({room.shape for room in cave.rooms})
    [(7, 9), (8, 8), (8, 10), (9, 10), (9, 11)]
    >>> sorted({(link.b[0], link.lock) for link in cave.links if link.lock})  # a gate, a vault
    [('crypt', 'bronze'), ('gallery', 'silver')]
    >>> sum(row.count("_") for room in cave.rooms for row in room.rows)
    3
    """

    varied: bool = False
    names: tuple[str, ...] = ()
    key_names: tuple[str, ...] = ()
    snow: int = 0
    coins: int = 0

    def to_json(self) -> dict:
        """The fields given (those not at their defaults), for a cave's generator record."""
        found = {"varied": self.varied, "names": list(self.names)}
        found |= {"key_names": list(self.key_names), "snow": self.snow, "coins": self.coins}
        return {name: value for name, value in found.items() if value}

    def check(self, rooms: int, keys: int) -> None:
        """One RequestError line for a dressing these counts cannot take."""
        for given, count, what, field_ in (
            (self.names, rooms, "rooms", "{names}"),
            (self.key_names, keys, "keys", "{key_names}"),
        ):
            if not given:
                continue
            if len(given) != count:
                raise RequestError(f"{field_} names {len(given)} {what}, not the {count} drawn")
            bad = [name for name in given if not ROOM_NAME.fullmatch(name)]
            if bad:
                raise RequestError(
                    f"{field_}: {literal(repr(bad[0]))} is not a name (1-32 letters, digits, - or _)"
                )
            if len(set(given)) < len(given):
                raise RequestError(f"{field_} names one of its {what} twice")
        if not 0 <= self.snow <= MAX_SNOW:
            raise RequestError(f"{{snow}} takes 0 to {MAX_SNOW} cells a room, not {self.snow}")
        if not 0 <= self.coins <= rooms:
            raise RequestError(f"{{coins}} takes 0 to {rooms} coins (one a room), not {self.coins}")


#: The most snow cells a dressing draws in a main room.
MAX_SNOW = 4


def patterns(shape: str, keys: int, varied: bool, rng: random.Random) -> list[str]:
    """Each key's pattern, the first key first: ``gate`` (the key opens a gate of the main way
    ahead) or ``chain`` (it opens the room of the next key). The last key opens a gate; in the
    chain shape every other key opens the next key's room; a varied cave of 2 keys or more has
    both patterns, and each of its keys but the last one takes either."""
    if shape == "chain":
        return ["chain"] * (keys - 1) + ["gate"] * min(keys, 1)
    if not varied or keys < 2:
        return ["gate"] * keys
    found = [rng.choice(("gate", "chain")) for _ in range(keys - 1)]
    found[rng.randrange(keys - 1)] = "chain"
    if keys > 2 and "gate" not in found:
        found[rng.randrange(keys - 1)] = "gate"
    return found + ["gate"]


def key_patterns(cave: Cave) -> list[str]:
    """Each key's pattern as a cave shows it, the first key first: ``chain`` when a link it locks
    leads to a room that holds a key, else ``gate``.

    >>> from designer.caves.grammar import draw
    >>> key_patterns(draw(7, 3, (9, 9), seed=1, shape="chain"))
    ['chain', 'chain', 'gate']
    >>> key_patterns(draw(7, 3, (9, 9), seed=0, shape="gates", dressing=Dressing(varied=True)))
    ['gate', 'chain', 'gate']
    """
    holding = {key.room for key in cave.keys}
    return [
        "chain"
        if any(link.lock == key.name and {link.a[0], link.b[0]} & holding for link in cave.links)
        else "gate"
        for key in cave.keys
    ]


#: A cave drawn plain: every room of the size asked, keys in its shape's pattern, the grammar's
#: names, no snow or coins.
PLAIN = Dressing()
