"""Time variants of the CP-SAT model side by side on the same start and goal pairs, in one run.

Each variant poses every pair of a request (``symmetry.end_pairs``, both ends pinned, the floor K
lifted by the parity bound as ``cpsat-ends`` does) on one worker, and the table gives each
variant's verdicts and seconds (building included). The variants:

- ``model``: the pair as ``--method cpsat-ends`` poses it when meeting K (K a constraint, no
  objective).
- ``objective``: the same, maximizing the goal's stops (how pairs were posed before issue 33).
- ``no-parents``, ``no-strong``, ``no-reversible``, ``distances-only``: the model relaxed
  (``build_model(relax=...)``): the distances as upper bounds only, or without strong
  solvability, reversibility, or both. A relaxation allows every level the model does, so these
  are what a decomposition (a relaxed model with cuts) would have to prove first.
- ``layered``: min stops as booleans per layer ("the player can rest on c within k moves",
  closed under moves, the goal not within K - 1) in place of exact integer distances.
- ``sat``: the whole pair as clauses (the layers above; strong solvability and reversibility as
  "the goal, or the start in the swapped level, within j moves"), solved by CaDiCaL 1.9.5 from
  python-sat (a core dependency, the proof engine's solver): the anchor from another engine.

Run: python docs/model_study.py --size 7x7 --min-stops 15
     python docs/model_study.py --size 8x8 --min-stops 21 --pairs 1 --variants model,sat --time-limit 900
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace

VARIANTS = ("model", "objective", "no-parents", "no-strong", "no-reversible", "distances-only", "layered", "sat")
RELAXED = {"no-parents": {"parents"}, "no-strong": {"strong"}, "no-reversible": {"reversible"},
           "distances-only": {"strong", "reversible"}}


def layered_model(req, stops: int):
    """The pair with min stops as booleans per layer (see the module docstring); strong
    solvability and reversibility as in the model."""
    from designer.models.grid import SlideGrid, stop_literals, tiles
    from designer.models.literals import Literals
    from designer.models.loader import cp_model
    from designer.models.properties import reversible, strongly_solvable

    model = cp_model.CpModel()
    lits = Literals(model)
    is_start, is_goal, rock, snow = tiles(model, lits, req)
    grid = SlideGrid(req, rock)
    forward, backward = (stop_literals(lits, grid, rock, snow, ends) for ends in (is_goal, is_start))
    within = [{c: model.new_bool_var("within") for c in grid.cells} for _ in range(stops)]
    for cell in grid.cells:
        lits.implies([is_start[cell]], [within[0][cell]])
        lits.implies([is_goal[cell], within[-1][cell]], [])
        for k in range(stops - 1):
            model.add_implication(within[k][cell], within[k + 1][cell])
    rests = {c: model.new_bool_var("rests") for c in grid.cells}
    layers = [(within[k], within[k + 1]) for k in range(stops - 1)]
    layers.append((rests, rests))  # the cells reached by any number of moves
    for cell in grid.cells:
        lits.implies([is_start[cell]], [rests[cell]])
        lits.implies([within[-1][cell]], [rests[cell]])
    for here, there in layers:
        sliding = {s: model.new_bool_var("sliding") for s in grid.slides}
        for slide in grid.slides:
            cell, _ = slide
            prev = grid.previous_slide(slide)
            if prev is not None:  # leave a cell (never the goal: it captures) or pass one
                lits.implies([here[prev[0]], lits.negate(is_goal[prev[0]]), grid.open[cell]], [sliding[slide]])
                lits.implies([sliding[prev], lits.negate(forward[prev])], [sliding[slide]])
            lits.implies([sliding[slide], forward[slide]], [there[cell]])
    strongly_solvable(model, lits, grid, rests, is_goal, forward, lambda: None)
    reversible(model, lits, grid, is_start, is_goal, backward, lambda: None)
    return model


def sat_clauses(req, stops: int) -> list[list[int]]:
    """The pair as clauses over integer literals (see the module docstring). Frame and no-frame
    requests without snow or a template."""
    from designer.core.level import ROCK
    from designer.core.rules import DELTAS

    count = [0]

    def new() -> int:
        count[0] += 1
        return count[0]

    clauses: list[list[int]] = []

    def clause(*lits) -> None:  # True and False fold away
        if any(lit is True for lit in lits):
            return
        clauses.append([lit for lit in lits if lit is not False])

    def neg(lit):
        return (not lit) if isinstance(lit, bool) else -lit

    start, goal = req.start, req.goal
    free = set(req.free_cells())
    rock = {}
    for r in range(req.height):
        for c in range(req.width):
            cell = (r, c)
            rock[cell] = (False if cell in (start, goal) else new() if cell in free
                          else req.fixed_tile(cell) == ROCK)
    cells = [c for c in rock if rock[c] is not True]

    def ahead(cell, d):
        return cell[0] + DELTAS[d][0], cell[1] + DELTAS[d][1]

    def blocked(cell, d):
        return rock.get(ahead(cell, d), True)

    def closure(here, there, capture) -> None:
        """``there`` holds every cell one move from a cell of ``here`` (none leaves ``capture``)."""
        slide = {(c, d): new() for c in cells for d in range(4)}
        for cell in cells:
            for d in range(4):
                nxt = ahead(cell, d)
                if cell != capture and (nxt, d) in slide:
                    clause(-here[cell], rock[nxt], slide[(nxt, d)])
                if cell == capture:
                    clause(-slide[(cell, d)], there[cell])
                    continue
                clause(-slide[(cell, d)], neg(blocked(cell, d)), there[cell])
                if (nxt, d) in slide:
                    clause(-slide[(cell, d)], blocked(cell, d), slide[(nxt, d)])

    within = [{c: new() for c in cells} for _ in range(stops)]
    clause(within[0][start])
    clause(-within[-1][goal])
    rests = {c: new() for c in cells}
    clause(rests[start])
    for cell in cells:
        clause(-within[-1][cell], rests[cell])
        for k in range(stops - 1):
            clause(-within[k][cell], within[k + 1][cell])
    for k in range(stops - 1):
        closure(within[k], within[k + 1], goal)
    closure(rests, rests, goal)

    def reaches(target):
        """Per cell, a literal that holds only where ``target`` is reached within len(cells) - 1
        moves of the level where ``target`` captures."""
        near = {c: c == target for c in cells}
        for _ in range(len(cells) - 1):
            ends = {(c, d): new() for c in cells for d in range(4)}  # sliding on c in d ends in ``near``
            for cell in cells:
                for d in range(4):
                    lit, nxt = ends[(cell, d)], ahead(cell, d)
                    clause(-lit, neg(rock[cell]))
                    if cell == target:
                        continue
                    clause(-lit, neg(blocked(cell, d)), near[cell])
                    clause(-lit, blocked(cell, d), *([ends[(nxt, d)]] if (nxt, d) in ends else []))
            further = {}
            for cell in cells:
                if cell == target:
                    further[cell] = True
                    continue
                further[cell] = new()
                moves = []
                for d in range(4):
                    first = ahead(cell, d)
                    if first in rock and rock[first] is not True:
                        move = new()
                        clause(-move, neg(rock[first]))
                        clause(-move, ends[(first, d)])
                        moves.append(move)
                clause(-further[cell], near[cell], *moves)
            near = further
        return near

    to_goal = reaches(goal)
    for cell in cells:
        clause(-rests[cell], to_goal[cell])
    clause(reaches(start)[goal])  # the swapped level: from the goal, the start captures
    return clauses


def pose(variant: str, req, stops: int, seconds: float) -> str:
    """One variant on one pair: "infeasible", "feasible" or "unknown" (time limit)."""
    if variant == "sat":
        from pysat.solvers import Solver

        with Solver(name="cadical195", bootstrap_with=sat_clauses(req, stops)) as solver:
            return "feasible" if solver.solve() else "infeasible"  # no time limit: the caller's
    from designer.models.cpsat import build_model
    from designer.models.solve import new_solver

    if variant == "layered":
        model = layered_model(req, stops)
    else:
        built = build_model(replace(req, min_stops=stops), relax=frozenset(RELAXED.get(variant, ())))
        model = built.model
        if variant == "objective":
            model.maximize(built.goal_stops)
    solver = new_solver(1, seconds, 1)
    status = solver.status_name(solver.solve(model))
    return {"INFEASIBLE": "infeasible", "OPTIMAL": "feasible", "FEASIBLE": "feasible"}.get(status, "unknown")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="7x7", help="HxW, with a frame (default 7x7)")
    parser.add_argument("--min-stops", type=int, default=15)
    parser.add_argument("--no-frame", action="store_true")
    parser.add_argument("--variants", default="model,objective,no-parents,no-strong,no-reversible,distances-only,"
                        "layered", help=f"comma-separated, of: {', '.join(VARIANTS)}")
    parser.add_argument("--pairs", default="", help="comma-separated pair numbers (1 = first; default all)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per pair and variant (CP-SAT)")
    options = parser.parse_args(argv)
    from designer.analysis import bounds
    from designer.cli.shell import parse_size
    from designer.core.errors import DesignerError
    from designer.core.extras import MissingExtra
    from designer.core.request import LayoutRequest
    from designer.models.symmetry import end_pairs
    from designer.search.validation import validate

    variants = [v for v in options.variants.split(",") if v]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}")
    try:
        height, width = parse_size(options.size)
        request = LayoutRequest(height, width, frame=not options.no_frame, min_stops=options.min_stops)
        validate(request)
    except DesignerError as error:  # the one line make would print
        parser.error(str(error))
    pairs = list(enumerate(end_pairs(request), 1))
    if options.pairs:
        chosen = {int(n) for n in options.pairs.split(",")}
        pairs = [(n, pair) for n, pair in pairs if n in chosen]
    print(f"{options.size}, K={options.min_stops}, {len(pairs)} pair{'s' if len(pairs) != 1 else ''}, one worker each\n")
    print("| pair | " + " | ".join(variants) + " |\n| --- |" + " --- |" * len(variants))
    totals = {v: 0.0 for v in variants}
    for number, (start, goal) in pairs:
        sub = replace(request, start=start, goal=goal)
        stops = bounds.least_possible(sub, options.min_stops)
        cells = []
        for variant in variants:
            began = time.perf_counter()
            try:
                verdict = pose(variant, sub, stops, options.time_limit)
            except MissingExtra as error:
                print(f"model_study: {error}", file=sys.stderr)
                return 2
            seconds = time.perf_counter() - began
            totals[variant] += seconds
            cells.append(f"{verdict} {seconds:.2f} s")
        print(f"| {number} {start}-{goal} K={stops} | " + " | ".join(cells) + " |", flush=True)
    print("| total | " + " | ".join(f"{totals[v]:.1f} s" for v in variants) + " |")


if __name__ == "__main__":
    sys.exit(main())
