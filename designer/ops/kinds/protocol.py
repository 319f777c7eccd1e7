"""The protocol every kind of puzzle answers (``PuzzleKind``): one table a kind, as each of Simon
Tatham's puzzles is one ``struct game`` that the midend drives without asking which it holds."""

from __future__ import annotations

from typing import Any, Protocol


class PuzzleKind(Protocol):
    """What the operations of ``designer.ops`` ask of a kind of puzzle (a level, a room, a cave).

    ``found`` is a value of the kind (``designer.core.level.Level``, ``designer.core.room.Room``,
    ``designer.caves.cave.Cave``)."""

    #: "level", "room" or "cave": what the kind is called in a sketch, a count or a refusal.
    name: str
    #: Why ``--route A:B`` does not apply to the kind (None: it does, to a room's doors).
    routes_refused: str | None

    def holds(self, found: object) -> bool:
        """Whether ``found`` is of this kind."""
        ...

    def solve(self, found: Any, *, by: str, routes: list | None, budget: Any) -> Any:
        """Its fewest-moves (or least-distance) solution, with its full clear (within ``budget``)."""
        ...

    def analyze(self, found: Any, *, routes: list | None, player: Any, budget: Any) -> Any:
        """Its analysis, with what the model's ``player`` costs on it and its full clear."""
        ...

    def full_clear(self, found: Any, budget: Any, routes: list | None = None) -> Any:
        """Its full clear when it holds coins (None without), within ``budget``."""
        ...


class EntryKind(PuzzleKind, Protocol):
    """What a file of levels and rooms asks of each kind it holds (a level, a room): ``entry`` is a
    level file holding ``found`` (``designer.formats.level_files.LevelFile``). A cave is drawn,
    exported and played from its own file instead (``SourceKind``)."""

    #: Whether the figures of one start and one goal are drawn of it (``--moves-left``, ``--graph``,
    #: ``--heat``): a capability, as Tatham's ``can_solve`` is one.
    draws_figures: bool

    def unsolvable(self, name: str, found: Any) -> str | None:
        """Why ``found`` (called ``name``) has no solution to draw, or None."""
        ...

    def picture(self, found: Any, *, cell: int, solution: bool, **figures: Any) -> Any:
        """``found`` drawn on its own (a ``drawsvg.Drawing``); ``figures`` (``moves_left``, ``graph``, ``heat``) only where ``draws_figures``."""
        ...

    def sheet_cell(self, name: str, found: Any, *, cell: int, solution: bool) -> tuple:
        """``found``'s place on a contact sheet: (its group, its caption)."""
        ...

    def tileset(self, found: Any) -> tuple[str, tuple[str, ...]]:
        """The tileset of its Tiled map: (image name, its tiles)."""
        ...

    def tiled_map(self, entry: Any, *, cell: int) -> dict:
        """The Tiled map (JSON) of a level file holding ``found``."""
        ...

    def page_entries(self, entry: Any) -> list[dict]:
        """Its entries on the play page (``designer.export.play``): a room's, one a route each way."""
        ...

    def played_levels(self, name: str, found: Any) -> list[tuple[str, Any]]:
        """The (name, level) pairs the play page plays of it, as a playtest replays them."""
        ...

    def sketch_json(self, found: Any) -> str:
        """Its JSON file, as the studio saves a filled sketch."""
        ...


class SourceKind(Protocol):
    """What the exports of ``designer.ops.exports`` ask of a source file: a cave's
    (``designer.ops.kinds.cave.CAVE``) or a file of levels and rooms
    (``designer.ops.kinds.files.FILES``). Each returns what it wrote
    (``designer.ops.kinds.files.Written``), its output paths checked by the caller."""

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
        player: Any,
    ) -> Any:
        """Its picture, SVG or PNG by ``output_file``'s suffix."""
        ...

    def export_file(
        self,
        source: str,
        *,
        output_file: str | None,
        out: str | None,
        cell: int,
        force: bool,
        into: str | None,
    ) -> Any:
        """Its Tiled maps (a cave's: a world of room maps), or a copy of the user's ``into``."""
        ...

    def page_file(
        self, source: str, output_file: str, *, title: str, force: bool, hint_cost: int = 0
    ) -> Any:
        """Its play page (``hint_cost``: the stars each hint of an attempt takes off)."""
        ...

    def played_levels_of(self, source: str) -> list:
        """The (name, level) pairs its play page plays, as a playtest replays them."""
        ...
