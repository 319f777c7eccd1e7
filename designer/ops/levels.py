"""Solving and analysing a level file: the level read (a path, or - for standard input), and
plain results (``Solved``, ``Analysed``) for a shell to show."""

from __future__ import annotations

from dataclasses import dataclass

from designer.core.level import Level


@dataclass(frozen=True)
class Solved:
    """A level and its optimal solution (None: the goal cannot be reached from the start)."""

    level: Level
    solution: object | None


@dataclass(frozen=True)
class Analysed:
    """A level and its analysis (``designer.analysis.graph.Analysis``)."""

    level: Level
    analysis: object


def solve(source: str, *, by: str = "moves") -> Solved:
    """Read a level (a path, or - for standard input) and solve it: fewest moves (ties: least
    distance) or least distance (``by="distance"``)."""
    from designer.analysis.solver import solve as solve_level
    from designer.formats.level_files import read_level

    level = read_level(source)
    return Solved(level, solve_level(level, by=by))


def analyze(source: str) -> Analysed:
    """Read a level and analyse it: class, reversibility, min stops, SCCs, traps, figures."""
    from designer.analysis.graph import analyze as analyze_level
    from designer.formats.level_files import read_level

    level = read_level(source)
    return Analysed(level, analyze_level(level))
