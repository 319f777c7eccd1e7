"""What a designer is asked for: one value shared by the models and the designer."""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class LayoutRequest:
    """The layout space and the target.

    ``start``/``goal`` pin a cell; unpinned, with a frame the start is on the bottom edge and the
    goal on the top edge (corners excluded), without a frame anywhere.
    """

    height: int = 12
    width: int = 12
    frame: bool = True
    min_stops: int = 15
    max_stops: int | None = None
    start: Cell | None = None
    goal: Cell | None = None
    max_rocks: int | None = None  # rocks placed inside the frame (frame rocks are not counted)
    snow: int = 0  # exactly this many snow tiles on free cells (0: none)
    tidy: bool = False  # every placed rock and snow tile is needed (see designer.tidy)

    def is_border(self, cell: Cell) -> bool:
        r, c = cell
        return r in (0, self.height - 1) or c in (0, self.width - 1)

    def is_corner(self, cell: Cell) -> bool:
        r, c = cell
        return r in (0, self.height - 1) and c in (0, self.width - 1)

    def start_cells(self) -> list[Cell]:
        """Cells the start may take."""
        if self.start is not None:
            return [self.start]
        if self.frame:
            return [(self.height - 1, c) for c in range(1, self.width - 1)]
        return [(r, c) for r in range(self.height) for c in range(self.width)]

    def goal_cells(self) -> list[Cell]:
        """Cells the goal may take."""
        if self.goal is not None:
            return [self.goal]
        if self.frame:
            return [(0, c) for c in range(1, self.width - 1)]
        return [(r, c) for r in range(self.height) for c in range(self.width)]

    def free_cells(self) -> list[Cell]:
        """Cells whose terrain the designer chooses (with a frame: the interior)."""
        return [
            (r, c)
            for r in range(self.height)
            for c in range(self.width)
            if not (self.frame and self.is_border((r, c)))
        ]
