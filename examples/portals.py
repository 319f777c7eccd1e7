"""Portals, floors and wrap-around, from Python: the rule, the figures, the designer, glissade.

Run: python examples/portals.py   (from any folder)
"""

import json
from pathlib import Path

from designer.analysis.graph import analyze
from designer.analysis.solver import solve
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.formats import glissade
from designer.formats.template import read_template_parts
from designer.search.design import design

HERE = Path(__file__).parent

# A level of two floors: a ladder (a pair of portals) and a hole to the floor below (one way).
level = Level.from_ascii((HERE / "levels" / "two-floors.txt").read_text())
solution = solve(level)
print(level)
print(f"fewest moves: {solution.moves} ({solution.stops} stops), resting on {[level.where(c) for c in solution.path]}")
report = analyze(level)
print(f"{report.solvability}, reversible: {report.reversible}")
for portal in report.portals:
    print(f"portal {level.where(tuple(portal['from']))} -> {level.where(tuple(portal['to']))}: "
          f"{'a pair' if portal['pair'] else 'one way'}, one-way in play: {portal['one_way']}")
print("floors left for good:", [floor["name"] for floor in report.floors if floor["no_return"]])

# Design: two teleport pairs on a 12x12, each mattering, at least 25 stops.
found = design(LayoutRequest(min_stops=25, teleports=2), seed=1, time_limit=30)
print(found.level)
print(f"designed: {found.min_stops} stops (stage {found.generator.stage})")

# Design: two floors from one template, the ladder and the hole pinned.
rows, floors, portals = read_template_parts(HERE / "templates" / "two-floors.txt")
request = LayoutRequest(height=len(rows), width=len(rows[0]), frame=False, min_stops=30, template=rows,
                        floors=floors, portals=portals)
found = design(request, seed=1, time_limit=60)
print(found.level)
print(f"two floors: {found.min_stops} stops, strong and reversible on the whole graph: "
      f"{found.analysis.solvability == 'strong' and found.analysis.reversible}")

# glissade's format: holes pair by themselves, every edge wraps, the par is thresholds[0].
game = [{"name": "Holes", "thresholds": [3, 4, 6], "data": ["#######", "#P O  #", "#     #", "#O   X#", "#######"]}]
for one in glissade.read_levels(json.loads(json.dumps(game))):
    found = solve(one.level)
    print(f"glissade {one.name!r}: min stops {found.stops}, par {one.par}")
