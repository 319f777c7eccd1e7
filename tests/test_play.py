"""The play page (designer play) in a real browser: headless Chromium driven by Playwright.

The browser is Debian's chromium (``.ci/run`` installs it when missing); Playwright only drives
it and never downloads one. Without either, these tests are skipped and say why. Set
DESIGNER_SCREENSHOT=FILE.png to keep the screenshot the first test takes (the README's).
"""

import os
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
    assert page.locator("#status").inner_text() == f"Solved in {len(moves)} (par {len(moves)})"
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


def test_a_pack_has_level_select_and_next_level(browser, tmp_path, capsys):
    pack = tmp_path / "pack"
    pack.mkdir()
    for name in ("snow-and-hole.txt", "strong-reversible.txt"):
        shutil.copy(LEVELS / name, pack / name)
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
