"""From a designed level to a game, in Python: a picture with its solution, the move graph, a
contact sheet, a Tiled map with its tileset image, a playable page, and an open-grid level with
few rocks.

Run: python examples/pictures.py [FOLDER] [--force]
(about 10 s on a 2-core machine). The files go to FOLDER, ./pictures by default; files already
there are kept unless --force is given.
"""

import json
import sys
from pathlib import Path

from designer.core.errors import DesignerError
from designer.core.request import LayoutRequest
from designer.export import picture, tiled, tiles
from designer.formats import output
from designer.ops.kinds.registry import page
from designer.search.design import design
from designer.search.engines.compressed import compress

args = [a for a in sys.argv[1:] if a != "--force"]
force = "--force" in sys.argv[1:]
out = Path(args[0] if args else "pictures")
names = ["level.svg", "level.png", "graph.svg", "sheet.svg", "level.tmj", tiled.TILESET_IMAGE, "play.html"]
try:
    output.check_folder(out, names, force=force)  # before any work: nothing of the user's is overwritten
except DesignerError as exc:
    sys.exit(f"pictures.py: {exc}")
out.mkdir(parents=True, exist_ok=True)


def save(name: str, data) -> None:
    output.write(out / name, data, force=force)  # whole, or not at all


# Two levels to draw: a 10x10 with a frame, and a sparse open grid (the annealing on compressed
# grids of designer.search.engines.opengrid finds it; compress shows the small form it searched).
framed = design(LayoutRequest(10, 10, min_stops=15), seed=1, time_limit=20)
sparse = design(LayoutRequest(12, 16, frame=False, min_stops=8, max_rocks=2, first=True), seed=1,
                time_limit=20)  # first: the open grid's own level, before any time on its decisions
print(f"framed: {framed.min_stops} stops; sparse: {sparse.min_stops} stops with 2 rocks "
      f"({sparse.generator.stage}), searched as a {'x'.join(map(str, compress(sparse.level).terrain.shape))} grid")

# SVG (and PNG from the same drawing) with the solution drawn and its stops numbered; the move
# graph over the map (moves as arrows, resting cells coloured by strongly connected component).
drawing = picture.draw_level(framed.level, solution=True, cell=32)
save("level.svg", picture.svg_text(drawing))
save("level.png", picture.png_bytes(drawing))
save("graph.svg", picture.svg_text(picture.draw_level(sparse.level, graph=True, cell=32)))
save("sheet.svg", picture.svg_text(picture.contact_sheet([("framed", framed.level), ("sparse", sparse.level)])))
print("pictures:", sorted(p.name for p in out.iterdir() if p.suffix in (".svg", ".png")))

# A Tiled map (embedded tileset; the start and goal drawn on their own tile layer) and the
# tileset image it names.
tmj = tiled.to_tiled(framed.level, seed=framed.generator.seed)
save("level.tmj", json.dumps(tmj))
save(tiled.TILESET_IMAGE, picture.png_bytes(tiles.tileset()))
print("tiled properties:", {p["name"]: p["value"] for p in tmj["properties"]})
print("tiled layers:", [layer["name"] for layer in tmj["layers"]])

# One page that plays both levels offline, with hints, a solve button, stars and saved progress.
html = page([("framed", framed.level), ("sparse", sparse.level)])
save("play.html", html)
print(f"play.html: {len(html):,} bytes, self-contained: {'http' not in html}")
print(f"wrote {len(names)} files to {out}")
