"""Old module paths, kept working: ``designer.level`` is ``designer.core.level``, and so on.

The package was flat until its modules moved into family folders. Code that imports the old
names gets the same module object as the new name (one module, two names), so nothing written
against the flat layout breaks. New code imports the new names.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

#: Old name -> new name. Packages that kept their name (``designer.analysis``,
#: ``designer.formats``, ``designer.cli``) re-export what their old module held instead.
MOVED = {
    "designer.errors": "designer.core.errors",
    "designer.level": "designer.core.level",
    "designer.rules": "designer.core.rules",
    "designer.kernels": "designer.core.kernels",
    "designer.fast": "designer.analysis.classify",
    "designer.solver": "designer.analysis.solver",
    "designer.bounds": "designer.analysis.bounds",
    "designer.tidy": "designer.analysis.tidy",
    "designer.design": "designer.search.design",
    "designer.sampling": "designer.search.sampling",
    "designer.climb": "designer.search.climb",
    "designer.anneal": "designer.search.anneal",
    "designer.opengrid": "designer.search.opengrid",
    "designer.exhaustive": "designer.search.exhaustive",
    "designer.baselines": "designer.search.baselines",
    "designer.executor": "designer.search.executor",
    "designer.template": "designer.formats.template",
    "designer.output": "designer.formats.output",
    "designer.render": "designer.export.report",
    "designer.picture": "designer.export.picture",
    "designer.tiled": "designer.export.tiled",
    "designer.play": "designer.export.play",
    "designer.records": "designer.studies.records",
    "designer.compare": "designer.studies.compare",
    "designer.bench": "designer.studies.bench",
    "designer.progress": "designer.cli.progress",
    "designer.models.ice_cpsat": "designer.models.cpsat",
    "designer.models.request": "designer.core.request",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old name and hands back the module of its new name."""

    def find_spec(self, name, path=None, target=None):
        if name in MOVED:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module):
        pass  # already executed under its new name


def install() -> None:
    """Put the alias finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.append(_Alias())


def forward(package: str, *modules: str):
    """A module's ``__getattr__`` that finds names in ``modules``, imported on first use: a module
    keeps answering for what it held before its parts moved, without importing them early."""

    def __getattr__(name: str):
        if not name.startswith("__"):
            for module in modules:
                found = getattr(importlib.import_module(module), name, _MISSING)
                if found is not _MISSING:
                    return found
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


_MISSING = object()
