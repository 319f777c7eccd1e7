"""A designed game as files (docs/spec.md, "Games", "What a game writes"): each world's levels
(JSON levels, with their record, analysis and stars) and its cave, the plan written back, the
index an engine reads (``game.json``), the page that plays the whole game, the report, and the
Tiled project.

``world_files`` gives a world's files as it is designed; ``game_files`` the rest, once every
world is. Each is a mapping of a path inside the game's folder to its text (or bytes).
"""

from __future__ import annotations

from typing import cast

from designer.analysis.variety import NEAR, SAME_WAY, closest
from designer.formats.game_index import INDEX_FORMAT
from designer.game.design import Game, GameLevel, GameWorld

#: The index's version (``game.json``; its format's name is ``INDEX_FORMAT``).
INDEX_VERSION = 1


def world_folder(number: int) -> str:
    return f"world-{number}"


def level_name(number: int) -> str:
    return f"level-{number:02d}.json"


def level_file(world: int, number: int) -> str:
    """Where level ``number`` of world ``world`` (both from 1) lies in the game's folder."""
    return f"{world_folder(world)}/{level_name(number)}"


def level_title(world: str, number: int, one: GameLevel) -> str:
    """A level's name on the game's page (and in ``game.json``): its world's name and number, and
    the mechanic a teaching level brings in."""
    new = f" (new: {one.mechanics[0]})" if one.role == "teaching" else ""
    return f"{world} {number}{new}"


def cave_file(world: int) -> str:
    return f"{world_folder(world)}/cave.txt"


def world_files(number: int, world: GameWorld) -> dict[str, str]:
    """World ``number``'s files: its levels, each a JSON level with its generator record (its
    request, seed and method, its timings left out: ``TIMINGS``), analysis and stars, and its cave
    in the cave's text form."""
    from designer.formats.level_json import format_json, level_to_json

    files = {}
    for k, one in enumerate(world.levels):
        found = one.design
        files[level_file(number, k + 1)] = format_json(
            level_to_json(found.level, generator=record(one), report=found.analysis)
        )
    if world.cave is not None:
        files[cave_file(number)] = str(world.cave.cave) + "\n"
    return files


#: What a game's level records leave out: the seconds its design took, and the time limit its last
#: stage read off the clock (on the work clock, a reading whose last digits differ between a lane
#: and a cluster's worker thread), where the rest of a game is the same byte for byte.
TIMINGS = ("seconds", "stage_seconds", "time_limit")


def record(one: GameLevel) -> dict:
    """A game level's generator record (``designer.search.result.GeneratorRecord``) without its
    timings."""
    found = one.design.generator.to_json()
    return {name: value for name, value in found.items() if name not in TIMINGS}


def level_class(one: GameLevel) -> str:
    """The verified class of a level, as ``make`` says it: strong and reversible (a game's levels
    are all both)."""
    analysis = one.design.analysis
    return f"{analysis.solvability}, {'reversible' if analysis.reversible else 'not reversible'}"


def index(game: Game) -> dict:
    """``game.json``: what an engine reads of the game: each world's mechanic and band, each
    level's file, role, mechanics, par, stars, predicted difficulty, verified class and (a
    teaching level) its ablation; each cave's file, rooms and their sizes, keys and their patterns,
    par, stars and what it holds of its world's mechanic (``teach.cave_ablation``); and the
    variety figures."""
    from designer.analysis.stars import Stars
    from designer.caves.cave_analysis import CaveAnalysis
    from designer.caves.dressing import key_patterns
    from designer.caves.graph import solve
    from designer.game.teach import cave_ablation

    worlds = []
    for w, world in enumerate(game.worlds, 1):
        levels = []
        for k, one in enumerate(world.levels, 1):
            par = one.design.min_stops
            stars = Stars.default(par)
            entry = {
                "name": level_title(world.world.name, k, one),
                "file": level_file(w, k),
                "role": one.role,
                "mechanics": list(one.mechanics),
                "par": par,
                "stars": stars.to_json(),
                "difficulty": round(one.difficulty, 2),
                "style": one.style,
                "class": level_class(one),
            }
            if one.ablation is not None:
                entry["ablation"] = one.ablation.to_dict()
            levels.append(entry)
        cave = None
        if world.cave is not None:
            found = world.cave.cave
            analysis = cast(CaveAnalysis, world.cave.analysis)
            way = solve(found)
            cave_par = way.stops if way else -1
            cave = {
                "file": cave_file(w),
                "rooms": [room.name for room in found.rooms],
                "sizes": ["x".join(map(str, room.shape)) for room in found.rooms],
                "keys": [key.name for key in found.keys],
                "keys_needed": [key.needed for key in analysis.keys],
                "key_patterns": key_patterns(found),
                "par": cave_par,
                "stars": Stars.default(cave_par).to_json() if way else None,
                "ablation": cave_ablation(found, world.world.mechanic),
            }
        worlds.append(
            {
                "name": world.world.name,
                "mechanic": world.world.mechanic,
                "band": world.world.band,
                "levels": levels,
                "cave": cave,
            }
        )
    return {
        "format": INDEX_FORMAT,
        "version": INDEX_VERSION,
        "title": game.plan.title,
        "seed": game.plan.seed,
        "worlds": worlds,
        "variety": variety_figures(game),
    }


def variety_figures(game: Game) -> dict:
    """The game's variety: the closest two levels (their layout distance and which), the
    thresholds, the sizes and the solutions repeated (none)."""
    from designer.analysis.variety import moves_of

    levels = [one.level for world in game.worlds for one in world.levels]
    names = [
        level_file(w, k)
        for w, world in enumerate(game.worlds, 1)
        for k in range(1, len(world.levels) + 1)
    ]
    found = closest(levels)
    solutions = [moves_of(level) for level in levels]
    return {
        "near": NEAR,
        "same_way": SAME_WAY,
        "closest": None
        if found is None
        else {"distance": round(found[0], 3), "levels": [names[found[1]], names[found[2]]]},
        "sizes": sorted({f"{level.height}x{level.width}" for level in levels}),
        "styles": sorted({one.style for world in game.worlds for one in world.levels}),
        "solutions_repeated": len(solutions) - len(set(solutions)),
    }
