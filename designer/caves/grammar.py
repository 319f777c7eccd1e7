"""A cave asked for from nothing: a number of rooms, of keys, and a room size.

As a mission grammar would, it draws the graph of rooms first, with its lock and key structure,
and leaves every room's inside free for the designer: a **main way** of rooms side by side from
the entrance (in the first room's top wall) to the exit (in the last room's right wall), joined by
doorways in their shared walls; and for each key a **side room** below a main room, joined to it
by two doorways, the key (a ``*``) inside it. Key j's side room hangs below an earlier main room
than the doorway it locks, and every lock is on the main way, so every key is needed: without
it the exit cannot be reached. Every choice (the rooms keys hang from, the locked doorways, the
rows and columns of the doors, the keys' cells) flows from ``seed``.

>>> cave = draw(rooms=4, keys=1, size=(7, 7), seed=1)
>>> [room.name for room in cave.rooms], [link.lock for link in cave.links]
(['m1', 'm2', 'm3', 's1'], [None, None, None, 'k1'])
"""

from __future__ import annotations

import random

from designer.caves.cave import MAX_KEYS, MAX_ROOMS, Cave, CaveRoom, Key, Link
from designer.core.errors import DesignerError

#: The smallest room a cave is drawn with: a main room may have four doors, and a 6x6 room with
#: four doors is often proven unable to hold every route strong and reversible.
MIN_SIDE = 7
MAX_SIDE = 40


def check(rooms: int, keys: int, size: tuple[int, int]) -> None:
    """One DesignerError line for a drawing that cannot be made."""
    if not 2 <= rooms <= MAX_ROOMS:
        raise DesignerError(f"--rooms takes 2 to {MAX_ROOMS} rooms, not {rooms}")
    if not 0 <= keys <= MAX_KEYS:
        raise DesignerError(f"--keys takes 0 to {MAX_KEYS} keys, not {keys}")
    if keys and rooms - keys < keys + 1:
        raise DesignerError(f"{keys} key{'s' if keys > 1 else ''} need{'s' if keys == 1 else ''} at least "
                            f"{2 * keys + 1} rooms: a side room each, and a main way one room longer than the keys")
    if not all(MIN_SIDE <= side <= MAX_SIDE for side in size):
        raise DesignerError(f"a cave's rooms are {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}, not {size[0]}x{size[1]}")


def draw(rooms: int, keys: int, size: tuple[int, int], seed: int = 0) -> Cave:
    """The cave's graph of rooms, every room free (see the module docstring)."""
    check(rooms, keys, size)
    rng = random.Random(seed)
    h, w = size
    main = rooms - keys
    grids = {f"m{k + 1}": _framed(h, w) for k in range(main)}
    grids.update({f"s{j + 1}": _framed(h, w) for j in range(keys)})
    doors: dict[str, int] = {name: 0 for name in grids}

    def door(name: str, cell: tuple[int, int]) -> tuple[str, int]:
        doors[name] += 1
        grids[name][cell[0]][cell[1]] = str(doors[name])
        return name, doors[name]

    entrance = door("m1", (0, rng.randint(1, w - 2)))
    hangs = sorted(rng.sample(range(main - 1), keys))  # the main rooms the side rooms hang below
    locked = {}
    for j, at in enumerate(hangs):  # key j's lock: a doorway after its side room, before the next one's
        end = hangs[j + 1] - 1 if j + 1 < keys else main - 2
        locked[rng.randint(at, end)] = f"k{j + 1}"
    links = []
    for k in range(main - 1):
        r = rng.randint(1, h - 2)
        links.append(Link("door", door(f"m{k + 1}", (r, w - 1)), door(f"m{k + 2}", (r, 0)), locked.get(k)))
    found_keys = []
    for j, at in enumerate(hangs):
        side = f"s{j + 1}"
        left = rng.randint(1, w - 4)  # two doorways at least two cells apart
        for c in (left, rng.randint(left + 2, w - 2)):
            links.append(Link("door", door(f"m{at + 1}", (h - 1, c)), door(side, (0, c))))
        cell = (rng.randint(1, h - 2), rng.randint(1, w - 2))
        grids[side][cell[0]][cell[1]] = "*"
        found_keys.append(Key(f"k{j + 1}", side, cell))
    exit_ = door(f"m{main}", (rng.randint(1, h - 2), w - 1))
    placed = [CaveRoom(f"m{k + 1}", _rows(grids[f"m{k + 1}"]), (0, k * w)) for k in range(main)]
    placed += [CaveRoom(f"s{j + 1}", _rows(grids[f"s{j + 1}"]), (h, at * w)) for j, at in enumerate(hangs)]
    return Cave(tuple(placed), tuple(sorted(links, key=lambda link: (link.a, link.b))), entrance, exit_,
                tuple(found_keys))


def _framed(h: int, w: int) -> list[list[str]]:
    return [["#"] * w if r in (0, h - 1) else ["#"] + ["?"] * (w - 2) + ["#"] for r in range(h)]


def _rows(grid: list[list[str]]) -> tuple[str, ...]:
    return tuple("".join(row) for row in grid)
