"""The model of a player (designer.analysis.player), solved exactly, against an independent reading
of the same player (value iteration over the naive rules of tests/oracle.py) and against its own
playthroughs; the structure measures; where the model shows (analyze, render --heat)."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings

from conftest import one_error_line, small_levels
from designer.analysis import player as model
from designer.analysis import player_runs
from designer.analysis.graph import analyze
from designer.analysis.structure import structure
from designer.core.errors import DesignerError, LevelError
from designer.core.items import state_table
from designer.core.level import Level
from oracle import walk

BACK = {"u": "d", "d": "u", "l": "r", "r": "l"}


def oracle_expected_moves(rows: list[str], player: model.Player) -> float:
    """The player's expected moves by value iteration, from the rules walked cell by cell."""
    start = next((r, row.index("S")) for r, row in enumerate(rows) if "S" in row)
    goal = next((r, row.index("G")) for r, row in enumerate(rows) if "G" in row)
    cells = [(r, c) for r in range(len(rows)) for c in range(len(rows[0])) if rows[r][c] != "#"]
    moves = {cell: {d: walk(rows, cell, d, goal) for d in "udlr"} for cell in cells}
    moves = {cell: {d: step[0] for d, step in out.items() if step is not None} for cell, out in moves.items()}
    alive, grew = {goal}, True
    while grew:
        grew = False
        for cell in cells:
            if cell not in alive and any(end in alive for end in moves[cell].values()):
                alive.add(cell)
                grew = True
    side = max(len(rows), len(rows[0]))

    def dist(cell):
        return abs(cell[0] - goal[0]) + abs(cell[1] - goal[1])

    def choices(cell, last):
        out = moves[cell]
        if any(end == goal for end in out.values()):
            return {d: 1.0 if end == goal else 0.0 for d, end in out.items()}
        weight = {d: math.exp(player.skill * ((dist(cell) - dist(end)) / side
                                              - player.back_aversion * (last is not None and d == BACK[last])))
                  for d, end in out.items()}
        total = sum(weight.values())
        return {d: w / total for d, w in weight.items()}

    value = {(cell, last): 0.0 for cell in alive for last in (None, *"udlr")}
    for _ in range(20000):
        change = 0.0
        for (cell, last) in value:
            if cell == goal:
                continue
            new = 1.0
            for d, p in choices(cell, last).items():
                end = moves[cell][d]
                new += p * (0.0 if end == goal else value[(start, None)] if end not in alive else value[(end, d)])
            change = max(change, abs(new - value[(cell, last)]))
            value[(cell, last)] = new
        if change < 1e-10:
            break
    return value[(start, None)]


def err_of(main, args, capsys) -> str:
    """Standard error of a refused command (status 2)."""
    assert main(args) == 2
    return capsys.readouterr().err


@settings(max_examples=40)
@given(small_levels(max_side=6, snow=True))
def test_the_exact_solution_is_the_oracles(level):
    rows = level.rows()
    if analyze(level).min_stops is None:
        with pytest.raises(LevelError):
            model.play(level)
        return
    for who in (model.Player(0.0, 0.0), model.Player(2.0, 1.5)):
        exact = model.play(level, who).expected_moves
        assert exact == pytest.approx(oracle_expected_moves(rows, who), rel=1e-6)


def sampled_levels():
    """Levels of every kind the model covers: plain, snow and traps, items, portals, wrap."""
    yield Level.from_rows(["#######", "#..#.G#", "#.....#", "#.#...#", "#...#.#", "#S#####"])
    yield Level.from_rows(["########", "#...#.G#", "#.#..._#", "#..#...#", "#._....#", "#...#..#", "#S######"])
    yield Level.from_rows(["#######", "#*...G#", "#..#..#", "#.#..*#", "#.....#", "#S#####"])
    plain = Level.from_rows(["#######", "#...#G#", "#.....#", "#.....#", "#.....#", "#S#####"])
    yield Level(plain.terrain, plain.start, plain.goal, portals=(((3, 2), (4, 4)), ((4, 4), (3, 2))))
    yield Level.from_rows(["#####G#", "#...#.#", "##.##.#", "#..##.#", "#.....#", "#S#####"])  # a trap


def test_the_exact_figures_are_what_playthroughs_give():
    for level in sampled_levels():
        chain = model.chain(state_table(level), model.DEFAULT, height=level.height)
        exact = model.solve_chain(chain, 1)
        moves, restarts = player_runs.simulate(chain, 20_000, np.random.default_rng(1))
        assert moves.mean() == pytest.approx(exact.expected_moves, rel=0.03)
        assert restarts.mean() == pytest.approx(exact.expected_restarts, rel=0.05, abs=0.01)
        par = int(moves.min())
        within = model.chance_within(chain, (par, 3 * par))
        assert within[3 * par] == pytest.approx((moves <= 3 * par).mean(), abs=0.02)


def test_a_trap_is_a_restart_and_the_figures_add_up():
    level = Level.from_rows(["#####G#", "#...#.#", "##.##.#", "#..##.#", "#.....#", "#S#####"])  # one trap
    figures = model.play(level, model.Player(0.0, 0.0))
    assert figures.expected_restarts > 0
    parts = figures.parts()
    assert sum(parts.values()) == pytest.approx(figures.expected_moves)
    assert 1 <= figures.difficulty <= 10
    assert set(figures.within) == {figures.par, 2 * figures.par, 4 * figures.par}


def test_structure_of_a_corridor_and_a_choice():
    corridor = Level.from_rows(["#####", "#G..#", "###.#", "#S..#", "#####"])
    shape = structure(corridor)
    assert shape.reachable >= 2 and shape.traps == 0 and shape.subgoals == shape.reachable - 1
    trap = Level.from_rows(["#####G#", "#...#.#", "##.##.#", "#..##.#", "#.....#", "#S#####"])
    assert structure(trap).traps >= 1


def test_a_player_file_is_read_and_refused_in_one_line(tmp_path, capsys):
    from designer.cli import main

    good = tmp_path / "player.json"
    good.write_text(json.dumps(model.Player(2.5, 0.5).to_json()))
    from designer.formats.player_file import read_player

    assert read_player(str(good)) == model.Player(2.5, 0.5)
    level = tmp_path / "level.txt"
    level.write_text("#######\n#..#.G#\n#.....#\n#.#...#\n#...#.#\n#S#####\n")
    assert main(["analyze", str(level), "--player", str(good), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["player"]["expected_moves"] == pytest.approx(model.play(
        Level.from_rows(level.read_text().split()), model.Player(2.5, 0.5)).expected_moves, rel=1e-3)
    assert set(shown["structure"]) == {"subgoals", "counter_intuitive", "reachable", "dead_ends", "traps", "branching"}
    for bad in ('{"format": "ice-designer player 1", "skill": NaN}', '{"format": "ice-designer player 1", "skill": "x"}',
                '{"skill": 1}', "not json", '{"format": "ice-designer player 1", "skill": 1e400}',
                '{"format": "ice-designer player 1", "skill": 1}'):
        (tmp_path / "bad.json").write_text(bad)
        assert main(["analyze", str(level), "--player", str(tmp_path / "bad.json")]) == 2
        assert one_error_line(capsys.readouterr().err)
    assert "bad.json: the player file gives no back_aversion (the simple player's parameters: skill, back_aversion)" in err_of(
        main, ["analyze", str(level), "--player", str(tmp_path / "bad.json")], capsys)
    (tmp_path / "bad.json").write_bytes(b"\x00\x01binary")  # not text: the line names the file
    assert main(["analyze", str(level), "--player", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "bad.json: not a text file" in err
    with pytest.raises(DesignerError):
        model.Player(float("nan"), 1.0)


def test_analyze_and_render_show_the_player(tmp_path, capsys):
    from designer.cli import main

    level = tmp_path / "level.txt"
    level.write_text("#######\n#..#.G#\n#.....#\n#.#...#\n#...#.#\n#S#####\n")
    assert main(["analyze", str(level)]) == 0
    out = capsys.readouterr().out
    assert "predicted difficulty: " in out and "structure: " in out and "rests most on" in out
    assert main(["render", str(level), "--heat", "-o", str(tmp_path / "heat.svg")]) == 0
    assert 'class="heat"' in (tmp_path / "heat.svg").read_text()
    capsys.readouterr()
    assert main(["render", str(tmp_path), "--heat", "-o", str(tmp_path / "sheet.svg")]) == 2
    assert one_error_line(capsys.readouterr().err)


@pytest.mark.slow  # twenty levels, 1,200 plays of the planner
def test_the_model_fitted_on_a_different_player_ranks_its_other_levels():
    from other_player import ranked_by_the_model

    from designer.core.request import LayoutRequest
    from designer.search.design import design

    pack = [(f"l{k}", design(LayoutRequest(height=9, width=9, min_stops=4 + k // 2, first=True), seed=100 + k).level)
            for k in range(20)]
    got = ranked_by_the_model(pack, seed=3)
    assert got["fitted_rho"] >= 0.85, got


def test_every_allowed_player_gives_finite_figures_exact_or_marked_as_lower_bounds(examples_dir, tmp_path, capsys):
    """Issue 60: 74 of 256 allowed pairs gave NaN, negative or infinite moves (skill 20: -1.8e16,
    difficulty 1.0; skill 50: NaN, and bare NaN in --json). A chain too close to never finishing is
    stepped instead: every figure finite, at least par, and said to be a lower bound."""
    from designer.formats.level_files import read_level

    level = read_level(examples_dir / "strong-reversible.txt")
    values = [-50, -20, -5, -1, 0, 1, 2, 5, 10, 20, 40, 50]
    marked = 0
    for skill in values:
        for aversion in values:
            figures = model.play(level, model.Player(skill, aversion))
            assert math.isfinite(figures.expected_moves) and figures.expected_moves >= figures.par
            assert math.isfinite(figures.expected_restarts) and figures.expected_restarts >= 0
            assert all(0 <= p <= 1 for p in figures.within.values()) and 1 <= figures.difficulty
            marked += figures.at_least
            if figures.at_least:
                assert figures.difficulty >= 10.0  # stuck in a loop: far past 10,000 moves
    assert 0 < marked < len(values) ** 2
    exact = model.play(level, model.Player(2.0, 0.5))
    assert not exact.at_least and "at_least" not in exact.to_json()
    from designer.cli import main

    player = tmp_path / "skill50.json"
    player.write_text('{"format": "ice-designer player 1", "skill": 50, "back_aversion": 0.5}')
    assert main(["analyze", str(examples_dir / "strong-reversible.txt"), "--player", str(player), "--json"]) == 0
    found = json.loads(capsys.readouterr().out, parse_constant=lambda name: pytest.fail(f"bare {name} in JSON"))
    assert found["player"]["at_least"] is True and found["player"]["difficulty"] >= 10.0


def test_a_large_levels_player_and_structure_wait_for_the_time_they_need(tmp_path, capsys):
    """Issue 60: analyze of a level of a million cells spent 129 s in the model's solve (3.5 GB).
    The player model and the structure run when their figures fit in the time left, else the
    analysis says what it left out and why (status 0, the rest of the analysis whole)."""
    import random

    from designer.cli import main

    rng = random.Random(5)
    side = 250
    grid = [["#" if r in (0, side - 1) or c in (0, side - 1) or rng.random() < 0.1 else "." for c in range(side)]
            for r in range(side)]
    grid[1][1], grid[side - 2][side - 2] = "S", "G"
    level = tmp_path / "wide.txt"
    level.write_text("\n".join("".join(row) for row in grid) + "\n")
    assert main(["analyze", str(level), "--time-limit", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "player: not worked out: its " in out and "more than the time left (--time-limit)" in out
    assert main(["analyze", str(level), "--time-limit", "0.5", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["player"] is None and "resting states take about" in found["skipped"]["player"]
    assert found["min_stops"] is not None  # the level's own analysis is whole
    # a move graph that would not be analysed in the time left: one line, status 1, at once
    assert main(["analyze", str(level), "--time-limit", "0.1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("designer: time limit reached: the move graph of ") and err.count("\n") == 1
