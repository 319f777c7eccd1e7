"""The studio's playtests (``designer.studio.server`` routes them): a pack's play page served by
the studio, which sends each line of its playtest log back as it is recorded
(``designer.ops.playtests.Live``), and the figures, log and report of what arrived.

``POST /api/playtest`` (a pack of sketches: answers the playtest's id and its page's address),
``POST /api/playtest/ID/figures``, ``/log`` and ``/report`` need the studio's token as every API
call does. The page itself, ``GET /playtest/ID``, and the lines it sends, ``POST
/playtest/ID/lines``, need none (a player gets the page's address, not the studio's token): the
playtest's id, as random as a token, admits them, beside the Host and Origin checks every
request passes. The page's inline script and style are allowed by their hashes, nothing else.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import threading

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from designer.core.limits import MAX_PLAYTESTS
from designer.studio.guard import Refused, inline_csp, read_json


def levels_of(obj: dict) -> list[tuple[str, list[str]]]:
    """A pack of sketches from a request: (name, rows) pairs, up to 100."""
    levels = obj.get("levels")
    if (
        not isinstance(levels, list)
        or len(levels) > 100
        or not all(
            isinstance(one, dict)
            and isinstance(one.get("name"), str)
            and isinstance(one.get("rows"), list)
            and all(isinstance(row, str) for row in one["rows"])
            for one in levels
        )
    ):
        raise Refused(400, "pack: a list of up to 100 levels, each {name, rows}, is needed")
    return [(one["name"][:80], one["rows"]) for one in levels]


def playtest_routes(studio, guarded) -> list[Route]:
    """The playtests' routes of ``studio`` (its ``playtests`` and ``lock``), each behind
    ``guarded`` (the server's guard and error answers)."""
    body = read_json

    async def new_playtest(request: Request) -> Response:
        """A playtest of a pack of sketches: its play page served at the address answered, which
        sends each line of its log here as it is played (``designer.ops.playtests.Live``)."""
        from designer.ops.playtests import Live
        from designer.ops.sketches import filled_levels

        levels = levels_of(await body(request))
        ident = secrets.token_urlsafe(18)
        live = await asyncio.to_thread(
            lambda: Live(
                filled_levels(levels),
                sink=f"/playtest/{ident}/lines",
                title="ice-designer playtest",
                player=studio.player,
            )
        )
        with studio.lock:
            studio.playtests[ident] = (live, threading.Lock())
            while len(studio.playtests) > MAX_PLAYTESTS:
                studio.playtests.popitem(last=False)
        return JSONResponse({"playtest": ident, "url": f"/playtest/{ident}"})

    def playtest_of(request: Request):
        ident = request.path_params["playtest"]
        with studio.lock:
            for known, found in studio.playtests.items():
                if hmac.compare_digest(known.encode(), ident.encode()):
                    return found
        raise Refused(404, "no such playtest (a studio keeps its last ones while it runs)")

    async def playtest_page(request: Request) -> Response:
        """The playtest's play page, its own inline script and style allowed by their hashes."""
        live, _ = playtest_of(request)
        return Response(
            live.page,
            media_type="text/html; charset=utf-8",
            headers={"Content-Security-Policy": inline_csp(live.page)},
        )

    async def playtest_lines(request: Request) -> Response:
        """Lines of one visit's log, from the page: {visit, from, lines}; answers {have}, the
        visit's lines the studio now has (409 with it when ``from`` is not that count)."""
        from designer.ops.playtests import Behind

        live, lock = playtest_of(request)
        obj = await body(request)
        start, lines = obj.get("from"), obj.get("lines")
        if type(start) is not int or not isinstance(lines, list) or len(lines) > 1000:
            raise Refused(
                400,
                "lines: {visit, from (the visit's lines sent before), lines (up to 1,000)} is needed",
            )

        def take() -> int:
            with lock:
                return live.take(obj.get("visit"), start, lines)

        try:
            have = await asyncio.to_thread(take)
        except Behind as exc:
            return JSONResponse({"have": exc.have, "error": str(exc)}, status_code=409)
        return JSONResponse({"have": have})

    async def playtest_figures(request: Request) -> Response:
        """The playtest's figures so far (``Live.figures``)."""
        live, lock = playtest_of(request)

        def figures() -> dict:
            with lock:
                return live.figures()

        return JSONResponse(await asyncio.to_thread(figures))

    async def playtest_log(request: Request) -> Response:
        """The playtest's log so far, as ``designer playtest`` reads it."""
        live, lock = playtest_of(request)
        with lock:
            return JSONResponse({"text": live.log_text()})

    async def playtest_report(request: Request) -> Response:
        """The playtest's report page so far (``playtest -o``'s)."""
        from designer.ops.playtests import report_page

        live, lock = playtest_of(request)

        def report() -> str:
            with lock:
                return report_page(live.found())

        return JSONResponse({"text": await asyncio.to_thread(report)})

    return [
        Route("/api/playtest", guarded(new_playtest), methods=["POST"]),
        Route("/api/playtest/{playtest}/figures", guarded(playtest_figures), methods=["POST"]),
        Route("/api/playtest/{playtest}/log", guarded(playtest_log), methods=["POST"]),
        Route("/api/playtest/{playtest}/report", guarded(playtest_report), methods=["POST"]),
        # a player's page: its random id admits it, not the studio's token (the module's note)
        Route("/playtest/{playtest}", guarded(playtest_page, token=False)),
        Route("/playtest/{playtest}/lines", guarded(playtest_lines, token=False), methods=["POST"]),
    ]
