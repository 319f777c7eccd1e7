"""Solving and analysing a level file: the level read (a path, or - for standard input), and
plain results (``Solved``, ``Analysed``) for a shell to show. A file that holds a room with
several doors (``designer.core.room``) gives its routes instead (``RoomSolved``,
``RoomAnalysed``): each route solved or analysed as the classic level it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from designer.core.level import Level

if TYPE_CHECKING:
    from designer.analysis.coins import CoinReport
    from designer.analysis.graph import Analysis
    from designer.analysis.player import Figures
    from designer.analysis.routes import RoomAnalysis
    from designer.analysis.solver import Solution
    from designer.analysis.structure import Structure
    from designer.analysis.tour import FullClear
    from designer.caves.cave import Cave
    from designer.caves.cave_analysis import CaveAnalysis
    from designer.caves.graph import Way
    from designer.core.room import Room


@dataclass(frozen=True)
class Solved:
    """A level and its optimal solution (None: the goal cannot be reached from the start)."""

    level: Level
    solution: Solution | None
    full: FullClear | None = None  # with coins


@dataclass(frozen=True)
class Analysed:
    """A level and its analysis (``designer.analysis.graph.Analysis``), with what the model's
    player costs on it (``designer.analysis.player.Figures``; None when it cannot be solved) and
    its structure (``designer.analysis.structure.Structure``)."""

    level: Level
    analysis: Analysis
    player: Figures | None = None
    shape: Structure | None = None
    coins: CoinReport | None = None  # with coins
    # what the time limit left out: ("player" or "structure", why), each in a line
    skipped: tuple = ()

    def to_dict(self) -> dict:
        """The analysis object of ``analyze --json``: the level's, then ``player`` and ``structure``
        (and ``coins``, for a level with coins; ``skipped``, what the time limit left out)."""
        out = self.analysis.to_dict()
        out["player"] = None if self.player is None else self.player.to_json()
        out["structure"] = None if self.shape is None else self.shape.to_json()
        if self.coins is not None:
            out["coins"] = self.coins.to_dict()
        if self.skipped:
            out["skipped"] = {what: why for what, why in self.skipped}
        return out


@dataclass(frozen=True)
class RoomSolved:
    """A room and the optimal solution of each route asked for
    (``designer.analysis.routes.RouteSolution``)."""

    room: Room
    routes: list
    full: dict | None = (
        None  # with coins: each route's full clear (designer.analysis.tour.FullClear), by name
    )


@dataclass(frozen=True)
class RoomAnalysed:
    """A room and the analysis of each route asked for (``designer.analysis.routes.RoomAnalysis``)."""

    room: Room
    analysis: RoomAnalysis
    full: dict | None = None  # with coins: each route's full clear, by name

    def to_dict(self) -> dict:
        out = self.analysis.to_dict()
        if self.full is not None:
            out["full_clear"] = {name: tour.to_dict() for name, tour in self.full.items()}
        return out


@dataclass(frozen=True)
class CaveSolved:
    """A cave and its fewest-moves way through, room by room (``designer.caves.graph.Way``; None:
    the exit cannot be reached)."""

    cave: Cave
    way: Way | None
    full: FullClear | None = None  # with coins: the cave's full clear (designer.caves.coins)


@dataclass(frozen=True)
class CaveAnalysed:
    """A cave and its analysis (``designer.caves.cave_analysis.CaveAnalysis``), with what the model's
    player costs on the whole cave (``designer.analysis.player.Figures``; None: no way through)."""

    cave: Cave
    analysis: CaveAnalysis
    player: Figures | None = None
    full: FullClear | None = None  # with coins: the cave's full clear (designer.caves.coins)

    def to_dict(self) -> dict:
        out = self.analysis.to_dict()
        out["player"] = None if self.player is None else self.player.to_json()
        if self.full is not None:
            out["full_clear"] = self.full.to_dict()
        return out


def full_clears(found, budget, routes: list | None = None):
    """The full clear of a level or a cave with coins (None without coins), or of each route of a
    room with coins (a dict by route name), all within ``budget``: each route takes its share of
    what is left."""
    from designer.analysis.tour import full_clear
    from designer.core.room import Room

    if not found.coins:  # a level's, a room's or a cave's (all its rooms')
        return None
    if isinstance(found, Room):
        asked = found.routes(routes)
        return {
            f"{a}:{b}": full_clear(found.route(a, b), budget.share(1 / (len(asked) - k)))
            for k, (a, b) in enumerate(asked)
        }
    if isinstance(found, Level):
        return full_clear(found, budget)
    from designer.caves.coins import full_clear as cave_full_clear

    return cave_full_clear(found, budget)


def _read(source: str, routes: list | None):
    """The level, room or cave (``designer.caves``) a file holds."""
    from pathlib import Path

    from designer.caves import is_cave, is_world_path
    from designer.core.errors import DesignerError, LevelError
    from designer.core.room import Room
    from designer.formats.level_files import parse_level_or_room
    from designer.formats.reading import read_bytes

    if is_world_path(source):  # a Tiled world of room maps
        from designer.ops.caves import read_cave

        found = read_cave(source)
    else:  # the bytes read once (standard input, a FIFO): a cave, or a level or room
        data = read_bytes(source)
        try:
            found = (
                _parse_cave(data)
                if is_cave(data)
                else parse_level_or_room(data, None if source == "-" else Path(source).parent)
            )
        except LevelError as exc:
            raise LevelError(exc if source == "-" else f"{source}: {exc}") from None
    if routes and not isinstance(found, Room):
        what = (
            "this level has one start (S) and one goal (G)"
            if isinstance(found, Level)
            else "this file holds a cave"
        )
        raise DesignerError(f"--route names a room's doors (1-9): {what}")
    return found


def solve(
    source: str,
    *,
    by: str = "moves",
    routes: list | None = None,
    time_limit: float = 10.0,
    budget=None,
) -> Solved | RoomSolved | CaveSolved:
    """Read a level (a path, or - for standard input) and solve it: fewest moves (ties: least
    distance) or least distance (``by="distance"``); a level with coins, its full clear too
    (within ``time_limit`` seconds, or ``budget``, a ``Budget`` the caller started:
    ``designer.analysis.tour``). A room: each of ``routes`` (pairs of doors; every pair i < j
    when None)."""
    from designer.analysis.routes import solve_routes
    from designer.analysis.solver import solve as solve_level
    from designer.core.budget import Budget
    from designer.core.room import Room

    # from the start: reading and the exit's solution count too
    budget = budget or Budget(time_limit)
    found = _read(source, routes)
    if isinstance(found, Room):
        return RoomSolved(
            found, solve_routes(found, routes, by=by), full_clears(found, budget, routes)
        )
    if not isinstance(found, Level):
        from designer.caves.graph import solve as solve_cave

        return CaveSolved(found, solve_cave(found, by), full_clears(found, budget))
    return Solved(found, solve_level(found, by=by), full_clears(found, budget))


def analyze(
    source: str, *, routes: list | None = None, player=None, time_limit: float = 10.0, budget=None
) -> Analysed | RoomAnalysed | CaveAnalysed:
    """Read a level and analyse it: class, reversibility, min stops, SCCs, traps, figures, and
    what the model's ``player`` (``designer.analysis.player.Player``; default: the fitted one)
    costs on it. A room: each of ``routes`` (every pair of doors i < j when None), and the room
    as a whole."""
    from designer.analysis import player as model
    from designer.analysis.graph import analyze as analyze_level
    from designer.analysis.routes import analyze_routes
    from designer.analysis.structure import structure
    from designer.core.budget import Budget
    from designer.core.room import Room

    budget = budget or Budget(time_limit)  # from the start: reading and the analysis count too
    who = player or model.DEFAULT
    found = _read(source, routes)
    if isinstance(found, Room):
        return RoomAnalysed(
            found, analyze_routes(found, routes), full_clears(found, budget, routes)
        )
    if not isinstance(found, Level):
        from designer.caves.cave_analysis import analyze as analyze_cave
        from designer.caves.cave_analysis import played

        cave_report = analyze_cave(found)
        return CaveAnalysed(
            found,
            cave_report,
            played(found, who) if cave_report.way is not None else None,
            full_clears(found, budget),
        )
    _analysis_fits(found, budget)
    # the report's
    budget = budget.within(budget.left() - REPORT_CELL_SECONDS * found.height * found.width)
    report = analyze_level(found)
    figures = shape = None
    skipped = []
    for what, cost in (("player", PLAYER_SECONDS), ("structure", STRUCTURE_SECONDS)):
        if what == "player" and report.min_stops is None:
            continue
        # the exact figures take about this long, and grow faster
        needs = cost * report.resting_cells
        if needs > LATER_SHARE * budget.left():
            skipped.append(
                (
                    what,
                    f"not worked out: its {report.resting_cells:,} resting states take about "
                    f"{needs:.0f} s, more than the time left (--time-limit)",
                )
            )
        elif what == "player":
            figures = model.play(found, who)
        else:
            shape = structure(found)
    coins = None
    if found.coins:
        from designer.analysis.coins import coin_report

        coins = coin_report(found, budget)
    return Analysed(found, report, figures, shape, coins, tuple(skipped))


def _analysis_fits(level: Level, budget) -> None:
    """Refuse (``RequestNotMet``, one line: status 1) a level whose move graph would not be
    analysed within the time left, estimated from its resting states as the kernels count them
    (a moment, beside the graph's seconds): a million cells of 165,437 resting states took 6.9 s."""
    if level.height * level.width <= GRAPH_CELLS:
        return
    from designer.core.items import state_table
    from designer.core.kernels import reach

    table = state_table(level)
    resting = len(reach(table.dest, table.start, table.goal)[1])
    needs = GRAPH_SECONDS * resting
    if needs > budget.left():
        from designer.core.errors import RequestNotMet

        raise RequestNotMet(
            f"time limit reached: the move graph of {resting:,} resting states takes about "
            f"{needs:.0f} s to analyse, more than --time-limit leaves ({budget.left():.1f} s)"
        )


#: What printing the analysis of a level costs a cell, kept back from the budget (a million cells:
#: 0.45 s for the text).
REPORT_CELL_SECONDS = 5e-7
#: Levels past these cells have their move graph's cost estimated first (``_analysis_fits``), at
#: about this much a resting state.
GRAPH_CELLS, GRAPH_SECONDS = 40_000, 5e-5


#: What the player model and the structure cost a resting state of a level, about (a 300x300
#: level of 15,000 resting states: 1.5 s and 0.7 s; past 100,000 they grow faster), and the share
#: of the time left either may take: a level whose figures would not end in it is analysed without
#: them, and says so. (A million cells took 129 s of the model's solve alone, and 3.5 GB.)
PLAYER_SECONDS, STRUCTURE_SECONDS, LATER_SHARE = 1e-4, 5e-5, 0.5


def _parse_cave(data: bytes):
    from designer.ops.caves import parse_cave

    return parse_cave(data)


def cave_file(source: str) -> bool:
    """Whether ``source`` names a cave's file: a Tiled world of room maps, or a regular file whose
    first bytes say so (a stream, a FIFO or a device is read once, by whoever reads it: no)."""
    import os
    import stat

    from designer.caves import is_cave, is_world_path

    if is_world_path(source):
        return True
    try:
        if "\0" in source or not stat.S_ISREG(os.stat(source).st_mode):
            return False
        with open(source, "rb") as handle:
            return is_cave(handle.read(4096))
    except (OSError, ValueError):
        return False
