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
from designer.core.level import ICE, ROCK, SNOW, Level
from designer.core.limits import MAX_DRAWING_BYTES, MAX_SIDE_PIXELS
from designer.core.room import Room

if TYPE_CHECKING:
    import drawsvg as draw
else:
    draw = need("drawsvg", "pictures")

#: Pixels per cell unless asked otherwise.
DEFAULT_CELL = 32
#: Tiles in the tileset's order; a Tiled tile id is its index here plus the tileset's firstgid.
#: ``wall`` is a rock of the level's frame (new tiles go at the end, so ids stay stable).
TILES = ("ice", "rock", "snow", "start", "goal", "wall")
#: The tiles of a room's map: a door of a room with several doors after them (a tileset of its
#: own, so that every two-door map and page stays as it was).
ROOM_TILES = TILES + ("door",)
#: The tiles of a level with items: an item after them (a tileset of its own, as a room's); and of
#: a room with items.
ITEM_TILES = TILES + ("item",)
ROOM_ITEM_TILES = ROOM_TILES + ("item",)
#: The one tileset of a cave's Tiled world: a room's with keys, and a tile for each kind of link's
#: door (a doorway, a ladder up, a ladder down, a hole).
CAVE_TILES = ROOM_ITEM_TILES + ("doorway", "ladder_up", "ladder_down", "hole")
TILE_OF_TERRAIN = {ICE: "ice", ROCK: "rock", SNOW: "snow"}

ICE_FILL, ICE_LINE = "#c6e6f5", "#9fcde3"
ROCK_FILL, ROCK_EDGE = "#6b7682", "#434b54"
WALL_FILL, WALL_LINE = "#2f353b", "#4a535c"
SNOW_FILL, SNOW_EDGE, SNOW_DOT = "#ffffff", "#6a8494", "#5f7a8c"
#: Where the flecks sit on a snow tile (fractions of the cell).
SNOW_FLECKS = ((0.25, 0.27), (0.62, 0.2), (0.44, 0.5), (0.8, 0.46), (0.2, 0.72), (0.6, 0.78), (0.84, 0.84))
#: Component colours of the move-graph picture (cycled); the goal's component is always the first.
SCC_COLOURS = ("#2e9d52", "#1f6fd1", "#e07b00", "#8e44ad", "#c2185b", "#00897b", "#6d4c41", "#5c6bc0")
MOVE_STROKE = "#1d2a36"
START_FILL, GOAL_FILL, GOAL_RING = "#2e9d52", "#1d2a36", "#f2b705"
COIN_FILL, COIN_RIM = "#ffd84d", "#b8860b"
ITEM_FILL, ITEM_EDGE = "#f2b705", "#8a5a00"
PATH_STROKE, NUMBER_FILL = "#d9433b", "#ffffff"
#: A room's doors, and its routes' paths (a colour each, cycled, in the order of the routes).
DOOR_FILL, DOOR_RING = "#1d2a36", "#f2b705"
LINK_FILL = "#6b4a2b"  # a cave's doorways, ladders and holes (their Tiled tiles)
ROUTE_COLOURS = ("#d9433b", "#1f6fd1", "#2e9d52", "#e07b00", "#8e44ad", "#00897b", "#c2185b", "#6d4c41")
FAR_SHADE, TRAP_MARK = (38, 84, 124), "#c62828"
CAPTION_HEIGHT = 22  # pixels under each level of a contact sheet


def _tile(group: draw.Group, kind: str, x: float, y: float, cell: float) -> None:
    """One tile with its top-left corner at (x, y)."""
    group.append(draw.Rectangle(x, y, cell, cell, fill=ICE_FILL, stroke=ICE_LINE, stroke_width=max(0.5, cell / 32)))
    pad = cell * 0.08
    if kind == "rock":
        group.append(draw.Rectangle(x + pad, y + pad, cell - 2 * pad, cell - 2 * pad, rx=cell * 0.18,
                                    fill=ROCK_FILL, stroke=ROCK_EDGE, stroke_width=max(1, cell / 16)))
    elif kind == "wall":
        group.append(draw.Rectangle(x, y, cell, cell, fill=WALL_FILL, stroke=WALL_LINE, stroke_width=max(0.5, cell / 32)))
    elif kind == "snow":
        group.append(draw.Rectangle(x + pad / 2, y + pad / 2, cell - pad, cell - pad, rx=cell * 0.12, fill=SNOW_FILL,
                                    stroke=SNOW_EDGE, stroke_width=max(1, cell / 20)))
        for fx, fy in SNOW_FLECKS:
            group.append(draw.Circle(x + fx * cell, y + fy * cell, cell * 0.06, fill=SNOW_DOT))
    elif kind == "start":
        group.append(draw.Circle(x + cell / 2, y + cell / 2, cell * 0.3, fill=START_FILL))
    elif kind == "goal":
        group.append(draw.Circle(x + cell / 2, y + cell / 2, cell * 0.34, fill=GOAL_FILL,
                                 stroke=GOAL_RING, stroke_width=max(1, cell / 12)))
    elif kind == "item":  # a gem: a diamond
        m = cell / 2
        group.append(draw.Lines(x + m, y + cell * 0.16, x + cell * 0.84, y + m, x + m, y + cell * 0.84, x + cell * 0.16,
                                y + m, close=True, fill=ITEM_FILL, stroke=ITEM_EDGE, stroke_width=max(1, cell / 16),
                                class_="item"))
    elif kind == "door":
        group.append(draw.Circle(x + cell / 2, y + cell / 2, cell * 0.36, fill=DOOR_FILL, stroke=DOOR_RING,
                                 stroke_width=max(1, cell / 14), class_="door"))
    elif kind == "doorway":  # a cave's doorway: an arch
        group.append(draw.Path(fill=LINK_FILL, stroke=DOOR_RING, stroke_width=max(1, cell / 14))
                     .M(x + cell * 0.2, y + cell * 0.9).L(x + cell * 0.2, y + cell * 0.45)
                     .A(cell * 0.3, cell * 0.3, 0, 0, 1, x + cell * 0.8, y + cell * 0.45).L(x + cell * 0.8, y + cell * 0.9).Z())
    elif kind in ("ladder_up", "ladder_down"):  # two rails, three rungs, and an arrow the way it goes
        w = max(1, cell / 14)
        for rail in (0.3, 0.7):
            group.append(draw.Line(x + cell * rail, y + cell * 0.1, x + cell * rail, y + cell * 0.9, stroke=LINK_FILL,
                                   stroke_width=w * 1.5))
        for rung in (0.25, 0.5, 0.75):
            group.append(draw.Line(x + cell * 0.3, y + cell * rung, x + cell * 0.7, y + cell * rung, stroke=LINK_FILL,
                                   stroke_width=w))
        tip, base = (0.05, 0.3) if kind == "ladder_up" else (0.95, 0.7)
        group.append(draw.Lines(x + cell * 0.5, y + cell * tip, x + cell * 0.78, y + cell * base, x + cell * 0.22,
                                y + cell * base, close=True, fill=DOOR_RING))
    elif kind == "hole":  # a hole in the floor
        group.append(draw.Ellipse(x + cell / 2, y + cell / 2, cell * 0.4, cell * 0.3, fill="#05080b",
                                  stroke=LINK_FILL, stroke_width=max(1, cell / 14)))


def _shade(left: int, most: int) -> str:
    """A fill for a cell ``left`` moves from the goal: transparent near it, deep blue far off."""
    alpha = 0.12 + 0.6 * (left / most if most else 0)
    r, g, b = FAR_SHADE
    return f"rgba({r},{g},{b},{alpha:.3f})"


def _heat(rests: float, most: float) -> str:
    """A fill for a cell the model's player rests on ``rests`` times: pale to deep red."""
    alpha = 0.1 + 0.7 * (rests / most if most else 0)
    return f"rgba(214,60,40,{alpha:.3f})"


def _text(label: str, x: float, y: float, size: float, fill: str) -> draw.Text:
    return draw.Text(label, size, x, y, fill=fill, text_anchor="middle", dominant_baseline="central",
                     font_family="DejaVu Sans, Verdana, sans-serif", font_weight="bold")


def tile_kinds(level: Level | Room) -> list[list[str]]:
    """The tile of every cell, a kind of ``TILES``: the frame's rocks are ``wall``; the start and
    goal cells (a room's doors) are what lies under them (pictures, maps and the page draw the
    ends on top)."""
    kinds = [[TILE_OF_TERRAIN[int(code)] for code in row] for row in level.terrain]
    if level.framed:
        h, w = level.height, level.width
        for r in range(h):
            for c in range(w):
                if (r in (0, h - 1) or c in (0, w - 1)) and kinds[r][c] == "rock":
                    kinds[r][c] = "wall"
    return kinds


def _move_arrows(group: draw.Group, level: Level, cell: float, analysis: Analysis) -> None:
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
        group.append(draw.Line(x1, y1, x2, y2, stroke=MOVE_STROKE, stroke_width=max(1, cell / 24), stroke_opacity=0.75,
                               marker_end=arrow, class_="move"))
    component = {}
    ordered = sorted(analysis.sccs, key=lambda scc: level.goal not in scc)  # the goal's first
    for k, scc in enumerate(ordered):
        for node in scc:
            component[node] = k
    for node in sorted(moves.nodes()):
        x, y = centre(node)
        group.append(draw.Circle(x, y, cell * 0.2, fill=SCC_COLOURS[component[node] % len(SCC_COLOURS)],
                                 stroke="#ffffff", stroke_width=max(1, cell / 24), class_=f"node scc-{component[node]}"))


PORTAL_FILL = "#22223b"


def _passages(group: draw.Group, level: Level | Room, cell: float) -> None:
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
            group.append(_text(mark, x, y, cell * 0.42, "#ffffff"))
            group.append(draw.Text("\u2192" + marks[target[(r, c)]], cell * 0.26, (c + 0.98) * cell, (r + 0.98) * cell,
                                   fill="#ffffff", text_anchor="end", font_family="DejaVu Sans, Verdana, sans-serif",
                                   font_weight="bold", stroke=PORTAL_FILL, stroke_width=cell / 20,
                                   paint_order="stroke", class_="leads"))
        else:
            group.append(_text(mark, x, y, cell * 0.42, PORTAL_FILL))
    for floor in level.floors:
        if floor.top:
            group.append(draw.Line(0, floor.top * cell, level.width * cell, floor.top * cell, stroke=PORTAL_FILL,
                                   stroke_width=max(1, cell / 12), class_="floor"))
        if floor.name:
            group.append(draw.Text(floor.name, cell * 0.34, cell * 0.1, floor.top * cell + cell * 0.1,
                                   fill="#ffffff", font_family="DejaVu Sans, Verdana, sans-serif",
                                   dominant_baseline="hanging", stroke=PORTAL_FILL, stroke_width=cell / 24,
                                   paint_order="stroke"))


def _traced_path(group: draw.Group, level: Level, solution, cell: float, stroke: str = PATH_STROKE,
                 shift: float = 0.0, class_: str | None = None) -> None:
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
        slide = trace(level, level.index(before), DIRECTIONS.index(letter),
                      level.index(level.goal) if last else -1, laps=True)
        cells = [level.cell(i) for i in slide.path] if slide else [solution.path[k + 1]]
        end = cells[-2] if slide and slide.portal else solution.path[k + 1]
        on_board = [before] + (cells[:-1] if slide and slide.portal else cells)
        wrapped = any(abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1 for a, b in zip(on_board, on_board[1:]))
        (x1, y1), (x2, y2) = centre(before), centre(end)
        group.append(draw.Line(x1, y1, x2, y2, stroke=stroke, stroke_width=width, stroke_linecap="round",
                               stroke_opacity=0.85, **extra,
                               **({"stroke_dasharray": f"{cell / 5},{cell / 5}"} if wrapped else {})))
        if slide and slide.portal:
            (x3, y3) = centre(solution.path[k + 1])
            group.append(draw.Line(x2, y2, x3, y3, stroke=stroke, stroke_width=width / 2,
                                   stroke_dasharray=f"{cell / 8},{cell / 8}", stroke_opacity=0.7, class_="jump"))


def _cross(group: draw.Group, r: int, c: int, cell: float) -> None:
    """A trap's mark: a red cross over the cell."""
    x, y, m = c * cell, r * cell, cell * 0.22
    for x1, y1, x2, y2 in ((x + m, y + m, x + cell - m, y + cell - m), (x + cell - m, y + m, x + m, y + cell - m)):
        group.append(draw.Line(x1, y1, x2, y2, stroke=TRAP_MARK, stroke_width=max(1.5, cell / 10),
                               stroke_linecap="round", class_="trap"))


def _level_group(level: Level, cell: float, solution: bool, moves_left: bool,
                 analysis: Analysis | None, graph: bool = False, heat: dict | None = None) -> draw.Group:
    group = draw.Group()
    for r, row in enumerate(tile_kinds(level)):
        for c, kind in enumerate(row):
            _tile(group, kind, c * cell, r * cell, cell)
    if heat:
        most = max(heat.values())
        for (r, c), rests in sorted(heat.items()):
            group.append(draw.Rectangle(c * cell, r * cell, cell, cell, fill=_heat(rests, most), class_="heat"))
            label = f"{rests:.0f}" if rests >= 9.5 else f"{rests:.1f}"
            group.append(_text(label, (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.3, "#3d1010"))
    if moves_left and analysis is not None:
        most = max(analysis.remaining.values(), default=0)
        for (r, c, *taken), left in sorted(analysis.remaining.items()):
            if (r, c) in (level.start, level.goal) or any(taken):  # items: before any is taken
                continue
            group.append(draw.Rectangle(c * cell, r * cell, cell, cell, fill=_shade(left, most)))
            group.append(_text(str(left), (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.42, "#10283d"))
    for r, c in level.items:
        _tile(group, "item", c * cell, r * cell, cell)
    _coins(group, level.coins, cell)
    _tile(group, "start", level.start[1] * cell, level.start[0] * cell, cell)
    _tile(group, "goal", level.goal[1] * cell, level.goal[0] * cell, cell)
    if not level.plain:
        _passages(group, level, cell)
    if graph and analysis is not None:
        _move_arrows(group, level, cell, analysis)
    if (moves_left or graph) and analysis is not None:
        for r, c, *taken in analysis.trap_cells:
            if (r, c) != level.start and not any(taken):
                _cross(group, r, c, cell)
    if solution and analysis is not None and analysis.solution is not None:
        path = analysis.solution.path
        centre = [((c + 0.5) * cell, (r + 0.5) * cell) for r, c in path]
        points = [v for xy in centre for v in xy]
        if level.plain:
            group.append(draw.Lines(*points, close=False, fill="none", stroke=PATH_STROKE,
                                    stroke_width=max(1.5, cell / 10), stroke_linejoin="round", stroke_linecap="round",
                                    stroke_opacity=0.85))
        else:
            _traced_path(group, level, analysis.solution, cell)
        _tile(group, "goal", level.goal[1] * cell, level.goal[0] * cell, cell)  # over the path's end
        for k, (x, y) in enumerate(centre[1:], start=1):
            last = k == len(centre) - 1
            if not last:
                group.append(draw.Circle(x, y, cell * 0.27, fill=PATH_STROKE))
            group.append(_text(str(k), x, y, cell * (0.3 if k < 10 else 0.24), GOAL_RING if last else NUMBER_FILL))
        for (r, c), k in zip(level.items, analysis.solution.taken):  # each item: the move that takes it
            group.append(_text(str(k), (c + 0.5) * cell, (r + 0.5) * cell, cell * (0.3 if k < 10 else 0.24),
                               GOAL_FILL))
    return group


#: The largest picture drawn: pixels a side (Cairo's own limit is 32,767), and the memory that
#: drawing it may take, estimated from what it was measured to take (a 200x200 level: about
#: 3.5 KB a cell for the drawing, and 4 bytes a pixel for a PNG).
BYTES_PER_CELL, BYTES_PER_PIXEL = 3_500, 4


def check_size(width: int, height: int, cells: int) -> None:
    """Refuse, before any drawing, a picture of ``width`` x ``height`` pixels and ``cells`` level
    cells that is too large to draw (DesignerError, one line)."""
    if max(width, height) > MAX_SIDE_PIXELS:
        raise DesignerError(f"the picture would be {width:,}x{height:,} pixels: at most {MAX_SIDE_PIXELS:,} a side "
                            "(give a smaller --cell)")
    need = cells * BYTES_PER_CELL + width * height * BYTES_PER_PIXEL
    if need > MAX_DRAWING_BYTES:
        raise DesignerError(f"drawing {cells:,} cells at {width:,}x{height:,} pixels would take about "
                            f"{need / 1024**3:.1f} GB: at most {MAX_DRAWING_BYTES / 1024**3:.0f} GB")


def draw_level(level: Level, *, cell: int = DEFAULT_CELL, solution: bool = False, moves_left: bool = False,
               graph: bool = False, analysis: Analysis | None = None, heat: dict | None = None) -> draw.Drawing:
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


def draw_room(room: Room, *, cell: int = DEFAULT_CELL, solution: bool = False, routes=None) -> draw.Drawing:
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
        picture.append(draw.Rectangle(0, room.height * cell, room.width * cell, legend, fill="#ffffff"))
        for k, one in enumerate(solved):
            picture.append(draw.Text(one.name, 13, 6 + k * 40, room.height * cell + 15, font_weight="bold",
                                     fill=ROUTE_COLOURS[k % len(ROUTE_COLOURS)],
                                     font_family="DejaVu Sans, Verdana, sans-serif"))
    picture.append(room_group(room, cell, solved))
    return picture


def _coins(group: draw.Group, cells, cell: float) -> None:
    """Each coin: a gold disc, optional to take."""
    for r, c in cells:
        group.append(draw.Circle((c + 0.5) * cell, (r + 0.5) * cell, cell * 0.26, fill=COIN_FILL, stroke=COIN_RIM,
                                 stroke_width=max(1.0, cell * 0.05)))


def room_group(room: Room, cell: float, solved: list) -> draw.Group:
    """A room's tiles, the path of each route ``solved`` (``RouteSolution``s, each in its colour)
    and its numbered doors."""
    group = draw.Group()
    for r, row in enumerate(tile_kinds(room)):
        for c, kind in enumerate(row):
            _tile(group, kind, c * cell, r * cell, cell)
    for r, c in room.items:
        _tile(group, "item", c * cell, r * cell, cell)
    _coins(group, room.coins, cell)
    if not room.plain:
        _passages(group, room, cell)
    for k, one in enumerate(solved):
        shift = (k - (len(solved) - 1) / 2) * cell * 0.12  # side by side where routes share a way
        if not room.plain:  # each slide traced: up to a portal, then a jump to its target
            _traced_path(group, room.route(*one.route), one.solution, cell, ROUTE_COLOURS[k % len(ROUTE_COLOURS)],
                         shift, f"route route-{one.name.replace(':', '-')}")
            continue
        points = [v for r, c in one.solution.path for v in ((c + 0.5) * cell + shift, (r + 0.5) * cell + shift)]
        group.append(draw.Lines(*points, close=False, fill="none", stroke=ROUTE_COLOURS[k % len(ROUTE_COLOURS)],
                                stroke_width=max(1.5, cell / 12), stroke_linejoin="round", stroke_linecap="round",
                                stroke_opacity=0.85, class_=f"route route-{one.name.replace(':', '-')}"))
    for number, (r, c) in room.doors:
        _tile(group, "door", c * cell, r * cell, cell)
        group.append(_text(str(number), (c + 0.5) * cell, (r + 0.5) * cell, cell * 0.44, NUMBER_FILL))
    return group


def contact_sheet(levels: list[tuple[str, Level]], *, cell: int = 16, columns: int | None = None,
                  gap: int = 12, solution: bool = False, moves_left: bool = False,
                  graph: bool = False) -> draw.Drawing:
    """Every level of a pack in one picture, each captioned with its name and min stops (and
    drawn with its solution or moves left when asked); a room with its doors numbered, captioned
    with its routes' range of stops (and, with ``solution``, each route's path)."""
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
        if isinstance(level, Room):  # its routes' paths in their colours, its stops as a range
            from designer.analysis.routes import solve_routes

            solved = solve_routes(level)
            sheet.append(draw.Use(room_group(level, cell, solved if solution else []), x, y))
            stops = sorted(one.solution.stops for one in solved if one.solution)
            caption = (f"{name}: {len(level.doors)} doors, {stops[0]}-{stops[-1]} stops" if len(stops) == len(solved)
                       else f"{name}: a route unsolvable")
        else:
            analysis = analyze(level)
            sheet.append(draw.Use(_level_group(level, cell, solution, moves_left, analysis, graph), x, y))
            stops = analysis.min_stops
            caption = f"{name}: {stops} stops" if stops is not None else f"{name}: unsolvable"
        sheet.append(draw.Text(caption, 13, x, y + level.height * cell + 15, fill="#1d2a36",
                               font_family="DejaVu Sans, Verdana, sans-serif"))
    return sheet


def draw_tile(kind: str, cell: int = DEFAULT_CELL) -> draw.Drawing:
    """One tile of ``TILES`` alone (the play page's tile pictures)."""
    picture = draw.Drawing(cell, cell)
    group = draw.Group()
    _tile(group, kind, 0, 0, cell)
    picture.append(group)
    return picture


def tileset(cell: int = DEFAULT_CELL, kinds: tuple[str, ...] = TILES) -> draw.Drawing:
    """The tiles ``kinds`` (``TILES``, or a room's ``ROOM_TILES``) in that order, in one row."""
    picture = draw.Drawing(len(kinds) * cell, cell)
    for k, kind in enumerate(kinds):
        group = draw.Group()
        _tile(group, kind, k * cell, 0, cell)
        picture.append(group)
    return picture


def svg_text(picture: draw.Drawing) -> str:
    return picture.as_svg()


def png_bytes(picture: draw.Drawing) -> bytes:
    """The drawing rasterized by CairoSVG at its own size in pixels. Without the cairo library
    on the machine, a DesignerError that says so (SVG needs nothing more)."""
    try:
        cairosvg = need("cairosvg", "pictures")  # loaded only for PNG: it needs the cairo library
    except OSError as exc:  # cairocffi: "no library called cairo was found"
        raise DesignerError(f"PNG needs the cairo library ({exc}); install it (Debian: apt-get install "
                            "libcairo2) or write .svg") from None
    return cairosvg.svg2png(bytestring=picture.as_svg().encode("utf-8"))
