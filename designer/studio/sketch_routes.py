"""The studio's routes of a sketch: its request checked against the cheap bounds, a file opened as
a sketch, the sketch saved (as a level, or into the Tiled map it came from), drawn, exported to
Tiled, and a pack of sketches as a play page (``designer.ops.sketches``)."""

from __future__ import annotations

import asyncio
import base64

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from designer.studio.bodies import options_of, plan_of, rows_of
from designer.studio.guard import Refused, read_json
from designer.studio.playtests import levels_of


def sketch_routes(guarded) -> dict[str, Route]:
    """The routes, by path, each behind ``guarded`` (the server's guard and error answers)."""
    body = read_json

    async def check(request: Request) -> Response:
        """The fill request's plan and cheap bounds: a request no level can meet is named before
        any search (``designer.analysis.bounds``)."""
        from designer.analysis import bounds

        plan = plan_of(options_of(await body(request)))
        reason = bounds.infeasible(plan.job.request)
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
            raise Refused(400, 'save: as "level" or "map"')
        return JSONResponse({"text": text})

    async def picture(request: Request) -> Response:
        """The sketch drawn (``render``'s picture), as base64 of SVG or PNG."""
        from designer.ops.sketches import picture as draw

        obj = await body(request)
        rows, fmt = rows_of(obj), obj.get("format", "svg")
        data = await asyncio.to_thread(
            draw,
            rows,
            fmt=fmt if isinstance(fmt, str) else "",
            solution=obj.get("solution") is True,
            graph=obj.get("graph") is True,
        )
        return JSONResponse(
            {
                "mime": "image/png" if fmt == "png" else "image/svg+xml",
                "base64": base64.b64encode(data).decode("ascii"),
            }
        )

    async def tiled(request: Request) -> Response:
        """The sketch as a new Tiled map and its tileset image (``export --to tiled``'s two files)."""
        from designer.ops.sketches import tiled_files

        found = await asyncio.to_thread(tiled_files, rows_of(await body(request)))
        return JSONResponse(
            {
                "map": found["map"],
                "image_name": found["image_name"],
                "image": base64.b64encode(found["image"]).decode("ascii"),
            }
        )

    async def pack(request: Request) -> Response:
        """The play page of a pack of sketches (``designer play``'s page)."""
        from designer.ops.sketches import play_page

        text = await asyncio.to_thread(play_page, levels_of(await body(request)))
        return JSONResponse({"text": text})

    return {
        "/api/check": Route("/api/check", guarded(check), methods=["POST"]),
        "/api/open": Route("/api/open", guarded(open_file), methods=["POST"]),
        "/api/save": Route("/api/save", guarded(save), methods=["POST"]),
        "/api/picture": Route("/api/picture", guarded(picture), methods=["POST"]),
        "/api/pack": Route("/api/pack", guarded(pack), methods=["POST"]),
        "/api/tiled": Route("/api/tiled", guarded(tiled), methods=["POST"]),
    }
