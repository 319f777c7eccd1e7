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
from designer.core.request import FREE, TEMPLATE_TILES
from designer.core.terrain import DOOR_CHARS
from designer.formats.reading import decode_text, read_bytes
from designer.formats.tiled_map import is_map_path, read_map

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
                raise LevelError(
                    f"unknown character {ch!r} at row {r}, col {c} (a template uses {ALLOWED})"
                )
    for char, name in (
        ("S", "starts"),
        ("G", "goals"),
        *((door, f"doors numbered {door}") for door in DOOR_CHARS),
    ):
        count = sum(row.count(char) for row in rows)
        if count > 1:
            raise LevelError(f"{count} {name}: a template pins at most one {char!r}")
    if any(ch in DOOR_CHARS for row in rows for ch in row) and any(
        ch in "SG" for row in rows for ch in row
    ):
        raise LevelError(
            "a template marks its ends with 'S' and 'G', or a room's doors with 1-9, not both"
        )
    if not any(FREE in row for row in rows):
        raise LevelError("no free cell: a template needs at least one '?' for the designer to fill")
    return tuple(rows)


def parse_template_parts(text: str) -> tuple[tuple[str, ...], tuple | None, tuple | None]:
    """A template's rows, and for one in the extended text form (``designer.core.floors``: floors,
    ``wrap`` and ``portal`` lines, the portals and their targets marked by letters) its floors (as
    ``LayoutRequest.floors`` holds them) and pinned portals; None for each in a plain template.
    The rows are the sheet's, every mark read as a fixed ice cell."""
    from designer.core.floors import MARKS, is_extended, parse_text, resolve_links

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not is_extended(lines):
        return parse_template(text), None, None
    sheet, floors, links = parse_text(text)
    marks, rows = {}, []
    for r, row in enumerate(sheet):
        for c, ch in enumerate(row):
            if ch in MARKS:
                if ch in marks:
                    raise LevelError(
                        f"mark {ch!r} drawn twice: each portal and target has a letter of its own"
                    )
                marks[ch] = (r, c)
        rows.append("".join("." if ch in MARKS else ch for ch in row))
    portals = resolve_links(marks, links)
    filled = parse_template("\n".join(rows))
    for cell in {cell for pair in portals for cell in pair}:
        if filled[cell[0]][cell[1]] != ".":
            raise LevelError(f"portal or target at row {cell[0]}, col {cell[1]} is not on ice")
    if any(ch in DOOR_CHARS for row in filled for ch in row):
        raise LevelError(
            "a template with floors, wrap-around or portals marks a level's S and G, not a room's doors"
        )
    return (
        filled,
        tuple((f.name, f.top, f.height, f.width, f.wrap) for f in floors),
        portals or None,
    )


def read_template_parts(source: str | Path) -> tuple[tuple[str, ...], tuple | None, tuple | None]:
    """``read_template``, with a template's floors and pinned portals (``parse_template_parts``)."""
    if is_map_path(source):
        return read_template(source), None, None
    data = read_bytes(source, "template")  # its refusals name the file already
    try:
        return parse_template_parts(decode_text(data))
    except LevelError as exc:
        raise LevelError(exc if str(source) == "-" else f"{source}: {exc}") from None


def read_template(source: str | Path) -> tuple[str, ...]:
    """Read and check a template file (a path, or - for standard input): ASCII, or a Tiled JSON
    map (``.tmj``, ``.json``) read by ``designer.formats.tiled_map``."""
    if is_map_path(source):
        user = read_map(source)
        if not user.free:
            raise LevelError(
                f"{source}: the map has no free cell to fill (a cell left empty inside the room, or a tile "
                "of kind free): every cell is drawn already (solve and analyze read it as it is)"
            )
        data: bytes | str = "\n".join(user.rows)
    else:
        data = read_bytes(source, "template")  # its refusals name the file already
    try:
        return parse_template(decode_text(data))
    except LevelError as exc:
        raise LevelError(exc if str(source) == "-" else f"{source}: {exc}") from None
