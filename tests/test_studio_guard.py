"""designer studio holds under any file and any client (issue 44): every input bounded before
work, every refusal one line with the security headers, slow clients unable to stall it, fills
capped, the token kept out of cookies and command lines. Real HTTP to studios started as users
start them; Chromium for the two-studios case."""

import base64
import http.client
import http.server
import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import zlib

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_play import CHROMIUM, FLAGS, sync_playwright  # noqa: E402
from test_studio import Studio, needs_browser, studio  # noqa: E402, F401  the same client, and the module's studio

pytestmark = pytest.mark.slow  # the studio's guards, in Chromium and over HTTP

ROWS = ["#####", "#..G#", "#...#", "#S..#", "#####"]


def tiled(**over) -> dict:
    """A 5x5 Tiled map of ROWS, as export --to tiled writes one (``over`` replaces its keys)."""
    kinds = [{"id": k, "properties": [{"name": "kind", "type": "string", "value": kind}]}
             for k, kind in enumerate(("rock", "ice"))]
    data = [1 if ch == "#" else 2 for row in ROWS for ch in row]
    objects = [{"name": name, "x": 16 * c, "y": 16 * r, "width": 16, "height": 16}
               for r, row in enumerate(ROWS) for c, ch in enumerate(row) for name in {"S": ["start"], "G": ["goal"]}.get(ch, [])]
    document = {"type": "map", "orientation": "orthogonal", "width": 5, "height": 5, "tilewidth": 16,
                "tileheight": 16, "infinite": False, "tilesets": [{"firstgid": 1, "name": "t", "tiles": kinds}],
                "layers": [{"type": "tilelayer", "name": "terrain", "width": 5, "height": 5, "data": data},
                           {"type": "objectgroup", "name": "doors", "objects": objects}]}
    document.update(over)
    return document


def malformed_maps() -> dict:
    """Maps whose every fault once answered 500 with a traceback (issue 44), and their kin."""
    def layer(k, **change):
        document = tiled()
        document["layers"][k].update(change)
        return document

    def b64(data: bytes) -> str:
        return base64.b64encode(data).decode()

    named = tiled()
    named["layers"][1]["objects"][0]["name"] = ["start"]
    return {"tiles not objects": tiled(tilesets=[{"firstgid": 1, "tiles": [5, 6]}]),
            "properties a string": tiled(properties="x"),
            "tilesets not a list": tiled(tilesets=5),
            "bad base64": layer(0, encoding="base64", data="!!!!"),
            "bad zlib": layer(0, encoding="base64", compression="zlib", data=b64(b"not zlib")),
            "bad gzip": layer(0, encoding="base64", compression="gzip", data=b64(b"not gzip")),
            "a group's layers not a list": tiled(layers=[{"type": "group", "name": "g", "layers": 5}]),
            "objects not a list": layer(1, objects=5),
            "a list as an object's name": named,
            "a bomb: 100 MB of zeros in a 5x5 layer": layer(0, encoding="base64", compression="zlib",
                                                             data=b64(zlib.compress(bytes(100 * 2**20), 9))),
            "a bomb: 4096x4096 declared": tiled(width=4096, height=4096)}


def test_every_malformed_map_and_odd_body_is_one_line_with_the_security_headers(studio):
    grid = lambda side, inside: ["#" * side] + ["#" + inside * (side - 2) + "#"] * (side - 2) + ["#" * side]  # noqa: E731
    bodies = {f"open: {name}": ("/api/open", json.dumps({"name": "room.tmj", "text": json.dumps(document)}).encode())
              for name, document in malformed_maps().items()}
    bodies.update({f"save: {name}": ("/api/save", json.dumps({"as": "map", "map": document, "rows": ROWS}).encode())
                   for name, document in malformed_maps().items()})
    bodies.update({
        "open: a 100x100 level": ("/api/open", json.dumps({"name": "big.txt", "text": "\n".join(
            ["#" * 100, "#S" + "." * 97 + "#", *["#" + "." * 98 + "#"] * 96, "#" + "." * 97 + "G#", "#" * 100])}).encode()),
        "open: a 300x300 template": ("/api/open", json.dumps({"name": "t.txt", "text": "\n".join(grid(300, "?"))}).encode()),
        "pack: a 1000x1000 level": ("/api/pack", json.dumps({"levels": [{"name": "a", "rows": grid(1000, ".")}]}).encode()),
        "picture: 41 wide": ("/api/picture", json.dumps({"rows": grid(41, ".")}).encode()),
        "a number of 5,000 digits": ("/api/figures", b'{"rows": ["#G#"], "x": ' + b"9" * 5000 + b"}"),
        "a lone surrogate in a name": ("/api/open", b'{"name": "a\\ud800.txt", "text": "#G#\\n#.#\\n#S#\\n"}'),
        "a lone surrogate in a page id": ("/api/fill", b'{"page": "\\ud800", "rows": ["#G#", "#?#", "#S#"]}'),
        "an unknown page id": ("/api/fill", b'{"page": "made-up", "rows": ["#G#", "#?#", "#S#"]}'),
        "figures of an unknown page id": ("/api/figures", b'{"page": "made-up", "rows": ["#G#", "#.#", "#S#"]}'),
        "figures of a page id not text": ("/api/figures", b'{"page": ["x"], "rows": ["#G#", "#.#", "#S#"]}'),
        "open: a cave with a 150x150 room": ("/api/open", json.dumps({"name": "cave.txt", "text": "room one at 0,0\n" + "\n".join(
            ["#" * 150, "1" + "." * 148 + "#", *["#" + "." * 148 + "#"] * 146, "#" + "." * 148 + "2", "#" * 150])
            + "\nentrance one:1\nexit one:2\n"}).encode()),
        "cave plan: a 150x150 room": ("/api/cave/plan", json.dumps({"cave": {"rooms": [{"name": "one", "rows": grid(150, ".")}]}}).encode()),
    })
    for name, (path, body) in bodies.items():
        status, headers, data = studio.request("POST", path, body)
        error = json.loads(data).get("error", "")
        assert status == 400 and error and "\n" not in error, (name, status, data[:200])
        assert "frame-ancestors 'none'" in headers.get("content-security-policy", ""), name
    for method, path in (("GET", "/nowhere"), ("GET", "/api/fill"), ("POST", "/api/fill/none/cancel")):
        status, headers, _ = studio.request(method, path, b"{}" if method == "POST" else b"")
        assert status in (404, 405) and "frame-ancestors 'none'" in headers["content-security-policy"]


def test_slow_clients_cannot_stall_the_server_even_with_few_files(tmp_path):
    """300 connections that never finish their headers, against a studio that may open 256
    files: it keeps answering, and writes nothing (it once wrote 9 MB of tracebacks in 15 s)."""
    def few_files():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    proc = subprocess.Popen([sys.executable, "-m", "designer", "studio", "--no-browser"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, preexec_fn=few_files,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        studio = Studio(proc, proc.stdout.readline().split(": ", 1)[1].strip())
        rows = {"rows": ["#G#", "#.#", "#S#"]}
        slow = []
        for _ in range(300):
            one = socket.create_connection(("127.0.0.1", studio.port), timeout=30)
            one.sendall(b"GET / HTTP/1.1\r\nHost: 127")
            slow.append(one)
        for _ in range(5):
            assert studio.post("/api/figures", rows)[0] == 200
            for one in slow[-20:]:
                try:
                    one.sendall(b"0")  # a byte now and then does not keep a connection open
                except OSError:
                    pass
            time.sleep(0.5)
        assert studio.post("/api/figures", rows)[0] == 200
    finally:
        for one in slow:
            one.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130
    assert proc.stderr.read() == "designer: interrupted\n"


def test_fills_are_capped_pages_are_the_servers_and_a_cancel_after_the_end_is_answered(studio):
    big = {"rows": ["#" * 12] + ["#" + "?" * 10 + "#"] * 10 + ["#" * 12], "request": {"maximize": True, "time_limit": 60}}
    pages = [studio.page() for _ in range(3)]
    assert len(set(pages)) == 3
    started = [studio.post("/api/fill", {**big, "page": page}) for page in pages[:2]]
    assert [status for status, _ in started] == [200, 200]
    status, refused = studio.post("/api/fill", {**big, "page": pages[2]})
    assert status == 429 and refused["error"].startswith("2 fills run already")
    status, again = studio.post("/api/fill", {**big, "page": pages[0]})  # a page's own second fill replaces its first
    assert status == 200
    for fill in (again["fill"], started[1][1]["fill"]):
        assert studio.post(f"/api/fill/{fill}/cancel", {}) == (200, {"cancelled": True})
    status, small = studio.post("/api/fill", {"page": pages[2], "rows": ["#G#", "#?#", "#S#"], "request": {"min_stops": 1}})
    assert status == 200 and studio.events(small["fill"])[-1]["kind"] == "done"
    assert studio.post(f"/api/fill/{small['fill']}/cancel", {})[0] == 200  # ended already: no 404 in the console


def test_the_browser_opens_a_private_file_and_never_sees_the_token_on_its_command_line(tmp_path):
    seen = tmp_path / "argv.txt"
    browser = tmp_path / "browser"
    browser.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {seen}\n")
    browser.chmod(0o755)
    proc = subprocess.Popen([sys.executable, "-m", "designer", "studio"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path, env={**os.environ, "BROWSER": str(browser), "PYTHONUNBUFFERED": "1"})
    try:
        studio = Studio(proc, proc.stdout.readline().split(": ", 1)[1].strip())
        deadline = time.monotonic() + 30
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        argv = seen.read_text()
        assert studio.token not in argv and argv.startswith("file://"), argv
        opened = argv.strip()[len("file://"):]
        assert stat.S_IMODE(os.stat(opened).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(opened)).st_mode) == 0o700
        assert f'url=http://127.0.0.1:{studio.port}/#token={studio.token}"' in open(opened).read()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130
    assert not os.path.exists(opened), "the file goes when the studio stops"


def test_with_no_browser_to_open_the_studio_says_so_in_a_sentence(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "designer", "studio"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path,
                            env={**os.environ, "BROWSER": str(tmp_path / "no-such-browser"), "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout.readline().startswith("designer studio: http://127.0.0.1:")
        assert proc.stderr.readline() == "designer: note: no browser was found: open the address above in a browser\n"
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130


class Spy(http.server.BaseHTTPRequestHandler):
    """Another local server the browser visits: it keeps every request's headers."""
    heard: list = []

    def do_GET(self):  # noqa: N802 - the standard library's name
        Spy.heard.append(str(self.headers))
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<p>spy</p>")

    def log_message(self, *args):
        pass


@needs_browser
def test_two_studios_side_by_side_both_keep_working_and_another_server_gets_no_token(tmp_path):
    procs = [subprocess.Popen([sys.executable, "-m", "designer", "studio", "--no-browser"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "1"})
             for _ in range(2)]
    spy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Spy)
    threading.Thread(target=spy.serve_forever, daemon=True).start()
    try:
        studios = [Studio(proc, proc.stdout.readline().split(": ", 1)[1].strip()) for proc in procs]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            context = browser.new_context()
            tabs = []
            for one in studios:  # each opened as the redirect file opens it
                tab = context.new_page()
                tab.goto(f"http://127.0.0.1:{one.port}/#token={one.token}")
                tab.locator('[data-cell="1,1"]').wait_for()
                assert one.token not in tab.url, "the token leaves the address bar"
                tabs.append(tab)
            spied = context.new_page()
            spied.goto(f"http://127.0.0.1:{spy.server_address[1]}/")
            tabs[0].reload()  # a reload keeps the token (the tab's session storage)
            tabs[0].locator('[data-cell="1,1"]').wait_for()
            for tab in tabs:
                tab.click('[data-tool="rock"]')
                with tab.expect_response("**/api/figures") as answer:
                    tab.click('[data-cell="2,2"]')
                assert answer.value.status == 200 and tab.locator("#status").inner_text() == ""
            assert not any(context.cookies())
            browser.close()
        heard = "".join(Spy.heard)
        assert heard and not any(one.token in heard for one in studios)
    finally:
        spy.shutdown()
        for proc in procs:
            proc.send_signal(signal.SIGINT)
            assert proc.wait(30) == 130
