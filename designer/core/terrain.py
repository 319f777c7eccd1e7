"""The words every puzzle is written in: the terrain codes (ice, rock, snow), the solvability classes,
the characters of an item, a coin and a door, and a cell (row, column)."""

from __future__ import annotations

# Terrain codes. Start and goal are positions on ice, not terrain of their own.
ICE, ROCK, SNOW = 0, 1, 2


#: Solvability class codes, as the kernels return them, and their names.
UNSOLVABLE, WEAK, STRONG = 0, 1, 2


CLASS_NAMES = ("unsolvable", "weak", "strong")


#: The character of an item, and of a coin, in every dialect (no dialect spells a tile with them).
#: How many a level holds, and its size, are the table's (``designer.core.limits``).
ITEM_CHAR, COIN_CHAR = "*", "$"


Cell = tuple[int, int]


#: The characters of a room's doors (``designer.core.room``), in every dialect: door 1 to door 9.
DOOR_CHARS = "123456789"
