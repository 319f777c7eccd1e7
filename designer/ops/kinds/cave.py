"""A cave of rooms with keys (``designer.caves``) as a kind of puzzle (``CAVE``): told apart by
its file's first bytes (or a Tiled world of room maps), solved and analysed as one graph of
states; and the plain results of solving and analysing one (``CaveSolved``, ``CaveAnalysed``).

A cave is drawn as its floor plan, exported as a Tiled world and played as one sheet of keys and
locks from its own file (``designer.ops.caves``, ``designer.ops.cave_views``): its table answers
``SourceKind`` for those, not the hooks of a level file's entries (``EntryKind``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from designer.core.errors import DesignerError

if TYPE_CHECKING:
    from designer.analysis.player import Figures
    from designer.analysis.tour import FullClear
    from designer.caves.cave import Cave
    from designer.caves.cave_analysis import CaveAnalysis
    from designer.caves.graph import Way


@dataclass(frozen=True)
class CaveSolved:
    """A cave and its fewest-moves way through, room by room (``designer.caves.graph.Way``; None:
    the exit cannot be reached)."""

    kind: ClassVar[str] = "cave"
    cave: Cave
    way: Way | None
    full: FullClear | None = None  # with coins: the cave's full clear (designer.caves.coins)


@dataclass(frozen=True)
class CaveAnalysed:
    """A cave and its analysis (``designer.caves.cave_analysis.CaveAnalysis``), with what the model's
    player costs on the whole cave (``designer.analysis.player.Figures``; None: no way through)."""

    kind: ClassVar[str] = "cave"
    cave: Cave
    analysis: CaveAnalysis
    player: Figures | None = None
    full: FullClear | None = None  # with coins: the cave's full clear (designer.caves.coins)

    def to_dict(self) -> dict:
        out = self.analysis.to_dict()
        out["player"] = None if self.player is None else self.player.to_json()
        if self.player is not None:  # each cell named by its room, as a player sees it
            from designer.caves.cave_analysis import room_cells

            where, rows = room_cells(self.cave), []
            for cell, rests in self.player.hottest():
                room, local = where(cell)
                rows.append([room, list(local), round(rests, 3)])
            out["player"]["hottest"] = rows
        if self.full is not None:
            out["full_clear"] = self.full.to_dict()
        return out


class CaveKind:
    """The table of a cave: its hooks answer ``designer.ops.kinds.protocol.PuzzleKind``."""

    name = "cave"
    routes_refused: str | None = "this file holds a cave"

    def holds(self, found: object) -> bool:
        from designer.caves.cave import Cave

        return isinstance(found, Cave)

    def names_file(self, source: str) -> bool:
        """Whether ``source`` names a cave's file: a Tiled world of room maps, or a regular file
        whose first bytes say so (a stream, a FIFO or a device: no)."""
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

    def parse(self, data: bytes | str) -> Cave:
        from designer.ops.caves import parse_cave

        return parse_cave(data)

    def read_world(self, source: str) -> Cave:
        from designer.ops.caves import read_cave

        return read_cave(source)

    def solve(self, found: Cave, *, by: str, routes: list | None, budget) -> CaveSolved:
        from designer.caves.graph import solve as solve_cave

        return CaveSolved(found, solve_cave(found, by), self.full_clear(found, budget))

    def analyze(self, found: Cave, *, routes: list | None, player, budget) -> CaveAnalysed:
        from designer.analysis import player as model
        from designer.caves.cave_analysis import analyze as analyze_cave
        from designer.caves.cave_analysis import played

        report = analyze_cave(found)
        return CaveAnalysed(
            found,
            report,
            played(found, player or model.DEFAULT) if report.way is not None else None,
            self.full_clear(found, budget),
        )

    def full_clear(self, found: Cave, budget, routes: list | None = None) -> FullClear | None:
        """The cave's full clear (``designer.caves.coins``) when its rooms hold coins."""
        from designer.caves.coins import full_clear

        return full_clear(found, budget) if found.coins else None

    # its own file: a floor plan, a Tiled world, one sheet of keys and locks
    def render_file(
        self,
        source: str,
        output_file: str,
        *,
        solution: bool,
        moves_left: bool,
        graph: bool,
        cell: int | None,
        force: bool,
        heat: bool,
        player,
    ):
        """The cave's floor plan (``--solution``: with its way through)."""
        from pathlib import Path

        from designer.formats import output
        from designer.ops.caves import render_plan
        from designer.ops.kinds.written import Written

        if heat:
            raise DesignerError(
                "--heat draws one level with one start and one goal, not a cave or a pack"
            )
        if moves_left or graph:
            raise DesignerError(
                "--moves-left and --graph draw a level; a cave is drawn as its floor plan (--solution: "
                "the way through)"
            )
        png = Path(output_file).suffix.lower() == ".png"
        data = render_plan(source, cell=cell, way=solution, png=png)
        output.write(output_file, data, force=force)
        return Written([output_file], 1)

    def export_file(
        self,
        source: str,
        *,
        output_file: str | None,
        out: str | None,
        cell: int,
        force: bool,
        into: str | None,
    ):
        """A Tiled map per room and the .world file, in the folder ``out``."""
        from designer.ops.caves import export_world
        from designer.ops.kinds.written import Written

        if out is None:
            raise DesignerError("a cave is a map per room and a .world file: use --out DIR, not -o")
        return Written(export_world(source, out, cell=cell, into=into, force=force), 1)

    def page_file(
        self, source: str, output_file: str, *, title: str, force: bool, hint_cost: int = 0
    ):
        """The play page of the whole cave."""
        from designer.formats import output
        from designer.ops.cave_views import play_page
        from designer.ops.kinds.written import Written

        output.write(output_file, play_page(source, title, hint_cost), force=force)
        return Written([output_file], 1)

    def played_levels_of(self, source: str) -> list:
        raise DesignerError(
            f"--pack {source}: a cave's playtests are not read (a pack of levels or rooms is)"
        )


#: The table of a cave.
CAVE = CaveKind()
