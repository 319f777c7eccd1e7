"""What an export wrote (``Written``): its files, and the levels and rooms they hold."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Written:
    """What an export wrote: its files, and how many levels they hold (``rooms`` of them rooms
    with several doors)."""

    paths: list
    levels: int
    rooms: int = 0

    @classmethod
    def of(cls, paths: list, entries: list) -> Written:
        """The files written for ``entries`` (level files), their rooms counted."""
        from collections import Counter

        held = Counter(entry.level.kind_name for entry in entries)
        return cls(paths, len(entries), held["room"])

    def holding(self) -> str:
        """'1 level', '3 levels', '1 room', '2 levels and 1 room': what the files hold, in words."""
        plain = self.levels - self.rooms
        parts = [
            f"{n} {word}{'s' if n > 1 else ''}"
            for n, word in ((plain, "level"), (self.rooms, "room"))
            if n
        ]
        return " and ".join(parts) or "no level"
