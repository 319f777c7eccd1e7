"""The registry of the kinds of puzzle (``kinds``): a file read and told apart (``read``), the
kind of a value (``kind_of``), and the play page of levels of every kind (``page``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from designer.ops.kinds.level import LEVEL
from designer.ops.kinds.protocol import EntryKind, PuzzleKind

if TYPE_CHECKING:
    from designer.ops.kinds.cave import CaveKind


def kinds() -> tuple[PuzzleKind, ...]:
    """Every kind, in the order a file is told apart: a cave's file says so in its first bytes, a
    room has numbered doors, and anything else is a level. (A room's and a cave's tables are
    loaded when they are asked for: a level's work never loads them.)

    >>> [kind.name for kind in kinds()]
    ['cave', 'room', 'level']
    """
    from designer.ops.kinds.room import ROOM

    return cave_table(), ROOM, LEVEL


def cave_table() -> CaveKind:
    """A cave's table (``designer.ops.kinds.cave.CAVE``), loaded when it is first asked for."""
    from designer.ops.kinds.cave import CAVE

    return CAVE


def kind_of(found) -> PuzzleKind:
    """The kind of puzzle ``found`` (a level, a room or a cave) is.

    >>> from designer.core.level import Level
    >>> kind_of(Level.from_rows(["#G#", "#.#", "#S#"])).name
    'level'
    """
    if LEVEL.holds(found):  # the most asked: a level's work loads no other table
        return LEVEL
    for kind in kinds():
        if kind.holds(found):
            return kind
    raise TypeError(f"{type(found).__name__} is no kind of puzzle")


def entry_kind(found) -> EntryKind:
    """The kind of a level or a room a file of levels and rooms holds, with the hooks its
    pictures, maps and page entries take (``EntryKind``)."""
    from designer.ops.kinds.room import ROOM

    for kind in (LEVEL, ROOM):
        if kind.holds(found):
            return kind
    raise TypeError(f"{type(found).__name__} is not what a level file holds")


def read(source: str, routes: list | None = None):
    """The level, room or cave a file holds (a path, or - for standard input); with ``routes``
    (pairs of doors), a room's: any other kind is refused in one line, saying what it holds."""
    from pathlib import Path

    from designer.caves import is_cave, is_world_path
    from designer.core.errors import DesignerError, LevelError
    from designer.formats.level_files import parse_level_or_room
    from designer.formats.reading import read_bytes

    found: object
    if is_world_path(source):  # a Tiled world of room maps
        found = cave_table().read_world(source)
    else:  # the bytes read once (standard input, a FIFO): a cave, or a level or room
        data = read_bytes(source)
        try:
            found = (
                cave_table().parse(data)
                if is_cave(data)
                else parse_level_or_room(data, None if source == "-" else Path(source).parent)
            )
        except LevelError as exc:
            raise LevelError(exc if source == "-" else f"{source}: {exc}") from None
    refused = kind_of(found).routes_refused
    if routes and refused:
        raise DesignerError(f"--route names a room's doors (1-9): {refused}")
    return found


def is_cave_source(source: str) -> bool:
    """Whether ``source`` is a cave's file (or a Tiled world of room maps): a path, not a folder or
    a stream (a stream, a FIFO or a device is read once, by whoever reads it)."""
    return str(source) != "-" and cave_table().names_file(source)


def page(
    levels: list,
    *,
    title: str = "ice-designer",
    cell: int | None = None,
    sink=None,
    hint_cost: int = 0,
) -> str:
    """The play page (``designer.export.play``) of ``levels`` (level files as ``read_levels``
    gives them, or (name, level or room) pairs), in that order, each as its kind plays it: a room
    an entry per route, each way. ``sink``: the address (on the page's own server) each line of
    its playtest log is sent to as it is recorded (the studio's playtest); None for a page that
    keeps its log to itself. ``hint_cost``: the stars each hint of an attempt takes off."""
    from designer.export.play import PAGE_CELL, entries_page
    from designer.formats.level_files import LevelFile

    if not levels:
        raise ValueError("no levels to play")
    files = [
        item if isinstance(item, LevelFile) else LevelFile(item[0], item[1], {}) for item in levels
    ]
    entries = [one for item in files for one in entry_kind(item.level).page_entries(item)]
    return entries_page(
        entries, title=title, cell=cell or PAGE_CELL, sink=sink, hint_cost=hint_cost
    )
