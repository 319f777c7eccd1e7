"""What players feel, from Python: a pack, what the model's player predicts, a playtest log read
back, the family of players fitted to it, a player with memory played out, and a pack asked in
predicted difficulty.

A real log comes from the play page ("Save playtest"); here one is simulated from a known player
so the fit has an answer to find. Run: python examples/playtest.py   (from any folder)
"""

from pathlib import Path

from designer.analysis import player as model
from designer.studies import playtest_model
from designer.analysis.structure import structure
from designer.core.request import LayoutRequest
from designer.formats import playtest_log
from designer.ops import playtests as ops
from designer.search.design import design
from designer.search.job import DesignJob
from designer.search.packs import design_pack

# Four levels of 6 stops or more on 9x9, written as a pack folder (what designer play reads).
folder = Path("playtest-pack")
folder.mkdir(exist_ok=True)
for k, found in enumerate(design_pack(DesignJob(LayoutRequest(height=9, width=9, min_stops=6), seed=1), 4)):
    (folder / f"level-{k + 1:03d}.txt").write_text(str(found.level) + "\n")
pack = ops.pack_levels(str(folder))

# What the model's player costs on each, and the shape of the first.
for name, level in pack:
    figures = model.play(level)
    print(f"{name}: par {figures.par}, expected moves {figures.expected_moves:.1f}, predicted difficulty "
          f"{figures.difficulty}, {figures.within[2 * figures.par]:.0%} finish within twice par")
print("structure of level-001:", structure(pack[0][1]))

# A log of 400 visits by a player who heads for the exit more and goes back less than the default.
someone = model.Player(3.0, 1.0)
Path("playtest.jsonl").write_text(playtest_log.write(playtest_model.simulated_log(pack, someone, 400, seed=7)))

# designer playtest playtest.jsonl --pack playtest-pack --fit player.json, as a library call.
found = ops.playtest(["playtest.jsonl"], str(folder), fit=True)
for line in ops.lines(found):
    print(line)
print(f"fitted: the {found.player.member} player, skill {found.player.skill:.2f}, back_aversion "
      f"{found.player.back_aversion:.2f} (the log's player: {someone.skill}, {someone.back_aversion})")
Path("player.json").write_text(ops.player_file(found))
Path("report.html").write_text(ops.report_page(found))

# A player who remembers the stops it has seen and looks a move ahead (a member of the family:
# designer.core.players) is played out, not solved: each figure comes with its 95% interval, and
# the same seed gives the same figures.
explorer = model.Player.of("explorer", skill=2.0, back_aversion=1.0, memory=1.0, foresight=1, lapse=0.1)
felt = model.play(pack[0][1], explorer, seed=0)
print(f"the explorer on level-001: expected moves {felt.expected_moves:.1f} "
      f"± {felt.interval['expected_moves']:.1f} over {felt.runs:,} runs, predicted difficulty {felt.difficulty}")

# A level asked in predicted difficulty, for that player (the record keeps both).
hard = design(LayoutRequest(height=9, width=9, min_stops=1, difficulty=5.0,
                            player=found.player.as_request()), seed=3)
print(f"asked difficulty 5 for the fitted player: {hard.generator.difficulty_felt} with {hard.min_stops} stops")
print("wrote playtest-pack, playtest.jsonl, player.json and report.html")
