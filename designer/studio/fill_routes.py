"""The studio's routes of a fill: started in a process of its own (at most ``MAX_FILLS`` in one
studio, one a page), its progress streamed as server-sent events, and cancelled
(``designer.studio.fills``)."""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import threading

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from designer.studio.bodies import cave_options, options_of, plan_of
from designer.studio.fills import Fill
from designer.studio.guard import Refused, read_json

#: The most fills that run at once in one studio (every page of it): each is a process that may
#: use a core, and a script or many tabs could otherwise start any number.
MAX_FILLS = 2

#: The last event of a fill the server's stop ended.
STOPPED = "the studio stopped: start it again with designer studio"


def fill_routes(studio, guarded) -> dict[str, Route]:
    """The routes of ``studio``'s fills (its ``fills``, ``pages``, ``lock`` and ``stopping``), by
    path, each behind ``guarded`` (the server's guard and error answers)."""
    body = read_json

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
        # on the loop's thread: a child ends with the thread that started it
        started = Fill.start(options)
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

    return {
        "/api/fill": Route("/api/fill", guarded(fill), methods=["POST"]),
        # EventSource sends no headers: the token comes in the query
        "/api/fill/{fill}/events": Route(
            "/api/fill/{fill}/events", guarded(events, query_token=True)
        ),
        "/api/fill/{fill}/cancel": Route(
            "/api/fill/{fill}/cancel", guarded(cancel), methods=["POST"]
        ),
    }
