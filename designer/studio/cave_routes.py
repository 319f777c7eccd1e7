"""The studio's routes of a cave: its floor plan and figures, the cave saved (as text, or as a
Tiled world zipped) and played whole (``designer.ops.caves``)."""

from __future__ import annotations

import asyncio
import base64

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from designer.core.errors import DesignerError
from designer.studio.bodies import cave_of
from designer.studio.guard import read_json


def cave_routes(guarded) -> dict[str, Route]:
    """The routes, by path, each behind ``guarded`` (the server's guard and error answers)."""
    body = read_json

    async def cave_plan(request: Request) -> Response:
        """A cave's floor plan and figures (``designer.ops.cave_views.plan_view``)."""
        from designer.ops.cave_views import plan_view

        return JSONResponse(await asyncio.to_thread(plan_view, cave_of(await body(request)), True))

    async def cave_save(request: Request) -> Response:
        """The cave as text, or as a Tiled world zipped (``designer.ops.cave_views.cave_save``)."""
        from designer.ops.cave_views import cave_save as save_cave

        obj = await body(request)
        kind = obj.get("as")
        found = await asyncio.to_thread(
            save_cave, cave_of(obj), kind if isinstance(kind, str) else ""
        )
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

    return {
        "/api/cave/plan": Route("/api/cave/plan", guarded(cave_plan), methods=["POST"]),
        "/api/cave/save": Route("/api/cave/save", guarded(cave_save), methods=["POST"]),
        "/api/cave/play": Route("/api/cave/play", guarded(cave_play), methods=["POST"]),
    }
