"""Level files: detection, the JSON level ("ice-level", version 1), and reading from a path or stdin.

ASCII (canonical and dialects) lives with the level type in ``designer.level``; this module
adds the JSON form and the plumbing that turns bytes from a file into a Level.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from designer.errors import DesignerError, LevelError
from designer.level import Level

FORMAT_NAME, FORMAT_VERSION = "ice-level", 1
#: Files larger than this are refused before parsing (a 1000x1000 level is about 1 MB).
MAX_BYTES = 8 * 1024 * 1024


def level_to_json(level: Level, *, with_analysis: bool = True, generator: dict | None = None,
                  report=None) -> dict:
    """The JSON level object. Solution and analysis are computed (or taken from ``report``, an
    ``Analysis`` of this level) unless ``with_analysis`` is False."""
    solution = analysis = None
    if with_analysis:
        from designer.analysis import analyze

        report = report or analyze(level)
        solution = report.solution.to_dict() if report.solution else None
        analysis = report.to_dict()
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "height": level.height,
        "width": level.width,
        "rows": level.rows(),
        "start": list(level.start),
        "goal": list(level.goal),
        "solution": solution,
        "analysis": analysis,
        "generator": generator,
    }


def dumps(level: Level, **kwargs) -> str:
    """The JSON level as text: one key per line, one row per line, nested values compact."""
    return format_json(level_to_json(level, **kwargs))


def format_json(obj: dict) -> str:
    """Pretty-print a JSON level object so that it stays readable in a diff."""
    lines = []
    for key, value in obj.items():
        if key == "rows":
            body = ",\n    ".join(json.dumps(row) for row in value)
            lines.append(f'  "rows": [\n    {body}\n  ]')
        elif isinstance(value, dict) and value:
            inner = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            lines.append(f"  {json.dumps(key)}: {{\n{inner}\n  }}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def level_from_json(obj: object) -> Level:
    """Read a JSON level object; ``rows`` is the truth and ``start``/``goal`` must agree with it."""
    if not isinstance(obj, dict):
        raise LevelError("JSON level must be an object")
    if obj.get("format") != FORMAT_NAME:
        raise LevelError(f"JSON is not an ice level: \"format\" must be {FORMAT_NAME!r}")
    if obj.get("version") != FORMAT_VERSION:
        raise LevelError(f"unsupported ice-level version {obj.get('version')!r}: this reader knows version 1")
    rows = obj.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise LevelError('JSON level: "rows" must be a list of strings')
    level = Level.from_rows(rows)
    for key, value in (("height", level.height), ("width", level.width)):
        if key in obj and obj[key] != value:
            raise LevelError(f'JSON level: "{key}" is {obj[key]!r} but rows give {value}')
    for key, cell in (("start", level.start), ("goal", level.goal)):
        if key in obj and obj[key] is not None and list(obj[key]) != list(cell):
            raise LevelError(f'JSON level: "{key}" is {obj[key]!r} but rows put it at {list(cell)}')
    return Level(level.terrain, level.start, level.goal, "json")


def parse_level(data: bytes | str) -> Level:
    """A level from the bytes of a file, whatever its format (JSON or any ASCII dialect)."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise LevelError(f"input of {len(data):,} bytes is too large: at most {MAX_BYTES:,}")
        if b"\0" in data:
            raise LevelError("not a text file (it contains NUL bytes)")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LevelError(f"not a text file (byte {exc.start} is not UTF-8)") from None
    else:
        text = data
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LevelError(f"bad JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        return level_from_json(obj)
    return Level.from_ascii(text)


def read_level(source: str | Path) -> Level:
    """Read a level from a path, or from standard input when ``source`` is ``-``."""
    if str(source) == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        return parse_level(data)
    path = Path(source)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise LevelError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise LevelError(f"{source}: is a directory, not a level file") from None
    except OSError as exc:
        raise LevelError(f"{source}: cannot read ({exc.strerror})") from None
    try:
        return parse_level(data)
    except LevelError as exc:
        raise LevelError(f"{source}: {exc}") from None


def write_text_atomic(path: str | Path, text: str | bytes, *, force: bool = False) -> None:
    """Write ``text`` (or bytes) to ``path`` all at once: a temporary file beside it, then a rename.

    Refuses (DesignerError) to replace an existing file unless ``force``.
    """
    target = Path(path)
    if target.exists() and not force:
        raise DesignerError(f"{target} already exists (use --force to overwrite it)")
    if target.is_dir():
        raise DesignerError(f"{target} is a directory")
    folder = target.parent
    if not folder.is_dir():
        raise DesignerError(f"{folder}: no such directory")
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.encode() if isinstance(text, str) else text)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
