"""Playtests read against their pack: each log replayed by the rules, figures per level, and the
model's player fitted to the moves people made (docs/spec.md "Playtests").

``replay(logs, pack)`` walks every event of every log (``designer.formats.playtest_log``) on the
pack's levels, checking each move against the rules: a move the rules do not give is refused,
so a log of another pack (or a damaged one) cannot pass for this one. It returns, per level, the
players' figures (``LevelStats``), and every choice a player made at a stop (``Choice``), which is
what ``fit`` reads: each logged move is a choice among the moves its stop offered, so the
likelihood of the model's player is exact.

>>> from designer.core.level import Level
>>> from designer.formats.playtest_log import Event, Log, level_id, pack_id
>>> level = Level.from_rows(["####", "#SG#", "####"])
>>> ident = level_id(level.rows())
>>> log = Log(pack_id([ident]), (("one", ident),), (Event("v", 0, 0, 1, "start"),
...           Event("v", 800, 0, 1, "move", "r", (1, 2)), Event("v", 800, 0, 1, "finish", moves=1)))
>>> found = replay([("log", log)], [("one", level)])
>>> stats = found.levels[0]
>>> stats.players, stats.finished, stats.moves
(1, 1, [1])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from designer.analysis import player as model
from designer.core.errors import DesignerError
from designer.core.items import States, state_table
from designer.core.level import Level
from designer.core.rules import NO_MOVE
from designer.formats.playtest_log import MOVES, Log, level_id, many_objects, pack_id


@dataclass
class LevelStats:
    """What the players did on one level."""

    name: str
    par: int
    players: int = 0  # visits that started it
    finished: int = 0  # of those, the ones that reached the exit without the solver
    # each finisher's moves, every attempt, to the first finish
    moves: list[int] = field(default_factory=list)
    # each finisher's time from the first start to the finish
    seconds: list[float] = field(default_factory=list)
    # each finisher's finishing attempt, moves over par
    over_par: list[int] = field(default_factory=list)
    restarts: list[int] = field(default_factory=list)  # each player's restarts
    undos: list[int] = field(default_factory=list)
    hints: list[int] = field(default_factory=list)
    solver: int = 0  # players who asked the solver
    quits: Counter = field(default_factory=Counter)  # cell -> players who left unfinished there
    rests: Counter = field(default_factory=Counter)  # cell -> stops players made there
    restarted_at: Counter = field(default_factory=Counter)  # cell -> restarts from there

    @property
    def share_finished(self) -> float:
        return self.finished / self.players if self.players else 0.0

    def to_json(self) -> dict:
        def quartiles(values):
            return None if not values else [float(np.percentile(values, q)) for q in (25, 50, 75)]

        return {
            "name": self.name,
            "par": self.par,
            "players": self.players,
            "finished": self.finished,
            "share_finished": round(self.share_finished, 4),
            "moves": quartiles(self.moves),
            "seconds": quartiles(self.seconds),
            "over_par": quartiles(self.over_par),
            "restarts": _mean(self.restarts),
            "undos": _mean(self.undos),
            "hints": _mean(self.hints),
            "solver": self.solver,
            "quit_at": [[list(cell), n] for cell, n in self.quits.most_common(3)],
        }


def _mean(values) -> float | None:
    return round(float(np.mean(values)), 3) if values else None


class Choice(NamedTuple):
    """One move a player chose: on level ``level`` (the pack's index), from ``state`` after the
    move ``last`` (``model.NO_LAST``: none yet), the direction ``move`` (0-3: u, d, l, r), or
    ``RESTART`` (4): a restart the player asked for there. ``attempt`` numbers the attempt it was
    made in (1, 2, ... over the whole replay): an attempt's choices come in the order they were
    made, so what the player had seen at each one follows from those before it."""

    level: int
    state: int
    last: int
    move: int
    attempt: int


#: A ``Choice``'s move when the player restarted rather than move.
RESTART = 4


@dataclass
class Replayed:
    levels: list[LevelStats]
    choices: list[Choice]
    skipped: (
        Counter  # level name (as the log has it) -> events skipped: the level is not in the pack
    )
    attempts: int = 0


class _Table:
    """A level's states for the replay: the move table as Python lists (read once per event)."""

    def __init__(self, states: States) -> None:
        self.states = states
        self.dest = states.dest.tolist()
        self.start, self.goal, self.cells, self.width = (
            states.start,
            states.goal,
            states.cells,
            states.width,
        )
        self.cell_of = [
            divmod(state % self.cells, self.width) for state in range(len(self.dest[0]))
        ]

    def cell(self, state: int) -> tuple[int, int]:
        return self.cell_of[state]


@dataclass
class _Visit:
    """One visit's play of one level, as the replay goes."""

    stack: list = field(default_factory=list)  # (state, last move) from the attempt's start
    assisted: bool = False
    moves: int = 0
    undos: int = 0
    hints: int = 0
    restarts: int = 0
    solver: bool = False
    first: int | None = None
    done: bool = False
    attempt: int = 0  # the number of the attempt being played (``Choice.attempt``)


def replay(logs: list[tuple[str, Log]], pack: list[tuple[str, Level]]) -> Replayed:
    """Every log's events replayed on ``pack`` ((name, level) in order); DesignerError (one line)
    for a log of another pack or a move the rules do not give."""
    replaying = Replay(pack)
    for source, log in logs:
        replaying.add(source, log)
    return replaying.result()


class Replay:
    """Logs replayed on ``pack`` one after another (``add``), their figures read at any time
    (``result``): what ``replay`` does at once, and the studio's playtest as its lines arrive.

    A visit (a page load's random id) is one player, whichever logs hold it: the page saves every
    visit it keeps each time, so two saves hold the same visit's first events, and a later one
    more of them. A visit's events are replayed once, in order: an event a log holds at a place
    of its visit that an earlier log already gave is the same event, and skipped; one that
    differs there is refused (two plays under one visit id)."""

    def __init__(self, pack: list[tuple[str, Level]]) -> None:
        self.pack = pack
        self.ids = [level_id(level.rows()) for _, level in pack]
        self.by_id = {ident: k for k, ident in enumerate(self.ids)}
        self.pack_id = pack_id(self.ids)
        self.tables = [_Table(state_table(level)) for _, level in pack]
        self.found = Replayed(
            [LevelStats(name, _par(level)) for name, level in pack], [], Counter()
        )
        self.visits: dict[tuple[str, int], _Visit] = {}  # (visit, level) -> its play so far
        self.seen: dict[
            str, list
        ] = {}  # visit -> its events replayed so far, in order, from every log

    def add(self, source: str, log: Log, *, continuing: bool = False) -> None:
        """``log``'s events replayed after those added before (DesignerError, one line, for a log
        of another pack, a move or finish the rules do not give, or a visit that differs from
        the same visit in an earlier log: the events before it stay added). A saved log holds
        each of its visits from the visit's first event; ``continuing``: from where the visits
        stand (the studio's lines, sent as they are recorded)."""
        known = [self.by_id.get(ident) for _, ident in log.levels]
        if log.pack != self.pack_id and not any(k is not None for k in known):
            raise DesignerError(
                f"{source}: a log of another pack (none of its {len(log.levels)} levels is in this one)"
            )
        with many_objects():
            self._add(source, log, known, continuing)

    def _add(self, source: str, log: Log, known: list, continuing: bool) -> None:
        found, visits, tables, levels, seen = (
            self.found,
            self.visits,
            self.tables,
            self.found.levels,
            self.seen,
        )
        choices, new, direction = found.choices, tuple.__new__, _DIRECTION
        at: dict[str, int] = {}  # visit -> the place in it of this log's next event
        for event in log.events:
            visit = event.visit
            before = seen.get(visit)
            if before is None:
                before = seen[visit] = []
            place = at.get(visit, len(before) if continuing else 0)
            at[visit] = place + 1
            if place < len(before):  # an earlier log gave this place of the visit
                if before[place] != event:
                    raise DesignerError(
                        f"{source}: visit {visit}: its event {place + 1} differs from the same "
                        f"visit's in an earlier log (two plays under one visit id)"
                    )
                continue
            before.append(event)
            k = known[event.level]
            if k is None:
                found.skipped[log.levels[event.level][0]] += 1
                continue
            key = (visit, k)
            one = visits.get(key)
            # the common event, replayed here at once
            if event.kind == "move" and one is not None and one.stack:
                table = tables[k]
                state, last = one.stack[-1]
                d = direction[event.move or ""]  # a move event names its move
                end = table.dest[d][state]
                if end != NO_MOVE and state != table.goal and table.cell_of[end] == event.at:
                    if event.by == "player" and not one.done:
                        choices.append(new(Choice, (k, state, last, d, one.attempt)))
                        one.moves += 1
                    levels[k].rests[event.at] += 1
                    one.stack.append((end, d))
                    continue
            _step(found, visits, key, event, tables[k], self.pack[k], source)

    def result(self) -> Replayed:
        """The figures so far: every visit's figures counted as if it ended now (where a player
        is still playing counts as where they quit, until more of their play arrives)."""
        levels = [
            replace(
                stats,
                moves=list(stats.moves),
                seconds=list(stats.seconds),
                over_par=list(stats.over_par),
                restarts=list(stats.restarts),
                undos=list(stats.undos),
                hints=list(stats.hints),
                quits=Counter(stats.quits),
            )
            for stats in self.found.levels
        ]
        for (_, k), one in self.visits.items():
            _close(levels[k], one, self.tables[k])
        return replace(
            self.found,
            levels=levels,
            choices=list(self.found.choices),
            skipped=Counter(self.found.skipped),
        )


def _par(level: Level) -> int:
    from designer.analysis.solver import solve

    solution = solve(level)
    return solution.stops if solution else -1


_DIRECTION = {move: d for d, move in enumerate(MOVES)}


def _step(
    found: Replayed, visits: dict, key: tuple[str, int], event, table: _Table, named, source: str
) -> None:
    stats = found.levels[key[1]]
    one = visits.get(key)
    if one is None:
        one = visits[key] = _Visit()
        stats.players += 1
    kind = event.kind
    if kind == "start" or not one.stack:
        one.stack = [(table.start, model.NO_LAST)]
        one.assisted = False
        if one.first is None:
            one.first = event.t
        if kind == "start":
            found.attempts += 1
            one.attempt = found.attempts
            return
    state, last = one.stack[-1]
    where = f"{source}: visit {event.visit}, {named[0]}, attempt {event.attempt}"
    if kind == "move":
        if state == table.goal:
            raise DesignerError(
                f"{where}: a move after the finish (the exit ends the attempt; an undo comes first)"
            )
        d = _DIRECTION[event.move]
        end = table.dest[d][state]
        cell = None if end == NO_MOVE else table.cell(end)
        if cell != event.at:
            raise DesignerError(
                f"{where}: the move {event.move} ends on {list(event.at)} in the log, but "
                f"{'is no move' if cell is None else f'on {list(cell)}'} by the rules"
            )
        if event.by == "player" and not one.done:
            found.choices.append(Choice(key[1], state, last, d, one.attempt))
            one.moves += 1
        stats.rests[cell] += 1
        one.stack.append((end, d))
    elif kind == "undo":
        if len(one.stack) > 1:
            one.stack.pop()
        one.undos += not one.done
    elif kind == "restart":
        if event.by == "player" and not one.done and state != table.goal:
            found.choices.append(Choice(key[1], state, last, RESTART, one.attempt))
        one.restarts += not one.done
        stats.restarted_at[table.cell(state)] += 1
    elif kind == "hint":
        one.hints += not one.done
    elif kind == "solve":
        one.assisted = one.solver = True
    # checked against the replay: on the exit, with the moves the attempt made
    elif kind == "finish":
        made = len(one.stack) - 1
        if state != table.goal:
            raise DesignerError(
                f"{where}: a finish, but the rules have the player on {list(table.cell(state))}, "
                f"not on the open exit"
            )
        if event.moves != made:
            raise DesignerError(
                f"{where}: the finish counts {event.moves} moves, but the attempt made {made}"
            )
        if not one.assisted and not one.done:
            one.done = True
            stats.finished += 1
            stats.moves.append(one.moves)
            stats.seconds.append(max(0, event.t - (one.first or 0)) / 1000)
            stats.over_par.append(made - stats.par)
    elif kind == "leave" and not one.done:
        pass  # the last stop is where the player quit: counted when the visit closes


def _close(stats: LevelStats, one: _Visit, table: _Table) -> None:
    stats.restarts.append(one.restarts)
    stats.undos.append(one.undos)
    stats.hints.append(one.hints)
    stats.solver += one.solver
    if not one.done and not one.solver:  # left unfinished (the solver's finish is counted apart)
        state = one.stack[-1][0] if one.stack else table.start
        stats.quits[table.cell(state)] += 1
