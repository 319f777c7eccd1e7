"""A game's folder read as a pack of levels (docs/spec.md, "Games"): ``game.json`` (the index
``designer game`` writes, format "ice-designer-game") names every level's file and its name on
the game's page, world by world; the levels are read in that order. Caves are left out: a pack is
of levels and rooms (``designer playtest --pack GAME`` reads a whole game's log for its levels,
and says the caves' attempts are not in the pack)."""

from __future__ import annotations

from pathlib import Path

from designer.core.errors import LevelError
from designer.formats.reading import decode_text, load_json, read_bytes

#: The index's name in a game's folder, and its format's name.
INDEX_NAME, INDEX_FORMAT = "game.json", "ice-designer-game"


def is_game_folder(folder: str | Path) -> bool:
    """Whether ``folder`` holds a game's index."""
    return (Path(folder) / INDEX_NAME).is_file()


def game_entries(folder: str | Path) -> list[tuple[str, Path]]:
    """Each level of the game in ``folder``, in the page's order: its name on the page and its
    file; one line naming the index for one that is not a game's."""
    where = Path(folder) / INDEX_NAME
    found = load_json(decode_text(read_bytes(where, "game index")))
    try:
        if found["format"] != INDEX_FORMAT:
            raise LevelError(f"{where}: not a game's index (format {found['format']!r})")
        entries = [
            (level["name"], level["file"]) for world in found["worlds"] for level in world["levels"]
        ]
    except (KeyError, TypeError):
        raise LevelError(
            f"{where}: not a game's index (worlds of levels, each a name and a file)"
        ) from None
    for name, file in entries:
        if not isinstance(file, str) or not isinstance(name, str) or ".." in Path(file).parts:
            raise LevelError(f"{where}: a level's file must be a path inside the game's folder")
    return [(name, Path(folder) / file) for name, file in entries]
