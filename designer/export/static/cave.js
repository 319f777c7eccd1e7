/* A cave's rules on the play page (docs/spec.md, "Caves"), after passages.js: the level is the
   cave's sheet (its rooms as floors, its links as portals), `level.items` are its keys, and
   `level.locks` lists each locked door as [row, col, key]: shut, a wall, until that key is held.
   The exit captures whatever keys are held. */
function shut(r, c, taken) {
  return (level.locks || []).some(([lr, lc, k]) => lr === r && lc === c && !has(taken, k));
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
  const held = level.keys.filter((name, k) => has(taken, k));
  document.body.dataset.room = room ? room[1] : "";
  return `Room ${room ? room[1] : "?"} \u00b7 keys: ${held.length ? held.join(", ") : "none"} of ${level.keys.length}`;
}
/* One room at a time (the page's default for a cave; V or the "whole cave" button shows the whole
   sheet): the board is clipped to the rows of the room the player is in, scaled to fit the
   screen, and it slides to the next room when the player goes through a link. A minimap of the
   floor plan (`level.plan`: [name, floor, row, col, rows, cols] per room, as the plan picture
   lays the rooms out) marks the rooms seen and the one the player is in. */
let caveView = "room";
const roomsSeen = new Set();
function roomAt(r) {
  let room = level.rooms[0];
  for (const one of level.rooms) if (one[0] <= r) room = one;
  return room;
}
function roomBand() {  /* [first sheet row, rows, name] of the player's room */
  const room = roomAt(pos[0]), k = level.rooms.indexOf(room);
  const end = k + 1 < level.rooms.length ? level.rooms[k + 1][0] : level.kinds.length;
  return [room[0], end - room[0], room[1]];
}
function minimap(here) {
  let box = $("minimap");
  if (!box) {
    box = document.createElement("div");
    box.id = "minimap";
    box.setAttribute("aria-label", "The floor plan: the rooms seen, and the one you are in");
    box.style.cssText = "display:flex;gap:10px;justify-content:center;margin:4px 0 0;font-size:11px;color:#55616d";
    $("top").appendChild(box);
  }
  roomsSeen.add(here);
  const plan = level.plan || [], floors = [...new Set(plan.map((p) => p[1]))].sort((a, b) => a - b);
  const wide = Math.max(...floors.map((f) => Math.max(...plan.filter((p) => p[1] === f).map((p) => p[3] + p[5]))));
  const tall = Math.max(...plan.map((p) => p[2] + p[4]));
  const unit = Math.max(1.5, Math.min(5, (document.documentElement.clientWidth - 40) / (floors.length * wide + 4),
                                         56 / tall));
  box.textContent = "";
  for (const floor of floors) {
    const panel = document.createElement("div");
    panel.dataset.floor = String(floor);
    panel.style.cssText = `position:relative;width:${wide * unit}px;height:${tall * unit + 13}px`;
    panel.textContent = `floor ${floor}`;
    for (const [name, f, r, c, h, w] of plan) {
      if (f !== floor) continue;
      const room = document.createElement("div");
      room.dataset.room = name;
      if (roomsSeen.has(name)) room.dataset.seen = "true";
      if (name === here) room.dataset.here = "true";
      room.title = name;
      room.style.cssText = `position:absolute;left:${c * unit}px;top:${13 + r * unit}px;width:${w * unit - 1}px;` +
        `height:${h * unit - 1}px;box-sizing:border-box;border:1px solid #55616d;` +
        `background:${name === here ? "#d9433b" : roomsSeen.has(name) ? "#9ec5e0" : "#fff"}`;
      panel.appendChild(room);
    }
    box.appendChild(panel);
  }
}
function caveViewButton() {
  if ($("view")) return;
  const button = document.createElement("button");
  button.id = "view"; button.type = "button";
  button.addEventListener("click", () => { switchView(); button.blur(); });
  $("bar").appendChild(button);
  document.addEventListener("keydown", (e) => { if ((e.key === "v" || e.key === "V") && level.cave) switchView(); });
}
function switchView() {
  caveView = caveView === "room" ? "whole" : "room";
  fit(); follow(); show();
}
