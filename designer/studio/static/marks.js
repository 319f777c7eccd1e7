// designer studio: what the board shows over the tiles, and the figures in plain words (issue 44).
// A route's solution is a numbered path with arrows in the route's colour (data-path: the move
// number of each stop), the cells it slides over a trail, the traps crossed out (data-trap), and
// with "moves left" every resting cell its fewest moves to the goal (data-left). studio.js calls it.
"use strict";
window.StudioMarks = (function () {
  const COLOURS = ["#e0622a", "#2f7dd1", "#2e9e57", "#9b59b6", "#c0392b", "#b8860b", "#16a085", "#6c5b7b"];
  const ARROWS = { u: "\u2191", d: "\u2193", l: "\u2190", r: "\u2192" };
  const SAYS = {
    stops: "min stops: the fewest moves (slides until a rock stops you) from the start to the goal",
    strong: "strong: from every cell the player can reach, the goal can still be reached (no trap)",
    weak: "weak: some cell the player can reach is a trap (crossed out): the goal cannot be reached from it",
    unsolvable: "unsolvable: the goal cannot be reached from the start",
    reversible: "reversible: the level played backwards, goal to start, can be finished as well",
    oneway: "not reversible: played backwards, goal to start, it cannot be finished",
    options: "options: at each stop of the solution, the other moves open there, added up (real decisions)",
    rail: "rail stops: stops of the solution where at most one other move is open (a railroad)",
    fill: "free cells are the fill's: these are the bounds a fill can still reach (designer.analysis.bounds)",
    difficulty: "predicted difficulty (1-10): what a player who does not know the solution spends, by the model of a player (designer.analysis.player); 1 + 2.25 log10 of the expected moves",
  };

  function direction([r1, c1], [r2, c2]) {
    if (r1 === r2 && c1 !== c2) return c2 > c1 ? "r" : "l";
    if (c1 === c2 && r1 !== r2) return r2 > r1 ? "d" : "u";
    return null;  // a portal's jump: no arrow
  }
  function clear(board) {
    for (const el of board.querySelectorAll(".path, .trap, .trail, [data-left]")) {
      el.classList.remove("path", "trap", "trail");
      delete el.dataset.path; delete el.dataset.trap; delete el.dataset.left;
    }
    for (const mark of board.querySelectorAll(".mark")) mark.remove();
  }
  function label(el, text, kind) {
    const mark = document.createElement("span");
    mark.className = "mark " + kind;
    mark.textContent = text;
    el.appendChild(mark);
  }
  // one route over the board: its path (numbered, arrows), trail, traps, and the moves left
  function draw(board, cellOf, route, colour, movesLeft) {
    board.style.setProperty("--route", colour);
    if (!route.solvable || route.fill) return;
    const path = route.path, stops = new Set(path.map(([r, c]) => `${r},${c}`));
    path.forEach(([r, c], k) => {
      const el = cellOf(r, c), next = path[k + 1];
      el.classList.add("path");
      el.dataset.path = String(k);
      const dir = next ? direction(path[k], next) : null;
      label(el, (k ? String(k) : "") + (dir ? ARROWS[dir] : ""), "step");
      if (!dir) return;
      for (let [y, x] = [r, c]; y !== next[0] || x !== next[1];) {
        y += Math.sign(next[0] - r); x += Math.sign(next[1] - c);
        if (!stops.has(`${y},${x}`)) cellOf(y, x).classList.add("trail");
      }
    });
    for (const [r, c] of route.traps) { const el = cellOf(r, c); el.classList.add("trap"); el.dataset.trap = ""; }
    if (movesLeft) for (const [r, c, left] of route.moves_left || []) {
      const el = cellOf(r, c);
      el.dataset.left = String(left);
      if (!stops.has(`${r},${c}`)) label(el, String(left), "left");
    }
  }
  function part(text, title) {
    const span = document.createElement("span");
    span.textContent = text; span.title = title;
    return span;
  }
  // a route's figures as a line: each figure with its explanation as a tooltip
  function describe(one, colour) {
    const line = document.createElement("div");
    line.className = "route";
    line.dataset.route = one.route;
    const swatch = document.createElement("span");
    swatch.className = "swatch"; swatch.style.background = colour;
    line.append(swatch, `${one.route}: `);
    if (one.fill) {
      line.classList.add("unfilled");
      const bound = one.fill.at_most === null || one.fill.at_most === undefined ? "" : `at most ${one.fill.at_most} stops`;
      const parity = one.fill.parity ? `, ${one.fill.parity} counts only` : "";
      line.append(part(`unfilled: a fill can reach ${bound || "any count"}${parity}`, SAYS.fill));
      return line;
    }
    if (!one.solvable) { line.classList.add("bad"); line.append(part("unsolvable", SAYS.unsolvable)); return line; }
    if (!(one.class === "strong" && one.reversible)) line.classList.add("bad");
    line.append(part(`${one.min_stops} stops`, SAYS.stops), ", ", part(one.class, SAYS[one.class]), ", ",
                part(one.reversible ? "reversible" : "not reversible", one.reversible ? SAYS.reversible : SAYS.oneway), ", ",
                part(`${one.options} options`, SAYS.options), ", ", part(`${one.rail_stops} rail stops`, SAYS.rail));
    if (one.difficulty !== null && one.difficulty !== undefined) {
      line.append(", ", part(`difficulty ${one.difficulty.toFixed(1)}`, SAYS.difficulty));
      line.dataset.difficulty = String(one.difficulty);
    }
    return line;
  }
  // the plain words under the figures: what the weakest figure shown means
  function explain(routes) {
    const shown = routes.filter(one => !one.fill);
    if (!routes.length) return "";
    if (!shown.length) return "Free cells are still the fill's: press Fill, or paint them. " + SAYS.fill + ".";
    const bad = shown.find(one => !one.solvable) || shown.find(one => one.class === "weak") || shown.find(one => !one.reversible);
    if (!bad) return "Every route is strong and reversible: the player cannot get stuck, and can always go back.";
    if (!bad.solvable) return `Route ${bad.route}: ${SAYS.unsolvable}.`;
    if (bad.class === "weak") return `Route ${bad.route}: ${SAYS.weak}.`;
    return `Route ${bad.route}: ${SAYS.oneway}.`;
  }
  return { COLOURS, clear, draw, describe, explain };
})();
