"""A level (one start and one goal, with its floors, portals, items and coins) as a kind of
puzzle (``LEVEL``, the table ``designer.ops.kinds.protocol.PuzzleKind`` asks for), and the plain
results of solving and analysing one (``Solved``, ``Analysed``) for a shell to show."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from designer.core.level import Level

if TYPE_CHECKING:
    from designer.analysis.coins import CoinReport
    from designer.analysis.graph import Analysis
    from designer.analysis.player import Figures
    from designer.analysis.solver import Solution
    from designer.analysis.structure import Structure
    from designer.analysis.tour import FullClear


@dataclass(frozen=True)
class Solved:
    """A level and its optimal solution (None: the goal cannot be reached from the start)."""

    kind: ClassVar[str] = "level"
    level: Level
    solution: Solution | None
    full: FullClear | None = None  # with coins


@dataclass(frozen=True)
class Analysed:
    """A level and its analysis (``designer.analysis.graph.Analysis``), with what the model's
    player costs on it (``designer.analysis.player.Figures``; None when it cannot be solved) and
    its structure (``designer.analysis.structure.Structure``)."""

    kind: ClassVar[str] = "level"
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


class LevelKind:
    """The table of a level: its hooks answer ``designer.ops.kinds.protocol.PuzzleKind``."""

    name = "level"
    draws_figures = True
    routes_refused: str | None = "this level has one start (S) and one goal (G)"

    def holds(self, found: object) -> bool:
        return isinstance(found, Level)

    def solve(self, found: Level, *, by: str, routes: list | None, budget) -> Solved:
        from designer.analysis.solver import solve as solve_level

        return Solved(found, solve_level(found, by=by), self.full_clear(found, budget))

    def analyze(self, found: Level, *, routes: list | None, player, budget) -> Analysed:
        from designer.analysis import player as model
        from designer.analysis.graph import analyze as analyze_level
        from designer.analysis.structure import structure

        who = player or model.DEFAULT
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

    def full_clear(self, found: Level, budget, routes: list | None = None) -> FullClear | None:
        from designer.analysis.tour import full_clear

        return full_clear(found, budget) if found.coins else None

    def unsolvable(self, name: str, found: Level) -> str | None:
        from designer.analysis.graph import is_solvable

        return None if is_solvable(found) else f"{name} has no solution to draw (--solution)"

    def picture(self, found: Level, *, cell: int, solution: bool, **figures):
        from designer.export.picture import draw_level

        return draw_level(found, cell=cell, solution=solution, **figures)

    def sheet_cell(self, name: str, found: Level, *, cell: int, solution: bool, **figures) -> tuple:
        from designer.export.picture import level_cell

        return level_cell(name, found, cell=cell, solution=solution, **figures)

    def tileset(self, found: Level) -> tuple[str, tuple[str, ...]]:
        from designer.export.tiled import level_tileset

        return level_tileset(found)

    def tiled_map(self, entry, *, cell: int) -> dict:
        from designer.export.tiled import to_tiled_file

        return to_tiled_file(entry, cell=cell)

    def page_entries(self, entry) -> list[dict]:
        from designer.export.play import level_entry

        return [level_entry(entry)]

    def played_levels(self, name: str, found: Level) -> list[tuple[str, Level]]:
        return [(name, found)]

    def sketch_json(self, found: Level) -> str:
        from designer.formats.level_json import format_json, level_to_json

        return format_json(level_to_json(found))


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


#: The table of a level.
LEVEL = LevelKind()
