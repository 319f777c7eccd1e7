"""Player files: the model's player (``designer.analysis.player.Player``) as ``playtest --fit``
writes it and every command that uses the model reads it (``--player FILE``; docs/spec.md
"Difficulty")."""

from __future__ import annotations

import json

from designer.analysis.player import Player
from designer.core.errors import DesignerError
from designer.formats.reading import decode_text, read_bytes


def read_player(path: str) -> Player:
    """The player of a file; DesignerError (one line) when it is not one: not JSON, NaN or
    Infinity, another format, an unknown field, a parameter out of range."""
    data = read_bytes(path, "player file")
    try:
        text = decode_text(data)
    except DesignerError as exc:  # too large, or not text: said of this file
        raise DesignerError(f"{path}: {exc}") from None
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise DesignerError(f"{path}: not a player file ({exc})"[:200]) from None
    try:
        return Player.from_json(obj)
    except DesignerError as exc:
        raise DesignerError(f"{path}: {exc}") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a player file may hold")
