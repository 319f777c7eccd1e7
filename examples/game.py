"""A small game from Python: a plan of two worlds (snow, then teleports), designed whole, each
world's teaching level checked by ablation, and the files a game maker takes away. Run it from any
folder: it writes into ./game.

    python examples/game.py
"""

import json
from pathlib import Path

from designer.game.make import make_game
from designer.game.plan import GamePlan
from designer.game.teach import ablation, cave_ablation, held_words

plan = GamePlan.parse("""
title = "A first game"
seed = 1

[[worlds]]
name = "Snowfield"
mechanic = "snow"
levels = 3
band = "2.5..4"
cave = { rooms = 3, keys = 1, min_stops = 5, names = ["porch", "rink", "icehouse"] }

[[worlds]]
name = "Warp Gallery"
mechanic = "teleports"
levels = 3
band = "3..4.5"
cave = false
""")
print(f"the plan: {len(plan.worlds)} worlds, {sum(w.levels for w in plan.worlds)} levels")

game = make_game(plan, "game", force=True)
for number, world in enumerate(game.worlds, 1):
    teaching = world.levels[0]
    print(f"world {number} ({world.world.name}): teaches {world.world.mechanic}")
    print(teaching.level)
    # the same check the designer made, from the level alone
    print(f"  {ablation(teaching.level, world.world.mechanic).words()}")
    print("  predicted difficulty: " + ", ".join(f"{one.difficulty:.1f}" for one in world.levels))
    if world.cave is not None:
        rooms = ", ".join(
            f"{room.name} {room.shape[0]}x{room.shape[1]}" for room in world.cave.cave.rooms
        )
        print(f"  its cave: rooms {rooms}")
        # what the cave holds of the world's mechanic, taken away
        print(f"  {held_words(cave_ablation(world.cave.cave, world.world.mechanic))}")

index = json.loads(Path("game/game.json").read_text())
print(
    f"closest two levels: {index['variety']['closest']['distance']:.0%} of their open cells apart"
)
print("wrote " + ", ".join(sorted(p.name for p in Path("game").iterdir())) + " to game")
