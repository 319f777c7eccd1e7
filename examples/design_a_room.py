"""Rooms with several doors: design one whose every route is guaranteed, see a route that cannot
be met proven so by name, and fill a room drawn in Tiled, written back into the map.

Run: python examples/design_a_room.py   (writes filled.json, filled.tmj and filled.tmx beside copies
     of maps/l-room.tmj and maps/l-room.tmx in a folder of its own: ./room-maps)
"""

import json
import shutil
from pathlib import Path

from designer.core.bands import RouteBand
from designer.core.request import LayoutRequest
from designer.ops import design as ops
from designer.ops.exports import export_tiled
from designer.search.design import design
from designer.search.result import DesignFailed

# 12x12, a door in the bottom wall (1), the left wall (2) and the top wall (3); the long way
# through (1 to 3) takes at least 15 stops, the side doors at least 9 each way.
room_request = LayoutRequest(height=12, width=12, doors=((1, (11, 5)), (2, (6, 0)), (3, (0, 6))),
                             routes=(RouteBand.parse("1:3=15"), RouteBand.parse("1:2=9"), RouteBand.parse("2:3=9")))
found = design(room_request, seed=1, time_limit=30)
print(found.room)
for one in found.routes.routes:
    a = one.analysis
    print(f"route {one.name}: {a.solvability}, reversible: {a.reversible}, {a.min_stops} stops, "
          f"{a.per_stop:.2f} options a stop")

# A floor no route can have: doors 1 and 3 are left and entered vertically, so 1:3 is odd.
try:
    design(LayoutRequest(height=12, width=12, doors=room_request.doors, routes=(RouteBand.parse("1:3=16..16"),)))
except DesignFailed as failed:
    print("infeasible -", failed)

# A room drawn in Tiled: its walls, an empty floor (free), doors as objects named 1, 2 and 3.
folder = Path("room-maps")
folder.mkdir(exist_ok=True)
for name in ("l-room.tmj", "ice-kit.tsj"):
    shutil.copy(Path(__file__).parent / "maps" / name, folder / name)
plan = ops.plan({"template": str(folder / "l-room.tmj"), "min_stops": 9, "seed": 1, "time_limit": 30})
made = ops.make(plan, ops.LevelOutput(file=str(folder / "filled.json"), fmt="json", force=True))
print(f"L-room from Tiled, shortest route {made.designs[0].min_stops} stops:")
print(made.designs[0].room)
export_tiled(str(folder / "filled.json"), output_file=str(folder / "filled.tmj"), into=str(folder / "l-room.tmj"),
             force=True)
before, after = (json.loads((folder / name).read_text()) for name in ("l-room.tmj", "filled.tmj"))
print("their layers kept:", after["layers"][1:] == before["layers"][1:])

# The same room saved as Tiled saves by default: XML (l-room.tmx, its tileset ice-kit.tsx). The
# copy is written in XML too, and a filled map is a room that solve and analyze read as it is.
from designer.analysis.routes import solve_routes  # noqa: E402
from designer.formats.level_files import read_level_or_room  # noqa: E402

for name in ("l-room.tmx", "ice-kit.tsx"):
    shutil.copy(Path(__file__).parent / "maps" / name, folder / name)
export_tiled(str(folder / "filled.json"), output_file=str(folder / "filled.tmx"), into=str(folder / "l-room.tmx"),
             force=True)
room = read_level_or_room(folder / "filled.tmx")
print("read back from Tiled's XML, the same room:", room.rows() == made.designs[0].room.rows())
for one in solve_routes(room):
    print(f"  route {one.name}: {one.solution.moves} ({one.solution.stops} stops)")
