"""One way to stop (``designer.core.control``): Ctrl-C, SIGTERM and SIGHUP end every kind of
long work with the status a shell expects (130, 143, 129), one line, and no process left behind.

Ctrl-C is sent as a terminal sends it: to the whole foreground process group, helpers included.
On a LocalCluster only SIGTERM and SIGHUP are held here: Ctrl-C there is the audit's issue (its
defects 1 and 2).
"""

import os
import signal
import subprocess
import sys
import time

import pytest
from test_reliability import alive, descendants

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

DESIGNER = [sys.executable, "-m", "designer"]

#: name -> (arguments, processes of its own to wait for before the signal, seconds to wait then)
WORK = {
    "make climb": (["make", "--min-stops", "70", "--time-limit", "60", "--seed", "1"], 0, 3.0),
    "make open grid": (["make", "--size", "16x24", "--no-frame", "--max-rocks", "5", "--maximize",
                        "--time-limit", "60", "--workers", "2"], 2, 1.0),
    "make cpsat": (["make", "--method", "cpsat", "--min-stops", "60", "--time-limit", "60"], 0, 5.0),
    "make cpsat-ends": (["make", "--method", "cpsat-ends", "--size", "8x8", "--min-stops", "21", "--workers", "2",
                         "--time-limit", "120"], 2, 2.0),
    "pareto": (["pareto", "--size", "12x12", "--time-limit", "120", "--seed", "1"], 0, 4.0),
    "records on dask": (["records", "--size", "8x8", "--dask", "local", "--workers", "2", "--time-limit", "60"],
                        3, 2.0),
}

ENDINGS = {signal.SIGINT: (130, "designer: interrupted\n"), signal.SIGTERM: (143, "designer: terminated\n"),
           signal.SIGHUP: (129, "designer: terminated\n")}


CASES = [(name, ending) for name in WORK for ending in ENDINGS
         # Ctrl-C on a LocalCluster is the audit's issue (defects 1 and 2): not held here yet
         if not (name == "records on dask" and ending == signal.SIGINT)]


@pytest.mark.parametrize("name, ending", CASES, ids=[f"{n}-{signal.Signals(e).name}" for n, e in CASES])
def test_a_signal_ends_the_work_with_its_status_and_leaves_no_process(tmp_path, name, ending):
    args, helpers, settle = WORK[name]
    proc = subprocess.Popen(DESIGNER + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, start_new_session=True)
    deadline = time.monotonic() + 30
    while len(seen := descendants(proc.pid)) < helpers and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(seen) >= helpers, f"{name}: its processes never started"
    time.sleep(settle)  # the work is under way
    seen |= descendants(proc.pid)
    sent = time.monotonic()
    if ending == signal.SIGINT and "dask" not in name:
        os.killpg(proc.pid, ending)  # a terminal's Ctrl-C: the whole group
    else:
        proc.send_signal(ending)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (*ENDINGS[ending][:1], "", ENDINGS[ending][1])
    assert time.monotonic() - sent < 20, f"{name}: ended by its time limit, not the signal"
    deadline = time.monotonic() + 2.0
    while any(alive(pid) for pid in seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in seen if alive(pid)], f"{name}: processes left behind"
