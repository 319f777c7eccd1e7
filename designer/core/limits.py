"""The one bound of each number a user gives the designer. The option parsers and the operations
check a value against it before any work, and every reader of a file (a level's generator
record, a request, a records checkpoint) against the same bound, so that whatever ``make``
accepts reads back (``make --from``, ``analyze``, ``solve``, ``play``), and whatever a reader
refuses, ``make`` refuses first, in one line with status 2.

>>> whole(7, "--seed", 0, MAX_SEED)
7
>>> whole(10**12, "--seed", 0, MAX_SEED)
Traceback (most recent call last):
...
designer.core.errors.DesignerError: --seed must be a whole number from 0 to 999999999999, not 1000000000000
"""

from __future__ import annotations

import math

from designer.core.errors import DesignerError
from designer.core.level import MAX_CELLS

#: Largest grid the designer designs (the model grows with cells x slide length), and so the largest
#: Tiled map it reads: a map's declared size is checked against it before any layer is inflated.
MAX_DESIGN_SIDE = 40
#: A seed: of every random choice, and of a pack's levels (seed, seed + 1, ...).
MAX_SEED = 10**12 - 1
#: A time limit or a time spent, in seconds (about three years: no run is longer).
MAX_SECONDS = 10**8
#: Rocks, stops, snow tiles and options: none can exceed the cells of the largest level.
MAX_COUNT = MAX_CELLS
#: Levels of a pack (each a file of its own).
MAX_LEVELS = 10_000
#: Seeds of a study or a benchmark, and its timed repeats.
MAX_RUNS = 10**6
#: Random levels a benchmark classifies.
MAX_SAMPLES = 10**9


def whole(value: int, option: str, low: int, high: int) -> int:
    """``value``, refused (DesignerError, one line) unless it is a whole number from ``low`` to
    ``high``."""
    if type(value) is not int or not low <= value <= high:
        raise DesignerError(f"{option} must be a whole number from {low} to {high}, not {value}"[:200])
    return value


def seconds(value: float, option: str, low: float = 0.0) -> float:
    """``value``, refused unless it is a finite number of seconds from ``low`` to ``MAX_SECONDS``."""
    if type(value) not in (int, float) or not math.isfinite(value):
        raise DesignerError(f"{option} must be a finite number of seconds, not {value}")
    if not low <= value <= MAX_SECONDS:
        raise DesignerError(f"{option} must be from {low:g} to {MAX_SECONDS:,} seconds, not {value:g}")
    return value


def fits_seconds(value) -> bool:
    """Whether a value read from a file is a number of seconds within the bound."""
    return type(value) in (int, float) and math.isfinite(value) and 0 <= value <= MAX_SECONDS


def sized(rows: list[str]) -> list[str]:
    """``rows``, refused in one line when the grid is over ``MAX_DESIGN_SIDE`` (40) a side: the
    studio's every grid, in and out, keeps to the designer's largest room (``designer.ops.sketches``).

    >>> sized(["#" * 41])
    Traceback (most recent call last):
    ...
    designer.core.errors.DesignerError: the grid is 1x41 (height x width): the studio takes grids of at most 40x40 (the designer's largest)
    """
    height, width = len(rows), max(map(len, rows), default=0)
    if height > MAX_DESIGN_SIDE or width > MAX_DESIGN_SIDE:
        raise DesignerError(f"the grid is {height}x{width} (height x width): the studio takes grids of at most "
                            f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE} (the designer's largest)")
    return rows
