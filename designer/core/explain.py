"""The SAT loop's explainer (``designer.models.refute``): why a layout fails, as the literals that
force the failure, in compiled code or its numpy twin (``designer.core._pyexplain`` says how),
its arguments checked here once, as every kernel's are (``designer.core.kernels``)."""

from __future__ import annotations

import numpy as np

from designer.core.kernels import _impl


def refute_checker(base, var, routes):
    """``check(model, out)``: why a layout fails, as the literals that force the failure
    (``designer.models.refute``; ``_pyexplain`` says how), with the arguments checked once here.
    ``base`` (H, W) holds the fixed tiles, ``var`` (H, W) each free cell's SAT variable (0 on a
    fixed cell), ``routes`` (R, 3, int32, C order) each route's start, goal (flat, both fixed
    ice) and K, read at every call (raise a floor in place). ``check`` takes a solver's model
    (variable v's literal at index v - 1; a variable past its end is ice) and an int32 buffer,
    and returns -1 when every route passes, else the entries written: kind, route, detail, the
    count of literals, then the literals."""
    base = np.ascontiguousarray(base, np.uint8)
    h, w = base.shape
    flat_base = base.reshape(-1)
    var = np.ascontiguousarray(var, np.int32).reshape(-1)
    if not (
        isinstance(routes, np.ndarray)
        and routes.dtype == np.int32
        and routes.ndim == 2
        and routes.shape[1] == 3
        and routes.flags.c_contiguous
        and 1 <= len(routes) <= 64
    ):
        raise ValueError(
            "refute_checker: routes must be 1 to 64 rows (start, goal, K) of C-ordered int32"
        )
    flat_routes = routes.reshape(-1)  # a view: a floor raised in routes is read at the next call
    if (
        var.size != h * w
        or var.min(initial=0) < 0
        or len(np.unique(var[var > 0])) != int((var > 0).sum())
    ):
        raise ValueError("refute_checker: var must give each free cell its own variable")
    nv, count, impl = int(var.max(initial=0)), len(routes), _impl()

    def check(model, out) -> int:
        return impl.refute_explain(flat_base, var, h, w, nv, flat_routes, count, model, out)

    return check
