"""Pictures of levels: SVG drawn with drawsvg, PNG rasterized from the same SVG by CairoSVG.

``draw(level)`` gives a ``drawsvg.Drawing`` of the tiles (ice, rock, snow, start, goal); with
``solution`` the fewest-moves path is drawn over it, its stops numbered (and on each item, the
move that takes it); with ``moves_left``
every resting cell is shaded by the moves left to the goal from it (darker: further), and traps
(cells the goal cannot be reached from) are crossed out; with ``graph`` the move graph is drawn
over the map (source 000's figure): every move an arrow, every resting cell a dot coloured by its
strongly connected component, traps crossed out. A level's rock frame is drawn as wall, apart
from the rocks placed inside it; snow is white with dark flecks, set off from the blue ice. ``contact_sheet`` lays out a pack with
each level's name and min stops; ``tileset`` draws the tiles alone in a row (the image of the
Tiled export) and ``draw_tile`` one of them (the play page's). ``svg_text`` and ``png_bytes`` turn any of them into a file's contents.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from designer.analysis.graph import Analysis, analyze
from designer.core.errors import DesignerError
from designer.core.extras import need
from designer.core.level import Level
from designer.core.limits import MAX_DRAWING_BYTES, MAX_SIDE_PIXELS
from designer.core.room import Room
from designer.export.overlays import (
    draw_coins,
    draw_cross,
    draw_move_arrows,
    draw_passages,
    draw_traced_path,
    heat_shade,
    moves_left_shade,
)
from designer.export.tiles import (
    DEFAULT_CELL,
    GOAL_FILL,
    GOAL_RING,
    NUMBER_FILL,
    PATH_STROKE,
    ROUTE_COLOURS,
    put_tile,
    text_label,
    tile_kinds,
)

if TYPE_CHECKING:
    import drawsvg as draw
else:
    draw = need("drawsvg", "pictures")


CAPTION_HEIGHT = 22  # pixels under each level of a contact sheet


def _level_group(
    level: Level,
    cell: float,
    solution: bool,
    moves_left: bool,
    analysis: Analysis | None,
    graph: bool = False,
    heat: dict | None = None,
) -> draw.Group:
    group = draw.Group()
    for r, row in enumerate(tile_kinds(level)):
        for c, kind in enumerate(row):
            put_tile(group, kind, c * cell, r * cell, cell)
    if heat:
        most = max(heat.values())
        for (r, c), rests in sorted(heat.items()):
            group.append(
                draw.Rectangle(
                    c * cell, r * cell, cell, cell, fill=heat_shade(rests, most), class_="heat"
                )
            )
            label = f"{rests:.0f}" if rests >= 9.5 else f"{rests:.1f}"
            group.append(
                text_label(label, (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.3, "#3d1010")
            )
    if moves_left and analysis is not None:
        most = max(analysis.remaining.values(), default=0)
        for (r, c, *taken), left in sorted(analysis.remaining.items()):
            if (r, c) in (level.start, level.goal) or any(taken):  # items: before any is taken
                continue
            group.append(
                draw.Rectangle(c * cell, r * cell, cell, cell, fill=moves_left_shade(left, most))
            )
            group.append(
                text_label(str(left), (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.42, "#10283d")
            )
    for r, c in level.items:
        put_tile(group, "item", c * cell, r * cell, cell)
    draw_coins(group, level.coins, cell)
    put_tile(group, "start", level.start[1] * cell, level.start[0] * cell, cell)
    put_tile(group, "goal", level.goal[1] * cell, level.goal[0] * cell, cell)
    if not level.plain:
        draw_passages(group, level, cell)
    if graph and analysis is not None:
        draw_move_arrows(group, level, cell, analysis)
    if (moves_left or graph) and analysis is not None:
        for r, c, *taken in analysis.trap_cells:
            if (r, c) != level.start and not any(taken):
                draw_cross(group, r, c, cell)
    if solution and analysis is not None and analysis.solution is not None:
        path = analysis.solution.path
        centre = [((c + 0.5) * cell, (r + 0.5) * cell) for r, c in path]
        points = [v for xy in centre for v in xy]
        if level.plain:
            group.append(
                draw.Lines(
                    *points,
                    close=False,
                    fill="none",
                    stroke=PATH_STROKE,
                    stroke_width=max(1.5, cell / 10),
                    stroke_linejoin="round",
                    stroke_linecap="round",
                    stroke_opacity=0.85,
                )
            )
        else:
            draw_traced_path(group, level, analysis.solution, cell)
        # over the path's end
        put_tile(group, "goal", level.goal[1] * cell, level.goal[0] * cell, cell)
        for k, (x, y) in enumerate(centre[1:], start=1):
            last = k == len(centre) - 1
            if not last:
                group.append(draw.Circle(x, y, cell * 0.27, fill=PATH_STROKE))
            group.append(
                text_label(
                    str(k),
                    x,
                    y,
                    cell * (0.3 if k < 10 else 0.24),
                    GOAL_RING if last else NUMBER_FILL,
                )
            )
        # each item: the move that takes it
        for (r, c), k in zip(level.items, analysis.solution.taken):
            group.append(
                text_label(
                    str(k),
                    (c + 0.5) * cell,
                    (r + 0.5) * cell,
                    cell * (0.3 if k < 10 else 0.24),
                    GOAL_FILL,
                )
            )
    return group


#: The largest picture drawn: pixels a side (Cairo's own limit is 32,767), and the memory that
#: drawing it may take, estimated from what it was measured to take (a 200x200 level: about
#: 3.5 KB a cell for the drawing, and 4 bytes a pixel for a PNG).
BYTES_PER_CELL, BYTES_PER_PIXEL = 3_500, 4


def check_size(width: int, height: int, cells: int) -> None:
    """Refuse, before any drawing, a picture of ``width`` x ``height`` pixels and ``cells`` level
    cells that is too large to draw (DesignerError, one line)."""
    if max(width, height) > MAX_SIDE_PIXELS:
        raise DesignerError(
            f"the picture would be {width:,}x{height:,} pixels: at most {MAX_SIDE_PIXELS:,} a side "
            "(give a smaller --cell)"
        )
    need = cells * BYTES_PER_CELL + width * height * BYTES_PER_PIXEL
    if need > MAX_DRAWING_BYTES:
        raise DesignerError(
            f"drawing {cells:,} cells at {width:,}x{height:,} pixels would take about "
            f"{need / 1024**3:.1f} GB: at most {MAX_DRAWING_BYTES / 1024**3:.0f} GB"
        )


def draw_level(
    level: Level,
    *,
    cell: int = DEFAULT_CELL,
    solution: bool = False,
    moves_left: bool = False,
    graph: bool = False,
    analysis: Analysis | None = None,
    heat: dict | None = None,
) -> draw.Drawing:
    """The level as a drawing, ``cell`` pixels a cell. ``solution`` draws the fewest-moves path
    (raises ValueError when the level has none); ``moves_left`` shades the resting cells;
    ``graph`` draws the move graph over the map; ``heat`` ({cell: rests}, the model's player's
    ``designer.analysis.player.Figures.rests``) shades each cell by how often the player rests there.

    >>> level = Level.from_rows(["#G##", "#..#", "#.S#", "####"])
    >>> svg = svg_text(draw_level(level, graph=True))
    >>> svg.count('class="move"'), svg.count('class="node')  # 9 moves between 5 resting cells, the goal too
    (9, 5)
    """
    check_size(level.width * cell, level.height * cell, level.width * level.height)
    if solution or moves_left or graph:
        analysis = analysis or analyze(level)
        if solution and analysis.solution is None:
            raise ValueError("the level is unsolvable: there is no solution to draw")
    picture = draw.Drawing(level.width * cell, level.height * cell)
    picture.append(_level_group(level, cell, solution, moves_left, analysis, graph, heat))
    return picture


def draw_room(
    room: Room, *, cell: int = DEFAULT_CELL, solution: bool = False, routes=None
) -> draw.Drawing:
    """A room with several doors, each drawn with its number; with ``solution``, the path of each
    route (``routes``, or every pair of doors i < j) in a colour of its own, a little apart from
    the others where they share a way (raises ValueError when a route has no solution).

    >>> room = Room.from_rows(["###3##", "##...#", "2....#", "#....#", "#...##", "##1###"])
    >>> svg = svg_text(draw_room(room, solution=True))
    >>> svg.count('class="door"'), svg.count('class="route route-')
    (3, 3)
    """
    from designer.analysis.routes import solve_routes

    check_size(room.width * cell, room.height * cell, room.width * room.height)
    solved = solve_routes(room, routes) if solution else []
    lost = [one.name for one in solved if one.solution is None]
    if lost:
        raise ValueError(f"route {lost[0]} is unsolvable: there is no path to draw")
    legend = CAPTION_HEIGHT if solved else 0  # which colour is which route
    picture = draw.Drawing(room.width * cell, room.height * cell + legend)
    if legend:
        picture.append(
            draw.Rectangle(0, room.height * cell, room.width * cell, legend, fill="#ffffff")
        )
        for k, one in enumerate(solved):
            picture.append(
                draw.Text(
                    one.name,
                    13,
                    6 + k * 40,
                    room.height * cell + 15,
                    font_weight="bold",
                    fill=ROUTE_COLOURS[k % len(ROUTE_COLOURS)],
                    font_family="DejaVu Sans, Verdana, sans-serif",
                )
            )
    picture.append(room_group(room, cell, solved))
    return picture


def room_group(room: Room, cell: float, solved: list) -> draw.Group:
    """A room's tiles, the path of each route ``solved`` (``RouteSolution``s, each in its colour)
    and its numbered doors."""
    group = draw.Group()
    for r, row in enumerate(tile_kinds(room)):
        for c, kind in enumerate(row):
            put_tile(group, kind, c * cell, r * cell, cell)
    for r, c in room.items:
        put_tile(group, "item", c * cell, r * cell, cell)
    draw_coins(group, room.coins, cell)
    if not room.plain:
        draw_passages(group, room, cell)
    for k, one in enumerate(solved):
        shift = (k - (len(solved) - 1) / 2) * cell * 0.12  # side by side where routes share a way
        if not room.plain:  # each slide traced: up to a portal, then a jump to its target
            draw_traced_path(
                group,
                room.route(*one.route),
                one.solution,
                cell,
                ROUTE_COLOURS[k % len(ROUTE_COLOURS)],
                shift,
                f"route route-{one.name.replace(':', '-')}",
            )
            continue
        points = [
            v
            for r, c in one.solution.path
            for v in ((c + 0.5) * cell + shift, (r + 0.5) * cell + shift)
        ]
        group.append(
            draw.Lines(
                *points,
                close=False,
                fill="none",
                stroke=ROUTE_COLOURS[k % len(ROUTE_COLOURS)],
                stroke_width=max(1.5, cell / 12),
                stroke_linejoin="round",
                stroke_linecap="round",
                stroke_opacity=0.85,
                class_=f"route route-{one.name.replace(':', '-')}",
            )
        )
    for number, (r, c) in room.doors:
        put_tile(group, "door", c * cell, r * cell, cell)
        group.append(
            text_label(str(number), (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.44, NUMBER_FILL)
        )
    return group


def level_cell(
    name: str,
    level: Level,
    *,
    cell: int,
    solution: bool = False,
    moves_left: bool = False,
    graph: bool = False,
    **_,
) -> tuple[draw.Group, str]:
    """A level's place on a contact sheet: its group (drawn with its solution, moves left or move
    graph when asked) and its caption, its name and min stops."""
    analysis = analyze(level)
    group = _level_group(level, cell, solution, moves_left, analysis, graph)
    stops = analysis.min_stops
    return group, f"{name}: {stops} stops" if stops is not None else f"{name}: unsolvable"


def room_cell(
    name: str, room: Room, *, cell: int, solution: bool = False, **_
) -> tuple[draw.Group, str]:
    """A room's place on a contact sheet: its doors numbered (with ``solution``, each route's path
    in its colour), captioned with its routes' range of stops."""
    from designer.analysis.routes import solve_routes

    solved = solve_routes(room)
    stops = sorted(one.solution.stops for one in solved if one.solution)
    caption = (
        f"{name}: {len(room.doors)} doors, {stops[0]}-{stops[-1]} stops"
        if len(stops) == len(solved)
        else f"{name}: a route unsolvable"
    )
    return room_group(room, cell, solved if solution else []), caption


def contact_sheet(
    levels: list[tuple[str, Level]],
    *,
    cell: int = 16,
    columns: int | None = None,
    gap: int = 12,
    solution: bool = False,
    moves_left: bool = False,
    graph: bool = False,
    cell_of=level_cell,
) -> draw.Drawing:
    """Every level of a pack in one picture, each captioned with its name and min stops (and
    drawn with its solution or moves left when asked). ``cell_of`` draws each one's place
    (``level_cell``'s arguments and answer): a pack of several kinds passes its kind's
    (``designer.ops.kinds``: a room with its doors numbered, ``room_cell``)."""
    if not levels:
        raise ValueError("no levels to draw")
    columns = columns or max(1, math.ceil(math.sqrt(len(levels))))
    rows = math.ceil(len(levels) / columns)
    box_w = max(level.width for _, level in levels) * cell
    box_h = max(level.height for _, level in levels) * cell + CAPTION_HEIGHT
    width, height = columns * box_w + (columns + 1) * gap, rows * box_h + (rows + 1) * gap
    check_size(width, height, sum(level.width * level.height for _, level in levels))
    sheet = draw.Drawing(width, height)
    sheet.append(draw.Rectangle(0, 0, width, height, fill="#ffffff"))
    for k, (name, level) in enumerate(levels):
        x = gap + (k % columns) * (box_w + gap)
        y = gap + (k // columns) * (box_h + gap)
        group, caption = cell_of(
            name, level, cell=cell, solution=solution, moves_left=moves_left, graph=graph
        )
        sheet.append(draw.Use(group, x, y))
        sheet.append(
            draw.Text(
                caption,
                13,
                x,
                y + level.height * cell + 15,
                fill="#1d2a36",
                font_family="DejaVu Sans, Verdana, sans-serif",
            )
        )
    return sheet


def svg_text(picture: draw.Drawing) -> str:
    return picture.as_svg()


def png_bytes(picture: draw.Drawing) -> bytes:
    """The drawing rasterized by CairoSVG at its own size in pixels. Without the cairo library
    on the machine, a DesignerError that says so (SVG needs nothing more)."""
    try:
        cairosvg = need("cairosvg", "pictures")  # loaded only for PNG: it needs the cairo library
    except OSError as exc:  # cairocffi: "no library called cairo was found"
        raise DesignerError(
            f"PNG needs the cairo library ({exc}); install it (Debian: apt-get install "
            "libcairo2) or write .svg"
        ) from None
    return cairosvg.svg2png(bytestring=picture.as_svg().encode("utf-8"))
