"""``LayoutRequest``: what a designer is asked for, one value shared by the model and every
search, with its JSON form (``to_json`` / ``from_json``), which the generator record of every
designed level keeps, so that the request can be run again (``designer make --from LEVEL.json``).

>>> request = LayoutRequest(height=8, width=9, min_stops=12, goal=(0, 4))
>>> LayoutRequest.from_json(request.to_json()) == request
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

from designer.core.errors import DesignerError, LevelError
from designer.core.level import COIN_CHAR, DOOR_CHARS, ICE, ITEM_CHAR, ROCK, SNOW, Cell
from designer.core.limits import MAX_COUNT, PLAYER_RANGE
from designer.core.room import parse_route

#: Template characters: canonical ASCII plus '?' for a free cell; a door 1-9 is ice, and so is an
#: item ``*`` (pinned where the template draws it).
TEMPLATE_TILES = {"#": ROCK, ".": ICE, "_": SNOW, "S": ICE, "G": ICE, ITEM_CHAR: ICE, COIN_CHAR: ICE,
                  **{door: ICE for door in DOOR_CHARS}}
FREE = "?"


@dataclass(frozen=True)
class RouteBand:
    """A route asked of a room, A:B, with its own band of min stops (None: the request's
    ``--min-stops``/``--max-stops``). Its text form is what ``--route`` takes, and reads back:

    >>> [str(RouteBand.parse(text)) for text in ("1:3", "1:3=15", "2:1=9..12")]
    ['1:3', '1:3=15', '2:1=9..12']
    """

    a: int
    b: int
    min_stops: int | None = None
    max_stops: int | None = None
    #: Whether the route takes the room's items (every route of a room does; a cave's room carries
    #: a key only on the passages its plan takes the key on: ``designer.caves.design``). Not in
    #: the text form: a user's room always takes its items on every route.
    items: bool = True

    @property
    def floor(self) -> int:
        """The band's floor: every band of a room's request has one (its routes are filled in
        before a search reads them)."""
        assert self.min_stops is not None, f"route {self.a}:{self.b} has no floor yet"
        return self.min_stops

    @classmethod
    def parse(cls, text: str) -> RouteBand:
        """'A:B', 'A:B=K' or 'A:B=K..M'; LevelError (one line) for anything else."""
        route, sep, band = text.partition("=")
        a, b = parse_route(route)
        if not sep:
            return cls(a, b)
        low, dots, high = band.partition("..")
        if not _digits(low) or (dots and not _digits(high)):
            raise LevelError(f"--route takes A:B, A:B=K or A:B=K..M (K and M whole numbers), not {text!r}")
        return cls(a, b, int(low), int(high) if dots else None)

    @property
    def route(self) -> tuple[int, int]:
        return self.a, self.b

    def __str__(self) -> str:
        band = "" if self.min_stops is None else f"={self.min_stops}"
        return f"{self.a}:{self.b}{band}{'' if self.max_stops is None else f'..{self.max_stops}'}"

    def band_text(self) -> str:
        """'>= 15' or 'in 9..12' (the band resolved: ``LayoutRequest.route_bands``)."""
        return f">= {self.min_stops}" if self.max_stops is None else f"in {self.min_stops}..{self.max_stops}"


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 7


@dataclass(frozen=True)
class LayoutRequest:
    """The layout space and the target.

    ``start``/``goal`` pin a cell; unpinned, with a frame the start is on the bottom edge and the
    goal on the top edge (corners excluded), without a frame anywhere.

    With a ``template`` (rows of canonical ASCII plus ``?``; see ``designer.formats.template``) the grid is
    the template's: ``?`` cells are free, every other cell keeps its drawn tile, ``S``/``G`` pin
    the ends, and an unpinned end may go on any free or ice cell. There is no frame of our own.
    """

    height: int = 12
    width: int = 12
    frame: bool = True
    min_stops: int = 15
    max_stops: int | None = None
    start: Cell | None = None
    goal: Cell | None = None
    max_rocks: int | None = None  # rocks placed on free cells (frame and template rocks are not counted)
    snow: int = 0  # exactly this many snow tiles in the level, template snow included (0: none)
    tidy: bool = False  # every placed rock and snow tile is needed (see designer.analysis.tidy)
    template: tuple[str, ...] | None = None
    min_choices: int | None = None  # at least this many options along the printed solution
    unique: bool = False  # exactly one fewest-moves solution
    doors: tuple[tuple[int, Cell], ...] | None = None  # a room's doors (--door), when no template draws them
    routes: tuple[RouteBand, ...] | None = None  # a room's routes (--route); None: every pair i < j
    items: int = 0  # items the designer places on free cells (--items), besides those the template pins
    teleports: int = 0  # teleport pairs the designer places on free cells (--teleports)
    coins: int = 0  # coins placed on the designed level (--coins: designer.search.coins)
    full_clear_min: int | None = None  # the full clear's band (--full-clear K..M)
    full_clear_max: int | None = None
    floors: tuple[tuple[str, int, int, int, str], ...] | None = None  # a template's floors (name, top, height, width, wrap)
    portals: tuple[tuple[Cell, Cell], ...] | None = None  # the portals a template pins: (cell, target)
    first: bool = False  # the first level that meets the request, no time then spent on its decisions
    # (designer.search.decisions; --first)
    difficulty: float | None = None  # a predicted difficulty (1-10) to meet within 15% (designer.search.felt)
    player: tuple[float, float] | None = None  # the model's player (skill, back aversion); None: the default

    # --- items (designer.core.items) ----------------------------------------------------------

    @cached_property
    def pinned_items(self) -> tuple[Cell, ...]:
        """The items the template draws (``*``), sorted."""
        return tuple((r, c) for r, row in enumerate(self.template or ()) for c, ch in enumerate(row) if ch == ITEM_CHAR)

    @cached_property
    def pinned_coins(self) -> tuple[Cell, ...]:
        """The coins the template draws (``$``), sorted (``designer.search.coins``)."""
        return tuple((r, c) for r, row in enumerate(self.template or ()) for c, ch in enumerate(row) if ch == COIN_CHAR)

    @property
    def item_count(self) -> int:
        """How many items a level of this request holds: placed and pinned."""
        return self.items + len(self.pinned_items)

    @property
    def extras(self) -> bool:
        """Whether a level of this request holds items, portals or floors: designed by the chains
        over its states (``designer.search.engines.items``)."""
        return bool(self.item_count or self.teleports or self.floors or self.portals)

    @property
    def floor_values(self) -> tuple:
        """The template's floors as ``designer.core.floors.Floor`` values (none: one grid)."""
        from designer.core.floors import Floor

        floors = tuple(Floor(*floor) for floor in self.floors or ())
        plain = len(floors) == 1 and not floors[0].name and not floors[0].wrap
        return () if plain else floors  # as a level keeps them (``designer.core.level.Level``)

    @property
    def model_poses(self) -> bool:
        """Whether the CP-SAT model poses this request: no items, no portals to place and one grid
        that does not wrap (a template's pinned portals it poses: docs/model.md, "Portals")."""
        return not (self.item_count or self.teleports or self.floor_values)

    def level(self, terrain, start: Cell, goal: Cell):
        """The level of a layout of this request: its terrain and ends, with the template's pinned
        portals and floors."""
        from designer.core.level import Level

        return Level(terrain, start, goal, "canonical", (), tuple(self.portals or ()), self.floor_values)

    @cached_property
    def portal_cells(self) -> frozenset:
        """The cells of the portals a template pins, and of their targets."""
        return frozenset(cell for pair in self.portals or () for cell in pair)

    # --- rooms with several doors (designer.core.room) ---------------------------------------

    @cached_property
    def room_doors(self) -> tuple[tuple[int, Cell], ...]:
        """The doors of a room request, (number, cell) in number order: ``doors``, or the digits
        the template draws; () for a level with one start and one goal."""
        if self.doors:
            return tuple(sorted(self.doors))
        return tuple(sorted((int(ch), (r, c)) for r, row in enumerate(self.template or ())
                            for c, ch in enumerate(row) if ch in DOOR_CHARS))

    @cached_property
    def _door_cells(self) -> frozenset:
        return frozenset(cell for _, cell in self.doors or ())

    @property
    def is_room(self) -> bool:
        return bool(self.room_doors)

    @property
    def is_vault(self) -> bool:
        """A room of one door (``designer.core.room``): its route returns to its door."""
        return len(self.room_doors) == 1

    def door(self, number: int) -> Cell:
        return dict(self.room_doors)[number]

    @cached_property
    def route_bands(self) -> tuple[RouteBand, ...]:
        """Every route the room must hold, each with its band resolved: a route's own floor (and
        ceiling, if any) where given, else the request's ``min_stops`` and ``max_stops``. With no
        routes asked, every pair of doors i < j."""
        numbers = [n for n, _ in self.room_doors]
        pairs = [(a, b) for k, a in enumerate(numbers) for b in numbers[k + 1:]] or [(n, n) for n in numbers]  # a vault
        asked = self.routes or tuple(RouteBand(a, b) for a, b in pairs)
        return tuple(band if band.min_stops is not None else replace(band, min_stops=self.min_stops,
                                                                       max_stops=self.max_stops)
                     for band in asked)

    def route_request(self, band: RouteBand) -> LayoutRequest:
        """The room seen from one route: the classic request whose template is this request's
        space (free cells ``?``), door A the start, door B the goal, every other door ice, and
        the route's band; the room's items when the route takes them (``RouteBand.items``). A
        vault's route (A = B) pins its goal on the start's door."""
        rows = []
        for r in range(self.height):
            chars = []
            for c in range(self.width):
                tile = self.fixed_tile((r, c))
                chars.append(FREE if tile is None else ".#_"[tile])
            rows.append(chars)
        for char, number in (("S", band.a), ("G", band.b))[:1 if band.a == band.b else 2]:
            r, c = self.door(number)
            rows[r][c] = char
        for r, c in self.pinned_items if band.items else ():
            rows[r][c] = ITEM_CHAR
        return LayoutRequest(height=self.height, width=self.width, frame=False, min_stops=band.floor,
                             max_stops=band.max_stops, max_rocks=self.max_rocks, snow=self.snow,
                             template=tuple("".join(row) for row in rows), min_choices=self.min_choices,
                             unique=self.unique, items=self.items if band.items else 0,
                             goal=self.door(band.b) if band.a == band.b else None)

    def routes_text(self) -> str:
        """Every route with its band, as messages name them: "1:3 >= 15, 1:2 in 9..12"."""
        return ", ".join(f"{band.a}:{band.b} {band.band_text()}" for band in self.route_bands)

    def room_target(self) -> int:
        """What a room's searches count toward when meeting its routes' floors: the sum over
        routes of min(stops, floor), which reaches the sum of the floors exactly when every route
        does (``designer.core.space.LayoutSpace.room_scores``)."""
        return sum(band.floor for band in self.route_bands)

    @property
    def asks_for_choices(self) -> bool:
        """Whether the request constrains the choices along the solution (not only its length)."""
        return self.min_choices is not None or self.unique

    def is_border(self, cell: Cell) -> bool:
        r, c = cell
        return r in (0, self.height - 1) or c in (0, self.width - 1)

    def is_corner(self, cell: Cell) -> bool:
        r, c = cell
        return r in (0, self.height - 1) and c in (0, self.width - 1)

    def _cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.height) for c in range(self.width)]

    def fixed_tile(self, cell: Cell) -> int | None:
        """The tile a cell keeps whatever the designer does (None for a free cell). An end placed
        on a fixed cell turns it into ice (a gap in the frame)."""
        if cell in self._door_cells:
            return ICE  # a door (--door): ice, a gap in the frame or in a template's wall
        if self.template is not None:
            ch = self.template[cell[0]][cell[1]]
            return None if ch == FREE else TEMPLATE_TILES[ch]
        return ROCK if self.frame and self.is_border(cell) else None

    def _template_pin(self, char: str) -> Cell | None:
        for r, row in enumerate(self.template or ()):
            if char in row:
                return r, row.index(char)
        return None

    def start_cells(self) -> list[Cell]:
        """Cells the start may take (a room: the first route's first door)."""
        if self.is_room:
            return [self.door(self.route_bands[0].a)]
        return self._end_cells(self.start, "S", "G", self.height - 1)

    def goal_cells(self) -> list[Cell]:
        """Cells the goal may take (a room: the first route's other door)."""
        if self.is_room:
            return [self.door(self.route_bands[0].b)]
        return self._end_cells(self.goal, "G", "S", 0)

    def _end_cells(self, pin: Cell | None, char: str, other: str, frame_row: int) -> list[Cell]:
        """An end's cells: its pin (an option, or the template's ``char``); else a template's free
        and ice cells but the other end's pin; else, with a frame, the inner cells of
        ``frame_row``; else every cell."""
        pin = pin if pin is not None else self._template_pin(char)
        if pin is not None:
            return [pin]
        if self.template is not None:
            return [c for c in self._cells() if self.fixed_tile(c) in (None, ICE) and c != self._template_pin(other)
                    and c not in self.portal_cells]
        if self.frame:
            return [(frame_row, c) for c in range(1, self.width - 1)]
        return self._cells()

    def free_cells(self) -> list[Cell]:
        """Cells whose terrain the designer chooses (with a frame: the interior; with a template:
        its ``?`` cells)."""
        return [cell for cell in self._cells() if self.fixed_tile(cell) is None]

    def fixed_snow(self) -> int:
        """Snow tiles the template draws (they count toward ``snow``)."""
        return sum(row.count("_") for row in self.template or ())

    def placed_snow(self) -> int:
        """Snow tiles the designer places on free cells."""
        return self.snow - self.fixed_snow()

    @property
    def pinned(self) -> bool:
        """Whether an end is pinned (which breaks the layout space's mirror symmetry)."""
        return len(self.start_cells()) == 1 or len(self.goal_cells()) == 1

    def fixed_grid(self) -> list[list[int]]:
        """Every cell's fixed tile, -1 for a free cell (row lists, for numpy)."""
        return [[-1 if (tile := self.fixed_tile((r, c))) is None else tile for c in range(self.width)]
                for r in range(self.height)]

    # --- the JSON form ------------------------------------------------------------------------

    def to_json(self) -> dict:
        """Every field, as JSON values (cells as [row, column], the template as a list of rows; a
        room's doors as [number, [row, column]] pairs and its routes in ``--route``'s text form,
        both left out of a level with one start and one goal; ``items``, ``teleports``, ``coins``
        and ``first`` left out when 0 or false, ``difficulty``, ``player`` and the full clear's
        band when not given)."""
        out = fields_to_json(self, omit=lambda name, value: (name in ("doors", "routes") and value is None)
                             or (name in ("items", "teleports", "first", "coins") and not value)
                             or (name in ("full_clear_min", "full_clear_max") and value is None)
                             or (name in ("difficulty", "player") and value is None)
                             or (name in ("floors", "portals") and value is None))
        if self.doors is not None:
            out["doors"] = [[number, list(cell)] for number, cell in self.doors]
        if self.routes is not None:
            out["routes"] = [str(band) for band in self.routes]
        if self.floors is not None:
            out["floors"] = [list(floor) for floor in self.floors]
        if self.portals is not None:
            out["portals"] = [[list(src), list(dst)] for src, dst in self.portals]
        return out

    @classmethod
    def from_json(cls, obj: object) -> LayoutRequest:
        """The request of ``to_json``'s object; DesignerError (one line) for anything else."""
        values = {}
        for name, value in json_fields(cls, obj, "the request must be a JSON object", strict=True).items():
            kind = _FIELD_KINDS[name]
            if not kind.fits(value):
                raise DesignerError(f"the request's {name!r} must be {kind.what}, not {value!r}"[:200])
            values[name] = kind.read(value)
        return cls(**values)


def fields_to_json(record, omit=lambda name, value: False) -> dict:
    """A dataclass's fields as JSON values (tuples as lists, nested records by their ``to_json``),
    those for which ``omit(name, value)`` holds left out."""
    out = {}
    for spec in fields(record):
        value = getattr(record, spec.name)
        if omit(spec.name, value):
            continue
        out[spec.name] = list(value) if isinstance(value, tuple) else value.to_json() if hasattr(value, "to_json") else value
    return out


def json_fields(cls, obj: object, not_an_object: str, strict: bool) -> dict:
    """The items of a JSON object that are fields of the dataclass ``cls``; DesignerError (the
    line ``not_an_object``) when ``obj`` is no object, and with ``strict`` when it has another key."""
    if not isinstance(obj, dict):
        raise DesignerError(not_an_object)
    known = {spec.name for spec in fields(cls)}
    unknown = sorted(set(obj) - known)
    if strict and unknown:
        raise DesignerError(f"the {cls.__name__} has an unknown field {unknown[0]!r}")
    return {key: value for key, value in obj.items() if key in known}


class _Kind:
    """How one request field is written in JSON."""

    def __init__(self, what: str, fits, read=lambda value: value):
        self.what, self.fits, self.read = what, fits, read


def _is_int(value) -> bool:
    return type(value) is int and abs(value) <= MAX_COUNT  # the bound make's options keep


def _maybe(kind: _Kind) -> _Kind:
    return _Kind(f"{kind.what} or null", lambda v: v is None or kind.fits(v),
                 lambda v: None if v is None else kind.read(v))


_INT = _Kind("a whole number", _is_int)
_BOOL = _Kind("true or false", lambda v: type(v) is bool)
_CELL = _Kind("a cell [row, column]", lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_int, v)),
              lambda v: (v[0], v[1]))
def _is_door(value) -> bool:
    return (isinstance(value, list) and len(value) == 2 and _is_int(value[0]) and _CELL.fits(value[1]))


def _read_band(text: str) -> RouteBand:
    return RouteBand.parse(text)


def _is_band(value) -> bool:
    try:
        return isinstance(value, str) and len(value) < 40 and bool(RouteBand.parse(value))
    except LevelError:
        return False


_ROWS = _Kind("a list of rows", lambda v: isinstance(v, list) and bool(v) and all(isinstance(r, str) for r in v),
              tuple)
_FIELD_KINDS = {
    "height": _INT, "width": _INT, "frame": _BOOL, "min_stops": _INT, "max_stops": _maybe(_INT),
    "start": _maybe(_CELL), "goal": _maybe(_CELL), "max_rocks": _maybe(_INT), "snow": _INT, "tidy": _BOOL,
    "template": _maybe(_ROWS), "min_choices": _maybe(_INT), "unique": _BOOL, "items": _INT, "teleports": _INT,
    "first": _BOOL, "coins": _INT, "full_clear_min": _maybe(_INT), "full_clear_max": _maybe(_INT),
    "difficulty": _maybe(_Kind("a number from 1 to 10", lambda v: type(v) in (int, float) and 1 <= v <= 10,
                               float)),
    "player": _maybe(_Kind(f"a pair [skill, back aversion] of numbers from -{PLAYER_RANGE} to {PLAYER_RANGE}",
                           lambda v: isinstance(v, list) and len(v) == 2 and all(
                               type(x) in (int, float) and -PLAYER_RANGE <= x <= PLAYER_RANGE for x in v),
                           lambda v: (float(v[0]), float(v[1])))),
    "doors": _maybe(_Kind("a list of doors [number, [row, column]]",
                          lambda v: isinstance(v, list) and len(v) <= 9 and all(map(_is_door, v)),
                          lambda v: tuple((n, (cell[0], cell[1])) for n, cell in v))),
    "floors": _maybe(_Kind("a list of floors [name, top, height, width, wrap]",
                           lambda v: isinstance(v, list) and len(v) <= 64 and all(
                               isinstance(f, list) and len(f) == 5 and isinstance(f[0], str) and isinstance(f[4], str)
                               and all(map(_is_int, f[1:4])) for f in v),
                           lambda v: tuple(tuple(f) for f in v))),
    "portals": _maybe(_Kind("a list of portals [[row, column], [row, column]]",
                            lambda v: isinstance(v, list) and len(v) <= 64 and all(
                                isinstance(p, list) and len(p) == 2 and all(map(_CELL.fits, p)) for p in v),
                            lambda v: tuple(((p[0][0], p[0][1]), (p[1][0], p[1][1])) for p in v))),
    "routes": _maybe(_Kind("a list of routes such as \"1:3=15\"",
                           lambda v: isinstance(v, list) and len(v) <= 72 and all(map(_is_band, v)),
                           lambda v: tuple(map(_read_band, v)))),
}
