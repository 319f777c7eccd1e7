"""``LayoutSpace``: a request's cells as flat arrays, built once per request.

Every search works on flat cell indices (``r * width + c``) and batches of terrains; this is
the one place that turns a ``LayoutRequest`` into them, and the one filter that says which
classified layouts are admissible (strong, reversible, within the request's budgets and band).

>>> from designer.core.request import LayoutRequest
>>> space = LayoutSpace.of(LayoutRequest(height=5, width=6))
>>> space.index((1, 2)), space.cell(8)
(8, (1, 2))
>>> len(space.free), space.start_cells.tolist()
(12, [25, 26, 27, 28])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.terrain import ICE, ROCK, SNOW, STRONG, Cell


@dataclass(frozen=True, eq=False)
class LayoutSpace:
    """The layout space of ``request``."""

    request: LayoutRequest
    free: np.ndarray  # flat indices of the free cells, row-major
    start_cells: np.ndarray  # flat indices the start may take
    goal_cells: np.ndarray
    fixed: np.ndarray  # flat: each cell's fixed tile (frame, template), -1 for a free cell

    @classmethod
    def of(cls, request: LayoutRequest) -> LayoutSpace:
        """The space of ``request`` (built once per request and kept)."""
        return _space(request)

    @property
    def height(self) -> int:
        return self.request.height

    @property
    def width(self) -> int:
        return self.request.width

    def index(self, cell: Cell) -> int:
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> Cell:
        return divmod(int(index), self.width)

    def flat(self, cells) -> np.ndarray:
        """Flat indices of ``cells`` (row, column pairs)."""
        return np.array([r * self.width + c for r, c in cells], dtype=np.int64).reshape(-1)

    def level(self, terrain: np.ndarray, start: int, goal: int) -> Level:
        """The level of a terrain (flat or H x W) and flat start and goal indices."""
        return Level(
            np.asarray(terrain).reshape(self.height, self.width), self.cell(start), self.cell(goal)
        )

    def base_terrain(self) -> np.ndarray:
        """The fixed terrain (frame rock, a template's tiles), ice on the free cells and pinned ends."""
        base = (
            np.where(self.fixed < 0, ICE, self.fixed)
            .astype(np.uint8)
            .reshape(self.height, self.width)
        )
        for cells in (self.start_cells, self.goal_cells):
            if len(cells) == 1:
                base[self.cell(cells[0])] = ICE
        return base

    def endpoint_masks(self) -> tuple[np.ndarray, np.ndarray]:
        """uint8 grids marking where the start and the goal may be."""
        masks = []
        for cells in (self.start_cells, self.goal_cells):
            mask = np.zeros(self.height * self.width, np.uint8)
            mask[cells] = 1
            masks.append(mask.reshape(self.height, self.width))
        return masks[0], masks[1]

    def rocks(self, terrains: np.ndarray) -> np.ndarray:
        """Placed rocks (on free cells) of each terrain of a batch."""
        return (self._flat(terrains)[:, self.free] == ROCK).sum(axis=1)

    def snow(self, terrains: np.ndarray) -> np.ndarray:
        """Placed snow tiles (on free cells) of each terrain of a batch."""
        return (self._flat(terrains)[:, self.free] == SNOW).sum(axis=1)

    def _flat(self, terrains: np.ndarray) -> np.ndarray:
        """A batch as one row per terrain (an empty batch too)."""
        return terrains.reshape(terrains.shape[0], self.height * self.width)

    def admissible(
        self,
        terrains: np.ndarray,
        classes: np.ndarray,
        reversible: np.ndarray,
        stops: np.ndarray,
        *,
        floor: int | None = None,
        budgets: bool = True,
    ) -> np.ndarray:
        """Which classified layouts of a batch are candidates: strong, reversible, min stops at
        most ``max_stops`` (and at least ``floor`` when given), and with ``budgets`` within the
        rock budget and with exactly the snow asked for. The verifier has the last word."""
        ok = (classes == STRONG) & reversible
        req = self.request
        if floor is not None:
            ok &= stops >= floor
        if req.max_stops is not None:
            ok &= stops <= req.max_stops
        if budgets:
            ok &= self.within_budgets(terrains)
        return ok

    def within_budgets(self, terrains: np.ndarray) -> np.ndarray:
        """Which terrains of a batch keep the rock budget and have exactly the snow asked for."""
        req = self.request
        ok = np.ones(terrains.shape[0], bool)
        if req.max_rocks is not None:
            ok &= self.rocks(terrains) <= req.max_rocks
        if req.snow:
            ok &= self.snow(terrains) == req.placed_snow()
        return ok


@lru_cache(maxsize=64)
def _space(request: LayoutRequest) -> LayoutSpace:
    w = request.width

    def flat(cells) -> np.ndarray:
        return np.array([r * w + c for r, c in cells], dtype=np.int64).reshape(-1)

    return LayoutSpace(
        request,
        flat(request.free_cells()),
        flat(request.start_cells()),
        flat(request.goal_cells()),
        np.array(request.fixed_grid(), np.int16).reshape(-1),
    )
