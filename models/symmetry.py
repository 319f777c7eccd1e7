"""The mirror symmetry of a request's layout space, which the model breaks: a layout and its
mirror image are the same puzzle, so the model keeps one of each (``break_mirror_symmetry``),
a hint is given as its kept image (``kept_mirror``), and the model posed once per start and goal
pair needs one pair of each set of images (``end_pairs``). Pins, templates and rooms break the
symmetry: none is then used."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.terrain import Cell
from designer.models.literals import Lit

if TYPE_CHECKING:  # the model is built elsewhere: reading the symmetries loads no solver
    from designer.models.loader import cp_model


def mirrors(req: LayoutRequest) -> tuple[tuple[bool, bool], ...]:
    """The mirror images that map the request onto itself, as (flip the rows, flip the columns):
    left-right always, up-down and both too without a frame (with one, the start's and the
    goal's walls would trade places); none when pins or a template break the symmetry."""
    if req.pinned or req.template is not None:
        return ()
    return ((False, True),) if req.frame else ((False, True), (True, False), (True, True))


def end_pairs(req: LayoutRequest) -> list[tuple[Cell, Cell]]:
    """Every (start, goal) pair the request allows, one of each set of mirror images: the
    sub-requests, each with both ends pinned, that together cover the request.

    >>> len(end_pairs(LayoutRequest(8, 8, min_stops=21)))  # 6 starts x 6 goals, halved by the mirror
    18
    >>> len(end_pairs(LayoutRequest(7, 7, min_stops=15)))  # the middle start keeps half its goals
    13
    """
    h, w = req.height, req.width
    images = mirrors(req)

    def image(cell: Cell, rows: bool, cols: bool) -> Cell:
        return (h - 1 - cell[0] if rows else cell[0], w - 1 - cell[1] if cols else cell[1])

    pairs = []
    for start in req.start_cells():
        for goal in req.goal_cells():
            if start != goal and all(
                (start, goal) <= (image(start, *m), image(goal, *m)) for m in images
            ):
                pairs.append((start, goal))
    return pairs


def images(req: LayoutRequest, level: Level) -> list[Level]:
    """The mirror images of a plain ``level`` under the request's symmetries (``mirrors``), each
    other than the level itself, in the order of ``mirrors``: the levels the model never poses,
    since it keeps one of each set of images. The SAT loop's and the model's proofs cover the
    kept images only; a level excluded from a search (a pack's earlier level) leaves its images
    unposed, so a search that excludes levels looks at these before it calls a request infeasible.

    >>> level = Level.from_rows(["#G###", "#..##", "##..#", "#...#", "#S###"])
    >>> [str(image) for image in images(LayoutRequest(5, 5, min_stops=7), level)]
    ['###G#\\n##..#\\n#..##\\n#...#\\n###S#']
    """
    if not level.plain or level.items:
        return []
    h, w = level.terrain.shape
    found: list[Level] = []
    for rows, cols in mirrors(req):
        terrain = level.terrain[:: -1 if rows else 1, :: -1 if cols else 1].copy()

        def image(cell: Cell, rows: bool = rows, cols: bool = cols) -> Cell:  # this pass's mirror
            return (h - 1 - cell[0] if rows else cell[0], w - 1 - cell[1] if cols else cell[1])

        mirrored = level.replace(terrain=terrain, start=image(level.start), goal=image(level.goal))
        if mirrored != level and mirrored not in found:
            found.append(mirrored)
    return found


def break_mirror_symmetry(
    model: cp_model.CpModel, req: LayoutRequest, is_start: dict[Cell, Lit]
) -> None:
    if not mirrors(req):  # pins and templates break the mirror symmetry
        return
    cells = [c for c, v in is_start.items() if not isinstance(v, bool)]
    if not cells:
        return
    col = sum(c[1] * is_start[c] for c in cells)
    model.add(2 * col <= req.width - 1)  # left-right mirror keeps the frame and the edges
    if not req.frame:
        row = sum(c[0] * is_start[c] for c in cells)
        model.add(2 * row <= req.height - 1)  # without a frame, up-down too


def kept_mirror(req: LayoutRequest, terrain: np.ndarray, start: Cell, goal: Cell):
    """The mirror image of a layout that ``break_mirror_symmetry`` keeps (the layout itself when
    it is kept already, or when pins switch symmetry breaking off)."""
    if req.pinned or req.template is not None:
        return terrain, start, goal
    (sr, sc), (gr, gc) = start, goal
    h, w = terrain.shape
    if 2 * sc > w - 1:
        terrain, sc, gc = terrain[:, ::-1], w - 1 - sc, w - 1 - gc
    if not req.frame and 2 * sr > h - 1:
        terrain, sr, gr = terrain[::-1, :], h - 1 - sr, h - 1 - gr
    return terrain, (sr, sc), (gr, gc)
