// designer studio: a cave (designer.caves) opened, its floor plan shown, a room at a time edited on
// the board, and the whole cave filled by the server as designer cave fills it. studio.js holds the
// board; this file holds the cave and asks the server (designer.ops.caves) for everything else.
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
  window.addEventListener("keydown", e => { if (e.key === "Escape") document.body.dataset.plan = ""; });
  let doors = {};
  function showDoors() {  // the room on the board: where each of its doors leads
    const box = document.getElementById("cave-doors");
    box.textContent = "";
    for (const [number, words] of doors[current] || []) {
      const item = document.createElement("li");
      item.dataset.door = String(number);
      item.textContent = `door ${number}: ${words}`;
      box.appendChild(item);
    }
  }
  function show(found) {  // the plan, its figures, and a button per room
    cave = found.cave;
    doors = found.doors || {};
    document.body.dataset.caveRefused = String((found.refused || []).length);
    panel.hidden = false;
    document.body.dataset.cave = found.free ? "free" : "filled";
    document.getElementById("cave-name").textContent = name;
    document.getElementById("cave-figures").textContent = found.figures;
    document.getElementById("cave-plan").src = `data:image/svg+xml;base64,${found.plan}`;
    const box = document.getElementById("cave-rooms");
    box.textContent = "";
    for (const one of cave.rooms) {
      const button = document.createElement("button");
      button.type = "button"; button.dataset.room = one.name;
      button.textContent = one.name + (one.rows.some(row => row.includes("?")) ? " (free)" : "");
      button.setAttribute("aria-pressed", String(one.name === current));
      button.addEventListener("click", () => edit(one.name));
      box.appendChild(button);
    }
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
  studio.onEdit = () => {
    if (!cave || !current) return;
    const rows = studio.template();
    const one = room(current);
    if (rows.length === one.rows.length && rows[0].length === one.rows[0].length) one.rows = rows;
  };
  async function replot() {
    try { show(await studio.post("/api/cave/plan", { cave })); }
    catch (err) { document.getElementById("cave-figures").textContent = err.message; }
  }
  studio.openCave = (found, fileName) => {
    name = fileName.replace(/\.[^.]*$/, "");
    current = null;
    show(found);
    edit(cave.rooms[0].name);
  };

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
  function saveCave() {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(cave, null, 1) + "\n"], { type: "application/json" }));
    link.download = `${name}.json`;
    document.body.appendChild(link); link.click(); link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }
  document.getElementById("fill-cave").addEventListener("click", fillCave);
  document.getElementById("cancel-cave").addEventListener("click", cancelCave);
  document.getElementById("save-cave").addEventListener("click", saveCave);
})();
