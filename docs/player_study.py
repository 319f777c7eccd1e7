"""The player model's figures (docs/player.md), measured in one run.

- ``glissade``: glissade's 26 levels in their designer's order (its ``levels.json``, given as
  ``--glissade FILE``): Spearman's rho of each measure alone, and of the model's expected moves
  with its two parameters fitted to the order leaving each level out in turn (a grid search).
- ``exact``: on random levels (plain, items, portals, wrap, a cave), the exact expected moves
  beside the same player's runs less their controls at the default number of runs, and beside
  the plain mean of 10,000 runs of its chain (the kernel).
- ``fit``: 2,000 attempts simulated from a known member of each kind over a 12-level pack, the
  fit's parameters beside the true ones, and its time.
- ``family``: the players of tests/ (a depth-2 planner, a wall follower, a player who knows the
  solution and lapses, the issue's seeker), each on 3 packs of 20 levels; the family, fitted on
  10 of them, ranks the other 10 by that player's median moves.
- ``caves``: caves of 3, 5 and 8 rooms from one request (``designer cave --rooms N``, rooms of
  12x12 and 9x9, 0 and 1 key, seeds 1 to 3, the default min stops and time limit): each cave's
  predicted difficulty, min stops and the stops it was asked, which design of it landed in the
  band its rooms aim at (``designer.caves.felt``), and whether the three rise.
- ``controls``: how much the controls cut the variance of the runs of each member played out.
- ``best``: how much the best guess over (stop, last move), fitted on 500 runs' basis as
  ``played`` fits it, adds to the two guesses, tried on 3,000 other runs.
- ``speed``: predicted difficulty of a 12x12 level, a pack of 20 and the Ice Path cave, for the
  simple player and one with memory; of ten 12x12 levels for every member; playtest of 10,000
  attempts, a fit.

Run: python docs/player_study.py --glissade levels.json
     python docs/player_study.py --only exact,fit,family,caves,speed,controls,best
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

PARTS = ("glissade", "exact", "fit", "family", "caves", "speed", "controls", "best")


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
    from designer.core.players import Player

    for member, values in KNOWN[1:]:  # each richer member, at the parameters the fit check uses
        who = Player.of(member, **values)
        moves = [model.figures_of(t, who, par, height=one.level.height).expected_moves
                 for one, t, par in zip(levels, tables, pars)]
        print(f"  expected moves, the {member} player {values} (not fitted): {spearman(order, moves):+.3f}")


def random_levels(count: int, seed: int):
    """Levels of every kind: plain, snow and traps, items, portals and wrap; designed and random."""
    from designer.analysis.graph import analyze
    from designer.core.floors import Floor
    from designer.core.level import ICE, ROCK, SNOW, Level

    rng = np.random.default_rng(seed)
    made, drawn = [], 0
    while len(made) < count:
        drawn += 1
        h, w = int(rng.integers(5, 10)), int(rng.integers(5, 10))
        terrain = np.where(rng.random((h, w)) < 0.25, ROCK, np.where(rng.random((h, w)) < 0.08, SNOW, ICE)).astype(np.uint8)
        cells = [(r, c) for r in range(h) for c in range(w) if terrain[r, c] == ICE]
        if len(cells) < 6:
            continue
        picks = [cells[i] for i in rng.choice(len(cells), 6, replace=False)]
        kind = drawn % 4
        try:
            level = Level(terrain, picks[0], picks[1],
                          items=tuple(sorted(picks[2:4])) if kind == 1 else (),
                          portals=((picks[2], picks[3]), (picks[3], picks[2])) if kind == 2 else (),
                          floors=(Floor("", 0, h, w, "xy"),) if kind == 3 else ())
            if analyze(level).min_stops is None:
                continue
        except Exception:
            continue
        made.append((("plain", "items", "portals", "wrap")[kind], level))
    return made


def exact_part(count: int) -> None:
    """The runs of the players with an exact chain (the default simple player, a careful one),
    at the default number of runs (``designer.analysis.player_runs.played``), beside the exact
    solution."""
    from designer.analysis import player as model
    from designer.analysis.player_runs import played, simulate
    from designer.caves.graph import sheet, states
    from designer.core.items import state_table
    from designer.core.players import Player

    careful = Player.of("careful", **KNOWN[1][1])
    for player in (model.DEFAULT, careful):
        worst, rows, skipped, runs = 0.0, [], 0, []
        for kind, level in random_levels(4 * count, seed=7):
            table = state_table(level)
            if model.solve_chain(model.chain(table, player, height=level.height), 1).expected_moves > MOST_SIMULATED:
                skipped += 1  # a playthrough this long is too slow to sample again and again
                continue
            rows.append((kind, table, level.height))
            if len(rows) == count - 1:
                break
        laid = sheet(designed_cave())
        rows.append(("cave", states(laid), laid.level.height))
        plain, errors = 0.0, 0.0  # the kernel's own runs, no controls: the chain's choices
        for kind, table, height in rows:
            chain = model.chain(table, player, height=height)
            exact = model.solve_chain(chain, 1).expected_moves
            run = played(model.walked_chain(table, player, height), player, 1, seed=0)
            worst = max(worst, abs(run.expected_moves - exact) / exact)
            runs.append(run.runs)
            moves, _ = simulate(chain, 10_000, np.random.default_rng(0))
            plain = max(plain, abs(moves.mean() - exact) / exact)
            if moves.std() > 0:  # a level every run plays alike has no error to count
                errors = max(errors, abs(moves.mean() - exact) / (moves.std() / math.sqrt(moves.size)))
        kinds = {kind: sum(1 for one, _, _ in rows if one == kind) for kind, _, _ in rows}
        print(f"exact: the {player.member} player, {len(rows)} levels ({', '.join(f'{n} {kind}' for kind, n in kinds.items())}; "
              f"{skipped} random ones left out, over {MOST_SIMULATED:,} expected moves): the exact expected moves beside "
              f"the runs' mean less its controls at the default number of runs ({min(runs):,} to {max(runs):,}): the "
              f"largest gap {worst:.2%}; the plain mean of 10,000 runs, no controls: the largest gap {plain:.2%}, "
              f"{errors:.1f} standard errors")


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


#: The members a fit is checked on, each with parameters a designer might meet.
KNOWN = (
    ("simple", dict(skill=2.0, back_aversion=1.5)),
    ("careful", dict(skill=2.0, back_aversion=1.0, foresight=2, lapse=0.15)),
    ("explorer", dict(skill=2.0, back_aversion=1.5, memory=1.0, foresight=1, lapse=0.2)),
    ("impatient", dict(skill=3.0, back_aversion=1.0, memory=1.5, lapse=0.1, patience=20.0)),
    ("seeker", dict(skill=2.0, memory=1.0, foresight=2, lapse=0.15, patience=10.0)),
    ("knowing", dict(skill=2.0, back_aversion=1.0, route=2.0, lapse=0.15)),
    ("follower", dict(skill=2.0, back_aversion=1.0, turn=1.5, lapse=0.2, notice=0.6)),
    ("tinkerer", dict(skill=2.0, back_aversion=1.0, variety=1.5, lapse=0.15)),
)


def fit_part() -> None:
    from designer.core.players import Player
    from designer.studies import playtest_fit, playtest_model, playtests
    from designer.studies.playtest_choices import choices_of

    pack = small_pack(12)
    for member, values in KNOWN:
        true = Player.of(member, **values)
        log = playtest_model.simulated_log(pack, true, 2000, seed=1)
        began = time.perf_counter()
        data = choices_of(playtests.replay([("sim", log)], pack), pack)
        fitted = playtest_fit.fit_member(member, data)
        seconds = time.perf_counter() - began
        off = {name: abs(getattr(fitted, name) / value - 1) for name, value in values.items()}
        print(f"fit: 2,000 attempts over 12 levels by the {member} player {values}: fitted "
              f"{fitted.to_json()}, worst {max(off, key=off.get)} {max(off.values()):.1%} off, from "
              f"{data.count:,} choices in {seconds:.1f} s")


def family_part() -> None:
    """Each player of tests/ (a depth-2 planner, a wall follower, the solution with lapses, the
    issue's seeker, a greedy player who tries another way) on three packs of 20 levels of 9x9 (designs of seeds 100, 200, 300), 60 plays
    a level: the family fitted on the first 10 levels' logs (the held-out winner), the other 10
    ranked by the player's median moves (Spearman; a play that never finished counts as more than
    any that did), each member's held-out log-likelihood a choice beside a random player's."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import other_players
    from other_player import planner_log

    from designer.analysis import player as model
    from designer.analysis.solver import solve
    from designer.studies import playtest_fit, playtests

    players = {"planner": planner_log, "wall": other_players.wall_log, "lapse": other_players.lapse_log,
               "seeker": other_players.seeker_log, "greedy": other_players.greedy_log}
    for name, player in players.items():
        for base in (100, 200, 300):
            pack = small_pack(20, seed=base)
            fit_half, held = pack[:10], pack[10:]
            found = playtests.replay([(name, other_players.logs(fit_half, player, 60, 3))], fit_half)
            counted = other_players.play_counts(other_players.logs(held, player, 60, 4).events)
            medians = [other_players.median_moves(counted[k]) for k in range(len(held))]
            finished = [float(np.median(counted[k]["moves"] or [np.inf])) for k in range(len(held))]
            fitted, info = playtest_fit.fit(found, fit_half)
            simple, _ = playtest_fit.fit(found, fit_half, "simple")
            rho = spearman(medians, [model.play(level, fitted).expected_moves for _, level in held])
            rho_simple = spearman(medians, [model.play(level, simple).expected_moves for _, level in held])
            par = spearman(medians, [solve(level).stops for _, level in held])
            before = spearman(finished, [model.play(level, fitted).expected_moves for _, level in held])
            print(f"family: {name}, pack {base}: {info['member']} won ({fitted.to_json()}); Spearman "
                  f"{rho:+.3f} (the simple player fitted {rho_simple:+.3f}, par {par:+.3f}; against the "
                  f"median of the finished plays alone {before:+.3f}); held out "
                  f"{info['held_out']}, at random {info['random_log_likelihood_per_choice']}")


def caves_part() -> None:
    from designer.caves.cave_analysis import played
    from designer.ops.caves import CaveOptions, design, request_for

    rising = 0
    for size in ((12, 12), (9, 9)):
        for keys in (0, 1):
            for seed in (1, 2, 3):
                row = []
                for rooms in (3, 5, 8):
                    options = CaveOptions(rooms=rooms, keys=keys, size=size, seed=seed)
                    made = design(options).design
                    row.append((played(made.cave).difficulty, made.analysis.min_stops,
                                request_for(options).min_stops, made.record["felt"]["designs"]))
                felt = [one[0] for one in row]
                rising += felt == sorted(set(felt))
                print(f"caves: {size[0]}x{size[1]}, {keys} key(s), seed {seed}: " + ", ".join(
                    f"{rooms} rooms {d:.1f} ({stops} stops, asked {asked}; design {k})"
                    for rooms, (d, stops, asked, k) in zip((3, 5, 8), row))
                    + ("" if felt == sorted(set(felt)) else "  (not rising)"))
    print(f"caves: rising in {rising} of 12 requests")


def speed_part() -> None:
    from designer.analysis import player as model
    from designer.core.players import Player
    from designer.core.request import LayoutRequest
    from designer.formats.playtest_log import parse, write
    from designer.search.design import design
    from designer.studies import playtest_fit, playtest_model, playtests

    level = design(LayoutRequest(min_stops=25, first=True), seed=3).level
    pack = small_pack(20)
    played_out = [Player.of(member, **values) for member, values in KNOWN if member in ("explorer", "tinkerer")]
    for player in (Player(), *played_out):
        model.play(level, player)  # scipy loaded once
        times = []
        for _ in range(7):
            began = time.perf_counter()
            model.play(level, player)
            times.append(time.perf_counter() - began)
        began = time.perf_counter()
        for _, one in pack:
            model.play(one, player)
        print(f"speed: the {player.member} player: a 12x12 level of 25 stops "
              f"{1000 * float(np.median(times)):.1f} ms (median of 7); a pack of 20 levels of 9x9 "
              f"{time.perf_counter() - began:.2f} s")
    # the target is of "a 12x12 level": ten of them, 25 stops each (design seeds 0 to 9), every
    # member with the parameters of the fit's check, one timing each
    levels = twelve_by_twelve()
    for member, values in KNOWN:
        player = Player.of(member, **values)
        times = []
        for one in levels:
            began = time.perf_counter()
            model.play(one, player)
            times.append(1000 * (time.perf_counter() - began))
        print(f"speed: the {member} player ({'solved exactly' if player.exact else 'played out'}) on "
              f"ten 12x12 levels of 25 stops: median {float(np.median(times)):.1f} ms, the most "
              f"{max(times):.1f} ms")
    from designer.caves.design import CaveRequest
    from designer.caves.design import design as design_cave
    from designer.caves.cave_analysis import played
    from designer.ops.caves import read_cave

    cave = design_cave(CaveRequest(read_cave("examples/caves/ice-path.txt"), min_stops=80), seed=0).cave
    began = time.perf_counter()
    figures = played(cave)
    print(f"speed: the Ice Path cave ({figures.states:,} states of the chain): {time.perf_counter() - began:.2f} s")
    pack = small_pack(12)
    text = write(playtest_model.simulated_log(pack, Player(2.0, 1.5), 10_000, seed=4))
    began = time.perf_counter()
    found = playtests.replay([("sim", parse(text, "sim"))], pack)
    read_seconds = time.perf_counter() - began
    began = time.perf_counter()
    playtest_fit.fit(found, pack)
    print(f"speed: 10,000 attempts ({text.count(chr(10)):,} lines): {read_seconds:.2f} s to read and "
          f"replay; the family's fit of them (every member compared, the winner fitted): "
          f"{time.perf_counter() - began:.2f} s")


def twelve_by_twelve():
    """The ten 12x12 levels of 25 stops the speed, controls and best parts play (design seeds 0
    to 9)."""
    from designer.core.request import LayoutRequest
    from designer.search.design import design

    return [design(LayoutRequest(min_stops=25, first=True), seed=seed).level for seed in range(10)]


def played_out_members():
    """Each member of the family that is played out (not solved exactly), with the parameters
    of the fit's check: (member, player)."""
    from designer.core.players import Player

    players = [(member, Player.of(member, **values)) for member, values in KNOWN]
    return [(member, player) for member, player in players if not player.exact]


def guessed_runs(level, player, counted_runs: int, runs: int):
    """``player``'s chain on ``level`` and its tables, then ``runs`` runs of it with its two
    guesses (the twin's exact moves left, and the chain ``counted_runs`` runs walked, as
    counted), as ``designer.analysis.player_runs.played`` guesses: the chain, the tables, each
    run's moves, its two controls, and the two guesses."""
    from designer.analysis import player as model
    from designer.analysis import player_controls, player_runs
    from designer.core.items import state_table

    chain = model.walked_chain(state_table(level), player, level.height)
    tabled = player_runs.tables(chain)
    n = tabled[0]
    exact = player_controls.twin_guess(chain)
    counts = np.zeros(30 * n)
    player_runs._runs(chain, tabled, player, counted_runs, 1, np.zeros(n), guesses=[exact], counts=counts)
    counted = player_controls.counted_guess(tabled, counts, chain.start_row - 4 * n, exact)
    moves, _, control = player_runs._runs(chain, tabled, player, runs, 2, np.zeros(n), guesses=[exact, counted])
    return chain, tabled, moves, control, (exact, counted)


def controls_part() -> None:
    """How much the controls cut the spread of a run's moves (designer.analysis.player_controls):
    each member played out, on the ten 12x12 levels of the speed part, 500 runs counted for the
    second guess, then 4,000 runs: the variance of their moves over that of their moves less the
    fitted controls; and the runs ``played`` took."""
    from designer.analysis import player as model
    from designer.analysis import player_controls

    levels = twelve_by_twelve()
    for member, player in played_out_members():
        ratios, runs = [], []
        for level in levels:
            _, _, moves, control, _ = guessed_runs(level, player, 500, 4000)
            plain = player_controls.controlled(moves, control[:, :0])[1]
            ratios.append(plain / player_controls.controlled(moves, control)[1])
            runs.append(model.play(level, player).runs)
        print(f"controls: the {member} player on ten 12x12 levels: the variance of a run's moves cut "
              f"{min(ratios):.1f} to {max(ratios):.1f} times (median {float(np.median(ratios)):.1f}); "
              f"played out in {min(runs):,} to {max(runs):,} runs (median {int(np.median(runs)):,})")


def best_part() -> None:
    """How much the best guess over (stop, last move) adds to the two guesses, as ``played`` fits
    it (designer.analysis.player_controls.best_guess): each member played out, on the ten 12x12
    levels of the speed part, 250 runs counted for the second guess, 500 runs whose basis fits
    the best guess (from the counted one), then 3,000 other runs: the variance of their moves
    over that of their moves less the fitted controls, with the twin's and the counted guesses,
    and with the best and the twin's."""
    from designer.analysis import player_controls, player_runs

    levels = twelve_by_twelve()
    for member, player in played_out_members():
        two, best = [], []
        for level in levels:
            chain, tabled, moves, control, (twin, counted) = guessed_runs(level, player, 250, 3000)
            n = tabled[0]
            basis = np.zeros((500, 5 * n))
            fitted = player_runs._runs(chain, tabled, player, 500, 3, np.zeros(n), basis=basis)[0]
            guess = player_controls.best_guess(basis, fitted, counted)
            _, _, with_best = player_runs._runs(chain, tabled, player, 3000, 2, np.zeros(n), guesses=[guess, twin])
            plain = player_controls.controlled(moves, control[:, :0])[1]
            two.append(plain / player_controls.controlled(moves, control)[1])
            best.append(plain / player_controls.controlled(moves, with_best)[1])
        gain = np.array(best) / np.array(two)
        print(f"best: the {member} player on ten 12x12 levels: the two guesses cut the variance "
              f"{min(two):.1f} to {max(two):.1f} times (median {float(np.median(two)):.1f}), the best "
              f"guess beside the twin's {min(best):.1f} to {max(best):.1f} "
              f"(median {float(np.median(best)):.1f}): {gain.min():.2f} to {gain.max():.2f} times "
              f"fewer runs (median {float(np.median(gain)):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--glissade", help="glissade's levels.json")
    parser.add_argument("--only", default=",".join(PARTS))
    parser.add_argument("--levels", type=int, default=50)
    args = parser.parse_args()
    parts = args.only.split(",")
    if "glissade" in parts and args.glissade:
        glissade_part(args.glissade)
    if "exact" in parts:
        exact_part(args.levels)
    if "fit" in parts:
        fit_part()
    if "family" in parts:
        family_part()
    if "caves" in parts:
        caves_part()
    if "speed" in parts:
        speed_part()
    if "controls" in parts:
        controls_part()
    if "best" in parts:
        best_part()



if __name__ == "__main__":
    main()
