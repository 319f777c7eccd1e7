"""What a level and a room share (``Grid``): the shape of their terrain, their floors, and their text
lines with floors, wrap-around and portals marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from designer.core.errors import LevelError
from designer.core.terrain import Cell

if TYPE_CHECKING:  # loaded only for a level with floors or portals
    from designer.core.floors import Floor


class Grid:
    """The shape of a grid of ``terrain``: what a level and a room (``designer.core.room``) share."""

    terrain: np.ndarray
    #: The kind of puzzle the grid is ("level" or "room"; its operations: ``designer.ops.kinds``).
    kind_name: ClassVar[str]
    #: The template characters of its ends: a level's start and goal ("SG"), a room's doors.
    end_chars: ClassVar[str]

    def ends(self) -> list[tuple[str, Cell]]:
        """Its ends, named as a map's objects name them: a level's ("start", cell) and ("goal",
        cell), a room's (its number, cell) door by door."""
        raise NotImplementedError

    def route_levels(self) -> Sequence[tuple[str, Grid]]:
        """Each of its routes as the classic level it is, with the suffix its figures are named
        by: a level's one route ("", itself), a room's ("_A_B", the level from door A to B)."""
        raise NotImplementedError

    def rows(self) -> list[str]:
        """The grid's rows in the text form (a level and a room each write their own)."""
        raise NotImplementedError

    @property
    def height(self) -> int:
        return int(self.terrain.shape[0])

    @property
    def width(self) -> int:
        return int(self.terrain.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return self.height, self.width

    # --- floors and portals (designer.core.floors); a level's and a room's alike --------------
    portals: tuple = ()
    floors: tuple = ()

    @property
    def plain(self) -> bool:
        """No portals, one grid, no wrap-around: the rules and every table are the classic ones."""
        return not self.portals and not self.floors

    def floor_list(self) -> tuple[Floor, ...]:
        """The level's floors; a plain level's one grid is an unnamed floor."""
        from designer.core.floors import Floor

        return self.floors or (Floor("", 0, self.height, self.width),)

    def floor_of(self, cell: Cell) -> Floor:
        """The floor a cell lies on."""
        for floor in self.floor_list():
            if floor.holds(cell):
                return floor
        raise LevelError(f"cell ({cell[0]}, {cell[1]}) lies on no floor")

    def where(self, cell: Cell) -> str:
        """A cell as a person reads it: ``(r, c)``, or ``NAME (r, c)`` on a named floor, r counted
        from that floor's top row."""
        floor = self.floor_of(cell)
        r, c = floor.local(cell)
        return f"{floor.name} ({r}, {c})" if floor.name else f"({r}, {c})"

    def text_lines(self) -> list[str]:
        """The text form's lines: the rows, and for a level (or room) with floors, wrap-around or
        portals, the lines that say so (``designer.core.floors``)."""
        if self.plain:
            return self.rows()
        from designer.core.floors import link_lines, mark_cells

        rows, lines = self.rows(), []
        floors = self.floor_list()
        for floor in floors:
            if floor.name:
                lines.append(f"floor {floor.name}" + (f" wrap {floor.wrap}" if floor.wrap else ""))
            elif floor.wrap:
                lines.append(f"wrap {floor.wrap}")
            lines.extend(row[: floor.width] for row in rows[floor.top : floor.top + floor.height])
        if self.portals:
            lines.extend(link_lines(self.portals, mark_cells(self.portals)))
        return lines

    def _mark_portals(self, chars: np.ndarray) -> None:
        """Draw each portal and target by its letter into ``chars`` (the canonical characters)."""
        if self.portals:
            from designer.core.floors import mark_cells

            for cell, mark in mark_cells(self.portals).items():
                chars[cell] = mark
