"""designer studio (issue 32, first part): the server started as users start it and tested over
real HTTP (its guards: token, Host, Origin, body size, JSON), its fills in processes that end on
cancel, and the page in headless Chromium: paint, lock, fill, see the figures."""

import http.client
from contextlib import contextmanager
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_play import CHROMIUM, FLAGS, sync_playwright  # noqa: E402  the same browser as the play page's

from designer.cli import main  # noqa: E402

pytestmark = pytest.mark.slow  # the studio in Chromium and over HTTP

ROOT = Path(__file__).resolve().parent.parent


class Studio:
    def __init__(self, proc, url):
        self.proc, self.url = proc, url
        found = re.match(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", url)
        self.port, self.token = int(found[1]), found[2]
        self.host = f"127.0.0.1:{self.port}"
        self.origin = f"http://{self.host}"

    def request(self, method, path, body=b"", headers=None, *, token=True, host=None, origin=True):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": host or self.host, "Content-Length": str(len(body)), **(headers or {})}
        if token:
            sent["X-Studio-Token"] = self.token
        if origin:
            sent["Origin"] = self.origin if origin is True else origin
        for key, value in sent.items():
            conn.putheader(key, value)
        conn.endheaders()
        if body:
            conn.send(body)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        return response.status, dict(response.getheaders()), data

    def post(self, path, obj, **kwargs):
        status, headers, data = self.request("POST", path, json.dumps(obj).encode(), **kwargs)
        return status, json.loads(data)

    def page(self) -> str:
        """A new page id, as the page asks for one when it loads."""
        status, found = self.post("/api/page", {})
        assert status == 200
        return found["page"]

    def events(self, fill):
        """The fill's server-sent events until its last."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", f"/api/fill/{fill}/events", headers={"X-Studio-Token": self.token})
        response = conn.getresponse()
        assert response.status == 200
        found = []
        for line in response:
            if line.startswith(b"data: "):
                found.append(json.loads(line[6:]))
                if found[-1]["kind"] != "progress":
                    break
        conn.close()
        return found


def children(pid: int) -> list[str]:
    """The command lines of ``pid``'s live child processes (multiprocessing's resource tracker and the
    live figures' processes aside: ``designer.studio.analysts``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        name, fields = stat.split("(", 1)[1].rsplit(")", 1)[0], stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z" and "resource_tracker" not in cmdline and name != "studio-figures":
            found.append(cmdline)
    return found


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "designer", "studio", "--no-browser"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path_factory.mktemp("studio"))
    line = proc.stdout.readline()
    assert line.startswith("designer studio: http://127.0.0.1:"), line + proc.stderr.read()
    yield Studio(proc, line.split(": ", 1)[1].strip())
    proc.send_signal(signal.SIGINT)
    assert proc.wait(20) == 130
    err = proc.stderr.read()
    assert "Traceback" not in err, err


def test_every_call_needs_the_token_and_this_servers_host_and_origin_and_no_cookie_is_set(studio):
    """The page and its scripts are public code: this server's Host alone serves them. Every call
    needs the token, in its header: no cookie is set or read (a browser would send it to every
    port of the host, to any other local server it visits)."""
    status, headers, data = studio.request("GET", "/", token=False, origin=False)
    assert status == 200 and b'data-tool="rock"' in data and "set-cookie" not in {k.lower() for k in headers}
    assert "frame-ancestors 'none'" in headers["content-security-policy"] and headers["x-frame-options"] == "DENY"
    assert studio.request("GET", "/studio.js", token=False, origin=False)[0] == 200
    assert studio.request("GET", f"/?token={studio.token}", token=False, origin=False, host="evil.example:80")[0] == 403
    assert studio.request("GET", "/studio.js", token=False, origin=False, host="evil.example:80")[0] == 403
    rows = {"rows": ["#G#", "#?#", "#S#"]}
    assert studio.post("/api/figures", rows)[0] == 200
    assert studio.post("/api/figures", rows, token=False)[0] == 403
    assert studio.post("/api/figures", rows, host=f"rebound.example:{studio.port}")[0] == 403
    assert studio.post("/api/figures", rows, origin="http://evil.example")[0] == 403
    assert studio.post("/api/figures", rows, origin=False)[0] == 403
    for cookie in (f"designer_studio_token={studio.token}", f"designer_studio_token_{studio.port}={studio.token}"):
        assert studio.post("/api/figures", rows, headers={"Cookie": cookie}, token=False)[0] == 403
    assert studio.post("/api/page", {}, token=False)[0] == 403


def test_bodies_are_bounded_and_must_be_json_objects_each_refused_in_one_message(studio):
    conn = http.client.HTTPConnection("127.0.0.1", studio.port, timeout=30)
    conn.putrequest("POST", "/api/figures", skip_host=True)
    for key, value in {"Host": studio.host, "X-Studio-Token": studio.token, "Origin": studio.origin,
                       "Content-Length": str(50 * 1024 * 1024)}.items():
        conn.putheader(key, value)
    conn.endheaders()
    conn.send(b"x" * 65536)
    response = conn.getresponse()
    assert response.status == 413 and "over" in json.loads(response.read())["error"]
    conn.close()
    for body, status in ((b"{bad", 400), (b"[1, 2]", 400), (b'{"rows": 3}', 400),
                         (json.dumps({"rows": ["." * 41] * 3}).encode(), 400),
                         (json.dumps({"rows": ["#G#", "#x#", "#S#"]}).encode(), 400)):
        got, _, data = studio.request("POST", "/api/figures", body)
        assert got == status and json.loads(data)["error"]
    assert studio.request("GET", "/nowhere")[0] == 404


def test_the_live_figures_are_analyzes(studio, tmp_path, capsys):
    rows = ["###G####", "#......#", "#.#....#", "#....#.#", "#.#....#", "####S###"]
    status, found = studio.post("/api/figures", {"rows": rows})
    (tmp_path / "level.txt").write_text("\n".join(rows) + "\n")
    assert main(["analyze", str(tmp_path / "level.txt"), "--json"]) == 0
    analysis = json.loads(capsys.readouterr().out)
    one = found["routes"][0]
    assert (one["min_stops"], one["class"], one["reversible"]) == (
        analysis["min_stops"], analysis["solvability"], analysis["reversible"])
    assert (one["options"], one["rail_stops"]) == (analysis["branching"]["options"], analysis["branching"]["rail_stops"])
    assert one["traps"] == analysis["trap_cells"]
    room = studio.post("/api/figures", {"rows": ["###3##", "##...#", "2....#", "#....#", "#...##", "##1###"]})[1]
    assert [(one["route"], one["min_stops"]) for one in room["routes"]] == [("1:2", 6), ("1:3", 7), ("2:3", 6)]


def test_a_fill_keeps_the_locked_cells_and_streams_its_progress(studio):
    template = ["#####G######"] + ["#" + "?" * 10 + "#"] * 10 + ["######S#####"]
    template[3] = "#??#??????##"[:11] + "#"
    request = {"min_stops": 12, "seed": 2, "time_limit": 30}
    assert studio.post("/api/check", {"rows": template, "request": {"min_stops": 150}})[1]["ok"] is False
    for path in ("/api/check", "/api/fill"):  # an unknown method is refused before any fill starts
        status, answer = studio.post(path, {"page": studio.page(), "rows": template, "request": {**request, "method": "nope"}})
        assert status == 400 and answer["error"].startswith("unknown method 'nope'"), answer
    status, started = studio.post("/api/fill", {"page": studio.page(), "rows": template, "request": request})
    assert status == 200
    events = studio.events(started["fill"])
    assert events[-1]["kind"] == "done", events
    level = json.loads(events[-1]["level"])
    assert level["analysis"]["min_stops"] >= 12 and level["analysis"]["solvability"] == "strong"
    for r, row in enumerate(template):
        for c, ch in enumerate(row):
            assert ch == "?" or level["rows"][r][c] == ch
    assert level["generator"]["request"]["template"] == template
    status, refused = studio.post("/api/fill", {"page": studio.page(), "rows": template, "request": {"min_stops": "x"}})
    assert status == 400 and refused["error"] == "min stops must be a whole number, not \"x\""


def test_cancelling_a_long_fill_ends_its_process_at_once(studio):
    status, started = studio.post("/api/fill", {"page": studio.page(), "rows": ["#" * 40] + ["#" + "?" * 38 + "#"] * 38 + ["#" * 40],
                                                "request": {"maximize": True, "time_limit": 120}})
    assert status == 200
    deadline = time.monotonic() + 30
    while not children(studio.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(studio.proc.pid), "the fill runs in a process of its own"
    began = time.monotonic()
    assert studio.post(f"/api/fill/{started['fill']}/cancel", {})[0] == 200
    assert time.monotonic() - began < 5
    deadline = time.monotonic() + 5
    while children(studio.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(studio.proc.pid) == []


def test_a_fills_events_end_in_one_event_when_its_pipe_is_closed_under_them():
    """``cancel`` closes the pipe from another thread while ``events`` may be waiting on it: the
    stream ends with one event, never an error in the server (it once raised EBADF at Ctrl-C)."""
    import multiprocessing

    from designer.studio.fills import Fill

    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=abs, args=(0,))  # ends at once, sending nothing
    process.start()
    process.join()
    child.close()
    fill = Fill(process, parent)
    parent.close()  # as cancel leaves it, before the stream has seen the cancel
    assert [event["kind"] for event in fill.events(poll=0.01)] == ["failed"]
    fill.cancelled.set()
    assert [event["kind"] for event in fill.events(poll=0.01)] == ["cancelled"]


def test_a_fill_cancelled_from_several_threads_at_once_ends_once_without_an_error():
    """The server stopping, a closed stream and a cancel request may all cancel one fill at the
    same moment: the pipe is closed once, never twice (a second close raised EBADF in a thread and
    printed a traceback at Ctrl-C)."""
    import multiprocessing

    from designer.studio.fills import Fill

    context = multiprocessing.get_context("spawn")
    process = context.Process(target=abs, args=(0,))
    process.start()
    process.join()
    errors = []
    for _ in range(300):
        parent, child = context.Pipe(duplex=False)
        child.close()
        fill = Fill(process, parent)
        gate = threading.Barrier(6)

        def cancel(fill=fill, gate=gate):
            gate.wait()
            try:
                fill.cancel()
            except Exception as exc:  # noqa: BLE001 - what the thread would have printed
                errors.append(exc)

        threads = [threading.Thread(target=cancel) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert fill.conn.closed and fill.cancelled.is_set()
    assert errors == []


needs_browser = pytest.mark.skipif(sync_playwright is None or CHROMIUM is None, reason="no Playwright or Chromium")


@needs_browser
def test_paint_lock_fill_and_see_the_figures_in_chromium(studio, tmp_path, capsys):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(studio.url)
        assert page.locator('[data-cell="0,0"]').get_attribute("data-tile") == "#"
        page.click('[data-tool="door"]')
        page.select_option("#door-number", "1")
        page.click('[data-cell="11,5"]')
        page.select_option("#door-number", "2")
        page.click('[data-cell="6,0"]')
        page.click('[data-tool="rock"]')
        rocks = ["3,3", "3,8", "5,5", "8,2", "8,9", "9,6"]
        for cell in rocks:
            page.click(f'[data-cell="{cell}"]')
        assert page.locator("[data-locked]").count() == 44 + 6  # the frame, its two doors painted, the rocks
        page.fill('[name="min-stops"]', "21")
        page.fill('[name="time-limit"]', "60")
        page.click("#fill")
        # (the page's own CSP forbids eval, so the waits are selectors, not wait_for_function)
        page.locator('body[data-state="filling"]').wait_for()
        page.locator('body[data-state="editing"]').wait_for(timeout=90_000)
        assert "filled" in page.inner_text("#progress"), page.inner_text("#progress")
        for cell in rocks:
            assert page.locator(f'[data-cell="{cell}"]').get_attribute("data-tile") == "#"
        page.locator('body[data-class="strong"]:not([data-min-stops="none"])').wait_for()
        assert int(page.get_attribute("body", "data-min-stops")) >= 21
        level = page.evaluate("window.lastLevel")
        saved = tmp_path / "filled.json"
        saved.write_text(json.dumps(level))
        capsys.readouterr()
        assert main(["analyze", str(saved), "--json"]) == 0
        routes = json.loads(capsys.readouterr().out)["routes"]
        assert int(page.get_attribute("body", "data-min-stops")) == min(one["min_stops"] for one in routes)
        # an edit: the figures follow it
        before = page.get_attribute("body", "data-min-stops")
        page.click('[data-tool="ice"]')
        path = page.locator(".cell.path").first.get_attribute("data-cell")
        page.click('[data-tool="rock"]')
        page.evaluate("document.body.dataset.minStops = 'stale'")
        page.click(f'[data-cell="{level["doors"]["1"][0] - 1},{level["doors"]["1"][1]}"]')
        page.locator('body:not([data-min-stops="stale"])').wait_for()
        assert path and page.get_attribute("body", "data-min-stops") != "stale" and before
        page.keyboard.press("Control+z")
        page.locator(f'body[data-min-stops="{before}"]').wait_for()
        assert errors == []
        browser.close()


def test_bench_studio_prints_the_live_analysis_figures(capsys):
    assert main(["bench", "studio", "--requests", "12", "--clients", "3", "--size", "10x10"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["requests"] == 12 and found["not_ok"] == 0 and 0 < found["ms_median"] <= found["ms_p95"]


@needs_browser
def test_play_in_place_with_the_play_pages_keys_hint_solve_and_stars(studio, tmp_path, capsys):
    rows = ["###G####", "#......#", "#.#....#", "#....#.#", "#.#....#", "####S###"]
    (tmp_path / "level.txt").write_text("\n".join(rows) + "\n")
    assert main(["solve", str(tmp_path / "level.txt")]) == 0
    moves = capsys.readouterr().out.splitlines()[0]
    keys = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(studio.url)
        page.fill('[name="size"]', "6x8")
        page.press('[name="size"]', "Enter")
        for tool, cells in (("start", ["5,4"]), ("goal", ["0,3"]), ("ice", [f"{r},{c}" for r in range(1, 5)
                                                                             for c in range(1, 7)]),
                            ("rock", ["2,2", "3,5", "4,2"])):
            page.click(f'[data-tool="{tool}"]')
            for cell in cells:
                page.click(f'[data-cell="{cell}"]')
        page.locator('body[data-min-stops="%d"]' % len(moves)).wait_for()
        page.click("#play")
        page.locator('body[data-state="playing"]').wait_for()
        assert page.locator('.cell.player').get_attribute("data-cell") == "5,4"
        page.keyboard.press("h")
        assert page.get_attribute("body", "data-hint") == moves[0]
        for move in moves:
            page.keyboard.press(keys[move])
        assert page.get_attribute("body", "data-stars") == "3" and page.get_attribute("body", "data-moves") == str(len(moves))
        page.keyboard.press("r")
        page.keyboard.press(keys["l"] if moves[0] != "l" else keys["r"])  # a detour, then the solver
        page.keyboard.press("Enter")
        assert page.get_attribute("body", "data-stars") == "0"  # solved by the solver: no stars
        page.keyboard.press("Escape")
        page.locator('body[data-state="editing"]').wait_for()
        assert page.locator(".cell.player").count() == 0
        assert errors == []
        browser.close()


def embedded_l_room() -> dict:
    """The example's hand-made Tiled map with its tileset embedded (a browser sends one file)."""
    maps = Path(__file__).resolve().parents[1] / "examples" / "maps"
    document = json.loads((maps / "l-room.tmj").read_text())
    tileset = json.loads((maps / "ice-kit.tsj").read_text())
    document["tilesets"] = [{"firstgid": 1, **{k: v for k, v in tileset.items() if k not in ("type", "version",
                                                                                            "tiledversion")}}]
    return document


def test_open_a_file_and_save_it_as_a_level_or_into_its_map_over_the_api(studio):
    status, opened = studio.post("/api/open", {"name": "l-room.tmj", "text": json.dumps(embedded_l_room())})
    assert status == 200 and opened["kind"] == "map" and opened["rows"][3][0] == "2"
    external = (Path(__file__).resolve().parents[1] / "examples" / "maps" / "l-room.tmj").read_text()
    status, refused = studio.post("/api/open", {"name": "l-room.tmj", "text": external})
    assert status == 400 and "embed it in the map" in refused["error"]
    status, opened = studio.post("/api/open", {"name": "t.txt", "text": "#G#\n#?#\n#S#\n"})
    assert (status, opened["kind"]) == (200, "template")
    status, refused = studio.post("/api/save", {"as": "level", "rows": opened["rows"]})
    assert status == 400 and "1 free cell is not filled yet" in refused["error"]
    status, saved = studio.post("/api/save", {"as": "level", "rows": ["#G#", "#.#", "#S#"]})
    assert status == 200 and json.loads(saved["text"])["analysis"]["min_stops"] == 1


@needs_browser
def test_a_tiled_map_opened_filled_and_saved_back_keeps_its_other_layers(studio, tmp_path):
    document = embedded_l_room()
    (tmp_path / "l-room.tmj").write_text(json.dumps(document))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
        page.goto(studio.url)
        page.set_input_files("#open", str(tmp_path / "l-room.tmj"))
        page.locator('[data-cell="3,0"][data-tile="2"]').wait_for()  # the map's door 2, once it is open
        page.fill('[name="min-stops"]', "9")
        page.click("#fill")
        page.locator('body[data-state="filling"]').wait_for()
        page.locator('body[data-state="editing"]').wait_for(timeout=90_000)
        assert page.locator('[data-tile="?"]').count() == 0
        with page.expect_download() as saving:
            page.click("#save-map")
        filled = json.loads(Path(saving.value.path()).read_text())
        assert filled["layers"][1:] == document["layers"][1:] and filled["tilesets"] == document["tilesets"]
        with page.expect_download() as saving:
            page.click("#save-level")
        level = json.loads(Path(saving.value.path()).read_text())
        assert level["generator"]["request"]["template"][3][0] == "2" and level["rows"][0][5] == "3"
        browser.close()


def filled(page, fields: dict) -> dict:
    """The request panel's ``fields`` set, Fill clicked and waited for: the level it hands back."""
    for name, value in fields.items():
        page.fill(f'[name="{name}"]', value)
    page.click("#fill")
    page.locator('body[data-state="filling"]').wait_for()
    page.locator('body[data-state="editing"]').wait_for(timeout=90_000)
    level = page.evaluate("window.lastLevel")
    assert level is not None, page.inner_text("#progress")
    return level


@contextmanager
def studio_page(studio, downloads: bool = True):
    """Chromium at 1280x800 on the studio's page: (browser, page, the page's errors)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=downloads)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(studio.url)
        yield browser, page, errors
        browser.close()


@needs_browser
def test_fills_are_kept_side_by_side_and_the_graph_pictures_and_pack_come_from_the_server(studio, tmp_path):
    with studio_page(studio) as (browser, page, errors):
        page.fill('[name="size"]', "8x8")
        page.press('[name="size"]', "Enter")
        page.fill('[name="min-stops"]', "7")
        for button in ("#fill", "#again", "#again"):
            page.click(button)
            page.locator('body[data-state="filling"]').wait_for()
            page.locator('body[data-state="editing"]').wait_for(timeout=60_000)
            assert "filled" in page.inner_text("#progress"), page.inner_text("#progress")
        assert page.locator(".result").count() == 3
        assert [page.locator(f'[data-result="{k}"]').inner_text().split(":")[0] for k in range(3)] == \
            ["seed 2", "seed 1", "seed 0"]
        page.click('[data-result="2"]')  # seed 0's level, taken back
        page.locator('body:not([data-min-stops="none"])').wait_for()
        assert page.evaluate("window.lastLevel.generator.seed") == 0
        page.check("#graph")
        page.locator("#graph-view:not([hidden])").wait_for()
        assert page.get_attribute("#graph-view", "src").startswith("data:image/svg+xml;base64,")
        with page.expect_download() as saving:
            page.click("#export-png")
        assert Path(saving.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        page.click("#add-to-pack")
        page.click('[data-result="0"]')
        page.click("#add-to-pack")
        with page.expect_download() as saving:
            page.click("#export-pack")
        html = Path(saving.value.path()).read_text()
        # each level named twice: in the page's levels and in the pack its playtests name
        assert html.count('"name": "level-00') == 4 and "<script>" in html
        assert errors == []


def test_a_new_tiled_map_and_its_tileset_image_over_the_api(studio):
    status, found = studio.post("/api/tiled", {"rows": ["###3##", "##...#", "2....#", "#....#", "#...##", "##1###"]})
    assert status == 200 and found["image_name"] == "ice-room-tiles.png"
    document = json.loads(found["map"])
    assert [layer["name"] for layer in document["layers"]] == ["terrain", "doors", "markers"]
    import base64

    assert base64.b64decode(found["image"])[:4] == b"\x89PNG"
    assert studio.post("/api/tiled", {"rows": ["#G#", "#?#", "#S#"]})[0] == 400  # a free cell left


def test_a_closed_page_cancels_its_fill(studio):
    status, started = studio.post("/api/fill", {"page": studio.page(), "rows": ["#" * 40] + ["#" + "?" * 38 + "#"] * 38 + ["#" * 40],
                                                "request": {"maximize": True, "time_limit": 120}})
    assert status == 200
    conn = http.client.HTTPConnection("127.0.0.1", studio.port, timeout=30)
    conn.request("GET", f"/api/fill/{started['fill']}/events", headers={"X-Studio-Token": studio.token})
    response = conn.getresponse()
    assert response.status == 200
    deadline = time.monotonic() + 30
    while not children(studio.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(studio.proc.pid)
    conn.close()  # the page went away
    deadline = time.monotonic() + 10
    while children(studio.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(studio.proc.pid) == []


@needs_browser
def test_cancelling_a_long_fill_in_the_page_leaves_it_responsive_and_no_process(studio):
    deadline = time.monotonic() + 30  # the fills an earlier test's closed page left end first: at most 2 run at once
    while children(studio.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(studio.url)
        page.fill('[name="size"]', "40x40")
        page.press('[name="size"]', "Enter")
        page.locator('[data-cell="39,39"]').wait_for()
        page.check('[name="maximize"]')
        page.fill('[name="time-limit"]', "300")
        page.click("#fill")
        page.locator('body[data-state="filling"]').wait_for()
        deadline = time.monotonic() + 30
        while not children(studio.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert children(studio.proc.pid), page.inner_text("#progress")
        began = time.monotonic()
        page.click("#cancel")
        page.locator('body[data-state="editing"]').wait_for(timeout=2_000)
        page.click('[data-tool="rock"]')
        page.click('[data-cell="5,5"]')  # the page answers at once
        assert page.locator('[data-cell="5,5"]').get_attribute("data-tile") == "#" and time.monotonic() - began < 3
        deadline = time.monotonic() + 5
        while children(studio.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert children(studio.proc.pid) == []
        browser.close()


@needs_browser
def test_cancel_while_the_fill_is_still_starting_wins_over_its_answer(studio):
    """Cancel between the click on Fill and the server's answer (a busy machine makes that gap
    long): the page is back to editing at once, and the fill whose id arrives after is ended."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(studio.url)
        page.locator('[data-cell="0,0"]').wait_for()
        held = []
        page.route("**/api/fill", lambda route: held.append(route))  # its answer waits for us
        page.check('[name="maximize"]')
        page.fill('[name="time-limit"]', "300")
        page.click("#fill")
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert held and page.locator("body").get_attribute("data-state") == "filling"
        page.click("#cancel")
        assert page.locator("body").get_attribute("data-state") == "editing"
        with page.expect_request("**/api/fill/*/cancel", timeout=30_000):
            held[0].continue_()  # the fill starts, then the page cancels it
        deadline = time.monotonic() + 30
        while children(studio.proc.pid) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert children(studio.proc.pid) == []
        assert page.locator("body").get_attribute("data-state") == "editing"
        assert page.locator("#progress").inner_text() == "cancelled"
        browser.close()


@needs_browser
def test_items_painted_played_in_place_and_placed_by_a_fill(studio, tmp_path, capsys):
    path = Path(__file__).resolve().parents[1] / "examples" / "levels" / "two-items.txt"
    rows = path.read_text().split()
    assert main(["solve", str(path)]) == 0
    moves = capsys.readouterr().out.splitlines()[0]
    keys = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}
    tools = {".": "ice", "#": "rock", "*": "item", "S": "start", "G": "goal"}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(studio.url)
        page.fill('[name="size"]', f"{len(rows)}x{len(rows[0])}")
        page.press('[name="size"]', "Enter")
        for ch, tool in tools.items():
            page.click(f'[data-tool="{tool}"]')
            for r, row in enumerate(rows):
                for c, drawn in enumerate(row):
                    if drawn == ch and not (ch == "#" and (r in (0, len(rows) - 1) or c in (0, len(row) - 1))):
                        page.click(f'[data-cell="{r},{c}"]')
        page.locator('body[data-min-stops="%d"]' % len(moves)).wait_for()
        page.click("#play")
        page.locator('body[data-state="playing"]').wait_for()
        assert page.get_attribute("body", "data-items") == "2"
        for move in moves:
            page.keyboard.press(keys[move])
        assert page.get_attribute("body", "data-items") == "0"
        assert page.get_attribute("body", "data-stars") == "3" and page.get_attribute("body", "data-moves") == str(len(moves))
        page.keyboard.press("Escape")
        page.locator('body[data-state="editing"]').wait_for()
        # a fresh room, all free: the fill places one item
        page.fill('[name="size"]', "9x9")
        page.press('[name="size"]', "Enter")
        level = filled(page, {"min-stops": "10", "items": "1"})
        assert len(level["items"]) == 1 and level["analysis"]["min_stops"] >= 10
        assert page.locator('.cell[data-tile="*"]').count() == 1
        assert errors == []
        browser.close()


def test_a_caves_plan_and_fill_over_the_api_each_bad_request_refused_in_one_message(studio):
    from designer.caves.cave import Cave

    cave = Cave.parse((ROOT / "examples" / "caves" / "four-rooms.txt").read_text()).to_json()
    status, found = studio.post("/api/cave/plan", {"cave": cave})
    assert status == 200 and found["free"] and found["figures"].startswith("4 rooms, 4 links, 0 keys")
    status, found = studio.post("/api/cave/plan", {"cave": {**cave, "exit": "nowhere:9"}})
    assert status == 200 and found["draft"] and "not a cave yet" in found["figures"]  # a cave being drawn
    assert "no room 'nowhere'" in found["refused"][0] and "plan" not in found
    assert found["doors"]["one"] == [[1, "entrance"], [2, "doorway to two"], [3, "doorway to three"]]
    status, found = studio.post("/api/cave/save", {"cave": cave, "as": "world"})
    assert status == 400 and "fill it first" in found["error"]
    status, found = studio.post("/api/cave/play", {"cave": cave})
    assert status == 400 and "fill it first" in found["error"]
    status, found = studio.post("/api/cave/save", {"cave": cave, "as": "text"})
    assert status == 200 and Cave.parse(found["text"]) == Cave.from_json(cave)
    status, found = studio.post("/api/fill", {"page": studio.page(), "cave": cave, "request": {"min_stops": 400}})
    assert status == 200  # the plan's proof comes as the fill's failure, as designer cave says it
    events = studio.events(found["fill"])
    assert events[-1]["kind"] == "failed" and "proven infeasible" in events[-1]["message"]
    status, found = studio.post("/api/fill", {"page": studio.page(), "cave": cave, "request": {"rooms": 3}})
    assert status == 400 and "unknown option 'rooms'" in found["error"]


@needs_browser
def test_a_cave_opened_a_room_edited_on_the_board_and_the_whole_cave_filled(studio, tmp_path, capsys):
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, accept_downloads=True)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(studio.url)
        page.set_input_files("#open", str(ROOT / "examples" / "caves" / "four-rooms.txt"))
        page.locator('#cave-rooms [data-room="four"]').wait_for()
        assert page.locator("#cave-rooms button").count() == 4
        assert "free cells left" in page.inner_text("#cave-figures")
        page.click('#cave-rooms [data-room="two"]')
        page.locator('[data-cell="5,0"][data-tile="1"]').wait_for()  # room two's door 1, on the board
        doors = page.locator("#cave-doors li .words").all_inner_texts()  # where the room's doors lead
        assert doors and all(re.fullmatch(r"door \d: (doorway to \w+|entrance|exit)", one) for one in doors), doors
        page.click('[data-tool="rock"]')
        page.click('[data-cell="3,3"]')  # painted, so locked: the fill keeps it
        page.fill('[name="min-stops"]', "50")
        page.fill('[name="time-limit"]', "60")
        page.click("#fill-cave")
        page.locator('body[data-cave="filled"]').wait_for(timeout=90_000)
        assert "cave filled: min stops" in page.inner_text("#progress")
        assert "strong, min stops" in page.inner_text("#cave-figures")
        assert page.locator('[data-cell="3,3"]').get_attribute("data-tile") == "#"
        page.click("#cave-plan")  # the plan at the window's full size, on demand
        assert page.locator("#cave-plan").bounding_box()["width"] > 1000
        page.keyboard.press("Escape")
        assert page.locator("#cave-plan").bounding_box()["width"] < 600
        with page.expect_download() as saving:
            page.click("#save-cave")
        saved = tmp_path / "cave.json"
        saved.write_text(Path(saving.value.path()).read_text())
        assert json.loads(saved.read_text())["rooms"][1]["rows"][3][3] == "#"
        capsys.readouterr()
        assert main(["analyze", str(saved), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["solvability"] == "strong" and report["min_stops"] >= 50
        assert errors == []
        browser.close()


def _download(page, button: str) -> bytes:
    with page.expect_download() as saving:
        page.click(button)
    return Path(saving.value.path()).read_bytes()


@needs_browser
def test_the_four_rooms_cave_drawn_from_an_empty_board_filled_played_and_saved(studio, tmp_path, capsys):
    """The four rooms of examples/caves/four-rooms.txt drawn in the studio from nothing: rooms
    added, their doors painted and joined by clicks, the entrance and the exit set, a key painted,
    named, and both doorways into room four locked with it (one lock in a loop of four rooms
    leaves the other way round: the key could not matter); live figures all along; then filled,
    played to the exit in its play page, and saved as JSON, text and a Tiled world."""
    import io
    import zipfile

    from designer.caves.cave import Cave

    want = Cave.parse((ROOT / "examples" / "caves" / "four-rooms.txt").read_text())
    locked = {("two", 2), ("three", 2)}  # the doorways into room four
    with studio_page(studio) as (browser, page, errors):
        page.click("#new-cave")
        page.locator('body[data-cave="draft"]').wait_for()
        assert "not a cave yet: no room yet" in page.inner_text("#cave-figures")

        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        def edit(name: str) -> None:
            # the list is drawn again as each live plan arrives: a click that lands on a button the
            # last drawing replaced is made again on the new one (seen once on a busy machine)
            for _ in range(3):
                page.click(f'#cave-rooms [data-room="{name}"]')
                try:
                    page.locator(f'#cave-rooms [data-room="{name}"][aria-pressed="true"]').wait_for(timeout=10_000)
                    return
                except PlaywrightTimeout:
                    continue
            raise AssertionError(f"room {name!r} could not be chosen: {page.inner_text('#cave-rooms')}")

        for room in want.rooms:
            page.fill('[name="room-name"]', room.name)
            page.fill('[name="room-size"]', f"{room.shape[0]}x{room.shape[1]}")
            page.fill('[name="room-at"]', f"{room.at[0]},{room.at[1]}")
            page.click("#add-room")
            page.locator(f'#cave-rooms [data-room="{room.name}"][aria-pressed="true"]').wait_for()
            page.click('[data-tool="door"]')
            for number, (r, c) in sorted(room.doors.items()):
                page.select_option("#door-number", str(number))
                page.click(f'[data-cell="{r},{c}"]')
            page.locator(f'#cave-doors li[data-door="{max(room.doors)}"]').wait_for()  # its words, live
        edit("three")
        page.click('[data-tool="item"]')
        page.click('[data-cell="5,5"]')
        page.fill('[name="key-name"]', "gold")
        page.click("#add-key")
        page.locator('[name="link-lock"] option[value="gold"]').wait_for(state="attached")

        def door(name: str, number: int, act: str) -> None:
            edit(name)
            page.click(f'#cave-doors li[data-door="{number}"] [data-act="{act}"]')

        for link in want.links:
            page.select_option('[name="link-lock"]', "gold" if link.a in locked else "")
            door(*link.a, "join")
            assert "joining" in page.inner_text("#cave-joining")
            door(*link.b, "join")
            page.locator(f'#cave-doors li[data-door="{link.b[1]}"] .words:text-matches("doorway to {link.a[0]}")'
                         ).wait_for()
        door(*want.entrance, "entrance")
        door(*want.exit, "exit")
        page.locator('body[data-cave="free"][data-cave-refused="0"]').wait_for()
        assert page.inner_text("#cave-figures").startswith("4 rooms, 4 links, 1 key: free cells left")
        assert page.locator("#cave-plan").is_visible()
        edit("four")
        words = page.locator("#cave-doors li .words").all_inner_texts()
        assert words == ["door 1: doorway to two, locked: gold", "door 2: doorway to three, locked: gold",
                         "door 3: exit"]

        page.fill('[name="min-stops"]', "40")
        page.fill('[name="time-limit"]', "60")
        page.click("#fill-cave")
        page.locator('body[data-cave="filled"]').wait_for(timeout=90_000)
        assert "key gold needed" in page.inner_text("#cave-figures")

        saved = tmp_path / "drawn.json"
        saved.write_bytes(_download(page, "#save-cave"))
        drawn = Cave.from_json(json.loads(saved.read_text()))
        assert [(r.name, r.at, r.floor, r.doors) for r in drawn.rooms] == \
            [(r.name, r.at, r.floor, r.doors) for r in want.rooms]
        assert {(str(link.kind), link.a, link.b, link.lock) for link in drawn.links} == \
            {(link.kind, link.a, link.b, "gold" if link.a in locked else None) for link in want.links}
        assert (drawn.entrance, drawn.exit) == (want.entrance, want.exit)
        assert [(key.name, key.room, key.cell) for key in drawn.keys] == [("gold", "three", (5, 5))]
        capsys.readouterr()
        assert main(["analyze", str(saved), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["solvability"] == "strong" and report["min_stops"] >= 40 and report["keys"][0]["needed"]
        import oracle_caves as oracle  # the plain reader of the rules agrees

        assert oracle.min_stops(drawn) == report["min_stops"] and oracle.strong(drawn)
        assert oracle.min_stops(drawn, without=0) == -1
        assert Cave.parse(_download(page, "#save-cave-text").decode()) == drawn
        with zipfile.ZipFile(io.BytesIO(_download(page, "#save-cave-world"))) as world:
            assert {"cave.world", "one.tmj", "four.tmj"} <= set(world.namelist())

        played = tmp_path / "drawn.html"
        played.write_bytes(_download(page, "#play-cave"))
        assert main(["solve", str(saved)]) == 0
        moves = capsys.readouterr().out.splitlines()[0]
        game = browser.new_page(viewport={"width": 1280, "height": 800})
        game.goto(played.as_uri())
        for letter in moves:
            game.keyboard.press({"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}[letter])
        assert game.get_attribute("body", "data-state") == "solved"
        assert errors == []


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "", " "])
def test_a_host_no_page_could_be_served_under_is_refused_in_one_line(host, capsys):
    assert main(["studio", "--host", host, "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("designer: --host")


PLAYTEST_LEVELS = [("first", ["#####", "#S.##", "#...#", "##.G#", "#####"]),
                   ("second", ["######", "#S...#", "#.##.#", "#...G#", "######"])]


@needs_browser
def test_a_playtest_the_studio_serves_sends_each_line_as_it_is_played(studio, tmp_path):
    """The pack's page served by the studio (its inline script allowed by its hash, nothing else)
    sends every line of its log as it is recorded; the studio shows the figures live, and its
    saved log replays to the same moves and is read by designer playtest."""
    from designer.analysis.solver import solve
    from designer.core.level import Level
    from designer.formats.playtest_log import parse
    from designer.studies.playtests import replay

    levels = [(name, Level.from_rows(rows)) for name, rows in PLAYTEST_LEVELS]
    moves = solve(levels[0][1]).moves
    keys = {"u": "ArrowUp", "d": "ArrowDown", "l": "ArrowLeft", "r": "ArrowRight"}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(studio.url)
        for name, rows in PLAYTEST_LEVELS:
            page.evaluate("rows => window.studio.load(rows)", rows)
            page.click("#add-to-pack")
        page.click("#playtest")
        with context.expect_page() as opening:
            page.click("#playtest-link")
        player = opening.value
        player.on("pageerror", lambda exc: errors.append(str(exc)))
        player.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        player.locator('body[data-logged="1"]').wait_for()  # its first start
        player.keyboard.press(keys[moves[0]])
        player.keyboard.press("u")
        player.keyboard.press("r")
        for move in moves:
            player.keyboard.press(keys[move])
        assert player.get_attribute("body", "data-state") == "solved"
        logged = int(player.get_attribute("body", "data-logged"))  # start, move, undo, restart, start, moves, finish
        assert logged == 6 + len(moves)
        player.locator(f'body[data-sent="{logged}"]').wait_for()
        page.locator(f'#playtest-view[data-lines="{logged}"]').wait_for(timeout=30_000)
        report = page.inner_text("#playtest-report")
        assert "level-001: 1 player, 100% finished" in report and "level-002: no players" in report, report
        with page.expect_download() as saving:
            page.click("#playtest-log")
        text = Path(saving.value.path()).read_text()
        log = parse(text, "playtest.jsonl")
        assert errors == [], errors
        browser.close()
    assert [e.move for e in log.events if e.kind == "move"] == [moves[0], *moves]
    found = replay([("log", log)], levels)
    assert found.levels[0].finished == 1 and found.levels[0].moves == [1 + len(moves)] and found.levels[0].restarts == [1]
    (tmp_path / "pack").mkdir()
    for name, rows in PLAYTEST_LEVELS:
        (tmp_path / "pack" / f"{name}.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "log.jsonl").write_text(text)
    assert main(["playtest", str(tmp_path / "log.jsonl"), "--pack", str(tmp_path / "pack")]) == 0


def test_a_playtests_lines_are_taken_in_order_and_checked_by_the_rules(studio):
    status, made = studio.post("/api/playtest", {"levels": [{"name": n, "rows": r} for n, r in PLAYTEST_LEVELS]})
    assert status == 200 and made["url"] == f"/playtest/{made['playtest']}"
    status, headers, html = studio.request("GET", made["url"], token=False, origin=False)
    assert status == 200 and b"/lines" in html
    assert "'unsafe-inline'" not in headers["content-security-policy"]
    assert "script-src 'sha256-" in headers["content-security-policy"]
    sink = made["url"] + "/lines"
    start = {"visit": "v1", "t": 0, "level": 0, "attempt": 1, "event": "start"}
    right = {**start, "t": 500, "event": "move", "move": "r", "at": [1, 2], "by": "player"}
    assert studio.post(sink, {"visit": "v1", "from": 0, "lines": [start]}, token=False) == (200, {"have": 1})
    # sent again (a lost answer): the studio's count says where to go on from
    status, found = studio.post(sink, {"visit": "v1", "from": 0, "lines": [start]}, token=False)
    assert status == 409 and found["have"] == 1
    # a move the rules do not give: refused in one line, nothing taken
    status, found = studio.post(sink, {"visit": "v1", "from": 1, "lines": [{**right, "at": [1, 3]}]}, token=False)
    assert status == 400 and "by the rules" in found["error"]
    assert studio.post(sink, {"visit": "v1", "from": 1, "lines": [right]}, token=False) == (200, {"have": 2})
    assert studio.post(sink, {"visit": "v1", "from": 2, "lines": [{"event": "dance"}]}, token=False)[0] == 400
    # the page's own origin only, and no other playtest's address
    assert studio.post(sink, {"visit": "v2", "from": 0, "lines": [start]}, token=False, origin="http://evil.example")[0] == 403
    assert studio.post("/playtest/nosuchplaytest/lines", {"visit": "v2", "from": 0, "lines": [start]}, token=False)[0] == 404
    # the figures, the log and the report need the studio's token
    assert studio.post(f"/api/playtest/{made['playtest']}/figures", {}, token=False)[0] == 403
    status, figures = studio.post(f"/api/playtest/{made['playtest']}/figures", {})
    assert status == 200 and figures["lines"] == 2 and figures["levels"][0]["players"] == 1
    status, log = studio.post(f"/api/playtest/{made['playtest']}/log", {})
    assert status == 200 and log["text"].count("\n") == 3
    status, report = studio.post(f"/api/playtest/{made['playtest']}/report", {})
    assert status == 200 and "where players rested" in report["text"]


def test_a_playtests_routes_hold_against_a_hostile_client(studio):
    """No token, but the Host and Origin of this server and the playtest's random id: an empty
    post adds no visit (issue 60: 20,000 of them made 20,001 visits), a foreign Origin, another
    Host, a guessed id, an oversized body and too many lines are refused, and a visit's lines are
    its own."""
    status, made = studio.post("/api/playtest", {"levels": [{"name": n, "rows": r} for n, r in PLAYTEST_LEVELS]})
    sink, figures = made["url"] + "/lines", f"/api/playtest/{made['playtest']}/figures"
    start = {"visit": "v1", "t": 0, "level": 0, "attempt": 1, "event": "start"}
    for k in range(300):
        assert studio.post(sink, {"visit": f"ghost{k}", "from": 0, "lines": []}, token=False) == (200, {"have": 0})
    assert studio.post(figures, {})[1]["visits"] == 0
    assert studio.post(sink, {"visit": "v1", "from": 0, "lines": [start]}, token=False, origin="null")[0] == 403
    assert studio.post(sink, {"visit": "v1", "from": 0, "lines": [start]}, token=False,
                       host=f"evil.example:{studio.port}")[0] == 403
    guessed = made["playtest"][:-1] + ("A" if made["playtest"][-1] != "A" else "B")
    assert studio.post(f"/playtest/{guessed}/lines", {"visit": "v1", "from": 0, "lines": [start]}, token=False)[0] == 404
    status, _, _ = studio.request("POST", sink, b"{" + b" " * (2 << 20) + b"}", token=False)
    assert status == 413
    status, found = studio.post(sink, {"visit": "v1", "from": 0, "lines": [start] * 1001}, token=False)
    assert status == 400 and "up to 1,000" in found["error"]
    status, found = studio.post(sink, {"visit": "v1", "from": 0, "lines": [{**start, "visit": "v2"}]}, token=False)
    assert status == 400 and "another visit" in found["error"]
    assert studio.post(sink, {"visit": "v1", "from": 0, "lines": [start]}, token=False) == (200, {"have": 1})
    assert studio.post(figures, {})[1]["visits"] == 1


@needs_browser
def test_a_coin_painted_stays_and_a_fill_places_more_each_worth_taking(studio):
    """The coin tool paints a `$` the fill keeps where it is (a template's pinned coin); ``coins``
    asks the fill for more, and every coin of the level it hands back is worth taking."""
    from designer.analysis.coins import coin_report
    from designer.formats.level_json import level_from_json

    with studio_page(studio) as (_, page, errors):
        page.fill('[name="size"]', "9x9")
        page.press('[name="size"]', "Enter")
        page.click('[data-tool="coin"]')
        page.click('[data-cell="3,3"]')
        assert page.locator('.cell[data-tile="$"]').count() == 1
        level = level_from_json(filled(page, {"min-stops": "10", "coins": "1"}))
        assert (3, 3) in level.coins and len(level.coins) == 2
        assert page.locator('.cell[data-tile="$"]').count() == 2
        report = coin_report(level, 30.0)
        assert report.traps == 0 and all(coin.adds >= 1 for coin in report.coins)
        assert errors == []


def test_a_studio_started_with_a_player_gives_that_players_difficulty_over_http(tmp_path):
    """``designer studio --player FILE`` as a user starts it: the live figures' predicted difficulty
    over real HTTP is that player's (a member with memory, played out in the figures process)."""
    from designer.analysis.player import play
    from designer.core.level import Level
    from designer.core.players import Player

    explorer = Player.of("explorer", skill=2.0, back_aversion=0.5, memory=1.0, foresight=1, lapse=0.1)
    (tmp_path / "explorer.json").write_text(json.dumps(explorer.to_json()))
    proc = subprocess.Popen([sys.executable, "-m", "designer", "studio", "--no-browser", "--player",
                             str(tmp_path / "explorer.json")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"}, cwd=tmp_path)
    try:
        line = proc.stdout.readline()
        assert line.startswith("designer studio: http://127.0.0.1:"), line + proc.stderr.read()
        served = Studio(proc, line.split(": ", 1)[1].strip())
        rows = ["#######", "#..#.G#", "#.....#", "#.#...#", "#...#.#", "#S#####"]
        status, found = served.post("/api/figures", {"rows": rows})
        assert status == 200
        assert found["routes"][0]["difficulty"] == play(Level.from_rows(rows), explorer).difficulty
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 130
