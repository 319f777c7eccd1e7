"""What a picture draws over the tiles: the move graph's arrows, portals and floors, a traced path, a
trap's cross, coins, and the shades of moves left and of the model's player's rests."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from designer.analysis.graph import Analysis
from designer.core.extras import need
from designer.core.level import Level
from designer.core.room import Room
from designer.export.tiles import (
    COIN_FILL,
    COIN_RIM,
    FAR_SHADE,
    MOVE_STROKE,
    PATH_STROKE,
    SCC_COLOURS,
    TRAP_MARK,
    text_label,
)

if TYPE_CHECKING:
    import drawsvg as draw
else:
    draw = need("drawsvg", "pictures")


def moves_left_shade(left: int, most: int) -> str:
    """A fill for a cell ``left`` moves from the goal: transparent near it, deep blue far off."""
    alpha = 0.12 + 0.6 * (left / most if most else 0)
    r, g, b = FAR_SHADE
    return f"rgba({r},{g},{b},{alpha:.3f})"


def heat_shade(rests: float, most: float) -> str:
    """A fill for a cell the model's player rests on ``rests`` times: pale to deep red."""
    alpha = 0.1 + 0.7 * (rests / most if most else 0)
    return f"rgba(214,60,40,{alpha:.3f})"


def draw_move_arrows(group: draw.Group, level: Level, cell: float, analysis: Analysis) -> None:
    """The move graph over the map: an arrow per move (set a little to its right, so the moves
    there and back both show), a dot per resting cell in its component's colour."""
    from designer.analysis.graph import move_graph

    moves = move_graph(level)
    arrow = draw.Marker(-0.2, -0.5, 0.9, 0.5, scale=max(3, cell / 8), orient="auto")
    arrow.append(draw.Lines(-0.2, -0.5, 0.9, 0, -0.2, 0.5, close=True, fill=MOVE_STROKE))
    centre = lambda rc: ((rc[1] + 0.5) * cell, (rc[0] + 0.5) * cell)  # noqa: E731
    for a, b in sorted(moves.edges()):
        (x1, y1), (x2, y2) = centre(a), centre(b)
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        side, gap = cell * 0.1, cell * 0.3  # to the right of the way; short of the dots
        x1, y1 = x1 - uy * side + ux * gap, y1 + ux * side + uy * gap
        x2, y2 = x2 - uy * side - ux * gap, y2 + ux * side - uy * gap
        group.append(
            draw.Line(
                x1,
                y1,
                x2,
                y2,
                stroke=MOVE_STROKE,
                stroke_width=max(1, cell / 24),
                stroke_opacity=0.75,
                marker_end=arrow,
                class_="move",
            )
        )
    component = {}
    ordered = sorted(analysis.sccs, key=lambda scc: level.goal not in scc)  # the goal's first
    for k, scc in enumerate(ordered):
        for node in scc:
            component[node] = k
    for node in sorted(moves.nodes()):
        x, y = centre(node)
        group.append(
            draw.Circle(
                x,
                y,
                cell * 0.2,
                fill=SCC_COLOURS[component[node] % len(SCC_COLOURS)],
                stroke="#ffffff",
                stroke_width=max(1, cell / 24),
                class_=f"node scc-{component[node]}",
            )
        )


PORTAL_FILL = "#22223b"


def draw_passages(group: draw.Group, level: Level | Room, cell: float) -> None:
    """A level's portals (a dark hole with the portal's letter, and an arrow with its target's
    letter in its corner), the cells one-way portals lead to (the letter), and each named floor's
    name over a line at its top."""
    from designer.core.floors import mark_cells

    marks = mark_cells(level.portals) if level.portals else {}
    target = dict(level.portals)
    for (r, c), mark in marks.items():
        x, y = (c + 0.5) * cell, (r + 0.5) * cell
        if (r, c) in target:  # a hole with its letter, and where it leads in its corner
            group.append(draw.Circle(x, y, cell * 0.36, fill=PORTAL_FILL, class_="portal"))
            group.append(text_label(mark, x, y, cell * 0.42, "#ffffff"))
            group.append(
                draw.Text(
                    "\u2192" + marks[target[(r, c)]],
                    cell * 0.26,
                    (c + 0.98) * cell,
                    (r + 0.98) * cell,
                    fill="#ffffff",
                    text_anchor="end",
                    font_family="DejaVu Sans, Verdana, sans-serif",
                    font_weight="bold",
                    stroke=PORTAL_FILL,
                    stroke_width=cell / 20,
                    paint_order="stroke",
                    class_="leads",
                )
            )
        else:
            group.append(text_label(mark, x, y, cell * 0.42, PORTAL_FILL))
    for floor in level.floors:
        if floor.top:
            group.append(
                draw.Line(
                    0,
                    floor.top * cell,
                    level.width * cell,
                    floor.top * cell,
                    stroke=PORTAL_FILL,
                    stroke_width=max(1, cell / 12),
                    class_="floor",
                )
            )
        if floor.name:
            group.append(
                draw.Text(
                    floor.name,
                    cell * 0.34,
                    cell * 0.1,
                    floor.top * cell + cell * 0.1,
                    fill="#ffffff",
                    font_family="DejaVu Sans, Verdana, sans-serif",
                    dominant_baseline="hanging",
                    stroke=PORTAL_FILL,
                    stroke_width=cell / 24,
                    paint_order="stroke",
                )
            )


def draw_traced_path(
    group: draw.Group,
    level: Level,
    solution,
    cell: float,
    stroke: str = PATH_STROKE,
    shift: float = 0.0,
    class_: str | None = None,
) -> None:
    """The solution's path on a level with portals, floors or wrap-around: each slide up to the
    portal it falls into (then a dashed jump to the target), a slide over a wrapping edge dashed
    from where it starts to where it ends (in ``stroke``, moved by ``shift`` pixels: a room's
    routes side by side)."""
    from designer.core.rules import DIRECTIONS, trace

    centre = lambda rc: ((rc[1] + 0.5) * cell + shift, (rc[0] + 0.5) * cell + shift)  # noqa: E731
    width = max(1.5, cell / 10)
    extra = {"class_": class_} if class_ else {}
    for k, (before, letter) in enumerate(zip(solution.path, solution.moves)):
        last = k == len(solution.moves) - 1
        slide = trace(
            level,
            level.index(before),
            DIRECTIONS.index(letter),
            level.index(level.goal) if last else -1,
            laps=True,
        )
        cells = [level.cell(i) for i in slide.path] if slide else [solution.path[k + 1]]
        end = cells[-2] if slide and slide.portal else solution.path[k + 1]
        on_board = [before] + (cells[:-1] if slide and slide.portal else cells)
        wrapped = any(
            abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1 for a, b in zip(on_board, on_board[1:])
        )
        (x1, y1), (x2, y2) = centre(before), centre(end)
        group.append(
            draw.Line(
                x1,
                y1,
                x2,
                y2,
                stroke=stroke,
                stroke_width=width,
                stroke_linecap="round",
                stroke_opacity=0.85,
                **extra,
                **({"stroke_dasharray": f"{cell / 5},{cell / 5}"} if wrapped else {}),
            )
        )
        if slide and slide.portal:
            (x3, y3) = centre(solution.path[k + 1])
            group.append(
                draw.Line(
                    x2,
                    y2,
                    x3,
                    y3,
                    stroke=stroke,
                    stroke_width=width / 2,
                    stroke_dasharray=f"{cell / 8},{cell / 8}",
                    stroke_opacity=0.7,
                    class_="jump",
                )
            )


def draw_cross(group: draw.Group, r: int, c: int, cell: float) -> None:
    """A trap's mark: a red cross over the cell."""
    x, y, m = c * cell, r * cell, cell * 0.22
    for x1, y1, x2, y2 in (
        (x + m, y + m, x + cell - m, y + cell - m),
        (x + cell - m, y + m, x + m, y + cell - m),
    ):
        group.append(
            draw.Line(
                x1,
                y1,
                x2,
                y2,
                stroke=TRAP_MARK,
                stroke_width=max(1.5, cell / 10),
                stroke_linecap="round",
                class_="trap",
            )
        )


def draw_coins(group: draw.Group, cells, cell: float) -> None:
    """Each coin: a gold disc, optional to take."""
    for r, c in cells:
        group.append(
            draw.Circle(
                (c + 0.5) * cell,
                (r + 0.5) * cell,
                cell * 0.26,
                fill=COIN_FILL,
                stroke=COIN_RIM,
                stroke_width=max(1.0, cell * 0.05),
            )
        )
