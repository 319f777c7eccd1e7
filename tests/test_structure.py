"""The house's shape: no import circle anywhere in the package, no module too long to read, and
no alias of an old module path (every import names the real module)."""

import ast
import importlib
from pathlib import Path

import networkx as nx
import pytest
from conftest import ROOT

#: Where each installed package's files live (``designer.models`` is the top-level ``models/``).
PACKAGES = {"designer": ROOT / "designer", "designer.models": ROOT / "models"}


def module_files() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def import_graph() -> nx.DiGraph:
    """module -> module for every import in the package's code, at any depth of a file (inside
    functions and ``TYPE_CHECKING`` blocks too): ``from pkg import name`` points at ``pkg.name``
    when that is a module, else at ``pkg``."""
    modules = module_files()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the module's package
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[:len(anchor) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph


def test_the_import_graph_is_read():
    graph = import_graph()
    assert graph.has_edge("designer.search.design", "designer.search.stages")
    assert graph.has_edge("designer.search.model_stages", "designer.search.engines.ends")  # an import inside a function


def test_no_import_circle():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, "import circles: " + "; ".join(" -> ".join(cycle + cycle[:1]) for cycle in cycles)


@pytest.mark.parametrize("name,path", sorted(module_files().items()))
def test_no_module_is_too_long(name, path):
    lines = len(path.read_text().splitlines())
    assert lines <= (250 if name.startswith("designer.cli") else 400), f"{name}: {lines} lines"


@pytest.mark.parametrize("path", sorted((ROOT / "designer").rglob("*.[ch]")), ids=lambda path: path.name)
def test_no_c_file_is_too_long(path):
    """The compiled kernels are one file a concern (``designer/core/kernels.h``), none past 800 lines."""
    lines = len(path.read_text().splitlines())
    assert lines <= 800, f"{path.name}: {lines} lines"


def test_the_kernels_and_their_twin_keep_one_split():
    """Each concern of the C kernels has its twin module (the annealing chains are compiled only)."""
    core = ROOT / "designer" / "core"
    concerns = {path.stem.removeprefix("kernels_") for path in core.glob("kernels_*.c")}
    assert concerns == {"tables", "search", "anneal", "explain", "player"}
    assert {concern for concern in concerns if (core / f"_py{concern}.py").exists()} == concerns - {"anneal"}


@pytest.mark.parametrize("name,path", sorted(module_files().items()))
def test_no_line_runs_past_100_characters_outside_a_string(name, path):
    """The formatter wraps code at 100 characters; what it cannot wrap is a string (a message, a
    URL in a docstring), and a comment is wrapped by hand: never longer."""
    import io
    import tokenize

    text = path.read_text()
    long = {n for n, line in enumerate(text.splitlines(), 1) if len(line) > 100}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            long -= set(range(token.start[0], token.end[0] + 1))
    assert not long, f"{name}: lines over 100 characters outside strings: {sorted(long)}"


def test_one_name_per_class():
    """No two classes of the package share a name: a reader who meets one knows which it is."""
    owners: dict[str, list[str]] = {}
    for name, path in module_files().items():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                owners.setdefault(node.name, []).append(name)
    shared = {cls: where for cls, where in owners.items() if len(where) > 1}
    assert not shared, f"classes of one name in several modules: {shared}"


def test_old_module_paths_are_gone():
    assert not (ROOT / "designer" / "_moved.py").exists()
    for old in ("designer.level", "designer.design", "designer.records"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)


def test_every_package_is_installed():
    """Each folder of designer/ with an ``__init__.py`` is listed in pyproject.toml's packages: a
    bare ``pip install .`` (no editable install) installs only those (.ci/core runs one)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "designer").rglob("__init__.py")}
    assert found <= listed, f"not installed by pip install .: {sorted(found - listed)}"
