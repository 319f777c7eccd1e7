"""The player model's figures (docs/player.md), measured in one run.

- ``glissade``: glissade's 26 levels in their designer's order (its ``levels.json``, given as
  ``--glissade FILE``): Spearman's rho of each measure alone, and of the model's expected moves
  with its two parameters fitted to the order leaving each level out in turn (a grid search).
- ``exact``: on random levels (plain, items, portals, wrap, a cave), the exact expected moves
  beside the mean of 20,000 playthroughs of the same player.
- ``fit``: 2,000 attempts simulated from a known player over a 12-level pack, the fit's
  parameters beside the true ones, and its time.
- ``other``: a different player (a depth-limited planner with noise and a memory of the stops it
  has seen, written here and nowhere else) plays 20 levels; the model, fitted on 10 of them,
  ranks the other 10 by that player's median moves.
- ``speed``: predicted difficulty of a 12x12 level and of the Ice Path cave, playtest of 10,000
  attempts, a fit.

Run: python docs/player_study.py --glissade levels.json
     python docs/player_study.py --only exact,fit,other,speed
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

PARTS = ("glissade", "exact", "fit", "other", "speed")


def spearman(a, b) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(a, b)[0])


def bfs_effort(table) -> int:
    """Moves a breadth-first search examines from the start before one reaches the exit."""
    from designer.core.rules import NO_MOVE

    seen, frontier, examined = {table.start}, [table.start], 0
    while frontier:
        later = []
        for state in frontier:
            for d in range(4):
                end = int(table.dest[d, state])
                if end == NO_MOVE:
                    continue
                examined += 1
                if end == table.goal:
                    return examined
                if end not in seen:
                    seen.add(end)
                    later.append(end)
        frontier = later
    return examined


GRID = [(s, b) for s in (0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0) for b in (0.0, 0.5, 1.0, 2.0, 3.0)]


def glissade_part(path: str) -> None:
    from designer.analysis import player as model
    from designer.analysis.solver import solve
    from designer.analysis.structure import structure
    from designer.core.items import state_table
    from designer.formats import glissade

    levels = glissade.read_levels(json.loads(open(path, encoding="utf-8").read()))
    order = list(range(len(levels)))
    tables = [state_table(one.level) for one in levels]
    pars = [len(solve(one.level).moves) for one in levels]
    shapes = [structure(one.level) for one in levels]
    print(f"glissade: {len(levels)} levels in their designer's order; Spearman's rho of each measure alone")
    alone = {"par (min stops)": pars, "published par": [one.par for one in levels],
             "reachable stops": [s.reachable for s in shapes], "breadth-first search effort": [bfs_effort(t) for t in tables],
             "subgoals": [s.subgoals for s in shapes], "counter-intuitive moves": [s.counter_intuitive for s in shapes],
             "dead ends": [s.dead_ends for s in shapes], "branching": [s.branching for s in shapes]}
    figures = {}
    for who in GRID:
        figures[who] = [model.solve_chain(model.chain(t, model.Player(*who), height=one.level.height), par)
                        for one, t, par in zip(levels, tables, pars)]
    default = figures[(model.DEFAULT.skill, model.DEFAULT.back_aversion)]
    alone["expected moves (default player)"] = [f.expected_moves for f in default]
    alone["expected restarts (default player)"] = [f.expected_restarts for f in default]
    alone["moves lost wandering (default player)"] = [f.parts()["wandering"] for f in default]
    for name, values in alone.items():
        print(f"  {name:40s} {spearman(order, values):+.3f}")
    best_all = max(GRID, key=lambda who: spearman(order, [f.expected_moves for f in figures[who]]))
    print(f"  expected moves, both parameters fitted to all 26 (in sample): {best_all} -> "
          f"{spearman(order, [f.expected_moves for f in figures[best_all]]):+.3f}")
    held_out = []
    for k in range(len(levels)):  # leave level k out: fit on the rest, predict k
        rest = [i for i in order if i != k]
        who = max(GRID, key=lambda w: spearman(rest, [figures[w][i].expected_moves for i in rest]))
        held_out.append(figures[who][k].expected_moves)
    print(f"  expected moves, parameters fitted leaving each level out (out of sample): "
          f"{spearman(order, held_out):+.3f}")


def random_levels(count: int, seed: int):
    """Levels of every kind: plain, snow and traps, items, portals and wrap; designed and random."""
    from designer.analysis.graph import analyze
    from designer.core.floors import Floor
    from designer.core.level import Level

    rng = np.random.default_rng(seed)
    made = []
    while len(made) < count:
        h, w = int(rng.integers(5, 10)), int(rng.integers(5, 10))
        grid = np.where(rng.random((h, w)) < 0.25, "#", np.where(rng.random((h, w)) < 0.08, "_", "."))
        cells = [(r, c) for r in range(h) for c in range(w) if grid[r, c] == "."]
        if len(cells) < 6:
            continue
        picks = [cells[i] for i in rng.choice(len(cells), 6, replace=False)]
        kind = len(made) % 4
        rows = ["".join(row) for row in grid]
        try:
            plain = Level.from_rows(rows[:picks[0][0]] + [rows[picks[0][0]][:picks[0][1]] + "S" + rows[picks[0][0]][picks[0][1] + 1:]]
                                    + rows[picks[0][0] + 1:])
            level = Level(plain.terrain, picks[0], picks[1],
                          items=tuple(sorted(picks[2:4])) if kind == 1 else (),
                          portals=((picks[2], picks[3]), (picks[3], picks[2])) if kind == 2 else (),
                          floors=(Floor("", 0, h, w, "both"),) if kind == 3 else ())
            if analyze(level).min_stops is None:
                continue
        except Exception:
            continue
        made.append((("plain", "items", "portals", "wrap")[kind], level))
    return made


def exact_part(count: int, runs: int) -> None:
    from designer.analysis import player as model
    from designer.caves.graph import sheet, states
    from designer.core.items import state_table

    worst, rows, skipped = 0.0, [], 0
    for kind, level in random_levels(4 * count, seed=7):
        chain = model.chain(state_table(level), model.DEFAULT, height=level.height)
        if model.solve_chain(chain, 1).expected_moves > MOST_SIMULATED:
            skipped += 1  # a playthrough this long is too slow to sample 20,000 times
            continue
        rows.append((kind, chain))
        if len(rows) == count - 1:
            break
    laid = sheet(designed_cave())
    rows.append(("cave", model.chain(states(laid), model.DEFAULT, height=laid.level.height)))
    for k, (kind, chain) in enumerate(rows):
        exact = model.solve_chain(chain, 1).expected_moves
        moves, _ = model.simulate(chain, runs, np.random.default_rng(k))
        worst = max(worst, abs(moves.mean() - exact) / exact)
    kinds = {kind: sum(1 for one, _ in rows if one == kind) for kind, _ in rows}
    print(f"exact: {len(rows)} levels ({', '.join(f'{n} {kind}' for kind, n in kinds.items())}; {skipped} random ones "
          f"left out, over {MOST_SIMULATED:,} expected moves): the exact expected moves beside the mean of {runs:,} "
          f"playthroughs of the same player: the largest gap {worst:.2%}")


#: Levels whose expected moves pass this are left out of the sampled check (too slow to sample).
MOST_SIMULATED = 3000


def designed_cave():
    """The four-rooms example cave, designed (seed 0), as the check's cave."""
    from designer.caves.design import CaveRequest, design
    from designer.ops.caves import read_cave

    return design(CaveRequest(read_cave("examples/caves/four-rooms.txt"), min_stops=40), seed=0).cave


def small_pack(count: int, seed: int = 0):
    from designer.core.request import LayoutRequest
    from designer.search.design import design

    return [(f"l{k}", design(LayoutRequest(height=9, width=9, min_stops=4 + k // 2, first=True),
                             seed=seed + k).level) for k in range(count)]


def fit_part() -> None:
    from designer.analysis import player as model
    from designer.analysis import playtests

    pack = small_pack(12)
    true = model.Player(2.0, 1.5)
    log = playtests.simulated_log(pack, true, 2000, seed=1)
    began = time.perf_counter()
    found = playtests.replay([("sim", log)], pack)
    fitted, info = playtests.fit(found, pack)
    seconds = time.perf_counter() - began
    print(f"fit: 2,000 attempts over 12 levels by {true}: fitted {fitted} "
          f"(skill {abs(fitted.skill / true.skill - 1):.1%} off, back_aversion "
          f"{abs(fitted.back_aversion / true.back_aversion - 1):.1%} off) from {info['choices']:,} choices in {seconds:.1f} s")


def planner_moves(level, rng, depth: int = 2, noise: float = 0.3, cap: int = 5000) -> int:
    """A different player: from each stop it looks ``depth`` moves ahead and takes the move whose
    best look-ahead ends nearest the exit (Manhattan distance), preferring stops it has not seen;
    with chance ``noise`` it takes a random move instead. Into a trap, it restarts."""
    from designer.core.items import state_table
    from designer.core.rules import NO_MOVE

    table = state_table(level)
    gr, gc = divmod(int(table.goal % table.cells), table.width)

    def dist(state: int) -> int:
        r, c = divmod(int(state % table.cells), table.width)
        return abs(r - gr) + abs(c - gc)

    def look(state: int, left: int) -> int:
        if state == table.goal:
            return -1
        best = dist(state)
        if left:
            for d in range(4):
                end = int(table.dest[d, state])
                if end != NO_MOVE:
                    best = min(best, look(end, left - 1))
        return best

    alive = _alive(table)
    state, seen, moves = table.start, {table.start}, 0
    while state != table.goal and moves < cap:
        options = [(d, int(table.dest[d, state])) for d in range(4) if table.dest[d, state] != NO_MOVE]
        if rng.random() < noise:
            d, end = options[int(rng.integers(len(options)))]
        else:
            d, end = min(options, key=lambda o: (look(o[1], depth - 1), o[1] in seen, rng.random()))
        moves += 1
        state = end
        seen.add(state)
        if state != table.goal and not alive[state]:
            state = table.start
    return moves


def _alive(table):
    from designer.core.rules import NO_MOVE

    alive = np.zeros(table.count, bool)
    alive[table.goal] = True
    grew = True
    while grew:
        grew = False
        for d in range(4):
            ends = table.dest[d]
            ok = (ends != NO_MOVE) & ~alive
            now = ok & alive[np.where(ends == NO_MOVE, 0, ends)]
            if now.any():
                alive |= now
                grew = True
    return alive


def other_part() -> None:
    from designer.analysis import player as model
    from designer.analysis import playtests
    from designer.core.items import state_table
    from designer.formats.playtest_log import MOVES, Event, Log, level_id, pack_id

    pack = small_pack(20, seed=100)
    rng = np.random.default_rng(3)
    medians = [float(np.median([planner_moves(level, rng) for _ in range(60)])) for _, level in pack]
    # the planner's own moves, logged, on the first 10 levels: what the model is fitted to
    events, visit = [], 0
    for k, (_, level) in enumerate(pack[:10]):
        table = state_table(level)
        for _ in range(60):
            visit += 1
            events += _planner_log(level, table, k, f"p{visit}", rng)
    ids = [level_id(level.rows()) for _, level in pack[:10]]
    log = Log(pack_id(ids), tuple((name, ident) for (name, _), ident in zip(pack[:10], ids)), tuple(events))
    found = playtests.replay([("planner", log)], pack[:10])
    fitted, _ = playtests.fit(found, pack[:10])
    held = pack[10:]
    predicted = [model.play(level, fitted).expected_moves for _, level in held]
    default = [model.play(level).expected_moves for _, level in held]
    print(f"other: a depth-2 planner with noise 0.3 and a memory, 60 plays a level; fitted on 10 levels {fitted}; "
          f"the other 10 ranked by its median moves: Spearman {spearman(medians[10:], predicted):+.3f} "
          f"(the default player {spearman(medians[10:], default):+.3f}; par {spearman(medians[10:], [len(__import__('designer.analysis.solver', fromlist=['solve']).solve(lv).moves) for _, lv in held]):+.3f})")
    del MOVES, Event


def _planner_log(level, table, k, visit, rng, depth=2, noise=0.3):
    """One play of the planner, as the page would log it."""
    from designer.core.rules import NO_MOVE
    from designer.formats.playtest_log import MOVES, Event

    gr, gc = divmod(int(table.goal % table.cells), table.width)
    alive = _alive(table)

    def dist(state):
        r, c = divmod(int(state % table.cells), table.width)
        return abs(r - gr) + abs(c - gc)

    def look(state, left):
        if state == table.goal:
            return -1
        best = dist(state)
        if left:
            for d in range(4):
                end = int(table.dest[d, state])
                if end != NO_MOVE:
                    best = min(best, look(end, left - 1))
        return best

    out, attempt, t = [Event(visit, 0, k, 1, "start")], 1, 0
    state, seen, made = table.start, {table.start}, 0
    while state != table.goal and t < 5000:
        options = [(d, int(table.dest[d, state])) for d in range(4) if table.dest[d, state] != NO_MOVE]
        if rng.random() < noise:
            d, end = options[int(rng.integers(len(options)))]
        else:
            d, end = min(options, key=lambda o: (look(o[1], depth - 1), o[1] in seen, rng.random()))
        t += 1
        made += 1
        state = end
        seen.add(state)
        out.append(Event(visit, t, k, attempt, "move", MOVES[d], table.cell(end)))
        if state != table.goal and not alive[state]:
            out.append(Event(visit, t, k, attempt, "restart"))
            attempt += 1
            made = 0
            out.append(Event(visit, t, k, attempt, "start"))
            state = table.start
    out.append(Event(visit, t, k, attempt, "finish", moves=made))
    return out


def speed_part() -> None:
    from designer.analysis import player as model
    from designer.analysis import playtests
    from designer.caves.cave import Cave
    from designer.core.request import LayoutRequest
    from designer.formats.playtest_log import parse, write
    from designer.search.design import design

    level = design(LayoutRequest(min_stops=25, first=True), seed=3).level
    model.play(level)  # scipy loaded once
    times = []
    for _ in range(7):
        began = time.perf_counter()
        model.play(level)
        times.append(time.perf_counter() - began)
    print(f"speed: predicted difficulty of a 12x12 level of 25 stops: {1000 * float(np.median(times)):.1f} ms (median of 7)")
    from designer.caves.design import CaveRequest, design as design_cave
    from designer.ops.caves import read_cave

    cave = design_cave(CaveRequest(read_cave("examples/caves/ice-path.txt"), min_stops=80), seed=0).cave
    began = time.perf_counter()
    figures = model.play_cave(cave)
    print(f"speed: the Ice Path cave ({figures.states:,} states of the chain): {time.perf_counter() - began:.2f} s")
    pack = small_pack(12)
    text = write(playtests.simulated_log(pack, model.Player(2.0, 1.5), 10_000, seed=4))
    began = time.perf_counter()
    found = playtests.replay([("sim", parse(text, "sim"))], pack)
    read_seconds = time.perf_counter() - began
    began = time.perf_counter()
    playtests.fit(found, pack)
    print(f"speed: playtest of 10,000 attempts ({text.count(chr(10)):,} lines): {read_seconds:.2f} s to read and "
          f"replay; a fit of them: {time.perf_counter() - began:.2f} s")
    del Cave


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--glissade", help="glissade's levels.json")
    parser.add_argument("--only", default=",".join(PARTS))
    parser.add_argument("--levels", type=int, default=50)
    parser.add_argument("--runs", type=int, default=20_000)
    args = parser.parse_args()
    parts = args.only.split(",")
    if "glissade" in parts and args.glissade:
        glissade_part(args.glissade)
    if "exact" in parts:
        exact_part(args.levels, args.runs)
    if "fit" in parts:
        fit_part()
    if "other" in parts:
        other_part()
    if "speed" in parts:
        speed_part()



if __name__ == "__main__":
    main()
