"""The studio's web app: Starlette routes behind one guard (``designer.studio.guard``: Host,
token, Origin, bounded bodies, security headers on every answer), served by uvicorn on 127.0.0.1
with its connections bounded (``designer.studio.connections``).

API: ``POST /api/page`` (a page's id, made here: a page asks for one as it loads), ``POST
/api/figures`` (the live figures of a sketch, ``designer.ops.levels.figures``; a newer call of
the same page cancels the older one's work), ``POST /api/check`` (the cheap bounds of a fill
request), ``POST /api/open`` and ``POST /api/save`` (a file's text as a sketch; a sketch as a
JSON level or into its Tiled map), ``POST /api/picture``, ``POST /api/tiled`` and ``POST
/api/pack`` (a picture, a new Tiled map and its tileset image, a pack's play page; all from
``designer.ops.sketches``), ``POST /api/fill`` (start a fill; a page's second fill cancels its
first; at most ``MAX_FILLS`` run at once), ``GET /api/fill/ID/events`` (its progress, as
server-sent events; a closed stream cancels it), ``POST /api/fill/ID/cancel``; a cave's ``POST
/api/cave/plan`` (its plan and figures, or what a cave being drawn still lacks), ``POST
/api/cave/save`` (as text or a zipped Tiled world) and ``POST /api/cave/play`` (its play page);
and a pack's playtest, live (``designer.studio.playtests``).

Every grid in and out keeps to the designer's largest, 40x40 (``designer.core.limits.sized``).
An error is an answer with one line (a bug's too: 500, and one line on standard error), never a
traceback.
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import html
import json
import secrets
import sys
import threading
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from designer.core.errors import DesignerError, RequestNotMet
from designer.core.limits import sized
from designer.studio.analysts import Analysts, Superseded
from designer.studio.fills import Fill
from designer.studio.guard import Refused, SecurityHeaders, admit, read_json
from designer.studio.playtests import levels_of, playtest_routes

#: The most fills that run at once in one studio (every page of it): each is a process that may
#: use a core, and a script or many tabs could otherwise start any number.
MAX_FILLS = 2
#: The most page ids kept (the oldest without a running fill is forgotten first).
MAX_PAGES = 64

STATIC = {"/studio.js": ("designer.studio", "studio.js", "text/javascript; charset=utf-8"),
          "/studio.css": ("designer.studio", "studio.css", "text/css; charset=utf-8"),
          "/caves.js": ("designer.studio", "caves.js", "text/javascript; charset=utf-8"),
          "/marks.js": ("designer.studio", "marks.js", "text/javascript; charset=utf-8"),
          # the play page's sliding rules, one copy of them (designer/export/static/rules.js)
          "/rules.js": ("designer.export", "rules.js", "text/javascript; charset=utf-8"),
          # what those rules read of the designer's table of limits (designer.core.limits), made here
          "/limits.js": (None, None, "text/javascript; charset=utf-8")}
#: The fill request's fields (the ``make`` options the page sets), as ``MakeOptions`` takes them, and
#: what each must be in JSON (the plan then checks its value as ``make`` does).
_WHOLE = ("a whole number", lambda v: type(v) is int)
_FLAG = ("true or false", lambda v: type(v) is bool)
FILL_FIELDS = {
    **{name: _WHOLE for name in ("min_stops", "max_stops", "max_rocks", "snow", "min_choices", "items", "coins",
                                 "seed")},
    **{name: _FLAG for name in ("tidy", "maximize", "maximize_choices", "unique")},
    "time_limit": ("a number of seconds", lambda v: type(v) in (int, float)),
    "method": ("a method's name", lambda v: isinstance(v, str)),
    "routes": ("a list of routes such as \"1:3=15\"",
               lambda v: isinstance(v, list) and all(isinstance(r, str) for r in v)),
}

#: The last event of a fill the server's stop ended.
STOPPED = "the studio stopped: start it again with designer studio"

#: The options of a cave's fill (``designer.ops.caves.CaveOptions`` fields), each checked as above.
CAVE_FIELDS = ("min_stops", "max_stops", "seed", "time_limit")


@dataclass
class Studio:
    """One start of the studio: where it listens, its token, and the fills it runs (by page)."""

    host: str
    port: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    fills: dict = field(default_factory=dict)  # page id -> (fill id, Fill)
    pages: OrderedDict = field(default_factory=OrderedDict)  # the page ids made here, oldest first
    stopping: threading.Event = field(default_factory=threading.Event)
    analysts: Analysts = field(default_factory=Analysts)  # the live figures' processes
    lock: threading.Lock = field(default_factory=threading.Lock)
    playtests: OrderedDict = field(default_factory=OrderedDict)  # playtest id -> (Live, its lock)

    @property
    def origin(self) -> str:
        return f"http://{self.hosts()[0]}"

    def hosts(self) -> list[str]:
        """The Host values that name this server."""
        names = [self.host]
        if self.host in ("127.0.0.1", "localhost"):
            names = ["127.0.0.1", "localhost"]
        elif self.host == "::1":
            names = ["::1", "localhost"]
        return [f"{name}:{self.port}" if ":" not in name else f"[{name}]:{self.port}" for name in names]

    def url(self) -> str:
        return f"{self.origin}/?token={self.token}"

    def redirect_page(self) -> str:
        """A local file's HTML that sends the browser on to the studio with its token (the token
        after ``#``, which the browser never sends), as Jupyter opens its server: the browser's
        command line names the file, not the token."""
        url = html.escape(f"{self.origin}/#token={self.token}")
        return (f'<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={url}">'
                f'<title>designer studio</title></head>\n<body><p><a href="{url}">Open designer studio</a></p></body></html>\n')

    def new_page(self) -> str:
        """A new page id (the oldest ones without a running fill forgotten past ``MAX_PAGES``)."""
        page = secrets.token_urlsafe(12)
        with self.lock:
            self.pages[page] = True
            for old in list(self.pages):
                if len(self.pages) <= MAX_PAGES:
                    break
                if old not in self.fills or not self.fills[old][1].process.is_alive():
                    del self.pages[old]
                    self.fills.pop(old, None)
        return page

    def running(self, but: str | None = None) -> int:
        """How many fills run now (that of page ``but`` aside)."""
        with self.lock:
            return self._running(but)

    def _running(self, but: str | None) -> int:
        return sum(1 for page, (_, one) in self.fills.items() if page != but and one.process.is_alive())

    def claim(self, page: str, fill_id: str, fill: Fill) -> tuple[bool, Fill | None]:
        """Record ``fill`` as ``page``'s, unless ``MAX_FILLS`` run already in other pages: (whether
        it was recorded, the page's fill before it, which the caller ends)."""
        with self.lock:
            if self._running(page) >= MAX_FILLS:
                return False, None
            previous = self.fills.get(page)
            self.fills[page] = (fill_id, fill)
        return True, None if previous is None else previous[1]

    def stop_fills(self) -> None:
        """End every fill at once: all are sent SIGTERM together, then each is killed after its
        grace, so the whole takes one grace however many run."""
        with self.lock:
            running = [fill for _, fill in self.fills.values()]
            self.fills.clear()
        ending = [threading.Thread(target=fill.cancel, name="fill cancel") for fill in running]
        for thread in ending:
            thread.start()
        for thread in ending:
            thread.join()

    def stop(self) -> None:
        """The server begins to stop: every fill ends, and with it every event stream (its last
        event says the studio stopped), so no open stream holds the shutdown."""
        self.stopping.set()
        self.analysts.stop()
        self.stop_fills()


def _static(name: str, package: str = "designer.studio") -> bytes:
    return resources.files(package).joinpath("static").joinpath(name).read_bytes()


def create_app(studio: Studio) -> Starlette:
    """The app of one studio start (``studio``: its address and token)."""

    def guard(request: Request, *, token: bool = True, query_token: bool = False) -> None:
        admit(request, studio.hosts(), studio.token if token else None, query_token=query_token)

    body = read_json

    def rows_of(obj: dict) -> list[str]:
        rows = obj.get("rows")
        if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
            raise Refused(400, "rows: a list of the grid's rows of text is needed")
        return sized(rows)

    def guarded(handler, **needs):
        async def run(request: Request) -> Response:
            try:
                guard(request, **needs)
                return await handler(request)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)
            except DesignerError as exc:  # bad input: its one line
                return JSONResponse({"error": str(exc)}, status_code=400)
            except RequestNotMet as exc:  # valid, but it cannot be met (an unsolvable level to draw)
                return JSONResponse({"error": str(exc)}, status_code=422)
            except Exception as exc:  # noqa: BLE001 - a bug: one line here and on standard error, never a traceback
                line = f"{type(exc).__name__}: {str(exc)[:200]}".replace("\n", " ")
                print(f"designer studio: internal error at {request.url.path}: {line}", file=sys.stderr, flush=True)
                return JSONResponse({"error": f"internal error: {line}"}, status_code=500)
        return run

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def index(request: Request) -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8")

    async def new_page(request: Request) -> Response:
        return JSONResponse({"page": studio.new_page()})

    def static(path: str):
        package, name, media = STATIC[path]

        async def serve(request: Request) -> Response:
            if package is None:
                from designer.core.limits import page_limits

                return Response(f"const LIMITS = {json.dumps(page_limits())};\n", media_type=media)
            return Response(_static(str(name), package), media_type=media)
        return serve

    async def figures(request: Request) -> Response:
        """The live figures (``designer.studio.analysts``): a page's newer call supersedes this one
        (409), its work ended."""
        obj = await body(request)
        page, edit = obj.get("page"), obj.get("edit")
        if edit is not None and type(edit) is not int:
            raise Refused(400, "edit: the page's edit number, a whole number")
        # the server's page ids only, so that what it keeps per page stays bounded
        if page is not None and (not isinstance(page, str) or page not in studio.pages):
            raise Refused(400, "page: not a page of this studio (reload the page)")
        try:
            found = await studio.analysts.figures(rows_of(obj), page, edit)
        except Superseded:
            raise Refused(409, "superseded by a newer edit") from None
        return JSONResponse(found)

    def fields_of(obj: dict, allowed) -> dict:
        """The fill request's options (``request``: JSON values), each one ``allowed`` and of its
        kind (``FILL_FIELDS``); those given as null left out."""
        fields = obj.get("request") or {}
        if not isinstance(fields, dict):
            raise Refused(400, "request: an object of the fill's options is needed")
        found = {}
        for name, value in fields.items():
            if name not in allowed:
                raise Refused(400, f"request: unknown option {str(name)[:40]!r}")
            if value is None:
                continue
            what, fits = FILL_FIELDS[name]
            if not fits(value):
                raise Refused(400, f"--{name.replace('_', '-')} must be {what}, not {json.dumps(value)[:40]}")
            found[name] = tuple(value) if name == "routes" else value
        return found

    def options_of(obj: dict) -> dict:
        """The fill request as ``MakeOptions`` fields (JSON values), each checked by the plan."""
        return {"template": rows_of(obj), **fields_of(obj, FILL_FIELDS)}

    def plan_of(options: dict):
        from designer.ops import design as ops

        return ops.plan(ops.MakeOptions(**{**options, "template": tuple(options["template"])}))

    async def check(request: Request) -> Response:
        """The fill request's plan and cheap bounds: a request no level can meet is named before
        any search (``designer.analysis.bounds``)."""
        from designer.analysis import bounds

        plan = plan_of(options_of(await body(request)))
        reason = bounds.infeasible(plan.requests[0])
        return JSONResponse({"ok": reason is None, "infeasible": reason})

    async def open_file(request: Request) -> Response:
        """A file the user opened (its name and text) as a sketch (``designer.ops.sketches``)."""
        from designer.ops.sketches import open_sketch

        obj = await body(request)
        name, text = obj.get("name"), obj.get("text")
        if not isinstance(name, str) or not isinstance(text, str):
            raise Refused(400, "open: the file's name and text are needed")
        return JSONResponse(await asyncio.to_thread(open_sketch, name[:200], text))

    async def save(request: Request) -> Response:
        """The sketch as a JSON level (or room), or written into the Tiled map it came from."""
        from designer.ops.sketches import into_map_text, level_text

        obj = await body(request)
        rows = rows_of(obj)
        if obj.get("as") == "level":
            text = await asyncio.to_thread(level_text, rows)
        elif obj.get("as") == "map":
            text = await asyncio.to_thread(into_map_text, obj.get("map"), rows)
        else:
            raise Refused(400, "save: as \"level\" or \"map\"")
        return JSONResponse({"text": text})

    async def picture(request: Request) -> Response:
        """The sketch drawn (``render``'s picture), as base64 of SVG or PNG."""
        from designer.ops.sketches import picture as draw

        obj = await body(request)
        rows, fmt = rows_of(obj), obj.get("format", "svg")
        data = await asyncio.to_thread(draw, rows, fmt=fmt if isinstance(fmt, str) else "",
                                       solution=obj.get("solution") is True, graph=obj.get("graph") is True)
        return JSONResponse({"mime": "image/png" if fmt == "png" else "image/svg+xml",
                             "base64": base64.b64encode(data).decode("ascii")})

    async def tiled(request: Request) -> Response:
        """The sketch as a new Tiled map and its tileset image (``export --to tiled``'s two files)."""
        from designer.ops.sketches import tiled_files

        found = await asyncio.to_thread(tiled_files, rows_of(await body(request)))
        return JSONResponse({"map": found["map"], "image_name": found["image_name"],
                             "image": base64.b64encode(found["image"]).decode("ascii")})

    async def pack(request: Request) -> Response:
        """The play page of a pack of sketches (``designer play``'s page)."""
        from designer.ops.sketches import play_page

        text = await asyncio.to_thread(play_page, levels_of(await body(request)))
        return JSONResponse({"text": text})

    def cave_of(obj: dict) -> str:
        cave = obj.get("cave")
        if not isinstance(cave, dict):
            raise Refused(400, "cave: the cave (its JSON form) is needed")
        rooms = cave.get("rooms")
        for room in rooms if isinstance(rooms, list) else ():
            rows = room.get("rows") if isinstance(room, dict) else None
            if isinstance(rows, list) and all(isinstance(row, str) for row in rows):
                sized(rows)  # every room goes on the board: at most 40x40 (the cave's reader checks the rest)
        return json.dumps(cave)

    async def cave_plan(request: Request) -> Response:
        """A cave's floor plan and figures (``designer.ops.caves.plan_view``)."""
        from designer.ops.caves import plan_view

        return JSONResponse(await asyncio.to_thread(plan_view, cave_of(await body(request)), True))

    async def cave_save(request: Request) -> Response:
        """The cave as text, or as a Tiled world zipped (``designer.ops.caves.cave_save``)."""
        from designer.ops.caves import cave_save as save_cave

        obj = await body(request)
        kind = obj.get("as")
        found = await asyncio.to_thread(save_cave, cave_of(obj), kind if isinstance(kind, str) else "")
        if "zip" in found:
            return JSONResponse({"base64": base64.b64encode(found["zip"]).decode("ascii")})
        return JSONResponse(found)

    async def cave_play(request: Request) -> Response:
        """The play page of the whole cave (``designer play``'s page of a cave)."""
        from designer.caves.play import cave_page
        from designer.ops.caves import parse_cave

        def page(text: str) -> str:
            cave = parse_cave(text)
            if cave.free:
                raise DesignerError("the cave has free cells (?): fill it first, then play it")
            return cave_page(cave, "cave")

        return JSONResponse({"text": await asyncio.to_thread(page, cave_of(await body(request)))})

    def cave_options(obj: dict) -> dict:
        """A cave fill: the cave's text and ``designer cave``'s options, checked before any process."""
        from designer.ops.caves import CaveOptions, request_for

        text, fields = cave_of(obj), fields_of(obj, CAVE_FIELDS)
        request_for(CaveOptions(text=text, **fields))
        return {"cave": text, **fields}

    async def fill(request: Request) -> Response:
        obj = await body(request)
        page = obj.get("page")
        if not isinstance(page, str) or page not in studio.pages:
            raise Refused(400, "page: not a page of this studio (reload the page)")
        if "cave" in obj:
            options = await asyncio.to_thread(cave_options, obj)
        else:
            options = options_of(obj)
            plan_of(options)  # bad options: refused here, in one line, before any process starts
        busy = f"{MAX_FILLS} fills run already in other pages of this studio: cancel one, or wait for it to end"
        if studio.running(but=page) >= MAX_FILLS:
            raise Refused(429, busy)
        started = Fill.start(options)  # on the loop's thread: a child ends with the thread that started it
        fill_id = secrets.token_urlsafe(12)
        taken, previous = studio.claim(page, fill_id, started)
        if not taken:  # another page started one meanwhile
            await asyncio.to_thread(started.cancel)
            raise Refused(429, busy)
        if previous is not None:  # one fill at a time per page
            await asyncio.to_thread(previous.cancel)
        return JSONResponse({"fill": fill_id})

    def find(fill_id: str) -> tuple[str, Fill]:
        with studio.lock:
            for page, (known, found) in studio.fills.items():
                if hmac.compare_digest(known, fill_id):
                    return page, found
        raise Refused(404, "no such fill")

    async def events(request: Request) -> Response:
        _, found = find(request.path_params["fill"])

        async def stream():
            queue: asyncio.Queue = asyncio.Queue()
            loop = asyncio.get_running_loop()

            def pump() -> None:
                for event in found.events():
                    loop.call_soon_threadsafe(queue.put_nowait, event)
                loop.call_soon_threadsafe(queue.put_nowait, None)

            threading.Thread(target=pump, name="fill events", daemon=True).start()
            try:
                while True:
                    event = await queue.get()
                    if event is None:
                        break
                    if event["kind"] == "cancelled" and studio.stopping.is_set():
                        event = {"kind": "failed", "status": 1, "message": STOPPED}
                    yield f"data: {json.dumps(event)}\n\n"
            finally:  # the page went away (or the fill ended): nothing is left running
                # (no await here: a closed stream's scope is cancelled, and an await would not run);
                # the fill stays known (a cancel that follows is answered), until its page's next
                threading.Thread(target=found.cancel, name="fill cancel", daemon=True).start()

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def cancel(request: Request) -> Response:
        _, found = find(request.path_params["fill"])
        await asyncio.to_thread(found.cancel)
        return JSONResponse({"cancelled": True})

    routes = [Route("/", guarded(index, token=False)),  # the page and its scripts: public code, no secret
              *(Route(path, guarded(static(path), token=False)) for path in STATIC),
              Route("/api/page", guarded(new_page), methods=["POST"]),
              Route("/api/figures", guarded(figures), methods=["POST"]),
              Route("/api/check", guarded(check), methods=["POST"]),
              Route("/api/open", guarded(open_file), methods=["POST"]),
              Route("/api/save", guarded(save), methods=["POST"]),
              Route("/api/picture", guarded(picture), methods=["POST"]),
              Route("/api/pack", guarded(pack), methods=["POST"]),
              Route("/api/tiled", guarded(tiled), methods=["POST"]),
              Route("/api/fill", guarded(fill), methods=["POST"]),
              Route("/api/cave/plan", guarded(cave_plan), methods=["POST"]),
              Route("/api/cave/save", guarded(cave_save), methods=["POST"]),
              Route("/api/cave/play", guarded(cave_play), methods=["POST"]),
              Route("/api/fill/{fill}/events", guarded(events, query_token=True)),  # EventSource sends no headers
              Route("/api/fill/{fill}/cancel", guarded(cancel), methods=["POST"]),
              *playtest_routes(studio, guarded),
              Route("/favicon.ico", guarded(no_icon, token=False))]  # asked by every page it serves

    async def not_found(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse({"error": "no such page" if status == 404 else "not allowed"}, status_code=status)

    @asynccontextmanager
    async def lifespan(app):
        yield
        await asyncio.to_thread(studio.stop)  # the server stops: every fill it started ends

    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)],
                     exception_handlers={404: not_found, 405: not_found}, lifespan=lifespan)


def serve(studio: Studio, sock) -> None:
    """Serve ``studio`` on the listening socket ``sock`` until Ctrl-C or SIGTERM (uvicorn's
    signal handling; the signal is raised again once it has stopped, for the caller's status).

    uvicorn's graceful shutdown waits for open answers before the app's lifespan ends, and an
    event stream stays open as long as its fill runs: so the fills are ended first, as the
    shutdown begins (``Studio.stop``), which ends their streams."""
    import uvicorn

    from designer.studio.connections import ACCEPT_BATCH, bounded, connection_cap

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            await asyncio.to_thread(studio.stop)
            await super().shutdown(sockets)

    # log_level error: a malformed request is answered 400 by uvicorn, not written to the log
    # backlog: the most connections taken in one turn of the loop, before the cap can close any
    cap = connection_cap()
    Server(uvicorn.Config(create_app(studio), http=bounded(cap), backlog=ACCEPT_BATCH, log_level="error",
                          access_log=False, lifespan="on")).run(sockets=[sock])
