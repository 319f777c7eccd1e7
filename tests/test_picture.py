"""Pictures (designer.export.picture, designer render) and the Tiled export (designer.export.tiled, designer export)."""

import json
import shutil
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from designer.export import picture, tiled, tiles
from designer.analysis.graph import analyze
from designer.cli import main
from designer.formats.level_json import level_to_json, format_json
from designer.analysis.stars import Stars
from designer.core.level import Level
from designer.core.terrain import ROCK, SNOW

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "examples" / "levels"
SVG = "{http://www.w3.org/2000/svg}"
SNOWY = LEVELS / "snow-and-hole.txt"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def texts(svg: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_a_level_is_drawn_cell_by_cell_at_the_asked_size():
    level = Level.from_ascii(SNOWY.read_text())
    svg = picture.svg_text(picture.draw_level(level, cell=20))
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == (str(level.width * 20), str(level.height * 20))
    rects = list(root.iter(f"{SVG}rect"))
    rocks, snow = int((level.terrain == ROCK).sum()), int((level.terrain == SNOW).sum())
    # a background per cell, one more per rock and per snow tile; the start and goal tiles on top
    assert len(rects) == level.width * level.height + rocks + snow + 2
    assert texts(svg) == []  # no numbers unless asked


def test_the_solution_numbers_every_stop():
    level = Level.from_ascii(SNOWY.read_text())
    stops = analyze(level).min_stops
    svg = picture.svg_text(picture.draw_level(level, solution=True))
    assert texts(svg) == [str(k) for k in range(1, stops + 1)]
    assert len(list(ET.fromstring(svg).iter(f"{SVG}path"))) == 1  # the path itself


def test_moves_left_labels_each_resting_cell_and_crosses_out_traps():
    level = Level.from_ascii((LEVELS / "weak-oneway.txt").read_text())
    report = analyze(level)
    svg = picture.svg_text(picture.draw_level(level, moves_left=True))
    shown = sorted(int(t) for t in texts(svg))
    expected = sorted(left for cell, left in report.remaining.items() if cell not in (level.start, level.goal))
    assert shown == expected
    traps = [c for c in report.trap_cells if c != level.start]
    assert traps and len(list(ET.fromstring(svg).iter(f"{SVG}path"))) == 2 * len(traps)  # a cross each


def test_an_unsolvable_level_has_no_solution_to_draw():
    level = Level.from_ascii((LEVELS / "unsolvable.txt").read_text())
    with pytest.raises(ValueError, match="unsolvable"):
        picture.draw_level(level, solution=True)


def test_png_is_the_same_picture_rasterized():
    level = Level.from_ascii(SNOWY.read_text())
    data = picture.png_bytes(picture.draw_level(level, cell=10))
    assert png_size(data) == (level.width * 10, level.height * 10)


def test_contact_sheet_holds_every_level_with_its_stops():
    levels = [(path.stem, Level.from_ascii(path.read_text())) for path in sorted(LEVELS.glob("s*.txt"))]
    svg = picture.svg_text(picture.contact_sheet(levels, cell=8))
    captions = texts(svg)
    assert len(captions) == len(levels)
    for (name, level), caption in zip(levels, captions):
        assert caption == f"{name}: {analyze(level).min_stops} stops"


# --- designer render ---------------------------------------------------------------------------

def test_render_writes_svg_or_png_by_suffix(tmp_path, capsys):
    assert main(["render", str(SNOWY), "-o", str(tmp_path / "a.svg"), "--solution", "--cell", "24"]) == 0
    assert ET.fromstring((tmp_path / "a.svg").read_text()).get("width") == str(10 * 24)
    assert main(["render", str(SNOWY), "-o", str(tmp_path / "a.png"), "--moves-left", "--cell", "8"]) == 0
    assert png_size((tmp_path / "a.png").read_bytes()) == (80, 56)


def test_render_a_pack_folder_as_a_contact_sheet(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    for k, name in enumerate(("snow-and-hole.txt", "strong-reversible.txt")):
        shutil.copy(LEVELS / name, pack / f"level-{k + 1:03d}.txt")
    (pack / "notes.md").write_text("not a level")  # other files are left alone
    assert main(["render", str(pack), "-o", str(tmp_path / "sheet.svg")]) == 0
    assert texts((tmp_path / "sheet.svg").read_text()) == ["level-001: 4 stops", "level-002: 15 stops"]


@pytest.mark.parametrize("argv, status, message", [
    (["-o", "x.gif"], 2, "unknown picture format '.gif'"),
    (["-o", "x"], 2, "unknown picture format '(no suffix)'"),
    (["-o", "old.svg"], 2, "already exists (use --force"),
    (["-o", "u.png", "--solution"], 1, "unsolvable"),
])
def test_render_refusals_are_one_line(tmp_path, monkeypatch, capsys, argv, status, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.svg").write_text("mine")
    level = LEVELS / ("unsolvable.txt" if "--solution" in argv else "snow-and-hole.txt")
    assert main(["render", str(level), *argv]) == status
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert (tmp_path / "old.svg").read_text() == "mine"
    assert not (tmp_path / "u.png").exists()


# --- Tiled -------------------------------------------------------------------------------------

def designed_json(tmp_path: Path) -> Path:
    """A JSON level that records the seed it was designed from."""
    level = Level.from_ascii(SNOWY.read_text())
    path = tmp_path / "designed.json"
    path.write_text(format_json(level_to_json(level, generator={"method": "auto", "seed": 7})))
    return path


def test_export_tiled_reads_back_with_pytiled_parser(tmp_path):
    pytiled_parser = pytest.importorskip("pytiled_parser")
    source = designed_json(tmp_path)
    target = tmp_path / "maps" / "level.tmj"
    target.parent.mkdir()
    assert main(["export", str(source), "--to", "tiled", "-o", str(target), "--cell", "16"]) == 0
    level = Level.from_ascii(SNOWY.read_text())
    report = analyze(level)
    tmx = pytiled_parser.parse_map(target)
    assert (tmx.map_size.width, tmx.map_size.height) == (level.width, level.height)
    assert (tmx.tile_size.width, tmx.tile_size.height) == (16, 16)
    assert tmx.orientation == "orthogonal"
    stars = Stars.default(report.min_stops)
    assert tmx.properties == {"min_stops": report.min_stops, "solution": report.solution.moves, "seed": 7,
                              "stars_two": stars.two, "stars_one": stars.one}
    (tileset,) = tmx.tilesets.values()  # embedded: no external .tsx
    assert tileset.tile_count == len(tiles.TILES) and Path(tileset.image).name == tiled.TILESET_IMAGE
    assert {t.class_ for t in tileset.tiles.values()} == set(tiles.TILES)
    for kind in tiles.TILES:
        assert tileset.tiles[tiles.TILES.index(kind)].properties["solid"] is (kind in ("rock", "wall"))
    terrain, ends, markers = tmx.layers
    assert [layer.name for layer in tmx.layers] == ["terrain", "ends", "markers"]
    kinds = {tiled.gid(kind): code for code, kind in tiles.TILE_OF_TERRAIN.items()}
    kinds[tiled.gid("wall")] = ROCK
    assert [[kinds[g] for g in row] for row in terrain.data] == level.terrain.tolist()
    walls = {(r, c) for r, row in enumerate(terrain.data) for c, g in enumerate(row) if g == tiled.gid("wall")}
    border = {(r, c) for r in range(level.height) for c in range(level.width)
              if r in (0, level.height - 1) or c in (0, level.width - 1)}
    assert walls == border - {level.start, level.goal}  # the frame is wall; rocks inside stay rock
    # the ends are drawn as tiles at their cells, on a layer of their own above the terrain
    drawn = {(r, c): g for r, row in enumerate(ends.data) for c, g in enumerate(row) if g}
    assert drawn == {level.start: tiled.gid("start"), level.goal: tiled.gid("goal")}
    objects = {o.name: o for o in markers.tiled_objects}
    for name, (row, col) in (("start", level.start), ("goal", level.goal)):
        assert (objects[name].coordinates.x, objects[name].coordinates.y) == (col * 16, row * 16)
    image = target.parent / tiled.TILESET_IMAGE
    assert png_size(image.read_bytes()) == (16 * len(tiles.TILES), 16)


def test_export_a_pack_and_an_ascii_level_without_seed(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    shutil.copy(SNOWY, pack / "a.txt")
    shutil.copy(designed_json(tmp_path), pack / "b.json")
    assert main(["export", str(pack), "--to", "tiled", "--out", str(tmp_path / "maps")]) == 0
    names = sorted(p.name for p in (tmp_path / "maps").iterdir())
    assert names == ["a.tmj", "b.tmj", tiled.TILESET_IMAGE]
    a = json.loads((tmp_path / "maps" / "a.tmj").read_text())
    assert [p["name"] for p in a["properties"]] == ["min_stops", "solution", "stars_two", "stars_one"]  # no seed


@pytest.mark.parametrize("argv, message", [
    (["--to", "godot", "-o", "m.tmj"], "'godot' is not one of 'tiled'"),
    (["--to", "tiled"], "give either -o FILE.tmj (one level) or --out DIR"),
    (["--to", "tiled", "-o", "m.txt"], "a Tiled map is written as FILE.tmj"),
    (["--to", "tiled", "-o", "old.tmj"], "already exists (use --force"),
])
def test_export_refusals_are_one_line(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.tmj").write_text("mine")
    assert main(["export", str(SNOWY), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert (tmp_path / "old.tmj").read_text() == "mine"
    assert not (tmp_path / tiled.TILESET_IMAGE).exists()


def test_export_keeps_an_existing_tileset_image_without_force(tmp_path, capsys):
    (tmp_path / tiled.TILESET_IMAGE).write_bytes(b"mine")
    assert main(["export", str(SNOWY), "--to", "tiled", "-o", str(tmp_path / "m.tmj")]) == 2
    assert (tmp_path / tiled.TILESET_IMAGE).read_bytes() == b"mine"
    assert not (tmp_path / "m.tmj").exists()
    assert main(["export", str(SNOWY), "--to", "tiled", "-o", str(tmp_path / "m.tmj"), "--force"]) == 0
    assert (tmp_path / tiled.TILESET_IMAGE).read_bytes() != b"mine"


def test_play_refusals(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["play", str(SNOWY), "-o", "page.txt"]) == 2
    assert "FILE.html" in capsys.readouterr().err
    (tmp_path / "page.html").write_text("mine")
    assert main(["play", str(SNOWY), "-o", "page.html"]) == 2
    assert (tmp_path / "page.html").read_text() == "mine"
    assert main(["play", str(tmp_path / "missing"), "-o", "new.html"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_the_page_is_self_contained(tmp_path):
    assert main(["play", str(SNOWY), "-o", str(tmp_path / "p.html")]) == 0
    page = (tmp_path / "p.html").read_text()
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
    assert "<script src" not in page and "<link" not in page


def test_export_keeps_a_packs_own_star_thresholds(tmp_path):
    level = Level.from_ascii(SNOWY.read_text())
    par = analyze(level).min_stops
    source = tmp_path / "level.json"
    source.write_text(format_json(level_to_json(level, stars=Stars(par, par + 2, par + 9))))
    assert json.loads(source.read_text())["stars"] == {"two": par + 2, "one": par + 9}
    assert main(["export", str(source), "--to", "tiled", "-o", str(tmp_path / "m.tmj")]) == 0
    properties = {p["name"]: p["value"] for p in json.loads((tmp_path / "m.tmj").read_text())["properties"]}
    assert (properties["stars_two"], properties["stars_one"]) == (par + 2, par + 9)


def test_bad_star_thresholds_are_one_line_before_any_file(tmp_path, capsys):
    obj = level_to_json(Level.from_ascii(SNOWY.read_text()))
    obj["stars"] = {"two": 1, "one": 0}
    (tmp_path / "bad.json").write_text(json.dumps(obj))
    for argv in (["export", "--to", "tiled", "-o", str(tmp_path / "m.tmj")], ["play", "-o", str(tmp_path / "p.html")]):
        assert main([argv[0], str(tmp_path / "bad.json"), *argv[1:]]) == 2
        err = capsys.readouterr().err
        assert "stars" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


# --- what the pictures show ---------------------------------------------------------------------

def luminance(colour: str) -> float:
    """Relative luminance of #rrggbb (WCAG)."""
    def channel(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_snow_stands_out_from_ice():
    # the flecks and the edge carry the tile: each at least 3:1 (WCAG's figure for graphics)
    # against the snow and against the ice around it
    for mark in (tiles.SNOW_DOT, tiles.SNOW_EDGE):
        assert contrast(mark, tiles.SNOW_FILL) >= 3 and contrast(mark, tiles.ICE_FILL) >= 2.5
    assert contrast(tiles.SNOW_FILL, tiles.ICE_FILL) >= 1.2
    svg = picture.svg_text(tiles.draw_tile("snow"))
    assert svg.count(tiles.SNOW_DOT) == len(tiles.SNOW_FLECKS) >= 6


def test_frame_rocks_are_wall_and_placed_rocks_are_rocks():
    level = Level.from_ascii(SNOWY.read_text())
    kinds = tiles.tile_kinds(level)
    placed = int((level.terrain[1:-1, 1:-1] == ROCK).sum())
    assert sum(row.count("rock") for row in kinds) == placed > 0
    border = 2 * (level.height + level.width) - 4
    ends_in_it = sum(1 for r, c in (level.start, level.goal) if r in (0, level.height - 1) or c in (0, level.width - 1))
    assert sum(row.count("wall") for row in kinds) == border - ends_in_it
    svg = picture.svg_text(picture.draw_level(level))
    assert svg.count(tiles.WALL_FILL) == sum(row.count("wall") for row in kinds)
    assert svg.count(tiles.ROCK_FILL) == placed
    open_grid = Level.from_rows(["S...", ".#..", "...#", "#..G"])
    assert not open_grid.framed and "wall" not in sum(tiles.tile_kinds(open_grid), [])


def test_render_graph_draws_every_move_every_component_and_the_traps(tmp_path):
    path = LEVELS / "weak-oneway.txt"
    level = Level.from_ascii(path.read_text())
    report = analyze(level)
    assert main(["render", str(path), "--graph", "-o", str(tmp_path / "g.svg")]) == 0
    root = ET.fromstring((tmp_path / "g.svg").read_text())
    classes = [e.get("class") for e in root.iter() if e.get("class")]
    assert classes.count("move") == report.moves
    nodes = [c for c in classes if c.startswith("node")]
    assert len(nodes) == report.resting_cells
    assert len({c for c in nodes}) == len(report.sccs)  # a colour class per component
    traps = [c for c in report.trap_cells if c != level.start]
    assert traps and classes.count("trap") == 2 * len(traps)
    assert main(["render", str(LEVELS), "--graph", "-o", str(tmp_path / "sheet.svg")]) == 0  # a pack too
