"""The styles of layout a game's levels are drawn in (docs/spec.md, "Games", "Variety"), as the
hand-made rooms are: a template (``designer.formats.template``: ``#`` drawn rock, ``?`` the
designer's, ``S``/``G`` pinned ends) of a size, from a seed.

- **scattered**: no template; the designer scatters its rocks over the framed grid.
- **corridors**: walls across the grid, each with two gaps, between which the player works
  corridor by corridor.
- **symmetric**: a motif of rocks mirrored left to right about the middle.
- **shaped**: a frame that is no rectangle: its corners cut off, an octagon.
- **inside**: the start and the exit pinned inside the grid, off the frame.

>>> print("\\n".join(template("corridors", (7, 9), 1)))
#########
#???????#
#???????#
###???###
#???????#
#???????#
#########
"""

from __future__ import annotations

import numpy as np

#: The styles, in the order a world's levels take them.
STYLES = ("scattered", "corridors", "symmetric", "shaped", "inside")


def template(style: str, size: tuple[int, int], seed: int) -> tuple[str, ...] | None:
    """The rows of a template of ``size`` in ``style`` (None: scattered, no template)."""
    if style == "scattered":
        return None
    h, w = size
    rng = np.random.default_rng(seed)
    grid = np.full((h, w), "?", dtype="<U1")
    grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = "#"
    if style == "corridors":
        for row in range(3, h - 3, 4):
            grid[row, 1:-1] = "#"
            gaps = rng.choice(np.arange(1, w - 2), size=2 if w > 8 else 1, replace=False)
            for gap in gaps:
                grid[row, gap : gap + 2] = "?"
    elif style == "symmetric":
        half = (w - 2) // 2
        for _ in range(max(2, (h - 2) * half // 8)):
            r, c = int(rng.integers(1, h - 1)), int(rng.integers(1, 1 + half))
            grid[r, c] = grid[r, w - 1 - c] = "#"
    elif style == "shaped":
        cut = max(2, min(h, w) // 4)
        for k in range(cut):
            for c in range(1, 1 + cut - k):
                for r, col in (
                    (1 + k, c),
                    (1 + k, w - 1 - c),
                    (h - 2 - k, c),
                    (h - 2 - k, w - 1 - c),
                ):
                    grid[r, col] = "#"
    elif style == "inside":
        cells = [(r, c) for r in range(2, h - 2) for c in range(2, w - 2)]
        picks = rng.choice(len(cells), size=2, replace=False)
        for end, pick in zip("SG", picks):
            r, c = cells[int(pick)]
            grid[r, c] = end
    else:
        raise ValueError(f"no style {style!r}: one of {', '.join(STYLES)}")
    return tuple("".join(row) for row in grid)
