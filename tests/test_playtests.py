"""designer playtest: logs replayed against their pack, the figures per level, the fit of the model's
player, and the refusals (one line, status 2, nothing written). The page's own recording is
tested in a browser (tests/test_play.py)."""

import json
from dataclasses import replace

import pytest

from conftest import one_error_line
from designer.analysis import player as model
from designer.studies import playtest_fit, playtest_model, playtests
from designer.cli import main
from designer.core.errors import DesignerError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.formats.playtest_log import Event, Log, parse, write
from designer.ops.playtests import pack_levels
from designer.search.design import design


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    """Twelve small levels of 4 to 9 stops, as a pack folder."""
    folder = tmp_path_factory.mktemp("pack")
    for k in range(12):
        found = design(LayoutRequest(height=9, width=9, min_stops=4 + k // 2, first=True), seed=k)
        (folder / f"level-{k + 1:03d}.txt").write_text("\n".join(found.level.rows()) + "\n")
    return folder


def test_a_fit_recovers_the_player_that_made_the_logs(pack):
    levels = pack_levels(str(pack))
    true = model.Player(2.0, 1.5)
    log = playtest_model.simulated_log(levels, true, 2000, seed=1)
    found = playtests.replay([("sim", parse(write(log), "sim"))], levels)
    assert found.attempts == 2000 and sum(stats.players for stats in found.levels) == 2000
    fitted, info = playtest_fit.fit(found, levels, "simple")
    assert fitted.skill == pytest.approx(true.skill, rel=0.1)
    assert fitted.back_aversion == pytest.approx(true.back_aversion, rel=0.1)
    assert info["log_likelihood_per_choice"] > info["random_log_likelihood_per_choice"]


def test_playtest_prints_each_level_writes_a_report_and_a_player(pack, tmp_path, capsys):
    levels = pack_levels(str(pack))
    log = tmp_path / "sim.jsonl"
    log.write_text(write(playtest_model.simulated_log(levels[:3], model.Player(1.0, 1.0), 60, seed=2)))
    report, fitted = tmp_path / "report.html", tmp_path / "player.json"
    # a log of the first three levels of a pack of 12: another pack's id, but levels this pack holds
    assert main(["playtest", str(log), "--pack", str(pack), "-o", str(report), "--fit", str(fitted)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("level-001: 20 players, 100% finished; moves median ")
    assert out[3] == "level-004: no players" and out[12].startswith("fit: the ")
    assert out[13].startswith("held out (fitted on half the attempts, scored on the others): simple ")
    assert out[-1].startswith("fit on level-003: ")
    assert "where they restarted" in report.read_text() and 'class="curve"' in report.read_text()
    from designer.formats.player_file import read_player

    player = read_player(str(fitted))
    assert main(["analyze", str(pack / "level-001.txt"), "--player", str(fitted)]) == 0
    assert json.loads(fitted.read_text())["fit"]["levels"][0]["name"] == "level-001"
    assert player.skill != model.DEFAULT.skill
    # written files are never overwritten without --force
    assert main(["playtest", str(log), "--pack", str(pack), "-o", str(report)]) == 2


def bad_input(tmp_path, pack_folder, text: str | None = None, size: int | None = None) -> tuple[int, str]:
    log = tmp_path / "bad.jsonl"
    if size is not None:
        with open(log, "wb") as handle:
            handle.truncate(size)  # a sparse file: its size, without the gigabyte
    else:
        log.write_text(text)
    report = tmp_path / "report.html"
    return main(["playtest", str(log), "--pack", str(pack_folder), "-o", str(report)]), report


def test_bad_logs_are_refused_in_one_line(pack, tmp_path, capsys):
    levels = pack_levels(str(pack))
    good = write(playtest_model.simulated_log(levels[:2], model.Player(), 4, seed=3))
    lines = good.splitlines(keepends=True)
    moved = json.loads(lines[2])
    moved["at"] = [0, 0]  # a stop the rules do not give
    other = Level.from_rows(["#####", "#S.G#", "#####"])
    foreign = write(playtest_model.simulated_log([("x", other)], model.Player(), 2, seed=0))
    cases = {
        "not the format": '{"format": "something else"}\n',
        "a later version": good.replace('"version": 1', '"version": 2', 1),
        "a truncated line": good[:-5],
        "a damaged line": lines[0] + '{"visit": "v", "t": 1,\n',
        "an unknown event": lines[0] + '{"visit": "v", "t": 1, "level": 0, "attempt": 1, "event": "fly"}\n',
        "a move the rules do not give": "".join([*lines[:2], json.dumps(moved) + "\n"]),
        "another pack": foreign,
        "an empty file": "",
    }
    for why, text in cases.items():
        status, report = bad_input(tmp_path, pack, text)
        err = capsys.readouterr().err
        assert status == 2 and one_error_line(err), (why, err)
        assert not report.exists(), why
    status, report = bad_input(tmp_path, pack, size=1 << 30)
    err = capsys.readouterr().err
    assert status == 2 and "too large" in err and one_error_line(err) and not report.exists()


def test_a_log_naming_levels_not_in_the_pack_is_read_and_says_what_was_skipped(pack, tmp_path, capsys):
    levels = pack_levels(str(pack))
    log = playtest_model.simulated_log(levels[:2], model.Player(), 4, seed=4)
    renamed = replace(log, levels=(log.levels[0], ("gone", "f" * 16)))
    path = tmp_path / "mixed.jsonl"
    path.write_text(write(renamed))
    assert main(["playtest", str(path), "--pack", str(pack)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("level-001: 2 players") and out[-1].startswith("skipped ")
    assert out[-1].endswith("of 1 level not in the pack: gone")


def test_a_player_file_with_nan_is_refused(pack, tmp_path, capsys):
    log = tmp_path / "sim.jsonl"
    log.write_text(write(playtest_model.simulated_log(pack_levels(str(pack))[:1], model.Player(), 2, seed=5)))
    bad = tmp_path / "player.json"
    bad.write_text('{"format": "ice-designer player 1", "skill": NaN, "back_aversion": 1}')
    assert main(["playtest", str(log), "--pack", str(pack), "--player", str(bad)]) == 2
    assert one_error_line(capsys.readouterr().err)


def test_undo_restart_hint_and_the_solver_count_as_the_page_records_them():
    level = Level.from_rows(["######", "#...G#", "#.##.#", "#S...#", "######"])
    from designer.formats.playtest_log import level_id, pack_id

    ident = level_id(level.rows())
    v = "visit"
    events = [Event(v, 0, 0, 1, "start"), Event(v, 1, 0, 1, "move", "u", (1, 1)), Event(v, 2, 0, 1, "undo"),
              Event(v, 3, 0, 1, "hint", "r"), Event(v, 4, 0, 1, "restart"), Event(v, 5, 0, 2, "start"),
              Event(v, 6, 0, 2, "move", "r", (3, 4)), Event(v, 7, 0, 2, "move", "u", (1, 4)),
              Event(v, 8, 0, 2, "finish", moves=2),
              Event("other", 0, 0, 1, "start"), Event("other", 1, 0, 1, "solve"),
              Event("other", 2, 0, 1, "move", "r", (3, 4), "solver"), Event("other", 3, 0, 1, "move", "u", (1, 4), "solver"),
              Event("other", 4, 0, 1, "finish", moves=2),
              Event("third", 0, 0, 1, "start"), Event("third", 1, 0, 1, "move", "u", (1, 1)),
              Event("third", 2, 0, 1, "leave")]
    found = playtests.replay([("log", Log(pack_id([ident]), (("one", ident),), tuple(events)))], [("one", level)])
    stats = found.levels[0]
    assert (stats.players, stats.finished, stats.moves, stats.over_par) == (3, 1, [3], [2 - stats.par])
    assert sorted(stats.restarts) == [0, 0, 1] and sorted(stats.undos) == [0, 0, 1] and sorted(stats.hints) == [0, 0, 1]
    assert stats.solver == 1 and stats.quits == {(1, 1): 1}  # the solver's finish is no quit
    # the player's own moves only, and the restart they asked for, each with its attempt
    assert [(c.move, c.attempt) for c in found.choices] == [(0, 1), (playtests.RESTART, 1), (3, 2), (0, 2), (0, 4)]


# --- what an audit found (issue 60): each log read as the page wrote it, and nothing more --------

SNOW = Level.from_rows(["#####", "#S_G#", "#####"])  # r: onto the snow, r again: the exit; l: back


def snow_log(events) -> Log:
    from designer.formats.playtest_log import level_id, pack_id

    ident = level_id(SNOW.rows())
    return Log(pack_id([ident]), (("snow", ident),), tuple(events))


def walk(visit: str, there_and_back: int, t0: int = 0) -> list:
    """One visit's attempt: ``there_and_back`` times onto the snow and back, then to the exit."""
    events, t = [Event(visit, t0, 0, 1, "start")], t0
    for _ in range(there_and_back):
        events += [Event(visit, t + 1, 0, 1, "move", "r", (1, 2)), Event(visit, t + 2, 0, 1, "move", "l", (1, 1))]
        t += 2
    moves = 2 * there_and_back + 2
    return events + [Event(visit, t + 1, 0, 1, "move", "r", (1, 2)), Event(visit, t + 2, 0, 1, "move", "r", (1, 3)),
                     Event(visit, t + 3, 0, 1, "finish", moves=moves)]


def test_a_visit_two_saves_hold_is_one_player_and_two_plays_under_one_id_are_refused():
    first = walk("a", 1)[:3]  # the page saved while visit a was under way
    later = walk("a", 1) + walk("b", 0)  # ... and again once a had finished and b had played
    found = playtests.replay([("one", snow_log(first)), ("two", snow_log(later)), ("again", snow_log(later))],
                             [("snow", SNOW)])
    stats = found.levels[0]
    assert (stats.players, stats.finished, sorted(stats.moves)) == (2, 2, [2, 4])
    assert len(found.choices) == 6 and found.attempts == 2
    other = walk("a", 2)  # another play under visit a's id
    with pytest.raises(DesignerError, match="visit a: its event 5 differs from the same visit's in an earlier log"):
        playtests.replay([("one", snow_log(later)), ("two", snow_log(other))], [("snow", SNOW)])


def test_a_finish_counts_only_on_the_exit_with_the_moves_the_replay_made():
    def refused(events, why):
        with pytest.raises(DesignerError, match=why):
            playtests.replay([("log", snow_log(events))], [("snow", SNOW)])

    start = Event("v", 0, 0, 1, "start")
    refused([start, Event("v", 1, 0, 1, "finish", moves=1)], r"a finish, but the rules have the player on \[1, 1\]")
    done = walk("v", 0)
    refused([*done[:-1], done[-1]._replace(moves=10**9)], "the finish counts 1000000000 moves, but the attempt made 2")
    refused([*done, Event("v", 9, 0, 1, "move", "l", (1, 2))], "a move after the finish")
    # an undo after the finish opens the attempt again, as on the page
    again = [*done, Event("v", 9, 0, 1, "undo"), Event("v", 10, 0, 1, "move", "l", (1, 1))]
    stats = playtests.replay([("log", snow_log(again))], [("snow", SNOW)]).levels[0]
    assert stats.over_par == [0] and stats.finished == 1


def test_a_mean_is_rounded_once_as_it_is_printed(tmp_path, capsys):
    events = []
    for k in range(21):  # 10 finish in 8 moves, 11 in 10: 198 / 21 = 9.048 (9.05 rounded, then 9.1)
        events += walk(f"v{k}", 3 if k < 10 else 4, 1000 * k)
    (tmp_path / "log.jsonl").write_text(write(snow_log(events)))
    (tmp_path / "snow.txt").write_text("\n".join(SNOW.rows()) + "\n")
    assert main(["playtest", str(tmp_path / "log.jsonl"), "--pack", str(tmp_path / "snow.txt")]) == 0
    assert "mean 9.0 (the model's mean" in capsys.readouterr().out


def test_names_from_a_log_reach_the_terminal_escaped(tmp_path, capsys):
    log = snow_log(walk("v", 0))
    hostile = "<script>alert(1)</script>\u202e\x1b[31mRED\x1b[0m\nline\ud800"
    log = replace(log, levels=(*log.levels, (hostile, "2" * 16)),
                  events=(*log.events, Event("w", 0, 1, 1, "start")))
    (tmp_path / "log.jsonl").write_text(write(log), encoding="utf-8", errors="surrogatepass")
    (tmp_path / "snow.txt").write_text("\n".join(SNOW.rows()) + "\n")
    assert main(["playtest", str(tmp_path / "log.jsonl"), "--pack", str(tmp_path / "snow.txt")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].endswith(r"<script>alert(1)</script>\u202e\x1b[31mRED\x1b[0m\nline\ud800")
    assert "\x1b" not in out and "\u202e" not in out


@pytest.mark.parametrize("damage", ["a cut line joined to the next", "two lines on one", "version true",
                                    "version 1.0", "a key twice"])
def test_damaged_lines_and_versions_that_only_equal_1_are_refused(damage):
    text = write(snow_log(walk("v", 0)))
    head, start, *rest = text.splitlines(keepends=True)
    damaged = {"a cut line joined to the next": head + start[:-2] + "\n" + '"x": 1}\n' + "".join(rest),
               "two lines on one": head + start[:-1] + "," + "".join(rest),
               "version true": text.replace('"version": 1', '"version": true', 1),
               "version 1.0": text.replace('"version": 1', '"version": 1.0', 1),
               "a key twice": head + start.replace('"visit": "v"', '"visit": "v", "visit": "w"') + "".join(rest)}[damage]
    with pytest.raises(DesignerError):
        parse(damaged, "log")


def test_a_fit_on_too_few_choices_is_refused_with_the_count_and_on_few_warns(pack, tmp_path, capsys):
    levels = pack_levels(str(pack))[:1]
    short, few = tmp_path / "short.jsonl", tmp_path / "few.jsonl"
    short.write_text(write(playtest_model.simulated_log(levels, model.Player(2.0, 1.5), 1, seed=1)))
    few.write_text(write(playtest_model.simulated_log(levels, model.Player(2.0, 1.5), 1, seed=0)))
    fitted = tmp_path / "player.json"
    assert main(["playtest", str(short), "--pack", str(pack), "--fit", str(fitted)]) == 2
    err = capsys.readouterr().err
    assert one_error_line(err) and "the logs hold 18 choices to fit" in err and "needs 20 at the least" in err
    assert not fitted.exists()
    assert main(["playtest", str(few), "--pack", str(pack), "--fit", str(fitted)]) == 0
    err = capsys.readouterr().err
    assert "warning: the fit rests on 132 choices, fewer than 1000" in err
    assert json.loads(fitted.read_text())["fit"]["warning"].startswith("the fit rests on 132 choices")


def test_the_report_draws_each_level_as_a_point_and_labels_par_as_par(pack, tmp_path, capsys):
    levels = pack_levels(str(pack))[:1]
    log, report = tmp_path / "one.jsonl", tmp_path / "report.html"
    log.write_text(write(playtest_model.simulated_log(levels, model.Player(2.0, 1.5), 3, seed=0)))
    assert main(["playtest", str(log), "--pack", str(pack / "level-001.txt"), "-o", str(report)]) == 0
    page = report.read_text()
    # a curve of one level: a point on each line (observed, predicted, par), where a line is unseen
    assert page.count('class="point"') == 3 and "<title>observed, level 1: " in page
    assert ">par (scaled)</text>" in page and "asked" not in page


@pytest.mark.parametrize("kind", ["wall", "lapse", "greedy"])
def test_players_of_other_kinds_are_replayed_as_they_counted_their_own_plays(kind, pack):
    """The wall follower, the player who lapses from the solution and the greedy player who tries
    another way (tests/other_players.py, from the rules alone): ``playtest`` reads their logs, and
    its figures are the players' own counts."""
    import other_players

    levels = pack_levels(str(pack))[:4]
    player = {"wall": other_players.wall_log, "lapse": other_players.lapse_log, "greedy": other_players.greedy_log}[kind]
    log = other_players.logs(levels, player, 10, seed=4)
    counted = other_players.play_counts(log.events)
    found = playtests.replay([(kind, parse(write(log), kind))], levels)
    for k, stats in enumerate(found.levels):
        mine = counted[k]
        assert (stats.players, stats.finished) == (mine["plays"], mine["finished"]) == (10, mine["finished"])
        assert sorted(stats.moves) == sorted(mine["moves"]) and mine["finished"] > 0
    fitted, info = playtest_fit.fit(found, levels)  # a player no softmax: the fit still reads it
    assert info["choices"] > 0 and info["log_likelihood_per_choice"] > info["random_log_likelihood_per_choice"]
