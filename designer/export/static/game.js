/* The game's page (designer.game.page): a title and a world map over the levels and caves of every
   world, each unlocked once the one before it is solved; progress and stars are the page's own
   (kept per game in localStorage). GAME: {title, worlds: [{name, mechanic, first, count}]}, each
   world's entries LEVELS[first .. first + count - 1], its cave last when it has one. */
const GAME = __GAME__;
function unlocked(k) { return k === 0 || progress.best[k - 1] !== undefined; }
function worldOf(k) { return GAME.worlds.findIndex((w) => k >= w.first && k < w.first + w.count); }
function drawMap() {
  const list = $("worlds");
  list.textContent = "";
  let solved = 0;
  GAME.worlds.forEach((w, n) => {
    const item = document.createElement("li");
    item.className = "world";
    const head = document.createElement("h2");
    const done = LEVELS.slice(w.first, w.first + w.count).filter((lv, j) => progress.best[w.first + j] !== undefined).length;
    solved += done;
    head.textContent = `${n + 1}. ${w.name}`;
    const about = document.createElement("p");
    about.textContent = `${w.mechanic} \u00b7 ${done} of ${w.count} solved`;
    const row = document.createElement("div");
    row.className = "stops";
    for (let k = w.first; k < w.first + w.count; k++) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.entry = String(k);
      const open = unlocked(k), cave = Boolean(LEVELS[k].cave);
      button.disabled = !open;
      button.className = progress.best[k] !== undefined ? "solved" : open ? "open" : "locked";
      button.textContent = (cave ? "Cave" : String(k - w.first + 1)) +
        (progress.best[k] !== undefined ? ` ${starText(progress.stars[k] || 0)}` : "");
      button.title = open ? LEVELS[k].name : `${LEVELS[k].name}: locked until the one before is solved`;
      button.addEventListener("click", () => { closeMap(); load(k); });
      row.appendChild(button);
    }
    item.append(head, about, row);
    list.appendChild(item);
  });
  $("map-progress").textContent = `${solved} of ${LEVELS.length} solved`;
  document.body.dataset.unlocked = String(LEVELS.filter((lv, k) => unlocked(k)).length);
}
function openMap() { drawMap(); $("map").hidden = false; document.body.dataset.map = "open"; }
function closeMap() { $("map").hidden = true; document.body.dataset.map = "closed"; }
const playLevel = load, showLevel = show, plainLabel = label;
load = function (k, again) { if (unlocked(k)) playLevel(k, again); };
show = function () {
  showLevel();
  $("next").disabled = index + 1 >= LEVELS.length || !unlocked(index + 1);
  [...$("select").options].forEach((option, k) => { option.disabled = !unlocked(k); });
  const w = worldOf(index);
  $("where").textContent = w < 0 ? "" : `${GAME.worlds[w].name}: ${LEVELS[index].cave ? "the cave" : `level ${index - GAME.worlds[w].first + 1}`}`;
  document.body.dataset.unlocked = String(LEVELS.filter((lv, j) => unlocked(j)).length);
};
label = function (k) { return plainLabel(k) + (unlocked(k) ? "" : " (locked)"); };
$("open-map").addEventListener("click", openMap);
$("close-map").addEventListener("click", closeMap);
show();
openMap();
