"""Design levels from Python: what 'designer make' does, as library calls.

Run: python examples/design_levels.py   (from any folder)
"""

from pathlib import Path

from designer.core.request import LayoutRequest
from designer.formats.level_json import dumps
from designer.search.result import DesignFailed
from designer.search.design import design
from designer.search.job import DesignJob
from designer.search.packs import design_pack

# A 12x12 framed level that needs at least 30 moves, strong and reversible.
found = design(LayoutRequest(min_stops=30), seed=7, time_limit=60)
print(found.level)
print(f"min stops {found.min_stops}, found by {found.generator.stage} in {found.generator.seconds} s")

# A band (like a "medium" difficulty) with the start pinned inside the grid.
medium = design(LayoutRequest(min_stops=10, max_stops=12, start=(6, 6)), seed=1)
print(medium.level, medium.min_stops)

# The most moves a 5x5 open field with at most 3 rocks allows, proven optimal by exhaustive search.
best = design(LayoutRequest(height=5, width=5, frame=False, max_rocks=3, min_stops=1), maximize=True,
              time_limit=30)
print(best.level)
print(f"{best.min_stops} stops, proven optimal: {best.generator.proven_optimal}")

# One more stop than that is impossible, and the designer says so.
try:
    design(LayoutRequest(height=5, width=5, frame=False, max_rocks=3, min_stops=best.min_stops + 1),
           time_limit=30)
except DesignFailed as failure:
    print(failure.reason, "-", failure)

# Fill a drawn room: an L-shaped template (canonical ASCII plus '?' for the cells to fill).
from designer.formats.template import read_template  # noqa: E402

rows = read_template(Path(__file__).parent / "templates" / "l-room.txt")
room = design(LayoutRequest(height=len(rows), width=len(rows[0]), frame=False, template=rows, min_stops=20,
                            tidy=True), seed=1)
print(room.level)
print(f"L-room: {room.min_stops} stops, every placed rock needed, found by {room.generator.stage}")

# Save a design as a JSON level (solution, analysis and the generator record included).
print(dumps(found.level, generator=found.generator, report=found.analysis)[:300], "...")

# The generator record keeps the request, the method and the seed: run them again and the level
# comes back (what 'designer make --from LEVEL.json' does with a saved level).
record = found.generator
again = design(record.request, seed=record.seed, time_limit=record.time_limit, method=record.method)
print("designed again from its record, the same level:", again.level == found.level)
print("the request as JSON:", record.request.to_json())

# A pack of three distinct levels (seeds 1, 2, 3), as 'designer make --count 3 --out DIR' makes it.
pack = list(design_pack(DesignJob(LayoutRequest(min_stops=20), seed=1, time_limit=30), 3))
print("pack:", [level.min_stops for level in pack], "distinct:", len({level.level for level in pack}) == 3)
