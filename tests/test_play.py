"""The play page (designer play) in a real browser: headless Chromium driven by Playwright.

The browser is Debian's chromium (``.ci/run`` installs it when missing); Playwright only drives
it and never downloads one. Without either, these tests are skipped and say why. Set
DESIGNER_SCREENSHOT=FILE.png to keep the screenshot the first test takes (docs/exports.md's).
"""

import os
import re
import shutil
from pathlib import Path

import pytest

from designer.cli import main

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "examples" / "levels"
CHROMIUM = os.environ.get("DESIGNER_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
#: What the browser needs to start as root in a sandboxed machine with a closed network.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
KEYS = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}
WASD = {"u": "w", "d": "s", "l": "a", "r": "d"}

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

pytestmark = [
    pytest.mark.slow,  # Chromium
    pytest.mark.skipif(sync_playwright is None, reason="playwright is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (Debian: apt-get install chromium; "
                                                ".ci/run installs it)"),
]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield chromium
        chromium.close()


def solution_of(level: Path, capsys) -> str:
    """The moves ``designer solve`` prints for the level."""
    capsys.readouterr()
    assert main(["solve", str(level)]) == 0
    return capsys.readouterr().out.splitlines()[0]


def make_page(tmp_path: Path, source: Path) -> Path:
    target = tmp_path / "play.html"
    assert main(["play", str(source), "-o", str(target)]) == 0
    return target


def open_page(browser, path: Path):
    """The page from a file, with every request that is not the file itself refused and kept."""
    page = browser.new_page(viewport={"width": 560, "height": 440})
    fetched = []

    def guard(route):
        if route.request.url != path.as_uri():
            fetched.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/*", guard)
    page.fetched = fetched
    page.goto(path.as_uri())
    return page


def state(page) -> tuple[str, int]:
    body = page.locator("body")
    return body.get_attribute("data-state"), int(body.get_attribute("data-moves"))


def play(page, moves: str, keys: dict = KEYS) -> None:
    for letter in moves:
        page.keyboard.press(keys[letter])


def test_the_solution_from_designer_solve_solves_the_page(browser, tmp_path, capsys):
    level = LEVELS / "snow-and-hole.txt"
    moves = solution_of(level, capsys)
    page = open_page(browser, make_page(tmp_path, level))
    assert state(page) == ("playing", 0)
    assert page.locator("#par").inner_text() == f"Par: {len(moves)}"
    play(page, moves)
    assert state(page) == ("solved", len(moves))
    assert page.locator("#status").inner_text() == f"Solved in {len(moves)} (par {len(moves)}) \u2605\u2605\u2605"
    assert page.locator("body").get_attribute("data-stars") == "3"
    page.wait_for_timeout(600)  # the last slide's animation, for the picture
    shot = tmp_path / "play.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 1000
    if os.environ.get("DESIGNER_SCREENSHOT"):
        shutil.copy(shot, os.environ["DESIGNER_SCREENSHOT"])
    assert page.fetched == []  # nothing but the file itself: the page works offline
    page.close()


def test_wasd_plays_too_and_a_wrong_sequence_does_not_solve(browser, tmp_path, capsys):
    level = LEVELS / "strong-reversible.txt"
    moves = solution_of(level, capsys)
    page = open_page(browser, make_page(tmp_path, level))
    play(page, moves[:-1], WASD)
    assert state(page) == ("playing", len(moves) - 1)
    page.keyboard.press("u")  # undo
    assert state(page) == ("playing", len(moves) - 2)
    page.keyboard.press("r")  # restart
    assert state(page) == ("playing", 0)
    play(page, moves, WASD)
    assert state(page) == ("solved", len(moves))
    page.close()


def test_a_direction_that_does_not_move_is_not_a_move(browser, tmp_path, capsys):
    level = LEVELS / "snow-and-hole.txt"
    moves = solution_of(level, capsys)
    page = open_page(browser, make_page(tmp_path, level))
    play(page, moves[0])
    play(page, moves[0])  # blocked now: the same direction again goes nowhere
    assert state(page) == ("playing", 1)
    page.click("#undo")
    assert state(page) == ("playing", 0)
    page.close()


PACK = ("snow-and-hole.txt", "strong-reversible.txt")


def two_level_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in PACK:
        shutil.copy(LEVELS / name, pack / name)
    return pack


def test_a_pack_has_level_select_and_next_level(browser, tmp_path, capsys):
    pack = two_level_pack(tmp_path)
    first, second = (solution_of(pack / name, capsys) for name in ("snow-and-hole.txt", "strong-reversible.txt"))
    page = open_page(browser, make_page(tmp_path, pack))
    assert page.locator("#select option").count() == 2
    play(page, first)
    assert state(page) == ("solved", len(first))
    assert f"solved in {len(first)} (par {len(first)})" in page.locator("#select option").nth(0).inner_text()
    page.click("#next")
    assert page.locator("body").get_attribute("data-level") == "1"
    assert state(page) == ("playing", 0)
    play(page, "".join(reversed(second)))  # the moves backwards are no solution
    assert state(page)[0] == "playing"
    page.click("#restart")
    play(page, second)
    assert state(page) == ("solved", len(second))
    page.select_option("#select", "0")
    assert page.locator("body").get_attribute("data-level") == "0" and state(page) == ("playing", 0)
    page.close()


def test_an_unsolvable_level_has_no_par(browser, tmp_path):
    page = open_page(browser, make_page(tmp_path, LEVELS / "unsolvable.txt"))
    assert page.locator("#par").inner_text() == "Par: none (the goal cannot be reached)"
    assert state(page) == ("playing", 0)
    page.close()


# --- hints, the solve button, stars and saved progress ----------------------------------------

def graph_of(path: Path):
    from designer.analysis.graph import analyze
    from designer.analysis.graph import move_graph
    from designer.formats.level_files import read_level

    level = read_level(path)
    graph = move_graph(level)
    step = {(a, data["direction"]): b for a, b, data in graph.edges(data=True)}
    return level, analyze(level).remaining, step


def where(level, step, moves: str):
    cell = level.start
    for letter in moves:
        cell = step.get((cell, letter), cell)  # a blocked direction is no move
    return cell


def hinted(page) -> str:
    page.keyboard.press("h")
    return page.locator("body").get_attribute("data-hint")


def test_a_hint_points_along_a_fewest_moves_way_from_where_the_player_stands(browser, tmp_path, capsys):
    path = LEVELS / "snow-and-hole.txt"
    level, remaining, step = graph_of(path)
    moves = solution_of(path, capsys)
    page = open_page(browser, make_page(tmp_path, path))
    hint = hinted(page)
    assert remaining[step[(level.start, hint)]] == remaining[level.start] - 1
    assert "Hint: slide" in page.locator("#status").inner_text()
    # two wrong moves: each leaves the player no closer to the goal
    wrong = ""
    for _ in range(2):
        here = where(level, step, wrong)
        wrong += next(d for d in "udlr" if (here, d) in step and step[(here, d)] != level.goal
                      and remaining[step[(here, d)]] >= remaining[here])
    play(page, wrong)
    assert state(page) == ("playing", 2) and page.locator("body").get_attribute("data-hint") == ""
    here = where(level, step, wrong)
    assert here != where(level, step, moves[:2])  # not where the solution would be
    hint = hinted(page)
    assert remaining[step[(here, hint)]] == remaining[here] - 1
    # following hints alone solves the level in the fewest moves left
    for _ in range(remaining[here]):
        play(page, hinted(page))
    assert state(page) == ("solved", 2 + remaining[here])
    page.close()


def test_solve_plays_the_rest_from_mid_level_and_earns_no_stars(browser, tmp_path, capsys):
    path = LEVELS / "strong-reversible.txt"
    level, remaining, step = graph_of(path)
    moves = solution_of(path, capsys)
    page = open_page(browser, make_page(tmp_path, path))
    play(page, moves[:2])
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.state === 'solved'", timeout=10_000)
    assert state(page) == ("solved", len(moves))
    assert page.locator("body").get_attribute("data-stars") == "0"
    assert "Solved by the solver" in page.locator("#status").inner_text()
    page.click("#restart")
    page.click("#solve")  # the button does the same, from the start
    page.wait_for_function("document.body.dataset.state === 'solved'", timeout=10_000)
    assert state(page) == ("solved", len(moves))
    page.close()


def test_a_hint_costs_the_stars_the_page_was_made_with_and_a_restart_begins_free(browser, tmp_path, capsys):
    path = LEVELS / "strong-reversible.txt"
    moves = solution_of(path, capsys)
    free = open_page(browser, make_page(tmp_path, path))
    free.keyboard.press("h")
    play(free, moves)
    assert free.locator("body").get_attribute("data-stars") == "3"  # by default hints are free
    free.close()
    costly = tmp_path / "costly.html"
    assert main(["play", str(path), "-o", str(costly), "--hint-cost", "1"]) == 0
    page = open_page(browser, costly)
    for _ in range(2):
        page.keyboard.press("h")  # two hints: two stars off a run at par
    play(page, moves)
    body = page.locator("body")
    assert state(page) == ("solved", len(moves)) and body.get_attribute("data-stars") == "1"
    assert page.locator("#status").inner_text().endswith("\u2605\u2606\u2606")
    page.click("#restart")
    play(page, moves)  # a new attempt, no hint
    assert body.get_attribute("data-stars") == "3"
    page.close()
    assert main(["play", str(path), "-o", str(tmp_path / "x.html"), "--hint-cost", "4"]) == 2
    assert "--hint-cost takes 0 to 3 stars a hint, not 4" in capsys.readouterr().err


def test_keys_work_the_moment_the_solver_has_solved(browser, tmp_path, capsys):
    # R (restart) and U (undo) pressed right after the solver's last move, before its slide ends
    path = LEVELS / "strong-reversible.txt"
    moves = solution_of(path, capsys)
    page = open_page(browser, make_page(tmp_path, path))
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.state === 'solved'", timeout=10_000, polling=1)
    page.keyboard.press("r")
    assert state(page) == ("playing", 0)
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.state === 'solved'", timeout=10_000, polling=1)
    page.keyboard.press("u")
    assert state(page) == ("playing", len(moves) - 1)
    play(page, moves[-1])  # the player's own key works at once too
    assert state(page) == ("solved", len(moves))
    page.close()


def walk(level, step, length: int) -> str:
    """Moves that reach the goal in exactly ``length`` moves (the goal only at the end)."""
    cells = {a for a, _ in step} | set(step.values())
    can = [{level.goal}]  # can[k]: cells from which the goal is k moves away by some walk
    for k in range(1, length + 1):
        can.append({c for c in cells if c != level.goal and any(step.get((c, d)) in can[k - 1] for d in "udlr")})
    assert level.start in can[length], f"no walk of {length} moves"
    cell, moves = level.start, ""
    for k in range(length, 0, -1):
        d = next(d for d in "udlr" if step.get((cell, d)) in can[k - 1])
        moves, cell = moves + d, step[(cell, d)]
    return moves


def test_stars_at_par_one_over_and_far_over(browser, tmp_path, capsys):
    path = LEVELS / "strong-reversible.txt"
    level, remaining, step = graph_of(path)
    par = remaining[level.start]
    source = tmp_path / "level.json"
    from designer.formats.level_json import format_json, level_to_json
    from designer.analysis.stars import Stars

    stars = Stars(par, par + 1, par + 3)  # the level's own thresholds
    source.write_text(format_json(level_to_json(level, stars=stars)))
    page = open_page(browser, make_page(tmp_path, source))
    for length, expected in ((par, 3), (par + 1, 2), (par + 3, 1), (par + 5, 0)):
        page.click("#restart")
        play(page, walk(level, step, length))
        assert state(page) == ("solved", length)
        assert page.locator("body").get_attribute("data-stars") == str(expected), length
    page.close()


def test_progress_survives_a_reload_and_reset_clears_it(browser, tmp_path, capsys):
    from playwright.sync_api import expect

    pack = two_level_pack(tmp_path)
    first = solution_of(pack / "snow-and-hole.txt", capsys)
    context = browser.new_context()
    page = context.new_page()
    page.goto(make_page(tmp_path, pack).as_uri())
    play(page, first)
    assert state(page) == ("solved", len(first))
    page.reload()
    assert state(page) == ("playing", 0)  # the level starts again ...
    # the labels are written by the page's script once it has read the progress: waited for, as a
    # busy machine may run it after the load event
    expect(page.locator("#select option").nth(0)).to_contain_text(
        f"solved in {len(first)} (par {len(first)}) \u2605\u2605\u2605")  # ... the progress is kept
    expect(page.locator("#select option").nth(1)).not_to_contain_text("solved")
    page.click("#reset")
    expect(page.locator("#select option").nth(0)).not_to_contain_text("solved")
    page.reload()
    expect(page.locator("#select option").nth(0)).not_to_contain_text("solved")
    context.close()


def test_the_help_line_lists_the_keys(browser, tmp_path):
    page = open_page(browser, make_page(tmp_path, LEVELS / "snow-and-hole.txt"))
    help_line = page.locator(".help").inner_text()
    for words in ("Arrow keys, WASD", "H shows a hint", "Enter solves", "U undoes", "R restarts"):
        assert words in help_line
    page.close()


def test_a_room_is_played_by_the_route_the_player_chooses(browser, tmp_path, capsys):
    room = tmp_path / "room.txt"
    room.write_text("###3##\n##...#\n2....#\n#....#\n#...##\n##1###\n")
    routes = {}
    for route in ("1:2", "2:1", "2:3"):
        capsys.readouterr()
        assert main(["solve", str(room), "--route", route]) == 0
        routes[route] = capsys.readouterr().out.splitlines()[0]
    page = open_page(browser, make_page(tmp_path, room))
    options = [page.locator("#select option").nth(k).inner_text() for k in range(page.locator("#select option").count())]
    assert [o.split(". ", 1)[1] for o in options] == [f"room: door {a} to door {b}" for a, b in
                                                       ("12", "21", "13", "31", "23", "32")]
    assert sorted(page.locator(".door").nth(k).get_attribute("data-door") for k in range(3)) == ["1", "2", "3"]
    play(page, routes["1:2"])  # entering by door 1, door 2 is the way out
    assert state(page) == ("solved", len(routes["1:2"])) and page.locator("body").get_attribute("data-stars") == "3"
    page.select_option("#select", "1")  # the other way: in by door 2, out by door 1
    assert state(page) == ("playing", 0) and page.locator("#par").inner_text() == f"Par: {len(routes['2:1'])}"
    play(page, routes["2:3"])  # door 3 is plain ice on this route: no exit there
    assert state(page)[0] == "playing"
    page.click("#restart")
    play(page, routes["2:1"])
    assert state(page) == ("solved", len(routes["2:1"]))
    assert "solved in" in page.locator("#select option").nth(0).inner_text()  # stars kept per route
    assert "solved in" not in page.locator("#select option").nth(2).inner_text()
    page.close()


def test_items_are_taken_as_the_player_slides_and_the_exit_opens_when_none_is_left(browser, tmp_path, capsys):
    import oracle

    path = LEVELS / "two-items.txt"
    rows = path.read_text().split()
    moves = solution_of(path, capsys)
    _, left, end, edges = oracle.item_game(rows)
    goal, start = oracle.find(rows, "G"), (oracle.find(rows, "S"), frozenset())
    # a way onto the goal with an item still lying: the exit is shut, the player rests there
    way, todo, seen = None, [(start, "")], {start}
    while todo and way is None:
        state_now, letters = todo.pop(0)
        for letter, nxt, _ in edges[state_now]:
            if nxt[0] == goal and nxt != end:
                way = letters + letter
                break
            if nxt not in seen:
                seen.add(nxt)
                todo.append((nxt, letters + letter))
    page = open_page(browser, make_page(tmp_path, path))
    body = page.locator("body")
    assert body.get_attribute("data-items") == "2" and page.locator(".cell.item").count() == 2
    play(page, way)
    assert state(page) == ("playing", len(way)) and body.get_attribute("data-items") != "0"
    page.keyboard.press("Enter")  # the solver plays on from there, items and all
    page.wait_for_function("document.body.dataset.state === 'solved'", timeout=10_000)
    assert body.get_attribute("data-items") == "0"
    page.click("#restart")
    assert body.get_attribute("data-items") == "2"
    hint = page.locator("body")
    page.click("#hint")
    assert hint.get_attribute("data-hint") == moves[0]  # the hint follows the items-aware solution
    play(page, moves)
    assert state(page) == ("solved", len(moves)) and body.get_attribute("data-stars") == "3"
    assert page.locator(".cell.item:visible").count() == 0
    page.close()


PORTAL_LEVEL = """\
floor up wrap x
#######
..S.a..
#######
floor down
#######
#b.._.#
#..c#G#
#######
portal a b
portal c > a
"""


def test_portals_and_wrap_are_played_as_solve_plays_them(browser, tmp_path, capsys):
    level = tmp_path / "portals.txt"
    level.write_text(PORTAL_LEVEL)
    moves = solution_of(level, capsys)
    page = open_page(browser, make_page(tmp_path, level))
    assert page.locator(".cell.portal").count() == 3
    # every transform the player is given, recorded by the page itself (no sampling to miss one)
    page.evaluate("""() => { window.shown = [];
        const player = document.getElementById("player");
        new MutationObserver((records) => { for (const r of records) window.shown.push(r.oldValue || "");
                                             window.shown.push(player.getAttribute("style")); })
            .observe(player, {attributes: true, attributeFilter: ["style"], attributeOldValue: true}); }""")
    page.keyboard.press("ArrowLeft")  # left from S wraps round the top floor into the portal a
    assert page.locator("body").get_attribute("data-portal") == "1,4"
    cell = 40  # the page's pixels a cell
    end = f"translate({1 * cell}px, {4 * cell}px)"  # out on b (4, 1), on the floor below
    page.wait_for_function(f"() => document.getElementById('player').style.transform === '{end}'", timeout=20000)
    shown = re.findall(r"translate\([^)]*\)", " ".join(page.evaluate("() => window.shown")))
    # shown leg by leg: to the left edge (1, 0), in at the right one (1, 6), into a (1, 4), out on b
    legs = [f"translate({c * cell}px, {r * cell}px)" for r, c in ((1, 0), (1, 6), (1, 4), (4, 1))]
    assert [t for t in dict.fromkeys(shown) if t in legs] == legs
    assert page.locator("#player").evaluate("e => e.classList.contains('vanished')") is False
    page.keyboard.press("u")  # undo
    assert state(page) == ("playing", 0)
    play(page, moves)
    assert state(page) == ("solved", len(moves))
    assert page.fetched == []
    page.close()


def test_a_page_without_portals_holds_none_of_their_rules(tmp_path):
    html = make_page(tmp_path, LEVELS / "snow-and-hole.txt").read_text()
    assert "portalAt" not in html and "vanished" not in html and "lastPassage" not in html


def test_the_pages_slide_agrees_with_the_library_on_every_cell_of_random_portal_levels(browser, tmp_path):
    """The page's rules.js against ``designer.core.rules.trace`` (and the items' states) on random
    levels with floors, wrap-around, portals and items: every cell, direction and set of items."""
    import random

    import numpy as np

    from designer.core.floors import Floor
    from designer.core.items import state_table
    from designer.core.level import Level
    from designer.core.terrain import ICE, ROCK, SNOW
    from designer.export.play import level_entry
    from designer.formats.level_files import LevelFile

    source = tmp_path / "portals.txt"
    source.write_text(PORTAL_LEVEL)
    page = open_page(browser, make_page(tmp_path, source))  # a page with portals holds their rules
    rng = random.Random(7)
    checked = 0
    while checked < 12:
        floors, top = [], 0
        for _ in range(rng.randint(1, 2)):
            h, w = rng.randint(2, 5), rng.randint(2, 5)
            floors.append(Floor(f"f{len(floors)}", top, h, w, rng.choice(["", "x", "y", "xy"])))
            top += h
        width = max(f.width for f in floors)
        terrain = np.full((top, width), ROCK, np.uint8)
        for f in floors:
            for r in range(f.top, f.top + f.height):
                for c in range(f.width):
                    terrain[r, c] = rng.choice([ICE, ICE, ICE, ROCK, SNOW])
        ice = [tuple(map(int, cell)) for cell in np.argwhere(terrain == ICE)]
        if len(ice) < 6:
            continue
        rng.shuffle(ice)
        start, goal, items, sources, targets = ice[0], ice[1], tuple(sorted(ice[2:3])), ice[3:5], ice[5:]
        portals = tuple((src, rng.choice([t for t in targets + sources if t != src])) for src in sources)
        level = Level(terrain, start, goal, items=items, portals=portals, floors=tuple(floors))
        states = state_table(level)
        entry = level_entry(LevelFile("random", level, {}))
        found = page.evaluate("""(entry) => {
            level = entry;  // the page's own global (a let binding, not a property of window)
            const out = [];
            for (let taken = 0; taken < 2; taken++)
              for (let r = 0; r < entry.rows.length; r++)
                for (let c = 0; c < entry.rows[0].length; c++)
                  for (const dir of "udlr") {
                    if (entry.rows[r][c] === "#") continue;
                    const s = slide([r, c], dir, taken);
                    out.push(s.cells ? [s.to[0], s.to[1], s.taken] : null);
                  }
            return out;
        }""", entry)
        expected = []
        for taken in range(2):
            for r in range(level.height):
                for c in range(level.width):
                    for d in range(4):
                        if level.terrain[r, c] == ROCK:
                            continue
                        after = int(states.dest[d, states.state((r, c), taken)])
                        expected.append(None if after < 0 else [*states.cell(after), states.taken(after)])
        assert found == expected, str(level)
        checked += 1
    page.close()


def test_a_playtest_is_recorded_saved_and_read_back_by_designer_playtest(browser, tmp_path, capsys):
    from designer.formats.playtest_log import read

    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("snow-and-hole.txt", "strong-reversible.txt"):  # the page's order: the names'
        shutil.copy(LEVELS / name, pack / name)
    first, second = solution_of(pack / "snow-and-hole.txt", capsys), solution_of(pack / "strong-reversible.txt", capsys)
    page = open_page(browser, make_page(tmp_path, pack))
    play(page, first[:2])
    page.keyboard.press("u")  # an undo
    page.keyboard.press("r")  # a restart
    play(page, first)
    assert state(page) == ("solved", len(first))
    page.keyboard.press("h")  # no hint once solved: nothing recorded
    page.select_option("#select", "1")  # the next level, left after one move
    play(page, second[:1])
    with page.expect_download() as caught:
        page.click("#save-playtest")
    saved = tmp_path / "playtest.jsonl"
    caught.value.save_as(saved)
    page.close()
    log = read(str(saved))
    assert [event.kind for event in log.events] == ["start", "move", "move", "undo", "restart", "start",
                                                    *["move"] * len(first), "finish", "start", "move"]
    assert [(e.level, e.attempt) for e in log.events if e.kind == "start"] == [(0, 1), (0, 2), (1, 1)]
    assert "".join(e.move for e in log.events if e.kind == "move" and e.attempt == 2) == first  # it replays
    assert [e.moves for e in log.events if e.kind == "finish"] == [len(first)]
    assert len({event.visit for event in log.events}) == 1 and [name for name, _ in log.levels] == [
        "snow-and-hole", "strong-reversible"]
    capsys.readouterr()
    assert main(["playtest", str(saved), "--pack", str(pack), "-o", str(tmp_path / "report.html")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("snow-and-hole: 1 player, 100% finished; moves median 17 ") or out[0].startswith(
        f"snow-and-hole: 1 player, 100% finished; moves median {len(first) + 2} ")
    assert out[0].endswith("quit at nowhere") and ", undos 1.00, " in out[0] and "restarts 1.00" in out[0]
    assert out[1].startswith("strong-reversible: 1 player, 0% finished") and "quit at (" in out[1]
    assert "where players rested" in (tmp_path / "report.html").read_text()


@pytest.mark.parametrize("viewport", [(390, 844), (360, 740), (1280, 800)])
def test_every_cell_of_the_board_is_in_view_on_a_phone_and_a_laptop(browser, tmp_path, viewport):
    """A 40x40 level and a 12x12 pack: every cell of the board inside the viewport, no sideways
    scroll, the player moved in view; a legend names the tiles, and the player is not the exit."""
    big = ["#" * 40] + ["#S" + "." * 37 + "#"] + ["#" + "." * 38 + "#"] * 36 + ["#" + "." * 37 + "G#"] + ["#" * 40]
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "big.txt").write_text("\n".join(big) + "\n")
    twelve = ["#" * 12, "#S.........#", *["#" + "." * 10 + "#"] * 8, "#.........G#", "#" * 12]
    (tmp_path / "pack" / "twelve.txt").write_text("\n".join(twelve) + "\n")
    page_path = make_page(tmp_path, tmp_path / "pack")
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(page_path.as_uri())
    for k in range(2):
        page.select_option("#select", str(k))
        box = page.evaluate("""() => { const r = document.getElementById("board").getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom, document.documentElement.scrollWidth, window.innerWidth,
                    window.innerHeight]; }""")
        left, top, right, bottom, scroll_width, width, height = box
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (k, box)
        assert scroll_width <= width, (k, box)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
        player = page.evaluate("""() => { const r = document.getElementById("player").getBoundingClientRect();
            return [r.left, r.top, r.right, r.bottom]; }""")
        page.wait_for_timeout(50)
        assert player[0] >= -1 and player[2] <= width + 1
    legend = page.inner_text("#legend")
    assert all(word in legend for word in ("you", "exit", "start", "ice", "wall")), legend
    colours = page.evaluate("""() => [getComputedStyle(document.getElementById("player"), "::after").backgroundImage,
                                      getComputedStyle(document.querySelector(".cell.goal")).backgroundImage]""")
    assert colours[0] != colours[1] and "217, 67, 59" in colours[0]  # a red figure on a dark-and-gold exit
    page.close()


def test_coins_are_counted_and_a_full_clear_earns_its_own_stars_kept_in_progress(browser, tmp_path):
    """A level with coins played to its full clear (every coin, then the exit): the count, the
    full-clear star line, the aim at the full clear for Hint, and progress that keeps both bests."""
    from playwright.sync_api import expect

    source = tmp_path / "coins.txt"
    source.write_text("#######\n#S...$#\n#.##.##\n#..G..#\n#######\n")  # exit par 2 (dr), full clear 4 (rldr)
    context = browser.new_context()
    page = context.new_page()
    page.goto(make_page(tmp_path, source).as_uri())
    expect(page.locator("#coins")).to_have_text("Coins 0 of 1 (full clear par 4)")
    assert page.locator(".cell.coin").count() == 1
    page.select_option("#aim", "full")
    page.click("#hint")
    assert page.locator("body").get_attribute("data-hint") == "r"  # toward the coin, not the exit (d)
    play(page, "rldr")
    assert state(page) == ("solved", 4)
    expect(page.locator("#coins")).to_have_text("Coins 1 of 1 (full clear par 4)")
    assert page.locator("body").get_attribute("data-full-stars") == "3"
    assert "full clear, every coin (par 4) \u2605\u2605\u2605" in page.locator("#status").inner_text()
    page.click("#restart")
    play(page, "dr")  # the exit par: the exit does not wait for the coin
    assert state(page) == ("solved", 2) and page.locator("body").get_attribute("data-full-stars") is None
    page.reload()
    expect(page.locator("#select option").nth(0)).to_contain_text(
        "solved in 2 (par 2) \u2605\u2605\u2605, full clear in 4 \u2605\u2605\u2605")
    context.close()


def test_a_caves_coins_are_counted_after_its_keys_and_its_full_clear_earns_its_stars(browser, tmp_path):
    """A cave with a key and two coins: the key keeps its ring and name, the coins are counted
    apart from it, and the cave's full clear (every coin, then the exit) earns its own stars."""
    from playwright.sync_api import expect

    from designer.caves.cave import Cave
    from designer.caves.coins import full_clear

    text = ("room a\n#1###\n#..*#\n#$..2\n#####\nroom b\n###1#\n2..$#\n#...#\n#####\n"
            "door a:2 b:2 lock k\nkey k a 1,3\nentrance a:1\nexit b:1")
    tour = full_clear(Cave.parse(text))
    assert tour.proven
    source = tmp_path / "cave.txt"
    source.write_text(text)
    page = browser.new_page(viewport={"width": 900, "height": 700})
    page.goto(make_page(tmp_path, source).as_uri())
    expect(page.locator("#coins")).to_have_text(f"Coins 0 of 2 (full clear par {tour.stops})")
    assert page.locator(".cell.coin").count() == 2 and page.locator(".tag.key-name").count() == 1
    play(page, tour.moves)
    assert state(page) == ("solved", tour.stops)
    expect(page.locator("#coins")).to_have_text(f"Coins 2 of 2 (full clear par {tour.stops})")
    assert page.locator("body").get_attribute("data-full-stars") == "3"
    page.close()


def test_a_level_of_8_items_and_32_coins_is_played_whole(browser, tmp_path):
    """Issue 60: the designer makes levels of 8 items and 32 coins, and the page refused more than
    30 things (its masks had 32 bits). The page now plays every one a level holds: one slide over
    8 items and 32 coins opens the exit, counts the 32 coins and earns the full clear."""
    from playwright.sync_api import expect

    source = tmp_path / "forty.txt"
    source.write_text("#" * 44 + "\n#S" + "*" * 8 + "$" * 32 + "G#\n" + "#" * 44 + "\n")
    page = open_page(browser, make_page(tmp_path, source))
    expect(page.locator("#coins")).to_have_text("Coins 0 of 32 (full clear par 1)")
    play(page, "r")
    assert state(page) == ("solved", 1)
    expect(page.locator("#coins")).to_have_text("Coins 32 of 32 (full clear par 1)")
    assert page.locator("body").get_attribute("data-full-stars") == "3"
    assert page.evaluate("[has(2 ** 39, 39), has(2 ** 39, 31), taking(2 ** 39, 39) === 2 ** 39]") == [True, False, True]
    page.close()
