"""The package's layout: the docstring examples run, the request reproduces its level, and the
CP-SAT model is installed as designer.models, never as a top-level "models"."""

import doctest
import importlib
import json
import os
import subprocess
import sys
import zipfile

import pytest
from conftest import ROOT

from designer.cli import main
from designer.core.errors import DesignerError
from designer.core.request import LayoutRequest
from designer.search.result import GeneratorRecord

def _modules() -> list[str]:
    """Every module of the package (but ``designer.__main__``, which runs the command)."""
    import pkgutil

    import designer

    found = pkgutil.walk_packages(designer.__path__, "designer.")
    return sorted(m.name for m in found if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    """Every module's docstring examples run as written (a module without any passes)."""
    failed, _ = doctest.testmod(importlib.import_module(name))
    assert failed == 0


def test_the_docstring_examples_are_found():
    """The walk finds the package's modules, and the 78 of them that hold examples."""
    finder = doctest.DocTestFinder()
    held = [name for name in _modules() if any(test.examples for test in finder.find(importlib.import_module(name)))]
    assert len(held) >= 70


@pytest.mark.parametrize("request_", [
    LayoutRequest(),
    LayoutRequest(height=6, width=7, frame=False, min_stops=3, max_stops=9, start=(0, 1), goal=(5, 6), max_rocks=4,
                  snow=1, tidy=True),
    LayoutRequest(template=("#G###", "#??.#", "#?_?#", "#S###"), min_stops=2, snow=1),
    LayoutRequest(min_stops=20, max_stops=20, min_choices=34, unique=True),
])
def test_the_request_round_trips_through_json(request_):
    assert LayoutRequest.from_json(json.loads(json.dumps(request_.to_json()))) == request_


@pytest.mark.parametrize("bad", [
    [], {"height": "12"}, {"hieght": 12}, {"start": [1]}, {"template": "#?#"}, {"tidy": 1}, {"min_stops": 10**40},
])
def test_a_bad_request_is_one_line(bad):
    with pytest.raises(DesignerError) as caught:
        LayoutRequest.from_json(bad)
    assert "\n" not in str(caught.value)


def test_the_generator_record_round_trips_and_needs_its_request():
    record = GeneratorRecord(method="auto", stage="climb", seed=3, seconds=0.5, time_limit=60.0,
                             request=LayoutRequest(min_stops=25), workers=2, samples=4096, skipped=("cp-sat: x",))
    assert GeneratorRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert "maximize" not in record.to_json() and "proven_optimal" not in record.to_json()
    without = record.to_json()
    del without["request"]
    with pytest.raises(DesignerError, match="no request"):
        GeneratorRecord.from_json(without)


def test_a_designed_level_designs_itself_again(tmp_path, capsys):
    first = tmp_path / "first.json"
    assert main(["make", "--min-stops", "25", "--seed", "3", "--format", "json", "-o", str(first)]) == 0
    record = json.loads(first.read_text())["generator"]
    assert record["request"]["min_stops"] == 25 and record["seed"] == 3 and record["method"] == "auto"
    capsys.readouterr()
    assert main(["make", "--from", str(first), "--format", "json"]) == 0
    again = json.loads(capsys.readouterr().out)
    original = json.loads(first.read_text())
    assert (again["rows"], again["start"], again["goal"]) == (original["rows"], original["start"], original["goal"])
    assert again["generator"]["request"] == record["request"] and again["generator"]["seed"] == 3


def test_from_runs_the_records_method_and_refuses_request_options(tmp_path, capsys):
    first = tmp_path / "random.json"
    assert main(["make", "--min-stops", "8", "--method", "random", "--seed", "2", "--format", "json",
                 "-o", str(first)]) == 0
    capsys.readouterr()
    assert main(["make", "--from", str(first)]) == 0
    out, err = capsys.readouterr()
    assert "(random: random, seed 2," in err
    original = json.loads(first.read_text())
    assert out.splitlines() == [row.replace("S", "S") for row in original["rows"]]
    for extra in (["--seed", "4"], ["--min-stops", "9"], ["--method", "auto"], ["--maximize"]):
        assert main(["make", "--from", str(first), *extra]) == 2
        assert "does not go with --from" in capsys.readouterr().err
    plain = tmp_path / "plain.txt"
    plain.write_text("#G#\n#.#\n#S#\n")
    assert main(["make", "--from", str(plain)]) == 2
    assert "no generator record" in capsys.readouterr().err


def _quiet_run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


def test_models_is_installed_inside_the_package(tmp_path):
    # From a folder that is not the checkout: what the install provides, nothing else.
    probe = ("import importlib.util, designer.models.cpsat, designer.models.solve; "
             "print(importlib.util.find_spec('models') is None)")
    done = _quiet_run([sys.executable, "-c", probe], cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr


@pytest.mark.skipif(os.environ.get("DESIGNER_SKIP_WHEEL") == "1", reason="DESIGNER_SKIP_WHEEL=1")
@pytest.mark.slow
def test_the_wheel_holds_designer_models_and_no_top_level_models(tmp_path):
    built = _quiet_run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                        str(ROOT)])
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("ice_designer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "designer/models/cpsat.py" in names and any(name.startswith("designer/core/_kernels") for name in names)
    assert not any(name.startswith("models/") for name in names)
    target = tmp_path / "installed"
    installed = _quiet_run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                            str(wheel)])
    assert installed.returncode == 0, installed.stderr[-2000:]
    probe = ("import importlib.util, designer, designer.models.cpsat; "
             "print(designer.__file__); print(importlib.util.find_spec('models') is None)")
    done = _quiet_run([sys.executable, "-c", probe], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(target)})
    assert done.returncode == 0, done.stderr
    where, no_models = done.stdout.split()
    assert where.startswith(str(target)) and no_models == "True"


def test_the_registry_and_the_implementations_name_the_same_methods():
    from designer.search import methods, policies
    from designer.search.engines import baselines

    assert [m.name for m in methods.METHODS.values() if m.designer] == list(policies.POLICIES)
    assert [m.name for m in methods.METHODS.values() if not m.designer] == list(baselines.GENERATORS)


def test_reading_the_registry_imports_no_search():
    # the command line builds its --method choices at start-up: that must not load the searches
    probe = ("import sys, designer.search.methods, designer.cli; "
             "print(sorted(m for m in ('networkx', 'designer.search.design', 'designer.search.stages', "
             "'ortools') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_or_tools_loads_without_pandas_and_pandas_stays_real():
    probe = ("import sys; import designer.models.cpsat as c; from designer.core.request import LayoutRequest; "
             "from designer.models.solve import new_solver; assert 'pandas' not in sys.modules; "
             "m = c.build_model(LayoutRequest(height=5, width=5, min_stops=3)); s = new_solver(0, 20, 1); "
             "assert s.solve(m.model) in (c.cp_model.OPTIMAL, c.cp_model.FEASIBLE); "
             "import pandas; assert hasattr(pandas, 'DataFrame') and pandas.Series is not c.cp_model.pd.Series; "
             "print('ok')")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
