"""The studio's live figures where the user sits (issue 44): ``designer studio`` started as a
user starts it, its page in headless Chromium (Playwright), and the time from a click on the
board to its figures on the page, measured in the page itself (``performance.now()`` at the
pointer's press, to the first frame after ``body[data-figures="ready"]``).

Two figures: single edits (a cell painted rock, then ice again), and a drag over 10 cells followed
by one click, whose final figures are what the designer waits for.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics

from designer.core.errors import DesignerError, RequestNotMet
from designer.core.limits import MAX_DESIGN_SIDE
from designer.studies.bench import solvable_random_level
from designer.studies.bench_studio import studio_server

#: Chromium's flags for a headless run as root in a sandboxed machine with a closed network.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Installed into the page (the context bypasses its CSP for this alone): each press's latency.
PROBE = """() => {
  window.presses = 0; window.latency = {}; let pressed = null;
  document.getElementById("board").addEventListener("pointerdown", () => {
    pressed = { number: ++window.presses, at: performance.now() };
  }, true);
  new MutationObserver(() => {
    if (document.body.dataset.figures !== "ready" || pressed === null) return;
    const press = pressed; pressed = null;
    requestAnimationFrame(() => { window.latency[press.number] = performance.now() - press.at; });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-figures"] });
}"""


def chromium_path(given: str | None = None) -> str:
    found = (
        given
        or os.environ.get("DESIGNER_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if not found:
        raise DesignerError(
            "no Chromium found: install Debian's chromium, or give its path with --chromium"
        )
    return found


def with_items(rows: list[str], items: int, rng: random.Random) -> list[str]:
    """``rows`` with ``items`` items on random ice cells."""
    grid = [list(row) for row in rows]
    ice = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "."]
    for r, c in rng.sample(ice, min(items, len(ice))):
        grid[r][c] = "*"
    return ["".join(row) for row in grid]


def bench_studio_page(
    height: int = 20,
    width: int = 20,
    items: int = 0,
    edits: int = 30,
    density: float = 0.2,
    seed: int = 0,
    chromium: str | None = None,
) -> dict:
    """Click-to-figures latency in Chromium on a random solvable HxW level with ``items`` items:
    ``edits`` single edits, then 5 drags over 10 cells each followed by one click (milliseconds:
    the median and the slowest of each)."""
    if height > MAX_DESIGN_SIDE or width > MAX_DESIGN_SIDE:
        raise DesignerError(
            f"--size {height}x{width}: the studio takes grids of at most "
            f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE}"
        )
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise DesignerError(
            "bench studio-page drives Chromium through Playwright: pip install 'ice-designer[test]'"
        ) from None
    try:
        return _measure(height, width, items, edits, density, seed, chromium, sync_playwright)
    except Error as exc:  # the browser or the page failed: said in one line
        raise RequestNotMet(
            f"bench studio-page: Chromium: {str(exc).splitlines()[0][:200]}"
        ) from None


def _measure(
    height: int,
    width: int,
    items: int,
    edits: int,
    density: float,
    seed: int,
    chromium: str | None,
    sync_playwright,
) -> dict:
    rng = random.Random(seed)
    rows = with_items(solvable_random_level(height, width, density, seed).rows(), items, rng)
    ice = [
        (r, c)
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch == "." and 0 < r < height - 1
    ]
    with studio_server() as (port, token), sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path(chromium), args=FLAGS, headless=True
        )
        try:
            page = browser.new_context(
                bypass_csp=True, viewport={"width": 1280, "height": 900}
            ).new_page()
            page.goto(f"http://127.0.0.1:{port}/#token={token}")
            page.set_input_files(
                "#open",
                files=[
                    {
                        "name": "bench.txt",
                        "mimeType": "text/plain",
                        "buffer": ("\n".join(rows) + "\n").encode(),
                    }
                ],
            )
            page.locator(f'[data-cell="{height - 1},{width - 1}"]').wait_for()
            page.locator('body[data-figures="ready"]').wait_for()
            page.evaluate(PROBE)

            def click(cell: str) -> float:
                """Click ``cell`` and wait for its figures: the milliseconds the page measured."""
                page.click(cell)
                number = page.evaluate("() => window.presses")
                page.wait_for_function(
                    f"() => window.latency[{number}] !== undefined", timeout=600_000
                )
                return page.evaluate(f"() => window.latency[{number}]")

            single: list = []
            while len(single) < edits:
                r, c = ice[rng.randrange(len(ice))]
                for tool in ("rock", "ice"):
                    page.click(f'[data-tool="{tool}"]')
                    single.append(click(f'[data-cell="{r},{c}"]'))
            after_drag = []
            for _ in range(5):
                page.click('[data-tool="rock"]')
                r = rng.randrange(1, height - 1)
                cells = [
                    page.locator(f'[data-cell="{r},{c}"]').bounding_box()
                    for c in range(1, min(11, width - 1))
                ]
                page.mouse.move(cells[0]["x"] + 2, cells[0]["y"] + 2)
                page.mouse.down()
                for box in cells[1:]:
                    page.mouse.move(box["x"] + 2, box["y"] + 2)
                page.mouse.up()
                # not one the drag painted
                r2, c2 = rng.choice([cell for cell in ice if cell[0] != r])
                after_drag.append(click(f'[data-cell="{r2},{c2}"]'))
                # the drag and the click undone: the next starts from the same level
                page.click("#undo")
                page.click("#undo")
                page.locator('body[data-figures="ready"]').wait_for()
        finally:
            browser.close()
    return {
        "size": f"{height}x{width}",
        "items": items,
        "rock_density": density,
        "seed": seed,
        "edits": len(single),
        "ms_median": round(statistics.median(single), 1),
        "ms_max": round(max(single), 1),
        "drag_then_click_ms_median": round(statistics.median(after_drag), 1),
        "drag_then_click_ms_max": round(max(after_drag), 1),
    }
