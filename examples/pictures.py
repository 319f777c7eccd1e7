"""From a designed level to a game, in Python: a picture with its solution, a contact sheet, a
Tiled map with its tileset image, a playable page, and an open-grid level with few rocks.

Run: python examples/pictures.py   (about 10 s on a 2-core machine; writes into a temporary folder)
"""

import json
import tempfile
from pathlib import Path

from designer.export import picture, play, tiled
from designer.search.design import design
from designer.search.opengrid import compress
from designer.core.request import LayoutRequest

with tempfile.TemporaryDirectory() as folder:
    out = Path(folder)
    # Two levels to draw: a 10x10 with a frame, and a sparse open grid (the annealing on
    # compressed grids of designer.search.opengrid finds it; compress shows the small form it searched).
    framed = design(LayoutRequest(10, 10, min_stops=15), seed=1, time_limit=20)
    sparse = design(LayoutRequest(12, 16, frame=False, min_stops=8, max_rocks=2), seed=1, time_limit=20)
    print(f"framed: {framed.min_stops} stops; sparse: {sparse.min_stops} stops with 2 rocks "
          f"({sparse.generator.stage}), searched as a {'x'.join(map(str, compress(sparse.level).terrain.shape))} grid")

    # SVG (and PNG from the same drawing) with the solution drawn and its stops numbered.
    drawing = picture.draw_level(framed.level, solution=True, cell=32)
    (out / "level.svg").write_text(picture.svg_text(drawing))
    (out / "level.png").write_bytes(picture.png_bytes(drawing))
    sheet = picture.contact_sheet([("framed", framed.level), ("sparse", sparse.level)])
    (out / "sheet.svg").write_text(picture.svg_text(sheet))
    print("pictures:", sorted(p.name for p in out.iterdir()))

    # A Tiled map (embedded tileset) and the tileset image it names.
    tmj = tiled.to_tiled(framed.level, seed=framed.generator.seed)
    (out / "level.tmj").write_text(json.dumps(tmj))
    (out / tiled.TILESET_IMAGE).write_bytes(picture.png_bytes(picture.tileset()))
    print("tiled properties:", {p["name"]: p["value"] for p in tmj["properties"]})

    # One page that plays both levels offline.
    html = play.page([("framed", framed.level), ("sparse", sparse.level)])
    (out / "play.html").write_text(html)
    print(f"play.html: {len(html):,} bytes, self-contained: {'http' not in html}")
