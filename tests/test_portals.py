"""Portals, floors and wrap-around (docs/spec.md, "Portals and wrap-around"): the text form, the
rule, and the library against an independent plain reader of the rules (tests/oracle_portals.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle_portals
from designer.analysis.classify import classify
from designer.analysis.graph import analyze
from designer.analysis.solver import solve
from designer.core.errors import LevelError
from designer.core.floors import Floor
from designer.core.level import ICE, ROCK, SNOW, Level

TWO_FLOORS = """\
floor top
######
#S..a#
#..h.#
######
floor bottom wrap x
#####
.b.G.
#l..#
#####
portal a b
portal h > l
"""


def test_the_text_form_reads_and_prints_back_exactly():
    level = Level.from_ascii(TWO_FLOORS)
    assert [floor.name for floor in level.floors] == ["top", "bottom"]
    assert level.floors[1].wrap == "x" and level.shape == (8, 6)
    assert dict(level.portals) == {(1, 4): (5, 1), (5, 1): (1, 4), (2, 3): (6, 1)}
    # printed with marks given in row-major order: a (1, 4), b (2, 3), c (5, 1), d (6, 1)
    assert str(level) + "\n" == (TWO_FLOORS.replace("portal a b\nportal h > l", "portal a c\nportal b > d")
                                  .replace("#..h.#", "#..b.#").replace(".b.G.", ".c.G.").replace("#l..#", "#d..#"))
    assert Level.from_ascii(str(level)) == level
    assert level.where((5, 3)) == "bottom (1, 3)"


def test_a_plain_level_is_unchanged():
    text = "#####\n#S.G#\n#####"
    level = Level.from_ascii(text)
    assert level.plain and str(level) == text and level.floors == () and level.portals == ()


@pytest.mark.parametrize("text, message", [
    ("floor a\n#S.aG#\nportal a b", "'b', which no row draws"),
    ("wrap x\n#S.aG#", "'a' is drawn but no 'portal' line"),
    ("wrap q\n#S.G#", "wrap takes x, y or xy"),
    ("floor a\n#S#\nfloor a\n#G#", "two floors named 'a'"),
    ("floor a\n#Sa#\n#.bG#\nportal a b", "ragged rows"),
    ("#S.ab#\n##G###\nportal a > b\nportal a b", "given two targets"),
    ("#S.a#G\nportal a > a", "leads to itself"),
    ("floor a\n#S.a.G#\nportal a b c", "expected 'portal a b'"),
])
def test_bad_extended_text_is_one_line(text, message):
    with pytest.raises(LevelError, match=message):
        Level.from_ascii(text)


def test_a_portal_ends_the_slide_and_the_player_rests_on_its_target():
    level = Level.from_ascii("wrap x\n#######\n#S.a..#\n##b..G#\n#######\nportal a > b")
    found = solve(level)
    # r: S slides into a (2 cells), rests on b; r again: b slides to the goal (3 cells)
    assert (found.moves, found.stops, found.distance) == ("rr", 2, 5)
    assert found.path == ((1, 1), (2, 2), (2, 5))


def test_resting_on_a_target_that_is_a_portal_does_not_trigger_it():
    level = Level.from_ascii("######\n#S.a.#\n#b..G#\n######\nportal a b")
    found = solve(level)
    assert found.path[1] == (2, 1) and found.moves == "rr"


def test_a_slide_round_a_wrapping_row_with_nothing_to_stop_it_is_not_a_move():
    level = Level.from_ascii("wrap x\n#####\n..S..\n#G###")
    assert solve(level) is None  # l and r run round for ever; u is rock; d: not from (1, 2)
    assert classify(level).solvability == "unsolvable"


def test_wrap_on_one_axis_only():
    level = Level.from_ascii("wrap y\n#.#\n#S#\n#.#\n#G#\n#.#")
    assert solve(level).moves == "d"
    down = Level.from_ascii("wrap y\n#.#\n#G#\n#_#\n#S#\n#.#")
    assert solve(down).moves == "d"  # from row 3: row 4, then wraps to row 0, then the goal
    assert solve(Level.from_ascii("wrap x\n#.#\n#G#\n#_#\n#S#\n#.#")).moves == "uu"  # no way round


def test_two_floors_solve_over_the_hole_and_the_ladder():
    level = Level.from_ascii(TWO_FLOORS)
    report = analyze(level)
    assert report.solution is not None
    assert report.solution.path[-1] == level.goal


# --- the library against the plain reader -------------------------------------------------------

@st.composite
def portal_levels(draw):
    floors, sheet_rows, top = [], [], 0
    for _ in range(draw(st.integers(1, 2))):
        height, width = draw(st.integers(2, 5)), draw(st.integers(2, 5))
        floors.append((top, height, width, draw(st.sampled_from(["", "x", "y", "xy"]))))
        top += height
    sheet_width = max(f[2] for f in floors)
    terrain = np.full((top, sheet_width), ROCK, np.uint8)
    for ftop, height, width, _ in floors:
        for r in range(ftop, ftop + height):
            for c in range(width):
                terrain[r, c] = draw(st.sampled_from([ICE, ICE, ICE, ROCK, SNOW]))
    ice = [tuple(map(int, cell)) for cell in np.argwhere(terrain == ICE)]
    if len(ice) < 2:
        ice = [(floors[0][0], 0), (floors[-1][0], 1 if floors[-1][2] > 1 and len(floors) == 1 else 0)]
        for cell in ice:
            terrain[cell] = ICE
    picked = draw(st.permutations(ice))
    start, goal = picked[0], picked[1]
    rest = list(picked[2:])
    items = tuple(sorted(rest[:draw(st.integers(0, min(2, len(rest))))]))
    rest = rest[len(items):]
    sources = rest[:draw(st.integers(0, min(3, len(rest))))]
    open_cells = [tuple(map(int, cell)) for cell in np.argwhere(terrain == ICE)]
    portals = []
    for src in sources:
        targets = [cell for cell in open_cells if cell not in (src, start, goal, *items)]
        if not targets:
            continue
        portals.append((src, draw(st.sampled_from(targets))))
    named = len(floors) > 1
    level = Level(terrain, start, goal, items=items, portals=tuple(portals),
                  floors=tuple(Floor(f"f{k}" if named else "", *f) for k, f in enumerate(floors)))
    return level, floors


def _plain(level: Level, floors) -> dict:
    rows = ["".join("#" if t == ROCK else "_" if t == SNOW else "." for t in row) for row in level.terrain]
    return {"rows": rows, "floors": floors, "portals": dict(level.portals), "start": level.start,
            "goal": level.goal, "items": list(level.items)}


@settings(max_examples=300, deadline=None)
@given(portal_levels())
def test_classify_and_solve_agree_with_the_plain_reader(case):
    level, floors = case
    expected = oracle_portals.classify(_plain(level, floors))
    found = classify(level)
    assert (found.solvability, found.reversible, found.min_stops) == expected
    solution = solve(level)
    assert (solution.stops if solution else None) == expected[2]


@settings(max_examples=60, deadline=None)
@given(portal_levels())
def test_analyze_agrees_with_the_plain_reader(case):
    level, floors = case
    klass, reversible, stops = oracle_portals.classify(_plain(level, floors))
    report = analyze(level)
    assert (report.solvability, report.reversible) == (klass, reversible)
    assert (report.solution.stops if report.solution else None) == stops
    assert Level.from_ascii(str(level)) == level
