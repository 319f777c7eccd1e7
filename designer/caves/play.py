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

from designer.caves.cave import Cave, door_words
from designer.caves.graph import sheet, solve
from designer.export.play import script

#: The cave's rules on the page (``static/cave.js``), after those of portals.
CAVE_JS = script("cave.js")

#: Each key's colour on the page, its locks drawn in the same (a cave holds at most 4 keys).
KEY_COLOURS = ("#d4a017", "#2f80ed", "#27ae60", "#c0392b")

#: What ``load`` runs for a cave: each locked door marked in its key's colour, each key ringed in
#: it and named, each room named at its corner, and each door labelled with where it leads.
LOCK_MARKS = """
  (level.locks || []).forEach(([r, c, k]) => {
    const mark = document.createElement("div");
    mark.className = "cell lock";
    mark.dataset.key = level.keys[k];
    mark.title = `locked: key ${level.keys[k]}`;
    mark.style.left = `${c * CELL}px`;
    mark.style.top = `${r * CELL}px`;
    mark.style.boxShadow = `inset 0 0 0 4px ${level.colours[k]}`;
    board.insertBefore(mark, $("player"));
  });
  (level.items || []).slice(0, level.keys.length).forEach(([r, c], k) => {
    const cell = board.querySelector(`.cell.item[data-item="${k}"]`);
    if (cell) { cell.style.boxShadow = `inset 0 0 0 3px ${level.colours[k]}`; cell.title = `key ${level.keys[k]}`; }
    board.appendChild(caveTag("key-name", r, c, level.keys[k], level.colours[k], "below"));
  });
  caveViewButton();
  roomsSeen.clear();
  fit();
  (level.rooms || []).forEach(([top, name, floor]) => {
    board.appendChild(caveTag("room-name", top, 0, `${name} \u00b7 floor ${floor}`, "#1d2a36", "corner"));
  });
  (level.labels || []).forEach(([r, c, text, side]) => {
    board.appendChild(caveTag("link-label", r, c, text, "#1d2a36", side));
  });"""


def cave_entry(cave: Cave, name: str = "cave", budget: float = 10.0) -> dict:
    """The page's entry for a cave: the sheet's tiles and portals, its keys as items, its locks,
    its par (the fewest moves through; -1 when the exit cannot be reached) and default stars;
    its coins after the keys, with the full clear (``designer.caves.coins``, searched within
    ``budget`` seconds)."""
    from designer.analysis.stars import Stars
    from designer.caves.coins import coin_cells, full_clear
    from designer.core.level import Level
    from designer.export.play import coin_fields, level_entry
    from designer.formats.level_files import LevelFile

    laid = sheet(cave)
    level = laid.level
    way = solve(cave, laid=laid)
    plain = Level(
        level.terrain, level.start, level.goal, portals=level.portals, floors=level.floors
    )
    entry = level_entry(LevelFile(name, plain, {}))
    names = [key.name for key in cave.keys]
    locks = []
    for link in cave.links:
        if link.lock is not None:
            for door in (link.a, link.b)[: 1 if link.one_way else 2]:
                r, c = level.cell(laid.door(door))
                locks.append([r, c, names.index(link.lock)])
    stars = Stars.default(way.stops) if way else None
    entry.update(
        par=way.stops if way else -1,
        cave=True,
        keys=names,
        locks=locks,
        colours=list(KEY_COLOURS[: len(names)]),
        rooms=sorted([laid.tops[room.name], room.name, room.floor] for room in cave.rooms),
        labels=door_labels(cave, laid),
        plan=_plan(cave),
        stars={"two": stars.two, "one": stars.one} if stars else None,
    )
    if cave.keys:
        entry["items"] = [list(level.cell(flat)) for flat in laid.keys]
    coins = coin_cells(laid)
    if coins:  # after the keys, as a level's after its items
        entry.update(
            coin_fields(
                [level.cell(flat) for flat in laid.keys],
                [level.cell(flat) for flat in coins],
                lambda: full_clear(cave, budget),
            )
        )
    entry.setdefault("portals", [])
    return entry


def _plan(cave: Cave) -> list:
    """Each room's place on the floor plan, as the plan picture lays it out (``caves.picture``):
    [name, floor, row, col, rows, cols], for the page's minimap."""
    from designer.caves.picture import layout

    places = layout(cave)
    return [[room.name, room.floor, *places[room.name], *room.shape] for room in cave.rooms]


def door_labels(cave: Cave, laid) -> list:
    """Each door's label on the page, [row, col, text, side]: its ``door_words``, and ``side``,
    where the label sits off the door (into the room from its wall)."""
    said = door_words(cave)
    out = []
    for room in cave.rooms:
        h, w = room.shape
        for number in sorted(room.doors):
            r, c = room.doors[number]
            side = "below" if r == 0 else "above" if r == h - 1 else "right" if c == 0 else "left"
            top, col = laid.level.cell(laid.door((room.name, number)))
            out.append([top, col, said.get((room.name, number), "door"), side])
    return out


def cave_page(cave: Cave, title: str, hint_cost: int = 0) -> str:
    """The self-contained HTML page that plays the whole cave (``hint_cost``: the stars each hint
    of an attempt takes off)."""
    from designer.export.play import entries_page

    return entries_page(
        [cave_entry(cave)], title=title, extra=(CAVE_JS, LOCK_MARKS), hint_cost=hint_cost
    )
