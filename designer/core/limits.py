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
designer.core.errors.RequestError: --seed must be a whole number from 0 to 999999999999, not 1000000000000
"""

from __future__ import annotations

import math

from designer.core.errors import DesignerError, RequestError, literal

# --- what a level, a room and a cave hold (every reader keeps these, and the designer, and the page

#: A level's side and cells: anything larger is a mistake, not a puzzle.
MAX_SIDE = 1000
MAX_CELLS = 1_000_000
#: A file read as a level, a room, a cave or a pack's level (a 1000x1000 level is about 1 MB).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Items (``*``) a level holds: its states are its cells times 2 ** items (``designer.core.items``).
MAX_ITEMS = 8
#: Coins (``$``) a level holds, and a cave in all its rooms: a full clear's states keep a bit a coin
#: beside the items' in a 64-bit word (``designer.analysis.tour``).
MAX_COINS = 32
#: Doors a room has (one digit each).
MAX_DOORS = 9
#: Keys a cave holds (its states are its cells times 2 ** keys), and rooms.
MAX_KEYS = 4
MAX_ROOMS = 64
#: What the play page holds and plays: every item and coin a level holds (a cave's keys and coins
#: are fewer), each a bit of a mask the page keeps as a plain number (exact to 2 ** 53); and the
#: states its Hint and Solve search from where the player stands.
PAGE_THINGS = MAX_ITEMS + MAX_COINS
PAGE_STATES = 400_000

# --- what the designer searches and makes ---------------------------------------------------------

#: Largest grid the designer designs (the model grows with cells x slide length), and so the largest
#: Tiled map it reads: a map's declared size is checked against it before any layer is inflated.
MAX_DESIGN_SIDE = 40
#: The states the full clear's proof keeps at most: about 25 bytes each
#: (``designer.analysis.tour``).
FULL_CLEAR_STATES = 20_000_000
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
#: A band of predicted difficulty a cave is asked (``cave --difficulty``): the scale's floor to 100
#: million expected moves.
FELT_LOWEST, FELT_HIGHEST = 1.0, 19.0
#: A player's weights (skill, back aversion, memory, route, turn, variety) lie in
#: -PLAYER_RANGE..PLAYER_RANGE.
PLAYER_RANGE = 50
#: The most moves a player without a new stop makes before giving up, when they ever do.
MAX_PATIENCE = 10_000

# --- playtests, pictures --------------------------------------------------------------------------

#: A playtest log (checked before it is read): a day of play by a large class is well under it.
MAX_LOG_BYTES = 64 * 1024 * 1024
#: The levels a log's header names.
MAX_LOG_LEVELS = 10_000
#: The lines a live playtest in the studio takes, and the playtests a studio keeps.
MAX_LIVE_LINES = 200_000
MAX_PLAYTESTS = 8
#: The largest picture drawn: pixels a side (Cairo's own limit is 32,767), and the memory drawing
#: it may take, as estimated before any drawing.
MAX_SIDE_PIXELS = 16_384
MAX_DRAWING_BYTES = 2 * 1024**3

#: The table docs/spec.md prints ("Limits"), row by row: what is bounded, and the bound.
TABLE = (
    ("a level's side; its cells", f"{MAX_SIDE:,}; {MAX_CELLS:,}"),
    ("a file read as a level, room or cave", f"{MAX_FILE_BYTES:,} bytes"),
    ("items a level holds", f"{MAX_ITEMS}"),
    ("coins a level holds, and a cave in all its rooms", f"{MAX_COINS}"),
    ("doors a room has", f"{MAX_DOORS}"),
    ("keys and rooms a cave holds", f"{MAX_KEYS}; {MAX_ROOMS}"),
    ("items and coins the play page plays (every one a level holds)", f"{PAGE_THINGS}"),
    ("states the play page's Hint and Solve search", f"{PAGE_STATES:,}"),
    (
        "a grid the designer designs, and a Tiled map it reads",
        f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE}",
    ),
    ("states the full clear's proof keeps", f"{FULL_CLEAR_STATES:,}"),
    ("`--seed` (a pack: its last level's seed too)", f"0 to {MAX_SEED:,}"),
    (
        "`--time-limit`, `compare --budget`",
        f"a finite number of seconds, more than 0, at most {MAX_SECONDS:,}",
    ),
    (
        "`--min-stops`, `--max-stops`, `--min-choices`, `--max-rocks`, `--snow`, `--full-clear`",
        f"0 to {MAX_COUNT:,} (the cells of the largest level)",
    ),
    ("`make --count` (a pack)", f"1 to {MAX_LEVELS:,}"),
    (
        "`cave --difficulty` (a band of predicted difficulty)",
        f"{FELT_LOWEST:g} to {FELT_HIGHEST:g}",
    ),
    ("`compare --seeds`, `bench make --seeds`, `--repeats`, `--runs`", f"1 to {MAX_RUNS:,}"),
    ("`bench classify --count`", f"1 to {MAX_SAMPLES:,}"),
    (
        "a player's skill, back aversion, memory, route, turn and variety; foresight; lapse and"
        " notice; patience",
        f"-{PLAYER_RANGE} to {PLAYER_RANGE}, finite; 0 to 3 moves; 0 to 1; 0 to {MAX_PATIENCE:,}"
        " moves or none",
    ),
    ("a playtest log; the levels its header names", f"{MAX_LOG_BYTES:,} bytes; {MAX_LOG_LEVELS:,}"),
    (
        "lines a studio's live playtest takes; playtests a studio keeps",
        f"{MAX_LIVE_LINES:,}; {MAX_PLAYTESTS}",
    ),
    (
        "a picture `render` draws",
        f"{MAX_SIDE_PIXELS:,} pixels a side, {MAX_DRAWING_BYTES:,} bytes to draw",
    ),
)


def page_limits() -> dict:
    """What the play page and the studio's play in place read of the table (``LIMITS`` in their
    scripts)."""
    return {"things": PAGE_THINGS, "page_states": PAGE_STATES}


def whole(value: int, option: str, low: int, high: int) -> int:
    """``value``, refused (``RequestError``, one line) unless it is a whole number from ``low`` to
    ``high``. ``option`` names it: a field of a request (``"{seed}"``, which each shell words as
    its own), or a shell's own word for it (``"--seed"``)."""
    if type(value) is not int or not low <= value <= high:
        said = f"{option} must be a whole number from {low} to {high}, not "
        # the line cut at 200 characters (a field's "{seed}" is as long as its flag "--seed")
        raise RequestError(said + literal(f"{value}"[: max(0, 200 - len(said))]))
    return value


def seconds(value: float, option: str, low: float = 0.0) -> float:
    """``value``, refused unless it is a finite number of seconds from ``low`` to ``MAX_SECONDS``
    (``option`` names it, as ``whole``'s does)."""
    if type(value) not in (int, float) or not math.isfinite(value):
        raise RequestError(
            f"{option} must be a finite number of seconds, not " + literal(f"{value}")
        )
    if not low <= value <= MAX_SECONDS:
        raise RequestError(
            f"{option} must be from {low:g} to {MAX_SECONDS:,} seconds, not {value:g}"
        )
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
        raise DesignerError(
            f"the grid is {height}x{width} (height x width): the studio takes grids of at most "
            f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE} (the designer's largest)"
        )
    return rows
