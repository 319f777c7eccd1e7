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
  They are shown on solving and in the level list.
- **Progress** (solved levels, best counts, stars) is kept in the browser's ``localStorage``
  under a key per pack (made from the levels themselves), so it survives a reload; "Reset
  progress" clears it.

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

from designer.analysis.solver import solve
from designer.core.level import Level
from designer.core.room import Room
from designer.export.picture import ITEM_TILES, TILES, draw_tile, tile_kinds
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
    level = entry.level
    solution = solve(level)
    stars = entry.stars_for(solution.stops) if solution else None
    return {"name": entry.name, "rows": level.rows(),
            "kinds": kind_rows(level),
            "start": list(level.start), "goal": list(level.goal),
            "par": solution.stops if solution else -1,
            "stars": {"two": stars.two, "one": stars.one} if stars else None,
            **({"items": [list(cell) for cell in level.items]} if level.items else {}),
            **passage_entry(level)}


def passage_entry(level: Level | Room) -> dict:
    """A level's portals and floors as the page's rules read them (none for a plain level)."""
    if isinstance(level, Room) or level.plain:
        return {}
    return {"portals": [[list(src), list(dst)] for src, dst in level.portals],
            "floors": [[f.top, f.height, f.width, f.wrap] for f in level.floor_list()]}


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
    digest = hashlib.sha256(json.dumps([[e["rows"], e["stars"]] for e in entries]).encode()).hexdigest()
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
            entry = level_entry(LevelFile(f"{name}: door {route[0]} to door {route[1]}", room.route(*route), {}))
            entries.append({**entry, "kinds": kinds, "route": route_name(route), "doors": doors})
    return entries


def page(levels: list[LevelFile | tuple[str, Level | Room]], *, title: str = "ice-designer",
         cell: int = PAGE_CELL) -> str:
    """The HTML page for ``levels`` (level files as ``read_levels`` gives them, or (name, level)
    pairs), in that order; a room (``designer.core.room``) gives an entry per route, each way."""
    if not levels:
        raise ValueError("no levels to play")
    files = [item if isinstance(item, LevelFile) else LevelFile(item[0], item[1], {}) for item in levels]
    return entries_page([one for item in files for one in
                         (route_entries(item.name, item.level) if isinstance(item.level, Room) else [level_entry(item)])],
                        title=title, cell=cell)


def entries_page(entries: list[dict], *, title: str, cell: int = PAGE_CELL, extra: tuple[str, str] = ("", "")) -> str:
    """The page of ``entries`` (``level_entry``'s, or a cave's: ``designer.caves.play``); ``extra``
    is (script, the code ``load`` runs after the doors are marked) for a page that needs more."""
    # "<" never reaches the page raw: no "</script>" or "<!--" can end or bend the script element
    data = json.dumps(entries).replace("<", "\\u003c").replace(">", "\\u003e")
    items = any("items" in one for one in entries)
    parts = {"RULES": RULES_JS, "TITLE": html.escape(title), "TILES": _tile_css(cell, ITEM_TILES if items else TILES),
             "CELL": str(cell), "SLIDE_MS": str(SLIDE_MS),
             "KEY": json.dumps(pack_key(entries)), "LEVELS": data,
             # a page with rooms marks every door with its number; a page of levels stays as it was
             "DOORS": _DOOR_MARKS if any("doors" in one for one in entries) else ""}
    # a page with portals, floors or wrap-around plays them; a page without stays as it was
    passages = any("portals" in one for one in entries)
    parts.update({name: value if passages else plain for name, (value, plain) in _PASSAGE_PARTS.items()})
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
    "PORTAL_CSS": ("""
#player.vanished { opacity: 0; transition: opacity 120ms; }
.cell.portal, .cell.target { display: flex; align-items: center; justify-content: center; font: bold 60% sans-serif;
  color: #fff; }
.cell.portal { background: radial-gradient(circle, #223 52%, transparent 56%); }
.cell.target { color: #223; }""", ""),
    "PORTAL_VARS": ("""
let portalRun = 0;  /* which portal's appearing may still place the player */""", ""),
    "ON_MOVE": ("""
  const legs = lastPassage.legs, player = $("player"), shown = ++portalRun;  /* what the slide went through */
  document.body.dataset.portal = lastPassage.portal ? lastPassage.portal.join(",") : "";
  player.classList.remove("vanished");
  if (legs.length > 1) {  /* over a wrapping edge or into a portal: shown leg by leg */
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
  }""", ""),
    "PLACE": ("""if (legs.length <= 1) place(cells);""", "place(cells);"),
    "ON_BACK": ("""
  portalRun++;
  $("player").classList.remove("vanished");""", ""),
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

#: The sliding rules in JavaScript (one slide, and the next move of a fewest-moves way), which the
#: page holds and the studio serves: one copy of them (its comment stays in the file).
RULES_JS = resources.files("designer.export").joinpath("static", "rules.js").read_text().split("*/\n", 1)[1]
#: The rules of portals, floors and wrap-around (``static/passages.js``): its ``slide`` takes the
#: place of ``RULES_JS``'s on a page whose levels have them.
PASSAGES_JS = resources.files("designer.export").joinpath("static", "passages.js").read_text().split("*/\n", 1)[1]

#: The template's placeholders: __NAME__, where the page's parts go.
_PLACEHOLDER = re.compile(r"__([A-Z_]+?)__")


_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { margin: 0; padding: 16px; background: #eef5f9; color: #1d2a36;
       font: 15px/1.4 "DejaVu Sans", Verdana, sans-serif; display: flex; flex-direction: column;
       align-items: center; }
#bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-bottom: 12px;
       justify-content: center; }
#bar button, #bar select { font: inherit; padding: 3px 10px; }
#board { position: relative; touch-action: none; box-shadow: 0 2px 8px rgba(0,0,0,.2); }
.cell { position: absolute; width: __CELL__px; height: __CELL__px; background-size: 100% 100%; }
#player { position: absolute; left: 0; top: 0; width: __CELL__px; height: __CELL__px; }__PORTAL_CSS__
#player::after { content: ""; position: absolute; inset: 18%; border-radius: 50%;
                 background: #e9edf0; border: 3px solid #1d2a36; box-sizing: border-box; }
#arrow { position: absolute; width: __CELL__px; height: __CELL__px; line-height: __CELL__px;
         text-align: center; font-size: calc(__CELL__px * 0.8); font-weight: bold; color: #d9433b;
         text-shadow: 0 0 3px #fff; pointer-events: none; }
#status { min-height: 1.4em; font-weight: bold; }
body[data-state="solved"] #status { color: #2e7d32; }
.stars { color: #e0a100; letter-spacing: 2px; }
.help { color: #55616d; font-size: 13px; text-align: center; }
__TILES__
</style>
</head>
<body data-state="playing" data-moves="0" data-level="0" data-hint="" data-items="0">
<div id="bar">
  <label id="choose">Level <select id="select"></select></label>
  <span id="moves">Moves: 0</span>
  <span id="par">Par: 0</span>
  <span id="items" hidden></span>
  <button id="hint" type="button">Hint</button>
  <button id="solve" type="button">Solve</button>
  <button id="undo" type="button">Undo</button>
  <button id="restart" type="button">Restart</button>
  <button id="next" type="button">Next level</button>
</div>
<div id="board"><div id="player"></div><div id="arrow" hidden></div></div>
<p id="status" role="status"></p>
<p class="help">Arrow keys, WASD or a swipe slide the player. H shows a hint, Enter solves the rest,
U undoes a move, R restarts. <button id="reset" type="button">Reset progress</button></p>
<script>
"use strict";
const LEVELS = __LEVELS__;
const KEY = __KEY__;
const CELL = __CELL__, SLIDE_MS = __SLIDE_MS__;
const STEP = {u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1]};
const ARROW = {u: "\\u2191", d: "\\u2193", l: "\\u2190", r: "\\u2192"};
const WORD = {u: "up", d: "down", l: "left", r: "right"};
const KEYS = {ArrowUp: "u", ArrowDown: "d", ArrowLeft: "l", ArrowRight: "r",
              w: "u", s: "d", a: "l", d: "r", W: "u", S: "d", A: "l", D: "r"};
const KINDS = {".": "ice", "#": "rock", "_": "snow", "w": "wall"};
const $ = (id) => document.getElementById(id);
let index = 0, level = null, pos = null, taken = 0, history = [], solved = false, solving = false, assisted = false;
let solveRun = 0;  /* which solver run may move the player */__PORTAL_VARS__
let progress = loadProgress();

/* Progress: {best: {index: moves}, stars: {index: stars}}, kept per pack in localStorage. */
function emptyProgress() { return {best: {}, stars: {}}; }
function loadProgress() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEY) || "null");
    if (kept && typeof kept.best === "object" && typeof kept.stars === "object") return kept;
  } catch (e) { /* no storage here (private mode): progress lasts the visit */ }
  return emptyProgress();
}
function saveProgress() {
  try { window.localStorage.setItem(KEY, JSON.stringify(progress)); } catch (e) { /* as above */ }
}
function resetProgress() {
  progress = emptyProgress();
  try { window.localStorage.removeItem(KEY); } catch (e) { /* as above */ }
  LEVELS.forEach((lv, k) => { $("select").options[k].textContent = label(k); });
  show();
}

__RULES__function starsFor(moves) {
  if (level.par < 0 || !level.stars) return 0;
  return moves <= level.par ? 3 : moves <= level.stars.two ? 2 : moves <= level.stars.one ? 1 : 0;
}
function starText(n) { return "\\u2605".repeat(n) + "\\u2606".repeat(3 - n); }
function place(animateCells) {
  const player = $("player");
  player.style.transition = animateCells ? `transform ${animateCells * SLIDE_MS}ms linear` : "none";
  player.style.transform = `translate(${pos[1] * CELL}px, ${pos[0] * CELL}px)`;
}
function label(k) {
  const best = progress.best[k];
  const done = best === undefined ? "" :
    ` \\u2713 solved in ${best} (par ${LEVELS[k].par}) ${starText(progress.stars[k] || 0)}`;
  return `${k + 1}. ${LEVELS[k].name}${done}`;
}
function clearHint() {
  document.body.dataset.hint = "";
  $("arrow").hidden = true;
}
function show() {
  const moves = history.length;
  document.body.dataset.state = solved ? "solved" : "playing";
  document.body.dataset.moves = String(moves);
  document.body.dataset.level = String(index);
  $("moves").textContent = `Moves: ${moves}`;
  const items = level.items || [], left = items.filter((item, k) => !(taken >> k & 1)).length;
  document.body.dataset.items = String(left);
  $("items").hidden = !items.length;
  $("items").textContent = level.cave ? `Keys: ${items.length - left} of ${items.length}` :
    left ? `Items left: ${left} (the exit opens when none is left)` : "Items: all taken, the exit is open";
  document.querySelectorAll(".cell.item").forEach((cell) => { cell.hidden = taken >> Number(cell.dataset.item) & 1; });
  $("par").textContent = level.par < 0 ? "Par: none (the goal cannot be reached)" : `Par: ${level.par}`;
  if (solved) {
    const stars = assisted ? 0 : starsFor(moves);
    document.body.dataset.stars = String(stars);
    $("status").textContent = assisted ? `Solved by the solver in ${moves} (par ${level.par}): solve it yourself for stars`
                                       : `Solved in ${moves} (par ${level.par}) ${starText(stars)}`;
  } else {
    delete document.body.dataset.stars;
    if (!document.body.dataset.hint) $("status").textContent = "";
  }
  $("select").options[index].textContent = label(index);
  $("select").value = String(index);
  $("next").disabled = index + 1 >= LEVELS.length;
}
function move(dir) {
  if (solved) return 0;
  const {to, cells, taken: now} = slide(pos, dir, taken);
  if (cells === 0) return 0;  /* not a move */
  clearHint();
  history.push([pos, taken]);__ON_MOVE__
  pos = to;
  taken = now;
  if (same(pos, level.goal) && goalOpen(taken)) {
    solved = true;
    if (!assisted) {
      const moves = history.length, stars = starsFor(moves);
      if (progress.best[index] === undefined || moves < progress.best[index]) progress.best[index] = moves;
      progress.stars[index] = Math.max(progress.stars[index] || 0, stars);
      saveProgress();
    }
  }
  __PLACE__
  show();
  return cells;
}
function hint() {
  if (solved || solving) return;
  const found = nextMove(pos, taken);
  const arrow = $("arrow");
  if (!found) {
    document.body.dataset.hint = "none";
    arrow.hidden = true;
    $("status").textContent = "No way to the goal from here: undo or restart";
    return;
  }
  document.body.dataset.hint = found.dir;
  arrow.textContent = ARROW[found.dir];
  arrow.style.left = `${pos[1] * CELL}px`;
  arrow.style.top = `${pos[0] * CELL}px`;
  arrow.hidden = false;
  $("status").textContent = `Hint: slide ${WORD[found.dir]} (${found.moves} move${found.moves > 1 ? "s" : ""} to the goal)`;
}
function solveRest() {
  if (solved || solving) return;
  if (!nextMove(pos, taken)) { hint(); return; }
  solving = true;
  assisted = true;
  const run = ++solveRun;  /* a timer left from an earlier run (before a restart) does nothing */
  const step = () => {
    if (run !== solveRun || !solving) return;
    const found = nextMove(pos, taken);
    if (solved || !found) { solving = false; return; }
    const cells = move(found.dir);
    if (solved) { solving = false; return; }  /* the last move: keys and buttons work at once */
    window.setTimeout(step, cells * SLIDE_MS + 120);
  };
  step();
}
function undo() {
  if (!history.length || solving) return;__ON_BACK__
  [pos, taken] = history.pop();
  solved = false;
  clearHint();
  place(0);
  show();
}
function load(k) {__ON_BACK__
  index = k;
  level = LEVELS[k];
  pos = level.start.slice();
  taken = 0;
  history = [];
  solved = solving = assisted = false;
  clearHint();
  const board = $("board"), kinds = level.kinds;
  board.querySelectorAll(".cell").forEach((e) => e.remove());
  board.style.width = `${kinds[0].length * CELL}px`;
  board.style.height = `${kinds.length * CELL}px`;
  kinds.forEach((row, r) => [...row].forEach((ch, c) => {
    const cell = document.createElement("div");
    const end = same([r, c], level.start) ? "start" : same([r, c], level.goal) ? "goal" : KINDS[ch];
    cell.className = `cell ${end}`;
    cell.style.left = `${c * CELL}px`;
    cell.style.top = `${r * CELL}px`;
    board.insertBefore(cell, $("player"));
  }));
  (level.items || []).forEach(([r, c], k) => {
    const item = document.createElement("div");
    item.className = "cell item";
    item.dataset.item = String(k);
    item.style.left = `${c * CELL}px`;
    item.style.top = `${r * CELL}px`;
    board.insertBefore(item, $("player"));
  });__DOORS__
  place(0);
  show();
}
LEVELS.forEach((lv, k) => {
  const option = document.createElement("option");
  option.value = String(k);
  option.textContent = label(k);
  $("select").appendChild(option);
});
if (LEVELS.length < 2) { $("choose").hidden = true; $("next").hidden = true; }
$("select").addEventListener("change", (e) => { load(Number(e.target.value)); e.target.blur(); });
$("hint").addEventListener("click", hint);
$("solve").addEventListener("click", solveRest);
$("undo").addEventListener("click", undo);
$("restart").addEventListener("click", () => load(index));
$("next").addEventListener("click", () => { if (index + 1 < LEVELS.length) load(index + 1); });
$("reset").addEventListener("click", resetProgress);
document.addEventListener("keydown", (e) => {
  if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "BUTTON") && e.key === "Enter") return;
  if (e.target && e.target.tagName === "SELECT") return;
  if (solving) return;
  if (KEYS[e.key]) { e.preventDefault(); move(KEYS[e.key]); }
  else if (e.key === "u" || e.key === "U" || (e.key === "z" && (e.ctrlKey || e.metaKey))) undo();
  else if (e.key === "r" || e.key === "R") load(index);
  else if (e.key === "h" || e.key === "H") hint();
  else if (e.key === "Enter") { e.preventDefault(); solveRest(); }
});
let touch = null;
$("board").addEventListener("touchstart", (e) => { touch = [e.touches[0].clientX, e.touches[0].clientY]; },
                            {passive: true});
$("board").addEventListener("touchend", (e) => {
  if (!touch || solving) return;
  const dx = e.changedTouches[0].clientX - touch[0], dy = e.changedTouches[0].clientY - touch[1];
  touch = null;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < 20) return;
  move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "r" : "l") : (dy > 0 ? "d" : "u"));
});
load(0);
</script>
</body>
</html>
"""
