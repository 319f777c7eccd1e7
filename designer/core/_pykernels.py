"""The kernels of ``_kernels.c`` in numpy and plain Python: the same functions, the same
arguments and the same results, for an install without a C compiler. As the C is, the twin is
one module a concern: ``_pytables`` (``kernels_tables.c``), ``_pysearch``
(``kernels_search.c``), ``_pyexplain`` (``kernels_explain.c``) and ``_pyplayer``
(``kernels_player.c``); this module is its face, as
``_kernels.c`` is the compiled one's. (The annealing chains are compiled only.)

Slower (the slide table is vectorised; the searches are Python loops), but correct: the tests run
the property checks against both. Callers go through ``designer.core.kernels``, which validates every
argument before either implementation sees it, so nothing here re-checks them.
"""

from __future__ import annotations

from designer.core._pyexplain import refute_explain
from designer.core._pyplayer import player_runs
from designer.core._pysearch import exhaustive
from designer.core._pytables import (
    all_reach_goal,
    classify_batch,
    passage_table,
    reach,
    slide_table,
)

__all__ = [
    "all_reach_goal",
    "classify_batch",
    "exhaustive",
    "passage_table",
    "player_runs",
    "reach",
    "refute_explain",
    "slide_table",
]
