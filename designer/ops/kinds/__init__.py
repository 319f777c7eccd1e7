"""The kinds of puzzle, one table each: a level (``LEVEL``: one start and one goal, with its
floors, portals, items and coins), a room of numbered doors (``ROOM``) and a cave of rooms with
keys (``CAVE``).

A table answers the protocol ``PuzzleKind`` (``designer.ops.kinds.protocol``): how its files are
told apart and read, how it is solved and analysed (its full clear too), and what a picture,
Tiled and the play page take of it. Every operation of ``designer.ops`` reads a file through
``read`` and asks the kind it found (``kind_of``), never the class it holds:

>>> from designer.core.level import Level
>>> found = Level.from_rows(["#G#", "#.#", "#S#"])
>>> kind_of(found).name
'level'
>>> [kind.name for kind in KINDS]
['cave', 'room', 'level']

The kind's value types carry the facts every floor shares (``designer.core.grid.Grid``: its
``kind``, its ends and its routes as classic levels), and a design request the facts of its own
(``designer.core.request.LayoutRequest.shape``)."""

from __future__ import annotations

from designer.ops.kinds.cave import CAVE
from designer.ops.kinds.files import FILES, file_kind, read_files
from designer.ops.kinds.level import LEVEL
from designer.ops.kinds.protocol import PuzzleKind, SourceKind
from designer.ops.kinds.registry import KINDS, is_cave_source, kind_of, page, read
from designer.ops.kinds.room import ROOM
from designer.ops.kinds.written import Written

__all__ = [
    "CAVE",
    "FILES",
    "KINDS",
    "LEVEL",
    "ROOM",
    "PuzzleKind",
    "SourceKind",
    "Written",
    "file_kind",
    "is_cave_source",
    "kind_of",
    "page",
    "read",
    "read_files",
]
