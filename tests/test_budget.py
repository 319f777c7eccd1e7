"""The one clock of a piece of work (designer.core.budget): seconds that pass, or seconds of work.

On the cpu clock a search ends with the same verdict, and a seeded search finds the same level,
however busy the machine is: checked here by running the same searches beside busy processes."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time

import pytest

from designer.core.budget import Budget, default_clock, use_clock
from designer.core.request import LayoutRequest
from designer.search.design import design
from designer.search.result import DesignFailed
from conftest import needs_compiled


def test_the_cpu_clock_counts_work_not_seconds_that_pass():
    work, wall = Budget(0.5, clock="cpu"), Budget(0.5, clock="wall")
    time.sleep(0.6)  # no work done
    assert wall.expired() and not work.expired() and work.left() > 0.4
    began = time.perf_counter()
    while not work.expired():  # work: it is spent
        sum(range(1000))
    assert time.perf_counter() - began >= 0.3 and work.seconds() >= 0.6


def test_shares_and_cuts_keep_the_clock_and_a_record_says_the_seconds_that_passed():
    work = Budget(10.0, clock="cpu")
    assert {work.share(0.5).clock, work.within(1).clock, work.cancellable().clock,
            work.until(work.deadline).clock} == {"cpu"}
    time.sleep(0.2)
    assert work.seconds() >= 0.2 > work.elapsed()


def test_the_default_clock_comes_from_the_block_then_the_environment(monkeypatch):
    monkeypatch.setenv("DESIGNER_CLOCK", "wall")
    assert Budget(1).clock == "wall" == default_clock()
    with use_clock("cpu"):
        assert Budget(1).clock == "cpu"
        with use_clock("wall"):
            assert Budget(1).clock == "wall"
    monkeypatch.setenv("DESIGNER_CLOCK", "cpu")
    assert Budget(1).clock == "cpu"
    with pytest.raises(ValueError):
        Budget(1, clock="sundial")


def test_an_unknown_clock_in_the_environment_is_one_line():
    done = subprocess.run([sys.executable, "-m", "designer", "make", "--min-stops", "5"], capture_output=True,
                          text=True, env={**os.environ, "DESIGNER_CLOCK": "sundial"}, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "designer: DESIGNER_CLOCK='sundial': the clock is 'wall' or 'cpu'\n"


def _forked_left(budget: Budget, out) -> None:
    out.put((budget.left(), budget.clock))


def test_a_forked_process_counts_its_own_work_from_what_was_left():
    work = Budget(30.0, clock="cpu")
    while work.elapsed() < 0.2:
        sum(range(1000))
    lanes = work.forked()
    out = multiprocessing.get_context("fork").Queue()
    child = multiprocessing.get_context("fork").Process(target=_forked_left, args=(lanes, out))
    child.start()
    left, clock = out.get(timeout=60)
    child.join(60)
    assert clock == "cpu" and 29.0 < left <= 29.85  # its own processor time starts at 0, what was left goes with it


def _spin(until: float) -> None:
    while time.time() < until:
        pass


def busy(seconds: float, processes: int = 4):
    """Processes that keep every core busy for ``seconds``."""
    context = multiprocessing.get_context("fork")
    spinners = [context.Process(target=_spin, args=(time.time() + seconds,), daemon=True) for _ in range(processes)]
    for one in spinners:
        one.start()
    return spinners


def outcome(request: LayoutRequest, **options) -> tuple:
    try:
        found = design(request, **options)
    except DesignFailed as failed:
        return failed.reason, None
    return "designed", str(found.level)


SEARCHES = [
    # (request, options, seconds): each pins its seed and runs one worker, so no two threads race;
    # the seconds are about two and a half times the work it needs idle, less than the seconds that
    # pass beside the busy processes (about three times as many)
    (LayoutRequest(9, 9, min_stops=17), {"method": "cpsat", "seed": 2}, 5.0),  # 2.1 s idle
    (LayoutRequest(9, 9, min_stops=21), {"method": "sat", "seed": 1}, 1.0),  # 0.3 s
    (LayoutRequest(7, 7, min_stops=15), {"method": "sat"}, 5.0),  # a proof that no such level exists: 1.7 s
    # auto: 0.07 s to meet 25 stops, then the chains that raise its decisions (their steps, about 1.8 s of
    # processor time on two threads): the budget must cover both, or where it cuts them decides the level
    (LayoutRequest(12, 12, min_stops=25), {"method": "auto", "seed": 3}, 5.0),
]


@needs_compiled
@pytest.mark.parametrize("request_, options, seconds", SEARCHES, ids=["cpsat", "sat", "sat-proof", "auto"])
@pytest.mark.slow
def test_on_the_cpu_clock_a_busy_machine_changes_neither_the_verdict_nor_the_level(request_, options, seconds):
    with use_clock("cpu"):
        idle = outcome(request_, time_limit=seconds, workers=1, **options)
        spinners = busy(120)
        try:
            began = time.perf_counter()
            loaded = outcome(request_, time_limit=seconds, workers=1, **options)
            took = time.perf_counter() - began
        finally:
            for one in spinners:
                one.kill()
    assert idle == loaded and idle[0] in ("designed", "infeasible"), (idle, loaded, took)


def test_a_commands_budget_counts_from_its_process_start_and_keeps_back_time_to_answer():
    """The console command marks its start: the seconds before any budget was made (here a
    sleep standing in for a slow start-up) count against --time-limit, and its searches stop a
    little before the limit. Called from Python, unmarked, a budget counts from now."""
    code = ("import time; time.sleep(0.6)\n"
            "from designer.core.budget import command_budget, mark_command_start\n"
            "before = command_budget(5.0).left()\n"
            "mark_command_start()\n"
            "print(before, command_budget(5.0).left())")
    env = {**os.environ, "DESIGNER_CLOCK": "wall"}
    before, after = map(float, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                              env=env, check=True).stdout.split())
    assert 4.5 < before <= 5.0  # unmarked: from now (room for a busy machine between two lines)
    assert after <= 5.0 - 0.6 - 0.1  # the sleep, and the share kept back to print the answer
