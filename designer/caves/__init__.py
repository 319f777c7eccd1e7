"""Caves: rooms with doors joined into one level with one guaranteed way through (docs/spec.md,
"Caves").

- ``cave``: the value types (a cave, its rooms, links and keys) and their text and JSON forms;
- ``graph``: the cave as one graph of states (cells and keys held): solve, analyse, verify;
- ``plan``: the bands of the rooms' routes that make every way through meet the cave's band,
  posed as a small CP-SAT model, and the proof when no plan can;
- ``design``: a cave with free rooms filled, room by room, then verified whole;
- ``grammar``: a cave asked for from nothing (rooms, keys and a floor size);
- ``world``: Tiled's world files (a map per room) out and in;
- ``picture``: the floor plan, with the way through.

A cave plans its rooms and designs each one through the same search every shell uses
(``designer.search``): this package sits above it, as ``designer.studies`` does.
"""

from __future__ import annotations

#: The suffix of a Tiled world file (``world``).
WORLD_SUFFIX = ".world"


def is_cave(data: bytes | str) -> bool:
    """Whether a file's text is a cave: its first word is ``room``, or it is JSON of format
    ice-cave (only its head is looked at: every reader of a level asks this first).

    >>> is_cave("room hall\\n#1#"), is_cave('{"format": "ice-cave"}'), is_cave("#G#\\n#S#")
    (True, True, False)
    """
    text = data[:4096].decode("utf-8", "replace") if isinstance(data, bytes) else data[:4096]
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        return '"ice-cave"' in head
    return head.startswith("room ") or head.startswith("room\t")


def is_world_path(source) -> bool:
    """Whether a path names a Tiled world file (by its suffix)."""
    return str(source) != "-" and str(source).lower().endswith(WORLD_SUFFIX)
