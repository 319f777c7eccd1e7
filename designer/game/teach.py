"""Whether a level teaches its mechanic, by ablation (docs/spec.md, "Games"): with the mechanic
taken away (``designer.game.mechanics``) the level is unsolvable or its par changes, and every
fewest-moves solution uses the mechanic.

A move *uses* the mechanic when taking it away changes where the move ends (or how far it
slides): it stops on snow, falls into a teleport, a ladder or a hole, or crosses a wrapping
edge. Every fewest-moves solution uses it when the moves that do not are too few to reach the
exit in par. An item must be taken before the exit opens, and a full clear takes every coin: by
the rules every solution of such a level uses them, and their par is what changes (a coin's:
the full clear's moves against the exit's).

>>> from designer.core.level import Level
>>> level = Level.from_ascii("######\\n#S#..#\\n#.#.G#\\n#_...#\\n#.####\\n######")
>>> found = ablation(level, "snow")
>>> found.par, found.par_away, found.every_fewest_uses, found.teaches
(3, None, True, True)
>>> found.words()
'with snow as ice: unsolvable (par 3 with it); every fewest-moves solution uses it'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.core.level import Level
from designer.core.rules import NO_MOVE, slide_table
from designer.game.mechanics import MECHANICS


@dataclass(frozen=True)
class Ablation:
    """A level's par with its ``mechanic`` (``par``: the exit's, or the full clear's for coins)
    and with it taken away (``par_away``; None: unsolvable), and whether every fewest-moves
    solution uses it."""

    mechanic: str
    par: int
    par_away: int | None
    every_fewest_uses: bool

    @property
    def teaches(self) -> bool:
        """The mechanic is necessary: the level cannot do without it, or its par changes, and
        every fewest-moves solution uses it."""
        return self.par > 0 and self.par_away != self.par and self.every_fewest_uses

    def words(self) -> str:
        mechanic = MECHANICS[self.mechanic]
        away = "unsolvable" if self.par_away is None else f"par {self.par_away}"
        uses = "uses it" if self.every_fewest_uses else "does not always use it"
        rule = " (by the rules)" if mechanic.by_rule else ""
        return (
            f"with {mechanic.taken_away}: {away} (par {self.par} with it); every fewest-moves "
            f"solution {uses}{rule}"
        )

    def to_dict(self) -> dict:
        return {
            "mechanic": self.mechanic,
            "taken_away": MECHANICS[self.mechanic].taken_away,
            "par": self.par,
            "par_away": self.par_away,
            "every_fewest_uses": self.every_fewest_uses,
            "teaches": self.teaches,
        }


def ablation(level: Level, mechanic: str) -> Ablation:
    """The ablation of ``level``'s ``mechanic`` (a name of ``MECHANICS``)."""
    from designer.analysis.classify import min_stops

    one = MECHANICS[mechanic]
    away = one.away(level)
    if mechanic == "coins":
        from designer.analysis.tour import full_clear

        plain = min_stops(away)
        tour = full_clear(level)
        par = len(tour.moves) if tour.moves is not None else 0
        return Ablation(mechanic, par, plain if plain > 0 else None, True)
    if mechanic == "items":
        par, plain = min_stops(level), min_stops(away)
        return Ablation(mechanic, max(par, 0), plain if plain > 0 else None, True)
    dest, length = slide_table(level)
    dest_away, length_away = slide_table(away)
    kept = (dest == dest_away) & (length == length_away)
    fewest = _fewest(level, dest, np.ones_like(kept))
    plain = min_stops(away)
    avoiding = _fewest(level, dest, kept)
    return Ablation(
        mechanic,
        fewest or 0,
        plain if plain > 0 else None,
        fewest is not None and (avoiding is None or avoiding > fewest),
    )


def _fewest(level: Level, dest: np.ndarray, allowed: np.ndarray) -> int | None:
    """The fewest moves from the start to the goal of a level without items, by the moves of
    ``dest`` (directions by cells) that ``allowed`` keeps; None when the goal is not reached.
    No move leaves the goal."""
    start, goal = level.index(level.start), level.index(level.goal)
    seen, frontier, moves = {start}, [start], 0
    while frontier:
        if goal in frontier:
            return moves
        moves += 1
        step = []
        for cell in frontier:
            for d in range(4):
                to = int(dest[d, cell])
                if to != NO_MOVE and allowed[d, cell] and to not in seen:
                    seen.add(to)
                    step.append(to)
        frontier = step
    return None


def cave_ablation(cave, mechanic: str) -> dict | None:
    """What the cave that ends a world of ``mechanic`` holds of it, taken away: snow as ice, the
    coins' full clear against the way through, each ladder and hole as a wall; its ``par`` with
    it and ``par_away`` without (None: the exit cannot be reached). Keys are the items world's
    (each key's verdict is the cave's own, ``keys_needed``); a cave's rooms hold no teleports and
    do not wrap: None for those, and for a cave without the mechanic.

    >>> from designer.caves.cave import Cave
    >>> cave = Cave.parse("room a\\n#1###\\n#..##\\n#._.2\\n#####\\nentrance a:1\\nexit a:2")
    >>> found = cave_ablation(cave, "snow")
    >>> found
    {'mechanic': 'snow', 'taken_away': 'snow as ice', 'par': 3, 'par_away': 2}
    >>> held_words(found)
    'With snow as ice: par 2 (par 3 with it).'
    """
    from dataclasses import replace

    from designer.caves.graph import solve

    way = solve(cave)
    par = way.stops if way else None
    if mechanic == "snow" and any("_" in row for room in cave.rooms for row in room.rows):
        rooms = tuple(
            replace(room, rows=tuple(row.replace("_", ".") for row in room.rows))
            for room in cave.rooms
        )
        away = solve(replace(cave, rooms=rooms))
    elif mechanic == "coins" and any("$" in row for room in cave.rooms for row in room.rows):
        from designer.caves.coins import full_clear

        tour = full_clear(cave)
        par, away = (len(tour.moves) if tour.moves is not None else None), way
    elif mechanic == "floors" and _apart(cave):
        away = None  # the exit's floor is out of reach by doorways alone
    else:
        return None
    return {
        "mechanic": mechanic,
        "taken_away": MECHANICS[mechanic].taken_away,
        "par": par,
        "par_away": away.stops if away else None,
    }


def _apart(cave) -> bool:
    """Whether the exit's room is out of reach of the entrance's by doorways alone (every lock
    open): no way through without the ladders and holes."""
    import networkx as nx

    graph = nx.Graph([(link.a[0], link.b[0]) for link in cave.links if link.kind == "door"])
    graph.add_nodes_from(room.name for room in cave.rooms)
    return not nx.has_path(graph, cave.entrance[0], cave.exit[0])


def held_words(ablation: dict | None) -> str:
    """A cave's ``cave_ablation`` in a sentence ("" for none)."""
    if ablation is None:
        return ""
    away = "unsolvable" if ablation["par_away"] is None else f"par {ablation['par_away']}"
    return f"With {ablation['taken_away']}: {away} (par {ablation['par']} with it)."
