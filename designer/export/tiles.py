"""The tiles every picture is drawn from: their kinds and order (which Tiled's tilesets follow), their
colours, one tile drawn (``draw_tile``), a tileset image (``tileset``), and the kind of each cell of a
level or room (``tile_kinds``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from designer.core.extras import need
from designer.core.level import Level
from designer.core.room import Room
from designer.core.terrain import ICE, ROCK, SNOW

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
SNOW_FLECKS = (
    (0.25, 0.27),
    (0.62, 0.2),
    (0.44, 0.5),
    (0.8, 0.46),
    (0.2, 0.72),
    (0.6, 0.78),
    (0.84, 0.84),
)


#: Component colours of the move-graph picture (cycled); the goal's component is always the first.
SCC_COLOURS = (
    "#2e9d52",
    "#1f6fd1",
    "#e07b00",
    "#8e44ad",
    "#c2185b",
    "#00897b",
    "#6d4c41",
    "#5c6bc0",
)


MOVE_STROKE = "#1d2a36"


START_FILL, GOAL_FILL, GOAL_RING = "#2e9d52", "#1d2a36", "#f2b705"


COIN_FILL, COIN_RIM = "#ffd84d", "#b8860b"


ITEM_FILL, ITEM_EDGE = "#f2b705", "#8a5a00"


PATH_STROKE, NUMBER_FILL = "#d9433b", "#ffffff"


#: A room's doors, and its routes' paths (a colour each, cycled, in the order of the routes).
DOOR_FILL, DOOR_RING = "#1d2a36", "#f2b705"


LINK_FILL = "#6b4a2b"  # a cave's doorways, ladders and holes (their Tiled tiles)


ROUTE_COLOURS = (
    "#d9433b",
    "#1f6fd1",
    "#2e9d52",
    "#e07b00",
    "#8e44ad",
    "#00897b",
    "#c2185b",
    "#6d4c41",
)


FAR_SHADE, TRAP_MARK = (38, 84, 124), "#c62828"


def put_tile(group: draw.Group, kind: str, x: float, y: float, cell: float) -> None:
    """One tile with its top-left corner at (x, y)."""
    group.append(
        draw.Rectangle(
            x, y, cell, cell, fill=ICE_FILL, stroke=ICE_LINE, stroke_width=max(0.5, cell / 32)
        )
    )
    pad = cell * 0.08
    if kind == "rock":
        group.append(
            draw.Rectangle(
                x + pad,
                y + pad,
                cell - 2 * pad,
                cell - 2 * pad,
                rx=cell * 0.18,
                fill=ROCK_FILL,
                stroke=ROCK_EDGE,
                stroke_width=max(1, cell / 16),
            )
        )
    elif kind == "wall":
        group.append(
            draw.Rectangle(
                x, y, cell, cell, fill=WALL_FILL, stroke=WALL_LINE, stroke_width=max(0.5, cell / 32)
            )
        )
    elif kind == "snow":
        group.append(
            draw.Rectangle(
                x + pad / 2,
                y + pad / 2,
                cell - pad,
                cell - pad,
                rx=cell * 0.12,
                fill=SNOW_FILL,
                stroke=SNOW_EDGE,
                stroke_width=max(1, cell / 20),
            )
        )
        for fx, fy in SNOW_FLECKS:
            group.append(draw.Circle(x + fx * cell, y + fy * cell, cell * 0.06, fill=SNOW_DOT))
    elif kind == "start":
        group.append(draw.Circle(x + cell / 2, y + cell / 2, cell * 0.3, fill=START_FILL))
    elif kind == "goal":
        group.append(
            draw.Circle(
                x + cell / 2,
                y + cell / 2,
                cell * 0.34,
                fill=GOAL_FILL,
                stroke=GOAL_RING,
                stroke_width=max(1, cell / 12),
            )
        )
    elif kind == "item":  # a gem: a diamond
        m = cell / 2
        group.append(
            draw.Lines(
                x + m,
                y + cell * 0.16,
                x + cell * 0.84,
                y + m,
                x + m,
                y + cell * 0.84,
                x + cell * 0.16,
                y + m,
                close=True,
                fill=ITEM_FILL,
                stroke=ITEM_EDGE,
                stroke_width=max(1, cell / 16),
                class_="item",
            )
        )
    elif kind == "door":
        group.append(
            draw.Circle(
                x + cell / 2,
                y + cell / 2,
                cell * 0.36,
                fill=DOOR_FILL,
                stroke=DOOR_RING,
                stroke_width=max(1, cell / 14),
                class_="door",
            )
        )
    elif kind == "doorway":  # a cave's doorway: an arch
        group.append(
            draw.Path(fill=LINK_FILL, stroke=DOOR_RING, stroke_width=max(1, cell / 14))
            .M(x + cell * 0.2, y + cell * 0.9)
            .L(x + cell * 0.2, y + cell * 0.45)
            .A(cell * 0.3, cell * 0.3, 0, 0, 1, x + cell * 0.8, y + cell * 0.45)
            .L(x + cell * 0.8, y + cell * 0.9)
            .Z()
        )
    # two rails, three rungs, and an arrow the way it goes
    elif kind in (
        "ladder_up",
        "ladder_down",
    ):
        w = max(1, cell / 14)
        for rail in (0.3, 0.7):
            group.append(
                draw.Line(
                    x + cell * rail,
                    y + cell * 0.1,
                    x + cell * rail,
                    y + cell * 0.9,
                    stroke=LINK_FILL,
                    stroke_width=w * 1.5,
                )
            )
        for rung in (0.25, 0.5, 0.75):
            group.append(
                draw.Line(
                    x + cell * 0.3,
                    y + cell * rung,
                    x + cell * 0.7,
                    y + cell * rung,
                    stroke=LINK_FILL,
                    stroke_width=w,
                )
            )
        tip, base = (0.05, 0.3) if kind == "ladder_up" else (0.95, 0.7)
        group.append(
            draw.Lines(
                x + cell * 0.5,
                y + cell * tip,
                x + cell * 0.78,
                y + cell * base,
                x + cell * 0.22,
                y + cell * base,
                close=True,
                fill=DOOR_RING,
            )
        )
    elif kind == "hole":  # a hole in the floor
        group.append(
            draw.Ellipse(
                x + cell / 2,
                y + cell / 2,
                cell * 0.4,
                cell * 0.3,
                fill="#05080b",
                stroke=LINK_FILL,
                stroke_width=max(1, cell / 14),
            )
        )


def text_label(label: str, x: float, y: float, size: float, fill: str) -> draw.Text:
    return draw.Text(
        label,
        size,
        x,
        y,
        fill=fill,
        text_anchor="middle",
        dominant_baseline="central",
        font_family="DejaVu Sans, Verdana, sans-serif",
        font_weight="bold",
    )


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


def draw_tile(kind: str, cell: int = DEFAULT_CELL) -> draw.Drawing:
    """One tile of ``TILES`` alone (the play page's tile pictures)."""
    picture = draw.Drawing(cell, cell)
    group = draw.Group()
    put_tile(group, kind, 0, 0, cell)
    picture.append(group)
    return picture


def tileset(cell: int = DEFAULT_CELL, kinds: tuple[str, ...] = TILES) -> draw.Drawing:
    """The tiles ``kinds`` (``TILES``, or a room's ``ROOM_TILES``) in that order, in one row."""
    picture = draw.Drawing(len(kinds) * cell, cell)
    for k, kind in enumerate(kinds):
        group = draw.Group()
        put_tile(group, kind, k * cell, 0, cell)
        picture.append(group)
    return picture
