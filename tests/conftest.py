import os
import sys
from pathlib import Path

# Every search of the suite, here and in the commands it starts, gets a budget of work (the
# processor time it spends, and CP-SAT's deterministic time), not of seconds that pass: a busy
# machine makes it slower, never changes its verdict (designer.core.budget, "cpu"). The tests of
# what a wall-clock limit does (signals, the studio's progress) ask for the wall clock themselves.
os.environ.setdefault("DESIGNER_CLOCK", "cpu")

import signal  # noqa: E402


def pytest_configure(config):
    """The tests of Ctrl-C send SIGINT to the commands they start, as a terminal does. A suite
    run as a shell's background job (`pytest &`) inherits SIGINT ignored, and so would every
    command it starts (a program started so keeps ignoring it, as it should): Python's own
    handler in pytest's processes makes each command start with SIGINT at the default, as from a
    terminal. (A hook, not at import: a dask worker that imports this file by value must not.)"""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

from designer.core import kernels  # noqa: E402
from designer.core.level import Level  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "levels"

settings.register_profile("default", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


@st.composite
def small_levels(draw, max_side: int = 6, framed: bool | None = None, snow: bool = True):
    """Random small levels: rock, ice and (optionally) snow, start and goal on distinct ice cells."""
    frame = draw(st.booleans()) if framed is None else framed
    h = draw(st.integers(3 if frame else 1, max_side))
    w = draw(st.integers(3 if frame else 2, max_side))
    weights = st.sampled_from("#..." + ("_" if snow else "."))
    grid = [[draw(weights) for _ in range(w)] for _ in range(h)]
    if frame:
        for r in range(h):
            for c in range(w):
                if r in (0, h - 1) or c in (0, w - 1):
                    grid[r][c] = "#"
        start = (h - 1, draw(st.integers(1, w - 2)))
        goal = (0, draw(st.integers(1, w - 2)))
    else:
        cells = [(r, c) for r in range(h) for c in range(w)]
        start, goal = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=2, unique=True))
    grid[start[0]][start[1]] = "S"
    grid[goal[0]][goal[1]] = "G"
    return Level.from_ascii("\n".join("".join(row) for row in grid))


needs_compiled = pytest.mark.skipif(kernels.IMPLEMENTATIONS["compiled"] is None,
                                    reason="the compiled kernels are not built (no C compiler at install)")
#: Property tests run against both kernel implementations: ``@pytest.mark.parametrize("impl", IMPLS)``.
IMPLS = [pytest.param("compiled", marks=needs_compiled), "python"]


def one_error_line(err: str) -> bool:
    """One line on standard error, besides the note an install without compiled kernels adds."""
    lines = [line for line in err.splitlines() if not line.startswith("designer: note: using the pure-Python")]
    return len(lines) == 1 and err.endswith("\n")


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture(autouse=True)
def own_data_folder(tmp_path_factory, monkeypatch):
    """Each test signs with a secret of its own (designer.formats.signed), never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def wall_clock(monkeypatch):
    """A test of what the wall clock does (a stage's share of the seconds, a sleep standing in for
    work): its budgets count seconds that pass, as a user's --time-limit does."""
    monkeypatch.setenv("DESIGNER_CLOCK", "wall")
