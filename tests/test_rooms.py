"""Rooms with several doors (designer.core.room): read in every dialect and in JSON, their routes
solved and analysed by solve and analyze, each route checked against the independent oracle
(the naive reader of the rules, run once per route)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conftest import EXAMPLES
from designer.cli import main
from designer.core.errors import LevelError
from designer.core.room import Room, parse_route

ROOM = ["###3##", "##...#", "2....#", "#....#", "#...##", "##1###"]


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


def as_route(rows: list[str], a: int, b: int) -> list[str]:
    """The room seen from route a:b, read the naive way: door a is S, door b is G, others ice."""
    table = {str(d): "." for d in range(1, 10)} | {str(a): "S", str(b): "G"}
    return ["".join(table.get(ch, ch) for ch in row) for row in rows]


def test_a_room_in_each_dialect_reads_as_the_same_room():
    canonical = Room.from_rows(ROOM)
    seed = Room.from_ascii("\n".join(row.replace("#", "O") for row in ROOM))
    kata = Room.from_ascii("\n".join(row.replace(".", " ") for row in ROOM))
    zero = Room.from_ascii("\n".join(row.replace("#", "0") for row in ROOM))  # 0 stays a rock
    assert canonical == seed == kata == zero
    assert (seed.dialect, kata.dialect, zero.dialect) == ("seed-style", "kata-style", "seed-style")
    assert str(canonical) == "\n".join(ROOM) and Room.from_ascii(str(canonical)) == canonical


@pytest.mark.parametrize("rows, words", [
    (["#S#", "#.#", "#1#", "#2#"], "'S' at row 0, col 1 in a room with doors"),
    (["#G#", "#.#", "#1#", "#2#"], "'G' at row 0, col 1 in a room with doors"),
    (["#1#", "#.#", "#1#"], "2 doors numbered 1"),
    (["#1#", "#.#", "###"], "a room needs two doors .1-9., or one door and items to take: a vault"),
])
def test_a_room_that_is_not_one_is_one_line(rows, words):
    with pytest.raises(LevelError, match=words):
        Room.from_rows(rows)


def test_json_rooms_read_back_and_their_doors_must_agree(tmp_path, capsys):
    from designer.formats.level_files import parse_level_or_room
    from designer.formats.level_json import room_to_json

    room = Room.from_rows(ROOM)
    obj = room_to_json(room)
    assert parse_level_or_room(json.dumps(obj)) == room
    assert parse_level_or_room(json.dumps({k: v for k, v in obj.items() if k != "doors"})) == room
    for edit, words in (({"doors": {"1": [0, 0], "2": [2, 0], "3": [0, 3]}}, '"doors" is'),
                        ({"start": [5, 2]}, '"start" does not go with doors')):
        path = tmp_path / "room.json"
        path.write_text(json.dumps({**obj, **edit}))
        assert main(["analyze", str(path)]) == 2
        err = capsys.readouterr().err
        assert one_error_line(err) and words in err


def test_make_from_a_room_without_a_generator_record_says_so_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "room.txt").write_text("\n".join(ROOM) + "\n")
    assert main(["make", "--from", "room.txt"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "no generator record" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["room.txt"]


def test_solve_and_analyze_report_every_route(tmp_path, capsys):
    path = tmp_path / "room.txt"
    path.write_text("\n".join(ROOM) + "\n")
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["route 1:2: urdlul  stops: 6  distance: 13",
                                                    "route 1:3: urdldru  stops: 7  distance: 18",
                                                    "route 2:3: rdldru  stops: 6  distance: 15"]
    assert main(["solve", str(path), "--route", "3:1"]) == 0  # one route: as a level's solution
    solved = capsys.readouterr().out.splitlines()
    assert len(solved) == 2 and solved[1].startswith("stops: ")
    assert main(["analyze", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["strong_and_reversible"] and report["failing"] == []
    assert [r["route"] for r in report["routes"]] == ["1:2", "1:3", "2:3"]
    assert [r["min_stops"] for r in report["routes"]] == [6, 7, 6]
    assert main(["analyze", str(path)]) == 0
    text = capsys.readouterr().out
    assert "routes: 3, every one strong and reversible: yes" in text and "route 1:3: strong, reversible: yes" in text


def test_a_room_with_a_lost_route_names_it(tmp_path, capsys):
    path = tmp_path / "room.txt"
    path.write_text("##3##\n#...#\n2...#\n#...#\n##1##\n")
    assert main(["solve", str(path)]) == 1
    captured = capsys.readouterr()
    assert "route 1:2: unsolvable" in captured.out and "route 1:3: u  stops: 1" in captured.out
    assert one_error_line(captured.err) and "route 1:2: door 2 cannot be reached from door 1" in captured.err
    assert main(["analyze", str(path)]) == 0
    assert "every one strong and reversible: no (1:2 unsolvable, 2:3 unsolvable)" in capsys.readouterr().out


@pytest.mark.parametrize("args, words", [
    (["--route", "1:4"], "the room has no door 4"),
    (["--route", "2:2"], "route 2:2 runs from a door to itself"),
    (["--route", "12"], "--route takes two doors A:B"),
    (["--route", "0:1"], "--route takes two doors A:B"),
])
def test_a_route_that_is_not_one_is_one_line(tmp_path, capsys, args, words):
    path = tmp_path / "room.txt"
    path.write_text("\n".join(ROOM) + "\n")
    for command in ("solve", "analyze"):
        assert main([command, str(path), *args]) == 2
        err = capsys.readouterr().err
        assert one_error_line(err) and words in err


def test_a_route_on_a_two_door_level_is_one_line(capsys):
    assert main(["solve", str(EXAMPLES / "seed003-easy.txt"), "--route", "1:2"]) == 2
    assert "--route names a room's doors" in capsys.readouterr().err
    assert parse_route("1:9") == (1, 9)


@st.composite
def rooms(draw):
    """Small framed rooms with 2 to 4 doors on the frame or inside."""
    h, w = draw(st.integers(4, 6)), draw(st.integers(4, 6))
    grid = [["#" if r in (0, h - 1) or c in (0, w - 1) else draw(st.sampled_from("..._#")) for c in range(w)]
            for r in range(h)]
    cells = [(r, c) for r in range(h) for c in range(w) if (r, c) not in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1))]
    doors = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=4, unique=True))
    for number, (r, c) in enumerate(doors, 1):
        grid[r][c] = str(number)
    return ["".join(row) for row in grid]


@given(rooms())
def test_every_route_agrees_with_the_oracle(rows):
    from designer.analysis.routes import analyze_routes

    room = Room.from_rows(rows)
    analysed = analyze_routes(room)
    assert [one.route for one in analysed.routes] == [(a, b) for a in range(1, len(room.doors) + 1)
                                                      for b in range(a + 1, len(room.doors) + 1)]
    for one in analysed.routes:
        naive = as_route(rows, *one.route)
        assert oracle.naive_class(naive) == (one.analysis.solvability, one.analysis.reversible)
        fewest = oracle.count_fewest(naive, 8)
        if one.analysis.min_stops is not None and one.analysis.min_stops <= 8:
            assert fewest == (one.analysis.min_stops, one.analysis.solutions)
        else:
            assert fewest is None
    assert analysed.holds == all(oracle.naive_class(as_route(rows, *one.route)) == ("strong", True)
                                 for one in analysed.routes)


def test_a_room_is_drawn_with_its_numbered_doors_and_each_route_in_a_colour(tmp_path, capsys):
    path = tmp_path / "room.txt"
    path.write_text("\n".join(ROOM) + "\n")
    assert main(["render", str(path), "-o", str(tmp_path / "room.svg"), "--solution"]) == 0
    svg = (tmp_path / "room.svg").read_text()
    assert svg.count('class="door"') == 3 and [f"route-{r}" in svg for r in ("1-2", "1-3", "2-3")] == [True] * 3
    assert ">1:2<" in svg and ">2:3<" in svg  # the legend: which colour is which route
    assert main(["render", str(path), "-o", str(tmp_path / "plain.png")]) == 0
    assert (tmp_path / "plain.png").read_bytes().startswith(b"\x89PNG")
    lost = tmp_path / "lost.txt"
    lost.write_text("##3##\n#...#\n2...#\n#...#\n##1##\n")
    capsys.readouterr()
    assert main(["render", str(lost), "-o", str(tmp_path / "lost.svg"), "--solution"]) == 1
    err = capsys.readouterr().err
    assert one_error_line(err) and "route 1:2 is unsolvable" in err and not (tmp_path / "lost.svg").exists()
    assert main(["render", str(path), "-o", str(tmp_path / "graph.svg"), "--graph"]) == 2


def test_a_rooms_tiled_map_carries_its_doors_and_each_routes_par(tmp_path, capsys):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    from designer.export import picture, tiled, tiles

    path = tmp_path / "room.txt"
    path.write_text("\n".join(ROOM) + "\n")
    target = tmp_path / "room.tmj"
    assert main(["export", str(path), "--to", "tiled", "-o", str(target)]) == 0
    assert (tmp_path / tiled.ROOM_TILESET_IMAGE).exists() and not (tmp_path / tiled.TILESET_IMAGE).exists()
    tmx = pytiled_parser.parse_map(target)
    assert tmx.properties == {"min_stops_1_2": 6, "solution_1_2": "urdlul", "min_stops_1_3": 7,
                              "solution_1_3": "urdldru", "min_stops_2_3": 6, "solution_2_3": "rdldru"}
    (tileset,) = tmx.tilesets.values()
    assert tileset.tile_count == len(tiles.ROOM_TILES) and tileset.tiles[6].properties["kind"] == "door"
    terrain, doors, markers = tmx.layers
    assert [layer.name for layer in tmx.layers] == ["terrain", "doors", "markers"]
    door_cells = {(r, c) for r, row in enumerate(doors.data) for c, g in enumerate(row) if g == tiled.gid("door")}
    assert door_cells == {(5, 2), (2, 0), (0, 3)}
    assert {(o.name, o.class_, int(o.coordinates.y) // 32, int(o.coordinates.x) // 32) for o in markers.tiled_objects} \
        == {("1", "door", 5, 2), ("2", "door", 2, 0), ("3", "door", 0, 3)}
