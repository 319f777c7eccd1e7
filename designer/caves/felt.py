"""A cave designed to a band of predicted difficulty (``designer cave --difficulty A..B``, and by
default a cave drawn from nothing): the rooms are designed again, each time from another seed,
until the cave's predicted difficulty (``cave_analysis.played``: what the model's player feels)
lands in the band.

Stops alone do not set what a player feels: three designs of one drawn cave of 5 rooms, each
asked 50 stops, felt 7.7, 9.8 and 11.5 (964 to 48,105 expected moves), as one room that draws a
player back into a loop of its own costs more than two rooms that do not. So the band is met by
designing again (``TRIES`` designs at most, the k-th from ``seed + k * SEED_STEP``), min stops
kept as asked.

A cave drawn from nothing with neither ``--min-stops`` nor ``--difficulty`` aims at a band that
grows with its rooms (``aimed``): ``MOVES_A_ROOM`` n^3 expected moves for n rooms (a player
wanders back through the rooms behind, so moves grow faster than rooms), within ``SPREAD`` of
it either way. Two such bands never meet once one count is 1.6 times the other or more, so
caves of 3, 5 and 8 rooms of one request rise. The aim is not a promise: when no
design lands in it, the nearest is kept and the record says so. A band a user asks is one: none
in it is a failure (status 1) with what the designs felt.

>>> aimed(3), aimed(5), aimed(8)
((7.1, 8.2), (8.6, 9.7), (9.9, 11.1))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from designer.analysis.player_figures import raw_scale
from designer.caves.cave_request import CaveDesign, CaveFailed

#: The expected moves a cave of n rooms from nothing aims at, over n^3: the median of what the
#: designer made of 12 requests (7x7 to 12x12, 0 and 1 key) was 7.65 for 3 rooms and 10.4 for 8.
MOVES_A_ROOM = 33
#: How far either way of its aim a cave from nothing may feel, as a factor of expected moves:
#: 1.8 keeps the band of n rooms below the band of 1.6 n rooms, by 0.2 points before rounding
#: (1.8^2 < 1.6^3).
SPREAD = 1.8
#: Designs of a cave at most, in the time limit, to land in its band of predicted difficulty.
TRIES = 8
#: What the seed moves by from one design to the next (past every room's own seeds).
SEED_STEP = 1_000_000


def aimed(rooms: int) -> tuple[float, float]:
    """The band of predicted difficulty a cave of ``rooms`` rooms from nothing aims at."""
    moves = MOVES_A_ROOM * rooms**3
    return round(raw_scale(moves / SPREAD), 1), round(raw_scale(moves * SPREAD), 1)


def off_by(felt: float, band: tuple[float, float | None]) -> float:
    """How far ``felt`` lies outside ``band`` (0 inside)."""
    low, high = band
    return max(low - felt, 0.0, felt - high if high is not None else 0.0)


def said(band: tuple[float, float | None]) -> str:
    """A band as the option takes it: ``8.6..9.7``, or ``8.6`` and up."""
    low, high = band
    return f"{low:g}" if high is None else f"{low:g}..{high:g}"


@dataclass
class Landing:
    """The designs tried so far, what each felt, and the nearest to the band (the first of the
    nearest), with what it felt."""

    band: tuple[float, float | None]
    felt: list[float] = field(default_factory=list)
    best: CaveDesign | None = None
    best_felt: float = math.nan

    def add(self, made: CaveDesign, felt: float) -> bool:
        """Keep ``made`` if it is the nearest yet; whether it lies in the band."""
        self.felt.append(felt)
        if self.best is None or off_by(felt, self.band) < off_by(self.best_felt, self.band):
            self.best, self.best_felt = made, felt
        return off_by(felt, self.band) == 0.0

    def met(self) -> bool:
        return self.best is not None and off_by(self.best_felt, self.band) == 0.0

    def record(self, aim: bool, seed: int, seconds: float) -> CaveDesign:
        """The nearest design, its record saying how it was landed: ``seed`` (the first
        design's, which makes the same designs again), ``seconds`` (all the designs'), and
        ``felt`` (the band, whether it is an aim, the design's predicted difficulty, the designs
        made, whether it is in the band, and the seed its rooms were designed from)."""
        assert self.best is not None  # a design was made
        made = self.best
        felt = {
            "band": list(self.band),
            "aim": aim,
            "difficulty": self.best_felt,
            "designs": len(self.felt),
            "in_band": self.met(),
            "seed": made.record["seed"],
        }
        record = {**made.record, "seed": seed, "seconds": round(seconds, 3), "felt": felt}
        return CaveDesign(made.cave, made.analysis, record)

    def words(self) -> str:
        return ", ".join(f"{felt:g}" for felt in self.felt)


def designed(
    band: tuple[float, float | None],
    aim: bool,
    seed: int,
    once: Callable[[int], CaveDesign],
    label: Callable[[str], None],
    spent: Callable[[], float],
) -> CaveDesign:
    """The first design in ``band`` of at most ``TRIES``, design k by ``once(seed + k *
    SEED_STEP)``. Out of tries, or of time (CaveFailed "time limit" after a first design): for an
    ``aim``, the nearest design, its record saying so; for a band asked, CaveFailed with what the
    designs felt. ``spent``: the seconds all the designs took. The record's ``seed`` is ``seed``,
    which makes the same designs again (``--from``); its ``felt`` says which was kept."""
    from designer.caves.cave_analysis import played

    landing = Landing(band)
    asked = "aimed at" if aim else "asked"
    for k in range(TRIES):
        if k:
            label(
                f"design {k + 1} of at most {TRIES}: the designs felt {landing.words()}, "
                f"{asked} {said(band)}"
            )
        try:
            made = once(seed + k * SEED_STEP)
        except CaveFailed as exc:
            if exc.reason != "time limit" or landing.best is None:
                raise
            if aim:
                break
            raise CaveFailed(
                "time limit",
                f"time limit reached: {k} design{'s' if k != 1 else ''} of the cave felt "
                f"{landing.words()}, none within --difficulty {said(band)}",
            ) from None
        if landing.add(made, played(made.cave).difficulty):
            break
    if not landing.met() and not aim:
        raise CaveFailed(
            "not met",
            f"not met: {TRIES} designs of the cave felt {landing.words()}, none within "
            f"--difficulty {said(band)} (more or fewer --min-stops moves what a design feels)",
        )
    return landing.record(aim, seed, spent())
