"""Designing a game from its plan (``designer.game.plan``): each world's teaching level, its
practice levels rising in predicted difficulty, and the cave that ends it (docs/spec.md, "Games").

- **The teaching level** of a world is small (``Mechanic.teach_size``) and short
  (``Mechanic.teach_stops``), and teaches its mechanic (``designer.game.teach``): tries from
  seeds ``seed``, ``seed + SEED_STEP``, ... until ``TEACH_PICK`` do (at most ``TEACH_TRIES``),
  and the easiest of them is taken.
- **The practice levels** are asked in predicted difficulty, evenly over the world's band
  (``designer.search.felt``), each on a frame that grows with its target (``size_for``), at
  most ``LONGEST`` min stops, in the styles of layout in turn (``designer.game.styles``; a
  mechanic that draws its own grid, wrap or floors, is laid out scattered on it). The later
  half brings back the mechanic of an earlier world with its own (``brought_back``). A world's
  practice levels are ordered by their predicted difficulty, the easiest first.
- **Variety**: no level of a game is a near copy of another (``designer.analysis.variety``), and no
  two have one fewest-moves solution; a level that would be is designed again from its next
  seed.
- **The cave** that ends a world is drawn from nothing with the plan's rooms and keys, on the
  world's mechanic's floors (``designer.caves``), every key needed.

Every level and room is designed on a budget of work (``designer.search.packs.run_on_work``):
the same plan and seed give the same game at any load, here or on a cluster. A world's seed is
the plan's plus ``WORLD_SEED`` times its number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from designer.analysis.variety import apart, moves_of
from designer.caves.cave_request import CaveDesign
from designer.core.errors import RequestNotMet
from designer.core.level import Level
from designer.core.limits import MAX_SEED
from designer.game.mechanics import MECHANICS
from designer.game.plan import GamePlan, World
from designer.game.styles import STYLES, template
from designer.game.teach import Ablation, ablation
from designer.search.result import Design

#: Seeds a teaching level tries before its world stops.
TEACH_TRIES = 60
#: Teaching levels found before the easiest of them (the model's predicted difficulty) is taken.
TEACH_PICK = 3
#: A teaching level's try: its budget of work (seconds of work: designer.core.budget).
TEACH_SECONDS = 2.0
#: A practice level's budget of work, and the seeds it tries before its world stops.
LEVEL_SECONDS = 20.0
LEVEL_TRIES = 4
#: The seeds a practice level tries when what it finds is a near copy of an earlier level.
APART_TRIES = 12
#: The most min stops a practice level has. No search raises the decisions of a level with a
#: mechanic yet (docs/spec.md, "Decisions by default"), and such levels of 25 stops or more were
#: railroads: the four of the default game before this ceiling had 64% to 87% rail stops (wrap:
#: 38 stops, 33 of them rails; floors: 32 stops, 25). Under 25 stops a level is asked no more.
LONGEST = 24
#: A cave's net on the wall clock (its rooms are designed on budgets of work).
CAVE_SECONDS = 120.0
#: What each world's seed adds to the plan's, by the world's number; and each try of a level.
WORLD_SEED = 1000
SEED_STEP = 7919


@dataclass(frozen=True)
class GameLevel:
    """A level of a game: the verified ``design`` (``designer.search.result.Design``), its
    ``role`` ("teaching" or "practice"), the ``mechanics`` it holds, its predicted ``difficulty``
    (the default player's), its ``style`` of layout (``designer.game.styles``) and, for a
    teaching level, its ``ablation``."""

    design: Design
    role: str
    mechanics: tuple[str, ...]
    difficulty: float
    ablation: Ablation | None = None
    style: str = "scattered"

    @property
    def level(self) -> Level:
        return self.design.level


@dataclass(frozen=True)
class GameWorld:
    """A designed world: its plan, its levels in order (the teaching one first) and its cave
    (``designer.caves.cave_request.CaveDesign``; None when the plan asks none)."""

    world: World
    levels: tuple[GameLevel, ...]
    cave: CaveDesign | None = None


@dataclass(frozen=True)
class Game:
    plan: GamePlan
    worlds: tuple[GameWorld, ...]


class GameFailed(RequestNotMet):
    """A plan not met: which world and which level stopped it, and the worlds designed before
    it (``kept``)."""

    def __init__(self, message: str, kept: tuple[GameWorld, ...] = ()):
        super().__init__(message)
        self.kept = kept


@dataclass(frozen=True)
class WorldJob:
    """The levels of world ``index`` (from 0) of ``plan``, none a near copy of a level of
    ``avoid`` nor with its solution: a job that crosses a cluster whole."""

    plan: GamePlan
    index: int
    avoid: tuple[Level, ...] = ()

    @property
    def world(self) -> World:
        return self.plan.worlds[self.index]

    @property
    def seed(self) -> int:
        return (self.plan.seed + WORLD_SEED * (self.index + 1)) % (MAX_SEED + 1)

    def says(self, level: int) -> str:
        return f"world {self.index + 1} ({self.world.name}), level {level}"


def size_for(target: float, k: int) -> tuple[int, int]:
    """The frame of a practice level of predicted difficulty ``target``, the ``k``-th of its
    world: it grows with the target (a long level needs room for its decisions), and its width
    steps by one about the square so that neighbours differ.

    >>> [size_for(t, k) for k, t in enumerate((3.0, 4.2, 5.1, 6.5))]
    [(9, 8), (11, 11), (12, 13), (14, 13)]
    """
    side = 9 if target < 3.5 else 11 if target < 4.5 else 12 if target < 5.5 else 14
    return side, side + (k % 3) - 1


def brought_back(plan: GamePlan, index: int, k: int, ask: dict) -> tuple[str, dict]:
    """The earlier world's mechanic that practice level ``k`` of world ``index`` brings back, and
    its fields; ("", {}) when none goes with this world's (two templates do not: a level has one
    grid drawn, a mechanic's or a style's)."""
    earlier = [world.mechanic for world in plan.worlds[:index]]
    mine = plan.worlds[index].mechanic
    for step in range(len(earlier)):
        name = earlier[(k + step) % len(earlier)]
        one = MECHANICS[name]
        if name == mine or (MECHANICS[mine].drawn and not one.on_templates):
            continue
        fields = one.ask(ask.get("size", (12, 12)), k)
        # at its teaching level's amount: one snow tile, item, coin or pair beside this world's own
        fields.update(
            (field, value)
            for field, value in one.ask(one.teach_size, k).items()
            if field not in ("size", "template")
        )
        if "template" in fields and "template" in ask:
            continue
        if "template" in ask:
            fields.pop("size", None)
        if "template" in fields:
            ask = {name: value for name, value in ask.items() if name != "size"}
        return name, {**fields, **ask}
    return "", {}


def _request(ask: dict, **fields):
    from designer.ops.asks import request_of

    return replace(request_of(ask), **fields)


def _design(request, seed: int, seconds: float, exclude: tuple[Level, ...]):
    """A verified level of ``request`` on a budget of work, or the DesignFailed."""
    from designer.search.job import DesignJob
    from designer.search.packs import run_on_work

    job = DesignJob(request, seed=seed, time_limit=seconds, workers=1, exclude=exclude)
    return run_on_work(job)


def design_levels(job: WorldJob, on_level: Callable[[str], None] = lambda text: None):
    """The levels of ``job``'s world (a tuple of ``GameLevel``), or the GameFailed saying which
    level stopped it. ``on_level(label)`` as each level starts."""
    from designer.analysis.player import DEFAULT, play
    from designer.core.curves import Curve
    from designer.search.result import DesignFailed

    world, mechanic = job.world, MECHANICS[job.world.mechanic]
    others, solutions = list(job.avoid), {moves_of(level) for level in job.avoid}
    on_level(f"{job.says(1)}: teaching {mechanic.words}")
    low, high = mechanic.teach_stops
    teaching, picked = None, 0
    for k in range(TEACH_TRIES):
        seed = (job.seed + k * SEED_STEP) % (MAX_SEED + 1)
        ask = mechanic.ask(mechanic.teach_size, seed)
        found = _design(_request(ask, min_stops=low, max_stops=high), seed, TEACH_SECONDS, ())
        if isinstance(found, DesignFailed):
            continue
        taught = ablation(found.level, mechanic.name)
        if taught.teaches and apart(found.level, others, solutions):
            felt = play(found.level, DEFAULT).difficulty
            if teaching is None or felt < teaching.difficulty:
                teaching = GameLevel(found, "teaching", (mechanic.name,), felt, taught)
            picked += 1
            if picked == TEACH_PICK:
                break
    if teaching is None:
        return GameFailed(
            f"{job.says(1)}: no level of {mechanic.words} taught it in {TEACH_TRIES} tries"
        )
    made = [teaching]
    others.append(teaching.level)
    solutions.add(moves_of(teaching.level))
    count = world.levels - 1
    targets = Curve("difficulty", *world.low_high).targets(count) if count else []
    practice = []
    for k, target in enumerate(targets):
        on_level(f"{job.says(k + 2)}: difficulty {target:g}")
        size = size_for(target, k)
        ask, style = mechanic.ask(size, job.seed + k), "scattered"
        if not mechanic.drawn:
            style = STYLES[(job.index + k) % len(STYLES)]
            rows = template(style, size, job.seed + k)
            if rows is not None:
                ask = {field: value for field, value in ask.items() if field != "size"}
                ask["template"] = rows
        held: tuple[str, ...] = (mechanic.name,)
        if job.index and k >= count // 2:
            again, combined = brought_back(job.plan, job.index, k, ask)
            if again:
                ask, held = combined, (mechanic.name, again)
        request = _request({**ask, "curve_by": "difficulty"}, difficulty=target, max_stops=LONGEST)
        found = failure = None
        failed = near = 0
        while failed < LEVEL_TRIES and near < APART_TRIES:
            seed = (job.seed + 100 * (k + 1) + (failed + near) * SEED_STEP) % (MAX_SEED + 1)
            tried = _design(request, seed, LEVEL_SECONDS, tuple(others))
            if isinstance(tried, DesignFailed):
                failure, failed = tried, failed + 1
            elif apart(tried.level, others, solutions):
                found = tried
                break
            else:
                near += 1
        if found is None:
            why = f": {failure}" if failure is not None else ": every try was a near copy"
            return GameFailed(f"{job.says(k + 2)} (difficulty {target:g}){why}")
        felt = play(found.level, DEFAULT).difficulty
        practice.append(GameLevel(found, "practice", held, felt, style=style))
        others.append(found.level)
        solutions.add(moves_of(found.level))
    practice.sort(key=lambda one: one.difficulty)  # stable: ties keep the order made
    return tuple(made + practice)


def design_cave(job: WorldJob, executor=None, on_progress=None):
    """The cave that ends ``job``'s world (``designer.caves.cave_request.CaveDesign``), or None
    when its plan asks none; CaveFailed when it cannot be met."""
    from designer.caves.design import design
    from designer.caves.dressing import Dressing
    from designer.core.control import no_progress
    from designer.ops.caves import CaveOptions, request_for

    cave = job.world.cave
    if cave is None:
        return None
    mechanic = MECHANICS[job.world.mechanic]
    dressing = Dressing(True, cave.names, cave.key_names, mechanic.cave_snow, mechanic.cave_coins)
    options = CaveOptions(
        rooms=cave.rooms,
        keys=cave.keys,
        floors=mechanic.cave_floors,
        shape=cave.shape or None,
        dressing=dressing,
        size=cave.size,
        min_stops=cave.min_stops,
        seed=job.seed,
    )
    return design(
        request_for(options),
        seed=job.seed,
        time_limit=CAVE_SECONDS,
        executor=executor,
        on_progress=on_progress or no_progress,
    )
