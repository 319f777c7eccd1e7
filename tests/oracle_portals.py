"""An independent, deliberately naive reading of the portal and wrap-around rules.

Nothing here imports the library. A level is given as plain data: ``rows`` (the sheet of every
floor, canonical characters, portals as '.'), ``floors`` as (top, height, width, wrap) tuples,
``portals`` as {cell: target}, and the start, goal and items. A slide walks cell by cell; a
slide that comes back to a cell with the same items taken runs for ever (no stop count is
used, unlike the library). Searches are breadth-first over (cell, items taken).
"""

from __future__ import annotations

from collections import deque

DELTA = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def floor_of(floors, cell):
    for top, height, width, wrap in floors:
        if top <= cell[0] < top + height and 0 <= cell[1] < width:
            return top, height, width, wrap
    raise ValueError(cell)


def step(floors, cell, letter):
    """The next cell in a direction on the cell's floor (wrapped), or None past an edge."""
    top, height, width, wrap = floor_of(floors, cell)
    dr, dc = DELTA[letter]
    r, c = cell[0] + dr - top, cell[1] + dc
    if not 0 <= r < height:
        if "y" not in wrap:
            return None
        r %= height
    if not 0 <= c < width:
        if "x" not in wrap:
            return None
        c %= width
    return r + top, c


def slide(level, cell, letter, taken):
    """(end cell, taken after, cells slid) of one move from (cell, taken), or None."""
    rows, floors, portals, goal, items = (level[k] for k in ("rows", "floors", "portals", "goal", "items"))
    everything = (1 << len(items)) - 1
    seen = set()
    moved = 0
    before = (cell, taken)
    while True:
        if (cell, taken) in seen:
            return None  # round and round: here before, with the same items taken
        seen.add((cell, taken))
        nxt = step(floors, cell, letter)
        if nxt is None or rows[nxt[0]][nxt[1]] == "#":
            break
        cell = nxt
        moved += 1
        if cell in items:
            taken |= 1 << items.index(cell)
        if cell in portals:
            cell = portals[cell]
            if cell in items:
                taken |= 1 << items.index(cell)
            break
        if rows[cell[0]][cell[1]] == "_" or (cell == goal and taken == everything):
            break
    # a direction that leaves the player where they were (nothing taken) is no move
    return (cell, taken, moved) if moved and (cell, taken) != before else None


def figures(level):
    """(moves out of the reachable states, distinct fewest-moves move strings): each direction
    that moves the player is a move of its own, even where two end in one state."""
    stops, edges = search(level, level["start"], level["goal"])
    everything = (1 << len(level["items"])) - 1
    end = (level["goal"], everything)
    moves = sum(len(outs) for outs in edges.values())
    if stops is None:
        return moves, 0
    ways, frontier = {(level["start"], 0): 1}, {(level["start"], 0)}
    for _ in range(stops):
        nxt_ways = {}
        for state in frontier:
            for nxt in edges.get(state, ()):
                nxt_ways[nxt] = nxt_ways.get(nxt, 0) + ways[state]
        ways, frontier = nxt_ways, set(nxt_ways)
    return moves, ways.get(end, 0)


def search(level, start, goal):
    """Fewest moves from (start, none) to (goal, all), and the states reached: (stops or None, reached)."""
    everything = (1 << len(level["items"])) - 1
    begin, end = (start, 0), (goal, everything)
    level = {**level, "goal": goal}
    depth = {begin: 0}
    queue = deque([begin])
    edges = {}
    while queue:
        state = queue.popleft()
        edges[state] = []
        if state == end:
            continue
        for letter in "udlr":
            moved = slide(level, state[0], letter, state[1])
            if moved is None:
                continue
            nxt = (moved[0], moved[1])
            edges[state].append(nxt)
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                queue.append(nxt)
    return depth.get(end), edges


def classify(level):
    """(class name, reversible, min stops or None), as the rules define them."""
    stops, edges = search(level, level["start"], level["goal"])
    everything = (1 << len(level["items"])) - 1
    end = (level["goal"], everything)
    if stops is None:
        klass = "unsolvable"
    else:
        back = {state: [] for state in edges}
        for state, outs in edges.items():
            for nxt in outs:
                back[nxt].append(state)
        good, todo = {end}, [end]
        while todo:
            for prev in back[todo.pop()]:
                if prev not in good:
                    good.add(prev)
                    todo.append(prev)
        klass = "strong" if len(good) == len(edges) else "weak"
    reverse, _ = search(level, level["goal"], level["start"])
    return klass, stops is not None and reverse is not None, stops
