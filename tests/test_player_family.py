"""The family of players (designer.core.players): its player files, its runs against the
exact chain and against an independent reading of a player with memory, the compiled kernel
against its twin, the exact fit, and ``playtest --fit`` choosing a member."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest

import other_players
from conftest import one_error_line
from designer.analysis import player as model
from designer.analysis import player_runs
from designer.analysis.solver import solve
from designer.core.players import MEMBERS, Player
from designer.cli import main
from designer.core import kernels
from designer.core.errors import DesignerError
from designer.core.items import state_table
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.formats.playtest_log import write
from designer.search.design import design
from designer.studies import playtest_fit, playtest_model, playtests
from designer.studies.playtest_choices import choices_of

EXPLORER = Player(2.0, 1.5, memory=1.0, foresight=1, lapse=0.2, member="explorer")
CAREFUL = Player(2.0, 1.0, foresight=2, lapse=0.15, member="careful")
IMPATIENT = Player(3.0, 1.0, memory=1.5, lapse=0.1, patience=20.0, member="impatient")
SEEKER = Player.of("seeker", skill=2.0, memory=1.0, foresight=2, lapse=0.15, patience=10.0)
KNOWING = Player.of("knowing", skill=2.0, back_aversion=1.0, route=2.0, lapse=0.15)
FOLLOWER = Player.of("follower", skill=2.0, back_aversion=1.0, turn=1.5, lapse=0.2, notice=0.6)
TINKERER = Player.of("tinkerer", skill=2.0, back_aversion=1.0, variety=1.5, lapse=0.15)
SMALL = Level.from_rows(["#######", "#..#.G#", "#.....#", "#.#...#", "#...#.#", "#S#####"])


@pytest.fixture(scope="module")
def levels():
    """Twelve small levels of 4 to 9 stops (the pack of docs/player_study.py)."""
    return [(f"l{k}", design(LayoutRequest(height=9, width=9, min_stops=4 + k // 2, first=True),
                             seed=k).level) for k in range(12)]


def test_each_member_prints_and_reads_back_and_an_old_file_is_the_simple_player(tmp_path):
    from designer.formats.player_file import read_player

    for player in (Player(), EXPLORER, CAREFUL, IMPATIENT, SEEKER, KNOWING, FOLLOWER, TINKERER):
        path = tmp_path / f"{player.member}.json"
        path.write_text(json.dumps(player.to_json()))
        assert read_player(str(path)) == player
        assert set(json.loads(path.read_text())) == {"format", "member", *MEMBERS[player.member]}
        assert len(MEMBERS[player.member]) <= 5
    old = tmp_path / "old.json"  # a player file of issue 50: no member
    old.write_text('{"format": "ice-designer player 1", "skill": 2.5, "back_aversion": 0.5, "fit": {}}')
    assert read_player(str(old)) == Player(2.5, 0.5)
    before = tmp_path / "follower.json"  # a follower's file from before the notice: always notices
    before.write_text('{"format": "ice-designer player 1", "member": "follower", "skill": 2, "back_aversion": 1, '
                      '"turn": 1.5, "lapse": 0.2}')
    assert read_player(str(before)) == replace(FOLLOWER, notice=1.0)


@pytest.mark.parametrize("text,said", [
    ('{"format": "ice-designer player 1", "member": "wizard", "skill": 1}', "unknown member 'wizard'"),
    ('{"format": "ice-designer player 1", "member": 3}', "unknown member 3"),
    ('{"format": "ice-designer player 1", "member": "careful", "skill": 1, "back_aversion": 0, "foresight": 9, '
     '"lapse": 0.1}', "foresight must lie in 0..3"),
    ('{"format": "ice-designer player 1", "member": "careful", "skill": 1, "back_aversion": 0, "foresight": 1.5, '
     '"lapse": 0.1}', "foresight must be a whole number of moves, not 1.5"),
    ('{"format": "ice-designer player 1", "member": "careful", "skill": 1, "back_aversion": 0, "foresight": 1, '
     '"lapse": 1.5}', "lapse must lie in 0..1"),
    ('{"format": "ice-designer player 1", "member": "impatient", "skill": 1, "back_aversion": 0, "memory": 1, '
     '"lapse": 0, "patience": -2}', "patience must lie in 0..10000"),
    ('{"format": "ice-designer player 1", "member": "explorer", "skill": 1, "back_aversion": 0, "memory": NaN, '
     '"foresight": 0, "lapse": 0}', "NaN is not a number"),
    ('{"format": "ice-designer player 1", "member": "explorer", "skill": 1, "back_aversion": 0, "foresight": 0, '
     '"lapse": 0}', "gives no memory (the explorer player's parameters: skill, back_aversion, memory"),
    ('{"format": "ice-designer player 1", "member": "follower", "skill": 1, "back_aversion": 0, "turn": 1, '
     '"lapse": 0, "notice": 1.2}', "notice must lie in 0..1"),
    ('{"format": "ice-designer player 1", "member": "careful", "skill": 1, "back_aversion": 0, "foresight": 1, '
     '"lapse": 0, "notice": 0.5}', "a field 'notice' that the careful player has not"),
    ('{"format": "ice-designer player 1", "skill": 1, "back_aversion": 0, "memory": 2}',
     "a field 'memory' that the simple player has not"),
])
def test_a_player_file_out_of_the_family_is_refused_in_one_line(text, said, tmp_path, capsys):
    (tmp_path / "level.txt").write_text("\n".join(SMALL.rows()) + "\n")
    (tmp_path / "bad.json").write_text(text)
    assert main(["analyze", str(tmp_path / "level.txt"), "--player", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and said in err, err
    with pytest.raises(DesignerError, match="the simple player has no memory"):
        Player(memory=1.0)


@pytest.mark.parametrize("implementation", kernels.available())
@pytest.mark.parametrize("player", [Player(), Player(0.5, -1.0), CAREFUL, FOLLOWER],
                         ids=["default", "averse", "careful", "follower"])
def test_runs_of_a_player_with_an_exact_chain_land_within_2_percent_of_it(player, implementation, levels):
    """The runs at the default number (as many as the interval asks) against the exact solution,
    on levels of every size of the pack (the numpy twin, slower, on the small one): expected moves within
    2%, and each figure within a few of its intervals."""
    some = levels[::3] if implementation == "compiled" else []
    with kernels.use(implementation):
        for _, level in some + [("small", SMALL)]:
            table = state_table(level)
            exact = model.solve_chain(model.chain(table, player, height=level.height), 5)
            run = player_runs.played(model.walked_chain(table, player, level.height), player, 5, seed=1)
            assert run.runs >= player_runs.LEAST_RUNS and run.interval is not None
            assert run.expected_moves == pytest.approx(exact.expected_moves, rel=0.02)
            assert abs(run.expected_moves - exact.expected_moves) <= 4 * run.interval["expected_moves"]
            for mark, chance in exact.within.items():
                assert abs(run.within[mark] - chance) <= 4 * run.interval[f"within {mark}"] + 1e-9
            hot = exact.hottest(1)[0]
            assert run.rests[hot[0]] == pytest.approx(hot[1], rel=0.05)


def remembering_oracle(level: Level, player: Player) -> float:
    """A player with memory, solved exactly over (stop, last move, stops seen this attempt, moves
    made, moves since a new stop) by value iteration, from the rules as docs/spec.md words them
    (no chain, no kernel): the expected moves to the exit. A player who gives up does so after k
    moves without a new stop with chance 1 / (1 + exp(patience - k)), once the exit in sight is
    not taken; past patience + 15 such moves the chance is held (it is then 1 within 3e-7)."""
    table = state_table(level)
    goal, side = table.goal, max(level.height, level.width)
    gr, gc = table.cell(goal)
    dist = {}

    def distance(state):
        if state not in dist:
            r, c = table.cell(state)
            dist[state] = abs(r - gr) + abs(c - gc)
        return dist[state]

    def moves(state):
        return {d: int(table.dest[d, state]) for d in range(4) if table.dest[d, state] != -1}

    alive = model.alive_states(table)
    back = {0: 1, 1: 0, 2: 3, 3: 2}
    far = other_players._to_exit(table)  # the fewest moves to the exit, by its own search

    def way(state, end):  # the moves taken off the fewest to the exit, -1 to 1
        return max(-1, min(1, far[state] - far[end])) if end in far else -1

    def turned(last, d):  # 1 right of the last move, -1 left of it
        if last is None:
            return 0
        return 1 if d == other_players.RIGHT_OF[last] else -1 if d == back[other_players.RIGHT_OF[last]] else 0

    def chances(state, last, seen, tried):
        out = moves(state)
        weight = {d: math.exp(player.skill * ((distance(state) - distance(end)) / side
                                              - player.back_aversion * (last is not None and d == back[last]))
                              + player.memory * (end not in seen and end != goal) + player.route * way(state, end)
                              + player.turn * turned(last, d) + player.variety * ((state, d) not in tried))
                  for d, end in out.items()}
        total = sum(weight.values())
        usual = {d: (1 - player.lapse) * w / total + player.lapse / len(out) for d, w in weight.items()}
        onto = sum(end == goal for end in out.values())
        if onto:  # the exit in sight: taken when noticed, else a move as any other
            return {d: player.notice * (end == goal) / onto + (1 - player.notice) * usual[d] for d, end in out.items()}
        return usual

    def made(tried, state, d):  # the moves made from each stop, kept for a player with variety
        return tried | {(state, d)} if player.variety else tried

    held = 0 if player.patience is None else math.ceil(player.patience) + 15

    def stale_after(stale, seen, end):  # the moves since a new stop, once the move ends on `end`
        return 0 if end not in seen or player.patience is None else min(held, stale + 1)

    def quits(stale):
        return 0.0 if player.patience is None or stale == 0 else 1 / (1 + math.exp(player.patience - stale))

    start = (table.start, None, frozenset([table.start]), frozenset(), 0)
    value, todo, order = {}, [start], []
    while todo:  # every (stop, last, seen, moves made, moves since a new stop) a player can be in
        key = todo.pop()
        if key in value:
            continue
        value[key] = 0.0
        order.append(key)
        state, last, seen, tried, stale = key
        for d, end in moves(state).items():
            if end != goal and alive[end]:
                todo.append((end, d, seen | {end}, made(tried, state, d), stale_after(stale, seen, end)))
    for _ in range(20000):
        change = 0.0
        for key in order:
            state, last, seen, tried, stale = key
            out = moves(state)
            sighted = player.notice if goal in out.values() else 0.0
            rest = 0.0  # the moves after this one, over the chances (the exit's: none)
            for d, p in chances(state, last, seen, tried).items():
                end = out[d]
                if end != goal:
                    after = (end, d, seen | {end}, made(tried, state, d), stale_after(stale, seen, end))
                    rest += p * (value[start] if not alive[end] else value[after])
            # the exit in sight taken (one move); else giving up (no move); else a move
            wander = rest / (1 - sighted) if sighted < 1 else 0.0
            quit = quits(stale)
            new = sighted + (1 - sighted) * (quit * value[start] + (1 - quit) * (1 + wander))
            change = max(change, abs(new - value[key]))
            value[key] = new
        if change < 1e-9:
            break
    return value[start]


@pytest.mark.parametrize("implementation", kernels.available())
def test_a_player_with_memory_is_played_as_an_exact_reading_of_its_rules_has_it(implementation):
    level = Level.from_rows(["#######", "#..#.G#", "#.....#", "#...#.#", "#S#####"])
    table = state_table(level)
    for player in (replace(EXPLORER, foresight=0), Player(1.0, 0.0, memory=-1.5, lapse=0.3, member="explorer")):
        exact = remembering_oracle(level, player)
        with kernels.use(implementation):
            run = player_runs.played(model.walked_chain(table, player, level.height), player, 5, seed=2)
        assert abs(run.expected_moves - exact) <= 4 * run.interval["expected_moves"], (exact, run)


@pytest.mark.parametrize("implementation", kernels.available())
def test_a_player_with_memory_of_its_moves_is_played_as_an_exact_reading_of_its_rules_has_it(implementation):
    """The moves made from each stop kept per attempt (the oracle's state holds them: a smaller
    level, where the variety moves the expected moves by 6%), in the kernel and in one run step by
    step (``play_out``, the simulated logs' player)."""
    level = Level.from_rows(["#######", "#..#.G#", "#.....#", "#S#####"])
    table = state_table(level)
    for player in (TINKERER, replace(TINKERER, variety=-1.0)):
        exact = remembering_oracle(level, player)
        walked = model.walked_chain(table, player, level.height)
        with kernels.use(implementation):
            run = player_runs.played(walked, player, 5, seed=2)
        assert abs(run.expected_moves - exact) <= 4 * run.interval["expected_moves"], (exact, run)
    rng = np.random.default_rng(3)
    lengths = [sum(step is not None for step in player_runs.play_out(walked, rng, player=player)) for _ in range(3000)]
    assert abs(np.mean(lengths) - exact) <= 4 * 1.96 * np.std(lengths) / math.sqrt(len(lengths)), (exact, np.mean(lengths))


@pytest.mark.parametrize("player", [KNOWING, FOLLOWER, Player.of("follower", turn=-2.0),
                                    Player.of("follower", skill=1.0, turn=1.0, notice=0.0)],
                         ids=["knowing", "follower", "left-handed", "walking-past-the-exit"])
def test_a_player_who_knows_the_way_or_keeps_a_hand_on_a_wall_is_solved_as_its_rules_say(player):
    """The route, the turn and the notice, read from the rules (a search of the player's own for
    the fewest moves, the right of each move as the tests' wall follower has it, the exit in sight
    taken when noticed): the exact chain gives the
    expected moves an independent value iteration gives."""
    level = Level.from_rows(["#######", "#..#.G#", "#.....#", "#...#.#", "#S#####"])
    assert player.exact
    exact = model.solve_chain(model.chain(state_table(level), player, height=level.height), 1)
    assert exact.expected_moves == pytest.approx(remembering_oracle(level, player), rel=1e-6)


def test_a_player_who_knows_the_way_plays_the_solution_and_one_who_does_not_wanders():
    """A route weighed far above all else is the solution played: par moves, exactly."""
    level = design(LayoutRequest(height=9, width=9, min_stops=8, first=True), seed=4).level
    par = len(solve(level).moves)
    sure = Player.of("knowing", route=40.0)
    assert model.play(level, sure).expected_moves == pytest.approx(par, rel=1e-6)
    assert model.play(level, KNOWING).expected_moves > par


def test_the_same_seed_gives_the_same_figures_and_another_seed_others_within_their_intervals():
    one, again = model.play(SMALL, EXPLORER, seed=5), model.play(SMALL, EXPLORER, seed=5)
    assert one == again and one.to_json() == again.to_json()
    other = model.play(SMALL, EXPLORER, seed=6)
    assert other.expected_moves != one.expected_moves
    assert abs(other.expected_moves - one.expected_moves) <= 3 * one.interval["expected_moves"]


def test_the_kernel_refuses_a_table_it_would_read_outside_of():
    from designer.core.kernel_jobs import PlayerJob

    n = 2
    good = dict(n=n, next=np.array([1, -3, -3, -3, -1, 0, -3, -3], np.int32), weight=np.ones(20 * n),
                sight=np.array([4, 0], np.uint8), give_up=np.zeros(1), novelty=1.0, variety=1.0, lapse=0.0, notice=1.0, start=0, runs=3,
                cap=100, seed=1, moves=np.zeros(3, np.int64), restarts=np.zeros(3, np.int64), visits=np.zeros(n))
    for implementation in kernels.available():
        with kernels.use(implementation):
            kernels.player_runs(PlayerJob(**good))
    assert good["moves"].tolist() == [2, 2, 2]
    for change in ({"next": np.array([5, -3, -3, -3, -1, 0, -3, -3], np.int32)},
                   {"next": np.array([-3, -3, -3, -3, -1, 0, -3, -3], np.int32)},
                   {"sight": np.array([0, 0], np.uint8)}, {"weight": -np.ones(20 * n)},
                   {"give_up": np.array([1.5])}, {"start": 2}, {"moves": np.zeros(2, np.int64)},
                   {"lapse": 2.0}, {"novelty": math.inf}, {"notice": -0.5}, {"variety": -1.0},
                   {"weight": np.tile([0.0, 1, 1, 1], 5 * n)}):  # stop 0's one open move weighs 0
        with pytest.raises(ValueError):
            kernels.player_runs(PlayerJob(**{**good, **change}))


@pytest.mark.parametrize("true,attempts", [(EXPLORER, 2000), (SEEKER, 2000), (KNOWING, 2000), (FOLLOWER, 500),
                                          (TINKERER, 2000)],
                         ids=["explorer", "seeker", "knowing", "follower", "tinkerer"])
def test_a_fit_recovers_each_parameter_of_a_member_within_10_percent(true, attempts, levels):
    """2,000 attempts played by a member with known parameters, written as the page writes a log
    and read back: the fit of that member gives each parameter within 10%. Between them every
    parameter (``docs/player_study.py --only fit`` checks each member at 2,000; the follower,
    who circles, makes 977,000 choices in 2,000 attempts, 5 times as many as any other member,
    so 500 of its attempts hold more choices than 2,000 of theirs)."""
    from designer.formats.playtest_log import parse

    log = parse(write(playtest_model.simulated_log(levels, true, attempts, seed=1)), "sim")
    found = playtests.replay([("sim", log)], levels)
    fitted = playtest_fit.fit_member(true.member, choices_of(found, levels))
    for name in MEMBERS[true.member]:
        assert getattr(fitted, name) == pytest.approx(getattr(true, name), rel=0.1), name


def test_playtest_fit_compares_the_members_and_writes_the_winner(levels, tmp_path, capsys):
    folder = tmp_path / "pack"
    folder.mkdir()
    for k, (_, level) in enumerate(levels[:4]):
        (folder / f"level-{k + 1:03d}.txt").write_text("\n".join(level.rows()) + "\n")
    log = tmp_path / "log.jsonl"
    from designer.ops.playtests import pack_levels

    log.write_text(write(playtest_model.simulated_log(pack_levels(str(folder)), EXPLORER, 800, seed=3)))
    fitted = tmp_path / "player.json"
    assert main(["playtest", str(log), "--pack", str(folder), "--fit", str(fitted)]) == 0
    out = capsys.readouterr().out
    assert "fit: the explorer player (skill " in out and "explorer " in out and "(won)" in out
    assert "fit on level-001: " in out and "(the simple player " in out
    written = json.loads(fitted.read_text())
    assert written["member"] == "explorer" and written["fit"]["held_out"]["explorer"] > written["fit"]["held_out"]["simple"]
    assert main(["analyze", str(folder / "level-001.txt"), "--player", str(fitted)]) == 0
    assert "played out: " in capsys.readouterr().out
    simple = tmp_path / "simple.json"
    assert main(["playtest", str(log), "--pack", str(folder), "--fit", str(simple), "--member", "simple"]) == 0
    assert json.loads(simple.read_text())["member"] == "simple" and "held_out" not in json.loads(simple.read_text())["fit"]
    capsys.readouterr()
    for args, said in ((["--fit", str(tmp_path / "x.json"), "--member", "wizard"], "--member must name a member"),
                       (["--member", "simple"], "--member says which member --fit fits")):
        assert main(["playtest", str(log), "--pack", str(folder), *args]) == 2
        err = capsys.readouterr().err
        assert one_error_line(err) and said in err


@pytest.mark.parametrize("kind", ["planner", "wall", "lapse", "seeker", "greedy"])
def test_the_family_explains_players_of_other_kinds_better_than_the_simple_player(kind, levels):
    """The players written from the rules alone (tests/other_player.py, tests/other_players.py):
    fitted on half the attempts, the family's winner explains the other half's choices better
    than the simple player does."""
    import other_players
    from other_player import planner_log

    player = {"planner": planner_log, "wall": other_players.wall_log, "lapse": other_players.lapse_log,
              "seeker": other_players.seeker_log, "greedy": other_players.greedy_log}[kind]
    pack = levels[:6]
    log = other_players.logs(pack, player, 20, seed=5)
    data = choices_of(playtests.replay([(kind, log)], pack), pack)
    held = playtest_fit.compare(data)
    best = playtest_fit.winner(held)
    assert best != "simple" and held[best] > held["simple"], held
    if kind in FOUND_BY:  # a member whose rule is that player's wins, and finds its rule
        member, rule = FOUND_BY[kind]
        assert best == member, held
        assert rule(playtest_fit.fit_member(member, data)), playtest_fit.fit_member(member, data)


#: The players whose rule a member has: the member that wins on their logs, and what it finds.
FOUND_BY = {
    # right, then on, and past the exit unless that is where the rule goes
    "wall": ("follower", lambda p: p.turn > 1 and abs(p.lapse - 0.25) < 0.05 and p.notice < 0.2),
    "lapse": ("knowing", lambda p: p.route > 1 and abs(p.lapse - 0.3) < 0.05),  # the way, 30% off
    "greedy": ("tinkerer", lambda p: p.variety > 1 and p.skill > 1),  # nearest the exit, another way
}


def test_the_player_who_knows_the_solution_is_ranked_by_the_member_that_knows_the_way():
    """Issue 63's check on one pack (docs/player_study.py --only family runs all twelve; the wall
    follower's takes 15 s, and the test above has its member win and find its rule): fitted on
    10 levels' logs, the winner ranks the player's other 10 at 0.85 or more, where the simple
    player ranked them +0.51."""
    from other_player import ranked_by_the_model

    pack = [(f"l{k}", design(LayoutRequest(height=9, width=9, min_stops=4 + k // 2, first=True),
                             seed=200 + k).level) for k in range(20)]
    got = ranked_by_the_model(pack, seed=3, player=other_players.lapse_log)
    assert got["fitted"].member == "knowing" and got["fitted_rho"] >= 0.85, got


def test_the_winner_needs_a_margin_to_take_more_parameters():
    assert playtest_fit.winner({name: -0.5 for name in MEMBERS}) == "simple"
    assert playtest_fit.winner({"simple": -0.5, "careful": -0.49, "explorer": -0.4895, "impatient": -0.6}) == "careful"


@pytest.mark.slow
def test_caves_of_3_5_and_8_rooms_from_one_request_rise_in_predicted_difficulty():
    """Issue 63: every cave scored 10, the scale's top (29,479 expected moves for 8 rooms). The
    scale goes on past 10, and caves of 3, 5 and 8 rooms of the same request rise through it, each
    in the band its rooms aim at."""
    from designer.caves.cave_analysis import played
    from designer.ops.caves import CaveOptions, design as design_cave

    from designer.caves.felt import aimed

    felt = []
    for rooms in (3, 5, 8):
        made = design_cave(CaveOptions(rooms=rooms, keys=1, seed=1, time_limit=60))
        felt.append(played(made.design.cave).difficulty)
        low, high = aimed(rooms)  # a cave from nothing aims at a band that rises with its rooms
        assert low <= felt[-1] <= high and made.design.record["felt"]["in_band"]
    assert felt == sorted(set(felt)), felt
    assert model.scale(3e4) == 11.1 and model.scale(1e4) == 10.0


def test_a_request_keeps_a_member_of_the_family_and_reads_an_old_pair():
    """``make --player FILE`` keeps the player in the level's record, ``make --from`` reads it back:
    a member as its player file holds it, the simple player as issue 50's pair."""
    from designer.core.request import LayoutRequest
    from designer.search.felt import player_of

    for player in (EXPLORER, Player(2.5, 0.5)):
        request = LayoutRequest(difficulty=4.0, player=player.as_request())
        again = LayoutRequest.from_json(json.loads(json.dumps(request.to_json())))
        assert again == request and player_of(again) == player
    assert request.to_json()["player"] == [2.5, 0.5]
    assert LayoutRequest(player=EXPLORER.as_request()).to_json()["player"]["member"] == "explorer"
    with pytest.raises(DesignerError, match="the request's 'player' must be"):
        LayoutRequest.from_json({**LayoutRequest().to_json(), "player": {"member": "wizard"}})


def test_the_studios_live_figures_and_playtests_take_the_player_they_are_given(tmp_path, capsys):
    """``designer studio --player FILE``: the live figures' predicted difficulty and a studio
    playtest's predictions are that player's (a bad file: one line, status 2, nothing served)."""
    from designer.ops.playtests import Live
    from designer.ops.sketch_figures import figures

    rows, who = SMALL.rows(), replace(EXPLORER, back_aversion=0.5, lapse=0.1)
    assert model.play(SMALL, who).difficulty != model.play(SMALL).difficulty  # the check can fail
    assert figures(rows, who)["routes"][0]["difficulty"] == model.play(SMALL, who).difficulty
    assert figures(rows)["routes"][0]["difficulty"] == model.play(SMALL).difficulty
    live = Live([("one", SMALL)], sink="/lines", player=EXPLORER)
    assert live.found().player == EXPLORER and live.found().compared[0]["predicted_moves"] == pytest.approx(
        model.play(SMALL, EXPLORER).expected_moves)
    (tmp_path / "bad.json").write_text('{"format": "ice-designer player 1", "member": "wizard"}')
    assert main(["studio", "--no-browser", "--player", str(tmp_path / "bad.json")]) == 2
    captured = capsys.readouterr()
    assert one_error_line(captured.err) and "unknown member 'wizard'" in captured.err and not captured.out


@pytest.mark.parametrize("implementation", kernels.available())
def test_a_player_who_gives_up_is_played_as_an_exact_reading_of_its_rules_has_it(implementation):
    """Giving up, the one rule the readings above do not reach: players of little patience, on a
    level where they give up again and again, against the oracle that keeps the moves since a
    new stop."""
    level = Level.from_rows(["#######", "#..#.G#", "#.....#", "#S#####"])
    table = state_table(level)
    for player in (replace(SEEKER, patience=1.5, foresight=0), replace(IMPATIENT, patience=3.0),
                   Player(1.0, 0.0, memory=0.5, lapse=0.3, patience=0.5, member="impatient")):
        exact = remembering_oracle(level, player)
        with kernels.use(implementation):
            run = player_runs.played(model.walked_chain(table, player, level.height), player, 5, seed=4)
        assert run.expected_restarts > 0.2
        assert abs(run.expected_moves - exact) <= 4 * run.interval["expected_moves"], (exact, run)
