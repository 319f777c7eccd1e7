"""``LayoutRequest``: what a designer is asked for, one value shared by the model and every
search, with its JSON form (``to_json`` / ``from_json``), which the generator record of every
designed level keeps, so that the request can be run again (``designer make --from LEVEL.json``).

>>> request = LayoutRequest(height=8, width=9, min_stops=12, goal=(0, 4))
>>> LayoutRequest.from_json(request.to_json()) == request
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from designer.core.bands import RouteBand
from designer.core.errors import DesignerError
from designer.core.request_json import REQUEST_FIELD_KINDS, fields_to_json, json_fields
from designer.core.terrain import COIN_CHAR, DOOR_CHARS, ICE, ITEM_CHAR, ROCK, SNOW, Cell

#: Template characters: canonical ASCII plus '?' for a free cell; a door 1-9 is ice, and so is an
#: item ``*`` (pinned where the template draws it).
TEMPLATE_TILES = {
    "#": ROCK,
    ".": ICE,
    "_": SNOW,
    "S": ICE,
    "G": ICE,
    ITEM_CHAR: ICE,
    COIN_CHAR: ICE,
    **{door: ICE for door in DOOR_CHARS},
}
FREE = "?"


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
    max_rocks: int | None = (
        None  # rocks placed on free cells (frame and template rocks are not counted)
    )
    snow: int = 0  # exactly this many snow tiles in the level, template snow included (0: none)
    tidy: bool = False  # every placed rock and snow tile is needed (see designer.analysis.tidy)
    template: tuple[str, ...] | None = None
    min_choices: int | None = None  # at least this many options along the printed solution
    unique: bool = False  # exactly one fewest-moves solution
    doors: tuple[tuple[int, Cell], ...] | None = (
        None  # a room's doors (--door), when no template draws them
    )
    routes: tuple[RouteBand, ...] | None = None  # a room's routes (--route); None: every pair i < j
    items: int = (
        0  # items the designer places on free cells (--items), besides those the template pins
    )
    teleports: int = 0  # teleport pairs the designer places on free cells (--teleports)
    coins: int = 0  # coins placed on the designed level (--coins: designer.search.coins)
    full_clear_min: int | None = None  # the full clear's band (--full-clear K..M)
    full_clear_max: int | None = None
    floors: tuple[tuple[str, int, int, int, str], ...] | None = (
        None  # a template's floors (name, top, height, width, wrap)
    )
    portals: tuple[tuple[Cell, Cell], ...] | None = (
        None  # the portals a template pins: (cell, target)
    )
    first: bool = (
        False  # the first level that meets the request, no time then spent on its decisions
    )
    # (designer.search.decisions; --first)
    difficulty: float | None = (
        None  # a predicted difficulty (1-10) to meet within 15% (designer.search.felt)
    )
    # the model's player: (skill, back aversion), or a member's (name, value) pairs
    # (designer.core.players.Player.as_request); None: the default
    player: tuple | None = None

    # --- items (designer.core.items) ----------------------------------------------------------

    @cached_property
    def pinned_items(self) -> tuple[Cell, ...]:
        """The items the template draws (``*``), sorted."""
        return tuple(
            (r, c)
            for r, row in enumerate(self.template or ())
            for c, ch in enumerate(row)
            if ch == ITEM_CHAR
        )

    @cached_property
    def pinned_coins(self) -> tuple[Cell, ...]:
        """The coins the template draws (``$``), sorted (``designer.search.coins``)."""
        return tuple(
            (r, c)
            for r, row in enumerate(self.template or ())
            for c, ch in enumerate(row)
            if ch == COIN_CHAR
        )

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

        return Level(
            terrain, start, goal, "canonical", (), tuple(self.portals or ()), self.floor_values
        )

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
        return tuple(
            sorted(
                (int(ch), (r, c))
                for r, row in enumerate(self.template or ())
                for c, ch in enumerate(row)
                if ch in DOOR_CHARS
            )
        )

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
        pairs = [(a, b) for k, a in enumerate(numbers) for b in numbers[k + 1 :]] or [
            (n, n) for n in numbers
        ]  # a vault
        asked = self.routes or tuple(RouteBand(a, b) for a, b in pairs)
        return tuple(
            band
            if band.min_stops is not None
            else replace(band, min_stops=self.min_stops, max_stops=self.max_stops)
            for band in asked
        )

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
        for char, number in (("S", band.a), ("G", band.b))[: 1 if band.a == band.b else 2]:
            r, c = self.door(number)
            rows[r][c] = char
        for r, c in self.pinned_items if band.items else ():
            rows[r][c] = ITEM_CHAR
        return LayoutRequest(
            height=self.height,
            width=self.width,
            frame=False,
            min_stops=band.floor,
            max_stops=band.max_stops,
            max_rocks=self.max_rocks,
            snow=self.snow,
            template=tuple("".join(row) for row in rows),
            min_choices=self.min_choices,
            unique=self.unique,
            items=self.items if band.items else 0,
            goal=self.door(band.b) if band.a == band.b else None,
        )

    def routes_text(self) -> str:
        """Every route with its band, as messages name them: "1:3 >= 15, 1:2 in 9..12"."""
        return ", ".join(f"{band.a}:{band.b} {band.band_text()}" for band in self.route_bands)

    def room_target(self) -> int:
        """What a room's searches count toward when meeting its routes' floors: the sum over
        routes of min(stops, floor), which reaches the sum of the floors exactly when every route
        does (``designer.search.engines.rooms.room_scores``)."""
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
            return [
                c
                for c in self._cells()
                if self.fixed_tile(c) in (None, ICE)
                and c != self._template_pin(other)
                and c not in self.portal_cells
            ]
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
        return [
            [-1 if (tile := self.fixed_tile((r, c))) is None else tile for c in range(self.width)]
            for r in range(self.height)
        ]

    # --- the JSON form ------------------------------------------------------------------------

    def to_json(self) -> dict:
        """Every field, as JSON values (cells as [row, column], the template as a list of rows; a
        room's doors as [number, [row, column]] pairs and its routes in ``--route``'s text form,
        both left out of a level with one start and one goal; ``items``, ``teleports``, ``coins``
        and ``first`` left out when 0 or false, ``difficulty``, ``player`` and the full clear's
        band when not given)."""
        out = fields_to_json(
            self,
            omit=lambda name, value: (
                (name in ("doors", "routes") and value is None)
                or (name in ("items", "teleports", "first", "coins") and not value)
                or (name in ("full_clear_min", "full_clear_max") and value is None)
                or (name in ("difficulty", "player") and value is None)
                or (name in ("floors", "portals") and value is None)
            ),
        )
        if self.doors is not None:
            out["doors"] = [[number, list(cell)] for number, cell in self.doors]
        if self.routes is not None:
            out["routes"] = [str(band) for band in self.routes]
        if self.floors is not None:
            out["floors"] = [list(floor) for floor in self.floors]
        if self.portals is not None:
            out["portals"] = [[list(src), list(dst)] for src, dst in self.portals]
        if self.player is not None and not isinstance(self.player[0], float):
            out["player"] = dict(self.player)  # a member of the family: as its player file
        return out

    @classmethod
    def from_json(cls, obj: object) -> LayoutRequest:
        """The request of ``to_json``'s object; DesignerError (one line) for anything else."""
        values = {}
        for name, value in json_fields(
            cls, obj, "the request must be a JSON object", strict=True
        ).items():
            kind = REQUEST_FIELD_KINDS[name]
            if not kind.fits(value):
                raise DesignerError(
                    f"the request's {name!r} must be {kind.what}, not {value!r}"[:200]
                )
            values[name] = kind.read(value)
        return cls(**values)
