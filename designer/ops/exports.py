"""Exports: a picture of a level or a pack, Tiled maps, the play page. Each checks its output
paths before any work and writes them whole (``designer.formats.output``), then hands the source
to what it is (``designer.ops.kinds.files.file_kind``: a cave's file, or a file of levels and
rooms); each returns what it wrote (``designer.ops.kinds.written.Written``)."""

from __future__ import annotations

from pathlib import Path

from designer.core.errors import DesignerError
from designer.ops.kinds.files import file_kind
from designer.ops.kinds.written import Written

PICTURE_SUFFIXES = (".svg", ".png")


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
    """Draw a level (or a pack folder, as one contact sheet; a cave, as its floor plan) as SVG or
    PNG, by ``output_file``'s suffix; with ``solution``, the fewest-moves path (``RequestNotMet``
    when a level has none); with ``heat``, where the model's ``player``
    (``designer.analysis.player``) rests, one level only."""
    from designer.formats import output

    suffix = Path(output_file).suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise DesignerError(
            f"-o {output_file}: unknown picture format {suffix or '(no suffix)'!r}; "
            "use .svg or .png"
        )
    output.check_file(output_file, force=force)
    return file_kind(source).render_file(
        source,
        output_file,
        solution=solution,
        moves_left=moves_left,
        graph=graph,
        cell=cell,
        force=force,
        heat=heat,
        player=player,
    )


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
    of that map instead (``designer.export.tiled_into.into_map``), and no image: ``paths`` is the
    map. A cave: a map per room and its .world file, in the folder ``out``."""
    if (output_file is None) == (out is None):
        raise DesignerError("give either -o FILE.tmj (one level) or --out DIR")
    # before the options are read against what it holds
    if str(source) != "-" and not Path(source).exists():
        raise DesignerError(f"{source}: no such file")
    return file_kind(source).export_file(
        source, output_file=output_file, out=out, cell=cell, force=force, into=into
    )


def write_play_page(
    source: str, output_file: str, *, force: bool = False, hint_cost: int = 0
) -> Written:
    """A self-contained HTML page to play a level or a pack (or a whole cave), offline, each hint
    of an attempt taking ``hint_cost`` stars off (0 to 3)."""
    from designer.formats import output

    if Path(output_file).suffix.lower() not in (".html", ".htm"):
        raise DesignerError(f"-o {output_file}: the page is written as FILE.html")
    if not 0 <= hint_cost <= 3:
        raise DesignerError(f"--hint-cost takes 0 to 3 stars a hint, not {hint_cost}")
    output.check_file(output_file, force=force)
    title = f"ice-designer: {Path(source).name if source != '-' else 'level'}"
    kind = file_kind(source)
    return kind.page_file(source, output_file, title=title, force=force, hint_cost=hint_cost)
