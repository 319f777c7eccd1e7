"""Designing with portals: ``make --teleports N`` (docs/spec.md, "Portals and wrap-around")."""

from __future__ import annotations

import json

import pytest

import oracle_portals
from designer.cli import main
from designer.core.floors import teleport_pairs
from designer.core.terrain import ROCK, SNOW
from designer.formats.level_files import read_level


def _plain(level) -> dict:
    rows = ["".join("#" if t == ROCK else "_" if t == SNOW else "." for t in row) for row in level.terrain]
    return {"rows": rows, "floors": [(0, level.height, level.width, "")], "portals": dict(level.portals),
            "start": level.start, "goal": level.goal, "items": list(level.items)}


def test_make_teleports_places_pairs_that_each_matter(tmp_path, capsys):
    out = tmp_path / "level.json"
    assert main(["make", "--size", "10x10", "--teleports", "2", "--min-stops", "18", "--seed", "1",
                 "--time-limit", "60", "--format", "json", "-o", str(out)]) == 0
    assert "2 teleport pairs placed, each mattering" in capsys.readouterr().err
    level = read_level(out)
    pairs = teleport_pairs(level.portals)
    assert len(pairs) == 2 and len(level.portals) == 4
    klass, reversible, stops = oracle_portals.classify(_plain(level))  # the plain reader agrees
    assert (klass, reversible) == ("strong", True) and stops >= 18
    for a, b in pairs:  # without either pair, the level is shorter or cannot be finished
        without = {**_plain(level), "portals": {s: t for s, t in level.portals if s not in (a, b)}}
        assert oracle_portals.classify(without)[2] is None or oracle_portals.classify(without)[2] < stops
    generator = json.loads(out.read_text())["generator"]
    assert generator["request"]["teleports"] == 2 and generator["stage"].startswith("portals ")


def test_the_same_seed_gives_the_same_level_again(tmp_path):
    texts = []
    for k in range(2):
        out = tmp_path / f"level{k}.txt"
        assert main(["make", "--size", "8x8", "--teleports", "1", "--min-stops", "12", "--seed", "5", "-o", str(out)]) == 0
        texts.append(out.read_text())
    assert texts[0] == texts[1] and "portal a b" in texts[0]


@pytest.mark.parametrize("args, message", [
    (["--method", "cpsat"], "does not pose items, portals to place"),
    (["--method", "random"], "--teleports needs --method auto, not random"),
    (["--door", "0,3", "--door", "11,3"], "not designed with portals yet"),
    (["--size", "4x4"], "does not fit"),
])
def test_what_cannot_be_designed_with_portals_is_one_line(tmp_path, capsys, args, message):
    assert main(["make", "--teleports", "2", *args, "-o", str(tmp_path / "x.txt")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


TWO_FLOORS = """\
floor up
#######
#S????#
#??a??#
#????h#
#######
floor down
#######
#????G#
#??b??#
#?l???#
#######
portal a b
portal h > l
"""


def test_a_level_of_two_floors_is_designed_from_one_template(tmp_path, capsys):
    template = tmp_path / "floors.txt"
    template.write_text(TWO_FLOORS)
    out = tmp_path / "level.json"
    assert main(["make", "--template", str(template), "--min-stops", "8", "--seed", "2", "--format", "json",
                 "-o", str(out)]) == 0
    assert "on the whole graph of 2 floors" in capsys.readouterr().err
    level = read_level(out)
    assert [floor.name for floor in level.floors] == ["up", "down"]
    assert dict(level.portals) == {(2, 3): (7, 3), (7, 3): (2, 3), (3, 5): (8, 2)}  # as pinned
    plain = {**_plain(level), "floors": [(f.top, f.height, f.width, f.wrap) for f in level.floors]}
    klass, reversible, stops = oracle_portals.classify(plain)
    assert (klass, reversible) == ("strong", True) and stops >= 8
    assert level.start == (1, 1) and level.goal == (6, 5)  # the template's pins
    request = json.loads(out.read_text())["generator"]["request"]
    assert request["floors"] == [["up", 0, 5, 7, ""], ["down", 5, 5, 7, ""]]
    again = tmp_path / "again.json"
    assert main(["make", "--from", str(out), "--format", "json", "-o", str(again)]) == 0
    assert read_level(again) == level


@pytest.mark.parametrize("template", [
    "######\n#S?a?#\n#????#\n#?b??#\n#???G#\n######\nportal a b\n",  # a teleport pair
    "######\n#S??a#\n#????#\n#b???#\n#???G#\n######\nportal a > b\n",  # a hole to a landing
])
def test_the_model_poses_pinned_portals_and_its_proof_is_every_layouts_best(template):
    """``--method cpsat`` with a template's portals: its proven optimum is the best of every
    layout of the template, each classified by the library's traced tables."""
    import itertools

    import numpy as np

    from designer.analysis.classify import classify
    from designer.core.request import LayoutRequest
    from designer.formats.template import parse_template_parts
    from designer.search.design import design

    rows, floors, portals = parse_template_parts(template)
    request = LayoutRequest(height=6, width=6, frame=False, min_stops=1, template=rows, floors=floors, portals=portals)
    found = design(request, seed=1, time_limit=60, method="cpsat", maximize=True)
    assert found.generator.proven_optimal and found.level.portals == portals
    free, best = request.free_cells(), -1
    for bits in itertools.product([0, 1], repeat=len(free)):
        terrain = np.array([[0 if tile < 0 else tile for tile in row] for row in request.fixed_grid()], np.uint8)
        for cell, bit in zip(free, bits):
            terrain[cell] = bit
        found_class = classify(request.level(terrain, (1, 1), (4, 4)))
        if found_class.solvability == "strong" and found_class.reversible:
            best = max(best, found_class.min_stops)
    assert found.min_stops == best
