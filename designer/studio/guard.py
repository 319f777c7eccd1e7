"""What every request to the studio passes before any work (``designer.studio.server`` routes it).

Loopback is no access control: any page the user visits may send requests to 127.0.0.1. So, as
Jupyter's server does:

- **Host**: it must name this server (``127.0.0.1:PORT``, ``localhost:PORT``, or the ``--host``
  given), or a page behind a rebound DNS name could read the answers (403);
- **token**: a fresh random token per start. Every API call carries it in the ``X-Studio-Token``
  header (an event stream, which a browser opens without headers, in its address); else 403.
  There is no cookie: browsers send a cookie to every port of the host, so any other local server
  the browser visits would receive it. The page (public code, no secret in it) and its scripts
  need the Host check only; the page keeps the token in the tab's session storage, which is
  scoped to this server's origin (its port too);
- **Origin**: a request that changes anything (POST) must come from this server's own origin (403);
- **bodies** are read up to ``MAX_BODY`` bytes (413) within ``BODY_SECONDS`` (408), and must be a
  JSON object (400): a number of over 4,300 digits and text that is not Unicode (a lone
  surrogate) are refused there, before any handler sees them;
- **headers**: every answer, an error's included, carries ``SECURITY_HEADERS`` (``SecurityHeaders``,
  around the whole app): a Content Security Policy that lets the page load from and send to this
  server only, and forbids framing it.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re

#: The largest request body read (a 40x40 sketch is under 2 KB, a fill request with it under 4, and
#: a
#: Tiled map of a 40x40 room with its tilesets embedded far under this).
MAX_BODY = 1024 * 1024
#: Seconds a request's body may take to arrive, once its headers have.
BODY_SECONDS = 10.0
HEADER = "x-studio-token"
#: The Content Security Policy of every answer: this server only, no inline code, no frames.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def inline_csp(page: str) -> str:
    """``CSP`` for a page whose script and style are inline (the play page of a playtest): those
    of ``page`` allowed by their SHA-256 hashes, and nothing else inline.

    >>> "'sha256-" in inline_csp("<style>b{}</style><script>1</script>")
    True
    """

    def hashes(tag: str) -> str:
        return (
            " ".join(
                f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"
                for text in re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)
            )
            or "'none'"
        )

    return CSP.replace("script-src 'self'", f"script-src {hashes('script')}").replace(
        "style-src 'self'", f"style-src {hashes('style')}"
    )


class Refused(Exception):
    """A request the guard or a handler refuses: its status and one line."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def admit(request, hosts: list[str], token: str | None, *, query_token: bool = False) -> None:
    """Refuse ``request`` (``Refused``, 403) unless its Host is one of ``hosts``, it carries
    ``token`` (None: no token needed; ``query_token``: it may come as ``?token=``), and, when it is
    not a GET, it comes from the server's own origin."""
    if request.headers.get("host", "") not in hosts:
        raise Refused(403, "this server answers to its own address only")
    if token is not None:
        given = [request.headers.get(HEADER)]
        if query_token:
            given.append(request.query_params.get("token"))
        if not any(hmac.compare_digest(one.encode(), token.encode()) for one in given if one):
            raise Refused(403, "no valid token: open the address designer studio printed")
    if request.method != "GET" and request.headers.get("origin") not in (
        f"http://{h}" for h in hosts
    ):
        raise Refused(403, "a change must come from the studio's own page")


async def read_json(request) -> dict:
    """The request's body as a JSON object, bounded in size and in time (see the module)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refused(413, f"the request body is over {MAX_BODY // 1024} KB")

    async def read() -> bytearray:
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise Refused(413, f"the request body is over {MAX_BODY // 1024} KB")
        return data

    try:
        data = await asyncio.wait_for(read(), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise Refused(408, f"the request body took over {BODY_SECONDS:g} s to arrive") from None
    try:
        obj = json.loads(data.decode("utf-8"))
    except (
        UnicodeDecodeError,
        ValueError,
        RecursionError,
    ) as exc:  # ValueError: a number of 4,301+ digits too
        raise Refused(
            400,
            "the request body is not JSON"
            + (": a number in it has over 4,300 digits" if "digits" in str(exc) else ""),
        ) from None
    if not isinstance(obj, dict):
        raise Refused(400, "the request body must be a JSON object")
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(
            400, "the request body holds text that is not Unicode (a lone surrogate)"
        ) from None
    return obj


class SecurityHeaders:
    """ASGI middleware: ``SECURITY_HEADERS`` on every answer of ``app`` that lacks them, errors
    and the framework's own answers included."""

    def __init__(self, app):
        self.app = app
        self.extra = [
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in SECURITY_HEADERS.items()
        ]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                message = {
                    **message,
                    "headers": [
                        *message.get("headers", []),
                        *(one for one in self.extra if one[0] not in have),
                    ],
                }
            await send(message)

        await self.app(scope, receive, with_headers)
