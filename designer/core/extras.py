"""The optional parts of the install, and the one way to load them.

``pip install ice-designer`` brings what ``solve``, ``analyze`` and ``make`` need. The rest comes
with an extra (``pip install 'ice-designer[pictures]'``); ``[all]`` brings every one. A command
that needs a missing extra stops with one line that names the pip command (status 2).

>>> need("json", "pictures").__name__  # a module that is there is simply returned
'json'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from designer.core.errors import DesignerError

#: Each extra, what it brings, and what needs it. pyproject.toml lists the same packages.
EXTRAS: dict[str, str] = {
    "pictures": "render, export, play and game",  # drawsvg; cairosvg for PNG
    "plot": "the --plot of compare and pareto",  # matplotlib
    "dask": "--dask, shards on a dask.distributed cluster",  # dask.distributed
    "studio": "designer studio, the local web app",  # starlette, uvicorn
}


class MissingExtra(DesignerError):
    """An optional package is not installed; the message names the extra that brings it."""


def install_command(extra: str) -> str:
    return f"pip install 'ice-designer[{extra}]'"


def need(module: str, extra: str) -> ModuleType:
    """``module``, imported; MissingExtra (one line, with the pip command) when it is not
    installed. ``extra`` is one of ``EXTRAS``."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}")
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"{module.split('.')[0]} is not installed: {install_command(extra)} "
            f"(the extra for {EXTRAS[extra]})"
        ) from None
