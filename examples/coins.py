"""Coins from Python: the full clear of a level, each coin's figures, a level designed with coins,
and a cave's full clear.

Run: python examples/coins.py   (from any folder)
"""

from pathlib import Path

from designer.analysis.coins import coin_report
from designer.analysis.solver import solve
from designer.analysis.tour import full_clear
from designer.caves.cave import Cave
from designer.caves.coins import full_clear as cave_full_clear
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.search.design import design

# A level with coins ($): the exit never waits for them, so it has two pars.
level = Level.from_ascii((Path(__file__).parent / "levels" / "coins.txt").read_text())
print(level)
print(f"the exit's par: {solve(level).stops} stops; {len(level.coins)} coins")
tour = full_clear(level, 10.0)  # every coin, then the exit: searched over the states reached
print(f"full clear: {tour.words()}  {tour.moves}")

# Each coin: the moves it adds to the full clear, whether every fewest way takes it, its traps.
report = coin_report(level, 10.0)
for k, coin in enumerate(report.coins, 1):
    print(f"coin {k} at {coin.cell}: adds {coin.adds}, on every fewest way: {coin.on_every_way}, "
          f"full-clear traps: {len(coin.traps)}")

# Design: 3 coins on a 9x9, each worth taking, none to be lost, the full clear at least 16.
found = design(LayoutRequest(height=9, width=9, min_stops=10, coins=3, full_clear_min=16), seed=1, time_limit=30)
print(found.level)
placed = coin_report(found.level, 10.0)
print(f"designed: {found.min_stops} stops, full clear {placed.full.stops} ({placed.full.how}), "
      f"each coin adds {[coin.adds for coin in placed.coins]}, traps {placed.traps}")

# A cave with a coin in each room: its full clear runs through both, then out by the exit.
cave = Cave.parse("room a\n#1###\n#...#\n#$..2\n#####\nroom b\n###1#\n2..$#\n#...#\n#####\n"
                  "door a:2 b:2\nentrance a:1\nexit b:1")
way = cave_full_clear(cave, 10.0)
print(f"the cave's full clear: {way.words()}  {way.moves}, resting in rooms {[room for room, _ in way.path]}")
