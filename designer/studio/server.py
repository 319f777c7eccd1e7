"""The studio's web app: Starlette routes behind one guard (``designer.studio.guard``: Host,
token, Origin, bounded bodies, security headers on every answer), served by uvicorn on 127.0.0.1
with its connections bounded (``designer.studio.connections``).

API: ``POST /api/page`` (a page's id, made here: a page asks for one as it loads), ``POST
/api/figures`` (the live figures of a sketch, ``designer.ops.sketch_figures.figures``; a newer call of
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
import html
import json
import secrets
import sys
import threading
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from designer.core.errors import DesignerError, RequestNotMet, worded
from designer.studio.analysts import Analysts, Superseded
from designer.studio.bodies import form_word, rows_of
from designer.studio.cave_routes import cave_routes
from designer.studio.fill_routes import MAX_FILLS, fill_routes
from designer.studio.fills import Fill
from designer.studio.guard import Refused, SecurityHeaders, admit, read_json
from designer.studio.playtests import playtest_routes
from designer.studio.sketch_routes import sketch_routes

#: The most page ids kept (the oldest without a running fill is forgotten first).
MAX_PAGES = 64

STATIC = {
    "/studio.js": ("designer.studio", "studio.js", "text/javascript; charset=utf-8"),
    "/studio.css": ("designer.studio", "studio.css", "text/css; charset=utf-8"),
    "/caves.js": ("designer.studio", "caves.js", "text/javascript; charset=utf-8"),
    "/marks.js": ("designer.studio", "marks.js", "text/javascript; charset=utf-8"),
    # the play page's sliding rules, one copy of them (designer/export/static/rules.js)
    "/rules.js": ("designer.export", "rules.js", "text/javascript; charset=utf-8"),
    # what those rules read of the designer's table of limits (designer.core.limits), made here
    "/limits.js": (None, None, "text/javascript; charset=utf-8"),
}


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
    player: Any = None  # the model's player (designer studio --player; None: the default)

    def __post_init__(self) -> None:
        self.analysts.player = self.player  # the live figures' predicted difficulty is its

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
        return [
            f"{name}:{self.port}" if ":" not in name else f"[{name}]:{self.port}" for name in names
        ]

    def url(self) -> str:
        return f"{self.origin}/?token={self.token}"

    def redirect_page(self) -> str:
        """A local file's HTML that sends the browser on to the studio with its token (the token
        after ``#``, which the browser never sends), as Jupyter opens its server: the browser's
        command line names the file, not the token."""
        url = html.escape(f"{self.origin}/#token={self.token}")
        return (
            f'<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={url}">'
            f'<title>designer studio</title></head>\n<body><p><a href="{url}">Open designer studio</a></p></body></html>\n'
        )

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
        return sum(
            1 for page, (_, one) in self.fills.items() if page != but and one.process.is_alive()
        )

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

    def guarded(handler, **needs):
        async def run(request: Request) -> Response:
            try:
                guard(request, **needs)
                return await handler(request)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)
            except DesignerError as exc:  # bad input: its one line, a field as its form names it
                return JSONResponse({"error": worded(exc, form_word)}, status_code=400)
            except (
                RequestNotMet
            ) as exc:  # valid, but it cannot be met (an unsolvable level to draw)
                return JSONResponse({"error": str(exc)}, status_code=422)
            # a bug: one line here and on standard error, never a traceback
            except Exception as exc:  # noqa: BLE001
                line = f"{type(exc).__name__}: {str(exc)[:200]}".replace("\n", " ")
                print(
                    f"designer studio: internal error at {request.url.path}: {line}",
                    file=sys.stderr,
                    flush=True,
                )
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

    sketch, cave, fills = sketch_routes(guarded), cave_routes(guarded), fill_routes(studio, guarded)
    routes = [
        Route("/", guarded(index, token=False)),  # the page and its scripts: public code, no secret
        *(Route(path, guarded(static(path), token=False)) for path in STATIC),
        Route("/api/page", guarded(new_page), methods=["POST"]),
        Route("/api/figures", guarded(figures), methods=["POST"]),
        *(
            sketch[path]
            for path in (
                "/api/check",
                "/api/open",
                "/api/save",
                "/api/picture",
                "/api/pack",
                "/api/tiled",
            )
        ),
        fills["/api/fill"],
        *cave.values(),
        fills["/api/fill/{fill}/events"],
        fills["/api/fill/{fill}/cancel"],
        *playtest_routes(studio, guarded),
        Route("/favicon.ico", guarded(no_icon, token=False)),
    ]  # asked by every page it serves

    async def not_found(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse(
            {"error": "no such page" if status == 404 else "not allowed"}, status_code=status
        )

    @asynccontextmanager
    async def lifespan(app):
        yield
        await asyncio.to_thread(studio.stop)  # the server stops: every fill it started ends

    return Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={404: not_found, 405: not_found},
        lifespan=lifespan,
    )


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
    Server(
        uvicorn.Config(
            create_app(studio),
            http=bounded(cap),
            backlog=ACCEPT_BATCH,
            log_level="error",
            access_log=False,
            lifespan="on",
        )
    ).run(sockets=[sock])
