/* The sliding rules, as the play page and the studio play them (docs/spec.md): one slide, and the
   first move of a fewest-moves way to the goal. They read the globals `level` ({rows, goal}, and
   `items`, the cells of its items, when it has any) and `STEP` (each direction's [row, column]
   step), which the page that loads them defines. `taken` is the bitmask of the items taken (bit k:
   level.items[k]); the goal captures only once every item is taken. A level with coins lists them
   after its items in `level.items`, from `level.coin_from` on: they are taken alike, and the goal
   never waits for them. Up to 40 items and coins (the designer's 8 and 32): a mask is a plain
   number, exact to 2^53, read and written by `has` and `taking` (JavaScript's bitwise operators
   keep 32 bits). */
function same(a, b) { return a[0] === b[0] && a[1] === b[1]; }
function tileAt(r, c) { return level.rows[r][c]; }
function open(r, c) {
  return r >= 0 && c >= 0 && r < level.rows.length && c < level.rows[0].length && tileAt(r, c) !== "#";
}
/* Whether the mask `t` holds thing k; the mask with thing k taken too. */
function has(t, k) { return Math.floor(t / 2 ** k) % 2 === 1; }
function taking(t, k) { return has(t, k) ? t : t + 2 ** k; }
/* The bitmask of every item of the level (0: none); its coins are the bits above. */
function allTaken() { return 2 ** itemCount() - 1; }
function itemCount() { return level.coin_from === undefined ? (level.items || []).length : level.coin_from; }
/* The bitmask of every item and coin: what a full clear takes. */
function allThings() { return 2 ** (level.items || []).length - 1; }
/* Whether the goal captures a player holding the items `t` (a cave's exit: whatever keys are held). */
function goalOpen(t) { return t % 2 ** itemCount() === allTaken(); }
/* Where a slide from `from` in direction `dir` ends, the cells it covers (0: no move) and the items
   taken after it (an item is taken by sliding over it or stopping on it). */
function slide(from, dir, taken = 0) {
  let [r, c] = from, cells = 0;
  const [dr, dc] = STEP[dir], items = level.items || [];
  while (open(r + dr, c + dc)) {
    r += dr; c += dc; cells += 1;
    items.forEach((item, k) => { if (same(item, [r, c])) taken = taking(taken, k); });
    if (tileAt(r, c) === "_" || (same([r, c], level.goal) && goalOpen(taken))) break;
  }
  return {to: [r, c], cells, taken};
}
/* The first move of a fewest-moves way from `from` (with the items `taken`) to the goal
   (breadth-first over the resting cells and the items taken), with the moves that way takes; null
   when the goal cannot be reached from there. With `full`, a way that takes every coin first
   (a full clear), or null when none is found within `most` states. */
function nextMove(from, taken = 0, full = false, most = LIMITS.page_states) {
  const kept = full ? allThings() + 1 : allTaken() + 1;  /* on the way to the exit, coins make no state */
  const key = (cell, t) => `${cell.join(",")},${t % kept}`;
  const done = (t) => !full || t === allThings();
  if (same(from, level.goal) && goalOpen(taken)) return null;
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
        if (same(to, level.goal) && goalOpen(now)) {
          if (done(now)) return {dir: way, moves};
          continue;  /* into the exit with coins left: the game ends there */
        }
        if (seen.size > most) return null;
        seen.set(key(to, now), way);
        next.push([to, now, way]);
      }
    }
    layer = next;
  }
  return null;
}
