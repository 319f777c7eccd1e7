"""A cave of rooms joined by doors, ladders and holes, with a key that opens a locked door:
read one, solve and analyse it, design one from a template, one from nothing and one to a band of
predicted difficulty, and take one
out to Tiled, to a picture and to the play page. Run it from any folder: it writes into ./caves.

    python examples/caves.py
"""

from pathlib import Path

from designer.caves import cave_analysis, grammar, graph
from designer.caves.cave import Cave
from designer.caves.design import design
from designer.caves.cave_request import CaveFailed, CaveRequest
from designer.caves.picture import svg_plan
from designer.caves.play import cave_page
from designer.caves.world import read_world, world_files

HERE = Path(__file__).resolve().parent
out = Path("caves")
out.mkdir(exist_ok=True)

# 1. A small cave, in its text form: two rooms, a doorway, a key in the first, a locked door.
cave = Cave.parse("""room hall
#1####
#.*..2
#.##.#
#....#
######
room vault
#1#
#.#
#2#
door hall:2 vault:1 lock brass
key brass hall 1,2
entrance hall:1
exit vault:2
""")
way = graph.solve(cave)
print(f"fewest moves: {way.moves} ({way.stops} stops), key brass at move {way.keys['brass']}")
for visit in way.visits:
    print(f"  {visit.room}: {visit.moves} ({visit.stops} stop{'s' if visit.stops != 1 else ''})")
report = cave_analysis.analyze(cave)
print(f"strong: {report.strong}, reversible: {report.reversible}, key needed: {report.keys[0].needed}")

# 2. Design the Ice Path template: 7 rooms on 3 floors, holes down, ladders up, a key locks the exit.
template = Cave.parse((HERE / "caves" / "ice-path.txt").read_text())
made = design(CaveRequest(template, min_stops=60), seed=1, time_limit=120)
print(f"ice path: min stops {made.analysis.min_stops}, strong: {made.analysis.strong}, "
      f"key gold needed: {made.analysis.keys[0].needed}, {made.record['rounds']} round(s)")

# 3. A cave from nothing: 6 rooms, 2 keys, each in a side room, each needed.
drawn = grammar.draw(rooms=6, keys=2, size=(9, 9), seed=3)
from_nothing = design(CaveRequest(drawn, min_stops=40), seed=3, time_limit=60)
print(f"from nothing: {len(from_nothing.cave.rooms)} rooms, min stops {from_nothing.analysis.min_stops}, "
      f"keys needed: {[key.needed for key in from_nothing.analysis.keys]}")

# 3b. A cave asked a band of predicted difficulty (as `designer cave --difficulty 5..5.6`): its
# rooms are designed again, from other seeds, until the model's player feels it within the band.
small = grammar.draw(rooms=2, keys=0, size=(7, 7), seed=1)
felt = design(CaveRequest(small, min_stops=8, difficulty=(5.0, 5.6)), seed=1, time_limit=60, workers=1)
landing = felt.record["felt"]
print(f"asked 5..5.6: felt {cave_analysis.played(felt.cave).difficulty} ({landing['difficulty']}), "
      f"design {landing['designs']}, in the band: {landing['in_band']}")

# 4. A band no plan can meet is proven so, naming the rooms that hold the cave back.
try:
    design(CaveRequest(template, min_stops=1000), seed=1, time_limit=10)
except CaveFailed as failed:
    print(f"{failed.reason} - {failed}")

# 5. Out: a Tiled world (a map per room), the floor plan with the way, the play page.
world = out / "world"
world.mkdir(exist_ok=True)
for name, text in world_files(made.cave).items():
    (world / name).write_text(text)
print(f"read back from the Tiled world, the same rooms: "
      f"{read_world(world / 'cave.world').rooms == made.cave.rooms}")
(out / "plan.svg").write_text(svg_plan(made.cave, way=True))
(out / "cave.html").write_text(cave_page(made.cave, "the ice path"))
print(f"wrote {len(list(world.iterdir())) + 2} files to caves")
