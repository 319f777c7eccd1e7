"""Proofs by refutation from Python: the SAT loop on one start and goal pair, then as the designer
runs it ('designer make --method sat', and auto's proofs on small walled grids).

Run: python examples/proofs.py   (from any folder)
"""

from designer.analysis.classify import classify
from designer.core.budget import Budget
from designer.core.request import LayoutRequest
from designer.models.refute import Refuter
from designer.search.design import design
from designer.search.result import DesignFailed

# One pair of a 7x7 framed room: the start in column 1 of the bottom wall, the goal above it.
# The solver proposes layouts; each one that fails teaches it why, as a clause.
request = LayoutRequest(7, 7, min_stops=11)
with Refuter(request, [((6, 1), (0, 1), 11)]) as refuter:
    found = refuter.run(Budget(60))
    print(found.level)
    print(f"{found.verdict} after {found.rounds} layouts: {classify(found.level).min_stops} stops")
    # Raise the floor on the same solver: every clause learned still holds.
    while found.verdict == "witness":
        best = classify(found.level).min_stops
        refuter.raise_floor(best + 1)
        found = refuter.run(Budget(60))
    print(f"nothing above {best} stops for this pair: {found.verdict}, "
          f"{found.learned['short']} short and {found.learned['trap']} trap clauses learned")

# The whole request, every pair side by side: 15 stops are proven impossible on 7x7.
try:
    design(LayoutRequest(7, 7, min_stops=15), method="sat", time_limit=60)
except DesignFailed as failed:
    print(failed.reason, "-", failed)

# auto uses the loop for the proof on small walled grids: 6x6's longest level, proven.
best = design(LayoutRequest(6, 6, min_stops=1), maximize=True, time_limit=60)
print(f"6x6: {best.min_stops} stops, proven optimal: {best.generator.proven_optimal} "
      f"(stage {best.generator.stage})")
