"""A game plan: the worlds of a game in order, each with the mechanic it teaches, its number of
levels, its band of predicted difficulty and the cave that ends it (docs/spec.md, "Games").

A plan is a small TOML file (or the same fields in JSON) that a game maker writes or edits; it
parses into a ``GamePlan`` and prints back to its canonical TOML exactly (``str``), which is what
``designer game`` writes beside the game:

>>> plan = GamePlan.parse(str(DEFAULT))
>>> plan == DEFAULT, len(plan.worlds), sum(world.levels for world in plan.worlds) >= 40
(True, 6, True)
>>> GamePlan.parse('title = "t"\\n[[worlds]]\\nname = "a"\\nmechanic = "rope"\\nlevels = 3\\n'
...                'band = "3..5"')
Traceback (most recent call last):
...
designer.core.errors.DesignerError: world 1 (a): mechanic 'rope' is not one of snow, items, coins, teleports, wrap, floors
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field, replace

from designer.core.errors import DesignerError, shown
from designer.core.limits import MAX_KEYS, MAX_SEED
from designer.game.mechanics import MECHANICS

#: The most worlds a plan holds, and levels a world holds: a game's page plays every level of it
#: (``designer.game.page``), and 12 worlds of 20 are 240 levels.
MAX_WORLDS = 12
MAX_WORLD_LEVELS = 20
#: The most rooms a world's cave has (the page plays each cave whole, a room at a time).
MAX_CAVE_ROOMS = 8
#: The longest name or title, in characters.
MAX_NAME = 40


@dataclass(frozen=True)
class WorldCave:
    """The cave that ends a world: its ``rooms`` and ``keys`` (every key needed), its band of min
    stops from ``min_stops``, its ``shape`` (a mission grammar's: designer.caves.grammar; "": the
    seed's), the ``size`` of its rooms, frame included (``designer.caves.grammar``'s sides; each
    room's own sides vary around it), and the ``names`` of its rooms (the main way's in order,
    then the key rooms', then a loop's two) and of its keys (``key_names``), words of the
    grammar's when not given."""

    rooms: int = 3
    keys: int = 1
    min_stops: int = 8
    shape: str = ""
    size: tuple[int, int] = (12, 12)
    names: tuple[str, ...] = ()
    key_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class World:
    """One world: its ``name``, the ``mechanic`` it teaches (``designer.game.mechanics``), its
    ``levels`` (the teaching level first), its ``band`` of predicted difficulty "A..B" for the
    levels after the teaching one, and its ``cave`` (None: no cave ends it)."""

    name: str
    mechanic: str
    levels: int
    band: str
    cave: WorldCave | None = field(default_factory=WorldCave)

    @property
    def low_high(self) -> tuple[float, float]:
        low, _, high = self.band.partition("..")
        return float(low), float(high)


@dataclass(frozen=True)
class GamePlan:
    """A game: its ``title``, its ``seed`` (``designer game --seed`` sets it), its worlds in
    order, and the stars each hint of an attempt takes off on its page (``hint_cost``: 0, hints
    free; ``designer play --hint-cost``)."""

    title: str
    worlds: tuple[World, ...]
    seed: int = 0
    hint_cost: int = 0

    @classmethod
    def parse(cls, text: str, where: str = "") -> GamePlan:
        """A plan from its TOML text, or its JSON (text that starts with ``{``); DesignerError,
        one line naming the field, for anything else. ``where``: the file's name, said first."""
        head = f"{where}: " if where else ""
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise DesignerError(f"{head}not a JSON plan: {exc}") from None
        else:
            try:
                data = _toml().loads(text)
            except ValueError as exc:
                raise DesignerError(f"{head}not a TOML plan: {exc}") from None
        try:
            return _plan(data)
        except DesignerError as exc:
            raise DesignerError(f"{head}{exc}") from None

    def but(self, **changes) -> GamePlan:
        return replace(self, **changes)

    def __str__(self) -> str:
        lines = [
            '# An ice-designer game plan (docs/spec.md, "Games"): designer game PLAN --out DIR',
            f"title = {_quoted(self.title)}",
            f"seed = {self.seed}",
        ]
        if self.hint_cost:
            lines.append(f"hint_cost = {self.hint_cost}")
        for world in self.worlds:
            lines += [
                "",
                "[[worlds]]",
                f"name = {_quoted(world.name)}",
                f"mechanic = {_quoted(world.mechanic)}",
                f"levels = {world.levels}",
                f"band = {_quoted(world.band)}",
            ]
            if world.cave is None:
                lines.append("cave = false")
            else:
                cave = world.cave
                shape = f", shape = {_quoted(cave.shape)}" if cave.shape else ""
                size = f", size = {_quoted('x'.join(map(str, cave.size)))}"
                named = "".join(
                    f", {field_} = [{', '.join(map(_quoted, given))}]"
                    for field_, given in (("names", cave.names), ("key_names", cave.key_names))
                    if given
                )
                lines.append(
                    f"cave = {{ rooms = {cave.rooms}, keys = {cave.keys}, "
                    f"min_stops = {cave.min_stops}{shape}{size}{named} }}"
                )
        return "\n".join(lines) + "\n"


def read_plan(source: str) -> GamePlan:
    """The plan in the file ``source`` (``-``: standard input), TOML or JSON; one line naming the
    file and the field for anything wrong."""
    from designer.formats.reading import decode_text, read_bytes

    data = read_bytes(source, "game plan")
    try:
        text = decode_text(data)
    except DesignerError as exc:
        raise DesignerError(f"{source}: {exc}") from None
    return GamePlan.parse(text, source)


def _toml():
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10: the same parser, as a package
        import tomli as tomllib
    return tomllib


def _quoted(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, for the text a name holds)."""
    return json.dumps(text, ensure_ascii=False)


def _text(value, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise DesignerError(f"{what} must be a name of 1 to {MAX_NAME} characters")
    if any(not ch.isprintable() for ch in value):
        raise DesignerError(f"{what} {shown(repr(value))} holds a character that is not printable")
    return value


def _whole(value, what: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise DesignerError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _keys(table: dict, allowed: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise DesignerError(f"{what}: unknown field {unknown[0]!r} (fields: {', '.join(allowed)})")


def _plan(data) -> GamePlan:
    if not isinstance(data, dict):
        raise DesignerError("a plan is a table of title, seed and worlds")
    _keys(data, ("title", "seed", "hint_cost", "worlds"), "the plan")
    worlds = data.get("worlds")
    if not isinstance(worlds, list) or not 1 <= len(worlds) <= MAX_WORLDS:
        raise DesignerError(f"worlds: a plan has 1 to {MAX_WORLDS} worlds ([[worlds]] tables)")
    return GamePlan(
        _text(data.get("title", "Ice Path"), "title"),
        tuple(_world(one, k + 1) for k, one in enumerate(worlds)),
        _whole(data.get("seed", 0), "seed", 0, MAX_SEED),
        _whole(data.get("hint_cost", 0), "hint_cost", 0, 3),
    )


def _world(data, number: int) -> World:
    if not isinstance(data, dict):
        raise DesignerError(f"world {number}: a world is a table of name, mechanic, levels, band")
    name = _text(data.get("name", f"World {number}"), f"world {number}: name")
    what = f"world {number} ({name})"
    _keys(data, ("name", "mechanic", "levels", "band", "cave"), what)
    mechanic = data.get("mechanic")
    if mechanic not in MECHANICS:
        raise DesignerError(
            f"{what}: mechanic {shown(repr(mechanic))} is not one of {', '.join(MECHANICS)}"
        )
    levels = _whole(data.get("levels"), f"{what}: levels", 1, MAX_WORLD_LEVELS)
    band = data.get("band")
    lowest = MECHANICS[mechanic].lowest
    try:
        low, high = (float(part) for part in str(band).split("..", 1))
    except ValueError:
        raise DesignerError(f'{what}: band must be A..B, e.g. "3..6", not {band!r}') from None
    if not isinstance(band, str) or not (math.isfinite(low) and math.isfinite(high)):
        raise DesignerError(f'{what}: band must be A..B, e.g. "3..6", not {band!r}')
    if not low <= high <= 10:
        raise DesignerError(f"{what}: band {band} must rise, A <= B <= 10")
    if low < lowest:
        raise DesignerError(
            f"{what}: band {band} starts below {lowest:g}, the least predicted difficulty a "
            f'level with {MECHANICS[mechanic].words} reaches (docs/spec.md, "Games")'
        )
    return World(name, mechanic, levels, band, _cave(data.get("cave", {}), what, mechanic))


def _cave(data, what: str, mechanic: str) -> WorldCave | None:
    from designer.caves import grammar

    if data is False:
        return None
    if not isinstance(data, dict):
        raise DesignerError(
            f"{what}: cave is a table (rooms, keys, min_stops, shape, size, names, key_names) "
            "or false"
        )
    fields = ("rooms", "keys", "min_stops", "shape", "size", "names", "key_names")
    _keys(data, fields, f"{what}: cave")
    base = WorldCave()
    rooms = _whole(data.get("rooms", base.rooms), f"{what}: cave rooms", 2, MAX_CAVE_ROOMS)
    keys = _whole(data.get("keys", base.keys), f"{what}: cave keys", 1, MAX_KEYS)
    stops = _whole(data.get("min_stops", base.min_stops), f"{what}: cave min_stops", 1, 200)
    shape = data.get("shape", "")
    if shape not in ("", *grammar.SHAPES):
        raise DesignerError(
            f"{what}: cave shape {shown(repr(shape))} is not one of {', '.join(grammar.SHAPES)}"
        )
    floors = MECHANICS[mechanic].cave_floors
    why = grammar.why_not(shape, rooms, keys, floors) if shape else None
    if why is None and not grammar.shapes_for(rooms, keys, floors):
        why = f"no shape has {rooms} rooms for {keys} keys"
    if why is not None:
        raise DesignerError(f"{what}: cave: {why}")
    side = data.get("size", "x".join(map(str, base.size)))
    try:
        height, width = (int(part) for part in str(side).split("x"))
    except ValueError:
        raise DesignerError(f'{what}: cave size must be HxW, e.g. "10x10", not {side!r}') from None
    low, high = grammar.MIN_SIDE, grammar.MAX_SIDE
    if not isinstance(side, str) or not (low <= height <= high and low <= width <= high):
        raise DesignerError(f"{what}: cave size {side!r}: rooms of {low}x{low} to {high}x{high}")
    names, key_names = (_words(data.get(name, []), f"{what}: cave {name}") for name in fields[5:])
    try:
        grammar.Dressing(names=names, key_names=key_names).check(rooms, keys)
    except DesignerError as error:
        raise DesignerError(f"{what}: cave: {error}") from None
    return WorldCave(rooms, keys, stops, shape, (height, width), names, key_names)


def _words(given, what: str) -> tuple[str, ...]:
    if not isinstance(given, list) or not all(isinstance(word, str) for word in given):
        raise DesignerError(f'{what} must be a list of names, such as ["hall", "vault"]')
    return tuple(given)


#: The game ``designer game`` designs with no plan given: six worlds of eight levels, each
#: teaching one mechanic, each ended by a cave; the bands' middles rise by 0.75 a world, so that
#: the worlds' medians rise though each level is within 15% of its target.
DEFAULT = GamePlan(
    "Ice Path",
    (
        World("Snowfield", "snow", 8, "2.5..4", WorldCave(3, 1, 6, size=(9, 9))),
        World("Treasure Hall", "items", 8, "3..5", WorldCave(3, 1, 8, "gates", (10, 10))),
        World(
            "Warp Gallery", "teleports", 8, "3.75..5.75", WorldCave(4, 1, 10, "shortcut", (10, 12))
        ),
        World("Coin Vault", "coins", 8, "4.5..6.5", WorldCave(5, 2, 12, "gates", (12, 12))),
        World("Endless Rink", "wrap", 8, "5.25..7.25", WorldCave(6, 1, 12, "loop", (12, 12))),
        World("Deep Caverns", "floors", 8, "6..8", WorldCave(5, 2, 14, "chain", (12, 14))),
    ),
)
