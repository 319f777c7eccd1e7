"""The choices of a playtest as the player family sees them: every move a player chose, with what
that attempt had seen before it, so that its probability under a player with memory is exact.

A replay (``designer.studies.playtests.replay``) keeps each choice with its attempt, in order.
Walking an attempt's choices gives, at each one, the stops seen so far this attempt (the start,
and the end of every move made, undone ones too), the moves made from each stop (``variety``
reads which are not yet) and the moves made since a new stop last came into sight: what
``memory`` and ``patience`` read. A choice made on a stop the exit cannot be
reached from tells the family nothing (the model has restarted there), and is left out. A move
made where the exit is in sight is kept, marked (``exit``: the moves onto it): it tells only of a
member who may not notice the exit (``notice``; the others always take it); a restart asked for
there is left out (no member gives up with the exit in sight).

>>> from designer.core.level import Level
>>> from designer.formats.playtest_log import Event, Log, level_id, pack_id
>>> from designer.studies.playtests import replay
>>> level = Level.from_rows(["#####", "#S..#", "#.#G#", "#####"])
>>> ident = level_id(level.rows())
>>> log = Log(pack_id([ident]), (("one", ident),), (Event("v", 0, 0, 1, "start"),
...     Event("v", 1, 0, 1, "move", "d", (2, 1)), Event("v", 2, 0, 1, "move", "u", (1, 1)),
...     Event("v", 3, 0, 1, "move", "r", (1, 3)), Event("v", 4, 0, 1, "move", "d", (2, 3)),
...     Event("v", 4, 0, 1, "finish", moves=4)))
>>> seen = choices_of(replay([("log", log)], [("one", level)]), [("one", level)])
>>> seen.stale.tolist(), seen.new.astype(int).tolist()
([0, 0, 1, 0], [[0, 1, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
>>> seen.exit.any(axis=1).tolist(), seen.in_sight, seen.against
([False, False, False, True], 1, 0)
>>> seen.untried[2].astype(int).tolist()  # back on the start: down made, right not yet
[0, 0, 0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.analysis import player as model
from designer.analysis.player_sight import route_gain, toward
from designer.core.items import state_table
from designer.core.level import Level
from designer.core.players import MOST_FORESIGHT
from designer.core.rules import NO_MOVE
from designer.studies.playtests import RESTART, Replayed


@dataclass(frozen=True)
class Choices:
    """Every choice, one row each (``count`` of them): its level (the pack's index), attempt and
    state, the moves open (``valid`` (count, 4)), how much nearer the exit each brings a player
    who looks f moves ahead (``toward`` (foresight + 1, count, 4)), which is the move back
    (``back``), which end on a stop not seen this attempt (``new``), the moves each takes off the
    fewest to the exit (``route``), which turn right or left of the last move (``side``: 1, -1),
    the moves since a new stop (``stale``), the move chosen (``move``: ``RESTART`` for a
    restart), the moves onto the exit (``exit``: none away from its sight), and the moves not
    yet made from that stop this attempt (``untried``). ``in_sight``
    counts the moves made with the exit in sight, ``against`` those that did not take it."""

    level: np.ndarray
    attempt: np.ndarray
    state: np.ndarray
    valid: np.ndarray
    toward: np.ndarray
    back: np.ndarray
    new: np.ndarray
    route: np.ndarray
    side: np.ndarray
    stale: np.ndarray
    move: np.ndarray
    exit: np.ndarray
    untried: np.ndarray
    in_sight: int
    against: int

    @property
    def count(self) -> int:
        return int(self.move.size)

    def where(self, keep: np.ndarray) -> Choices:
        """The rows ``keep`` (a mask) only."""
        return Choices(
            self.level[keep],
            self.attempt[keep],
            self.state[keep],
            self.valid[keep],
            self.toward[:, keep],
            self.back[keep],
            self.new[keep],
            self.route[keep],
            self.side[keep],
            self.stale[keep],
            self.move[keep],
            self.exit[keep],
            self.untried[keep],
            self.in_sight,
            self.against,
        )

    def away(self) -> Choices:
        """The choices made away from the exit's sight: all that a member who always takes the
        exit is fitted on."""
        return self.where(np.logical_not(self.exit.any(axis=1)))

    def same(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows that differ (one of each set of choices with the same level, state, move
        back, new stops, moves not yet made and move: the same chance under every player), and
        how many each stands for."""
        bits = (self.new * np.array([1, 2, 4, 8])).sum(axis=1)
        bits += (self.untried * np.array([16, 32, 64, 128])).sum(axis=1)
        back = np.where(self.back.any(axis=1), self.back.argmax(axis=1), 4)
        key = np.stack([self.level, self.state, back, bits, self.move], axis=1)
        _, first, counts = np.unique(key, axis=0, return_index=True, return_counts=True)
        return first, counts


def choices_of(found: Replayed, pack: list[tuple[str, Level]]) -> Choices:
    """The choices of a replay (see the module docstring)."""
    tables = [state_table(level) for _, level in pack]
    alive = [model.alive_states(table) for table in tables]
    rows: list[tuple[int, int, int, int, int, int]] = []  # level, attempt, state, last, move, stale
    news: list[list[bool]] = []
    untried: list[list[bool]] = []
    in_sight = against = 0
    seen: set[int] = set()
    tried: set[tuple[int, int]] = set()
    current, stale = -1, 0
    for choice in sorted(found.choices, key=lambda c: c.attempt):  # stable: an attempt in order
        table = tables[choice.level]
        if choice.attempt != current:
            current, seen, tried, stale = choice.attempt, {table.start}, set(), 0
        ends = table.dest[:, choice.state].tolist()
        if not alive[choice.level][choice.state]:
            continue  # on a stop the exit cannot be reached from: the model has restarted
        if table.goal in ends:
            if choice.move == RESTART:
                continue
            in_sight += 1
            against += ends[choice.move] != table.goal
        rows.append((choice.level, choice.attempt, choice.state, choice.last, choice.move, stale))
        news.append([end not in (NO_MOVE, table.goal) and end not in seen for end in ends])
        untried.append([(choice.state, d) not in tried for d in range(4)])
        if choice.move == RESTART:
            continue
        tried.add((choice.state, choice.move))
        end = ends[choice.move]
        if end in seen:
            stale += 1
        else:
            seen.add(end)
            stale = 0
    return _arrays(tables, pack, rows, news, untried, in_sight, against)


def _arrays(tables, pack, rows, news, untried, in_sight: int, against: int) -> Choices:
    count = len(rows)
    level, attempt, state, last, move, stale = (
        np.array([row[j] for row in rows], np.int64).reshape(count) for j in range(6)
    )
    valid = np.zeros((count, 4), bool)
    near = np.zeros((MOST_FORESIGHT + 1, count, 4))
    route = np.zeros((count, 4))
    exit_ = np.zeros((count, 4), bool)
    for k, table in enumerate(tables):
        at = np.flatnonzero(level == k)
        if not at.size:
            continue
        valid[at] = (table.dest[:, state[at]] != NO_MOVE).T
        exit_[at] = (table.dest[:, state[at]] == table.goal).T
        route[at] = route_gain(table, state[at]).T
        for f in range(MOST_FORESIGHT + 1):
            near[f, at] = toward(table, state[at], pack[k][1].height, f).T
    back_of = np.where(last < 4, model.OPPOSITE[np.minimum(last, 3)], -1)
    back = np.arange(4)[None, :] == back_of[:, None]
    new = np.array(news, bool).reshape(count, 4)
    side = np.where(valid, model.SIDE[np.minimum(last, model.NO_LAST)], 0.0)
    return Choices(
        level,
        attempt,
        state,
        valid,
        near,
        back,
        new,
        route,
        side,
        stale,
        move,
        exit_,
        np.array(untried, bool).reshape(count, 4) & valid,
        in_sight,
        against,
    )
