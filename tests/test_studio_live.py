"""designer studio's live figures keep up (issue 44): a page's newer call supersedes its older one
in the server, the older one's work ended, so an edit never waits behind the edits before it.
Real HTTP to a studio started as users start it; /proc for its processes."""

import random
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_studio import needs_browser, studio  # noqa: E402, F401  the module's studio, started as users start it

pytestmark = pytest.mark.slow  # the studio's live figures in Chromium


def slow_grid() -> list[str]:
    """A 40x40 level with 8 items whose figures take seconds (3.6 s on the 2-core machine)."""
    rng = random.Random(0)
    rows = [["#"] * 40] + [["#"] + ["#" if rng.random() < 0.22 else "." for _ in range(38)] + ["#"]
                           for _ in range(38)] + [["#"] * 40]
    ice = [(r, c) for r in range(1, 39) for c in range(1, 39) if rows[r][c] == "."]
    rng.shuffle(ice)
    for (r, c), mark in zip(ice, "SG********"):
        rows[r][c] = mark
    return ["".join(row) for row in rows]


def figures_processes(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        if stat and stat.split("(", 1)[1].rsplit(")", 1)[0] == "studio-figures":
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def test_a_newer_edit_ends_the_older_calls_work_and_is_answered_at_once(studio):
    slow, tiny = {"rows": slow_grid()}, {"rows": ["#G#", "#.#", "#S#"]}
    began = time.monotonic()
    status, alone = studio.post("/api/figures", slow)
    took = time.monotonic() - began
    assert status == 200 and len(alone["routes"][0]["items"]) == 8 and took > 0.5, took
    page = studio.page()
    before = figures_processes(studio.proc.pid)
    answers = {}

    def older():
        answers["older"] = studio.post("/api/figures", {**slow, "page": page})

    drag = [threading.Thread(target=older) for _ in range(3)]  # a drag: three slow edits...
    for one in drag:
        one.start()
        time.sleep(0.2)
    began = time.monotonic()
    status, found = studio.post("/api/figures", {**tiny, "page": page})  # ...then one click
    newest = time.monotonic() - began
    assert status == 200 and found["routes"][0]["min_stops"] == 1
    for one in drag:
        one.join(60)
    assert answers["older"][0] == 409 and answers["older"][1]["error"] == "superseded by a newer edit", answers
    assert newest < took, (newest, took)  # it waited for no slow call (this bound holds on a busy machine)
    deadline = time.monotonic() + 30
    while set(figures_processes(studio.proc.pid)) & set(before) == set(before) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert set(figures_processes(studio.proc.pid)) != set(before), "the older call's process was ended"
    deadline = time.monotonic() + 30
    while len(figures_processes(studio.proc.pid)) != 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(figures_processes(studio.proc.pid)) == 2, "a fresh one took its place"
    assert studio.post("/api/figures", {**tiny, "page": page})[0] == 200
    assert studio.post("/api/figures", {"rows": ["#G#", "#x#", "#S#"], "page": page})[0] == 400


LEVEL = ["###G####", "#......#", "#.#....#", "#....#.#", "#.#....#", "####S###"]


def opened(p, studio, rows, **context):
    """A page of the studio in Chromium with ``rows`` opened on its board."""
    from test_play import CHROMIUM, FLAGS

    browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
    page = browser.new_context(**{"viewport": {"width": 1280, "height": 800}, **context}).new_page()
    page.goto(studio.url)
    page.set_input_files("#open", files=[{"name": "level.txt", "mimeType": "text/plain",
                                          "buffer": ("\n".join(rows) + "\n").encode()}])
    deadline = time.monotonic() + 30
    while page.locator(".cell").count() != len(rows) * len(rows[0]) and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the opened grid drawn (its figures asked for in the same step)
    page.locator('body[data-figures="ready"]').wait_for()
    return browser, page


@needs_browser
def test_the_board_reads_at_a_glance_numbered_path_traps_moves_left_legend_and_words(studio):
    from test_play import sync_playwright

    found = studio.post("/api/figures", {"rows": LEVEL})[1]["routes"][0]
    with sync_playwright() as p:
        browser, page = opened(p, studio, LEVEL)
        path = [[int(x) for x in cell.get_attribute("data-cell").split(",")]
                for cell in sorted(page.locator("[data-path]").all(), key=lambda el: int(el.get_attribute("data-path")))]
        assert path == found["path"]
        first = page.locator(f'[data-cell="{path[0][0]},{path[0][1]}"] .mark').inner_text()
        assert first in "\u2191\u2193\u2190\u2192"  # the start: the first move's arrow
        last = page.locator(f'[data-cell="{path[-1][0]},{path[-1][1]}"] .mark').inner_text()
        assert last == str(len(path) - 1)  # the goal: the last move's number
        traps = sorted([int(x) for x in el.get_attribute("data-cell").split(",")] for el in page.locator("[data-trap]").all())
        assert traps == [list(cell) for cell in found["traps"]]
        assert page.locator("[data-left]").count() == 0
        page.check("#moves-left")
        left = {el.get_attribute("data-cell"): int(el.get_attribute("data-left")) for el in page.locator("[data-left]").all()}
        assert left == {f"{r},{c}": n for r, c, n in found["moves_left"]}
        assert page.locator("#legend li").count() >= 10
        words = page.locator("#figures .route").inner_text()
        assert f"{found['min_stops']} stops" in words and page.locator("#figures .route span[title]").count() == 6
        assert f"difficulty {found['difficulty']:.1f}" in words  # the model's player, live
        assert page.locator("#explain").inner_text()
        browser.close()


@needs_browser
def test_an_unfilled_room_says_what_a_fill_can_reach_and_unlock_all_lets_a_fill_redraw_an_opened_level(studio):
    from test_play import sync_playwright

    room = ["#####3######"] + ["#" + "?" * 10 + "#"] * 4 + ["2" + "?" * 10 + "#"] + ["#" + "?" * 10 + "#"] * 4 + ["#####1######"]
    with sync_playwright() as p:
        browser, page = opened(p, studio, room)
        lines = page.locator("#figures .route").all_inner_texts()
        assert len(lines) == 3 and all("unfilled: a fill can reach at most 92 stops" in line for line in lines), lines
        assert "unsolvable" not in page.locator("#figures").inner_text()
        assert page.locator("body").get_attribute("data-class") == "unfilled"
        page.set_input_files("#open", files=[{"name": "level.txt", "mimeType": "text/plain",
                                              "buffer": ("\n".join(LEVEL) + "\n").encode()}])
        page.locator('[data-cell="5,4"][data-tile="S"]').wait_for()
        cells = len(LEVEL) * len(LEVEL[0])
        assert page.locator("[data-locked]").count() == cells  # an opened level: every cell locked
        page.click("#unlock-all")
        inside = sum(1 for r, row in enumerate(LEVEL[1:-1], 1) for c, ch in enumerate(row[1:-1], 1) if ch not in "SG")
        assert page.locator("[data-locked]").count() == cells - inside
        page.click("#lock-all")
        assert page.locator("[data-locked]").count() == cells
        page.click("#unlock-all")
        page.fill('[name="min-stops"]', "3")
        page.click("#fill")
        page.locator('body[data-state="filling"]').wait_for()
        page.locator('body[data-state="editing"]').wait_for(timeout=90_000)
        assert page.inner_text("#progress").startswith("filled in"), page.inner_text("#progress")
        browser.close()


@needs_browser
def test_on_a_phone_a_touch_drag_paints_every_cell_a_swipe_plays_and_fill_is_in_reach(studio):
    from test_play import sync_playwright

    with sync_playwright() as p:
        browser, page = opened(p, studio, LEVEL, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        fill = page.locator("#fill").bounding_box()
        assert fill["y"] + fill["height"] <= 844, "Fill is on the screen without scrolling"
        page.click('[data-tool="rock"]')
        touch = page.context.new_cdp_session(page)
        boxes = [page.locator(f'[data-cell="1,{c}"]').bounding_box() for c in range(1, 7)]
        points = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2} for box in boxes]
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [points[0]]})
        for point in points[1:]:
            touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert [page.locator(f'[data-cell="1,{c}"]').get_attribute("data-tile") for c in range(1, 7)] == ["#"] * 6
        page.click("#undo")
        page.locator('body[data-figures="ready"]').wait_for()
        page.click("#play")
        page.locator('body[data-state="playing"]').wait_for()
        start = page.locator('[data-cell="4,4"]').bounding_box()  # swipe up from the start's row
        x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 60}]})
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert page.locator("body").get_attribute("data-moves") == "1"
        browser.close()
