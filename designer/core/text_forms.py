"""A level's text forms: the canonical ASCII and the two common dialects (``Dialect``), told apart
(``detect_dialect``), trimmed, and scanned into terrain, ends, items, coins and doors (``scan_rows``);
a level with floors or portals read in parts (``extended_parts``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from designer.core.errors import LevelError
from designer.core.limits import MAX_CELLS, MAX_SIDE
from designer.core.terrain import COIN_CHAR, DOOR_CHARS, ICE, ITEM_CHAR, ROCK, SNOW, Cell

if TYPE_CHECKING:  # loaded only for a level with floors or portals
    from designer.core.floors import Floor


@dataclass(frozen=True)
class Dialect:
    """One ASCII spelling of the five tiles."""

    name: str
    rock: str  # every character that means rock
    ice: str
    snow: str  # empty when the dialect has no snow
    start: str
    goal: str
    keeps_spaces: bool  # spaces are tiles (kata-style ice), so lines are not stripped

    def tile_of(self, ch: str) -> str | None:
        """Return 'rock', 'ice', 'snow', 'start' or 'goal' for a character, or None."""
        for kind in ("rock", "ice", "snow", "start", "goal"):
            if ch in getattr(self, kind):
                return kind
        return None


CANONICAL = Dialect(
    "canonical", rock="#", ice=".", snow="_", start="S", goal="G", keeps_spaces=False
)


SEED = Dialect("seed-style", rock="O0", ice=".", snow="", start="s", goal="e", keeps_spaces=False)


KATA = Dialect("kata-style", rock="#", ice=" ", snow="x", start="S", goal="E", keeps_spaces=True)


DIALECTS = {d.name: d for d in (CANONICAL, SEED, KATA)}


_TERRAIN_CODE = {"rock": ROCK, "ice": ICE, "snow": SNOW, "start": ICE, "goal": ICE}


def detect_dialect(lines: list[str]) -> Dialect:
    """Pick the dialect from the goal character, the one tile every dialect spells differently."""
    text = "".join(lines)
    seen = [d for d in (CANONICAL, SEED, KATA) if d.goal in text]
    if len(seen) == 1:
        return seen[0]
    if not text.strip():
        raise LevelError("empty input: no level found")
    if not seen:
        raise LevelError("no goal: expected one 'G' (or 'e' seed-style, 'E' kata-style)")
    names = [f"'{d.goal}' ({d.name})" for d in seen]
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    raise LevelError(
        f"mixed dialects: goal characters {listed} {'both' if len(seen) == 2 else 'all'} appear"
    )


def trim_lines(lines: list[str], dialect: Dialect) -> list[str]:
    """Drop blank lines around the level; strip surrounding spaces unless spaces are ice.

    Where spaces are ice (kata-style), a first or last line of spaces is a row of ice when it is
    as wide as the level's other rows, and padding (dropped) when it is not.
    """
    if dialect.keeps_spaces:
        lines = [line.rstrip("\t") for line in lines]
    else:
        lines = [line.strip() for line in lines]
    inked = [k for k, line in enumerate(lines) if line.strip()]
    if not inked:
        return []
    first, last = inked[0], inked[-1]
    if dialect.keeps_spaces:
        width = len(lines[first])
        while first > 0 and lines[first - 1] and len(lines[first - 1]) == width:
            first -= 1
        while last + 1 < len(lines) and lines[last + 1] and len(lines[last + 1]) == width:
            last += 1
    return lines[first : last + 1]


def check_size(height: int, width: int) -> None:
    """Refuse (LevelError, one line) a level larger than MAX_SIDE a side or MAX_CELLS cells."""
    if height > MAX_SIDE or width > MAX_SIDE or height * width > MAX_CELLS:
        raise LevelError(
            f"level of {height}x{width} is too large: at most {MAX_SIDE} rows, "
            f"{MAX_SIDE} columns and {MAX_CELLS:,} cells"
        )


def scan_rows(
    rows: list[str],
    dialect: Dialect,
    items: list[Cell] | None = None,
    coins: list[Cell] | None = None,
) -> tuple[np.ndarray, list[Cell], list[Cell], dict[int, list[Cell]]]:
    """The terrain of rows in a dialect, with the cells of its start and goal characters and of
    each door digit (doors are ice); LevelError (one line) for anything else. An item (``*``)
    or a coin (``$``), on ice, is appended to ``items`` or ``coins`` when a list is given, and
    refused otherwise."""
    if not rows:
        raise LevelError("empty input: no level found")
    height, width = len(rows), len(rows[0])
    check_size(height, width)
    terrain = np.zeros((height, width), dtype=np.uint8)
    starts: list[Cell] = []
    goals: list[Cell] = []
    doors: dict[int, list[Cell]] = {}
    for r, row in enumerate(rows):
        if len(row) != width:
            raise LevelError(f"ragged rows: row {r} has {len(row)} characters, row 0 has {width}")
        for c, ch in enumerate(row):
            kind = dialect.tile_of(ch)
            if kind is None:
                if ch in DOOR_CHARS:
                    doors.setdefault(int(ch), []).append((r, c))
                    continue  # a door is ice
                found = items if ch == ITEM_CHAR else coins if ch == COIN_CHAR else None
                if found is not None:  # an item or a coin lies on ice
                    found.append((r, c))
                    continue
                raise LevelError(
                    f"unknown character {ch!r} at row {r}, col {c} ({dialect.name} level)"
                )
            terrain[r, c] = _TERRAIN_CODE[kind]
            if kind == "start":
                starts.append((r, c))
            elif kind == "goal":
                goals.append((r, c))
    return terrain, starts, goals, doors


def extended_parts(text: str) -> tuple[list[str], tuple[Floor, ...], tuple]:
    """The extended text form (``designer.core.floors``) of a level or a room: its sheet's rows in
    the canonical dialect (each portal and target mark read as ice), its floors and its portals.
    LevelError (one line) for anything malformed."""
    from designer.core.floors import MARKS, parse_text, resolve_links

    sheet, floors, links = parse_text(text)
    if not any(CANONICAL.goal in row or ch in row for row in sheet for ch in DOOR_CHARS):
        raise LevelError(
            "floors, wrap-around and portals are written in the canonical dialect (# rock, . ice, _ snow, "
            "S start, G goal, or doors 1-9): no 'G' here"
        )
    marks: dict[str, Cell] = {}
    plain_rows = []
    for r, row in enumerate(sheet):
        chars = list(row)
        for c, ch in enumerate(row):
            if ch in MARKS:
                if ch in marks:
                    raise LevelError(
                        f"mark {ch!r} drawn twice: at ({marks[ch][0]}, {marks[ch][1]}) and ({r}, {c}); "
                        "each portal and target has a letter of its own"
                    )
                marks[ch] = (r, c)
                chars[c] = "."
        plain_rows.append("".join(chars))
    for floor in floors:
        for row in plain_rows[floor.top : floor.top + floor.height]:
            if row[floor.width :].strip("#"):
                raise LevelError(f"floor {floor.name!r} is {floor.width} wide; nothing lies beyond")
    return plain_rows, tuple(floors), resolve_links(marks, links)
