"""An independent, deliberately naive reading of the rules, for cross-checking.

Nothing here imports the library's rule code: slides walk cell by cell over plain lists of
strings (canonical rows), and searches enumerate move strings.
"""

from __future__ import annotations

ORDER = str.maketrans("udlr", "0123")  # compare move strings in u, d, l, r order
UNORDER = str.maketrans("0123", "udlr")
DELTA = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def find(rows: list[str], ch: str) -> tuple[int, int]:
    for r, row in enumerate(rows):
        if ch in row:
            return r, row.index(ch)
    raise ValueError(ch)


def walk(rows: list[str], cell, letter: str, goal=None):
    """(end cell, cells travelled) of one slide, or None when the player does not move."""
    goal = find(rows, "G") if goal is None else goal
    dr, dc = DELTA[letter]
    r, c = cell
    moved = 0
    while True:
        nr, nc = r + dr, c + dc
        if not (0 <= nr < len(rows) and 0 <= nc < len(rows[0])) or rows[nr][nc] == "#":
            break
        r, c = nr, nc
        moved += 1
        if rows[r][c] == "_" or (r, c) == goal:
            break
    return ((r, c), moved) if moved else None


def brute_force(rows: list[str], max_moves: int, start=None, goal=None):
    """Enumerate every move string of up to ``max_moves`` moves, in u, d, l, r order.

    Returns (stops, distance, moves) of the best solution found under "fewest moves, then least
    distance, then first in u-d-l-r order", or None when no string that short reaches the goal.
    """
    start = find(rows, "S") if start is None else start
    goal = find(rows, "G") if goal is None else goal
    best = None

    def dfs(cell, letters: str, distance: int):
        nonlocal best
        if cell == goal:
            key = (len(letters), distance, letters.translate(ORDER))
            if best is None or key < best:
                best = key
            return
        if len(letters) == max_moves:
            return
        for letter in "udlr":
            step = walk(rows, cell, letter, goal)
            if step is not None:
                dfs(step[0], letters + letter, distance + step[1])

    dfs(start, "", 0)
    return None if best is None else (best[0], best[1], best[2].translate(UNORDER))


def reachable(rows: list[str], start, goal) -> dict:
    """Naive move graph: {cell: {successor cells}} for cells reachable from start; goal terminal."""
    graph, todo = {}, [start]
    while todo:
        cell = todo.pop()
        if cell in graph:
            continue
        graph[cell] = set()
        if cell == goal:
            continue
        for letter in "udlr":
            step = walk(rows, cell, letter, goal)
            if step is not None:
                graph[cell].add(step[0])
                todo.append(step[0])
    return graph


def naive_class(rows: list[str]) -> tuple[str, bool]:
    """(solvability, reversible) straight from the definitions in docs/spec.md."""
    start, goal = find(rows, "S"), find(rows, "G")
    graph = reachable(rows, start, goal)
    if goal not in graph:
        return "unsolvable", False

    def reaches(a, target, g):
        seen, todo = set(), [a]
        while todo:
            x = todo.pop()
            if x == target:
                return True
            if x not in seen:
                seen.add(x)
                todo.extend(g.get(x, ()))
        return False

    strong = all(reaches(cell, goal, graph) for cell in graph)
    back = reachable(rows, goal, start)  # swapped: start captures, goal is plain ice
    return ("strong" if strong else "weak"), start in back


def count_fewest(rows: list[str], max_moves: int) -> tuple[int, int] | None:
    """(fewest moves, how many move strings of that length reach the goal), by enumerating every
    move string of up to ``max_moves`` moves; None when none that short does."""
    start, goal = find(rows, "S"), find(rows, "G")
    frontier = {"": start}
    for length in range(max_moves + 1):
        hits = sum(1 for cell in frontier.values() if cell == goal)
        if hits:
            return length, hits
        frontier = {letters + letter: step[0] for letters, cell in frontier.items() for letter in "udlr"
                    if cell != goal and (step := walk(rows, cell, letter, goal)) is not None}
    return None


def item_slide(rows: list[str], cell, taken: frozenset, letter: str):
    """One slide of a level with items (``*``), cell by cell: (end cell, items taken after it,
    cells travelled), or None when the player does not move. An item is taken when the player
    passes over it or stops on it; the goal captures only once every item is taken."""
    goal = find(rows, "G")
    items = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*")
    dr, dc = DELTA[letter]
    r, c = cell
    moved = 0
    while True:
        nr, nc = r + dr, c + dc
        if not (0 <= nr < len(rows) and 0 <= nc < len(rows[0])) or rows[nr][nc] == "#":
            break
        r, c = nr, nc
        moved += 1
        if (r, c) in items:
            taken = taken | {(r, c)}
        if rows[r][c] == "_" or ((r, c) == goal and taken == items):
            break
    return ((r, c), taken, moved) if moved else None


def item_game(rows: list[str]):
    """The game of a level with items, searched breadth-first over (cell, items taken) from the
    start: (states reached, {state: moves left to the end (absent: cannot finish)}, the end state).
    No move leaves the end state."""
    start, goal = find(rows, "S"), find(rows, "G")
    items = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*")
    end = (goal, items)
    first = (start, frozenset())
    seen, todo, edges = {first}, [first], {}
    while todo:
        state = todo.pop()
        edges[state] = []
        if state == end:
            continue
        for letter in "udlr":
            step = item_slide(rows, state[0], state[1], letter)
            if step is not None:
                nxt = (step[0], step[1])
                edges[state].append((letter, nxt, step[2]))
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    left = {end: 0} if end in seen else {}
    layer = [end] if end in seen else []
    while layer:
        after = []
        for state in seen:
            if state not in left and any(nxt in layer for _, nxt, _ in edges[state]):
                left[state] = left[layer[0]] + 1
                after.append(state)
        layer = after
    return seen, left, end, edges


def item_best(rows: list[str]):
    """(stops, distance, moves) of the printed solution of a level with items: fewest moves, then
    least distance, then the first in u, d, l, r order; None when it cannot be finished."""
    seen, left, end, edges = item_game(rows)
    start = (find(rows, "S"), frozenset())
    if start not in left:
        return None
    cost = {end: (0, 0)}
    for _ in range(len(seen)):  # Bellman-Ford on (moves, distance): tiny graphs
        for state in seen:
            for _, nxt, n in edges[state]:
                if nxt in cost and (c := (cost[nxt][0] + 1, cost[nxt][1] + n)) < cost.get(state, (1 << 30, 0)):
                    cost[state] = c
    state, letters = start, ""
    while state != end:
        for letter, nxt, n in edges[state]:
            if nxt in cost and (cost[nxt][0] + 1, cost[nxt][1] + n) == cost[state]:
                letters += letter
                state = nxt
                break
    return cost[start][0], cost[start][1], letters
