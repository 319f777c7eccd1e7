"""Solve and analyse a level from Python: everything the command line does is a library call.

Run: python examples/solve_and_analyze.py   (from any folder)
"""

from pathlib import Path

from designer.analysis.graph import analyze
from designer.analysis.classify import classify
from designer.formats.level_files import read_level
from designer.formats.level_json import dumps
from designer.core.level import Level
from designer.export.report import report
from designer.core.rules import replay
from designer.analysis.solver import solve

here = Path(__file__).parent

# A level from a file, in any dialect (this one is seed-style, as source 003 published it).
level = read_level(here / "levels" / "seed003-hard.txt")
print(f"read a {level.height}x{level.width} {level.dialect} level")

# The fewest-moves solution, and the least-distance one.
best = solve(level)
shortest = solve(level, by="distance")
print(f"fewest moves: {best.moves} ({best.stops} stops, {best.distance} cells)")
print(f"least distance: {shortest.moves} ({shortest.stops} stops, {shortest.distance} cells)")
assert replay(level, best.moves)[0] == level.goal

# The quick verdict generators use, and the full networkx analysis.
print(classify(level))
print(report(level, analyze(level)))

# Levels are values: build one from text, print it canonically, save it as JSON.
tiny = Level.from_ascii("#####\n#S.G#\n#####")
print(str(tiny))
print(dumps(tiny))

# A room with three doors: each route A:B is the classic level from door A to door B.
from designer.analysis.routes import analyze_routes  # noqa: E402
from designer.core.room import Room  # noqa: E402

room = Room.from_ascii("###3##\n##...#\n2....#\n#....#\n#...##\n##1###")
routes = analyze_routes(room)
for one in routes.routes:
    print(f"route {one.name}: {one.analysis.solvability}, {one.analysis.min_stops} stops, {one.analysis.solution.moves}")
print(f"every route strong and reversible: {routes.holds}")
