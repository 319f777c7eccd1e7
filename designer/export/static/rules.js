/* The sliding rules, as the play page and the studio play them (docs/spec.md): one slide, and the
   first move of a fewest-moves way to the goal. They read the globals `level` ({rows, goal}, and
   `items`, the cells of its items, when it has any; `portals`, [[cell, target], ...], and
   `floors`, [[top, height, width, wrap], ...], when it has them) and `STEP` (each direction's
   [row, column] step), which the page that loads them defines. `taken` is the bitmask of the items
   taken (bit k: level.items[k]); the goal captures only once every item is taken. A portal ends
   a slide and puts the player on its target; a floor that wraps takes a slide past one edge to
   the opposite one, and a slide that would run round for ever is not a move. */
function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }
function tileAt(r, c) { return level.rows[r][c]; }
function open(r, c) {
  return r >= 0 && c >= 0 && r < level.rows.length && c < level.rows[0].length && tileAt(r, c) !== "#";
}
/* The bitmask of every item of the level (0: none). */
function allTaken() { return (1 << (level.items || []).length) - 1; }
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
/* Where a slide from `from` in direction `dir` ends, the cells it covers (0: no move), the items
   taken after it (an item is taken by sliding over it or stopping on it), the portal it fell
   into (null: none) and whether it crossed a wrapping edge. */
function slide(from, dir, taken = 0) {
  let [r, c] = from, cells = 0, portal = null, wrapped = false;
  const [dr, dc] = STEP[dir], items = level.items || [], all = allTaken(), before = taken;
  const [top, height, width, wrap] = floorOf(r, c), round = dc ? width : height;
  while (true) {
    let nr = r + dr, nc = c + dc;
    if (nr < top || nr >= top + height) {
      if (!wrap.includes("y")) break;
      nr = nr < top ? top + height - 1 : top; wrapped = true;
    }
    if (nc < 0 || nc >= width) {
      if (!wrap.includes("x")) break;
      nc = nc < 0 ? width - 1 : 0; wrapped = true;
    }
    if (!open(nr, nc)) break;
    r = nr; c = nc; cells += 1;
    items.forEach((item, k) => { if (same(item, [r, c])) taken |= 1 << k; });
    const target = portalAt(r, c);
    if (target) { portal = [r, c]; [r, c] = target; break; }
    if (tileAt(r, c) === "_" || (same([r, c], level.goal) && taken === all)) break;
    if (cells > 2 * round) return {to: from, cells: 0, taken: before, portal: null, wrapped: false};  /* round for ever */
  }
  return {to: [r, c], cells, taken, portal, wrapped};
}
/* The first move of a fewest-moves way from `from` (with the items `taken`) to the goal
   (breadth-first over the resting cells and the items taken), with the moves that way takes; null
   when the goal cannot be reached from there. */
function nextMove(from, taken = 0) {
  const all = allTaken(), key = (cell, t) => `${cell.join(",")},${t}`;
  if (same(from, level.goal) && taken === all) return null;
  const seen = new Map([[key(from, taken), null]]);
  let layer = [[from, taken, null]], moves = 0;
  while (layer.length) {
    moves += 1;
    const next = [];
    for (const [cell, got, first] of layer) {
      for (const dir of "udlr") {
        const {to, cells, taken: now} = slide(cell, dir, got);
        if (cells === 0 || seen.has(key(to, now))) continue;
        const way = first || dir;
        if (same(to, level.goal) && now === all) return {dir: way, moves};
        seen.set(key(to, now), way);
        next.push([to, now, way]);
      }
    }
    layer = next;
  }
  return null;
}
