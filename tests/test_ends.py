"""``--method cpsat-ends``: the model posed once per start and goal pair, and what it rests on
(``symmetry.end_pairs``, ``bounds.least_possible``)."""

import json

import pytest
from conftest import one_error_line
from test_design import check

from designer.analysis import bounds
from designer.cli import main
from designer.core.request import LayoutRequest
from designer.models.symmetry import end_pairs
from designer.search.result import DesignFailed
from designer.search.design import design
from designer.search.state import Search


def mirror_images(request: LayoutRequest, start, goal):
    """The pair and its images under every mirror of the grid that maps the request onto itself
    (computed here from scratch: the images whose ends the request allows)."""
    h, w = request.height, request.width
    images = set()
    for rows in (False, True):
        for cols in (False, True):
            def image(cell):
                return (h - 1 - cell[0] if rows else cell[0], w - 1 - cell[1] if cols else cell[1])
            s, g = image(start), image(goal)
            if request.frame and rows:
                continue  # a frame puts the start in the bottom wall: flipping the rows swaps the walls
            images.add((s, g))
    return images


@pytest.mark.parametrize("request_", [
    LayoutRequest(8, 8, min_stops=21),
    LayoutRequest(7, 7, min_stops=15),
    LayoutRequest(4, 5, frame=False, min_stops=3),
    LayoutRequest(3, 3, frame=False, min_stops=2),
], ids=["8x8", "7x7", "4x5-open", "3x3-open"])
def test_the_pairs_cover_every_start_and_goal_once_up_to_mirrors(request_):
    pairs = end_pairs(request_)
    assert len(pairs) == len(set(pairs))
    allowed = {(s, g) for s in request_.start_cells() for g in request_.goal_cells() if s != g}
    assert set(pairs) <= allowed
    covered = set()
    for start, goal in pairs:
        images = mirror_images(request_, start, goal)
        assert not (images & covered), "two pairs are mirror images of each other"
        covered |= images
    assert covered == allowed


def test_pins_and_templates_leave_every_pair():
    pinned = LayoutRequest(7, 7, min_stops=3, start=(6, 5))
    assert end_pairs(pinned) == [((6, 5), (0, c)) for c in range(1, 6)]
    drawn = LayoutRequest(4, 5, template=("#G?##", "#???#", "#???#", "###S#"), min_stops=2)
    assert end_pairs(drawn) == [((3, 3), (0, 1))]


def test_the_parity_bound_lifts_a_floor_only_where_it_applies():
    framed = LayoutRequest(8, 8, min_stops=1)
    assert [bounds.least_possible(framed, k) for k in (18, 19, 20)] == [19, 19, 21]
    side = LayoutRequest(8, 8, min_stops=1, start=(3, 0), goal=(0, 3))  # horizontal then vertical: even
    assert [bounds.least_possible(side, k) for k in (3, 4)] == [4, 4]
    open_grid = LayoutRequest(8, 8, frame=False, min_stops=1)
    snowy = LayoutRequest(8, 8, min_stops=1, snow=2)
    assert bounds.least_possible(open_grid, 20) == bounds.least_possible(snowy, 20) == 20


@pytest.mark.parametrize("workers", [1, 2], ids=["one-after-another", "side-by-side"])
def test_a_level_meets_the_request_and_says_what_ran(workers):
    request = LayoutRequest(6, 6, min_stops=9)
    found = design(request, seed=1, time_limit=60, method="cpsat-ends", workers=workers)
    check(request, found.level)
    assert found.generator.method == "cpsat-ends" and found.generator.stage == "cp-sat by ends"
    assert set(found.generator.stage_seconds) == {"cp-sat by ends"}


@pytest.mark.parametrize("workers", [1, 2], ids=["one-after-another", "side-by-side"])
def test_a_level_is_verified_once_where_it_was_found(workers, monkeypatch):
    """Verified again elsewhere, a tidied level would lose its record's count of tidied rocks
    (the second verification finds nothing left to tidy)."""
    passed = []
    real = Search._verify

    def counting(self, level, stage):
        found = real(self, level, stage)
        if found is not None:
            passed.append(found)  # in this process only: a forked pair's process counts in its copy
        return found

    monkeypatch.setattr(Search, "_verify", counting)
    request = LayoutRequest(7, 7, min_stops=11, tidy=True)
    found = design(request, seed=1, time_limit=60, method="cpsat-ends", workers=workers)
    check(request, found.level)
    if workers == 1:
        assert passed == [found]
    else:
        assert passed == []  # verified in the pair's process, taken in as it is


@pytest.mark.parametrize("workers", [1, 2], ids=["one-after-another", "side-by-side"])
def test_infeasible_is_proven_pair_by_pair_and_agrees_with_the_whole_model(workers):
    request = LayoutRequest(6, 6, min_stops=11)
    with pytest.raises(DesignFailed, match="proven infeasible") as whole:
        design(request, seed=1, time_limit=60, method="cpsat")
    with pytest.raises(DesignFailed, match="proven infeasible") as split:
        design(request, seed=1, time_limit=60, method="cpsat-ends", workers=workers)
    assert whole.value.reason == split.value.reason == "infeasible"
    assert f"each of the {len(end_pairs(request))} start and goal pairs" in str(split.value)


@pytest.mark.parametrize("size, best, workers", [((5, 5), 7, 1), ((6, 6), 9, 2)])
def test_maximizing_proves_the_same_optimum_as_the_whole_model(size, best, workers):
    request = LayoutRequest(*size, min_stops=1)
    found = design(request, seed=2, time_limit=60, maximize=True, method="cpsat-ends", workers=workers)
    check(request, found.level)
    assert found.min_stops == best and found.generator.proven_optimal
    whole = design(request, seed=2, time_limit=60, maximize=True, method="cpsat")
    assert whole.min_stops == best and whole.generator.proven_optimal


def test_a_pack_gets_distinct_levels_and_the_record_runs_again(tmp_path, capsys):
    out = tmp_path / "pack"
    # 7x7, not 6x6: in 6x6 a pack of 3 ran out of its 12 tries for a level that is no near copy in
    # 1 run of 6 (the tries' levels differ from run to run, even with --workers 1: cpsat-ends takes
    # the first verified level of the start and goal pairs it solves side by side)
    assert main(["make", "--size", "7x7", "--min-stops", "7", "--method", "cpsat-ends", "--count", "3",
                 "--seed", "4", "--format", "json", "--out", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    levels = [json.loads(f.read_text()) for f in files]
    assert len(levels) == 3 and len({json.dumps(level["rows"]) for level in levels}) == 3
    assert {level["generator"]["method"] for level in levels} == {"cpsat-ends"}
    again = tmp_path / "again.json"
    assert main(["make", "--from", str(files[0]), "-o", str(again), "--format", "json"]) == 0
    assert json.loads(again.read_text())["generator"]["method"] == "cpsat-ends"


def test_a_time_limit_says_so(capsys):
    assert main(["make", "--size", "8x8", "--min-stops", "21", "--method", "cpsat-ends", "--time-limit", "2"]) == 1
    err = capsys.readouterr().err
    assert one_error_line(err) and "time limit reached" in err


def test_choices_are_refused_in_one_line(capsys):
    assert main(["make", "--method", "cpsat-ends", "--min-choices", "10"]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "does not count choices" in err
