"""A game as a Tiled project (docs/spec.md, "Games", "Tiled"): ``tiled/game.tiled-project`` and, for
each world, ``tiled/world-N.world`` placing its levels' maps in a row and its cave's room maps after
them (as the cave's own world lays them out), the maps and their tileset images in
``tiled/world-N/`` (the cave's in ``tiled/world-N/cave/``). Every map is the Tiled export's
(``designer.export.tiled``, ``designer.caves.world``), so each reads back as its level or room.
"""

from __future__ import annotations

import json

from designer.game.design import Game

#: Pixels per cell in the game's maps, and between two maps of a world.
CELL = 32
GAP = 2 * CELL

#: The project file: the folder it lies in is the project's (Tiled 1.9's format).
PROJECT = {
    "automappingRulesFile": "",
    "commands": [],
    "compatibilityVersion": 1100,
    "extensionsPath": "extensions",
    "folders": ["."],
    "propertyTypes": [],
}


def tiled_files(game: Game) -> dict[str, str | bytes]:
    """The project's files by their path in the game's folder."""
    from designer.export import picture, tiles
    from designer.export.tiled import level_tileset, to_tiled_file
    from designer.formats.level_files import LevelFile
    from designer.game.files import level_name, record, world_folder
    from designer.ops.caves import world_contents

    files: dict[str, str | bytes] = {
        "tiled/game.tiled-project": json.dumps(PROJECT, indent=1) + "\n"
    }
    for n, world in enumerate(game.worlds, 1):
        folder = world_folder(n)
        maps, x = [], 0
        images = {}
        for k, one in enumerate(world.levels, 1):
            name = level_name(k).replace(".json", ".tmj")
            document = to_tiled_file(LevelFile(name, one.level, record(one)), cell=CELL)
            files[f"tiled/{folder}/{name}"] = json.dumps(document, indent=1) + "\n"
            image, kinds = level_tileset(one.level)
            images[image] = kinds
            maps.append(_placed(f"{folder}/{name}", x, 0, one.level.width, one.level.height))
            x += one.level.width * CELL + GAP
        for image, kinds in images.items():
            files[f"tiled/{folder}/{image}"] = picture.png_bytes(tiles.tileset(CELL, kinds))
        if world.cave is not None:
            cave = world_contents(world.cave.cave, CELL)
            laid = json.loads(cave.pop("cave.world"))
            for name, body in cave.items():
                files[f"tiled/{folder}/cave/{name}"] = body
            for entry in laid["maps"]:
                maps.append(
                    {
                        **entry,
                        "fileName": f"{folder}/cave/{entry['fileName']}",
                        "x": x + entry["x"],
                    }
                )
        world_file = {"maps": maps, "onlyShowAdjacentMaps": False, "type": "world"}
        files[f"tiled/{folder}.world"] = json.dumps(world_file, indent=1) + "\n"
    return files


def _placed(name: str, x: int, y: int, width: int, height: int) -> dict:
    return {"fileName": name, "x": x, "y": y, "width": width * CELL, "height": height * CELL}
