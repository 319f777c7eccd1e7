import networkx as nx
import pytest
from hypothesis import given

import oracle
from conftest import IMPLS, small_levels
from designer.core import kernels
from designer.analysis.graph import analyze, move_graph
from designer.analysis.classify import classify, classify_many
from designer.formats.level_files import read_level
from designer.core.level import Level

# Each example named for its class in the terms of source 000 ("Slippery ice maps").
EXAMPLES = [
    ("strong-reversible", "strong", True, 15),
    ("strong-oneway", "strong", False, 15),
    ("weak-reversible", "weak", True, 11),
    ("weak-oneway", "weak", False, 13),
    ("unsolvable", "unsolvable", False, None),
    ("seed003-easy", "strong", False, 3),
    ("seed003-medium", "weak", False, 11),
    ("seed003-hard", "strong", False, 17),
    ("snow-and-hole", "strong", True, 4),
    ("kata-style", "strong", True, 3),
]


@pytest.mark.parametrize("name, solvability, reversible, min_stops", EXAMPLES)
def test_example_classes(examples_dir, name, solvability, reversible, min_stops):
    level = read_level(examples_dir / f"{name}.txt")
    report = analyze(level)
    assert (report.solvability, report.reversible, report.min_stops) == (solvability, reversible, min_stops)
    assert oracle.naive_class(level.rows()) == (solvability, reversible)
    fast = classify(level)
    assert (fast.solvability, fast.reversible, fast.min_stops) == (solvability, reversible, min_stops)


@pytest.mark.parametrize("impl", IMPLS)
@given(level=small_levels(max_side=7))
def test_fast_path_networkx_and_naive_definitions_agree(impl, level):
    with kernels.use(impl):
        report = analyze(level)
        fast = classify(level)
    assert (fast.solvability, fast.reversible, fast.min_stops) == (
        report.solvability, report.reversible, report.min_stops)
    assert oracle.naive_class(level.rows()) == (report.solvability, report.reversible)


@given(small_levels(max_side=6))
def test_batch_agrees_with_single(level):
    assert classify_many([level, level.swapped()]) == [classify(level), classify(level.swapped())]


def roam_graph(level: Level) -> nx.DiGraph:
    """The move graph without the goal ending the game (the player may slide on from it)."""
    graph = nx.DiGraph()
    todo, rows = [level.start], level.rows()
    while todo:
        cell = todo.pop()
        if cell in graph and graph.out_degree(cell):
            continue
        graph.add_node(cell)
        for letter in "udlr":
            step = oracle.walk(rows, cell, letter)
            if step:
                graph.add_edge(cell, step[0])
                todo.append(step[0])
    return graph


@given(small_levels(max_side=8, framed=True))
def test_odland_strong_and_reversible_iff_one_component(level):
    # 000: with start and goal in the frame, strong + reversible <=> G has a single SCC.
    report = analyze(level)
    single = nx.number_strongly_connected_components(roam_graph(level)) == 1
    assert (report.solvability == "strong" and report.reversible) == (single and report.solvability != "unsolvable")


@given(small_levels(max_side=8, framed=True))
def test_odland_class_is_kept_in_reverse(level):
    # 000's sidenote: weakly (strongly) solvable forward and solvable backward => the same class backward.
    forward, backward = analyze(level), analyze(level.swapped())
    if forward.solvability != "unsolvable" and backward.solvability != "unsolvable":
        assert forward.solvability == backward.solvability


@given(small_levels(max_side=7))
def test_traps_and_branching_are_consistent(level):
    report = analyze(level)
    graph = move_graph(level)
    rows = level.rows()
    for cell in report.trap_cells:
        assert level.goal not in oracle.reachable(rows, cell, level.goal)
    assert (report.solvability == "weak") == bool(report.trap_cells and report.solution)
    for trap in report.traps:
        sink = set(trap["sink"])
        assert all(set(graph.successors(c)) <= sink for c in sink)  # nothing leaves a sink
        assert sink <= set(trap["basin"])
    for stop in report.branching:
        assert stop.options == graph.out_degree(stop.cell) - 1
        assert stop.options == stop.alternatives + stop.setbacks + stop.traps
        assert report.remaining[stop.cell] == stop.remaining
    if report.solution:
        assert [s.remaining for s in report.branching] == list(range(report.min_stops, 0, -1))
        assert report.remaining[level.start] == report.min_stops


def test_trap_in_weak_example_is_reported(examples_dir):
    report = analyze(read_level(examples_dir / "weak-oneway.txt"))
    assert report.traps and report.trap_cells
    assert report.to_dict()["trap_cells"] == [list(c) for c in report.trap_cells]


def test_creativity_on_a_hand_computed_level():
    # S slides right into the goal: p=2 cells, i=1 stop, t=1 stopper (the goal); 8 rocks touch
    # the 3 playable cells, s=3 ice, so g=1; I=4/3, d=4/3+1=7/3; n=3 cells so v=1; C=7/3.
    c = analyze(Level.from_ascii("#####\n#S.G#\n#####")).creativity
    assert (c.p, c.i, c.t, c.units, c.empty, c.cells) == (2, 1, 1, 8, 3, 3)
    assert c.C == pytest.approx(7 / 3) and c.v == 1.0


def test_analysis_dict_has_the_spec_keys(examples_dir):
    report = analyze(read_level(examples_dir / "strong-reversible.txt"))
    d = report.to_dict()
    assert d["solvability"] == "strong" and d["reversible"] is True and d["min_stops"] == 15
    assert d["scc_count"] >= 1 and d["traps"] == []
    # the creativity figures are those of the analysis, and C = d / v holds in the JSON too
    creativity = d["creativity"]
    assert creativity["i"] == 15 == report.creativity.i and creativity["p"] == report.solution.distance
    assert creativity["C"] == pytest.approx(creativity["d"] / creativity["v"], abs=1e-3)
    assert creativity["C"] == pytest.approx(report.creativity.C, abs=1e-4)


@given(small_levels(max_side=6))
def test_fewest_solutions_are_counted_as_brute_force_counts_them(level):
    report = analyze(level)
    found = oracle.count_fewest(level.rows(), 7)
    if report.min_stops is None:
        assert report.solutions == 0
    elif report.min_stops <= 7:
        assert found == (report.min_stops, report.solutions)


@given(small_levels(max_side=7))
def test_choices_add_up_along_the_printed_solution(level):
    report = analyze(level)
    data = report.to_dict()
    assert data["solutions"] == report.solutions
    if report.solution is None:
        assert report.options == 0 and report.rail_stops == 0 and report.per_stop is None
        return
    options = [stop.options for stop in report.branching]
    assert len(options) == report.min_stops and data["branching"]["options"] == sum(options)
    assert data["branching"]["rail_stops"] == sum(1 for n in options if n <= 1)
    assert data["branching"]["per_stop"] == round(sum(options) / report.min_stops, 4)
    assert report.solutions >= 1


@given(small_levels(max_side=7))
def test_report_agrees_with_the_definitions_on_the_labelled_graph(level):
    # analyze walks an unlabelled graph of flat indices; every figure is checked here against
    # the definitions on the public labelled move graph, cell by cell.
    report = analyze(level)
    graph = move_graph(level)
    assert (report.resting_cells, report.moves) == (graph.number_of_nodes(), graph.number_of_edges())
    swapped = move_graph(level.swapped())
    assert report.reversible == (report.solution is not None and level.start in swapped
                                 and nx.has_path(swapped, level.goal, level.start))
    assert sorted(map(sorted, report.sccs)) == sorted(sorted(c) for c in nx.strongly_connected_components(graph))
    lengths = {}
    if level.goal in graph:
        lengths = nx.single_source_shortest_path_length(graph.reverse(copy=False), level.goal)
    assert report.remaining == lengths and (report.solution is None) == (level.goal not in graph)
    reach_goal = set(lengths)
    assert report.trap_cells == sorted(set(graph) - reach_goal)
    for trap in report.traps:
        sink = set(trap["sink"])
        feeding = {c for c in graph if c not in reach_goal and any(nx.has_path(graph, c, s) for s in sink)}
        assert set(trap["basin"]) == feeding


@given(small_levels(max_side=7))
def test_breadth_first_layers_agree_with_dijkstra(level):
    from designer.analysis.solver import _dijkstra, _layers, _moves_into
    from designer.core.kernels import reach
    from designer.core.rules import slide_table

    dest, length = slide_table(level)
    _, order = reach(dest, level.index(level.start), level.index(level.goal))
    into = _moves_into(dest, length, order, level.index(level.goal))
    layers, heap = _layers(into, level.index(level.goal)), _dijkstra(into, level.index(level.goal), "moves")
    assert layers.primary == heap.primary and layers.secondary == heap.secondary
