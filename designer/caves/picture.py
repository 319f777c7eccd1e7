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

from designer.caves.cave import Cave, door_text
from designer.export.picture import CAPTION_HEIGHT, ROUTE_COLOURS, check_size, draw, room_group, svg_text

WAY_COLOUR = ROUTE_COLOURS[0]
LABEL_FILL = "#1d2a36"
LOCK_FILL = "#b8860b"
GAP = 1  # cells between rooms placed side by side


def layout(cave: Cave) -> dict[str, tuple[int, int]]:
    """Each room's top-left cell on its floor's plan: its ``at``, or after the placed rooms of its
    floor, side by side along the top."""
    found = {}
    for floor in sorted({room.floor for room in cave.rooms}):
        rooms = [room for room in cave.rooms if room.floor == floor]
        right = max((room.at[1] + room.shape[1] for room in rooms if room.at is not None), default=-GAP) + GAP
        for room in rooms:
            if room.at is not None:
                found[room.name] = room.at
            else:
                found[room.name] = (0, right)
                right += room.shape[1] + GAP
    return found


def draw_plan(cave: Cave, *, cell: int = 16, way: bool = False):
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
        sizes[floor] = (max(places[r.name][0] + r.shape[0] for r in rooms), max(places[r.name][1] + r.shape[1] for r in rooms))
    width = max(w for _, w in sizes.values()) * cell
    height = sum((h * cell + CAPTION_HEIGHT) for h, _ in sizes.values())
    check_size(width, height, sum(r.shape[0] * r.shape[1] for r in cave.rooms))
    picture = draw.Drawing(width, height)
    picture.append(draw.Rectangle(0, 0, width, height, fill="#ffffff"))
    top, origin = 0, {}
    for floor in floors:
        picture.append(draw.Text(f"floor {floor}", 13, 6, top + 15, font_weight="bold", fill=LABEL_FILL,
                                 font_family="DejaVu Sans, Verdana, sans-serif"))
        top += CAPTION_HEIGHT
        for room in (r for r in cave.rooms if r.floor == floor):
            r0, c0 = places[room.name]
            origin[room.name] = (c0 * cell, top + r0 * cell)
            group = draw.Group(transform=f"translate({origin[room.name][0]},{origin[room.name][1]})")
            group.append(room_group(room.room, cell, []))
            group.append(draw.Text(room.name, max(9, cell * 0.6), cell * 0.15, cell * 0.75, fill="#ffffff",
                                   font_weight="bold", font_family="DejaVu Sans, Verdana, sans-serif"))
            picture.append(group)
        top += sizes[floor][0] * cell
    for link in cave.links:
        for door, other in ((link.a, link.b), (link.b, link.a)):
            far = cave.room(other[0]).floor != cave.room(door[0]).floor or link.kind != "door"
            label = (f"{link.kind} to {door_text(other)}" if far else "") + (f" lock {link.lock}" if link.lock else "")
            if label:
                x, y = _inward(cave, origin, door, cell)
                picture.append(_label(label.strip(), x, y, cell, LOCK_FILL if link.lock else LABEL_FILL))
    for name, door in (("entrance", cave.entrance), ("exit", cave.exit)):
        x, y = _inward(cave, origin, door, cell)
        picture.append(_label(name, x, y, cell, LABEL_FILL))
    if found is not None:
        _way(picture, cave, found, origin, cell)
    return picture


def _centre(cave: Cave, origin: dict, door, cell: int) -> tuple[float, float]:
    r, c = cave.door_cell(door)
    x0, y0 = origin[door[0]]
    return x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell


def _inward(cave: Cave, origin: dict, door, cell: int) -> tuple[float, float]:
    """Where a door's label goes: a cell and a half into its room from the door (a door in the
    left or right wall: its label toward the room's middle, level with it)."""
    x, y = _centre(cave, origin, door, cell)
    r, c = cave.door_cell(door)
    h, w = cave.room(door[0]).shape
    if r in (0, h - 1):
        return x, y + (1.5 if r == 0 else -1.5) * cell
    return x + (2.5 if c == 0 else -2.5) * cell, y + 0.9 * cell


def _label(text: str, x: float, y: float, cell: int, fill: str):
    """A label on a pale box, readable over the tiles."""
    size = max(8, cell * 0.5)
    width = len(text) * size * 0.62 + size * 0.5
    group = draw.Group(class_="link")
    group.append(draw.Rectangle(x - width / 2, y - size * 0.7, width, size * 1.4, rx=size * 0.3, fill="#ffffff",
                                fill_opacity=0.85))
    group.append(draw.Text(text, size, x, y, fill=fill, text_anchor="middle", dominant_baseline="central",
                           font_family="DejaVu Sans, Verdana, sans-serif", font_weight="bold"))
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
    for k, (room, (r, c)) in enumerate(way.path):
        if stay and stay[-1][0] != room:  # the player came through a door: the stay before ends at its far side
            door = leads[(room, next(n for n, at in cave.room(room).doors.items() if at == (r, c)))]
            _stay(picture, stay + [(door[0], cave.door_cell(door))], origin, cell)
            stay = []
        stay.append((room, (r, c)))
    _stay(picture, stay, origin, cell)


def _stay(picture, points: list, origin: dict, cell: int) -> None:
    x0, y0 = origin[points[0][0]]
    coords = [v for _, (r, c) in points for v in (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell)]
    picture.append(draw.Lines(*coords, close=False, fill="none", stroke=WAY_COLOUR, stroke_width=max(1.5, cell / 8),
                              stroke_linejoin="round", stroke_linecap="round", stroke_opacity=0.85, class_="way"))


def svg_plan(cave: Cave, *, cell: int = 16, way: bool = False) -> str:
    return svg_text(draw_plan(cave, cell=cell, way=way))
