"""Playtest logs: what the play page records, as versioned JSON Lines (docs/spec.md "Playtests").

The first line is the header: the format and version, the pack's id and its levels (name and id,
in the page's order). Every other line is one event of one visit (a random id per page load,
nothing personal): its time in milliseconds since the page loaded, the level (its index in the
header), the attempt (1 for the first on that level in that visit), and what happened:

========  ===================================================================================
event     fields beside
========  ===================================================================================
start     an attempt begins on the level's start
move      ``move`` (u, d, l, r), ``at`` the stop it ends on [row, col], ``by`` player or solver
undo      the last move taken back
restart   the attempt given up; a ``start`` of the next attempt follows
hint      ``hint``: the move the page showed (none in a trap)
solve     the solver asked to play the rest (the attempt is then assisted)
finish    the exit reached; ``moves``: the moves the attempt counts
leave     the level left unfinished (another level chosen, or the page closed)
========  ===================================================================================

>>> log = Log("0" * 16, (("one", "1" * 16),), (Event("v1", 0, 0, 1, "start"), Event("v1", 900, 0, 1, "move", "u", (0, 1))))
>>> parse(write(log), "log") == log
True
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import repeat
from typing import Any, NamedTuple

from designer.core.errors import DesignerError
from designer.core.limits import MAX_LOG_BYTES, MAX_LOG_LEVELS

FORMAT = "ice-designer playtest"
VERSION = 1
EVENTS = ("start", "move", "undo", "restart", "hint", "solve", "finish", "leave")
MOVES = "udlr"


class Event(NamedTuple):
    """One line of a log (a tuple: a log of half a million lines is read in seconds)."""

    visit: str
    t: int  # milliseconds since the page loaded
    level: int  # index in the header's levels
    attempt: int
    kind: str  # one of EVENTS
    move: str | None = None  # a move's direction, or a hint's ("none" in a trap)
    at: tuple[int, int] | None = None  # the stop a move ends on
    by: str = "player"  # who made a move: "player" or "solver"
    moves: int | None = None  # a finish: the moves the attempt counts

    def to_json(self) -> dict:
        out = {
            "visit": self.visit,
            "t": self.t,
            "level": self.level,
            "attempt": self.attempt,
            "event": self.kind,
        }
        if self.kind == "move":
            out.update(move=self.move, at=list(self.at or ()), by=self.by)
        elif self.kind == "hint":
            out["hint"] = self.move
        elif self.kind == "finish":
            out["moves"] = self.moves
        return out


@dataclass(frozen=True)
class Log:
    pack: str  # the pack's id (``pack_id``)
    levels: tuple[tuple[str, str], ...]  # (name, id) in the page's order
    events: tuple[Event, ...]


def level_id(rows: list[str], route: str | None = None) -> str:
    """A level's id on the page and in logs: made from its rows (and a room's route)."""
    return hashlib.sha256(json.dumps([list(rows), route]).encode()).hexdigest()[:16]


def pack_id(ids: list[str]) -> str:
    """A pack's id: made from its levels' ids, in order."""
    return hashlib.sha256(json.dumps(list(ids)).encode()).hexdigest()[:16]


def write(log: Log) -> str:
    """The log as JSON Lines text."""
    head = {
        "format": FORMAT,
        "version": VERSION,
        "pack": log.pack,
        "levels": [{"name": name, "id": ident} for name, ident in log.levels],
    }
    return "".join(
        json.dumps(line) + "\n" for line in (head, *(event.to_json() for event in log.events))
    )


def read(path: str) -> Log:
    """The log in a file, refused (DesignerError, one line) when it is not one: too large
    (checked before reading), not UTF-8, or not in the format."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise DesignerError(f"{path}: cannot read the log ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise DesignerError(f"{path}: a log is a regular file")
    if info.st_size > MAX_LOG_BYTES:
        raise DesignerError(
            f"{path}: a log of {info.st_size:,} bytes is too large (at most {MAX_LOG_BYTES:,})"
        )
    with open(path, "rb") as handle:
        data = handle.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        raise DesignerError(f"{path}: the log is too large (at most {MAX_LOG_BYTES:,} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DesignerError(f"{path}: the log is not UTF-8 text") from None
    return parse(text, path)


@contextmanager
def many_objects():
    """Python's cycle collector paused while a log's hundreds of thousands of tuples are made
    (none of them in a cycle): it would walk them again and again, and double the time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def parse(text: str, name: str) -> Log:
    """The log of JSON Lines ``text`` (``name`` says where it came from in messages)."""
    with many_objects():
        return _parse(text, name)


def _parse(text: str, name: str) -> Log:
    if not text:
        raise DesignerError(f"{name}: an empty file is no playtest log")
    if not text.endswith("\n"):
        raise DesignerError(
            f"{name}: line {text.count(chr(10)) + 1} is cut short (a log ends each line with a newline)"
        )
    lines = text[:-1].split("\n")
    head = _line(lines[0], name, 1)
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise DesignerError(
            f"{name}: not a playtest log (its first line must name the format {FORMAT!r})"
        )
    if type(head.get("version")) is not int or head["version"] != VERSION:  # not true, nor 1.0
        raise DesignerError(
            f"{name}: playtest log version {head.get('version')!r}: this designer reads version {VERSION}"
        )
    pack, levels = head.get("pack"), head.get("levels")
    if (
        not _hex(pack)
        or not isinstance(levels, list)
        or not levels
        or len(levels) > MAX_LOG_LEVELS
        or not all(
            isinstance(one, dict) and isinstance(one.get("name"), str) and _hex(one.get("id"))
            for one in levels
        )
    ):
        raise DesignerError(
            f"{name}: line 1: the header needs a pack id and its levels (name and id)"
        )
    body = lines[1:]
    count = len(levels)
    events: list = [None] * len(body)
    # the moves written as the page and ``write`` write them, column by column (most of a log)
    found = list(map(_MOVE_LINE.fullmatch, body))
    fast = [k for k, one in enumerate(found) if one is not None]
    if fast:
        columns: list[Any] = list(zip(*(one.groups() for one in found if one is not None)))
        visit, t, level, attempt, move, row, col, by = columns
        t, level, attempt, row, col = (
            list(map(int, column)) for column in (t, level, attempt, row, col)
        )
        if (
            max(t) > 10**12
            or max(level) >= count
            or max(attempt) > 10**9
            or max(row) > 10_000
            or max(col) > 10_000
        ):
            fits: Iterable[bool] = [
                t[j] <= 10**12
                and level[j] < count
                and attempt[j] <= 10**9
                and row[j] <= 10_000
                and col[j] <= 10_000
                for j in range(len(fast))
            ]  # those out of range: read by the reader below, which says why
        else:
            fits = repeat(True)
        made = map(
            tuple.__new__,
            repeat(Event),
            zip(visit, t, level, attempt, repeat("move"), move, zip(row, col), by, repeat(None)),
        )
        for k, event, ok in zip(fast, made, fits):
            if ok:
                events[k] = event
    slow = [k for k, event in enumerate(events) if event is None]
    if slow:
        for (
            k
        ) in slow:  # each line on its own: a cut line joined to the next, or two on one, is no line
            events[k] = event_of(_line(body[k], name, k + 2), name, k + 2, count)
    return Log(str(pack), tuple((one["name"], one["id"]) for one in levels), tuple(events))


#: A move's line as the page (no spaces) and ``write`` (a space after each ``:`` and ``,``) write
#: it: exactly the JSON of such an event whose visit id needs no escape, read without the JSON
#: reader (most lines of a log are moves). Any other spelling of a line is read by the reader.
_MOVE_LINE = re.compile(
    r'\{"visit": ?"([0-9A-Za-z_-]{1,64})", ?"t": ?(0|[1-9][0-9]{0,12}), ?"level": ?(0|[1-9][0-9]{0,8}), ?'
    r'"attempt": ?([1-9][0-9]{0,9}), ?"event": ?"move", ?"move": ?"([udlr])", ?"at": ?\['
    r'(0|[1-9][0-9]{0,4}), ?(0|[1-9][0-9]{0,4})\], ?"by": ?"(player|solver)"\}'
)


def _line(line: str, name: str, k: int):
    try:
        return json.loads(line, parse_constant=_refuse, object_pairs_hook=_once)
    except (ValueError, RecursionError):
        raise DesignerError(
            f"{name}: line {k} is not a JSON object (a cut or damaged line?)"
        ) from None


def _once(pairs: list) -> dict:
    """A JSON object whose every key is given once (``{"visit": "a", "visit": "b"}`` is no line
    the page writes: which visit would it be?)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key given twice")
    return found


def _refuse(constant: str):
    raise ValueError(constant)


def _hex(value) -> bool:
    return (
        isinstance(value, str)
        and len(value) == 16
        and all(ch in "0123456789abcdef" for ch in value)
    )


def _int(value, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def event_of(obj, name: str, k: int, levels: int) -> Event:
    """The event of one JSON object (line ``k`` of ``name``, whose header has ``levels`` levels),
    refused (DesignerError, one line) when it is not one."""
    # the common line, checked at once
    if type(obj) is dict and len(obj) == 8 and obj.get("event") == "move":
        try:
            visit, t, level, attempt, move, at, by = (
                obj["visit"],
                obj["t"],
                obj["level"],
                obj["attempt"],
                obj["move"],
                obj["at"],
                obj["by"],
            )
        except KeyError:
            return _checked_event(obj, name, k, levels)
        if (
            type(visit) is str
            and 0 < len(visit) <= 64
            and type(t) is int
            and 0 <= t <= 10**12
            and type(level) is int
            and 0 <= level < levels
            and type(attempt) is int
            and 1 <= attempt <= 10**9
            and move in _MOVE_SET
            and by in _BY
            and type(at) is list
            and len(at) == 2
            and type(at[0]) is int
            and type(at[1]) is int
            and 0 <= at[0] <= 10_000
            and 0 <= at[1] <= 10_000
        ):
            return Event(visit, t, level, attempt, "move", move, (at[0], at[1]), by)
    return _checked_event(obj, name, k, levels)


_MOVE_SET = frozenset(MOVES)
_BY = frozenset(("player", "solver"))


def _checked_event(obj, name: str, k: int, levels: int) -> Event:
    def bad(why: str) -> DesignerError:
        return DesignerError(f"{name}: line {k}: {why}")

    if not isinstance(obj, dict):
        raise bad("an event is a JSON object")
    kind = obj.get("event")
    if kind not in EVENTS:
        raise bad(f"unknown event {str(kind)[:20]!r} (one of {', '.join(EVENTS)})")
    visit = obj.get("visit")
    if not isinstance(visit, str) or not 1 <= len(visit) <= 64:
        raise bad("the visit id must be a short text")
    if (
        not _int(obj.get("t"), 0, 10**12)
        or not _int(obj.get("level"), 0, levels - 1)
        or not _int(obj.get("attempt"), 1, 10**9)
    ):
        raise bad(
            "t (milliseconds), level (an index of the header's levels) and attempt (from 1) must be whole numbers"
        )
    if kind == "move":
        at = obj.get("at")
        if (
            obj.get("move") not in tuple(MOVES)
            or obj.get("by") not in ("player", "solver")
            or not (isinstance(at, list) and len(at) == 2 and all(_int(v, 0, 10_000) for v in at))
        ):
            raise bad("a move needs move (u, d, l or r), at [row, col] and by (player or solver)")
        return Event(
            visit,
            obj["t"],
            obj["level"],
            obj["attempt"],
            kind,
            obj["move"],
            (at[0], at[1]),
            obj["by"],
        )
    if kind == "hint":
        if obj.get("hint") not in (*MOVES, "none"):
            raise bad("a hint needs hint: u, d, l, r or none")
        return Event(visit, obj["t"], obj["level"], obj["attempt"], kind, obj["hint"])
    if kind == "finish":
        if not _int(obj.get("moves"), 0, 10**9):
            raise bad("a finish needs moves, a whole number")
        return Event(visit, obj["t"], obj["level"], obj["attempt"], kind, moves=obj["moves"])
    return Event(visit, obj["t"], obj["level"], obj["attempt"], kind)
