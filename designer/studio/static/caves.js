// designer studio: a cave (designer.caves) opened or drawn from nothing (rooms added, doors painted
// and joined, an entrance, an exit, keys named and links locked), its floor plan and figures shown
// live, a room at a time edited on the board, the whole cave filled by the server as designer cave
// fills it, played and saved. studio.js holds the board; this file holds the cave and asks the
// server (designer.ops.caves) for everything else.
"use strict";
(function () {
  const studio = window.studio;
  const panel = document.getElementById("cave");
  const form = document.getElementById("request");
  let cave = null, current = null, name = "cave", source = null, fill = null, run = 0, filling = false;

  function room(roomName) { return cave.rooms.find(one => one.name === roomName); }
  // the plan at the window's full size on a click, back on the next click or Escape
  document.getElementById("cave-plan").addEventListener("click", () => {
    document.body.dataset.plan = document.body.dataset.plan === "full" ? "" : "full";
  });
  window.addEventListener("keydown", e => {
    if (e.key !== "Escape") return;
    document.body.dataset.plan = "";
    if (joining) { joining = null; said(""); }
  });
  const draw = document.getElementById("cave-draw");
  let doors = {}, joining = null, asked = 0;
  function said(text) { document.getElementById("cave-joining").textContent = text; }
  function doorText(roomName, number) { return `${roomName}:${number}`; }
  function showDoors() {  // the room on the board: where each of its doors leads, and what to do with it
    const box = document.getElementById("cave-doors");
    const listed = doors[current] || [], key = `${current}|${listed.map(([number]) => number).join(",")}`;
    if (box.dataset.shown === key) {  // the same doors: their words updated in place, so that a
      // click on a button is never lost to a redraw as a live plan arrives
      listed.forEach(([number, words], k) => { box.children[k].querySelector(".words").textContent = `door ${number}: ${words}`; });
      return;
    }
    box.dataset.shown = key;
    box.textContent = "";
    for (const [number, words] of listed) {
      const item = document.createElement("li");
      item.dataset.door = String(number);
      const text = document.createElement("span");
      text.className = "words";
      text.textContent = `door ${number}: ${words}`;
      item.appendChild(text);
      for (const act of ["join", "entrance", "exit", "unlink"]) {
        const button = document.createElement("button");
        button.type = "button"; button.dataset.act = act; button.textContent = act;
        button.addEventListener("click", () => doorAct(act, doorText(current, number)));
        item.appendChild(button);
      }
      box.appendChild(item);
    }
  }
  function unlink(door) {  // a door is linked or an end, never both: freed before it is given a role
    cave.links = cave.links.filter(link => link.from !== door && link.to !== door);
    if (cave.entrance === door) delete cave.entrance;
    if (cave.exit === door) delete cave.exit;
  }
  function doorAct(act, door) {
    if (act === "join") {
      if (!joining || joining === door) {
        joining = joining === door ? null : door;
        said(joining ? `joining ${door}: now "join" on a door of another room (Esc: stop)` : "");
        return;
      }
      if (joining.split(":")[0] === door.split(":")[0]) {
        said(`a link joins two rooms: pick a door of another room than ${joining.split(":")[0]}`);
        return;
      }
      unlink(joining); unlink(door);
      const link = { kind: draw.elements["link-kind"].value, from: joining, to: door };
      if (draw.elements["link-lock"].value) link.lock = draw.elements["link-lock"].value;
      cave.links.push(link);
      said(`${link.kind} ${joining} ${door}${link.lock ? " lock " + link.lock : ""}`);
      joining = null;
    } else if (act === "unlink") unlink(door);
    else { unlink(door); cave[act] = door; }
    replot();
  }
  function show(found) {  // the plan, its figures, and a button per room (the cave itself stays the page's)
    doors = found.doors || {};
    document.body.dataset.caveRefused = String((found.refused || []).length);
    panel.hidden = false;
    document.body.dataset.cave = found.draft ? "draft" : found.free ? "free" : "filled";
    document.getElementById("cave-name").textContent = name;
    document.getElementById("cave-figures").textContent = found.figures;
    const plan = document.getElementById("cave-plan");
    plan.hidden = !found.plan;
    if (found.plan) plan.src = `data:image/svg+xml;base64,${found.plan}`;
    const box = document.getElementById("cave-rooms");
    const buttons = new Map([...box.children].map(button => [button.dataset.room, button]));
    cave.rooms.forEach((one, k) => {  // a button per room, kept across redraws (a click in flight lands)
      let button = buttons.get(one.name);
      if (!button) {
        button = document.createElement("button");
        button.type = "button"; button.dataset.room = one.name;
        button.addEventListener("click", () => edit(one.name));
      }
      buttons.delete(one.name);
      button.textContent = one.name + (one.rows.some(row => row.includes("?")) ? " (free)" : "");
      button.setAttribute("aria-pressed", String(one.name === current));
      if (box.children[k] !== button) box.insertBefore(button, box.children[k] || null);
    });
    for (const gone of buttons.values()) gone.remove();
    const lock = draw.elements["link-lock"], chosen = lock.value;
    lock.textContent = "";
    for (const key of [{ name: "" }, ...(cave.keys || [])]) {
      const option = document.createElement("option");
      option.value = key.name; option.textContent = key.name || "no key";
      lock.appendChild(option);
    }
    lock.value = (cave.keys || []).some(key => key.name === chosen) ? chosen : "";
    showDoors();
  }
  function edit(roomName) {  // the room onto the board; its edits are kept in the cave as they happen
    const was = current;
    current = null;
    studio.load(room(roomName).rows);
    current = roomName;
    for (const b of document.querySelectorAll("#cave-rooms button")) b.setAttribute("aria-pressed", String(b.dataset.room === roomName));
    studio.status(`editing room ${roomName} of the cave`);
    showDoors();
    if (was && was !== roomName) replot();  // the plan with the last room's edits
  }
  let pending = null;
  studio.onEdit = () => {
    if (!cave || !current) return;
    const rows = studio.template();
    const one = room(current);
    if (rows.length === one.rows.length && rows[0].length === one.rows[0].length && rows.join("\n") !== one.rows.join("\n")) {
      one.rows = rows;
      window.clearTimeout(pending);
      pending = window.setTimeout(replot, 300);  // a door painted: its words, live
    }
  };
  async function replot() {  // the newest answer wins: one asked before it is dropped
    const mine = ++asked;
    try {
      const found = await studio.post("/api/cave/plan", { cave });
      if (mine === asked) show(found);
    } catch (err) { if (mine === asked) document.getElementById("cave-figures").textContent = err.message; }
  }
  studio.openCave = (found, fileName) => {
    name = fileName.replace(/\.[^.]*$/, "");
    current = null;
    cave = found.cave;
    show(found);
    edit(cave.rooms[0].name);
  };
  function newCave() {  // a cave from nothing: rooms added, doors painted and joined, keys named
    cave = { format: "ice-cave", version: 1, rooms: [], links: [] };
    name = "cave"; current = null; joining = null; said("");
    replot();
  }
  function addRoom() {
    const field = key => draw.elements[key].value.trim();
    const taken = new Set(cave.rooms.map(one => one.name));
    let roomName = field("room-name");
    for (let k = cave.rooms.length + 1; !roomName; k++) if (!taken.has(`r${k}`)) roomName = `r${k}`;
    const size = /^(\d+)x(\d+)$/.exec(field("room-size"));
    const at = /^(\d+),(\d+)$/.exec(field("room-at"));
    const floor = Number(field("room-floor") || "1");
    if (taken.has(roomName)) { said(`a room named ${roomName} is there already`); return; }
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(roomName)) { said("a room's name: 1 to 32 letters, digits, _ or -"); return; }
    if (!size || +size[1] < 3 || +size[2] < 3 || +size[1] > 40 || +size[2] > 40) { said("a room's size is HxW, 3x3 to 40x40"); return; }
    if (field("room-at") && !at) { said("at takes R,C: its top-left cell on its floor's plan"); return; }
    if (!Number.isInteger(floor) || floor < 1 || floor > 99) { said("floor takes a number 1 to 99"); return; }
    const [h, w] = [+size[1], +size[2]];
    const rows = Array.from({ length: h }, (_, r) => r === 0 || r === h - 1 ? "#".repeat(w) : "#" + "?".repeat(w - 2) + "#");
    const one = { name: roomName, rows };
    if (at) one.at = [+at[1], +at[2]];
    if (floor !== 1) one.floor = floor;
    cave.rooms.push(one);
    draw.elements["room-name"].value = "";
    said(`room ${roomName} added: paint its doors (the door tool), then join them`);
    replot().then(() => edit(roomName));
  }
  function addKey() {
    if (!current) { said("a key lies in a room: add one first"); return; }
    const keys = cave.keys || [];
    const keyName = draw.elements["key-name"].value.trim() || `k${keys.length + 1}`;
    if (keys.some(key => key.name === keyName)) { said(`a key named ${keyName} is there already`); return; }
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(keyName)) { said("a key's name: 1 to 32 letters, digits, _ or -"); return; }
    let cell = null;
    room(current).rows.forEach((row, r) => Array.from(row).forEach((ch, c) => {
      if (!cell && ch === "*" && !keys.some(key => key.room === current && key.cell[0] === r && key.cell[1] === c)) cell = [r, c];
    }));
    if (!cell) { said(`paint an item (*) in room ${current} first: the key lies there`); return; }
    cave.keys = [...keys, { name: keyName, room: current, cell }];
    draw.elements["key-name"].value = "";
    said(`key ${keyName} in room ${current} at ${cell[0]},${cell[1]}: lock a link with it ("locked by", then join)`);
    replot();
  }
  async function saveAs(kind) {
    try {
      const found = await studio.post("/api/cave/save", { cave, as: kind });
      if (kind === "text") studio.download(`${name}.txt`, found.text);
      else studio.download(`${name}-world.zip`, new Blob([Uint8Array.from(atob(found.base64), ch => ch.charCodeAt(0))]));
    } catch (err) { studio.progress(err.message); }
  }
  async function playCave() {
    try { studio.download(`${name}.html`, (await studio.post("/api/cave/play", { cave })).text); }
    catch (err) { studio.progress(err.message); }
  }
  document.getElementById("new-cave").addEventListener("click", newCave);
  document.getElementById("add-room").addEventListener("click", addRoom);
  document.getElementById("add-key").addEventListener("click", addKey);
  document.getElementById("play-cave").addEventListener("click", playCave);
  document.getElementById("save-cave-text").addEventListener("click", () => saveAs("text"));
  document.getElementById("save-cave-world").addEventListener("click", () => saveAs("world"));

  function number(field) { const v = form.elements[field].value.trim(); return v === "" ? null : Number(v); }
  function busy(yes) {
    filling = yes;
    document.getElementById("fill-cave").disabled = yes;
    document.getElementById("cancel-cave").disabled = !yes;
  }
  async function fillCave() {
    if (!cave || filling) return;
    busy(true);
    const mine = ++run;
    studio.progress("planning the cave");
    const request = { min_stops: number("min-stops"), max_stops: number("max-stops"),
                      time_limit: number("time-limit"), seed: number("seed") || 0 };
    try {
      const id = (await studio.post("/api/fill", { page: await studio.pageId(), cave, request })).fill;
      if (mine !== run) { studio.post(`/api/fill/${id}/cancel`, {}).catch(() => {}); return; }
      fill = id;
    } catch (err) { if (mine === run) { studio.progress(err.message); busy(false); } return; }
    source = studio.events(fill);
    source.onmessage = async e => {
      const event = JSON.parse(e.data);
      if (event.kind === "progress") { studio.progress(event.label); return; }
      done();
      if (event.kind === "done") {
        const made = JSON.parse(event.level);
        cave.rooms.forEach((one, k) => { one.rows = made.rooms[k].rows; });
        const g = made.generator || {};
        studio.progress(`cave filled: min stops ${made.analysis.min_stops}, ${g.rounds} round(s), seed ${g.seed}, ${g.seconds} s`);
        await replot();
        if (current) edit(current);
      } else studio.progress(event.kind === "failed" ? event.message : "cancelled");
    };
    source.onerror = () => { if (source && source.readyState === EventSource.CLOSED) done(); };
  }
  function done() { if (source) source.close(); source = null; fill = null; busy(false); }
  async function cancelCave() {  // at once, even while the fill is still starting
    if (!filling) return;
    run++;
    const id = fill;
    done();
    studio.progress("cancelled");
    if (id) try { await studio.post(`/api/fill/${id}/cancel`, {}); } catch (err) { /* it ended already */ }
  }
  function saveCave() { studio.download(`${name}.json`, JSON.stringify(cave, null, 1) + "\n"); }
  document.getElementById("fill-cave").addEventListener("click", fillCave);
  document.getElementById("cancel-cave").addEventListener("click", cancelCave);
  document.getElementById("save-cave").addEventListener("click", saveCave);
})();
