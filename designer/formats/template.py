"""Templates: a level sketch for ``designer make --template FILE``.

Canonical ASCII (``#`` rock, ``.`` ice, ``_`` snow, ``S`` start, ``G`` goal) plus ``?``, a free
cell the designer fills (rock or ice, and snow where snow is asked for). Every other cell stays as
drawn, so a room of any shape is drawn with ``#`` around it; ``S`` and ``G`` are pins, and a
missing one is chosen by the designer among the free and ice cells. A room with several doors
marks them with their digits ``1``-``9`` instead (each an ice cell; see ``designer.core.room``).
The grid is the template's.
"""

from __future__ import annotations

from pathlib import Path

from designer.core.errors import LevelError
from designer.core.level import DOOR_CHARS
from designer.formats.reading import decode_text, read_bytes
from designer.formats.tiled_map import is_map_path, read_map
from designer.core.request import FREE, TEMPLATE_TILES

ALLOWED = "".join(TEMPLATE_TILES) + FREE


def parse_template(text: str) -> tuple[str, ...]:
    """The template's rows, checked: one clear LevelError line for anything wrong."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rows = [line.strip() for line in lines]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    if not rows:
        raise LevelError("empty template")
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise LevelError(f"ragged rows: row {r} has {len(row)} characters, row 0 has {width}")
        for c, ch in enumerate(row):
            if ch not in ALLOWED:
                raise LevelError(f"unknown character {ch!r} at row {r}, col {c} (a template uses {ALLOWED})")
    for char, name in (("S", "starts"), ("G", "goals"), *((door, f"doors numbered {door}") for door in DOOR_CHARS)):
        count = sum(row.count(char) for row in rows)
        if count > 1:
            raise LevelError(f"{count} {name}: a template pins at most one {char!r}")
    if any(ch in DOOR_CHARS for row in rows for ch in row) and any(ch in "SG" for row in rows for ch in row):
        raise LevelError("a template marks its ends with 'S' and 'G', or a room's doors with 1-9, not both")
    if not any(FREE in row for row in rows):
        raise LevelError("no free cell: a template needs at least one '?' for the designer to fill")
    return tuple(rows)


def read_template(source: str | Path) -> tuple[str, ...]:
    """Read and check a template file (a path, or - for standard input): ASCII, or a Tiled JSON
    map (``.tmj``, ``.json``) read by ``designer.formats.tiled_map``."""
    if is_map_path(source):
        user = read_map(source)
        if not user.free:
            raise LevelError(f"{source}: the map has no free cell to fill (a cell left empty inside the room, or a tile "
                             "of kind free): every cell is drawn already (solve and analyze read it as it is)")
        text = "\n".join(user.rows)
    else:
        text = decode_text(read_bytes(source, "template"))
    try:
        return parse_template(text)
    except LevelError as exc:
        raise LevelError(exc if str(source) == "-" else f"{source}: {exc}") from None
