"""What the model's player costs on a level, as its figures: the expected moves, restarts, the
chance to finish within N moves, where the player rests, and the difficulty scale; and the chain
they come from (``designer.analysis.player`` says how each is found, solved or played out)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from designer.core.items import States
from designer.core.terrain import Cell


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
    #: are what ``STEPS_MOST`` moves of it give, each a lower bound (``within`` stays exact). A
    #: player played out: some run was cut off at ``player_runs.CAP`` moves.
    at_least: bool = False
    #: A player played out: the runs, and the half-width of each figure's 95% interval
    #: ("expected_moves", "expected_restarts", and "within N" for each N). None: solved exactly.
    runs: int = 0
    interval: dict[str, float] | None = field(default=None, repr=False)

    @property
    def difficulty(self) -> float:
        """1 + 2.25 log10(expected moves), at least 1, to one decimal (``scale``)."""
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
        if self.interval is not None:
            found["runs"] = self.runs
            found["interval"] = {name: round(half, 4) for name, half in self.interval.items()}
        return found


def scale(expected_moves: float) -> float:
    """The difficulty of an expected number of moves: 1 to 10 up to 10,000 moves, and on past it.

    >>> scale(1), scale(10), scale(100), scale(1e4), scale(3e4)
    (1.0, 3.2, 5.5, 10.0, 11.1)
    """
    return round(raw_scale(expected_moves), 1)


def raw_scale(expected_moves: float) -> float:
    """``scale`` unrounded: 1 + 2.25 log10(expected moves), at least 1."""
    return max(1.0, 1 + DIFFICULTY_POINTS * math.log10(max(expected_moves, 1.0)))


#: Points of difficulty for each tenfold in expected moves (10,000 expected moves is 10).
DIFFICULTY_POINTS = 2.25


def rests_of(table: States, states: np.ndarray, visits: np.ndarray) -> dict[Cell, float]:
    """Each cell's expected rests, from the expected visits of each of ``states``."""
    per_cell = np.bincount(states % table.cells, weights=visits, minlength=table.cells)
    return {
        divmod(flat, table.width): float(per_cell[flat])
        for flat in np.flatnonzero(per_cell > 1e-9).tolist()
    }


@dataclass(frozen=True)
class PlayerChain:
    """The player's absorbing chain over (state, last move) (rows: ``keys``): ``Q`` the sparse
    moves among transient states, ``to_exit`` each row's chance to end on the exit, ``restart``
    each row's chance to restart, and the row the player starts in; ``notice``, the player's
    chance to take a move onto the exit in sight (``choice`` counts it in)."""

    Q: Any  # scipy.sparse.csr_matrix (scipy ships no types)
    to_exit: np.ndarray
    restart: np.ndarray
    start_row: int
    keys: np.ndarray  # (rows, 2): state, last move (NO_LAST: none)
    states: States
    choice: np.ndarray = field(repr=False)  # (rows, 4): the chance of each move
    # (rows, 4): the row each move leads to; -1 exit, -2 restart
    next_row: np.ndarray = field(repr=False)
    notice: float = 1.0


#: The most expected moves from any state of a chain that the exact solve is trusted with. The
#: system ``I - Q`` of an absorbing chain has a non-negative inverse whose rows sum to each
#: state's expected moves, so its condition number is at most twice the largest of them: under
#: 10^10 the solve keeps about six digits. A chain past it (a player who heads for the exit so
#: surely, or flees it so surely, that a loop holds them for 10^16 moves) gave NaN, negative or
#: infinite moves (issue 60); its figures are then lower bounds, from stepping the chain.
EXACT_MOST = 1e10


def absorbing_solve(Q, right: np.ndarray, *, transposed: bool = False) -> np.ndarray:
    """``(I - Q) x = right`` (or ``(I - Q)^T x = right``) by sparse LU, a singular system's
    warnings kept quiet: the caller judges the answer (finite, in range: ``EXACT_MOST``)."""
    from scipy.sparse import identity
    from scipy.sparse.linalg import spsolve

    system = identity(Q.shape[0], format="csc") - Q.tocsc()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a singular matrix: judged by the caller, never printed
        return np.asarray(spsolve(system.T.tocsc() if transposed else system, right))
