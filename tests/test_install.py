"""The lean install: the core commands need no extra, and a command whose extra is missing says
which one in one line (status 2). A missing package is simulated in a fresh interpreter by
blocking its import; .ci/core checks the same with a real bare install."""

import json
import subprocess
import sys
from importlib.metadata import version

import pytest

from designer.cli import main
from designer.core.extras import EXTRAS, need, MissingExtra

EXTRA_MODULES = ("drawsvg", "cairosvg", "matplotlib", "distributed", "dask", "pandas")

DRIVER = """
import sys
for name in {blocked!r}:
    sys.modules[name] = None  # import of it now fails, as when it is not installed
from designer.cli import main
status = main({argv!r})
loaded = sorted(m for m in {extras!r} if sys.modules.get(m) is not None)
print("LOADED", loaded, file=sys.stderr)
sys.exit(status)
"""


def run_without(blocked, *argv, cwd=None):
    code = DRIVER.format(blocked=tuple(blocked), argv=list(argv), extras=EXTRA_MODULES)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=cwd)
    lines = done.stderr.splitlines()
    loaded = lines.pop() if lines and lines[-1].startswith("LOADED") else None
    return done.returncode, done.stdout, lines, loaded


def test_version_comes_from_the_package_metadata(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"designer (ice-designer) {version('ice-designer')}\n"


def test_make_solve_and_analyze_need_no_extra(tmp_path, examples_dir):
    level = tmp_path / "made.json"
    status, _, err, loaded = run_without(EXTRA_MODULES, "make", "--min-stops", "15", "--format", "json",
                                         "-o", str(level))
    assert status == 0, err
    assert loaded == "LOADED []"  # none of the extras' packages was even imported
    assert json.loads(level.read_text())["generator"]["request"]["min_stops"] == 15
    for command in (["solve", str(level)], ["analyze", "--json", str(level)]):
        status, out, err, loaded = run_without(EXTRA_MODULES, *command)
        assert status == 0 and out and loaded == "LOADED []", err


@pytest.mark.parametrize("argv, blocked, extra", [
    (["render", "{level}", "-o", "{tmp}/x.svg"], ["drawsvg"], "pictures"),
    (["render", "{level}", "-o", "{tmp}/x.png"], ["cairosvg"], "pictures"),
    (["export", "{level}", "--to", "tiled", "-o", "{tmp}/x.tmj"], ["drawsvg"], "pictures"),
    (["play", "{level}", "-o", "{tmp}/x.html"], ["drawsvg"], "pictures"),
    (["compare", "--seeds", "1", "--budget", "0.5", "--min-stops", "5", "--plot", "{tmp}/x.png"], ["matplotlib"],
     "plot"),
    (["pareto", "--size", "6x6", "--time-limit", "1", "--plot", "{tmp}/x.png"], ["matplotlib"], "plot"),
    (["records", "--size", "4x4", "--no-frame", "--rocks", "1", "--dask", "local"], ["distributed"], "dask"),
])
def test_a_missing_extra_is_one_line_naming_the_pip_command(tmp_path, examples_dir, argv, blocked, extra):
    argv = [a.format(level=examples_dir / "seed003-easy.txt", tmp=tmp_path) for a in argv]
    status, out, err, _ = run_without(blocked, *argv)
    assert status == 2 and out == ""
    assert len(err) == 1 and err[0].startswith("designer: ")
    assert f"pip install 'ice-designer[{extra}]'" in err[0]
    assert list(tmp_path.iterdir()) == []  # refused before any file was written


def test_need_returns_the_module_or_names_the_extra():
    assert need("json", "plot") is json
    with pytest.raises(MissingExtra, match=r"pip install 'ice-designer\[plot\]'"):
        need("no_such_module_here", "plot")
    with pytest.raises(ValueError):
        need("json", "no such extra")
    assert set(EXTRAS) == {"pictures", "plot", "dask", "studio"}


def test_pyproject_lists_the_same_extras():
    tomllib = pytest.importorskip("tomllib")
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert set(extras) == set(EXTRAS) | {"all", "test"}
    assert extras["all"] == [f"ice-designer[{','.join(EXTRAS)}]"]
    assert not any(dep.split("[")[0].split(">")[0] in ("drawsvg", "cairosvg", "matplotlib", "dask", "starlette", "uvicorn")
                   for dep in project["dependencies"])
