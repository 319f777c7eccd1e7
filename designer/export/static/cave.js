/* A cave's rules on the play page (docs/spec.md, "Caves"), after passages.js: the level is the
   cave's sheet (its rooms as floors, its links as portals), `level.items` are its keys, and
   `level.locks` lists each locked door as [row, col, key]: shut, a wall, until that key is held.
   The exit captures whatever keys are held. */
function shut(r, c, taken) {
  return (level.locks || []).some(([lr, lc, k]) => lr === r && lc === c && !(taken >> k & 1));
}
function goalOpen(t) { return true; }
