"""An independent, deliberately naive reading of the coin rules (docs/spec.md, "Coins").

Nothing here imports the library: a level is the plain data of ``oracle_portals`` plus
``coins``, a list of cells. A coin is taken as an item is, by passing over it or resting on it
(on a portal's target too); the exit never waits for coins: it captures the player once every
item is taken. The full clear is the fewest moves that take every item and coin and then enter
the exit, found breadth-first over every state (cell, items taken, coins taken) reached.
"""

from __future__ import annotations

from collections import deque

from oracle_portals import step


def slide(level, cell, letter, items, coins):
    """(end cell, items after, coins after, exited) of one move, or None when it is no move."""
    rows, floors, portals, goal = (level[k] for k in ("rows", "floors", "portals", "goal"))
    all_items = (1 << len(level["items"])) - 1
    before, seen, moved = (cell, items, coins), set(), 0
    while True:
        if (cell, items, coins) in seen:
            return None  # round and round for ever
        seen.add((cell, items, coins))
        nxt = step(floors, cell, letter)
        if nxt is None or rows[nxt[0]][nxt[1]] == "#":
            break
        cell, moved = nxt, moved + 1
        items, coins = take(level, cell, items, coins)
        if cell in portals:
            cell = portals[cell]
            items, coins = take(level, cell, items, coins)
            break
        if cell == goal and items == all_items:
            return cell, items, coins, True
        if rows[cell[0]][cell[1]] == "_":
            break
    if not moved or (cell, items, coins) == before:
        return None
    return cell, items, coins, False


def take(level, cell, items, coins):
    if cell in level["items"]:
        items |= 1 << level["items"].index(cell)
    if cell in level["coins"]:
        coins |= 1 << level["coins"].index(cell)
    return items, coins


def full_clear(level):
    """The fewest moves of a full clear, or None when there is none."""
    all_coins = (1 << len(level["coins"])) - 1
    begin = (level["start"], 0, 0)
    depth, queue = {begin: 0}, deque([begin])
    while queue:
        state = queue.popleft()
        for letter in "udlr":
            moved = slide(level, state[0], letter, state[1], state[2])
            if moved is None:
                continue
            cell, items, coins, exited = moved
            if exited:
                if coins == all_coins:
                    return depth[state] + 1
                continue
            nxt = (cell, items, coins)
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                queue.append(nxt)
    return None


def exit_ways(level):
    """The fewest moves to the exit, and the coins every fewest way takes (a bitmask), by
    counting the ways to the exit layer by layer over every state reached."""
    begin = (level["start"], 0, 0)
    frontier, seen, depth = {begin}, {begin}, 0
    while frontier:
        depth += 1
        ended, nxt = [], set()
        for state in frontier:
            for letter in "udlr":
                moved = slide(level, state[0], letter, state[1], state[2])
                if moved is None:
                    continue
                if moved[3]:
                    ended.append(moved[2])
                elif moved[:3] not in seen:
                    nxt.add(moved[:3])
        if ended:
            every = (1 << len(level["coins"])) - 1
            for coins in ended:
                every &= coins
            return depth, every
        seen |= nxt
        frontier = nxt
    return None, 0


def explore(level, most=None):
    """Every state reached, breadth-first: {state: its fewest moves}, each state's moves
    {state: [next states]}, and the moves into the exit {state: [coins taken then]}; None when
    there are more than ``most`` states."""
    begin = (level["start"], 0, 0)
    edges, exits, queue, seen = {}, {}, deque([begin]), {begin: 0}
    while queue:
        if most is not None and len(seen) > most:
            return None
        state = queue.popleft()
        edges[state] = []
        for letter in "udlr":
            moved = slide(level, state[0], letter, state[1], state[2])
            if moved is None:
                continue
            if moved[3]:
                exits.setdefault(state, []).append(moved[2])
                continue
            edges[state].append(moved[:3])
            if moved[:3] not in seen:
                seen[moved[:3]] = seen[state] + 1
                queue.append(moved[:3])
    return seen, edges, exits


def full_clears(level, explored=None):
    """The full clear, and for each coin the full clear of the level without it (None: none), from
    one search (``explored``: ``explore``'s): a coin never changes a move, so the level without
    coin k ends as soon as every other coin is taken."""
    seen, _, exits = explored or explore(level)
    every = (1 << len(level["coins"])) - 1

    def best(mask):
        found = [seen[s] + 1 for s, got in exits.items() if any(c | mask == every for c in got)]
        return min(found) if found else None

    return best(0), [best(1 << k) for k in range(len(level["coins"]))]


def lost_coins(level, explored=None):
    """For each coin, the cells of the states reached with it untaken from which the exit can
    still be reached but never with it taken (every state: (cell, items, coins) reached)."""
    seen, edges, exits = explored or explore(level)
    back = {}
    for s, nxts in edges.items():
        for n in nxts:
            back.setdefault(n, []).append(s)

    def reaching(targets):  # the states from which one of ``targets`` can be reached
        good, todo = set(targets), deque(targets)
        while todo:
            for prev in back.get(todo.popleft(), []):
                if prev not in good:
                    good.add(prev)
                    todo.append(prev)
        return good

    out = reaching(list(exits))
    found = []
    for k in range(len(level["coins"])):
        bit = 1 << k
        can = reaching([s for s, got in exits.items() if any(c & bit for c in got)])
        found.append(sorted({(s[0], s[1]) for s in seen if not s[2] & bit and s in out and s not in can}))
    return found


def rests(level):
    """Every cell the player can rest on (coins aside), by the plain reader's own moves."""
    begin = (level["start"], 0)
    seen, queue = {begin}, deque([begin])
    while queue:
        cell, items = queue.popleft()
        for letter in "udlr":
            moved = slide({**level, "coins": []}, cell, letter, items, 0)
            if moved is not None and not moved[3] and (moved[0], moved[1]) not in seen:
                seen.add((moved[0], moved[1]))
                queue.append((moved[0], moved[1]))
    return {cell for cell, _ in seen}
