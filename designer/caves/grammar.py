"""A cave asked for from nothing: a number of rooms, of keys and of floors, a room size, and a
**shape**, one of the patterns a mission grammar builds a dungeon from (docs/designing.md,
"Caves"). It draws the graph of rooms first, with its lock and key structure, and leaves every
room's inside free for the designer.

Every shape has a **main way** of rooms from the entrance to the exit. It climbs: the entrance is
in the first room, on the lowest floor (the largest number), and the exit in the last room's
right wall, on floor 1. On a floor the main rooms lie side by side, joined by doorways in their
shared walls; from one floor to the next the way climbs a ladder. Each key lies in a **side
room** below a main room, joined to it by two doorways. A lock is on a doorway or a ladder of
the main way (a **gate**), or on a side room's doorways. The shapes:

- ``gates``: a key before each gate, in a row: past key j's gate lies key j + 1's side room.
- ``chain``: a key behind a key (2 keys or more). One gate, locked by the last key; the side
  room of key j + 1 is locked by key j, so the first key opens the way to the second, and so on.
- ``shortcut``: keys as ``gates`` has them, and a hole from the last room, past every gate, down
  to the entrance's room: a one-way way back.
- ``loop``: two main rooms side by side also joined by two rooms below them, a loop the player
  may go round either way; keys as ``gates`` has them.

On two floors or more, every shape has holes as well as ladders: ``shortcut`` its way back, the
others a hole from a main room of an upper floor down to one of the floor below, a loop back
along the way. A hole only ever leads back along the way, so it never passes a gate: every key
is needed, and the cave can always be climbed again. Every choice (the shape, when not named,
the floors of the rooms, the gates, the doors' places, the keys' cells) flows from ``seed``.

A ``Dressing`` (``designer.caves.dressing``) varies the drawing (rooms of several sizes, some
with corners cut, keys in more than one pattern), names its rooms and keys, and draws snow and
coins in its rooms; the rooms themselves are drawn by ``designer.caves.drawing``.

>>> cave = draw(rooms=4, keys=1, size=(7, 7), seed=1, shape="gates")
>>> [room.name for room in cave.rooms], [link.lock for link in cave.links if link.lock]
(['gate', 'hall', 'gallery', 'vault'], ['bronze'])
>>> cave = draw(rooms=6, keys=2, size=(8, 8), seed=2, floors=2, shape="chain")
>>> sorted({link.kind for link in cave.links}), [key.room for key in cave.keys]
(['door', 'hole', 'ladder'], ['vault', 'crypt'])
"""

from __future__ import annotations

import random

from designer.caves.cave import MAX_KEYS, MAX_ROOMS, Cave
from designer.caves.drawing import CORNERS, Drawing
from designer.caves.dressing import PLAIN, Dressing, patterns
from designer.caves.parts import Link
from designer.core.errors import DesignerError, RequestError, literal

#: The smallest room a cave is drawn with: a main room may have six doors, and a 6x6 room with
#: four doors is often proven unable to hold every route strong and reversible.
MIN_SIDE = 7
MAX_SIDE = 40
#: The most floors a cave is drawn on.
MAX_FLOORS = 9
#: The names a cave drawn from nothing gives, words a player reads: its main way's rooms (a
#: number after the word when a way is longer than the list), the side rooms that hold the keys,
#: the two rooms of a loop, and the keys, the first key first.
MAIN_ROOMS = (
    "gate",
    "hall",
    "gallery",
    "chamber",
    "grotto",
    "passage",
    "cavern",
    "hollow",
    "landing",
    "nave",
    "rotunda",
    "cloister",
    "atrium",
    "terrace",
    "chapel",
    "throne",
)
SIDE_ROOMS = ("vault", "crypt", "shrine", "alcove")
LOOP_ROOMS = ("cellar", "undercroft")
KEYS = ("bronze", "silver", "gold", "iron")


def named(words: tuple[str, ...], k: int) -> str:
    """The ``k``-th name from ``words`` (from 0), a number after the word once they run out.

    >>> n = len(MAIN_ROOMS)
    >>> named(MAIN_ROOMS, 0), named(MAIN_ROOMS, n), named(MAIN_ROOMS, 1 + 2 * n)
    ('gate', 'gate2', 'hall3')
    """
    return words[k % len(words)] + (str(k // len(words) + 1) if k >= len(words) else "")


#: The shapes, in the order a seed takes them in (``seed`` modulo the shapes that fit).
SHAPES = ("gates", "chain", "shortcut", "loop")


def least_rooms(shape: str, keys: int, floors: int) -> int:
    """The fewest rooms ``shape`` is drawn in. The main way needs a room on every floor (and a
    floor of two for a loop), and a room for each side room to hang below before the way's last
    step (a loop's two rooms hold none)."""
    loop = 2 if shape == "loop" else 0
    bonus = 1 if loop else 0
    return max(floors + bonus, keys + 1 + bonus, 2 if loop else 1) + keys + loop


def _counted(keys: int, floors: int) -> str:
    return f"{keys} key{'s' if keys != 1 else ''} on {floors} floor{'s' if floors != 1 else ''}"


def why_not(shape: str, rooms: int, keys: int, floors: int) -> str | None:
    """Why ``shape`` cannot be drawn with these counts (None: it can)."""
    if shape == "chain" and keys < 2:
        return f"the chain shape puts a key behind a key: it needs 2 keys or more, not {keys}"
    least = least_rooms(shape, keys, floors)
    return (
        f"the {shape} shape of {_counted(keys, floors)} needs at least {least} rooms, not {rooms}"
        if rooms < least
        else None
    )


def shapes_for(rooms: int, keys: int, floors: int) -> list[str]:
    """The shapes these counts can be drawn in, in the order of ``SHAPES``."""
    return [shape for shape in SHAPES if why_not(shape, rooms, keys, floors) is None]


def check(
    rooms: int, keys: int, size: tuple[int, int], floors: int = 1, shape: str | None = None
) -> None:
    """One DesignerError line for a drawing that cannot be made."""
    if not 2 <= rooms <= MAX_ROOMS:
        raise RequestError(f"{{rooms}} takes 2 to {MAX_ROOMS} rooms, not {rooms}")
    if not 0 <= keys <= MAX_KEYS:
        raise RequestError(f"{{keys}} takes 0 to {MAX_KEYS} keys, not {keys}")
    if not 1 <= floors <= MAX_FLOORS:
        raise RequestError(f"{{floors}} takes 1 to {MAX_FLOORS} floors, not {floors}")
    if not all(MIN_SIDE <= side <= MAX_SIDE for side in size):
        raise DesignerError(
            f"a cave's rooms are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}, not {size[0]}x{size[1]}"
        )
    if shape is not None:
        if shape not in SHAPES:
            raise RequestError(
                f"{{shape}} takes one of {', '.join(SHAPES)}, not " + literal(repr(shape))
            )
        reason = why_not(shape, rooms, keys, floors)
        if reason:
            raise DesignerError(reason)
    elif not shapes_for(rooms, keys, floors):
        least = min(least_rooms(shape, keys, floors) for shape in SHAPES)
        raise DesignerError(
            f"{_counted(keys, floors)} need at least {least} rooms, not {rooms}: a side room for "
            f"each key, and a main way a room longer than the keys, with a room on every floor"
        )


def pick_shape(rooms: int, keys: int, floors: int, seed: int) -> str:
    """The shape a seed gives: ``seed`` modulo the shapes that fit, so that seeds in a row give
    each shape in turn."""
    fitting = shapes_for(rooms, keys, floors)
    return fitting[seed % len(fitting)]


def _sides(rng: random.Random, size: tuple[int, int], low: int, high: int) -> tuple[int, int]:
    """Sides from ``low`` below to ``high`` above ``size``'s, within the grammar's."""

    def side(of: int) -> int:
        return rng.randint(max(MIN_SIDE, of - low), min(MAX_SIDE, of + high))

    return side(size[0]), side(size[1])


def draw(
    rooms: int,
    keys: int,
    size: tuple[int, int],
    seed: int = 0,
    floors: int = 1,
    shape: str | None = None,
    dressing: Dressing = PLAIN,
) -> Cave:
    """The cave's graph of rooms, every room free (see the module docstring), dressed as
    ``dressing`` says."""
    check(rooms, keys, size, floors, shape)
    dressing.check(rooms, keys)
    shape = shape or pick_shape(rooms, keys, floors, seed)
    rng = random.Random(f"{shape} {seed}")
    loop = 2 if shape == "loop" else 0
    main = rooms - keys - loop
    h, w = size
    drawing = Drawing(rng)
    given = list(dressing.names)
    key_names = list(dressing.key_names) or list(KEYS[:keys])

    # the main way's rooms on the floors: floor `floors` first, each floor at least one room; a
    # loop's two rooms on one floor, with rooms enough before the way's last step for the keys
    def fits(k: int, floor_of: list[int]) -> bool:
        return (
            floor_of[k] == floor_of[k + 1]
            and sum(1 for j in range(main - 1) if j not in (k, k + 1)) >= keys
        )

    for _ in range(100):
        cuts = sorted(rng.sample(range(1, main), floors - 1))
        floor_of = [floors - sum(1 for cut in cuts if cut <= k) for k in range(main)]
        spots = [k for k in range(main - 1) if fits(k, floor_of)]
        if not loop or spots:
            break
    else:  # a room a floor, and the rest on floor 1: the loop at the way's end
        floor_of = [max(floors - k, 1) for k in range(main)]
        spots = [main - 2]
    at_loop = rng.choice(spots) if loop else None  # main rooms at_loop and at_loop + 1
    names = given[:main] or [named(MAIN_ROOMS, k) for k in range(main)]

    def below(host: int, name: str, width: int | None = None) -> None:
        """Room ``name`` below main room ``host``, as wide as it or narrower."""
        upper = drawing.rooms[names[host]].size
        sides = (h, w)
        if dressing.varied:
            sides = _sides(rng, upper, 3, 0)
        drawing.room(name, floor_of[host], (upper[0], left[host]), (sides[0], width or sides[1]))

    # the rooms the side rooms hang below (none below the loop's, none after the way's last
    # step), then the gates (steps k -> k + 1 of the main way, never the loop's)
    hosts = sorted(
        rng.sample(
            [k for k in range(main - 1) if at_loop is None or k not in (at_loop, at_loop + 1)], keys
        )
    )
    pattern = patterns(shape, keys, dressing.varied, rng)
    ends = hosts[1:] + [main - 1]
    locks = {
        rng.choice([k for k in range(hosts[j], ends[j]) if k != at_loop]): key_names[j]
        for j in range(keys)
        if pattern[j] == "gate"
    }

    # the main rooms, side by side on each floor; a room with a room below keeps its bottom
    # corners (its doorways down need the wall)
    left: dict[int, int] = {}  # each main room's first column on its floor's plan
    held_up = set(hosts) | ({at_loop, at_loop + 1} if at_loop is not None else set())
    for k in range(main):
        sides = (h, w)
        cut: tuple[str, ...] = ()
        if dressing.varied:
            sides = _sides(rng, size, 2, 2)
            corners = sorted(c for c in CORNERS if k not in held_up or c.startswith("top"))
            if min(sides) >= 9 and rng.random() < 0.5:
                cut = tuple(rng.sample(corners, rng.randint(1, 2)))
        same = k and floor_of[k] == floor_of[k - 1]
        left[k] = left[k - 1] + drawing.rooms[names[k - 1]].size[1] if same else 0
        drawing.room(names[k], floor_of[k], (0, left[k]), sides, cut)

    # the main way: doorways on a floor, a ladder up from one floor to the next
    for k in range(main - 1):
        if floor_of[k] == floor_of[k + 1]:
            drawing.side_by_side(names[k], names[k + 1], locks.get(k))
        else:
            a = drawing.any_door(names[k], ("left", "right", "bottom"))
            b = drawing.any_door(names[k + 1], ("left", "right", "bottom"))
            drawing.links.append(Link("ladder", a, b, locks.get(k)))
    # side rooms, each with its key
    vaults = given[main : main + keys] or list(SIDE_ROOMS[:keys])
    for j, host in enumerate(hosts):
        below(host, vaults[j])
        lock = key_names[j - 1] if j and pattern[j - 1] == "chain" else None
        drawing.one_over_other(names[host], vaults[j], 2, lock)
        drawing.key(key_names[j], vaults[j])
    # the loop: two rooms below two main rooms side by side, each as wide as its main room
    if loop:
        assert at_loop is not None  # drawn with the loop
        under = given[main + keys :] or list(LOOP_ROOMS)
        for name, k in zip(under, (at_loop, at_loop + 1)):
            below(k, name, drawing.rooms[names[k]].size[1])
            drawing.one_over_other(names[k], name, 1)
        drawing.side_by_side(*under)

    # holes: back along the way, never past a gate
    last = names[-1]
    exit_ = drawing.door(last, "right")
    if shape == "shortcut":
        drawing.links.append(
            Link(
                "hole",
                drawing.any_door(last, ("left", "bottom")),
                drawing.any_door(names[0], ("right", "bottom")),
            )
        )
    elif floors > 1:
        upper = rng.randint(1, floors - 1)  # a hole from floor `upper` down to the floor below
        top = rng.choice(
            [k for k in range(main) if floor_of[k] == upper and k != main - 1] or [main - 1]
        )
        bottom = rng.choice([k for k in range(main) if floor_of[k] == upper + 1])
        drawing.links.append(
            Link(
                "hole",
                drawing.any_door(names[top], ("left", "right", "bottom")),
                drawing.any_door(names[bottom], ("left", "right", "bottom")),
            )
        )
    entrance = drawing.any_door(names[0], ("right", "bottom"))
    for name in names:
        for _ in range(dressing.snow):
            drawing.mark(name, "_")
    for name in rng.sample(sorted(drawing.rooms), dressing.coins) if dressing.coins else ():
        drawing.mark(name, "$")
    return drawing.cave(entrance, exit_)
