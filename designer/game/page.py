"""The page that plays a whole game (docs/spec.md, "Games", "The page"): one self-contained file,
the play page (``designer.export.play``) of every level and cave of every world in order, with a
title and a world map over them (``static/game.js``): each level and cave unlocked once the one
before it is solved, progress and stars kept across reloads, coins and full clears as on any
page, and one playtest log for the whole game, which ``designer playtest`` reads.

For automated tests the page keeps, besides the play page's state, ``data-map`` (``open`` or
``closed``) and ``data-unlocked`` (how many entries are open) on ``<body>``; each world's entries
are the map's buttons, ``data-entry`` their index.
"""

from __future__ import annotations

import html
import json

from designer.export.play import script
from designer.game.design import Game

#: The game's script (``designer/export/static/game.js``): its comment stays in the file.
GAME_JS = script("game.js")

_CSS = """
#map { position: fixed; inset: 0; z-index: 20; background: #eef5f9; overflow-y: auto; padding: 16px;
       box-sizing: border-box; text-align: center; }
#map h1 { margin: 8px 0 4px; font-size: 26px; }
#worlds { list-style: none; padding: 0; margin: 0 auto; max-width: 640px; }
.world { background: #fff; border-radius: 8px; margin: 10px 0; padding: 8px 12px;
         box-shadow: 0 1px 4px rgba(0,0,0,.15); }
.world h2 { font-size: 18px; margin: 4px 0; }
.world p { margin: 2px 0 6px; color: #55616d; }
.stops { display: flex; flex-wrap: wrap; gap: 6px; justify-content: center; }
.stops button { font: inherit; min-width: 44px; min-height: 44px; padding: 4px 8px; border-radius: 6px;
                border: 1px solid #9ab; background: #fff; }
.stops button.solved { background: #dff0d8; }
.stops button.locked { color: #8a949c; background: #e6eaed; }
#game-bar { display: flex; gap: 10px; align-items: center; justify-content: center; margin-bottom: 4px; }
#game-bar button, #map > button { font: inherit; padding: 3px 10px; }"""


#: What ``load`` runs on a game's page that holds caves: a cave's marks, its minimap and its view
#: button on its own entry only (a cave's page holds nothing else), the rooms seen counted afresh
#: for each cave.
_CAVE_ONLY = """
  board.querySelectorAll(".tag").forEach((e) => e.remove());
  if ($("minimap")) $("minimap").hidden = !level.cave;
  if ($("view")) $("view").hidden = !level.cave;
  if (level.cave) {
    roomsSeen.clear();LOCK_MARKS
  }"""


def game_page(game: Game) -> str:
    """The self-contained HTML page of the whole game."""
    from designer.caves.play import CAVE_JS, LOCK_MARKS, cave_entry
    from designer.export.play import entries_page, level_entry
    from designer.formats.level_files import LevelFile
    from designer.game.files import level_title

    entries: list[dict] = []
    worlds: list[dict] = []
    for world in game.worlds:
        first = len(entries)
        for k, one in enumerate(world.levels, 1):
            name = level_title(world.world.name, k, one)
            entries.append(level_entry(LevelFile(name, one.level, {})))
        if world.cave is not None:
            entries.append(cave_entry(world.cave.cave, f"{world.world.name}: the cave"))
        worlds.append(
            {
                "name": world.world.name,
                "mechanic": world.world.mechanic,
                "first": first,
                "count": len(entries) - first,
            }
        )
    title = html.escape(game.plan.title)
    markup = (
        f'\n<section id="map" hidden aria-label="World map"><h1 id="game-title">{title}</h1>'
        '<p id="map-progress"></p><ol id="worlds"></ol>'
        '<button id="close-map" type="button">Back to the level</button></section>'
        '\n<div id="game-bar"><button id="open-map" type="button">World map</button>'
        '<span id="where"></span></div>'
    )
    data = {"title": game.plan.title, "worlds": worlds}
    script = "\n" + GAME_JS.replace(
        "__GAME__", json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e")
    )
    caves = any(world.cave is not None for world in game.worlds)
    return entries_page(
        entries,
        title=game.plan.title,
        extra=(CAVE_JS, _CAVE_ONLY.replace("LOCK_MARKS", LOCK_MARKS)) if caves else ("", ""),
        game=(_CSS, markup, script),
        hint_cost=game.plan.hint_cost,
    )
