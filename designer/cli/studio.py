"""``designer studio``: the local web app (``designer.studio``), served by uvicorn until Ctrl-C."""

from __future__ import annotations

import typer

from designer.cli.shell import DESIGN, app, echo, examples, note
from designer.core.errors import DesignerError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "0")  # every interface: no one name a page would be served under


@app.command(
    rich_help_panel=DESIGN,
    epilog=examples("designer studio", "designer studio --port 8765 --no-browser"),
)
def studio(
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        metavar="ADDR",
        help="The address to listen on (default: this machine only).",
    ),
    port: int = typer.Option(
        0, "--port", min=0, max=65535, metavar="N", help="The port (default: a free one)."
    ),
    no_browser: bool = typer.Option(
        False, "--no-browser", help="Print the address; do not open a browser."
    ),
    player: str | None = typer.Option(
        None,
        "--player",
        metavar="FILE",
        help="The model's player of the live figures' predicted difficulty and the playtests "
        "(a player file; default: the simple player).",
    ),
) -> None:
    """Paint a room, lock what you like, let the solver fill the rest: a local web app.

    It serves at the address printed (its token changes at every start) until Ctrl-C."""
    import socket
    import tempfile
    import webbrowser
    from pathlib import Path

    from designer.core.extras import need

    if not host.strip():
        raise DesignerError(
            "--host needs an address: this machine's (127.0.0.1, the default) or the one other "
            "machines reach it by"
        )
    if host.strip("[]") in WILDCARDS:
        raise DesignerError(
            f"--host {host} listens on every interface, but the studio answers only the address it "
            "is served under: give the one other machines reach this one by (say --host 192.168.1.5)"
        )
    from designer.cli.levels import read_player

    who = read_player(player)  # before anything listens: a bad file is one line, status 2
    need("starlette", "studio")
    need("uvicorn", "studio")
    from designer.studio.server import Studio, serve

    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # from now on a request waits for the server, never refused
    except (OSError, UnicodeError) as exc:
        raise DesignerError(
            f"--host {host} --port {port}: cannot listen there ({getattr(exc, 'strerror', None) or exc})"
        ) from None
    studio_ = Studio(host, sock.getsockname()[1], player=who)
    if host not in LOOPBACK:
        note(
            f"warning: listening on {host}, not this machine alone: anyone who can reach it and learns the token "
            "can use the studio"
        )
    echo(f"designer studio: {studio_.url()}")
    echo("Ctrl-C stops it (and every fill it started).")
    with tempfile.TemporaryDirectory(
        prefix="designer-studio-"
    ) as private:  # 0700: this user's alone
        if not no_browser:  # the browser gets a file to open, never the token in its command line
            redirect = Path(private) / "open.html"
            redirect.write_text(studio_.redirect_page(), encoding="utf-8")
            redirect.chmod(0o600)
            if not webbrowser.open(redirect.as_uri()):
                note("designer: note: no browser was found: open the address above in a browser")
        serve(studio_, sock)
