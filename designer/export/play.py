"""A playable page: one self-contained HTML file for a level or a pack.

The page fetches nothing: the levels, the script, the styles and the tile pictures (the SVG
tiles of ``designer.export.picture``, as data URIs) are all inside it, so it works from a file
with no network. Arrow keys, WASD and swipes slide the player, the slide animated; U undoes a
move and R restarts the level.

- **Hint** (H, or the button): the next move of a fewest-moves solution from where the player
  stands, found by a breadth-first search over the resting cells from there. The page marks it
  with an arrow and says how many moves are left.
- **Solve** (Enter, or the button): plays the rest of a fewest-moves solution from where the
  player stands, each slide animated. A level the solver finished earns no stars and is not
  saved as solved.
- **Stars** against par (the level's min stops): 3 at par, 2 and 1 up to the thresholds the
  level file gives (``"stars"``; see ``designer.analysis.stars``) or the designer's default.
  They are shown on solving and in the level list. A page made with a hint cost (``play
  --hint-cost N``) takes N stars off for each hint of the attempt that showed a move (a restart
  begins a new attempt); by default hints are free.
- **Progress** (solved levels, best counts, stars) is kept in the browser's ``localStorage``
  under a key per pack (made from the levels themselves), so it survives a reload; "Reset
  progress" clears it.
- **Playtests.** Every attempt on every level is recorded (each move with its time, undos,
  restarts, hints, the solver's help, finishing, leaving; a random id per visit, nothing
  personal) and kept in ``localStorage`` under a key per pack; "Save playtest" downloads the
  record as a JSON Lines file (``designer.formats.playtest_log``), which ``designer playtest``
  reads. ``data-logged`` on ``<body>`` counts the lines.

For automated tests the page keeps its state on ``<body>``: ``data-state`` (``playing`` or
``solved``), ``data-moves`` (moves made in the current level), ``data-level`` (its index),
``data-hint`` (the hinted move, u/d/l/r, until the next move; empty otherwise, and ``none`` in a
trap), ``data-stars`` (once solved), ``data-portal`` (on a page with portals: the cell of the portal
the last move fell into) and ``data-items`` (the items left to take: a level with items
shows them, takes each as the player slides over it or stops on it, and opens the exit once none is
left; hints and the solver play from the items taken so far). The rules are the contract's: a slide stops before rock
or the edge, on snow, and on the goal as soon as the player enters it; a direction that does not
move the player is not a move.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources
from typing import cast

from designer.analysis.solver import solve
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.limits import PAGE_THINGS, page_limits
from designer.core.room import Room
from designer.export.tiles import ITEM_TILES, TILES, draw_tile, tile_kinds
from designer.formats.level_files import LevelFile

#: Pixels per cell on the page.
PAGE_CELL = 40
#: Milliseconds per cell slid.
SLIDE_MS = 45
#: One letter per tile kind in a level's ``kinds`` rows on the page.
KIND_LETTERS = {"ice": ".", "rock": "#", "snow": "_", "wall": "w"}


def kind_rows(level: Level | Room) -> list[str]:
    """The page's rows of tile kinds (``KIND_LETTERS``)."""
    return ["".join(KIND_LETTERS[k] for k in row) for row in tile_kinds(level)]


def level_entry(entry: LevelFile) -> dict:
    """What the page knows of one level: its tiles, ends, par (-1 when unsolvable) and stars."""
    level = cast(Level, entry.level)  # a level's file (a room is played route by route)
    solution = solve(level)
    stars = entry.stars_for(solution.stops) if solution else None
    return {
        "name": entry.name,
        "rows": level.rows(),
        "kinds": kind_rows(level),
        "start": list(level.start),
        "goal": list(level.goal),
        "par": solution.stops if solution else -1,
        "stars": {"two": stars.two, "one": stars.one} if stars else None,
        **({"items": [list(cell) for cell in level.items]} if level.items else {}),
        **coin_entry(level),
        **passage_entry(level),
    }


def coin_entry(level: Level, budget: float = 10.0) -> dict:
    """A level's coins as the page reads them (none without coins): listed after its items in
    ``items``, from ``coin_from`` on, with the full clear's par (``full``, -1 when there is none),
    a full clear to hint from (``full_moves``) and its stars (``full_stars``). The full clear is
    searched within ``budget`` seconds (``designer.analysis.tour``); one found but not proven
    optimal is the par the page gives."""
    if not level.coins:
        return {}
    from designer.analysis.tour import full_clear

    return coin_fields(list(level.items), list(level.coins), lambda: full_clear(level, budget))


def coin_fields(items: list, coins: list, tour) -> dict:
    """The page's fields for ``coins`` after ``items`` (a level's items, a cave's keys: sheet
    cells), with the full clear ``tour()`` finds (``designer.analysis.tour.FullClear``), searched
    only once the page is known to hold them all."""
    if len(items) + len(coins) > PAGE_THINGS:  # more than a level holds: no reader lets it through
        raise LevelError(
            f"{len(items)} items and {len(coins)} coins: the play page holds at most "
            f"{PAGE_THINGS} together"
        )
    from designer.analysis.stars import Stars

    found = tour()
    stars = Stars.default(found.stops) if found.moves else None
    return {
        "items": [list(cell) for cell in (*items, *coins)],
        "coin_from": len(items),
        "full": found.stops if found.moves else -1,
        "full_moves": found.moves or "",
        "full_stars": {"two": stars.two, "one": stars.one} if stars else None,
    }


def passage_entry(level: Level) -> dict:
    """A level's portals and floors as the page's rules read them (none for a plain level)."""
    if level.plain:
        return {}
    return {
        "portals": [[list(src), list(dst)] for src, dst in level.portals],
        "floors": [[f.top, f.height, f.width, f.wrap] for f in level.floor_list()],
    }


def _tile_css(cell: int, kinds: tuple[str, ...] = TILES) -> str:
    rules = []
    for kind in kinds:
        svg = draw_tile(kind, cell).as_svg()
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        rules.append(f".{kind}{{background-image:url(data:image/svg+xml;base64,{data})}}")
    return "\n".join(rules)


def pack_key(entries: list[dict]) -> str:
    """The ``localStorage`` key of a pack's progress: made from its levels, so two pages of the
    same pack share their progress and different packs never do."""
    digest = hashlib.sha256(
        json.dumps([[e["rows"], e["stars"]] for e in entries]).encode()
    ).hexdigest()
    return f"ice-designer/progress/{digest[:16]}"


def route_entries(name: str, room: Room) -> list[dict]:
    """A room's entries on the page: one per route (every pair of doors, each way), the player
    entering by its first door and leaving by the second, every door shown with its number."""
    from designer.analysis.routes import route_name

    doors = [[cell[0], cell[1], number] for number, cell in room.doors]
    kinds = kind_rows(room)  # the room's frame: every door a gap in it
    entries = []
    for a, b in room.routes():
        for route in ((a, b), (b, a)):
            entry = level_entry(
                LevelFile(f"{name}: door {route[0]} to door {route[1]}", room.route(*route), {})
            )
            entries.append({**entry, "kinds": kinds, "route": route_name(route), "doors": doors})
    return entries


def entries_page(
    entries: list[dict],
    *,
    title: str,
    cell: int = PAGE_CELL,
    extra: tuple[str, str] = ("", ""),
    sink: str | None = None,
    game: tuple[str, str, str] = ("", "", ""),
    hint_cost: int = 0,
) -> str:
    """The page of ``entries`` (``level_entry``'s, or a cave's: ``designer.caves.play``); ``extra``
    is (script, the code ``load`` runs after the doors are marked) for a page that needs more;
    ``game`` is (styles, markup at the top of the body, script run once the first level is
    loaded) of a game's page (``designer.game.page``); ``hint_cost``, the stars each hint of an
    attempt takes off its stars (0: hints are free)."""
    # "<" never reaches the page raw: no "</script>" or "<!--" can end or bend the script element
    from designer.formats.playtest_log import level_id, pack_id

    entries = [{**one, "id": level_id(one.get("rows", []))} for one in entries]
    pack = {
        "id": pack_id([one["id"] for one in entries]),
        "levels": [{"name": one["name"], "id": one["id"]} for one in entries],
    }
    data = json.dumps(entries).replace("<", "\\u003c").replace(">", "\\u003e")
    items = any("items" in one for one in entries)
    parts = {
        "RULES": RULES_JS,
        "TITLE": html.escape(title),
        "TILES": _tile_css(cell, ITEM_TILES if items else TILES),
        "CELL": str(cell),
        "SLIDE_MS": str(SLIDE_MS),
        "HINT_COST": str(int(hint_cost)),
        "LIMITS": json.dumps(page_limits()),
        "KEY": json.dumps(pack_key(entries)),
        "LEVELS": data,
        "PACK": json.dumps(pack).replace("<", "\\u003c").replace(">", "\\u003e"),
        "SINK": json.dumps(sink).replace("<", "\\u003c").replace(">", "\\u003e"),
        # a page with rooms marks every door with its number; a page of levels stays as it was
        "DOORS": _DOOR_MARKS if any("doors" in one for one in entries) else "",
        "GAME_CSS": game[0],
        "GAME_HTML": game[1],
        "GAME_JS": game[2],
    }
    # a page with portals, floors or wrap-around plays them; a page without stays as it was
    passages = any("portals" in one for one in entries)
    parts.update(
        {name: value if passages else plain for name, (value, plain) in _PASSAGE_PARTS.items()}
    )
    if passages:
        parts["RULES"] = RULES_JS + PASSAGES_JS + extra[0]
        parts["DOORS"] = _PASSAGE_MARKS + parts["DOORS"] + extra[1]
    # One pass over the template: a part is never searched again, so no title, level name or level
    # data can bring in another part, whatever placeholders it spells.
    return _PLACEHOLDER.sub(lambda found: parts[found.group(1)], _TEMPLATE)


#: The parts of a page with portals, floors or wrap-around, each with what a page without them holds
#: there: the portal's look, the player vanishing into a portal and appearing on its target (a
#: slide over a wrapping edge jumps), and ``data-portal`` on ``<body>`` (the cell of the portal the
#: last move fell into, empty when none).
_PASSAGE_PARTS = {
    "PORTAL_CSS": (
        """
#player.vanished { opacity: 0; transition: opacity 120ms; }
.cell.portal, .cell.target { display: flex; align-items: center; justify-content: center; font: bold 60% sans-serif;
  color: #fff; }
.cell.portal { background: radial-gradient(circle, #223 52%, transparent 56%); }
.cell.target { color: #223; }""",
        "",
    ),
    "PORTAL_VARS": (
        """
let portalRun = 0;  /* which portal's appearing may still place the player */""",
        "",
    ),
    "ON_MOVE": (
        """
  const legs = lastPassage.legs, player = $("player"), shown = ++portalRun;  /* what the slide went through */
  document.body.dataset.portal = lastPassage.portal ? lastPassage.portal.join(",") : "";
  player.classList.remove("vanished");
  if (legs.length > 1 && SLIDE_MS) {  /* over a wrapping edge or into a portal: shown leg by leg (not with reduced motion) */
    const at = (cell, n) => {
      player.style.transition = n ? `transform ${n * SLIDE_MS}ms linear` : "none";
      player.style.transform = `translate(${cell[1] * CELL}px, ${cell[0] * CELL}px)`;
    };
    const step = (k) => {
      if (shown !== portalRun || k >= legs.length) return;
      const leg = legs[k];
      if (leg.jump || leg.vanish) {
        player.classList.toggle("vanished", Boolean(leg.vanish));
        window.setTimeout(() => {
          if (shown !== portalRun) return;
          at(leg.to, 0);
          void player.offsetWidth;  /* the jump lands before the next leg's slide starts */
          player.classList.remove("vanished");
          step(k + 1);
        }, leg.vanish ? 120 : 0);
      } else {
        at(leg.to, leg.cells);
        window.setTimeout(() => step(k + 1), leg.cells * SLIDE_MS);
      }
    };
    step(0);
  }""",
        "",
    ),
    "PLACE": ("""if (legs.length <= 1 || !SLIDE_MS) place(cells);""", "place(cells);"),
    "ON_BACK": (
        """
  portalRun++;
  $("player").classList.remove("vanished");""",
        "",
    ),
}

#: The script that marks the portals (a dark hole with the letter) and the cells one-way portals
#: lead to (the letter), on a page with portals.
_PASSAGE_MARKS = """
  (level.portals || []).forEach(([[r, c], target]) => {
    const mark = document.createElement("div");
    mark.className = "cell portal";
    mark.textContent = level.rows[r][c];
    mark.title = `portal to ${level.rows[target[0]][target[1]]}`;
    mark.style.left = `${c * CELL}px`;
    mark.style.top = `${r * CELL}px`;
    board.insertBefore(mark, $("player"));
  });
  (level.portals || []).forEach(([cell, [r, c]]) => {
    if (portalAt(r, c)) return;  /* a portal itself: marked above */
    const mark = document.createElement("div");
    mark.className = "cell target";
    mark.textContent = level.rows[r][c];
    mark.style.left = `${c * CELL}px`;
    mark.style.top = `${r * CELL}px`;
    board.insertBefore(mark, $("player"));
  });"""

#: The script that marks a room's doors with their numbers (pages with rooms only).
_DOOR_MARKS = """
  board.querySelectorAll(".door").forEach((e) => e.remove());
  (level.doors || []).forEach(([r, c, number]) => {
    const mark = document.createElement("div");
    mark.className = "door";
    mark.dataset.door = String(number);
    mark.textContent = String(number);
    mark.style.cssText = `position:absolute;left:${c * CELL + CELL * 0.55}px;top:${r * CELL}px;` +
      `width:${CELL * 0.45}px;height:${CELL * 0.45}px;line-height:${CELL * 0.45}px;border-radius:50%;` +
      `text-align:center;font-size:${CELL * 0.3}px;font-weight:bold;color:#fff;background:#1d2a36;` +
      `box-shadow:0 0 0 2px #f2b705;pointer-events:none;z-index:2`;
    board.appendChild(mark);
  });"""


def script(name: str) -> str:
    """A script of the pages (``designer/export/static/NAME``) without its opening comment, which
    stays in the file."""
    static = resources.files("designer.export").joinpath("static")
    return static.joinpath(name).read_text().split("*/\n", 1)[1]


#: The sliding rules in JavaScript (one slide, and the next move of a fewest-moves way), which the
#: page holds and the studio serves: one copy of them (its comment stays in the file).
RULES_JS = script("rules.js")
#: The rules of portals, floors and wrap-around (``static/passages.js``): its ``slide`` takes the
#: place of ``RULES_JS``'s on a page whose levels have them.
PASSAGES_JS = script("passages.js")

#: The template's placeholders: __NAME__, where the page's parts go.
_PLACEHOLDER = re.compile(r"__([A-Z_]+?)__")


#: The page, its parts where ``__NAME__`` stands (``static/play.html``).
_TEMPLATE = resources.files("designer.export").joinpath("static").joinpath("play.html").read_text()
