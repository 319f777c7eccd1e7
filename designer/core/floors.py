"""Floors, portals and wrap-around: one level over several grids.

A level may hold several named **floors** (grids) and **portals** between them, and each floor
may **wrap** around, each axis on its own (docs/spec.md, "Portals and wrap-around"). Inside, the
floors are laid out one under the other on one sheet of cells, as wide as the widest floor (a
narrower floor's row is padded with rock that no slide ever enters), so that a level's cells are
still numbered row-major and every table, search and analysis reads it unchanged. This module
holds the floor value type, the checks and the text form; the rule itself is
``designer.core.rules``.

The text form: the rows as in any canonical level, with a line of its own before each floor
(``floor NAME``, and ``wrap x``, ``wrap y`` or ``wrap xy`` after the name for a floor that wraps),
or one ``wrap`` line before the rows of a single grid that wraps. Each portal cell, and each
cell a one-way portal leads to, is marked with a letter of its own (``a``-``z``, ``A``-``Z``
but ``S`` and ``G``), and a ``portal`` line after the rows says what each does:
``portal a b`` makes a and b a pair (each the other's target: a teleport pair, a ladder),
``portal a > b`` makes a a one-way portal to b (a hole to the floor below; b is a portal only
when a line of its own says so).

>>> text = "floor top\\n#####\\n#S.a#\\n#####\\nfloor bottom wrap x\\n#####\\n.b.G.\\n#####\\nportal a b"
>>> sheet, floors, links = parse_text(text)
>>> [f.name for f in floors], floors[1].wrap, links
(['top', 'bottom'], 'x', [('a', 'b', True)])
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from designer.core.errors import LevelError

Cell = tuple[int, int]

#: The marks of portals and of the cells one-way portals lead to, in the order they are given.
MARKS = "abcdefghijklmnopqrstuvwxyzABCDEFHIJKLMNOPQRTUVWXYZ"
WRAPS = ("", "x", "y", "xy")
#: The keywords that open a line of the extended text form.
KEYWORDS = ("floor", "wrap", "portal")
_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Floor:
    """One grid of a level: its ``name``, where it lies on the sheet (rows ``top`` to ``top +
    height - 1``, columns 0 to ``width - 1``) and the axes it wraps on ("", "x": the left and
    right edges, "y": top and bottom, "xy": both)."""

    name: str
    top: int
    height: int
    width: int
    wrap: str = ""

    def holds(self, cell: Cell) -> bool:
        return self.top <= cell[0] < self.top + self.height and 0 <= cell[1] < self.width

    def local(self, cell: Cell) -> Cell:
        """A sheet cell's (row, col) on this floor."""
        return cell[0] - self.top, cell[1]

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "top": self.top,
            "height": self.height,
            "width": self.width,
            "wrap": self.wrap,
        }


def check_floors(floors: tuple[Floor, ...], height: int, width: int) -> None:
    """Floors must tile the sheet's rows from the top, in order, each at most as wide as it, with
    distinct names; LevelError (one line) otherwise."""
    top, names = 0, set()
    for floor in floors:
        if floor.wrap not in WRAPS:
            raise LevelError(
                f"floor {floor.name!r}: wrap must be one of x, y, xy, not {floor.wrap!r}"
            )
        if len(floors) > 1 or floor.name:
            if not _NAME.fullmatch(floor.name):
                raise LevelError(f"floor name {floor.name!r}: 1 to 32 letters, digits, '_' or '-'")
            if floor.name in names:
                raise LevelError(f"two floors named {floor.name!r}")
        names.add(floor.name)
        if floor.top != top or floor.height < 1 or not 1 <= floor.width <= width:
            raise LevelError(
                f"floor {floor.name!r} does not fit the sheet: rows {floor.top}-"
                f"{floor.top + floor.height - 1}, width {floor.width}"
            )
        top += floor.height
    if floors and top != height:
        raise LevelError(f"the floors hold {top} rows, the level {height}")


def parse_wrap(word: str, where: str) -> str:
    if word not in ("x", "y", "xy"):
        raise LevelError(f"{where}: wrap takes x, y or xy, not {word!r}")
    return word


def is_extended(lines: list[str]) -> bool:
    """Whether text (as lines) is in the extended form: a line opens with one of ``KEYWORDS``."""
    return any(line.split(" ", 1)[0] in KEYWORDS for line in (raw.strip() for raw in lines) if line)


def parse_text(text: str) -> tuple[list[str], list[Floor], list[tuple[str, str, bool]]]:
    """The extended text form: the sheet's rows (padded with rock), its floors and its portal
    lines as (mark, mark, both ways). LevelError (one line) for anything malformed."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    grids: list[tuple[str, str, list[str]]] = []  # (name, wrap, rows)
    links: list[tuple[str, str, bool]] = []
    single_wrap = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        words = line.split()
        where = f"line {number}"
        if words[0] == "floor":
            if len(words) == 2:
                grids.append((words[1], "", []))
            elif len(words) == 4 and words[2] == "wrap":
                grids.append((words[1], parse_wrap(words[3], where), []))
            else:
                raise LevelError(
                    f"{where}: expected 'floor NAME' or 'floor NAME wrap x|y|xy', not {line!r}"
                )
        elif words[0] == "wrap":
            if len(words) != 2 or grids or single_wrap is not None:
                raise LevelError(
                    f"{where}: 'wrap x|y|xy' goes once, before the rows of a level of one grid "
                    "(a floor says it on its own 'floor' line)"
                )
            single_wrap = parse_wrap(words[1], where)
        elif words[0] == "portal":
            if len(words) == 3:
                links.append((words[1], words[2], True))
            elif len(words) == 4 and words[2] == ">":
                links.append((words[1], words[3], False))
            else:
                raise LevelError(
                    f"{where}: expected 'portal a b' (a pair) or 'portal a > b' (one way), not {line!r}"
                )
            if not all(len(m) == 1 and m in MARKS for m in links[-1][:2]):
                raise LevelError(
                    f"{where}: a portal is named by one letter (not S or G), not {line!r}"
                )
        else:
            if links:
                raise LevelError(f"{where}: rows after the 'portal' lines")
            if not grids:
                grids.append(("", single_wrap or "", []))
            grids[-1][2].append(line)
    if single_wrap is not None and len(grids) > 1:
        raise LevelError(
            "a 'wrap' line is for a level of one grid; floors say it on their 'floor' lines"
        )
    for name, _, rows in grids:
        if not rows:
            raise LevelError(f"floor {name!r} has no rows")
    width = max((len(row) for _, _, rows in grids for row in rows), default=0)
    if not width:
        raise LevelError("empty input: no level found")
    sheet: list[str] = []
    floors: list[Floor] = []
    for name, wrap, rows in grids:
        floor_width = len(rows[0])
        for r, row in enumerate(rows):
            if len(row) != floor_width:
                raise LevelError(
                    f"ragged rows: row {r} of floor {name or '1'!r} has {len(row)} characters, "
                    f"its row 0 has {floor_width}"
                )
        floors.append(Floor(name, len(sheet), len(rows), floor_width, wrap))
        sheet.extend(row + "#" * (width - floor_width) for row in rows)
    return sheet, floors, links


def resolve_links(
    marks: dict[str, Cell], links: list[tuple[str, str, bool]]
) -> tuple[tuple[Cell, Cell], ...]:
    """The portals (source cell, target cell), sorted, of the marks drawn and the portal lines;
    LevelError (one line) for a mark drawn twice or never, used by no line, or given two targets."""
    used, portals = set(), {}
    for a, b, both in links:
        for mark in (a, b):
            if mark not in marks:
                raise LevelError(f"portal line names {mark!r}, which no row draws")
            used.add(mark)
        if a == b:
            raise LevelError(f"portal {a!r} leads to itself")
        for src, dst in ((a, b), (b, a)) if both else ((a, b),):
            if src in portals:
                raise LevelError(f"portal {src!r} is given two targets")
            portals[src] = dst
    for mark in marks:
        if mark not in used:
            raise LevelError(f"mark {mark!r} is drawn but no 'portal' line says what it does")
    return tuple(sorted((marks[src], marks[dst]) for src, dst in portals.items()))


def mark_cells(portals: tuple[tuple[Cell, Cell], ...]) -> dict[Cell, str]:
    """A mark for every portal cell and every target, in row-major order of the cells."""
    cells = sorted({cell for pair in portals for cell in pair})
    if len(cells) > len(MARKS):
        raise LevelError(
            f"{len(cells)} portal cells and targets: the text form names at most {len(MARKS)}"
        )
    return {cell: MARKS[k] for k, cell in enumerate(cells)}


def link_lines(portals: tuple[tuple[Cell, Cell], ...], marks: dict[Cell, str]) -> list[str]:
    """The ``portal`` lines of a level's portals: pairs once, one-way portals with '>'."""
    target = dict(portals)
    lines = []
    for src, dst in portals:
        if target.get(dst) == src:
            if src < dst:
                lines.append(f"portal {marks[src]} {marks[dst]}")
        else:
            lines.append(f"portal {marks[src]} > {marks[dst]}")
    return lines


def teleport_pairs(portals: tuple[tuple[Cell, Cell], ...]) -> list[tuple[Cell, Cell]]:
    """The pairs among ``portals`` (two portals, each the other's target), each once, sorted.

    >>> teleport_pairs((((1, 1), (2, 2)), ((2, 2), (1, 1)), ((3, 3), (1, 1))))
    [((1, 1), (2, 2))]
    """
    target = dict(portals)
    return [(a, b) for a, b in portals if a < b and target.get(b) == a]
