"""Exports: a picture of a level or a pack, Tiled maps, the play page. Each checks its output
paths before any work and writes them whole (``designer.formats.output``); each returns the
paths it wrote."""

from __future__ import annotations

import json
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from designer.core.errors import DesignerError, RequestNotMet

PICTURE_SUFFIXES = (".svg", ".png")


def read_files(source: str) -> list:
    """The level files of ``source``: a pack folder's levels and rooms, or a glissade
    ``levels.json``'s; or a file's (or standard input's) level, or its room with several doors."""
    from designer.formats.level_files import (
        read_glissade_pack,
        read_level_file_or_room,
        read_levels,
    )

    if str(source) != "-" and Path(source).is_dir():
        return read_levels(source)
    # a game's file of levels: a pack
    many = None if str(source) == "-" else read_glissade_pack(source)
    return many if many is not None else [read_level_file_or_room(source)]


@dataclass(frozen=True)
class Written:
    """What an export wrote: its files, and how many levels they hold (``rooms`` of them rooms
    with several doors)."""

    paths: list
    levels: int
    rooms: int = 0

    @classmethod
    def of(cls, paths: list, entries: list) -> Written:
        """The files written for ``entries`` (level files), their rooms counted."""
        from collections import Counter

        from designer.ops.kinds import kind_of

        held = Counter(kind_of(entry.level).name for entry in entries)
        return cls(paths, len(entries), held["room"])

    def holding(self) -> str:
        """'1 level', '3 levels', '1 room', '2 levels and 1 room': what the files hold, in words."""
        plain = self.levels - self.rooms
        parts = [
            f"{n} {word}{'s' if n > 1 else ''}"
            for n, word in ((plain, "level"), (self.rooms, "room"))
            if n
        ]
        return " and ".join(parts) or "no level"


def render(
    source: str,
    output_file: str,
    *,
    solution: bool = False,
    moves_left: bool = False,
    graph: bool = False,
    cell: int | None = None,
    force: bool = False,
    heat: bool = False,
    player=None,
) -> Written:
    """Draw a level (or a pack folder, as one contact sheet) as SVG or PNG, by ``output_file``'s
    suffix; with ``solution``, the fewest-moves path (``RequestNotMet`` when a level has none);
    with ``heat``, where the model's ``player`` (``designer.analysis.player``) rests, one level only."""
    from designer.export import picture
    from designer.formats import output
    from designer.ops.kinds import is_cave_source, kind_of, sheet_cell

    suffix = Path(output_file).suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise DesignerError(
            f"-o {output_file}: unknown picture format {suffix or '(no suffix)'!r}; "
            "use .svg or .png"
        )
    output.check_file(output_file, force=force)
    cave = is_cave_source(source)
    if heat and (cave or Path(source).is_dir()):
        raise DesignerError(
            "--heat draws one level with one start and one goal, not a cave or a pack"
        )
    if cave:
        from designer.ops.caves import render_plan

        if moves_left or graph:
            raise DesignerError(
                "--moves-left and --graph draw a level; a cave is drawn as its floor plan (--solution: "
                "the way through)"
            )
        data = render_plan(source, cell=cell, way=solution, png=suffix == ".png")
        output.write(output_file, data, force=force)
        return Written([output_file], 1)
    levels = read_files(source)
    one = levels[0].level if len(levels) == 1 and not Path(source).is_dir() else None
    if one is not None and not kind_of(one).draws_figures:
        # a room: each door numbered, each route's path in a colour of its own
        if moves_left or graph or heat:
            raise DesignerError(
                "--moves-left, --graph and --heat draw a level with one start and one goal, not a room's "
                f"{len(one.doors)} doors"
            )
        try:
            drawing = kind_of(one).picture(
                one, cell=cell or picture.DEFAULT_CELL, solution=solution
            )
        except ValueError as exc:
            raise RequestNotMet(f"unsolvable: {exc}") from None
    else:
        unsolvable = [
            why
            for entry in levels
            if solution
            for why in (kind_of(entry.level).unsolvable(entry.name, entry.level),)
            if why
        ]
        if unsolvable:
            raise RequestNotMet(f"unsolvable: {unsolvable[0]}")
        rooms = [entry.name for entry in levels if not kind_of(entry.level).draws_figures]
        if rooms and (moves_left or graph):
            raise DesignerError(
                f"--moves-left and --graph draw levels with one start and one goal: {rooms[0]} is "
                "a room with several doors"
            )
        if one is not None:
            rests = None
            if heat:
                from designer.analysis.player import DEFAULT, play
                from designer.core.errors import LevelError

                try:
                    rests = play(one, player or DEFAULT).rests
                except LevelError as exc:
                    raise RequestNotMet(f"unsolvable: {exc}") from None
            drawing = kind_of(one).picture(
                one,
                cell=cell or picture.DEFAULT_CELL,
                solution=solution,
                moves_left=moves_left,
                graph=graph,
                heat=rests,
            )
        else:
            drawing = picture.contact_sheet(
                [(entry.name, entry.level) for entry in levels],
                cell=cell or 16,
                solution=solution,
                moves_left=moves_left,
                graph=graph,
                cell_of=sheet_cell,
            )
    data = picture.png_bytes(drawing) if suffix == ".png" else picture.svg_text(drawing)
    output.write(output_file, data, force=force)
    return Written.of([output_file], levels)


def export_tiled(
    source: str,
    *,
    output_file: str | None = None,
    out: str | None = None,
    cell: int = 32,
    force: bool = False,
    into: str | None = None,
) -> Written:
    """Tiled maps (.tmj), one per level, with their tileset image beside them: ``output_file``
    for one level, or the folder ``out``. ``paths``: the maps, then the image (a pack of levels
    and rooms: both images, the level's first). With ``into`` (a
    user's own map, the template the level was designed from), the level is written into a copy
    of that map instead (``designer.export.tiled_into.into_map``), and no image: ``paths`` is the map."""
    from designer.export import picture, tiled, tiles
    from designer.formats import output
    from designer.ops.kinds import is_cave_source, kind_of

    if (output_file is None) == (out is None):
        raise DesignerError("give either -o FILE.tmj (one level) or --out DIR")
    # before the options are read against what it holds
    if str(source) != "-" and not Path(source).exists():
        raise DesignerError(f"{source}: no such file")
    if is_cave_source(source):
        from designer.ops.caves import export_world

        if out is None:
            raise DesignerError("a cave is a map per room and a .world file: use --out DIR, not -o")
        return Written(export_world(source, out, cell=cell, into=into, force=force), 1)
    if into is not None:
        return _export_into(source, into, output_file, out, force)
    levels = read_files(source)
    needed = {kind_of(entry.level).tileset(entry.level) for entry in levels}
    tilesets = [
        one for one in tiled.TILESETS if one in needed
    ]  # the images a pack needs, in a fixed order
    if output_file is not None:
        if len(levels) > 1:
            raise DesignerError(f"{source} holds {len(levels)} levels: use --out DIR for a pack")
        if Path(output_file).suffix.lower() not in (".tmj", ".json"):
            raise DesignerError(
                f"-o {output_file}: a Tiled map is written as FILE.tmj (or FILE.json)"
            )
        maps = [output.check_file(output_file, force=force)]
        images = [
            output.check_file(output.beside(maps[0], name), force=force, option="-o")
            for name, _ in tilesets
        ]
    else:
        names = [f"{entry.name}.tmj" for entry in levels] + [name for name, _ in tilesets]
        assert out is not None  # one of the two, as checked above
        paths = output.check_folder(out, names, force=force)
        maps, images = paths[: len(levels)], paths[len(levels) :]
    documents = [
        json.dumps(kind_of(entry.level).tiled_map(entry, cell=cell), indent=1) + "\n"
        for entry in levels
    ]
    with ExitStack() as stack:
        if out is not None:
            stack.enter_context(output.folder(out))
        for image, (_, kinds) in zip(images, tilesets):
            output.write(image, picture.png_bytes(tiles.tileset(cell, kinds)), force=force)
        for path, document in zip(maps, documents):
            output.write(path, document, force=force)
    return Written.of([*maps, *images], levels)


def _export_into(
    source: str, into: str, output_file: str | None, out: str | None, force: bool
) -> Written:
    """``export --to tiled --into MAP -o FILE``: the level written into a copy of MAP, in MAP's
    own format (JSON, or XML for a .tmx map), read back before it is written."""
    from designer.export import tiled_into
    from designer.formats import output
    from designer.formats.tiled_map import XML_SUFFIXES, is_map_path, read_map

    if out is not None:
        raise DesignerError("--into writes one level into one map: use -o FILE.tmj, not --out")
    assert output_file is not None  # one of the two, as export_tiled checked
    if not is_map_path(into):
        raise DesignerError(f"--into {into}: a Tiled map (.tmj, .json or .tmx) is needed")
    xml = Path(into).suffix.lower() in XML_SUFFIXES
    wanted = XML_SUFFIXES if xml else (".tmj", ".json")
    if Path(output_file).suffix.lower() not in wanted:
        raise DesignerError(
            f"-o {output_file}: the copy of {Path(into).name} is a Tiled "
            f"{'XML map, written as FILE.tmx' if xml else 'JSON map, written as FILE.tmj (or FILE.json)'}"
        )
    output.check_file(output_file, force=force)
    levels = read_files(source)
    if len(levels) > 1:
        raise DesignerError(f"{source} holds {len(levels)} levels: --into takes one")
    user = read_map(into)
    try:
        text = tiled_into.into_map_text(user, levels[0].level, Path(output_file).parent)
    except ValueError as exc:
        raise DesignerError(f"--into {into}: {exc}") from None
    output.write(output_file, text, force=force)
    return Written.of([output_file], levels)


def write_play_page(source: str, output_file: str, *, force: bool = False) -> Written:
    """A self-contained HTML page to play a level or a pack, offline."""
    from designer.formats import output
    from designer.ops.kinds import is_cave_source, page

    if Path(output_file).suffix.lower() not in (".html", ".htm"):
        raise DesignerError(f"-o {output_file}: the page is written as FILE.html")
    output.check_file(output_file, force=force)
    title = f"ice-designer: {Path(source).name if source != '-' else 'level'}"
    if is_cave_source(source):
        from designer.ops.cave_views import play_page

        output.write(output_file, play_page(source, title), force=force)
        return Written([output_file], 1)
    levels = read_files(source)
    output.write(output_file, page(levels, title=title), force=force)
    return Written.of([output_file], levels)
