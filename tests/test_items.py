"""Items (``*``): the rule read independently (``oracle.item_game``: cell by cell, breadth-first
over (cell, items taken)) agrees with ``solve`` and ``analyze``; the level type reads and prints
them; a level without items is what it always was."""

import json

import numpy as np
import pytest

import oracle
from designer.analysis.graph import analyze, move_graph
from designer.analysis.solver import solve
from designer.core.errors import LevelError
from designer.core.items import state_table
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK, SNOW
from designer.formats.level_files import parse_level
from designer.formats.level_json import dumps


def random_rows(rng, height, width, items):
    terrain = rng.choice([ICE, ROCK, SNOW], size=(height, width), p=[0.68, 0.25, 0.07])
    ice = [tuple(int(v) for v in cell) for cell in np.argwhere(terrain == ICE)]
    if len(ice) < 2 + items:
        return None
    picked = rng.choice(len(ice), size=2 + items, replace=False)
    chars = np.array([".", "#", "_"])[terrain]
    chars[ice[picked[0]]], chars[ice[picked[1]]] = "S", "G"
    for k in picked[2:]:
        chars[ice[k]] = "*"
    return ["".join(row) for row in chars]


def cases(count=160, seed=34):
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        items = len(found) % 5  # 0 to 4 items
        rows = random_rows(rng, int(rng.integers(3, 7)), int(rng.integers(3, 7)), items)
        if rows is not None:
            found.append(rows)
    return found


@pytest.mark.parametrize("rows", cases(), ids=lambda rows: "/".join(rows))
def test_solve_and_analyze_agree_with_a_plain_search_of_the_states(rows):
    level = Level.from_rows(rows)
    seen, left, end, _ = oracle.item_game(rows)
    best = oracle.item_best(rows)
    solution, report = solve(level), analyze(level)
    if best is None:
        assert solution is None and report.solvability == "unsolvable"
        return
    assert (solution.stops, solution.distance, solution.moves) == best
    assert report.solution == solution
    assert report.resting_cells == len(seen)
    assert len(report.trap_cells) == len(set(seen) - set(left))
    assert report.solvability == ("strong" if set(seen) <= set(left) else "weak")
    swapped = [row.replace("S", "s").replace("G", "S").replace("s", "G") for row in rows]
    assert report.reversible == (oracle.item_best(swapped) is not None)
    for k, effect in enumerate(report.items):  # what each item adds: the rows without it
        without = [list(row) for row in rows]
        without[effect.cell[0]][effect.cell[1]] = "."
        assert effect.adds == best[0] - oracle.item_best(["".join(row) for row in without])[0]
    # the moves that take the items, replayed cell by cell
    cell, taken, when = oracle.find(rows, "S"), frozenset(), {}
    for move, letter in enumerate(solution.moves, 1):
        cell, now, _ = oracle.item_slide(rows, cell, taken, letter)
        when.update({item: move for item in now - taken})
        taken = now
    assert list(solution.taken) == [when[item] for item in level.items]


def test_without_items_the_states_are_the_cells_and_nothing_changes():
    level = Level.from_ascii("#G##\n#..#\n#S.#\n####")
    states = state_table(level)
    assert states.count == level.height * level.width and states.goal == level.index(level.goal)
    json_text = dumps(level)
    assert '"items"' not in json_text and "items_taken_at" not in json_text
    assert set(move_graph(level).nodes) <= {(r, c) for r in range(4) for c in range(4)}


def test_the_goal_is_ice_until_every_item_is_taken():
    # Up from S passes the goal: with the item still lying, the player slides on past it.
    level = Level.from_ascii("#.##\n#G.#\n#..#\n#S*#\n####")
    states = state_table(level)
    up = states.dest[0, states.start]
    assert states.cell(up) == (0, 1) and states.taken(up) == 0
    assert solve(level).moves == "rul"  # take the item, then up and left into the open goal
    assert solve(level.replace(items=())).moves == "u"


def test_the_last_item_taken_in_a_slide_opens_the_goal_further_along_it():
    level = Level.from_ascii("#####\n#S*G.\n#####")
    assert solve(level).moves == "r"
    assert solve(level).taken == (1,)


def test_items_read_and_print_in_every_form():
    text = "#G###\n#.*.#\n#S.*#\n#####"
    level = Level.from_ascii(text)
    assert level.items == ((1, 2), (2, 3)) and str(level) == text
    assert Level.from_ascii("OeOOO\nO.*.O\nOs.*O\nOOOOO").items == level.items  # seed-style
    back = parse_level(dumps(level))
    assert back == level and back.items == level.items
    obj = json.loads(dumps(level))
    assert obj["items"] == [[1, 2], [2, 3]] and obj["solution"]["items_taken_at"]
    obj["items"] = [[1, 1]]
    with pytest.raises(LevelError, match='"items"'):
        parse_level(json.dumps(obj))
    assert level != level.replace(items=()) and level.swapped().items == level.items


def test_more_than_eight_items_or_an_item_off_the_ice_is_refused():
    with pytest.raises(LevelError, match="at most 8"):
        Level.from_ascii("S" + "*" * 9 + "G")
    with pytest.raises(LevelError, match="ice"):
        Level(np.array([[0, 1, 0]]), (0, 0), (0, 2), items=((0, 1),))
    with pytest.raises(LevelError, match="end"):
        Level(np.array([[0, 0, 0]]), (0, 0), (0, 2), items=((0, 0),))


def test_solve_and_analyze_print_the_items(capsys):
    from pathlib import Path

    from designer.cli.entry import main

    path = str(Path(__file__).resolve().parents[1] / "examples" / "levels" / "two-items.txt")
    assert main(["solve", path]) == 0
    out = capsys.readouterr().out
    level = Level.from_ascii(Path(path).read_text())
    solution = solve(level)
    order = ", ".join(f"{k + 1} at move {solution.taken[k]}" for k in solution.order())
    assert out.splitlines() == [solution.moves, f"stops: {solution.stops}  distance: {solution.distance}",
                                f"items: {order}"]
    assert main(["analyze", path, "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert [item["cell"] for item in obj["items"]] == [list(cell) for cell in level.items]
    assert all(item["adds"] > 0 for item in obj["items"]) and obj["min_stops"] == solution.stops
    assert main(["analyze", path]) == 0
    text = capsys.readouterr().out
    assert "items: 2 to take, in the order" in text and "resting states:" in text


def test_a_picture_draws_each_item_and_the_move_that_takes_it():
    pytest.importorskip("drawsvg")
    from pathlib import Path

    from designer.export.picture import draw_level, svg_text

    level = Level.from_ascii((Path(__file__).resolve().parents[1] / "examples" / "levels" / "two-items.txt").read_text())
    svg = svg_text(draw_level(level, solution=True))
    assert svg.count('class="item"') == 2
    for k in solve(level).taken:
        assert f">{k}</text>" in svg
