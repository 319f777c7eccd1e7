"""The play page of a whole cave: the player walks from room to room through the doors, keys open
locks, and the stars are for the whole way through (``designer.export.play`` draws the page).

The page plays the cave's sheet (``designer.caves.graph.sheet``): its rooms one under the other,
each link a portal the player vanishes into and comes out of at the far door, each key an item
to take, and each locked door shut (``static/cave.js``) until its key is held.

>>> from designer.caves.cave import Cave
>>> cave = Cave.parse("room a\\n#1#\\n#.2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\nentrance a:1\\nexit b:1")
>>> page = cave_page(cave, "a cave")
>>> '"cave": true' in page, '"par": 4' in page
(True, True)
"""

from __future__ import annotations

from importlib import resources

from designer.caves.cave import Cave
from designer.caves.graph import sheet, solve

#: The cave's rules on the page (``static/cave.js``), after those of portals.
CAVE_JS = resources.files("designer.export").joinpath("static", "cave.js").read_text().split("*/\n", 1)[1]

#: What ``load`` runs for a cave: each locked door marked, its title naming its key.
_LOCK_MARKS = """
  (level.locks || []).forEach(([r, c, k]) => {
    const mark = document.createElement("div");
    mark.className = "cell lock";
    mark.title = `locked: key ${level.keys[k]}`;
    mark.style.left = `${c * CELL}px`;
    mark.style.top = `${r * CELL}px`;
    mark.style.boxShadow = "inset 0 0 0 3px #b8860b";
    board.insertBefore(mark, $("player"));
  });"""


def cave_entry(cave: Cave, name: str = "cave") -> dict:
    """The page's entry for a cave: the sheet's tiles and portals, its keys as items, its locks,
    its par (the fewest moves through; -1 when the exit cannot be reached) and default stars."""
    from designer.analysis.stars import Stars
    from designer.core.level import Level
    from designer.export.play import level_entry
    from designer.formats.level_files import LevelFile

    laid = sheet(cave)
    level = laid.level
    way = solve(cave, laid=laid)
    plain = Level(level.terrain, level.start, level.goal, portals=level.portals, floors=level.floors)
    entry = level_entry(LevelFile(name, plain, {}))
    names = [key.name for key in cave.keys]
    locks = []
    for link in cave.links:
        if link.lock is not None:
            for door in (link.a, link.b)[:1 if link.one_way else 2]:
                r, c = level.cell(laid.door(door))
                locks.append([r, c, names.index(link.lock)])
    stars = Stars.default(way.stops) if way else None
    entry.update(par=way.stops if way else -1, cave=True, keys=names, locks=locks,
                 stars={"two": stars.two, "one": stars.one} if stars else None)
    if cave.keys:
        entry["items"] = [list(level.cell(flat)) for flat in laid.keys]
    entry.setdefault("portals", [])
    return entry


def cave_page(cave: Cave, title: str) -> str:
    """The self-contained HTML page that plays the whole cave."""
    from designer.export.play import entries_page

    return entries_page([cave_entry(cave)], title=title, extra=(CAVE_JS, _LOCK_MARKS))
