"""A playable page: one self-contained HTML file for a level or a pack.

The page fetches nothing: the levels, the script, the styles and the tile pictures (the SVG
tiles of ``designer.export.picture``, as data URIs) are all inside it, so it works from a file with no
network. Arrow keys, WASD and swipes slide the player, the slide animated; U undoes a move and
R restarts the level. It shows the move counter and the par (the level's min stops), and, once
solved, "Solved in N (par M)". A pack gets a level list and a next-level button, and the list
marks each solved level with its best count.

For automated tests the page keeps its state on ``<body>``: ``data-state`` (``playing`` or
``solved``), ``data-moves`` (moves made in the current level) and ``data-level`` (its index).
The rules are the contract's: a slide stops before rock or the edge, on snow, and on the goal as
soon as the player enters it; a direction that does not move the player is not a move.
"""

from __future__ import annotations

import base64
import html
import json

from designer.analysis.graph import analyze
from designer.core.level import Level
from designer.export.picture import TILES, draw_tile

#: Pixels per cell on the page.
PAGE_CELL = 40
#: Milliseconds per cell slid.
SLIDE_MS = 45


def level_entry(name: str, level: Level) -> dict:
    """What the page knows of one level: its rows, ends and par (-1 when unsolvable)."""
    solution = analyze(level).solution
    return {"name": name, "rows": level.rows(), "start": list(level.start), "goal": list(level.goal),
            "par": solution.stops if solution else -1}


def _tile_css(cell: int) -> str:
    rules = []
    for kind in TILES:
        svg = draw_tile(kind, cell).as_svg()
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        rules.append(f".{kind}{{background-image:url(data:image/svg+xml;base64,{data})}}")
    return "\n".join(rules)


def page(levels: list[tuple[str, Level]], *, title: str = "ice-designer", cell: int = PAGE_CELL) -> str:
    """The HTML page for ``levels`` (name, level), in that order."""
    if not levels:
        raise ValueError("no levels to play")
    entries = [level_entry(name, level) for name, level in levels]
    # "<" never reaches the page raw: no "</script>" or "<!--" can end or bend the script element
    data = json.dumps(entries).replace("<", "\\u003c").replace(">", "\\u003e")
    return (_TEMPLATE
            .replace("__TITLE__", html.escape(title))
            .replace("__TILES__", _tile_css(cell))
            .replace("__CELL__", str(cell))
            .replace("__SLIDE_MS__", str(SLIDE_MS))
            .replace("__LEVELS__", data))


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
#bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-bottom: 12px; }
#bar button, #bar select { font: inherit; padding: 3px 10px; }
#board { position: relative; touch-action: none; box-shadow: 0 2px 8px rgba(0,0,0,.2); }
.cell { position: absolute; width: __CELL__px; height: __CELL__px; background-size: 100% 100%; }
#player { position: absolute; left: 0; top: 0; width: __CELL__px; height: __CELL__px; }
#player::after { content: ""; position: absolute; inset: 18%; border-radius: 50%;
                 background: #e9edf0; border: 3px solid #1d2a36; box-sizing: border-box; }
#status { min-height: 1.4em; font-weight: bold; }
body[data-state="solved"] #status { color: #2e7d32; }
.help { color: #55616d; font-size: 13px; }
__TILES__
</style>
</head>
<body data-state="playing" data-moves="0" data-level="0">
<div id="bar">
  <label id="choose">Level <select id="select"></select></label>
  <span id="moves">Moves: 0</span>
  <span id="par">Par: 0</span>
  <button id="undo" type="button">Undo</button>
  <button id="restart" type="button">Restart</button>
  <button id="next" type="button">Next level</button>
</div>
<div id="board"><div id="player"></div></div>
<p id="status" role="status"></p>
<p class="help">Arrow keys, WASD or a swipe slide the player. U undoes a move, R restarts.</p>
<script>
"use strict";
const LEVELS = __LEVELS__;
const CELL = __CELL__, SLIDE_MS = __SLIDE_MS__;
const STEP = {u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1]};
const KEYS = {ArrowUp: "u", ArrowDown: "d", ArrowLeft: "l", ArrowRight: "r",
              w: "u", s: "d", a: "l", d: "r", W: "u", S: "d", A: "l", D: "r"};
const best = LEVELS.map(() => null);
const $ = (id) => document.getElementById(id);
let index = 0, level = null, pos = null, history = [], solved = false;

function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }
function tileAt(r, c) { return level.rows[r][c]; }
function open(r, c) {
  return r >= 0 && c >= 0 && r < level.rows.length && c < level.rows[0].length && tileAt(r, c) !== "#";
}
/* Where a slide from `from` in direction `dir` ends, and the cells it covers (0: no move). */
function slide(from, dir) {
  let [r, c] = from, cells = 0;
  const [dr, dc] = STEP[dir];
  while (open(r + dr, c + dc)) {
    r += dr; c += dc; cells += 1;
    if (tileAt(r, c) === "_" || same([r, c], level.goal)) break;
  }
  return {to: [r, c], cells};
}
function place(animateCells) {
  const player = $("player");
  player.style.transition = animateCells ? `transform ${animateCells * SLIDE_MS}ms linear` : "none";
  player.style.transform = `translate(${pos[1] * CELL}px, ${pos[0] * CELL}px)`;
}
function label(k) {
  const done = best[k] === null ? "" : ` \\u2713 solved in ${best[k]} (par ${LEVELS[k].par})`;
  return `${k + 1}. ${LEVELS[k].name}${done}`;
}
function show() {
  const moves = history.length;
  document.body.dataset.state = solved ? "solved" : "playing";
  document.body.dataset.moves = String(moves);
  document.body.dataset.level = String(index);
  $("moves").textContent = `Moves: ${moves}`;
  $("par").textContent = level.par < 0 ? "Par: none (the goal cannot be reached)" : `Par: ${level.par}`;
  $("status").textContent = solved ? `Solved in ${moves} (par ${level.par})` : "";
  $("select").options[index].textContent = label(index);
  $("select").value = String(index);
  $("next").disabled = index + 1 >= LEVELS.length;
}
function move(dir) {
  if (solved) return;
  const {to, cells} = slide(pos, dir);
  if (cells === 0) return;  /* not a move */
  history.push(pos);
  pos = to;
  if (same(pos, level.goal)) {
    solved = true;
    best[index] = best[index] === null ? history.length : Math.min(best[index], history.length);
  }
  place(cells);
  show();
}
function undo() {
  if (!history.length) return;
  pos = history.pop();
  solved = false;
  place(0);
  show();
}
function load(k) {
  index = k;
  level = LEVELS[k];
  pos = level.start.slice();
  history = [];
  solved = false;
  const board = $("board"), rows = level.rows;
  board.querySelectorAll(".cell").forEach((e) => e.remove());
  board.style.width = `${rows[0].length * CELL}px`;
  board.style.height = `${rows.length * CELL}px`;
  const kinds = {"#": "rock", "_": "snow", ".": "ice", "S": "ice", "G": "ice"};
  rows.forEach((row, r) => [...row].forEach((ch, c) => {
    const cell = document.createElement("div");
    const end = same([r, c], level.start) ? "start" : same([r, c], level.goal) ? "goal" : kinds[ch];
    cell.className = `cell ${end}`;
    cell.style.left = `${c * CELL}px`;
    cell.style.top = `${r * CELL}px`;
    board.insertBefore(cell, $("player"));
  }));
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
$("undo").addEventListener("click", undo);
$("restart").addEventListener("click", () => load(index));
$("next").addEventListener("click", () => { if (index + 1 < LEVELS.length) load(index + 1); });
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.tagName === "SELECT") return;
  if (KEYS[e.key]) { e.preventDefault(); move(KEYS[e.key]); }
  else if (e.key === "u" || e.key === "U" || (e.key === "z" && (e.ctrlKey || e.metaKey))) undo();
  else if (e.key === "r" || e.key === "R") load(index);
});
let touch = null;
$("board").addEventListener("touchstart", (e) => { touch = [e.touches[0].clientX, e.touches[0].clientY]; },
                            {passive: true});
$("board").addEventListener("touchend", (e) => {
  if (!touch) return;
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
