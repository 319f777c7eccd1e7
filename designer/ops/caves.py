"""Caves for every shell: read one (text or JSON), solve it, analyse it, and design one from a
template or from nothing (``designer.caves``), written where the user says.

>>> made = design(CaveOptions(rooms=3, keys=1, size=(7, 7), min_stops=12, seed=2, time_limit=60))
>>> made.design.analysis.min_stops >= 12, made.design.analysis.keys[0].needed
(True, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from designer.core.control import CancelToken, OnProgress, no_progress
from designer.core.errors import DesignerError, LevelError, RequestError, literal


def parse_cave(data: bytes | str):
    """A cave from its text or JSON form (LevelError, one line)."""
    from designer.caves.cave import Cave
    from designer.formats.reading import decode_text, load_json

    text = decode_text(data)
    if text.lstrip().startswith("{"):
        return Cave.from_json(load_json(text))
    return Cave.parse(text)


def read_cave(source: str):
    """The cave in a file (a path, or - for standard input), or in a Tiled world of room maps
    (``designer.caves.world``)."""
    from designer.caves import is_world_path
    from designer.caves.world import read_world
    from designer.formats.reading import read_bytes

    if is_world_path(source):
        return read_world(source)

    data = read_bytes(source, "cave file")
    try:
        return parse_cave(data)
    except LevelError as exc:
        raise LevelError(exc if source == "-" else f"{source}: {exc}") from None


def solve(source: str, by: str = "moves"):
    """The cave in ``source`` and its fewest-moves way through (None: the exit cannot be reached)."""
    from designer.caves.graph import solve as solve_cave

    cave = read_cave(source)
    return cave, solve_cave(cave, by)


def analyze(source: str):
    """The analysis of the cave in ``source`` (``designer.caves.cave_analysis.CaveAnalysis``)."""
    from designer.caves.cave_analysis import analyze as analyze_cave

    return analyze_cave(read_cave(source))


if TYPE_CHECKING:
    from designer.caves.cave_request import CaveDesign
    from designer.caves.dressing import Dressing


@dataclass(frozen=True)
class CaveOptions:
    """What a user asks ``designer cave`` for (None: not given)."""

    template: str | None = None  # a cave file with free rooms (?)
    text: str | None = None  # or the cave itself, as text or JSON (the studio's)
    rooms: int | None = None  # from nothing: this many rooms,
    keys: int = 0  # this many keys,
    size: tuple[int, int] | None = None  # and rooms of this size (default 12x12),
    floors: int | None = None  # on this many floors (default 1),
    shape: str | None = None  # in this shape (default: the seed's; designer.caves.grammar)
    dressing: Dressing | None = None  # dressed so: varied rooms, names, snow, coins
    min_stops: int | None = None
    max_stops: int | None = None
    difficulty: str | None = None  # "A..B" or "A": a band of predicted difficulty
    routes: tuple[str, ...] = ()  # "ROOM:A:B=K[..M]"
    room_bands: tuple[str, ...] = ()  # "ROOM=K[..M]"
    seed: int = 0
    time_limit: float | None = None  # seconds (default 60; --from: the record's)
    workers: int | None = None
    source: str | None = None  # --from: a designed cave's JSON, made again


@dataclass(frozen=True)
class CaveMade:
    design: CaveDesign
    text: str | None  # the file's text when it went to standard output


def _band(text: str, what: str) -> tuple[int, int | None]:
    """A room's or a route's band, ``K`` or ``K..M``, as (K, M) (``what``: the field it is given
    in, ``"{routes}"``)."""
    from designer.core.bands import Band, digits

    try:
        band = Band.parse(text, digits(6))
    except ValueError:
        raise RequestError(
            f"{what} takes K or K..M (whole numbers) after '=', not {literal(repr(text))}"
        ) from None
    if band.high is not None and band.high < band.low:
        raise RequestError(f"{what} {literal(repr(text))}: the band's ceiling is below its floor")
    return band.low, band.high


def request_for(options: CaveOptions):
    """The cave request the options ask for (checked: DesignerError, one line)."""
    from designer.caves import grammar
    from designer.caves.cave_request import CaveRequest
    from designer.caves.dressing import PLAIN

    if options.source is not None:
        return _request_from(options.source)
    given = (
        options.template
        if options.template is not None
        else None
        if options.text is None
        else "the cave"
    )
    if (given is None) == (options.rooms is None):
        raise RequestError(
            "give a cave to fill (CAVE) or {rooms} N for a cave from nothing, one of the two"
        )
    if given is not None:
        if (
            options.keys
            or options.size
            or options.floors is not None
            or options.shape is not None
            or options.dressing is not None
        ):
            raise RequestError(
                "{keys}, {size}, {floors}, {shape} and {varied} draw a cave from nothing (with "
                "{rooms}), not a given cave"
            )
        cave, drawn = (read_cave(given) if options.text is None else parse_cave(options.text)), None
        if not cave.free:
            raise DesignerError(
                f"{given}: every room is filled: nothing to design (mark free cells ?)"
            )
    else:
        assert options.rooms is not None  # a cave from nothing: --rooms
        size = options.size or (12, 12)
        floors = options.floors if options.floors is not None else 1
        grammar.check(options.rooms, options.keys, size, floors, options.shape)
        shape = options.shape or grammar.pick_shape(
            options.rooms, options.keys, floors, options.seed
        )
        drawn = {
            "rooms": options.rooms,
            "keys": options.keys,
            "size": list(size),
            "floors": floors,
            "shape": shape,
            "seed": options.seed,
        }
        dressing = options.dressing or PLAIN
        if options.dressing is not None:
            drawn["dressing"] = dressing.to_json()
        cave = grammar.draw(
            options.rooms, options.keys, size, options.seed, floors, shape, dressing
        )
    routes = []
    for text in options.routes:
        name, a, b, band = _route(text)
        routes.append((name, a, b, *_band(band, "{routes}")))
    rooms = []
    for text in options.room_bands:
        name, sep, band = text.partition("=")
        if not sep:
            raise RequestError(
                f"{{room_bands}} takes ROOM=K or ROOM=K..M, not {literal(repr(text))}"
            )
        cave.room(name)
        rooms.append((name, *_band(band, "{room_bands}")))
    from designer.caves.asking import default_min_stops
    from designer.caves.cave_request import DEFAULT_MIN_STOPS

    if options.min_stops is not None:
        min_stops = options.min_stops
    else:  # from nothing: a count that grows with the rooms asked; never above --max-stops
        min_stops = default_min_stops(cave) if drawn is not None else DEFAULT_MIN_STOPS
        if options.max_stops is not None:
            min_stops = min(min_stops, options.max_stops)
    if options.max_stops is not None and options.max_stops < min_stops:
        raise RequestError(f"{{max_stops}} {options.max_stops} is below {{min_stops}} {min_stops}")
    felt, aim = _felt_band(options, drawn is not None)
    return CaveRequest(
        cave, min_stops, options.max_stops, tuple(routes), tuple(rooms), drawn, felt, aim
    )


def _felt_band(options: CaveOptions, drawn: bool) -> tuple[tuple[float, float | None] | None, bool]:
    """The band of predicted difficulty the options ask (and whether it is only the default's
    aim): ``--difficulty``'s; for a cave from nothing with neither it nor ``--min-stops``, the aim
    of its rooms (``designer.caves.felt.aimed``); otherwise none."""
    from designer.caves import felt
    from designer.caves.cave_request import band_fault
    from designer.core.bands import Band

    if options.difficulty is None:
        if drawn and options.min_stops is None:
            assert options.rooms is not None  # drawn from nothing
            return felt.aimed(options.rooms), True
        return None, False
    try:
        band = Band.parse(options.difficulty, float)
    except ValueError:
        raise RequestError(
            "{difficulty} takes A or A..B (predicted difficulties, as 8.5..9.5), not "
            + literal(repr(options.difficulty))
        ) from None
    fault = band_fault(band.low, band.high)
    if fault:
        raise RequestError(fault)
    return (band.low, band.high), False


def _route(text: str) -> tuple[str, int, int, str]:
    route, sep, band = text.partition("=")
    parts = route.split(":")
    if not sep or len(parts) != 3 or not all(p in "123456789" and len(p) == 1 for p in parts[1:]):
        raise RequestError(
            f"{{routes}} takes ROOM:A:B=K or ROOM:A:B=K..M (doors 1-9), not {literal(repr(text))}"
        )
    return parts[0], int(parts[1]), int(parts[2]), band


def _request_from(source: str):
    from designer.caves.cave_request import CaveRequest
    from designer.formats.reading import decode_text, load_json, read_bytes

    obj = load_json(decode_text(read_bytes(source, "cave file")))
    record = obj.get("generator") if isinstance(obj, dict) else None
    if not isinstance(record, dict) or record.get("method") != "cave":
        raise DesignerError(
            f"{source}: no cave generator record (a cave designed by designer cave, as JSON)"
        )
    return CaveRequest.from_json(record.get("request")), record


def design(
    options: CaveOptions,
    *,
    output: str | None = None,
    fmt: str = "text",
    force: bool = False,
    dask: str | None = None,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
) -> CaveMade:
    """Design the cave ``options`` ask for, verified whole, and write it to ``output`` (a path,
    or None/- for the text in hand); CaveFailed when it cannot be met."""
    from designer.caves.design import design as design_cave
    from designer.formats import output as files
    from designer.search.executor import open_executor

    request = request_for(options)
    seed, time_limit, workers = options.seed, options.time_limit or 60.0, options.workers
    if isinstance(request, tuple):  # --from: the record's seed, time and workers unless given
        request, record = request
        seed = int(record.get("seed", 0))
        time_limit = (
            options.time_limit
            if options.time_limit is not None
            else float(record.get("time_limit", 60))
        )
        workers = options.workers if options.workers is not None else record.get("workers")
    if output not in (None, "-"):
        files.check_file(output, force=force)
    executor = open_executor(dask, workers, cancel) if dask is not None else None
    try:
        made = design_cave(
            request,
            seed=seed,
            time_limit=time_limit,
            workers=workers,
            executor=executor,
            on_progress=on_progress,
            cancel=cancel,
        )
    finally:
        if executor is not None:
            executor.close()
    text = cave_text(made, fmt)
    if output not in (None, "-"):
        files.write(output, text, force=force)
        return CaveMade(made, None)
    return CaveMade(made, text)


def cave_text(made, fmt: str) -> str:
    """A designed cave as its file holds it: the text form, or JSON with its analysis and record."""
    if fmt != "json":
        return str(made.cave) + "\n"
    found = made.cave.to_json()
    found["analysis"] = made.analysis.to_dict()
    found["generator"] = made.record
    return json.dumps(found, indent=1) + "\n"


def suffix_format(path: str | None, fmt: str | None) -> str:
    """The format a cave is written in: as asked, else by the file's suffix (.json: JSON)."""
    if fmt is not None:
        return fmt
    return "json" if path is not None and Path(path).suffix.lower() == ".json" else "text"


def render_plan(
    source: str, *, cell: int | None = None, way: bool = False, png: bool = False
) -> bytes | str:
    """The floor plan of the cave in ``source`` (``designer.caves.picture``), SVG text or PNG bytes;
    RequestNotMet when ``way`` is asked of a cave whose exit cannot be reached."""
    from designer.caves.picture import draw_plan
    from designer.core.errors import RequestNotMet
    from designer.export.picture import png_bytes, svg_text

    try:
        drawing = draw_plan(read_cave(source), way=way, **({} if cell is None else {"cell": cell}))
    except ValueError as exc:
        raise RequestNotMet(f"unsolvable: {exc}") from None
    return png_bytes(drawing) if png else svg_text(drawing)


def export_world(
    source: str, out: str, *, cell: int = 32, into: str | None = None, force: bool = False
) -> list:
    """The cave in ``source`` as Tiled maps in the folder ``out``: a map per room, the tileset
    images and ``cave.world`` (``designer.caves.world``); with ``into`` (a user's world, the cave's
    template), copies of that world's maps with the rooms written in, and the world. The paths."""
    from designer.caves import is_world_path, world
    from designer.formats import output

    cave = read_cave(source)
    if cave.free:
        raise DesignerError(f"{source}: the cave has free cells (?): fill it first (designer cave)")
    if into is not None:
        if not is_world_path(into):
            raise DesignerError(
                f"--into {into}: a cave goes into a Tiled world (.world) of room maps"
            )
        files = world.into_world(into, cave)
    else:
        files = world_contents(cave, cell)
    paths = output.check_folder(out, list(files), force=force)
    with output.folder(out, paths):
        for path, body in zip(paths, files.values()):
            output.write(path, body, force=force)
    return paths


def world_contents(cave, cell: int = 32) -> dict:
    """The files of a filled cave's Tiled world, by name: a map per room, ``cave.world``, and the
    one tileset image every map names (bytes)."""
    from designer.caves import world
    from designer.export import picture, tiles

    files: dict = dict(world.world_files(cave, cell))
    name, kinds = world.world_tileset(cave)
    files[name] = picture.png_bytes(tiles.tileset(cell, kinds))
    return files
