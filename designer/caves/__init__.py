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
