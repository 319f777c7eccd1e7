"""The grid and the rocks: the layout's variables (``tiles``), the cells the player may stand on
and the slides through them (``SlideGrid``), and when a slide stops (``stop_literals``)."""

from __future__ import annotations

from designer.core.request import LayoutRequest
from designer.core.rules import DELTAS  # u, d, l, r
from designer.core.terrain import ROCK, SNOW, Cell
from designer.models.literals import Lit, Literals
from designer.models.loader import cp_model

Slide = tuple[Cell, int]  # (cell, direction): the player is on ``cell``, sliding in ``direction``
OPPOSITE = (1, 0, 3, 2)


def tiles(model: cp_model.CpModel, lits: Literals, req: LayoutRequest):
    """The layout's variables: ``is_start``, ``is_goal``, ``rock`` and ``snow`` per cell (literals,
    or constants where the request fixes the tile)."""
    cells = [(r, c) for r in range(req.height) for c in range(req.width)]
    free = set(req.free_cells())

    def indicator(allowed: set[Cell], name: str) -> dict[Cell, Lit]:
        chosen = {cell: False for cell in cells}
        if len(allowed) == 1:
            chosen[next(iter(allowed))] = True
        else:
            for cell in sorted(allowed):
                chosen[cell] = model.new_bool_var(f"{name}{cell}")
            model.add_exactly_one([chosen[c] for c in sorted(allowed)])
        return chosen

    is_start = indicator(set(req.start_cells()), "start")
    is_goal = indicator(set(req.goal_cells()), "goal")
    rock: dict[Cell, Lit] = {}
    snow: dict[Cell, Lit] = {}
    for cell in cells:
        endpoint = lits.disj([is_start[cell], is_goal[cell]])
        fixed = req.fixed_tile(cell)
        if cell in free and endpoint is not True:
            rock[cell] = model.new_bool_var(f"rock{cell}")
            lits.implies([endpoint], [~rock[cell]])
        elif cell in free:
            rock[cell] = False
        elif fixed == ROCK:  # frame or drawn rock: rock unless an end opens it (a gap in the frame)
            rock[cell] = lits.negate(endpoint)
        else:  # drawn ice or snow (no end is ever placed on drawn snow)
            rock[cell] = False
        if req.placed_snow() and cell in free and endpoint is not True:
            snow[cell] = model.new_bool_var(f"snow{cell}")
            lits.implies([snow[cell]], [~rock[cell]])
            lits.implies([snow[cell]], [lits.negate(endpoint)])
        else:
            snow[cell] = cell not in free and fixed == SNOW
        lits.implies([is_start[cell], is_goal[cell]], [])  # never both on one cell
    return is_start, is_goal, rock, snow


class SlideGrid:
    """The cells the player may stand on (every cell that is not rock for sure) and the slides
    through them."""

    def __init__(self, req: LayoutRequest, rock: dict[Cell, Lit]):
        self.height, self.width = req.height, req.width
        self.cells = [c for c in rock if rock[c] is not True]
        self.cell_set = set(self.cells)
        self.slides: list[Slide] = [(c, d) for c in self.cells for d in range(4)]
        self.bound = len(self.cells)  # no potential or distance needs more
        self.open = {c: Literals.negate(rock[c]) for c in self.cells}
        self.rock = rock
        self.portal = dict(req.portals or ())  # a template's pinned portals: cell -> target

    def lands(self, cell: Cell) -> Cell:
        """Where a slide that stops on ``cell`` leaves the player: the cell itself, or a portal's
        target (docs/spec.md, "Portals and wrap-around": entering a portal ends the slide)."""
        return self.portal.get(cell, cell)

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    @staticmethod
    def step(cell: Cell, direction: int) -> Cell:
        dr, dc = DELTAS[direction]
        return cell[0] + dr, cell[1] + dc

    def next_slide(self, slide: Slide) -> Slide | None:
        """The slide one cell further on (None when that cell is rock for sure or off the grid)."""
        cell, d = slide
        nxt = self.step(cell, d)
        return (nxt, d) if nxt in self.cell_set else None

    def previous_slide(self, slide: Slide) -> Slide | None:
        cell, d = slide
        prev = self.step(cell, OPPOSITE[d])
        return (prev, d) if prev in self.cell_set else None


def stop_literals(lits: Literals, grid: SlideGrid, rock, snow, capture) -> dict[Slide, Lit]:
    """Per slide (c, d): a player sliding onto c in direction d stops there (the next cell is rock
    or off the grid, c is snow, c captures: the goal forward, the start in the swapped level; or c
    is a portal, which leaves the player on its target: ``SlideGrid.lands``)."""
    stops = {}
    for cell, d in grid.slides:
        nxt = grid.step(cell, d)
        blocked = rock[nxt] if grid.inside(nxt) else True
        stops[(cell, d)] = (
            True if cell in grid.portal else lits.disj([blocked, snow[cell], capture[cell]])
        )
    return stops
