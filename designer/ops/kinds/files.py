"""A file of levels and rooms as a source of exports (``FILES``): one level or room file (or
standard input), a pack folder, or a glissade ``levels.json``; each level file drawn, exported and
played as its kind (``designer.ops.kinds``) has it. ``Written`` says what an export wrote."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

from designer.core.errors import DesignerError, RequestNotMet
from designer.ops.kinds.protocol import SourceKind
from designer.ops.kinds.registry import cave_table, entry_kind, is_cave_source
from designer.ops.kinds.written import Written


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


class LevelFiles:
    """The exports of a file of levels and rooms: its hooks answer
    ``designer.ops.kinds.protocol.SourceKind``."""

    def render_file(
        self,
        source: str,
        output_file: str,
        *,
        solution: bool,
        moves_left: bool,
        graph: bool,
        cell: int | None,
        force: bool,
        heat: bool,
        player,
    ) -> Written:
        """One level drawn on its own, or every level of a pack on one contact sheet."""
        from designer.export import picture
        from designer.formats import output

        suffix = Path(output_file).suffix.lower()
        if heat and Path(source).is_dir():
            raise DesignerError(
                "--heat draws one level with one start and one goal, not a cave or a pack"
            )
        levels = read_files(source)
        one = levels[0].level if len(levels) == 1 and not Path(source).is_dir() else None
        if one is not None and not entry_kind(one).draws_figures:
            # a room: each door numbered, each route's path in a colour of its own
            if moves_left or graph or heat:
                raise DesignerError(
                    "--moves-left, --graph and --heat draw a level with one start and one goal, not a room's "
                    f"{len(one.doors)} doors"
                )
            try:
                drawing = entry_kind(one).picture(
                    one, cell=cell or picture.DEFAULT_CELL, solution=solution
                )
            except ValueError as exc:
                raise RequestNotMet(f"unsolvable: {exc}") from None
        else:
            unsolvable = [
                why
                for entry in levels
                if solution
                for why in (entry_kind(entry.level).unsolvable(entry.name, entry.level),)
                if why
            ]
            if unsolvable:
                raise RequestNotMet(f"unsolvable: {unsolvable[0]}")
            rooms = [entry.name for entry in levels if not entry_kind(entry.level).draws_figures]
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
                drawing = entry_kind(one).picture(
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
                    cell_of=_sheet_cell,
                )
        data = picture.png_bytes(drawing) if suffix == ".png" else picture.svg_text(drawing)
        output.write(output_file, data, force=force)
        return Written.of([output_file], levels)

    def export_file(
        self,
        source: str,
        *,
        output_file: str | None,
        out: str | None,
        cell: int,
        force: bool,
        into: str | None,
    ) -> Written:
        """A Tiled map a level (``output_file``, or each in the folder ``out``) with its tileset
        images; with ``into``, the level written into a copy of the user's map."""
        from designer.export import picture, tiled, tiles
        from designer.formats import output

        if into is not None:
            return _export_into(source, into, output_file, out, force)
        levels = read_files(source)
        needed = {entry_kind(entry.level).tileset(entry.level) for entry in levels}
        tilesets = [
            one for one in tiled.TILESETS if one in needed
        ]  # the images a pack needs, in a fixed order
        if output_file is not None:
            if len(levels) > 1:
                raise DesignerError(
                    f"{source} holds {len(levels)} levels: use --out DIR for a pack"
                )
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
            json.dumps(entry_kind(entry.level).tiled_map(entry, cell=cell), indent=1) + "\n"
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

    def page_file(
        self, source: str, output_file: str, *, title: str, force: bool, hint_cost: int = 0
    ) -> Written:
        """The play page of every level file, in order."""
        from designer.formats import output
        from designer.ops.kinds.registry import page

        levels = read_files(source)
        output.write(output_file, page(levels, title=title, hint_cost=hint_cost), force=force)
        return Written.of([output_file], levels)

    def played_levels_of(self, source: str) -> list:
        """The (name, level) pairs its play page plays, in order (a room's routes each way)."""
        return [
            pair
            for item in read_files(source)
            for pair in entry_kind(item.level).played_levels(item.name, item.level)
        ]


def _sheet_cell(name: str, found, **drawn) -> tuple:
    """``found``'s place on a contact sheet, as its kind draws it."""
    return entry_kind(found).sheet_cell(name, found, **drawn)


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


#: The exports of a file of levels and rooms.
FILES = LevelFiles()


def file_kind(source: str) -> SourceKind:
    """What ``source`` is exported as: a cave's file (``designer.ops.kinds.cave.CAVE``) or a
    file of levels and rooms (``FILES``)."""
    return cave_table() if is_cave_source(source) else FILES
