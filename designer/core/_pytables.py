"""The twin of ``kernels_tables.c`` in numpy and plain Python: the slide and passage tables,
breadth-first reachability, and the classifier of one level."""

from __future__ import annotations

from collections import deque

import numpy as np

from designer.core.terrain import ROCK, SNOW, STRONG, UNSOLVABLE, WEAK


def _slide_left(rock: np.ndarray, stops_on: np.ndarray) -> np.ndarray:
    """For each cell of a 2-D grid, the column where a slide to the left ends (-1: not a move).

    A slide from c ends at the nearest cell j < c where it must stop: j is not rock and either
    stops a slide on it (snow, the capturing cell) or has rock or the edge on its left. No rock
    lies between that j and c, for a rock there would make the cell after it such a j.
    """
    h, w = rock.shape
    cols = np.broadcast_to(np.arange(w), (h, w))
    left_blocked = np.ones((h, w), bool)
    left_blocked[:, 1:] = rock[:, :-1]
    stop_cell = ~rock & (stops_on | left_blocked)
    nearest = np.maximum.accumulate(np.where(stop_cell, cols, -1), axis=1)
    before = np.full((h, w), -1, np.int64)
    before[:, 1:] = nearest[:, :-1]
    return np.where(rock | left_blocked, -1, before)


def slide_table(terrain, h: int, w: int, capture: int, dest, length) -> None:
    """Fill ``dest`` and ``length`` (4 x h*w int32) as the compiled slide_table does."""
    grid = np.asarray(terrain, np.uint8).reshape(h, w)
    rock = grid == ROCK
    stops_on = grid == SNOW
    if capture >= 0:
        stops_on = stops_on.copy()
        stops_on[divmod(capture, w)] = True
    dest = np.asarray(dest).reshape(4, h, w)
    length = np.asarray(length).reshape(4, h, w)
    rows = np.arange(h)[:, None]
    cols = np.arange(w)[None, :]
    # Every direction is a slide to the left in a transposed or flipped view of the grid; the end
    # position found there is mapped back to a row (u, d) or a column (l, r) of the grid.
    up = _slide_left(rock.T, stops_on.T).T
    down = h - 1 - _slide_left(rock.T[:, ::-1], stops_on.T[:, ::-1])[:, ::-1].T
    left = _slide_left(rock, stops_on)
    right = w - 1 - _slide_left(rock[:, ::-1], stops_on[:, ::-1])[:, ::-1]
    ends = (  # per direction: moved at all, the flat index of the end, cells travelled
        (up >= 0, up * w + cols, rows - up),
        (down < h, down * w + cols, down - rows),
        (left >= 0, rows * w + left, cols - left),
        (right < w, rows * w + right, right - cols),
    )
    for d, (moved, flat, travelled) in enumerate(ends):
        dest[d] = np.where(moved, flat, -1)
        length[d] = np.where(moved, travelled, 0)


def passage_table(
    terrain, h: int, w: int, floors, nfloors: int, portal_of, capture: int, dest, length
) -> None:
    """Fill ``dest`` and ``length`` (4 x h*w int32) as the compiled passage_table does: the slide
    table of a level with portals, floors or wrap-around, each line of each floor walked once."""
    cells = np.asarray(terrain, np.uint8).reshape(-1).tolist()
    targets = np.asarray(portal_of).reshape(-1).tolist()
    portals = {cell: target for cell, target in enumerate(targets) if target >= 0}
    dest = np.asarray(dest).reshape(4, h * w)
    length = np.asarray(length).reshape(4, h * w)
    dest[:] = -1
    length[:] = 0
    for top, height, width, wrap in np.asarray(floors).reshape(nfloors, 4).tolist():
        for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            rows = range(top, top + height)
            lines = (
                [[r * w + c for c in range(width)] for r in rows]
                if dc
                else [[r * w + c for r in rows] for c in range(width)]
            )
            wraps = bool(wrap & (1 if dc else 2))
            for line in lines:
                if dr < 0 or dc < 0:
                    line.reverse()  # the order of travel
                _walk_line(line, wraps, cells, portals, capture, dest[d], length[d])


def _walk_line(
    line: list[int],
    wraps: bool,
    terrain: list[int],
    portals: dict[int, int],
    capture: int,
    dest: np.ndarray,
    length: np.ndarray,
) -> None:
    """The slides along one line of cells, in the order of travel (``passage_table``): each cell's
    slide is its neighbour's one cell longer, walked back from where slides stop."""
    count = len(line)

    def ends_at(cell: int) -> bool:  # a slide that enters this cell ends there (or on its target)
        return cell in portals or terrain[cell] == SNOW or cell == capture

    if wraps:
        first = next(
            (
                k
                for k in range(count)
                if terrain[line[(k + 1) % count]] == ROCK or ends_at(line[(k + 1) % count])
            ),
            None,
        )
        if first is None:
            return  # nothing stops a slide along this ring: every one runs round for ever
        order = [(first - k) % count for k in range(count)]
    else:
        order = list(range(count - 1, -1, -1))
    for k in order:
        cell = line[k]
        if terrain[cell] == ROCK or (not wraps and k + 1 >= count):
            continue
        after = line[(k + 1) % count]
        if terrain[after] == ROCK:
            continue
        if after in portals:
            dest[cell], length[cell] = portals[after], 1
        elif ends_at(after) or dest[after] < 0:
            dest[cell], length[cell] = after, 1
        else:
            dest[cell], length[cell] = dest[after], length[after] + 1


def reach_lists(
    moves: list[list[int]], n: int, start: int, goal: int
) -> tuple[list[int], list[int]]:
    stops = [-1] * n
    stops[start] = 0
    order = [start]
    head = 0
    while head < len(order):
        u = order[head]
        head += 1
        if u == goal:
            continue
        for v in moves[u]:
            if v >= 0 and stops[v] < 0:
                stops[v] = stops[u] + 1
                order.append(v)
    return stops, order


def _moves(dest: np.ndarray, n: int) -> list[list[int]]:
    """Per cell, its four slide ends (-1 for a non-move), as Python lists."""
    return np.asarray(dest).reshape(4, n).T.tolist()


def reach(dest, n: int, start: int, goal: int, stops, order) -> int:
    got, seq = reach_lists(_moves(dest, n), n, start, goal)
    stops[:] = got
    order[: len(seq)] = seq
    return len(seq)


def all_reach_goal(dest, n: int, order, count: int, goal: int) -> bool:
    dist = distances_to_goal(_moves(dest, n), n, goal)
    return all(dist[int(u)] >= 0 for u in np.asarray(order)[:count])


def distances_to_goal(moves: list[list[int]], n: int, goal: int) -> list[int]:
    """Moves from every cell to ``goal`` (-1 where it cannot be reached); the goal ends the game."""
    back: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        if u != goal:
            for v in moves[u]:
                if v >= 0:
                    back[v].append(u)
    dist = [-1] * n
    dist[goal] = 0
    queue = deque([goal])
    while queue:
        v = queue.popleft()
        for u in back[v]:
            if dist[u] < 0:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def move_table(terrain: np.ndarray, h: int, w: int, capture: int) -> list[list[int]]:
    n = h * w
    dest = np.empty((4, n), np.int32)
    length = np.empty((4, n), np.int32)
    slide_table(terrain, h, w, capture, dest, length)
    return _moves(dest, n)


def classify_one(
    terrain: np.ndarray, h: int, w: int, start: int, goal: int
) -> tuple[int, bool, int]:
    n = h * w
    moves = move_table(terrain, h, w, goal)
    stops, order = reach_lists(moves, n, start, goal)
    if stops[goal] < 0:
        return UNSOLVABLE, False, -1
    to_goal = distances_to_goal(moves, n, goal)
    klass = STRONG if all(to_goal[u] >= 0 for u in order) else WEAK
    back_stops, _ = reach_lists(move_table(terrain, h, w, start), n, goal, start)
    return klass, back_stops[start] >= 0, stops[goal]


def classify_batch(
    terrains, count: int, h: int, w: int, starts, goals, classes, reversible, min_stops
) -> None:
    grids = np.asarray(terrains, np.uint8).reshape(count, h * w)
    for k in range(count):
        classes[k], reversible[k], min_stops[k] = classify_one(
            grids[k], h, w, int(starts[k]), int(goals[k])
        )
