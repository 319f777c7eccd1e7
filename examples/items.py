"""Items to take before the exit opens, from Python: the rules, the figures and the designer.

Run: python examples/items.py   (from any folder)
"""

from pathlib import Path

from designer.analysis.graph import analyze
from designer.analysis.solver import solve
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.search.design import design

# A level with two items (*): the goal is plain ice until both are taken.
level = Level.from_ascii((Path(__file__).parent / "levels" / "two-items.txt").read_text())
solution = solve(level)
print(level)
print(f"fewest moves: {solution.moves} ({solution.stops} stops)")
print("items taken in the order", [k + 1 for k in solution.order()], "at moves", list(solution.taken))

# What each item adds: the fewest moves with it, minus the fewest without it.
report = analyze(level)
for k, item in enumerate(report.items, 1):
    print(f"item {k} at {item.cell}: taken at move {item.taken_at}, adds {item.adds} moves")
print(f"{report.resting_cells} states (cell, items taken) reached; {report.solvability}, "
      f"reversible: {report.reversible}")

# Design: three items on a 12x12, every one mattering, at least 25 stops on the whole tour.
found = design(LayoutRequest(min_stops=25, items=3), seed=1, time_limit=30)
print(found.level)
print(f"designed: {found.min_stops} stops, each item adds", [item.adds for item in found.analysis.items],
      f"(stage {found.generator.stage})")
print("every item matters:", found.analysis.items_matter)
