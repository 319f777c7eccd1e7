/* A cave's rules on the play page (docs/spec.md, "Caves"), after passages.js: the level is the
   cave's sheet (its rooms as floors, its links as portals), `level.items` are its keys, and
   `level.locks` lists each locked door as [row, col, key]: shut, a wall, until that key is held.
   The exit captures whatever keys are held. */
function shut(r, c, taken) {
  return (level.locks || []).some(([lr, lc, k]) => lr === r && lc === c && !(taken >> k & 1));
}
function goalOpen(t) { return true; }
/* A label on the board at [r, c] (a room's name, a key's, where a door leads), set off the cell
   to ``side`` (below, above, left, right of it, or over the room's corner). */
function caveTag(kind, r, c, text, colour, side) {
  const tag = document.createElement("div");
  tag.className = `tag ${kind}`;
  tag.textContent = text;
  tag.style.cssText = `position:absolute;z-index:3;pointer-events:none;white-space:nowrap;font:bold ${Math.round(CELL * 0.3)}px sans-serif;` +
    `color:#fff;background:${colour};padding:1px 4px;border-radius:3px;opacity:.92`;
  const x = c * CELL, y = r * CELL;
  const at = {below: [x, y + CELL * 0.95, "translateX(-25%)"], above: [x, y, "translate(-25%, -100%)"],
              right: [x + CELL * 0.95, y + CELL * 0.3, ""], left: [x + CELL * 0.05, y + CELL * 0.3, "translateX(-100%)"],
              corner: [x + 2, y + 2, ""]}[side];
  tag.style.left = `${at[0]}px`;
  tag.style.top = `${at[1]}px`;
  if (at[2]) tag.style.transform = at[2];
  return tag;
}
/* The status of a cave: the room the player is in, and the keys held by name. */
function caveStatus(taken) {
  let room = (level.rooms || [])[0];
  for (const one of level.rooms || []) if (one[0] <= pos[0]) room = one;
  const held = level.keys.filter((name, k) => taken >> k & 1);
  document.body.dataset.room = room ? room[1] : "";
  return `Room ${room ? room[1] : "?"} \u00b7 keys: ${held.length ? held.join(", ") : "none"} of ${level.keys.length}`;
}
