"""Reading a file's bytes and text, bounded: what every reader of a user's file shares (level
files, templates, Tiled maps and their tilesets, records checkpoints). Each refusal is one
LevelError line."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

from designer.core.errors import LevelError
from designer.core.limits import MAX_FILE_BYTES

#: Files larger than this are refused before parsing (the table's: ``designer.core.limits``).
MAX_BYTES = MAX_FILE_BYTES


def too_large(size: int | None = None) -> str:
    """The message for an input over MAX_BYTES (its size when known: a stream may not say)."""
    limit = f"at most {MAX_BYTES:,} bytes (8 MiB)"
    return (
        f"input of {size:,} bytes is too large: {limit}" if size else f"input is too large: {limit}"
    )


def decode_text(data: bytes | str) -> str:
    """The text of a file's bytes: refused (LevelError) when too large, with NUL bytes, or not UTF-8."""
    if isinstance(data, str):
        return data
    if len(data) > MAX_BYTES:
        raise LevelError(too_large())
    if b"\0" in data:
        raise LevelError("not a text file (it contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LevelError(f"not a text file (byte {exc.start} is not UTF-8)") from None


#: Digits a JSON integer may have: every count a level holds is far smaller.
MAX_INT_DIGITS = 18


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise LevelError(
            f"bad JSON: an integer of {len(digits.lstrip('-')):,} digits (at most {MAX_INT_DIGITS})"
        )
    return int(digits)


def load_json(text: str):
    """JSON text as Python values; one LevelError line for bad JSON, nesting too deep, or an
    integer too long for any field."""
    try:
        return json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise LevelError(f"bad JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise LevelError("bad JSON: nested too deeply") from None


def read_bytes(source: str | Path, what: str = "level file") -> bytes:
    """Up to MAX_BYTES + 1 bytes of a path, or of standard input when ``source`` is ``-``; one
    LevelError line (naming the path) when it cannot be read or is too large."""
    if str(source) == "-":
        stdin = getattr(sys.stdin, "buffer", sys.stdin)
        if stdin is None:
            raise LevelError("standard input is closed")
        try:
            data = stdin.read(MAX_BYTES + 1)
        except (OSError, ValueError) as exc:  # a closed descriptor, or a closed file object
            raise LevelError(
                f"cannot read standard input ({getattr(exc, 'strerror', None) or exc})"
            ) from None
        return data.encode() if isinstance(data, str) else data
    if "\x00" in str(source):
        raise LevelError(f"{str(source)!r}: a file name cannot hold a NUL character")
    path = Path(source)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
            info = os.fstat(handle.fileno())
    except FileNotFoundError:
        raise LevelError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise LevelError(f"{source}: is a directory, not a {what}") from None
    except OSError as exc:
        raise LevelError(f"{source}: cannot read ({exc.strerror})") from None
    if len(data) > MAX_BYTES:
        raise LevelError(
            f"{source}: " + too_large(info.st_size if stat.S_ISREG(info.st_mode) else None)
        )
    return data


def read_regular(path: str | Path, what: str) -> bytes:
    """Up to MAX_BYTES of a regular file that another file names (a map's tileset): a FIFO, a
    device or a folder is refused in one line, never opened for reading, so it cannot block.
    ``what`` names the file in the messages (``"tileset t.tsx"``)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise LevelError(f"{what}: no such file") from None
    except OSError as exc:
        raise LevelError(f"{what}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LevelError(f"{what}: not a regular file (a FIFO, a device or a folder is not read)")
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise LevelError(f"{what}: cannot read ({exc.strerror})") from None
    if len(data) > MAX_BYTES:
        raise LevelError(f"{what}: " + too_large(len(data)))
    return data
