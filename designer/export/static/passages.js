/* The rules of portals, floors and wrap-around (docs/spec.md, "Portals and wrap-around"), on a page
   whose levels have them: this `slide` takes the place of rules.js's (a later declaration of a
   function wins), and reads `level.portals`, [[cell, target], ...], and `level.floors`, [[top,
   height, width, wrap], ...], besides what rules.js reads. A portal ends a slide and puts the player
   on its target; a floor that wraps takes a slide past one edge to the opposite one; a slide that
   would run round for ever is not a move. `lastPassage` holds what the last slide went through:
   the portal it fell into (null: none), whether it crossed a wrapping edge, and its `legs` for the
   page to show one after the other ({to, cells}: slide to a cell; {to, jump}: reappear there, past
   a wrapping edge; {to, vanish}: into the portal, out on its target). A slide that ends where it
   began with nothing taken is no move either. */
let lastPassage = {portal: null, wrapped: false, legs: []};
/* The floor [top, height, width, wrap] a cell lies on (a level without floors: one that does not wrap). */
function floorOf(r, c) {
  for (const f of level.floors || []) if (r >= f[0] && r < f[0] + f[1] && c < f[2]) return f;
  return [0, level.rows.length, level.rows[0].length, ""];
}
/* The target of the portal at a cell, or null. */
function portalAt(r, c) {
  for (const [cell, target] of level.portals || []) if (same(cell, [r, c])) return target;
  return null;
}
/* Whether a cell is shut to a player holding `taken` (a cave's locked door: static/cave.js). */
function shut(r, c, taken) { return false; }
/* Where a slide from `from` in direction `dir` ends, the cells it covers (0: no move) and the items
   taken after it; `lastPassage` then holds what it went through. */
function slide(from, dir, taken = 0) {
  let [r, c] = from, cells = 0, portal = null, wrapped = false, shown = 0;
  const [dr, dc] = STEP[dir], items = level.items || [], before = taken, legs = [];
  const [top, height, width, wrap] = floorOf(r, c), round = dc ? width : height;
  lastPassage = {portal: null, wrapped: false, legs: []};
  while (true) {
    let nr = r + dr, nc = c + dc, over = false;
    if (nr < top || nr >= top + height) {
      if (!wrap.includes("y")) break;
      nr = nr < top ? top + height - 1 : top; over = true;
    }
    if (nc < 0 || nc >= width) {
      if (!wrap.includes("x")) break;
      nc = nc < 0 ? width - 1 : 0; over = true;
    }
    if (!open(nr, nc) || shut(nr, nc, taken)) break;
    if (over) {  /* to the edge, then in again at the opposite one */
      legs.push({to: [r, c], cells: cells - shown}, {to: [nr, nc], jump: true});
      shown = cells + 1; wrapped = true;
    }
    r = nr; c = nc; cells += 1;
    items.forEach((item, k) => { if (same(item, [r, c])) taken = taking(taken, k); });
    const target = portalAt(r, c);
    if (target) {
      portal = [r, c];
      legs.push({to: portal, cells: cells - shown}, {to: target, vanish: true});
      [r, c] = target;
      break;
    }
    if (tileAt(r, c) === "_" || (same([r, c], level.goal) && goalOpen(taken))) break;
    if (cells > 2 * round) return {to: from, cells: 0, taken: before};  /* round for ever */
  }
  /* back where it began with nothing taken (a portal onto its own target, a round of a wrapping
     line back onto the snow it left): the player is where they were, which is no move */
  if (same([r, c], from) && taken === before) {
    lastPassage = {portal: null, wrapped: false, legs: []};
    return {to: from, cells: 0, taken: before};
  }
  if (!portal) legs.push({to: [r, c], cells: cells - shown});
  lastPassage = {portal, wrapped, legs};
  return {to: [r, c], cells, taken};
}
