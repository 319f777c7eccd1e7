"""More players of other kinds, written here from the rules alone (issue 63, "Players written
for the tests"), beside the depth-2 planner of ``other_player.py``. None is a softmax over what
a stop shows:

- ``wall_log``: a **wall follower**. After each slide it turns right of the way it came if it can,
  else goes on, else turns left, else goes back; with chance ``noise`` a random move instead (a
  follower alone circles for ever). It gives up and restarts after ``patience`` moves.
- ``seeker_log``: a player as **issue 63 tells of one**: it plans two moves ahead, prefers stops
  it has not seen, slips at random, and restarts when nothing new turns up.
- ``lapse_log``: a player who **knows the solution and lapses**: from each stop it takes a move
  that brings the exit one move nearer (its fewest moves, by a search over the stops), and with
  chance ``lapse`` a random move instead. Into a trap, it restarts.
- ``greedy_log``: a **greedy player who tries another way**: it takes the move that ends nearest
  the exit as the level is drawn, among the moves it has not made from that stop this attempt
  (all of them once each is made), slips at random, and restarts after ``longest`` moves or
  into a trap.

Each returns one play as the page would log it (``designer.formats.playtest_log`` events), and
``play_counts`` what the player itself counted, for the replay to agree with.
"""

from __future__ import annotations

from collections import deque

import numpy as np

#: The way each move turns: u, d, l, r (``designer.core.rules`` order) to the move right of it,
#: and the move back.
RIGHT_OF = {0: 3, 3: 1, 1: 2, 2: 0}
BACK = {0: 1, 1: 0, 2: 3, 3: 2}
#: The most moves one play is logged for (the page's own cut is the player's leaving).
LONGEST = 3000


def _options(table, state):
    from designer.core.rules import NO_MOVE

    return [(d, int(table.dest[d, state])) for d in range(4) if table.dest[d, state] != NO_MOVE]


def _to_exit(table) -> dict:
    """Each stop's fewest moves to the exit (a breadth-first search backwards over the moves)."""
    back: dict[int, list[int]] = {}
    seen, todo = {table.start}, deque([table.start])
    while todo:  # the stops reached from the start, and each one's moves backwards
        state = todo.popleft()
        for _, end in _options(table, state):
            back.setdefault(end, []).append(state)
            if end not in seen:
                seen.add(end)
                todo.append(end)
    far, todo = {table.goal: 0}, deque([table.goal])
    while todo:
        state = todo.popleft()
        for before in back.get(state, ()):
            if before not in far:
                far[before] = far[state] + 1
                todo.append(before)
    return far


def _play(table, k, visit, choose, restart_when):
    """One play: ``choose(state, last, rng-free)`` picks each move, ``restart_when(state, made)``
    says when the attempt is given up."""
    from designer.formats.playtest_log import MOVES, Event

    out, attempt, t = [Event(visit, 0, k, 1, "start")], 1, 0
    state, last, made = table.start, None, 0
    while state != table.goal and t < LONGEST:
        d, end = choose(state, last)
        t += 1
        made += 1
        state, last = end, d
        out.append(Event(visit, t, k, attempt, "move", MOVES[d], table.cell(end)))
        if state != table.goal and restart_when(state, made):
            out.append(Event(visit, t, k, attempt, "restart"))
            attempt += 1
            made, state, last = 0, table.start, None
            out.append(Event(visit, t, k, attempt, "start"))
    out.append(Event(visit, t, k, attempt, "finish", moves=made) if state == table.goal else
               Event(visit, t, k, attempt, "leave"))
    return out


def wall_log(level, table, k, visit, rng, noise: float = 0.25, patience: int = 60):
    """One play of the wall follower (see the module docstring)."""

    def choose(state, last):
        options = dict(_options(table, state))
        if last is None or rng.random() < noise:
            d = list(options)[int(rng.integers(len(options)))]
            return d, options[d]
        right = RIGHT_OF[last]
        for d in (right, last, BACK[right], BACK[last]):
            if d in options:
                return d, options[d]
        raise AssertionError("a stop the player rests on offers a move")

    far = _to_exit(table)
    return _play(table, k, visit, choose, lambda state, made: made >= patience or state not in far)


def greedy_log(level, table, k, visit, rng, slip: float = 0.2, longest: int = 100):
    """One play of the greedy player who tries another way (see the module docstring)."""
    goal = table.cell(table.goal)
    made: set = set()  # the moves made from each stop this attempt

    def distance(state):
        r, c = table.cell(state)
        return abs(r - goal[0]) + abs(c - goal[1])

    def choose(state, last):
        options = _options(table, state)
        if last is None and state == table.start:  # a new attempt (a first move is made from the start)
            made.clear()
        if rng.random() < slip:
            d, end = options[int(rng.integers(len(options)))]
        else:
            fresh = [(d, end) for d, end in options if (state, d) not in made] or options
            best = min(distance(end) for _, end in fresh)
            nearest = [(d, end) for d, end in fresh if distance(end) == best]
            d, end = nearest[int(rng.integers(len(nearest)))]
        made.add((state, d))
        return d, end

    far = _to_exit(table)
    return _play(table, k, visit, choose, lambda state, moves: moves >= longest or state not in far)


def lapse_log(level, table, k, visit, rng, lapse: float = 0.3):
    """One play of the player who knows the solution and lapses (see the module docstring)."""
    far = _to_exit(table)

    def choose(state, last):
        options = _options(table, state)
        if rng.random() < lapse:
            return options[int(rng.integers(len(options)))]
        better = [(d, end) for d, end in options if far.get(end, -1) == far[state] - 1]
        return better[int(rng.integers(len(better)))]

    return _play(table, k, visit, choose, lambda state, made: state not in far)


def seeker_log(level, table, k, visit, rng, slip: float = 0.15, depth: int = 2, bored: int = 12):
    """One play of a player as issue 63 tells of one: it looks ``depth`` moves ahead and takes the
    move whose look-ahead ends nearest the exit (Manhattan distance), but first of all a move onto
    a stop it has not seen this attempt; with chance ``slip`` a random move instead; and it
    restarts once ``bored`` moves in a row brought nothing new. Into a trap, it restarts."""
    far = _to_exit(table)
    gr, gc = table.cell(table.goal)

    def near(state, left):
        if state == table.goal:
            return -1
        r, c = table.cell(state)
        best = abs(r - gr) + abs(c - gc)
        for _, end in (_options(table, state) if left else ()):
            best = min(best, near(end, left - 1))
        return best

    seen, stale = {table.start}, [0]

    def choose(state, last):
        options = _options(table, state)
        if rng.random() < slip:
            d, end = options[int(rng.integers(len(options)))]
        else:
            d, end = min(options, key=lambda o: (o[1] in seen, near(o[1], depth - 1), rng.random()))
        stale[0] = 0 if end not in seen else stale[0] + 1
        seen.add(end)
        return d, end

    def restart_when(state, made):
        if state not in far or stale[0] >= bored:
            seen.clear()
            seen.add(table.start)
            stale[0] = 0
            return True
        return False

    return _play(table, k, visit, choose, restart_when)


def play_counts(events) -> dict:
    """What a player counted of its own plays, per level: plays, plays finished, and the moves of
    each finished attempt and of every attempt to the first finish of each play."""
    found: dict = {}
    by_visit: dict = {}
    for event in events:
        by_visit.setdefault((event.visit, event.level), []).append(event)
    for (_, level), mine in by_visit.items():
        one = found.setdefault(level, {"plays": 0, "finished": 0, "moves": []})
        one["plays"] += 1
        if mine[-1].kind == "finish":
            one["finished"] += 1
            one["moves"].append(sum(e.kind == "move" for e in mine))
    return found


def median_moves(counted: dict) -> float:
    """The median moves of a level's plays (``play_counts``'s entry for it), a play that never
    finished counting as more than any that did (infinite): a level a player finishes once in 60
    plays is hard, whatever that one play took."""
    unfinished = [np.inf] * (counted["plays"] - counted["finished"])
    return float(np.median(counted["moves"] + unfinished))


def logs(pack, player, plays: int, seed: int):
    """A playtest log (``designer.formats.playtest_log.Log``) of ``plays`` plays of each level of
    ``pack`` ((name, level) pairs) by ``player`` (``wall_log`` or ``lapse_log``)."""
    from designer.core.items import state_table
    from designer.formats.playtest_log import Log, level_id, pack_id

    rng = np.random.default_rng(seed)
    events, visit = [], 0
    for k, (_, level) in enumerate(pack):
        table = state_table(level)
        for _ in range(plays):
            visit += 1
            events += player(level, table, k, f"v{visit}", rng)
    ids = [level_id(level.rows()) for _, level in pack]
    return Log(pack_id(ids), tuple((name, ident) for (name, _), ident in zip(pack, ids)), tuple(events))
