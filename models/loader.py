"""OR-Tools' ``cp_model``, loaded without pandas.

``ortools.sat.python.cp_model`` imports pandas at the top (0.2 s of a 0.3 s import, measured with
``python -X importtime``) for its pandas-indexed helpers (``new_int_var_series`` and the like),
which the model never calls: everywhere else cp_model only asks whether a value is a
``pd.Index`` or a ``pd.Series``, and ours never are. So while cp_model loads, ``pandas`` names a
stand-in module holding just those two classes, and it names nothing again afterwards: whoever
imports pandas later gets the real one. Where pandas is loaded already, or the stand-in is not
enough for an OR-Tools release (any error while loading), cp_model is loaded as it ships.

>>> cp_model.CpModel().new_bool_var("x").name
'x'
"""

from __future__ import annotations

import importlib
import sys
import types

CP_MODEL = "ortools.sat.python.cp_model"


def load_cp_model():
    """The ``cp_model`` module, loaded without pandas where that works (see the module docstring)."""
    if CP_MODEL in sys.modules or "pandas" in sys.modules:
        return importlib.import_module(CP_MODEL)
    stand_in = types.ModuleType(
        "pandas", "a stand-in while OR-Tools' cp_model loads (designer.models.loader)"
    )
    setattr(stand_in, "Index", type("Index", (), {}))  # noqa: B010 (a module's attribute mypy cannot see)
    setattr(stand_in, "Series", type("Series", (), {}))  # noqa: B010
    sys.modules["pandas"] = stand_in
    try:
        return importlib.import_module(CP_MODEL)
    except Exception:
        sys.modules.pop(CP_MODEL, None)
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
        return importlib.import_module(CP_MODEL)  # as it ships, pandas and all
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]


cp_model = load_cp_model()
