import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conftest import IMPLS, small_levels
from designer.core import kernels
from designer.core.level import Level
from designer.core.rules import DIRECTIONS, NO_MOVE, replay, slide_table


@pytest.mark.parametrize("impl", IMPLS)
@given(level=small_levels(max_side=7))
def test_slide_table_matches_a_plain_walk(impl, level):
    rows = level.rows()
    with kernels.use(impl):
        dest, length = slide_table(level)
    for r in range(level.height):
        for c in range(level.width):
            if rows[r][c] == "#":
                assert (dest[:, level.index((r, c))] == NO_MOVE).all()
                continue
            for d, letter in enumerate(DIRECTIONS):
                expected = oracle.walk(rows, (r, c), letter)
                got = dest[d, level.index((r, c))]
                if expected is None:
                    assert got == NO_MOVE
                else:
                    assert (level.cell(got), int(length[d, level.index((r, c))])) == expected


def test_goal_captures_mid_slide_and_snow_stops_on_it():
    level = Level.from_ascii("#######\n#S..G.#\n#.._..#\n#######")
    assert replay(level, "r") == ((1, 4), 1, 3)  # stops ON the goal, not at the wall
    assert replay(level, "dr") == ((2, 3), 2, 3)  # d 1 cell, r 2 cells onto snow
    assert replay(level, "drr") == ((2, 5), 3, 5)  # a slide may start on snow and leave it


def test_outside_is_rock_and_a_non_move_is_refused():
    level = Level.from_ascii("S..\n...\n..G")
    assert replay(level, "r") == ((0, 2), 1, 2)
    import pytest

    with pytest.raises(ValueError, match="does not move"):
        replay(level, "u")
    with pytest.raises(ValueError, match="not one of"):
        replay(level, "x")
    with pytest.raises(ValueError, match="already reached"):
        replay(level, "rdl")


@given(small_levels(max_side=5), st.text(alphabet="udlr", max_size=6))
def test_replay_agrees_with_walk(level, moves):
    rows = level.rows()
    cell, dist, legal = level.start, 0, True
    for letter in moves:
        step = oracle.walk(rows, cell, letter) if cell != level.goal else None
        if step is None:
            legal = False
            break
        cell, dist = step[0], dist + step[1]
    if legal:
        assert replay(level, moves) == (cell, len(moves), dist)
