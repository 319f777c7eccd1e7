"""A model of a player, solved exactly: what a level costs someone who does not know its solution.

The player (docs/spec.md, "Difficulty") rests on a stop and sees the moves open there. They pick
one by a softmax over what they can see of each move:

- ``toward``: how much nearer the exit the move ends, in cells (Manhattan distance, over the
  grid's larger side), as the level is drawn;
- ``back``: 1 for the move straight back the way they came (the opposite of their last move).

A move's weight is ``exp(skill * (toward - back_aversion * back))``: ``skill`` 0 is a player who
picks at random, a large one heads straight for the exit; ``back_aversion`` is how much they dislike
undoing their last slide. A move that ends on the exit is always taken (the player sees it). A
move into a trap (a stop the exit cannot be reached from) is a restart: the player is back on
the start, one restart more.

So the player is an absorbing Markov chain over states (stop, last move): stops of the level's
state graph (``designer.core.items.States``: items taken, portals, floors; a cave's keys and
rooms through ``designer.caves.cave_analysis.played``), and the exit absorbs. Its figures are solved exactly with sparse linear algebra
(``scipy.sparse.linalg.spsolve``): no sampling.

- ``expected_moves``: the moves to the exit, restarts included;
- ``expected_restarts``;
- ``within``: the chance to finish within N moves (par, twice par, four times par);
- ``rests``: how often the player rests on each cell, on average (where they spend their time).

``difficulty`` turns the expected moves into a 1-10 scale a designer reads: 1 + 2.25 log10(moves),
so 1 move is 1, 10 moves 3.25, 100 moves 5.5, 1,000 moves 7.75 and 10,000 moves 10 (clamped):
each tenfold in expected moves is 2.25 points. Its parts, in moves: the par, the moves lost
wandering, and the moves lost to restarts.

>>> from designer.core.level import Level
>>> level = Level.from_rows(["#####", "#S.G#", "#####"])
>>> figures = play(level)
>>> figures.expected_moves, figures.expected_restarts
(1.0, 0.0)
>>> figures.difficulty
1.0
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from designer.core.errors import DesignerError, LevelError
from designer.core.items import States, state_table
from designer.core.level import Level
from designer.core.limits import PLAYER_RANGE
from designer.core.rules import NO_MOVE
from designer.core.terrain import Cell

#: The opposite of each direction (u, d, l, r): the move back.
OPPOSITE = np.array([1, 0, 3, 2])
NO_LAST = 4  # the state of a player who has not moved yet (on the start, or after a restart)


@dataclass(frozen=True)
class Player:
    """The model's parameters (docs/spec.md "Difficulty"); the defaults are the pair that ranks
    glissade's 26 levels closest to their designer's order (docs/player.md says how weakly)."""

    skill: float = 2.0
    back_aversion: float = 0.5

    def __post_init__(self) -> None:
        for name in ("skill", "back_aversion"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise DesignerError(f"the player's {name} must be a finite number, not {value!r}")
            if not -PLAYER_RANGE <= value <= PLAYER_RANGE:
                raise DesignerError(
                    f"the player's {name} must lie in -{PLAYER_RANGE}..{PLAYER_RANGE}, not {value!r}"
                )

    def to_json(self) -> dict:
        return {"format": PLAYER_FORMAT, "skill": self.skill, "back_aversion": self.back_aversion}

    @classmethod
    def from_json(cls, obj: object) -> Player:
        """A player read back; DesignerError (one line) for anything else."""
        if not isinstance(obj, dict) or obj.get("format") != PLAYER_FORMAT:
            raise DesignerError(f'a player file is a JSON object with "format": "{PLAYER_FORMAT}"')
        unknown = sorted(set(obj) - {"format", "skill", "back_aversion", "fit"})
        if unknown:
            raise DesignerError(f"the player file has an unknown field {unknown[0]!r}")
        missing = [name for name in ("skill", "back_aversion") if name not in obj]
        if missing:
            raise DesignerError(f"the player file gives no {missing[0]} (it names both parameters)")
        return cls(obj["skill"], obj["back_aversion"])


PLAYER_FORMAT = "ice-designer player 1"
DEFAULT = Player()


@dataclass(frozen=True)
class Figures:
    """What the model's player costs on one level (see the module docstring)."""

    par: int  # the fewest moves
    expected_moves: float
    expected_restarts: float
    within: dict[int, float]  # moves -> the chance to have finished within them
    rests: dict[Cell, float] = field(repr=False)  # cell -> expected rests there (the heat map)
    states: int = 0  # states of the chain
    #: The chain is too close to never finishing to solve exactly (``EXACT_MOST``): the figures
    #: are what ``STEPS_MOST`` moves of it give, each a lower bound (``within`` stays exact).
    at_least: bool = False

    @property
    def difficulty(self) -> float:
        """1 + 2.25 log10(expected moves), clamped to 1..10, to one decimal."""
        return scale(self.expected_moves)

    def parts(self) -> dict[str, float]:
        """The expected moves in parts: the par, the moves lost wandering, and the moves spent
        on attempts that ended in a restart (each restart's own moves, estimated as the
        expected moves divided among the attempts)."""
        attempts = 1 + self.expected_restarts
        restarts = self.expected_moves * self.expected_restarts / attempts
        return {
            "par": float(self.par),
            "wandering": max(0.0, self.expected_moves - restarts - self.par),
            "restarts": restarts,
        }

    def hottest(self, count: int = 3) -> list[tuple[Cell, float]]:
        """The cells the player rests on most, most first."""
        return sorted(self.rests.items(), key=lambda item: (-item[1], item[0]))[:count]

    def to_json(self) -> dict:
        found = {
            "expected_moves": round(self.expected_moves, 3),
            "expected_restarts": round(self.expected_restarts, 3),
            "within": {str(n): round(p, 4) for n, p in self.within.items()},
            "difficulty": self.difficulty,
            "parts": {name: round(value, 3) for name, value in self.parts().items()},
            "hottest": [[list(cell), round(value, 3)] for cell, value in self.hottest()],
        }
        if self.at_least:
            found["at_least"] = True
        return found


def scale(expected_moves: float) -> float:
    """The 1-10 difficulty of an expected number of moves.

    >>> scale(1), scale(10), scale(100), scale(1e4)
    (1.0, 3.2, 5.5, 10.0)
    """
    return round(raw_scale(expected_moves), 1)


def raw_scale(expected_moves: float) -> float:
    """``scale`` unrounded: 1 + 2.25 log10(expected moves), clamped to 1..10."""
    return min(10.0, max(1.0, 1 + DIFFICULTY_POINTS * math.log10(max(expected_moves, 1.0))))


#: Points of difficulty for each tenfold in expected moves (10,000 expected moves is 10).
DIFFICULTY_POINTS = 2.25


@dataclass(frozen=True)
class PlayerChain:
    """The player's absorbing chain over (state, last move) (rows: ``keys``): ``Q`` the sparse
    moves among transient states, ``to_exit`` each row's chance to end on the exit, ``restart``
    each row's chance to restart, and the row the player starts in."""

    Q: Any  # scipy.sparse.csr_matrix (scipy ships no types)
    to_exit: np.ndarray
    restart: np.ndarray
    start_row: int
    keys: np.ndarray  # (rows, 2): state, last move (NO_LAST: none)
    states: States
    choice: np.ndarray = field(repr=False)  # (rows, 4): the chance of each move
    # (rows, 4): the row each move leads to; -1 exit, -2 restart
    next_row: np.ndarray = field(repr=False)


def features(
    table: States, stops: np.ndarray, height: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the player sees of each move from each of ``stops`` (state numbers): ``toward`` (4, n)
    how much nearer the exit the move ends, over the grid's larger side; ``valid`` (4, n) whether
    it is a move; ``ends`` (4, n) the state it ends in (NO_MOVE: none)."""
    width = table.width
    rows_of = height or (table.cells // width)
    gr, gc = divmod(int(table.goal % table.cells), width)
    r, c = np.divmod(np.arange(table.cells), width)
    distance = np.abs(r - gr) + np.abs(c - gc)
    ends = table.dest[:, stops]
    valid = ends != NO_MOVE
    safe_ends = np.where(valid, ends, 0)
    toward = (distance[stops % table.cells][None, :] - distance[safe_ends % table.cells]) / max(
        rows_of, width
    )
    return toward, valid, ends


def chain(table: States, player: Player = DEFAULT, *, height: int | None = None) -> PlayerChain:
    """The player's chain on a table of states (``designer.core.items.state_table``, or a cave's
    ``designer.caves.graph.states``); LevelError when the exit cannot be reached from the start."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    dest, count, goal = table.dest, table.count, table.goal
    moving = dest != NO_MOVE
    src = np.broadcast_to(np.arange(count), dest.shape)[moving]
    graph = csr_matrix((np.ones(src.size, np.int8), (src, dest[moving])), shape=(count, count))
    reach = breadth_first_order(graph, table.start, directed=True, return_predecessors=False)
    alive = np.zeros(count, bool)
    alive[breadth_first_order(graph.T.tocsr(), goal, directed=True, return_predecessors=False)] = (
        True
    )
    if not alive[table.start]:
        raise LevelError(
            "the exit cannot be reached from the start: the player model needs a solvable level"
        )
    live = reach[alive[reach] & (reach != goal)]  # the stops a player can rest on and still finish
    toward, valid, ends = features(table, live, height)
    safe_ends = np.where(valid, ends, 0)
    n = live.size
    row_of = np.full(count, -1, np.int64)
    row_of[live] = np.arange(n)
    # utility (last move, move, stop); the move back is the opposite of the last
    utility = np.repeat((player.skill * toward)[None, :, :], 5, axis=0)
    for last in range(4):
        utility[last, OPPOSITE[last]] -= player.skill * player.back_aversion
    utility = np.where(valid[None, :, :], utility, -np.inf)
    utility -= utility.max(axis=1, keepdims=True)
    weight = np.exp(utility)
    at_exit = valid & (ends == goal)  # a move onto the exit is always taken
    seen = at_exit.any(axis=0)
    weight = np.where(seen[None, None, :], at_exit[None, :, :].astype(float), weight)
    choice = weight / weight.sum(axis=1, keepdims=True)  # (5, 4, n)
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
    )


#: The most expected moves from any state of a chain that the exact solve is trusted with. The
#: system ``I - Q`` of an absorbing chain has a non-negative inverse whose rows sum to each
#: state's expected moves, so its condition number is at most twice the largest of them: under
#: 10^10 the solve keeps about six digits. A chain past it (a player who heads for the exit so
#: surely, or flees it so surely, that a loop holds them for 10^16 moves) gave NaN, negative or
#: infinite moves (issue 60); its figures are then lower bounds, from stepping the chain.
EXACT_MOST = 1e10
#: The most moves such a chain is stepped (and at most ``STEP_WORK`` entries of Q read in all):
#: 20,000 moves is already twice what difficulty 10 needs.
STEPS_MOST, STEP_WORK = 20_000, 200_000_000


def solve_chain(model: PlayerChain, par: int, *, within: tuple[int, ...] | None = None) -> Figures:
    """The chain's figures, solved exactly (see the module docstring); for a chain too close to
    never finishing (``EXACT_MOST``), lower bounds from stepping it (``Figures.at_least``)."""
    from scipy.sparse import identity
    from scipy.sparse.linalg import spsolve

    total = model.Q.shape[0]
    marks = within or tuple(sorted({max(1, par), 2 * max(1, par), 4 * max(1, par)}))
    system = identity(total, format="csc") - model.Q.tocsc()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a singular matrix: judged below, never printed
        moves = spsolve(system, np.column_stack([np.ones(total), model.restart]))
        unit = np.zeros(total)
        unit[model.start_row] = 1.0
        visits = spsolve(system.T.tocsc(), unit)
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
    table = model.states
    per_cell = np.bincount(model.keys[:, 0] % table.cells, weights=visits, minlength=table.cells)
    return {
        divmod(flat, table.width): float(per_cell[flat])
        for flat in np.flatnonzero(per_cell > 1e-9).tolist()
    }


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


def play(level: Level, player: Player = DEFAULT) -> Figures:
    """The model's figures on ``level`` (items, portals and floors included)."""
    from designer.analysis.solver import solve

    solution = solve(level)
    if solution is None:
        raise LevelError("the level is unsolvable: the player model needs a way to the exit")
    return solve_chain(chain(state_table(level), player, height=level.height), len(solution.moves))
