"""``make_game``: a whole game from its plan, written into a folder (docs/spec.md, "Games"). What
``designer game`` runs, and what a script calls (``examples/game.py``).

The worlds' levels are designed each on its own (at once: on processes forked here, a lane per
core, or on a dask cluster, ``dask``; one after another on a machine of one core), then taken in
order: a world with a level near a copy of an earlier world's,
or with one of its solutions, is designed again with those levels to avoid, so that where the
worlds were designed changes nothing. Each world's cave follows its levels, and each world's
files are written as it is done; the game's own files (its plan, index, page, report and Tiled
project) once every world is. A world that cannot be met raises ``GameFailed`` naming the world
and the level, and the worlds before it stay written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from designer.core.control import CancelToken, OnProgress, Steps, no_progress
from designer.core.control import check as check_cancel
from designer.core.errors import DesignerError
from designer.core.extras import need
from designer.game.design import (
    Game,
    GameFailed,
    GameWorld,
    WorldJob,
    design_cave,
    design_levels,
)
from designer.game.plan import GamePlan


def check_out(out: str, force: bool) -> Path:
    """The game's folder, checked before any work: a new or empty folder, or with ``force`` one
    that holds files (the game's own are written over)."""
    from designer.formats import output

    output.check_folder(out, [], force=force)
    folder = Path(out)
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise DesignerError(
            f"--out {out}: the folder holds files; a game is written into a new or empty folder "
            "(--force writes over the game's files in it)"
        )
    return folder


def make_game(
    plan: GamePlan,
    out: str,
    *,
    force: bool = False,
    dask: str | None = None,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
) -> Game:
    """Design the game ``plan`` asks for, every level and cave verified, and write it into the
    folder ``out``; the ``Game``. ``dask``: a cluster's address (or "local") to design the
    worlds' levels on, at once. Progress: a step per level and per cave."""
    from designer.analysis.variety import moves_of, near_copies
    from designer.caves.cave_request import CaveFailed
    from designer.formats import output
    from designer.game.files import world_files

    folder = check_out(out, force)
    need("drawsvg", "pictures")  # the page's tiles and the maps' tileset images, checked first
    need("cairosvg", "pictures")
    total = sum(world.levels + (world.cave is not None) for world in plan.worlds)
    steps = Steps(on_progress, total, "designing the game")
    jobs = [WorldJob(plan, k) for k in range(len(plan.worlds))]
    executor = None
    if dask is not None:
        from designer.search.executor import open_executor

        executor = open_executor(dask, 1, cancel)
    lanes = min(os.cpu_count() or 1, len(jobs))
    kept: list[GameWorld] = []
    try:
        with output.folder(folder):
            designed: dict[int, object] = {}
            if executor is not None or lanes >= 2:
                designed = _levels_at_once(jobs, executor, lanes, steps, cancel)
            for job in jobs:
                check_cancel(cancel)
                levels = designed.get(job.index)
                if levels is None:
                    levels = _levels_here(job, steps)
                earlier = [one.level for world in kept for one in world.levels]
                solutions = {moves_of(level) for level in earlier}
                if isinstance(levels, tuple) and any(
                    moves_of(one.level) in solutions
                    or any(near_copies(one.level, other) for other in earlier)
                    for one in levels
                ):
                    levels = _levels_here(
                        WorldJob(plan, job.index, tuple(earlier)), steps, again=True
                    )
                if isinstance(levels, GameFailed):
                    raise GameFailed(f"{levels}{_kept(kept, out)}", tuple(kept))
                assert isinstance(levels, tuple)
                steps.label(f"world {job.index + 1} ({job.world.name}): the cave")
                try:
                    cave = design_cave(job, executor)
                except (CaveFailed, DesignerError) as exc:
                    raise GameFailed(
                        f"world {job.index + 1} ({job.world.name}), the cave: {exc}"
                        + _kept(kept, out),
                        tuple(kept),
                    ) from None
                if cave is not None:
                    steps.step()
                world = GameWorld(job.world, levels, cave)
                _write(folder, world_files(job.index + 1, world), force)
                kept.append(world)
            game = Game(plan, tuple(kept))
            _write(folder, game_files(game), force)
    finally:
        if executor is not None:
            executor.close()
    return game


def _levels_at_once(jobs: list, executor, lanes: int, steps: Steps, cancel) -> dict:
    """Each world's levels (``design_levels``) by its index, designed at once: on the cluster, else
    on ``lanes`` processes forked from this one (before any solver starts a thread here). A step
    per level as each world's arrive."""
    from designer.search.executor import Forked

    pool = executor if executor is not None else Forked(lanes, cancel)
    where = "on the cluster" if executor is not None else f"on {lanes} processes"
    steps.label(f"designing the levels of {len(jobs)} worlds {where}")
    designed: dict[int, object] = {}

    def arrived(job: WorldJob, result) -> None:
        designed[job.index] = result
        for _ in range(job.world.levels):
            steps.step()
        steps.label(f"world {job.index + 1} ({job.world.name}): its levels designed")

    try:
        pool.run(design_levels, jobs, arrived)
    finally:
        if pool is not executor:
            pool.close()
    return designed


def game_files(game: Game) -> dict[str, str | bytes]:
    """The files of the whole game besides its worlds': ``plan.toml`` (the plan, seed included:
    ``designer game plan.toml`` makes the game again), ``game.json``, ``game.html``, ``report.html``
    and the Tiled project (``tiled/``)."""
    from designer.game.files import index
    from designer.game.page import game_page
    from designer.game.report import report_page
    from designer.game.tiled import tiled_files

    found = index(game)  # once: the report reads the same figures
    files: dict[str, str | bytes] = {
        "plan.toml": str(game.plan),
        "game.json": json.dumps(found, indent=1) + "\n",
        "game.html": game_page(game),
        "report.html": report_page(game, found),
    }
    files.update(tiled_files(game))
    return files


def _kept(kept: list, out: str) -> str:
    """What a failed game says of the worlds it keeps."""
    if not kept:
        return ""
    worlds = "world 1" if len(kept) == 1 else f"worlds 1 to {len(kept)}"
    return f" ({worlds} written to {out})"


def _write(folder: Path, files: dict, force: bool) -> None:
    """Each of ``files`` (a path inside ``folder``: its text or bytes), written whole."""
    from designer.formats import output

    for path, body in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        output.write(target, body, force=force)


def _levels_here(job: WorldJob, steps: Steps, again: bool = False):
    """``design_levels`` here, its progress a step per level (none when the world is designed
    ``again``: its steps were taken)."""
    started = [False]

    def on_level(text: str) -> None:
        if started[0] and not again:
            steps.step()
        started[0] = True
        steps.label(text + (" (again, apart from the earlier worlds)" if again else ""))

    levels = design_levels(job, on_level)
    if not again and isinstance(levels, tuple):
        steps.step()
    return levels
