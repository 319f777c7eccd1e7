"""A model of a player: what a level costs someone who does not know its solution.

The player (docs/spec.md, "Difficulty") rests on a stop and sees the moves open there. They pick
one by a softmax over what they can see of each move:

- ``toward``: how much nearer the exit the move ends, in cells (Manhattan distance, over the
  grid's larger side), as the level is drawn;
- ``back``: 1 for the move straight back the way they came (the opposite of their last move).

A move's weight is ``exp(skill * (toward - back_aversion * back))``: ``skill`` 0 is a player who
picks at random, a large one heads straight for the exit; ``back_aversion`` is how much they dislike
undoing their last slide. A move that ends on the exit is taken when the player sees it: always,
but for a member whose ``notice`` is below 1 (``designer.core.players``), who otherwise picks as
anywhere else. A move into a trap (a stop the exit cannot be reached from) is a restart: the
player is back on the start, one restart more.

So the player is an absorbing Markov chain over states (stop, last move): stops of the level's
state graph (``designer.core.items.States``: items taken, portals, floors; a cave's keys and
rooms through ``designer.caves.cave_analysis.played``), and the exit absorbs. Its figures are
solved exactly with sparse linear algebra (``scipy.sparse.linalg.spsolve``): no sampling. That
is the simplest member of a family (``designer.core.players``): a member that looks ahead,
lapses, knows the way (``route``: the weight of a move that takes a move off the fewest to the
exit) or turns by habit (``turn``: the weight of the move right of the last one, minus it for the
one left of it) is still such a chain, solved the same way; one that remembers the stops it has
seen is not, and is played out (``designer.analysis.player_runs``; ``figures_of`` picks).

- ``expected_moves``: the moves to the exit, restarts included;
- ``expected_restarts``;
- ``within``: the chance to finish within N moves (par, twice par, four times par);
- ``rests``: how often the player rests on each cell, on average (where they spend their time).

``difficulty`` turns the expected moves into a 1-10 scale a designer reads: 1 + 2.25 log10(moves),
so 1 move is 1, 10 moves 3.25, 100 moves 5.5, 1,000 moves 7.75 and 10,000 moves 10: each tenfold
in expected moves is 2.25 points. A level rarely passes 10; a cave of many rooms does, and the
scale goes on past it (30,000 moves is 11.1), so that no two of them tie at the top. Its parts,
in moves: the par, the moves lost wandering, and the moves lost to restarts.

>>> from designer.core.level import Level
>>> level = Level.from_rows(["#####", "#S.G#", "#####"])
>>> figures = play(level)
>>> figures.expected_moves, figures.expected_restarts
(1.0, 0.0)
>>> figures.difficulty
1.0
"""

from __future__ import annotations

import numpy as np

from designer.analysis.player_figures import (
    DIFFICULTY_POINTS,
    EXACT_MOST,
    Figures,
    PlayerChain,
    absorbing_solve,
    raw_scale,
    rests_of,
    scale,
)
from designer.analysis.player_runs import played
from designer.analysis.player_sight import route_gain
from designer.analysis.player_sight import toward as seen_toward
from designer.core.errors import LevelError
from designer.core.items import States, state_table
from designer.core.level import Level
from designer.core.players import DEFAULT, PLAYER_FORMAT, Player
from designer.core.rules import NO_MOVE
from designer.core.terrain import Cell

__all__ = [
    "DEFAULT",
    "DIFFICULTY_POINTS",
    "PLAYER_FORMAT",
    "Figures",
    "Player",
    "PlayerChain",
    "chain",
    "play",
    "raw_scale",
    "scale",
]

#: The opposite of each direction (u, d, l, r): the move back.
OPPOSITE = np.array([1, 0, 3, 2])
NO_LAST = 4  # the state of a player who has not moved yet (on the start, or after a restart)
#: The move right of each direction (u, d, l, r), as a player facing the way they slid sees it.
RIGHT = np.array([3, 2, 0, 1])
#: (last move, move): 1 for the move right of the last one, -1 for the one left of it, 0 for any
#: other, and for a player who has not moved yet (what ``turn`` weighs).
SIDE = np.zeros((5, 4))
SIDE[np.arange(4), RIGHT] = 1.0
SIDE[np.arange(4), OPPOSITE[RIGHT]] = -1.0


def features(
    table: States, stops: np.ndarray, height: int | None = None, foresight: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the player sees of each move from each of ``stops`` (state numbers): ``toward`` (4, n)
    how much nearer the exit the move brings them, looking ``foresight`` moves ahead of its end
    (``designer.analysis.player_sight``); ``valid`` (4, n) whether it is a move; ``ends`` (4, n)
    the state it ends in (NO_MOVE: none)."""
    ends = table.dest[:, stops]
    return seen_toward(table, stops, height, foresight), ends != NO_MOVE, ends


def _move_graph(table: States):
    """The moves of a table of states as a sparse graph (scipy.sparse.csr_matrix)."""
    from scipy.sparse import csr_matrix

    dest, count = table.dest, table.count
    moving = dest != NO_MOVE
    src = np.broadcast_to(np.arange(count), dest.shape)[moving]
    return csr_matrix((np.ones(src.size, np.int8), (src, dest[moving])), shape=(count, count))


def alive_states(table: States, graph=None) -> np.ndarray:
    """Whether the exit can be reached from each state (the exit itself included)."""
    from scipy.sparse.csgraph import breadth_first_order

    graph = _move_graph(table) if graph is None else graph
    alive = np.zeros(table.count, bool)
    back = graph.T.tocsr()
    alive[breadth_first_order(back, table.goal, directed=True, return_predecessors=False)] = True
    return alive


def chain(table: States, player: Player = DEFAULT, *, height: int | None = None) -> PlayerChain:
    """The player's chain on a table of states (``designer.core.items.state_table``, or a cave's
    ``designer.caves.graph.states``); LevelError when the exit cannot be reached from the start.
    For a player with memory (not ``player.exact``) it is the chain of the same player without
    it (``designer.analysis.player_runs`` plays the memory out)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    count, goal = table.count, table.goal
    graph = _move_graph(table)
    reach = breadth_first_order(graph, table.start, directed=True, return_predecessors=False)
    alive = alive_states(table, graph)
    if not alive[table.start]:
        raise LevelError(
            "the exit cannot be reached from the start: the player model needs a solvable level"
        )
    live = reach[alive[reach] & (reach != goal)]  # the stops a player can rest on and still finish
    toward, valid, ends = features(table, live, height, player.foresight)
    safe_ends = np.where(valid, ends, 0)
    n = live.size
    row_of = np.full(count, -1, np.int64)
    row_of[live] = np.arange(n)
    # utility (last move, move, stop); the move back is the opposite of the last
    utility = np.repeat((player.skill * toward)[None, :, :], 5, axis=0)
    for last in range(4):
        utility[last, OPPOSITE[last]] -= player.skill * player.back_aversion
    if player.route:
        utility += player.route * route_gain(table, live)[None, :, :]
    if player.turn:
        utility += player.turn * SIDE[:, :, None]
    utility = np.where(valid[None, :, :], utility, -np.inf)
    utility -= utility.max(axis=1, keepdims=True)
    weight = np.exp(utility)
    choice = weight / weight.sum(axis=1, keepdims=True)  # (5, 4, n)
    if player.lapse:  # a share of the moves at random
        at_random = valid / valid.sum(axis=0, keepdims=True)
        choice = (1 - player.lapse) * choice + player.lapse * at_random[None]
    # a move onto the exit is taken when the player notices it (always, but for a follower)
    at_exit = valid & (ends == goal)
    seen = at_exit.any(axis=0)
    onto = at_exit / np.maximum(1, at_exit.sum(axis=0))  # (portals may give two such moves)
    noticed = player.notice * onto[None, :, :] + (1 - player.notice) * choice
    choice = np.where(seen[None, None, :], noticed, choice)
    # where each move leads: the exit, a restart (a trap), or a row (stop, move)
    trapped = valid & (ends != goal) & ~alive[safe_ends]
    target_row = np.where(valid & ~trapped & (ends != goal), row_of[safe_ends], -1)  # stop index
    total = 5 * n
    key_rows = np.arange(total).reshape(5, n)  # row of (last, stop) = last * n + stop
    start_row = NO_LAST * n + int(row_of[table.start])
    next_row = np.full((5, 4, n), -1, np.int64)
    for d in range(4):
        next_row[:, d, :] = np.where(
            target_row[d] >= 0, d * n + target_row[d], np.where(trapped[d], -2, -1)
        )
    rows = np.broadcast_to(key_rows[:, None, :], (5, 4, n))
    inner = next_row >= 0
    Q = csr_matrix((choice[inner], (rows[inner], next_row[inner])), shape=(total, total))
    to_exit = (choice * (valid & (ends == goal))[None]).sum(axis=1).reshape(-1)
    restart = (choice * trapped[None]).sum(axis=1).reshape(-1)
    # a restart is a move onto the trap, then the player is back on the start: fold it into Q
    Q = Q + csr_matrix(
        (restart, (np.arange(total), np.full(total, start_row))), shape=(total, total)
    )
    keys = np.stack([np.tile(live, 5), np.repeat(np.arange(5), n)], axis=1)
    return PlayerChain(
        Q.tocsr(),
        to_exit,
        restart,
        start_row,
        keys,
        table,
        choice.transpose(0, 2, 1).reshape(total, 4),
        next_row.transpose(0, 2, 1).reshape(total, 4),
        float(player.notice),
    )


#: The most moves such a chain is stepped (and at most ``STEP_WORK`` entries of Q read in all):
#: 20,000 moves is already twice what difficulty 10 needs.
STEPS_MOST, STEP_WORK = 20_000, 200_000_000


def solve_chain(model: PlayerChain, par: int, *, within: tuple[int, ...] | None = None) -> Figures:
    """The chain's figures, solved exactly (see the module docstring); for a chain too close to
    never finishing (``EXACT_MOST``), lower bounds from stepping it (``Figures.at_least``)."""
    total = model.Q.shape[0]
    marks = within or tuple(sorted({max(1, par), 2 * max(1, par), 4 * max(1, par)}))
    moves = absorbing_solve(model.Q, np.column_stack([np.ones(total), model.restart]))
    unit = np.zeros(total)
    unit[model.start_row] = 1.0
    visits = absorbing_solve(model.Q, unit, transposed=True)
    trusted = (
        np.isfinite(moves).all()
        and np.isfinite(visits).all()
        and moves[:, 0].min() >= 1 - 1e-6
        and moves[:, 0].max() <= EXACT_MOST
        and moves[:, 1].min() >= -1e-6
        and visits.min() >= -1e-6
    )
    if not trusted:
        return _stepped(model, par, marks)
    expected_moves, expected_restarts = (
        float(moves[model.start_row, 0]),
        float(moves[model.start_row, 1]),
    )
    return Figures(
        par,
        expected_moves,
        expected_restarts,
        chance_within(model, marks),
        _rests(model, visits),
        total,
    )


def _rests(model: PlayerChain, visits: np.ndarray) -> dict[Cell, float]:
    """Each cell's expected rests, from each row's expected visits."""
    return rests_of(model.states, model.keys[:, 0], visits)


def _stepped(model: PlayerChain, par: int, marks: tuple[int, ...]) -> Figures:
    """The figures of a chain too close to never finishing to solve: the chain stepped from the
    start, each figure summed over its first moves (the expected moves are at least the sum of
    the chances to be still playing after 0, 1, 2, ... moves). Every figure is so a lower bound,
    exact once the chance left to be playing is nothing; ``within`` is exact."""
    QT = model.Q.T.tocsr()
    steps = int(min(STEPS_MOST, max(4 * max(1, par), max(marks), STEP_WORK // max(1, QT.nnz))))
    mass = np.zeros(model.Q.shape[0])
    mass[model.start_row] = 1.0
    visits, moves, restarts, done, out, wanted = np.zeros_like(mass), 0.0, 0.0, 0.0, {}, set(marks)
    for step in range(1, steps + 1):
        playing = float(mass.sum())
        if playing < 1e-15:
            break
        moves += playing
        visits += mass
        restarts += float(mass @ model.restart)
        done += float(mass @ model.to_exit)
        mass = QT @ mass
        if step in wanted:
            out[step] = min(1.0, done)
    for mark in marks:
        out.setdefault(mark, min(1.0, done))
    return Figures(
        par,
        max(moves, float(par)),
        restarts,
        out,
        _rests(model, visits),
        model.Q.shape[0],
        at_least=True,
    )


def chance_within(model: PlayerChain, marks: tuple[int, ...]) -> dict[int, float]:
    """The chance to have reached the exit within each number of moves in ``marks``."""
    QT = model.Q.T.tocsr()
    mass = np.zeros(model.Q.shape[0])
    mass[model.start_row] = 1.0
    done, out, last = 0.0, {}, max(marks)
    wanted = set(marks)
    for step in range(1, last + 1):
        done += float(mass @ model.to_exit)
        mass = QT @ mass
        if step in wanted:
            out[step] = min(1.0, done)
    return out


def play(level: Level, player: Player = DEFAULT, *, seed: int = 0) -> Figures:
    """The model's figures on ``level`` (items, portals and floors included): solved exactly for
    a player without memory, played out from ``seed`` for one with it."""
    from designer.analysis.solver import solve

    solution = solve(level)
    if solution is None:
        raise LevelError("the level is unsolvable: the player model needs a way to the exit")
    return figures_of(
        state_table(level), player, len(solution.moves), height=level.height, seed=seed
    )


def figures_of(
    table: States, player: Player, par: int, *, height: int | None = None, seed: int = 0
) -> Figures:
    """A player's figures on a table of states (as ``chain`` takes it): its chain solved exactly
    (``solve_chain``) for a player without memory, its runs from ``seed``
    (``designer.analysis.player_runs.played``) for one with it."""
    if player.exact:
        return solve_chain(chain(table, player, height=height), par)
    return played(walked_chain(table, player, height), player, par, seed=seed)


def walked_chain(table: States, player: Player, height: int | None = None) -> PlayerChain:
    """The chain a player's runs walk (``designer.analysis.player_runs``): that of the same player
    without lapses (the runs count the memory and the lapses in)."""
    from dataclasses import replace

    return chain(table, replace(player, lapse=0.0), height=height)
