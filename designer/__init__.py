"""ice-designer: design, solve and analyse sliding-ice puzzles.

The package is laid out by family (the README's "Layout" says more):

- ``designer.core``: the level type, the sliding rule, the request, the layout space, the time
  budget, progress and cancel, the errors and the kernels (compiled, with a numpy/Python twin);
- ``designer.analysis``: what a level is: its class, solution, move graph, bounds, tidiness, and
  the one verifier every designed level passes;
- ``designer.search``: how levels are designed: the goal, the stages, the policies that run them,
  the classic generators, the registry of methods, packs, and where shards run;
- ``designer.models``: the CP-SAT formulation and its solve loop, and the proof engine by
  refutation (an incremental SAT solver that learns why layouts fail);
- ``designer.formats``: level files, templates, atomic output;
- ``designer.export``: the text report, pictures, Tiled maps, the play page;
- ``designer.studies``: records, comparisons and benchmarks;
- ``designer.ops``: one call per thing a user does, with progress and a cancel token, which
  every shell drives;
- ``designer.cli``: the ``designer`` command, a thin shell over the operations.
"""

__all__ = ["DesignerError", "ICE", "Level", "LevelError", "ROCK", "SNOW"]

#: The names the package gives, each from the module that holds it: loaded when first asked for,
#: so that the ``designer`` command can set its signal handlers before numpy loads.
_LAZY = {
    "DesignerError": "designer.core.errors",
    "LevelError": "designer.core.errors",
    "ICE": "designer.core.level",
    "ROCK": "designer.core.level",
    "SNOW": "designer.core.level",
    "Level": "designer.core.level",
}


def __getattr__(name: str):
    """``designer.Level`` and the rest of ``__all__``, loaded when asked for; and
    ``designer.__version__``: the installed distribution's version (pyproject.toml is the one
    place it is written), read only when asked for (importlib.metadata costs start-up time)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    if name != "__version__":
        raise AttributeError(f"module 'designer' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ice-designer")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "0+unknown"
