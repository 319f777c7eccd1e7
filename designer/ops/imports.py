"""Imports: a public game's levels as the designer's level files (``designer import``).

Today: glissade's ``levels.json`` (``designer.formats.glissade``). Each level is written as a JSON
level (``NN-name.json``, NN its number in the game from 01), with its solution and analysis, its
stars from the game's thresholds where they fit its true par, and a ``generator`` record saying
where it came from: the game, the level's name and number, and the game's published par.

>>> from designer.formats.glissade import read_level
>>> found = checked(read_level({"data": ["#####", "#P X#", "#####"], "thresholds": [2, 3, 4], "name": "t"}))
>>> found.stops, found.par, found.verdict
(1, 2, 'shorter than its par')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from designer.core.errors import LevelError

if TYPE_CHECKING:
    from designer.analysis.graph import Analysis
    from designer.analysis.solver import Solution
    from designer.analysis.tour import FullClear
    from designer.formats.glissade import GlissadeLevel


@dataclass(frozen=True)
class Imported:
    """One level read and solved: its file name, the level as read, the level's min stops (None:
    unsolvable), the game's par, and how the two compare."""

    name: str
    source: GlissadeLevel
    solution: Solution | None
    report: Analysis
    full: FullClear | None = None  # a level with coins read as coins

    @property
    def compared(self):
        """What is held to the game's par: the full clear of a level with coins (glissade's par
        takes them all), else the solution."""
        return self.full if self.full is not None else self.solution

    @property
    def moves(self) -> str | None:
        return getattr(self.compared, "moves", None)

    @property
    def replayed(self) -> str | None:
        """Why the solution is no solution under glissade's own rule (its exit ends the game with
        coins left), or None when it is one (``designer.formats.glissade.replay``)."""
        from designer.formats.glissade import replay

        return replay(self.source, self.moves) if self.moves else "no solution"

    @property
    def stops(self) -> int | None:
        """The level's min stops, or with coins its full clear's moves."""
        return len(self.moves) if self.moves is not None else None

    @property
    def par(self) -> int | None:
        return self.source.par

    @property
    def verdict(self) -> str:
        """``"par"`` (min stops equal to the published par), ``"shorter than its par"``, ``"longer
        than its par"``, ``"unsolvable"``, ``"no par"``, or not compared when the level's coins were
        read as ice (the par of a level with coins is that of the tour taking them all). A full
        clear found but not proven optimal says so."""
        if self.full is not None and self.full.moves is None:
            return "no full clear" if self.full.proven else f"no full clear found ({self.full.how})"
        if self.solution is None:
            return "unsolvable"
        if self.par is None:
            return "no par"
        if self.source.coins_as == "ice":
            return "not compared: its par takes the coins, read as ice here"
        if self.source.coins_as in ("items", "coins") and self.replayed is not None:
            return f"not a glissade solution ({self.replayed})"
        assert self.stops is not None  # solved, above
        verdict = (
            "par"
            if self.stops == self.par
            else "shorter than its par"
            if self.stops < self.par
            else "longer than its par"
        )
        if self.full is not None and not self.full.proven:
            verdict += f" (not proven optimal: at least {self.full.lower_bound}, {self.full.how})"
        return verdict


def checked(source, name: str | None = None, budget: float = 10.0) -> Imported:
    """A glissade level solved and analysed; with coins, its full clear searched (``budget``
    seconds: ``designer.analysis.tour``)."""
    from designer.analysis.graph import analyze
    from designer.formats.glissade import file_name

    report = analyze(source.level)
    full = None
    if source.level.coins:
        from designer.analysis.tour import full_clear

        full = full_clear(source.level, budget)
    return Imported(
        name or file_name(source.index, source.name), source, report.solution, report, full
    )


def read_glissade(path: str, coins: str = "coins") -> list[Imported]:
    """Every level of a glissade ``levels.json``, read, solved and analysed."""
    from designer.formats import glissade
    from designer.formats.level_files import read_bytes
    from designer.formats.reading import decode_text, load_json

    data = read_bytes(path)
    try:
        text = decode_text(data)
        if not text.lstrip().startswith(("[", "{")):
            raise LevelError(
                'not glissade\'s levels: its levels.json, a JSON list of objects with "data" rows, '
                "was expected"
            )
        return [checked(one) for one in glissade.read_levels(load_json(text), coins)]
    except LevelError as exc:
        raise LevelError(f"{path}: {exc}") from None


def _stars(found: Imported):
    """The game's thresholds for 2 and 1 stars, where they fit the level's true par; else the
    designer's default."""
    from designer.analysis.stars import Stars

    stars = found.source.stars
    if found.solution is not None and found.full is not None:
        return None  # a coin level: its stars are the game's, read as they are (its record)
    if found.stops is not None and len(stars) >= 3 and found.stops < stars[1] <= stars[2]:
        return Stars(found.stops, stars[1], stars[2])
    return Stars.default(found.stops) if found.stops is not None else None


def write_glissade(found: list[Imported], out: str, *, force: bool = False) -> list[Path]:
    """Write each imported level as a JSON level file in the folder ``out`` (see the module
    docstring); the paths written."""
    from contextlib import ExitStack

    from designer.formats import glissade, output
    from designer.formats.level_json import dumps

    paths = output.check_folder(out, [one.name for one in found], force=force)
    with ExitStack() as stack:
        stack.enter_context(output.folder(out))
        for path, one in zip(paths, found):
            output.write(
                path,
                dumps(
                    one.source.level,
                    generator=glissade.record(one.source),
                    report=one.report,
                    stars=_stars(one),
                ),
                force=force,
            )
    return paths
