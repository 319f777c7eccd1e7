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
    from designer.caves.graph import CaveAnalysis, Way
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
    """A cave and its analysis (``designer.caves.graph.CaveAnalysis``), with what the model's
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

    budget = budget or Budget(
        time_limit
    )  # from the start: reading and the exit's solution count too
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
        from designer.caves.graph import analyze as analyze_cave
        from designer.caves.graph import played

        cave_report = analyze_cave(found)
        return CaveAnalysed(
            found,
            cave_report,
            played(found, who) if cave_report.way is not None else None,
            full_clears(found, budget),
        )
    _analysis_fits(found, budget)
    budget = budget.within(
        budget.left() - REPORT_CELL_SECONDS * found.height * found.width
    )  # the report's
    report = analyze_level(found)
    figures = shape = None
    skipped = []
    for what, cost in (("player", PLAYER_SECONDS), ("structure", STRUCTURE_SECONDS)):
        if what == "player" and report.min_stops is None:
            continue
        needs = (
            cost * report.resting_cells
        )  # the exact figures take about this long, and grow faster
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


def figures(rows: list[str]) -> dict:
    """The live figures of a grid as a sketch holds it (``designer studio`` shows them after every
    edit): rows of canonical ASCII, where ``?`` (a free cell, still the solver's) counts as ice,
    with ``S`` and ``G`` or doors ``1``-``9``, and items ``*``. One entry per route (a level: S to G):
    solvable, min stops, class, reversible, options, rail stops, the solution's path, the trap cells
    (with items: the cells of the trap states), the moves left to the goal from each resting cell
    ([row, col, moves], before any item is taken), its ends, its items and what each adds, its
    predicted difficulty (``designer.analysis.player``; null when unsolvable), and its
    star thresholds (``designer.analysis.stars``: what the studio's play mode awards); with free
    cells, ``fill``: what a fill can still make of the route (``fill_bounds``). A grid with no two
    ends yet has no route. LevelError (one line) for rows that are no grid.

    >>> found = figures(["#G#", "#?#", "#S#"])
    >>> [(one["route"], one["class"], one["min_stops"], one["path"]) for one in found["routes"]]
    [('S:G', 'strong', 1, [[2, 1], [0, 1]])]
    """
    from designer.analysis.graph import analyze as analyze_level
    from designer.analysis.routes import analyze_routes
    from designer.analysis.stars import Stars
    from designer.core.errors import LevelError
    from designer.core.room import Room
    from designer.core.text_forms import CANONICAL, scan_rows

    if not rows or not all(isinstance(row, str) for row in rows):
        raise LevelError("the grid must be a list of rows of text")
    plain = [row.replace("?", ".") for row in rows]
    items: list = []
    coins: list = []
    terrain, starts, goals, doors = scan_rows(
        plain, CANONICAL, items, coins
    )  # its errors are one line each
    height, width = terrain.shape
    if starts and goals and not doors:
        level = (
            Level(terrain, starts[0], goals[0], items=tuple(items), coins=tuple(coins))
            if len(starts) == len(goals) == 1
            else None
        )
        found = [("S:G", level, analyze_level(level))] if level is not None else []
    elif (
        len(doors) >= 2
        and not (starts or goals)
        and all(len(cells) == 1 for cells in doors.values())
    ):
        room = Room(
            terrain,
            tuple((number, cells[0]) for number, cells in doors.items()),
            items=tuple(items),
            coins=tuple(coins),
        )
        found = [(one.name, one.level, one.analysis) for one in analyze_routes(room).routes]
    else:
        found = []
    routes = []
    for name, level, analysis in found:
        routes.append(
            {
                "route": name,
                "solvable": analysis.min_stops is not None,
                "min_stops": analysis.min_stops,
                "class": analysis.solvability,
                "reversible": analysis.reversible,
                "options": analysis.options,
                "rail_stops": analysis.rail_stops,
                "path": [list(cell) for cell in analysis.solution.path]
                if analysis.solution
                else [],
                "traps": sorted({tuple(cell[:2]) for cell in analysis.trap_cells}),
                "moves_left": sorted(
                    [r, c, left]
                    for (r, c, *taken), left in analysis.remaining.items()
                    if not any(taken)
                ),
                "start": list(level.start),
                "goal": list(level.goal),
                "items": [{"cell": list(item.cell), "adds": item.adds} for item in analysis.items]
                if analysis.solution
                else [{"cell": list(cell), "adds": None} for cell in level.items],
                "stars": Stars.default(analysis.min_stops).to_json()
                if analysis.solution and analysis.min_stops is not None
                else None,
                "difficulty": _difficulty(level) if analysis.solution else None,
            }
        )
    free = sum(row.count("?") for row in rows)
    if (
        free and routes
    ):  # what a fill can still make of each route, not a judgement of free cells as ice
        reach = fill_bounds(rows)
        for route in routes:
            route["fill"] = reach.get(route["route"])
    ends = "doors" if doors else "ends"
    return {
        "height": height,
        "width": width,
        "routes": routes,
        "ends": ends if found else None,
        "free": free,
        "doors": sorted(int(d) for d in doors) if doors else [],
        "note": None if found else _why_no_route(starts, goals, doors),
    }


def _difficulty(level: Level) -> float | None:
    """The model's predicted difficulty of a route (``designer.analysis.player``), for the live figures."""
    from designer.analysis.player import play
    from designer.core.errors import LevelError

    try:
        return play(level).difficulty
    except LevelError:
        return None


def fill_bounds(rows: list[str]) -> dict:
    """What a fill of a sketch's free cells (``?``) can still make of each route, by the cheap
    bounds ``make`` checks before any search (``designer.analysis.bounds``): {route: {"at_most":
    the most min stops (the cells a solution may rest on, less one), "parity": "odd" or "even"
    when min stops can only be that, else None}}; {} for a sketch ``make`` would refuse.

    >>> fill_bounds(["##G##", "#???#", "#???#", "##S##"])
    {'S:G': {'at_most': 7, 'parity': 'odd'}}
    """
    from dataclasses import replace

    from designer.analysis import bounds
    from designer.core.errors import DesignerError
    from designer.ops.design import MakeOptions, request_for

    try:
        request = request_for(MakeOptions(template=tuple(rows), min_stops=1))
    except DesignerError:
        return {}
    named = (
        [(f"{band.a}:{band.b}", request.route_request(band)) for band in request.route_bands]
        if request.is_room
        else [("S:G", request)]
    )
    found = {}
    for name, one in named:  # the sketch's rocks are drawn: the parity bound takes ends beside them
        odd_only = bounds.parity(replace(one, min_stops=2, max_stops=2), drawn=True) is not None
        even_only = bounds.parity(replace(one, min_stops=1, max_stops=1), drawn=True) is not None
        found[name] = {
            "at_most": bounds.most_stops(one),
            "parity": "odd" if odd_only else "even" if even_only else None,
        }
    return found


def _why_no_route(starts, goals, doors) -> str:
    if doors and (starts or goals):
        return "S and G, or doors 1-9: not both"
    if any(len(cells) > 1 for cells in doors.values()):
        return "two doors of one number"
    if len(starts) > 1 or len(goals) > 1:
        return "one S and one G"
    return "paint a start and a goal, or two doors or more"
