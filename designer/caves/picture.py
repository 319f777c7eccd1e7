"""A cave's floor plan: every room drawn where it lies (``at``; rooms without a place side by
side), one panel per floor under its caption, each link's door labelled (a ladder or a hole with
the room it leads to, a lock with its key), and the way through marked.

>>> from designer.caves.cave import Cave
>>> cave = Cave.parse("room a\\n#1#\\n#.2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\nentrance a:1\\nexit b:1")
>>> svg = svg_plan(cave, way=True)
>>> svg.count('class="door"'), svg.count('class="way"')
(4, 2)
"""

from __future__ import annotations

from designer.caves.cave import Cave
from designer.caves.parts import door_text
from designer.export.picture import (
    CAPTION_HEIGHT,
    ROUTE_COLOURS,
    check_size,
    draw,
    room_group,
    svg_text,
)

WAY_COLOUR = ROUTE_COLOURS[0]
LABEL_FILL = "#1d2a36"
LOCK_FILL = "#b8860b"
GAP = 1  # cells between rooms placed side by side
#: Pixels per cell of a plan by default (``render --cell``): a 12-cell room is 384 px wide, its
#: labels 14 px high.
PLAN_CELL = 32


def layout(cave: Cave) -> dict[str, tuple[int, int]]:
    """Each room's top-left cell on its floor's plan: its ``at``, or after the placed rooms of its
    floor, side by side along the top."""
    found = {}
    for floor in sorted({room.floor for room in cave.rooms}):
        rooms = [room for room in cave.rooms if room.floor == floor]
        right = (
            max((room.at[1] + room.shape[1] for room in rooms if room.at is not None), default=-GAP)
            + GAP
        )
        for room in rooms:
            if room.at is not None:
                found[room.name] = room.at
            else:
                found[room.name] = (0, right)
                right += room.shape[1] + GAP
    return found


def draw_plan(cave: Cave, *, cell: int = PLAN_CELL, way: bool = False):
    """The floor plan as a drawing (see the module docstring); ``way`` marks the fewest-moves way
    through (ValueError when the exit cannot be reached)."""
    from designer.caves.graph import solve

    found = solve(cave) if way else None
    if way and found is None:
        raise ValueError("the exit cannot be reached from the entrance: there is no way to draw")
    places = layout(cave)
    floors = sorted({room.floor for room in cave.rooms})
    sizes = {}
    for floor in floors:
        rooms = [room for room in cave.rooms if room.floor == floor]
        sizes[floor] = (
            max(places[r.name][0] + r.shape[0] for r in rooms),
            max(places[r.name][1] + r.shape[1] for r in rooms),
        )
    width = max(w for _, w in sizes.values()) * cell
    height = sum((h * cell + CAPTION_HEIGHT) for h, _ in sizes.values())
    check_size(width, height, sum(r.shape[0] * r.shape[1] for r in cave.rooms))
    picture = draw.Drawing(width, height)
    picture.append(draw.Rectangle(0, 0, width, height, fill="#ffffff"))
    top, origin = 0, {}
    for floor in floors:
        picture.append(
            draw.Text(
                f"floor {floor}",
                13,
                6,
                top + 15,
                font_weight="bold",
                fill=LABEL_FILL,
                font_family="DejaVu Sans, Verdana, sans-serif",
            )
        )
        top += CAPTION_HEIGHT
        for room in (r for r in cave.rooms if r.floor == floor):
            r0, c0 = places[room.name]
            origin[room.name] = (c0 * cell, top + r0 * cell)
            group = draw.Group(
                transform=f"translate({origin[room.name][0]},{origin[room.name][1]})"
            )
            group.append(room_group(room.room, cell, []))
            group.append(
                draw.Text(
                    room.name,
                    max(9, cell * 0.6),
                    cell * 0.15,
                    cell * 0.75,
                    fill="#ffffff",
                    font_weight="bold",
                    font_family="DejaVu Sans, Verdana, sans-serif",
                )
            )
            picture.append(group)
        top += sizes[floor][0] * cell
    labels = []
    for link in cave.links:
        for door, other in ((link.a, link.b), (link.b, link.a)):
            far = cave.room(other[0]).floor != cave.room(door[0]).floor or link.kind != "door"
            # a hole's landing: where it comes from
            heading = "from" if link.one_way and door == link.b else "to"
            label = (f"{link.kind} {heading} {door_text(other)}" if far else "") + (
                f" lock {link.lock}" if link.lock else ""
            )
            if label:
                labels.append((label.strip(), door, LOCK_FILL if link.lock else LABEL_FILL))
    labels += [
        (name, door, LABEL_FILL)
        for name, door in (("entrance", cave.entrance), ("exit", cave.exit))
    ]
    placed: list = []
    for text, door, fill in labels:
        picture.append(
            _label(
                text, _place(cave, origin, door, cell, text, placed, (width, height)), cell, fill
            )
        )
    if found is not None:
        _way(picture, cave, found, origin, cell)
    return picture


def _centre(cave: Cave, origin: dict, door, cell: int) -> tuple[float, float]:
    r, c = cave.door_cell(door)
    x0, y0 = origin[door[0]]
    return x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell


def _size(text: str, cell: int) -> tuple[float, float, float]:
    """A label's font size, and its box's width and height."""
    size = max(8, cell * 0.45)
    return size, len(text) * size * 0.62 + size * 0.5, size * 1.4


def _place(
    cave: Cave, origin: dict, door, cell: int, text: str, placed: list, bounds: tuple
) -> tuple:
    """Where a door's label goes: its box's (left, top, width, height), touching the door's cell
    (into the room first, then beside the door along the wall, then out of the room), the first
    that overlaps no label placed before and stays in the picture; else the one that overlaps
    least. Each box placed is added to ``placed``."""
    x, y = _centre(cave, origin, door, cell)
    r, c = cave.door_cell(door)
    h, w = cave.room(door[0]).shape
    inward = (0, 1) if r == 0 else (0, -1) if r == h - 1 else (1, 0) if c == 0 else (-1, 0)
    _, bw, bh = _size(text, cell)
    half = cell / 2

    def box(
        dx: float, dy: float
    ) -> tuple:  # the box beside the door's cell on side (dx, dy), centred on it
        cx = x + dx * (half + bw / 2) if dx else x
        cy = y + dy * (half + bh / 2) if dy else y
        return cx - bw / 2, cy - bh / 2, bw, bh

    tangent = (inward[1], inward[0])
    candidates = [
        box(*inward),
        box(*tangent),
        box(-tangent[0], -tangent[1]),
        box(-inward[0], -inward[1]),
    ]
    # beside the door on the inward side, shifted along the wall by half a label
    for shift in (1, -1):
        left, top, bw_, bh_ = box(*inward)
        candidates.append(
            (left + tangent[0] * shift * bw / 2, top + tangent[1] * shift * bh, bw_, bh_)
        )

    def overlap(a: tuple, b: tuple) -> float:
        dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
        dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
        return dx * dy if dx > 0 and dy > 0 else 0.0

    def inside(a: tuple) -> bool:
        return a[0] >= 0 and a[1] >= 0 and a[0] + a[2] <= bounds[0] and a[1] + a[3] <= bounds[1]

    chosen = next(
        (
            one
            for one in candidates
            if inside(one) and not any(overlap(one, other) for other in placed)
        ),
        None,
    )
    if chosen is None:
        chosen = min(
            candidates,
            key=lambda one: (not inside(one), sum(overlap(one, other) for other in placed)),
        )
    placed.append(chosen)
    return chosen


def _label(text: str, at: tuple, cell: int, fill: str):
    """A label on a pale box at ``at`` (left, top, width, height), readable over the tiles."""
    size, _, _ = _size(text, cell)
    left, top, width, height = at
    group = draw.Group(class_="link")
    group.append(
        draw.Rectangle(left, top, width, height, rx=size * 0.3, fill="#ffffff", fill_opacity=0.85)
    )
    group.append(
        draw.Text(
            text,
            size,
            left + width / 2,
            top + height / 2,
            fill=fill,
            text_anchor="middle",
            dominant_baseline="central",
            font_family="DejaVu Sans, Verdana, sans-serif",
            font_weight="bold",
        )
    )
    return group


def _way(picture, cave: Cave, way, origin: dict, cell: int) -> None:
    """The way through: a line per stay in a room, through its resting cells to the door it
    leaves by (the exit, at the end)."""
    leads = {}
    for link in cave.links:
        leads[link.b] = link.a
        if not link.one_way:
            leads[link.a] = link.b
    stay: list = []
    for room, (r, c) in way.path:
        # the player came through a door: the stay before ends at its far side
        if stay and stay[-1][0] != room:
            door = leads[(room, next(n for n, at in cave.room(room).doors.items() if at == (r, c)))]
            _stay(picture, stay + [(door[0], cave.door_cell(door))], origin, cell)
            stay = []
        stay.append((room, (r, c)))
    _stay(picture, stay, origin, cell)


def _stay(picture, points: list, origin: dict, cell: int) -> None:
    x0, y0 = origin[points[0][0]]
    coords = [v for _, (r, c) in points for v in (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell)]
    picture.append(
        draw.Lines(
            *coords,
            close=False,
            fill="none",
            stroke=WAY_COLOUR,
            stroke_width=max(1.5, cell / 8),
            stroke_linejoin="round",
            stroke_linecap="round",
            stroke_opacity=0.85,
            class_="way",
        )
    )


def svg_plan(cave: Cave, *, cell: int = PLAN_CELL, way: bool = False) -> str:
    return svg_text(draw_plan(cave, cell=cell, way=way))
