"""An independent plain reader of a cave's rules (docs/spec.md, "Caves"), for the tests only.

It shares nothing with ``designer.caves.graph`` but the cave value type: no sheet, no portals,
no tables. A state is (room, row, col, keys held); a slide walks the room's own rows one cell at
a time: rock, the room's edge and a shut door stop it before; snow stops it on; a key is taken
on the way; an open linked door takes the player to the other end of its link; the exit ends
the cave. With coins, a state also holds the coins taken (a fifth part), and a slide takes each
coin it passes or stops on.
"""

from __future__ import annotations

from collections import deque

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
EXIT = "exit"


def _doors(cave):
    """{(room, cell): (link, the door's end: 'a' or 'b')} and the key index of each key cell."""
    at = {}
    for link in cave.links:
        for end, door in (("a", link.a), ("b", link.b)):
            room = cave.by_name[door[0]]
            cell = next(cell for n, cell in _numbered(room.rows) if n == door[1])
            at[(door[0], cell)] = (link, end)
    return at


def _numbered(rows):
    return [(int(ch), (r, c)) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "123456789"]


def _door_cell(cave, door):
    return next(cell for n, cell in _numbered(cave.by_name[door[0]].rows) if n == door[1])


def coin_bits(cave):
    """Each coin's bit, by (room, cell): room by room, each room's in row order."""
    cells = [(room.name, (r, c)) for room in cave.rooms for r, row in enumerate(room.rows)
             for c, ch in enumerate(row) if ch == "$"]
    return {cell: 1 << k for k, cell in enumerate(cells)}


def moves(cave, state, capture=True, without=None):
    """The states one move leads to from ``state``, in the order u, d, l, r (None: no move).
    A state of five parts counts coins too: the exit is then (EXIT, coins taken)."""
    at = _doors(cave)
    coins = coin_bits(cave) if len(state) == 5 else {}
    names = [key.name for key in cave.keys]
    keys = {(key.room, key.cell): k for k, key in enumerate(cave.keys) if k != without}
    exit_cell = (cave.exit[0], _door_cell(cave, cave.exit))
    room, r, c, held, *rest = state
    rows = cave.by_name[room].rows
    found = []
    for dr, dc in STEPS:
        rr, cc, have, moved, end = r, c, held, False, None
        got = list(rest)
        while True:
            nr, nc = rr + dr, cc + dc
            if not (0 <= nr < len(rows) and 0 <= nc < len(rows[0])) or rows[nr][nc] == "#":
                break
            link = at.get((room, (nr, nc)))
            is_open = link is None or link[0].lock is None or have >> names.index(link[0].lock) & 1
            if link is not None and not is_open and (link[1] == "a" or not link[0].one_way):
                break  # a shut door is a wall
            rr, cc, moved = nr, nc, True
            if (room, (rr, cc)) in keys:
                have |= 1 << keys[(room, (rr, cc))]
            if got and (room, (rr, cc)) in coins:
                got[0] |= coins[(room, (rr, cc))]
            if capture and (room, (rr, cc)) == exit_cell:
                end = (EXIT, *got) if got else EXIT
                break
            if link is not None and (link[1] == "a" or not link[0].one_way):
                other = link[0].b if link[1] == "a" else link[0].a
                end = (other[0], *_door_cell(cave, other), have, *got)
                break
            if rows[rr][cc] == "_":
                break
        if end is None and moved:
            end = (room, rr, cc, have, *got)
        found.append(end)
    return found


def start(cave):
    return (cave.entrance[0], *_door_cell(cave, cave.entrance), 0)


def explore(cave, capture=True, without=None):
    """Every state reached from the entrance, with its fewest moves."""
    first = start(cave)
    seen = {first: 0}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if state == EXIT:
            continue
        for nxt in moves(cave, state, capture, without):
            if nxt is not None and nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    return seen


def min_stops(cave, without=None):
    """The cave's min stops (-1: the exit cannot be reached)."""
    return explore(cave, without=without).get(EXIT, -1)


def _reaches(cave, seen, targets, capture=True):
    """The states of ``seen`` from which some state of ``targets`` can be reached."""
    back = {}
    for state in seen:
        if state == EXIT:
            continue
        for nxt in moves(cave, state, capture):
            if nxt is not None:
                back.setdefault(nxt, []).append(state)
    good = set(t for t in targets if t in seen)
    queue = deque(good)
    while queue:
        for prev in back.get(queue.popleft(), []):
            if prev not in good:
                good.add(prev)
                queue.append(prev)
    return good


def strong(cave):
    seen = explore(cave)
    return EXIT in seen and _reaches(cave, seen, [EXIT]) >= set(seen)


def reversible(cave):
    """From every state reached with the exit as plain ice, the entrance can be reached again."""
    seen = explore(cave, capture=False)
    room, r, c, _ = start(cave)
    targets = [(room, r, c, held) for held in range(1 << len(cave.keys))]
    return _reaches(cave, seen, targets, capture=False) >= set(seen)


def rooms_reached(cave):
    return {state[0] for state in explore(cave) if state != EXIT}


def full_clear(cave):
    """The fewest moves that take every coin and then leave by the exit (-1: none)."""
    every = (1 << len(coin_bits(cave))) - 1
    first = (*start(cave), 0)
    seen = {first: 0}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        if state[0] == EXIT:
            if state == (EXIT, every):
                return seen[state]
            continue
        for nxt in moves(cave, state):
            if nxt is not None and nxt not in seen:
                seen[nxt] = seen[state] + 1
                queue.append(nxt)
    return -1
