"""A different player, written here and nowhere else, to check the model of a player against:
a depth-limited planner with noise and a memory of the stops it has seen (docs/player.md).

It is no softmax over what a stop shows: from each stop it looks ``depth`` moves ahead and takes
the move whose best look-ahead ends nearest the exit (Manhattan distance), preferring stops it has
not seen, and with chance ``noise`` a random move instead. Into a trap, it restarts.
"""

from __future__ import annotations

import numpy as np


def planner_moves(level, rng, depth: int = 2, noise: float = 0.3) -> int:
    """The moves of one play of the planner on ``level``, restarts included (``planner_log``)."""
    from designer.core.items import state_table

    return sum(event.kind == "move" for event in planner_log(level, state_table(level), 0, "p", rng, depth, noise))


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


def planner_log(level, table, k, visit, rng, depth=2, noise=0.3):
    """One play of the planner on ``level`` (its states ``table``, level ``k`` of the log's pack),
    as the page would log it: from each stop it looks ``depth`` moves ahead and takes the move
    whose best look-ahead ends nearest the exit (Manhattan distance), preferring stops it has not
    seen; with chance ``noise`` a random move instead. Into a trap, it restarts."""
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
    # the page logs a finish only on the exit (the replay checks it): a play cut off at 5,000 moves left
    out.append(Event(visit, t, k, attempt, "finish", moves=made) if state == table.goal else
               Event(visit, t, k, attempt, "leave"))
    return out




def ranked_by_the_model(pack: list, *, seed: int = 3, plays: int = 60, player=None) -> dict:
    """The planner (or ``player``, a log of one play as ``planner_log`` gives it: one of
    ``other_players.py``) plays every level of ``pack`` (20 levels: (name, level)) ``plays``
    times; the family of players is fitted to its logged moves on the first half, and ranks the
    second half; Spearman's rho of that ranking (and of the default player's, and of par) against
    the player's median moves there (a play that never finished counting as more than any that
    did: ``other_players.median_moves``)."""
    from scipy.stats import spearmanr

    from designer.analysis import player as model
    from designer.studies import playtest_fit, playtests
    from designer.analysis.solver import solve
    from designer.core.items import state_table
    from designer.formats.playtest_log import Log, level_id, pack_id

    rng = np.random.default_rng(seed)
    half = len(pack) // 2
    if player is None:  # the planner, as measured since issue 50
        medians = [float(np.median([planner_moves(level, rng) for _ in range(plays)])) for _, level in pack[half:]]
    else:
        from other_players import logs, median_moves, play_counts

        counted = play_counts(logs(pack[half:], player, plays, seed + 1).events)
        medians = [median_moves(counted[k]) for k in range(len(pack) - half)]
    events, visit = [], 0
    for k, (_, level) in enumerate(pack[:half]):
        table = state_table(level)
        for _ in range(plays):
            visit += 1
            events += (player or planner_log)(level, table, k, f"p{visit}", rng)
    ids = [level_id(level.rows()) for _, level in pack[:half]]
    log = Log(pack_id(ids), tuple((name, ident) for (name, _), ident in zip(pack[:half], ids)), tuple(events))
    # the family's fit: every member compared on held-out attempts, the winner fitted on all
    fitted, _ = playtest_fit.fit(playtests.replay([("planner", log)], pack[:half]), pack[:half])
    held = [level for _, level in pack[half:]]
    return {"fitted": fitted,
            "fitted_rho": float(spearmanr(medians, [model.play(level, fitted).expected_moves for level in held])[0]),
            "default_rho": float(spearmanr(medians, [model.play(level).expected_moves for level in held])[0]),
            "par_rho": float(spearmanr(medians, [solve(level).stops for level in held])[0])}
