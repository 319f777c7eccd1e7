/* The sliding rules, as the play page and the studio play them (docs/spec.md): one slide, and the
   first move of a fewest-moves way to the goal. They read the globals `level` ({rows, goal}) and
   `STEP` (each direction's [row, column] step), which the page that loads them defines. */
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
/* The first move of a fewest-moves way from `from` to the goal (breadth-first over the resting
   cells), with the moves that way takes; null when the goal cannot be reached from there. */
function nextMove(from) {
  if (same(from, level.goal)) return null;
  const seen = new Map([[from.join(","), null]]);
  let layer = [[from, null]], moves = 0;
  while (layer.length) {
    moves += 1;
    const next = [];
    for (const [cell, first] of layer) {
      for (const dir of "udlr") {
        const {to, cells} = slide(cell, dir);
        if (cells === 0 || seen.has(to.join(","))) continue;
        const way = first || dir;
        if (same(to, level.goal)) return {dir: way, moves};
        seen.set(to.join(","), way);
        next.push([to, way]);
      }
    }
    layer = next;
  }
  return null;
}
