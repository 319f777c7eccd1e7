// designer studio: paint a room, lock what you paint, let the solver fill the rest (designer.studio).
// Every figure comes from the server (designer.ops): this page paints, asks and shows.
"use strict";
// What rules.js (the play page's sliding rules, one copy) reads: the level played, and the steps of
// the four directions, which the play page's own script defines beside it.
window.level = null;
window.STEP = { u: [-1, 0], d: [1, 0], l: [0, -1], r: [0, 1] };
(function () {
  const Marks = window.StudioMarks;  // marks.js: the route over the board, the figures in words
  const board = document.getElementById("board");
  const form = document.getElementById("request");
  const figuresBox = document.getElementById("figures");
  const progressBox = document.getElementById("progress");
  const statusBox = document.getElementById("status");
  // The token: from the address designer studio printed (or its redirect file) into this tab's
  // session storage, which belongs to this server's origin alone (no cookie: a browser sends a
  // cookie to every port of the host); then out of the address bar and the history.
  const TOKEN = (() => {
    const given = new URLSearchParams(location.search).get("token") || new URLSearchParams(location.hash.slice(1)).get("token");
    if (given) {
      sessionStorage.setItem("designer-studio-token", given);
      window.history.replaceState(null, "", location.pathname);
    }
    return sessionStorage.getItem("designer-studio-token") || "";
  })();
  let page = null;  // the promise of this page's id, made by the server (pageId)
  const TOOLS = { ice: ".", rock: "#", snow: "_", free: "?", start: "S", goal: "G", item: "*", coin: "$" };
  const MAX_SIDE = 40;
  let height = 0, width = 0, tiles = [], locked = [], tool = "rock";
  let history = [], future = [], pending = null, fill = null, source = null, lastSeed = null;
  let edits = 0;  // numbers the live figures' calls
  let run = 0;  // counts fills started and cancelled: a cancel while a fill starts wins over its answer

  function snapshot() { return { tiles: tiles.map(r => r.slice()), locked: locked.map(r => r.slice()) }; }
  function restore(s) {
    const resized = s.tiles.length !== height || s.tiles[0].length !== width;
    tiles = s.tiles.map(r => r.slice()); locked = s.locked.map(r => r.slice());
    height = tiles.length; width = tiles[0].length;
    if (resized) build(); else drawAll();
    refresh();
  }
  function remember() { history.push(snapshot()); if (history.length > 200) history.shift(); future = []; }
  function undo() { if (history.length) { future.push(snapshot()); restore(history.pop()); } }
  function redo() { if (future.length) { history.push(snapshot()); restore(future.pop()); } }

  function border(r, c) { return r === 0 || c === 0 || r === height - 1 || c === width - 1; }
  function newRoom(h, w) {  // a rock frame around free cells, as make --size poses it
    height = h; width = w;
    tiles = []; locked = [];
    for (let r = 0; r < h; r++) {
      tiles.push([]); locked.push([]);
      for (let c = 0; c < w; c++) { tiles[r].push(border(r, c) ? "#" : "?"); locked[r].push(border(r, c)); }
    }
    build(); refresh();
  }
  function cellOf(r, c) { return board.children[r * width + c]; }
  function draw(r, c) {
    const el = cellOf(r, c), ch = tiles[r][c];
    el.dataset.tile = ch;
    if (locked[r][c]) el.dataset.locked = ""; else delete el.dataset.locked;
    el.textContent = "SG".includes(ch) || /[1-9]/.test(ch) ? ch : "";
    el.classList.toggle("door", /[1-9]/.test(ch));
  }
  function fit() {  // the board fits the window: beside the tools and the panel on a wide screen, alone on a phone
    const narrow = window.innerWidth <= 600;
    const across = narrow ? window.innerWidth - 20 : window.innerWidth - 420;
    const down = narrow ? Infinity : window.innerHeight - 90;
    const cell = Math.max(8, Math.min(30, Math.floor(Math.min(across / width, down / height)) - 1));
    document.documentElement.style.setProperty("--cell", cell + "px");
  }
  window.addEventListener("resize", () => { if (width) fit(); });
  function drawAll() { for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) draw(r, c); }
  function build() {
    board.textContent = "";
    fit();
    board.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) {
      const el = document.createElement("div");
      el.className = "cell"; el.dataset.cell = `${r},${c}`;
      board.appendChild(el);
    }
    drawAll();
  }

  function charOfTool() {
    if (tool === "door") return document.getElementById("door-number").value;
    return TOOLS[tool];
  }
  function clearOther(ch) {  // one S, one G, one door of each number
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) if (tiles[r][c] === ch) {
      tiles[r][c] = border(r, c) ? "#" : "?"; locked[r][c] = border(r, c); draw(r, c);
    }
  }
  function paint(r, c) {
    const ch = charOfTool();
    if (tiles[r][c] === ch && locked[r][c] === (ch !== "?")) return false;
    if ("SG".includes(ch) || /[1-9]/.test(ch)) clearOther(ch);
    tiles[r][c] = ch; locked[r][c] = ch !== "?";  // what the user paints is locked; free is the solver's
    draw(r, c);
    return true;
  }
  let painting = false, changed = false;
  board.addEventListener("pointerdown", e => {
    const el = e.target.closest(".cell");
    if (!el || document.body.dataset.state !== "editing") return;
    painting = true; changed = false; remember();
    const [r, c] = el.dataset.cell.split(",").map(Number);
    changed = paint(r, c) || changed;
    if (changed) refresh();
    e.preventDefault();
  });
  board.addEventListener("pointermove", e => {  // a touch's pointer stays with the cell it began on: ask the point
    if (!painting) return;
    const at = document.elementFromPoint(e.clientX, e.clientY);
    const el = at && at.closest(".cell");
    if (!el || !board.contains(el)) return;
    const [r, c] = el.dataset.cell.split(",").map(Number);
    if (paint(r, c)) { changed = true; refresh(); }
  });
  window.addEventListener("pointerup", () => { if (painting && !changed) history.pop(); painting = false; });

  // --- open and save: files go through the server (designer.ops.sketches), and come back as downloads ---
  let openedMap = null, openedName = "room";
  function download(name, text) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/octet-stream" }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }
  async function openFile(file) {
    const text = await file.text();
    try {
      const found = await post("/api/open", { name: file.name, text });
      if (found.kind === "cave") { window.studio.openCave(found, file.name); return; }  // caves.js
      remember();
      tiles = found.rows.map(r => Array.from(r));
      locked = tiles.map(r => r.map(ch => ch !== "?"));  // what the file draws is locked; ? is the solver's
      height = tiles.length; width = tiles[0].length;
      form.elements["size"].value = `${height}x${width}`;
      openedName = file.name.replace(/\.[^.]*$/, "");
      openedMap = found.kind === "map" ? (text.trim().startsWith("<") ? text : JSON.parse(text)) : null;
      document.getElementById("save-map").disabled = openedMap === null;
      window.lastLevel = null;
      statusBox.textContent = `opened ${file.name} (${found.kind})`;
      build(); refresh();
    } catch (err) { statusBox.textContent = err.message; }
  }
  async function save(kind) {
    try {
      if (kind === "template") { download(`${openedName}-template.txt`, template().join("\n") + "\n"); return; }
      const same = window.lastLevel && window.lastLevel.rows.join("\n") === rows().join("\n");
      if (kind === "level" && same) {  // the fill's level, with its generator record (make --from)
        download(`${openedName}.json`, JSON.stringify(window.lastLevel, null, 2) + "\n");
        return;
      }
      const found = await post("/api/save", { as: kind, rows: rows(), map: openedMap });
      const mapSuffix = typeof openedMap === "string" ? "tmx" : "tmj";  // the map's own format
      download(kind === "map" ? `${openedName}-filled.${mapSuffix}` : `${openedName}.json`, found.text);
    } catch (err) { statusBox.textContent = err.message; }
  }

  // --- the move graph, pictures and a pack: drawn and written by the server, as render and play do ---
  const pack = [];
  function pictureOf(format, extra) { return post("/api/picture", { rows: rows(), format, ...extra }); }
  async function showGraph() {
    const view = document.getElementById("graph-view");
    if (!document.getElementById("graph").checked) { view.hidden = true; return; }
    if (rows().some(r => r.includes("?"))) { view.hidden = true; statusBox.textContent = "fill the free cells to draw the move graph"; return; }
    try {
      const found = await pictureOf("svg", { graph: true });
      view.src = `data:${found.mime};base64,${found.base64}`;
      view.hidden = false;
    } catch (err) { view.hidden = true; statusBox.textContent = err.message; }
  }
  async function exportPicture(format) {
    try {
      const found = await pictureOf(format, { solution: true });
      const bytes = Uint8Array.from(atob(found.base64), ch => ch.charCodeAt(0));
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([bytes], { type: found.mime }));
      link.download = `${openedName}.${format}`;
      document.body.appendChild(link); link.click(); link.remove();
    } catch (err) { statusBox.textContent = err.message; }
  }
  async function exportTiled() {
    try {
      const found = await post("/api/tiled", { rows: rows() });
      download(`${openedName}.tmj`, found.map);
      const bytes = Uint8Array.from(atob(found.image), ch => ch.charCodeAt(0));
      download(found.image_name, new Blob([bytes], { type: "image/png" }));
    } catch (err) { statusBox.textContent = err.message; }
  }
  function addToPack() {
    if (rows().some(r => r.includes("?"))) { statusBox.textContent = "fill the free cells first"; return; }
    pack.push({ name: `level-${String(pack.length + 1).padStart(3, "0")}`, rows: rows() });
    document.getElementById("pack-count").textContent = String(pack.length);
    document.getElementById("export-pack").disabled = false;
    document.getElementById("playtest").disabled = false;
  }
  async function exportPack() {
    try { download("pack.html", (await post("/api/pack", { levels: pack })).text); }
    catch (err) { statusBox.textContent = err.message; }
  }

  // --- a playtest: the pack's page served here, its players' lines arriving as they play ----------
  let playtest = null, watching = 0;
  async function startPlaytest() {
    try {
      const found = await post("/api/playtest", { levels: pack });
      playtest = found.playtest;
      const link = document.getElementById("playtest-link");
      link.href = found.url;
      link.textContent = new URL(found.url, window.location.href).href;
      document.getElementById("playtest-view").hidden = false;
      document.getElementById("playtest-report").textContent = "";
      document.getElementById("playtest-count").textContent = "no player yet";
      window.clearInterval(watching);
      watching = window.setInterval(watchPlaytest, 1500);
    } catch (err) { statusBox.textContent = err.message; }
  }
  async function watchPlaytest() {
    if (!playtest) return;
    try {
      const found = await post(`/api/playtest/${playtest}/figures`, {});
      const view = document.getElementById("playtest-view");
      view.dataset.lines = String(found.lines);
      document.getElementById("playtest-count").textContent =
        `${found.visits} visit${found.visits === 1 ? "" : "s"}, ${found.lines} line${found.lines === 1 ? "" : "s"} so far`;
      const list = document.getElementById("playtest-report");
      list.textContent = "";
      for (const line of found.report) {
        const item = document.createElement("li");
        item.textContent = line;
        list.appendChild(item);
      }
    } catch (err) { document.getElementById("playtest-count").textContent = err.message; }
  }
  async function savePlaytest(what, name) {
    if (!playtest) return;
    try { download(name, (await post(`/api/playtest/${playtest}/${what}`, {})).text); }
    catch (err) { statusBox.textContent = err.message; }
  }

  // --- fills kept side by side (up to 6): click one to take it ------------------------------------
  const kept = [];
  function keep(level) {
    kept.unshift(level);
    kept.length = Math.min(kept.length, 6);
    const box = document.getElementById("results");
    box.textContent = "";
    kept.forEach((one, k) => {
      const item = document.createElement("button");
      item.type = "button"; item.className = "result"; item.dataset.result = String(k);
      const mini = document.createElement("div");
      mini.className = "mini";
      mini.style.gridTemplateColumns = `repeat(${one.rows[0].length}, 5px)`;
      for (const row of one.rows) for (const ch of row) {
        const cell = document.createElement("span");
        cell.dataset.tile = ch;
        if (/[SG1-9]/.test(ch)) cell.className = "end";
        mini.appendChild(cell);
      }
      const a = one.analysis || {};  // a room's analysis has its routes; its stops: the shortest's
      const stops = a.routes ? Math.min(...a.routes.map(route => route.min_stops)) : a.min_stops;
      item.append(mini, `seed ${one.generator.seed}: ${stops ?? "?"} stops`);
      item.addEventListener("click", () => take(one));
      box.appendChild(item);
    });
  }
  function take(level) {
    if (level.rows.length !== height || level.rows[0].length !== width) return;
    remember();
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++)
      if (!locked[r][c]) { tiles[r][c] = level.rows[r][c]; draw(r, c); }
    window.lastLevel = level;
    refresh();
  }

  function rows() { return tiles.map(r => r.join("")); }
  function template() { return tiles.map((r, i) => r.map((ch, j) => locked[i][j] ? ch : "?").join("")); }

  async function post(path, body, signal) {  // every error as one plain sentence
    let response;
    try {
      response = await fetch(path, { method: "POST", body: JSON.stringify(body), signal,
                                     headers: { "Content-Type": "application/json", "X-Studio-Token": TOKEN } });
    } catch (err) {
      if (err.name === "AbortError") throw err;
      throw new Error("the studio does not answer: is designer studio still running?");
    }
    let data = null;
    try { data = await response.json(); } catch (err) { /* not JSON: said below */ }
    if (!response.ok || data === null) throw new Error((data && data.error) || `the studio answered ${response.status}`);
    return data;
  }
  function pageId() {  // asked once, however many calls wait for it
    if (!page) page = post("/api/page", {}).then(found => found.page).catch(err => { page = null; throw err; });
    return page;
  }
  function events(fillId) { return new EventSource(`/api/fill/${fillId}/events?token=${encodeURIComponent(TOKEN)}`); }

  // --- play in place: the play page's rules (rules.js: slide, nextMove) on this grid -------------
  let play = null, lastFigures = null;
  const STEP_KEYS = { ArrowUp: "u", ArrowDown: "d", ArrowLeft: "l", ArrowRight: "r", w: "u", s: "d", a: "l", d: "r" };
  const WORDS = { u: "up", d: "down", l: "left", r: "right" };
  function playStatus(text) { document.getElementById("play-status").textContent = text; }
  function starsFor(moves) {
    if (!play.stars) return 0;
    return moves <= play.par ? 3 : moves <= play.stars.two ? 2 : moves <= play.stars.one ? 1 : 0;
  }
  function showPlayer() {
    for (const el of board.querySelectorAll(".player")) el.classList.remove("player");
    cellOf(play.pos[0], play.pos[1]).classList.add("player");
    const body = document.body.dataset;
    body.moves = String(play.history.length);
    window.level.items.forEach(([r, c], k) => cellOf(r, c).classList.toggle("taken", Boolean(play.taken >> k & 1)));
    body.items = String(window.level.items.filter((item, k) => !(play.taken >> k & 1)).length);
    if (play.solved) {
      const stars = play.assisted ? 0 : starsFor(play.history.length);
      body.stars = String(stars);
      playStatus(play.assisted ? `solved by the solver in ${play.history.length} (par ${play.par})`
                               : `solved in ${play.history.length} (par ${play.par}) ` + "\u2605".repeat(stars) + "\u2606".repeat(3 - stars));
    } else {
      delete body.stars;
      if (!body.hint) playStatus(`route ${play.route}: ${play.history.length} moves (par ${play.par})`);
    }
  }
  function startPlay() {
    const routes = lastFigures ? lastFigures.routes : [];
    const one = routes[Number(document.getElementById("play-route").value) || 0];
    if (!one) { playStatus("paint a start and a goal, or doors, to play"); return; }
    if (!one.solvable) { playStatus(`route ${one.route} has no way to its goal: nothing to play`); return; }
    window.level = { rows: tiles.map(r => r.map(ch => ch === "#" || ch === "_" ? ch : ".").join("")), goal: one.goal,
                     items: one.items.map(item => item.cell) };
    play = { route: one.route, pos: one.start, start: one.start, taken: 0, history: [], solved: false, assisted: false,
             par: one.min_stops, stars: one.stars };
    setState("playing");
    Marks.clear(board);
    document.body.dataset.hint = "";
    showPlayer();
  }
  function stopPlay() {
    play = null;
    for (const el of board.querySelectorAll(".player, .taken")) el.classList.remove("player", "taken");
    for (const key of ["moves", "stars", "hint", "items"]) delete document.body.dataset[key];
    playStatus("");
    setState("editing");
    drawMarks();
  }
  function step(dir) {
    if (!play || play.solved) return;
    const { to, cells, taken } = slide(play.pos, dir, play.taken);
    if (cells === 0) return;  // not a move
    document.body.dataset.hint = "";
    play.history.push([play.pos, play.taken]);
    play.pos = to;
    play.taken = taken;
    play.solved = same(to, window.level.goal) && taken === allTaken();  // the exit opens once every item is taken
    showPlayer();
  }
  function hint() {
    const next = nextMove(play.pos, play.taken);
    document.body.dataset.hint = next ? next.dir : "none";
    playStatus(next ? `hint: ${WORDS[next.dir]} (${next.moves} moves to the goal from here)` : "no way to the goal from here");
  }
  function solveRest() {
    play.assisted = true;
    for (let next = nextMove(play.pos, play.taken); next && !play.solved; next = nextMove(play.pos, play.taken)) step(next.dir);
  }
  let swipe = null;  // a touch's start while playing: a swipe of 24 px or more is a move
  board.addEventListener("touchstart", e => { if (play) swipe = [e.touches[0].clientX, e.touches[0].clientY]; },
                         { passive: true });
  board.addEventListener("touchend", e => {
    if (!play || !swipe) return;
    const dx = e.changedTouches[0].clientX - swipe[0], dy = e.changedTouches[0].clientY - swipe[1];
    swipe = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
    step(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "r" : "l") : (dy > 0 ? "d" : "u"));
  });
  function lockAll(lock) {  // lock every painted cell, or unlock every cell inside the frame but the ends, doors, items
    remember();
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) {
      const keep = border(r, c) || /[SG1-9*$]/.test(tiles[r][c]);
      locked[r][c] = tiles[r][c] !== "?" && (lock || keep);
    }
    drawAll(); refresh();
  }
  function onPlayKey(e) {
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (STEP_KEYS[key]) step(STEP_KEYS[key]);
    else if (key === "h") hint();
    else if (key === "Enter") solveRest();
    else if (key === "u" && play.history.length && !play.solved) { [play.pos, play.taken] = play.history.pop(); showPlayer(); }
    else if (key === "r") { play.pos = play.start; play.taken = 0; play.history = []; play.solved = play.assisted = false; showPlayer(); }
    else if (key === "Escape") stopPlay();
    else return;
    e.preventDefault();
  }
  function fillRoutes(routes) {
    const select = document.getElementById("play-route"), kept = select.value;
    select.textContent = "";
    routes.forEach((one, k) => { const option = new Option(one.route, String(k)); select.add(option); });
    if (kept && Number(kept) < routes.length) select.value = kept;
  }

  function refresh() {  // the live figures, after every edit: the newer call supersedes the older, in the server too
    if (window.studio.onEdit) window.studio.onEdit();
    statusBox.textContent = "";  // an edit makes the last action's line stale
    if (pending) pending.abort();
    const mine = pending = new AbortController();
    document.body.dataset.figures = "working";
    const slow = setTimeout(() => { if (pending === mine) figuresBox.classList.add("working"); }, 150);
    const edit = ++edits, grid = rows();  // numbered: calls may reach the server out of order
    pageId().then(id => post("/api/figures", { page: id, edit, rows: grid }, mine.signal)).then(found => {
      if (pending !== mine) return;
      show(found);
      document.body.dataset.figures = "ready";
    }).catch(err => {
      if (err.name === "AbortError" || pending !== mine) return;
      figuresBox.textContent = err.message;
      document.body.dataset.figures = "failed";
    }).finally(() => { clearTimeout(slow); if (pending === mine) figuresBox.classList.remove("working"); });
  }
  function show(found) {
    lastFigures = found;
    fillRoutes(found.routes);
    const body = document.body.dataset, routes = found.routes;
    const explainBox = document.getElementById("explain");
    figuresBox.textContent = "";
    explainBox.textContent = Marks.explain(routes);
    if (!routes.length) {
      Object.assign(body, { minStops: "none", class: "unsolvable", reversible: "false" });
      figuresBox.textContent = found.note || "";
      Marks.clear(board);
      return;
    }
    const judged = routes.filter(one => !one.fill);
    if (!judged.length) Object.assign(body, { minStops: "none", class: "unfilled", reversible: "false" });
    else {
      const rank = { unsolvable: 0, weak: 1, strong: 2 };
      const worst = judged.reduce((a, b) => rank[b.class] < rank[a.class] ? b : a);
      const stops = judged.every(one => one.solvable) ? Math.min(...judged.map(one => one.min_stops)) : "none";
      Object.assign(body, { minStops: String(stops), class: worst.class,
                            reversible: String(judged.every(one => one.reversible)) });
    }
    routes.forEach((one, k) => {
      const line = Marks.describe(one, Marks.COLOURS[k % Marks.COLOURS.length]);
      line.addEventListener("click", () => { document.getElementById("play-route").value = String(k); drawMarks(); });
      figuresBox.appendChild(line);
    });
    drawMarks();
    showGraph();
  }
  function drawMarks() {  // the route chosen (beside play), over the board; the others' traps too
    Marks.clear(board);
    const routes = lastFigures ? lastFigures.routes : [];
    const k = Number(document.getElementById("play-route").value) || 0;
    if (!routes[k] || play) return;
    for (const line of figuresBox.querySelectorAll(".route")) line.classList.toggle("chosen", line.dataset.route === routes[k].route);
    Marks.draw(board, cellOf, routes[k], Marks.COLOURS[k % Marks.COLOURS.length], document.getElementById("moves-left").checked);
    routes.forEach((one, other) => {
      if (other !== k && one.solvable && !one.fill) for (const [r, c] of one.traps) {
        cellOf(r, c).classList.add("trap"); cellOf(r, c).dataset.trap = "";
      }
    });
  }

  function number(name) { const v = form.elements[name].value.trim(); return v === "" ? null : Number(v); }
  function request(seed) {
    const routes = form.elements["route"].value.split(",").map(s => s.trim()).filter(Boolean);
    return { min_stops: number("min-stops"), max_stops: number("max-stops"), max_rocks: number("max-rocks"),
             snow: number("snow"), min_choices: number("min-choices"), items: number("items"), coins: number("coins"),
             time_limit: number("time-limit"),
             seed: seed, method: form.elements["method"].value, routes: routes.length ? routes : null,
             tidy: form.elements["tidy"].checked, maximize: form.elements["maximize"].checked,
             maximize_choices: form.elements["maximize-choices"].checked, unique: form.elements["unique"].checked };
  }
  // the fill's progress in plain words: the time spent and left, and what the search has now
  const clock = {
    timer: null, began: 0, limit: null, label: "",
    start(limit) { this.began = performance.now(); this.limit = limit; this.label = ""; this.show();
                   clearInterval(this.timer); this.timer = setInterval(() => this.show(), 1000); },
    say(label) { this.label = label.replace(/^level \d+: /, ""); this.show(); },
    stop() { clearInterval(this.timer); this.timer = null; },
    show() {
      const spent = Math.round((performance.now() - this.began) / 1000);
      const left = this.limit ? `, at most ${Math.max(0, Math.round(this.limit - spent))} s left` : "";
      progressBox.textContent = `Filling: ${spent} s spent${left}` + (this.label ? `. Now: ${this.label}` : ". Starting.");
    },
  };
  function setState(state) {
    if (state !== "filling") clock.stop();
    document.body.dataset.state = state;
    document.getElementById("cancel").disabled = state !== "filling";
    document.getElementById("fill").disabled = document.getElementById("again").disabled = state !== "editing";
    document.getElementById("play").textContent = state === "playing" ? "edit" : "play";
    document.getElementById("play").disabled = state === "filling";
  }
  async function startFill(seed) {
    if (document.body.dataset.state === "filling") return;
    setState("filling");
    clock.start(number("time-limit"));
    lastSeed = seed;
    const mine = ++run;
    try {
      const found = await post("/api/check", { rows: template(), request: request(seed) });
      if (mine !== run) return;
      if (!found.ok) { progressBox.textContent = "proven infeasible: " + found.infeasible; setState("editing"); return; }
      const id = (await post("/api/fill", { page: await pageId(), rows: template(), request: request(seed) })).fill;
      if (mine !== run) { post(`/api/fill/${id}/cancel`, {}).catch(() => {}); return; }
      fill = id;
    } catch (err) { if (mine === run) { progressBox.textContent = err.message; setState("editing"); } return; }
    source = events(fill);
    source.onmessage = e => {
      const event = JSON.parse(e.data);
      if (event.kind === "progress") { clock.say(event.label); return; }
      finish();
      if (event.kind === "done") apply(JSON.parse(event.level));
      else if (event.kind === "failed") progressBox.textContent = event.message;
      else progressBox.textContent = "cancelled";
    };
    source.onerror = () => { if (source && source.readyState === EventSource.CLOSED) finish(); };
  }
  function finish() { if (source) source.close(); source = null; fill = null; clock.stop(); setState("editing"); }
  function apply(level) {  // the solver's cells replace the free ones; the locked stay
    remember();
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++)
      if (!locked[r][c]) { tiles[r][c] = level.rows[r][c]; draw(r, c); }
    const g = level.generator || {};
    progressBox.textContent = `filled in ${g.seconds} s: ${g.stage} (${g.method}, seed ${g.seed})`;
    statusBox.textContent = "";
    window.lastLevel = level;  // the level with its record (make --from reproduces it)
    keep(level);
    refresh();
  }
  async function cancel() {  // at once, even while the fill is still starting
    if (document.body.dataset.state !== "filling") return;
    run++;
    const id = fill;
    finish();
    progressBox.textContent = "cancelled";
    if (id) try { await post(`/api/fill/${id}/cancel`, {}); } catch (err) { /* it ended already */ }
  }

  for (const button of document.querySelectorAll("[data-tool]")) {
    button.addEventListener("click", () => {
      tool = button.dataset.tool;
      for (const other of document.querySelectorAll("[data-tool]")) other.setAttribute("aria-pressed", String(other === button));
    });
  }
  document.querySelector('[data-tool="rock"]').setAttribute("aria-pressed", "true");
  document.getElementById("fill").addEventListener("click", () => startFill(number("seed") || 0));
  document.getElementById("again").addEventListener("click", () => {
    const seed = lastSeed === null ? (number("seed") || 0) : lastSeed + 1;
    form.elements["seed"].value = seed;
    startFill(seed);
  });
  document.getElementById("cancel").addEventListener("click", cancel);
  document.getElementById("play-route").addEventListener("change", drawMarks);
  document.getElementById("moves-left").addEventListener("change", drawMarks);
  document.getElementById("lock-all").addEventListener("click", () => lockAll(true));
  document.getElementById("unlock-all").addEventListener("click", () => lockAll(false));
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("redo").addEventListener("click", redo);
  form.elements["size"].addEventListener("keydown", e => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const m = /^(\d+)x(\d+)$/.exec(form.elements["size"].value.trim());
    if (!m || +m[1] < 3 || +m[2] < 3 || +m[1] > MAX_SIDE || +m[2] > MAX_SIDE) {
      statusBox.textContent = `size: HxW, from 3x3 to ${MAX_SIDE}x${MAX_SIDE}`;
      return;
    }
    statusBox.textContent = "";
    remember();
    newRoom(+m[1], +m[2]);
  });
  form.addEventListener("submit", e => e.preventDefault());
  document.getElementById("play").addEventListener("click", () => play ? stopPlay() : startPlay());
  document.getElementById("open").addEventListener("change", e => {
    if (e.target.files.length) openFile(e.target.files[0]);
    e.target.value = "";
  });
  document.getElementById("save-level").addEventListener("click", () => save("level"));
  document.getElementById("save-template").addEventListener("click", () => save("template"));
  document.getElementById("save-map").addEventListener("click", () => save("map"));
  document.getElementById("graph").addEventListener("change", showGraph);
  document.getElementById("export-svg").addEventListener("click", () => exportPicture("svg"));
  document.getElementById("export-png").addEventListener("click", () => exportPicture("png"));
  document.getElementById("export-tiled").addEventListener("click", exportTiled);
  document.getElementById("add-to-pack").addEventListener("click", addToPack);
  document.getElementById("export-pack").addEventListener("click", exportPack);
  document.getElementById("playtest").addEventListener("click", startPlaytest);
  document.getElementById("playtest-log").addEventListener("click", () => savePlaytest("log", "playtest.jsonl"));
  document.getElementById("playtest-save-report").addEventListener("click", () => savePlaytest("report", "playtest.html"));
  document.getElementById("playtest-stop").addEventListener("click", () => {
    window.clearInterval(watching);
    document.getElementById("playtest-count").textContent += " (no longer watched)";
  });
  window.addEventListener("keydown", e => {
    if (play && !(e.ctrlKey || e.metaKey) && e.target.tagName !== "INPUT") { onPlayKey(e); return; }
    if (!(e.ctrlKey || e.metaKey) || e.target.tagName === "INPUT" || play) return;
    if (e.key === "z") { e.preventDefault(); undo(); }
    if (e.key === "y") { e.preventDefault(); redo(); }
  });
  // what caves.js (a cave's rooms, edited one at a time) drives: the board and the server
  window.studio = {
    pageId, post, events, download, onEdit: null, openCave: null,
    template: () => template(),
    status: text => { statusBox.textContent = text; },
    progress: text => { progressBox.textContent = text; },
    load(newRows) {  // a room onto the board: what it draws is locked, ? is the solver's
      remember();
      tiles = newRows.map(r => Array.from(r));
      locked = tiles.map(r => r.map(ch => ch !== "?"));
      height = tiles.length; width = tiles[0].length;
      form.elements["size"].value = `${height}x${width}`;
      build(); refresh();
    },
  };
  newRoom(12, 12);
})();
