"""The Python twin of the compiled ``refute_explain`` (``_kernels.c``): why a layout fails, as
the literals that force the failure (the counterexample loop's clauses, ``designer.models.refute``).

Same rules, same choices and the same clauses as the compiled one, written for reading: the
may-reach set is computed afresh for every literal tried (the compiled one grows it ray by ray),
which gives the same answer, since whether a literal can go depends only on the set.

A literal is +v (free cell of variable v is rock) or -v (ice). The kinds: 0 short (a way of fewer
than K moves, fixed by its literals), 1 trap (a fixed way to a cell from which the goal is out of
reach in every layout that keeps the literals), 2 back (the start out of the goal's reach in the
swapped level).
"""

from __future__ import annotations

import heapq

ROCK, SNOW = 1, 2
DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))
CANDIDATES = 16  # trapped cells explained per weak layout (the smallest closures)
HEAP_KEY = 1600  # the compiled heap's key: cost * HEAP_KEY + cell


class _Layout:
    def __init__(self, base, var, h: int, w: int, nv: int, model):
        self.h, self.w, self.n, self.nv = h, w, h * w, nv
        self.var = [int(v) for v in var]
        self.base = [int(t) for t in base]
        self.tile = [
            (ROCK if v <= len(model) and model[v - 1] > 0 else 0) if v else self.base[i]
            for i, v in enumerate(self.var)
        ]  # a variable past the model's end is ice
        self.cell_of = {v: i for i, v in enumerate(self.var) if v}

    def next(self, cell: int, d: int) -> int:
        r, c = divmod(cell, self.w)
        r, c = r + DELTAS[d][0], c + DELTAS[d][1]
        return r * self.w + c if 0 <= r < self.h and 0 <= c < self.w else -1

    def slide(self, u: int, d: int, cap: int) -> tuple[int, list[int]]:
        """Where the slide from u in d ends (-1: not a move) and the literals that fix it."""
        cell, lits = u, []
        while True:
            j = self.next(cell, d)
            if j < 0:
                break
            v = self.var[j]
            if self.tile[j] == ROCK:
                if v:
                    lits.append(v)
                break
            if v:
                lits.append(-v)
            cell = j
            if self.tile[j] == SNOW or j == cap:
                break
        return (-1 if cell == u else cell), lits

    def table(self, cap: int) -> list[list[tuple[int, list[int]]]]:
        return [
            [(-1, []) if self.tile[u] == ROCK else self.slide(u, d, cap) for d in range(4)]
            for u in range(self.n)
        ]

    def bfs(self, table, origin: int, cap: int) -> tuple[list[int], list[int]]:
        dist, order = [-1] * self.n, [origin]
        dist[origin] = 0
        for u in order:
            if u == cap:
                continue
            for v, _ in table[u]:
                if v >= 0 and dist[v] < 0:
                    dist[v] = dist[u] + 1
                    order.append(v)
        return dist, order

    def may_reach(self, known: list[int], origin: int, cap: int, target: int) -> bool:
        """Whether target may be a rest from origin in some layout that keeps ``known``."""
        seen, stack = {origin}, [origin]
        while stack:
            u = stack.pop()
            if u == cap:
                continue
            for d in range(4):
                prev, rests = u, []
                while True:
                    j = self.next(prev, d)
                    k = ROCK if j < 0 else known[j]
                    if k == ROCK:
                        break
                    if k < 0 and prev != u:
                        rests.append(prev)
                    prev = j
                    if k == SNOW or j == cap:
                        break
                if prev != u:
                    rests.append(prev)
                for rest in rests:
                    if rest == target:
                        return True
                    if rest not in seen:
                        seen.add(rest)
                        stack.append(rest)
        return False

    def minimize(
        self, mark: dict[int, int], keep: dict[int, int], origin: int, cap: int, target: int
    ) -> None:
        known = [-1 if v else self.base[i] for i, v in enumerate(self.var)]
        for v, sign in mark.items():
            known[self.cell_of[v]] = ROCK if sign > 0 else 0
        for v in sorted(mark):
            if v in keep:
                continue
            cell = self.cell_of[v]
            known[cell] = -1
            if self.may_reach(known, origin, cap, target):
                known[cell] = ROCK if mark[v] > 0 else 0
            else:
                del mark[v]


def _mark(mark: dict[int, int], lits: list[int]) -> None:
    for lit in lits:
        mark[abs(lit)] = 1 if lit > 0 else -1


def _emit(mark: dict[int, int], kind: int, route: int, detail: int, out) -> int:
    lits = [v if mark[v] > 0 else -v for v in sorted(mark)]
    if 4 + len(lits) > len(out):
        raise ValueError("refute_explain: out is too small")
    out[: 4 + len(lits)] = [kind, route, detail, len(lits), *lits]
    return 4 + len(lits)


def refute_explain(base, var, h: int, w: int, nv: int, routes, nroutes: int, model, out) -> int:
    """-1 when every route of the layout passes, else the entries of the first failing route's
    explanation written to ``out``: kind, route, detail (the short way's length, or the trapped
    cell), the number of literals, then the literals in variable order."""
    x = _Layout(base, var, h, w, nv, model)
    for r in range(nroutes):
        start, goal, K = (int(v) for v in routes[3 * r : 3 * r + 3])
        table = x.table(goal)
        dist, order = x.bfs(table, start, goal)
        if 0 <= dist[goal] < K:
            return _short(x, table, start, goal, K, r, out)
        good = {goal} if dist[goal] >= 0 else set()
        changed = True
        while changed:
            changed = False
            for u in reversed(order):
                if u not in good and u != goal and any(v >= 0 and v in good for v, _ in table[u]):
                    good.add(u)
                    changed = True
        bad = [i for i in range(x.n) if dist[i] >= 0 and i not in good]
        if bad:
            return _trap(x, table, start, goal, bad, r, out)
        back = x.table(start)
        dist, _ = x.bfs(back, goal, start)
        if dist[start] >= 0:
            continue
        mark: dict[int, int] = {}
        for i in range(x.n):
            if dist[i] >= 0:
                for d in range(4):
                    _mark(mark, back[i][d][1])
        x.minimize(mark, {}, goal, start, start)
        return _emit(mark, 2, r, goal, out)
    return -1


def _short(x: _Layout, table, start: int, goal: int, K: int, route: int, out) -> int:
    cost = [[-1] * x.n for _ in range(K)]
    came = [[-1] * x.n for _ in range(K)]
    cost[0][start] = 0
    best = -1
    for k in range(1, K):
        for u in range(x.n):
            cu = cost[k - 1][u]
            if cu < 0 or u == goal:
                continue
            for d, (v, lits) in enumerate(table[u]):
                if v >= 0 and (cost[k][v] < 0 or cu + len(lits) < cost[k][v]):
                    cost[k][v], came[k][v] = cu + len(lits), u * 4 + d
        if cost[k][goal] >= 0 and (best < 0 or cost[k][goal] < cost[best][goal]):
            best = k
    mark: dict[int, int] = {}
    v = goal
    for k in range(best, 0, -1):
        u, d = divmod(came[k][v], 4)
        _mark(mark, table[u][d][1])
        v = u
    return _emit(mark, 0, route, best, out)


def _closure_mark(x: _Layout, table, t: int, goal: int) -> dict[int, int]:
    dist, _ = x.bfs(table, t, goal)
    mark: dict[int, int] = {}
    for i in range(x.n):
        if dist[i] >= 0:
            for d in range(4):
                _mark(mark, table[i][d][1])
    return mark


def _trap(x: _Layout, table, start: int, goal: int, bad: list[int], route: int, out) -> int:
    sizes = {t: len(_closure_mark(x, table, t, goal)) for t in bad}
    candidates = sorted(bad, key=lambda t: (sizes[t], t))[:CANDIDATES]
    via = _cheapest(x, table, start, goal)
    best, best_t = None, -1
    for t in candidates:
        keep: dict[int, int] = {}
        v = t
        while v != start:
            u, d = divmod(via[v], 4)
            _mark(keep, table[u][d][1])
            v = u
        if best is not None and len(keep) >= len(best):
            continue  # its way alone is as long as the best: it cannot do better
        mark = _closure_mark(x, table, t, goal)
        mark.update(keep)
        x.minimize(mark, keep, t, goal, goal)
        if best is None or len(mark) < len(best):
            best, best_t = mark, t
    assert best is not None  # bad is never empty, and the first candidate is always kept
    return _emit(best, 1, route, best_t, out)


def _cheapest(x: _Layout, table, origin: int, cap: int) -> list[int]:
    """Fewest-literal ways from origin: the move (u * 4 + d) that reaches each cell, -1 for none."""
    cost: list = [None] * x.n  # None: not reached yet
    via = [-1] * x.n
    cost[origin] = 0
    heap = [origin]
    while heap:
        top = heapq.heappop(heap)
        cu, u = divmod(top, HEAP_KEY)
        if cu > cost[u] or u == cap:
            continue
        for d, (v, lits) in enumerate(table[u]):
            if v < 0 or (cost[v] is not None and cu + len(lits) >= cost[v]):
                continue
            cost[v], via[v] = cu + len(lits), u * 4 + d
            heapq.heappush(heap, cost[v] * HEAP_KEY + v)
    return via
