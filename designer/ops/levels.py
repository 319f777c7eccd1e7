"""Solving and analysing a puzzle file: what it holds read (a path, or - for standard input) and
handed to its kind (``designer.ops.kinds``), which answers with plain results for a shell to
show: a level's ``Solved`` and ``Analysed`` (``designer.ops.kinds.level``), a room's routes each
solved or analysed as the classic level it is (``designer.ops.kinds.room``), a cave's way through
(``designer.ops.kinds.cave``)."""

from __future__ import annotations

from designer.ops.kinds.registry import kind_of, read


def solve(
    source: str,
    *,
    by: str = "moves",
    routes: list | None = None,
    time_limit: float = 10.0,
    budget=None,
):
    """Read a level, a room or a cave (a path, or - for standard input) and solve it: fewest
    moves (ties: least distance) or least distance (``by="distance"``); with coins, its full
    clear too (within ``time_limit`` seconds, or ``budget``, a ``Budget`` the caller started:
    ``designer.analysis.tour``). A room: each of ``routes`` (pairs of doors; every pair i < j
    when None)."""
    from designer.core.budget import Budget

    # from the start: reading and the exit's solution count too
    budget = budget or Budget(time_limit)
    found = read(source, routes)
    return kind_of(found).solve(found, by=by, routes=routes, budget=budget)


def analyze(
    source: str, *, routes: list | None = None, player=None, time_limit: float = 10.0, budget=None
):
    """Read a level and analyse it: class, reversibility, min stops, SCCs, traps, figures, and
    what the model's ``player`` (``designer.analysis.player.Player``; default: the fitted one)
    costs on it. A room: each of ``routes`` (every pair of doors i < j when None), and the room
    as a whole. A cave: its way through, its rooms and keys."""
    from designer.core.budget import Budget

    budget = budget or Budget(time_limit)  # from the start: reading and the analysis count too
    found = read(source, routes)
    return kind_of(found).analyze(found, routes=routes, player=player, budget=budget)
