import numpy as np
import pytest
from hypothesis import given

from conftest import small_levels
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK, SNOW
from designer.core.limits import MAX_SIDE

CANON = "#####G#\n#..._.#\n#S....#\n#######"


def test_canonical_round_trip_is_exact():
    level = Level.from_ascii(CANON)
    assert str(level) == CANON
    assert level.dialect == "canonical"
    assert level.start == (2, 1) and level.goal == (0, 5)
    assert level.terrain[1, 4] == SNOW and level.terrain[0, 0] == ROCK and level.terrain[2, 1] == ICE
    assert Level.from_ascii(str(level)) == level


@given(small_levels())
def test_round_trip_property(level):
    assert Level.from_ascii(str(level)) == level
    assert str(Level.from_ascii(str(level))) == str(level)


def test_seed_dialect_with_indent_trailing_spaces_and_zero_rock():
    text = "    OOOeO  \n    0...O  \n    OsOOO  \n"
    level = Level.from_ascii(text)
    assert level.dialect == "seed-style"
    assert str(level) == "###G#\n#...#\n#S###"


def test_kata_dialect_spaces_are_ice():
    text = "#####\n#S x#\n#  E#\n#####\n"
    level = Level.from_ascii(text)
    assert level.dialect == "kata-style"
    assert str(level) == "#####\n#S._#\n#..G#\n#####"


def test_seed_example_maps_read_in_their_own_dialect(examples_dir):
    for name in ("easy", "medium", "hard"):
        level = Level.from_ascii((examples_dir / f"seed003-{name}.txt").read_text())
        assert level.dialect == "seed-style"
        assert level.shape == (20, 25)


def test_value_semantics():
    a, b = Level.from_ascii(CANON), Level.from_ascii(CANON)
    assert a == b and hash(a) == hash(b)
    assert a.swapped().start == a.goal and a.swapped().swapped() == a
    with pytest.raises(ValueError):
        a.terrain[0, 0] = 0  # read-only


def test_level_checks_positions():
    grid = np.zeros((3, 3), np.uint8)
    with pytest.raises(LevelError, match="outside"):
        Level(grid, (5, 0), (0, 0))
    grid[1, 1] = ROCK
    with pytest.raises(LevelError, match="ice"):
        Level(grid, (1, 1), (0, 0))
    with pytest.raises(LevelError, match="same cell"):
        Level(np.zeros((3, 3), np.uint8), (0, 0), (0, 0))


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty input"),
        ("\n  \n\n", "empty input"),
        ("#S#\n#.\n#G#", "ragged rows: row 1 has 2 characters, row 0 has 3"),
        ("#S#\n#?#\n#G#", r"unknown character '\?' at row 1, col 1"),
        ("#.#\n#G#", "no start"),
        ("#S#\n#.#", "no goal"),
        ("GS.G", "2 goals: 'G' at row 0, col 0 and at row 0, col 3"),
        ("SS.G", "2 starts"),
        ("S.Ge", "mixed dialects"),
        ("s.e#", r"unknown character '#' at row 0, col 3 \(seed-style level\)"),
    ],
)
def test_bad_ascii_is_refused_with_one_line(text, message):
    with pytest.raises(LevelError, match=message) as info:
        Level.from_ascii(text)
    assert "\n" not in str(info.value)


def test_too_large_names_the_limit():
    text = "S" + "." * (MAX_SIDE + 1) + "G"
    with pytest.raises(LevelError, match=f"at most {MAX_SIDE} rows, {MAX_SIDE} columns"):
        Level.from_ascii(text)
