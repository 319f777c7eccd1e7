"""Players and levels the tests of the played-out runs share (tests/test_player_controls.py and
tests/test_player_basis.py): a member of each kind the kernel plays, and two small levels, one with
a trap."""

from designer.core.level import Level
from designer.core.players import Player

EXPLORER = Player(2.0, 1.5, memory=1.0, foresight=1, lapse=0.2, member="explorer")
SEEKER = Player.of("seeker", skill=2.0, memory=1.0, foresight=2, lapse=0.15, patience=10.0)
TINKERER = Player.of("tinkerer", skill=2.0, back_aversion=1.0, variety=1.5, lapse=0.15)
FOLLOWER = Player.of("follower", skill=2.0, back_aversion=1.0, turn=1.5, lapse=0.0, notice=0.6)
SMALL = Level.from_rows(["#######", "#..#.G#", "#.....#", "#.#...#", "#...#.#", "#S#####"])
TRAPPED = Level.from_rows(["#####G#", "#...#.#", "##.##.#", "#..##.#", "#.....#", "#S#####"])
