"""One design asked (``DesignJob``): a request and the settings of its run, as one value that
checks itself when it is built and goes whole through every layer that designs: a method's
``run`` (``designer.search.methods``), the router and its wrappers (``designer.search.design``:
coins, a predicted difficulty, items), a pack's levels (``designer.search.packs``), the Pareto
front's floors (``designer.studies.pareto``).

>>> from designer.core.request import LayoutRequest
>>> job = DesignJob(LayoutRequest(height=8, width=8, min_stops=9), seed=3, time_limit=20)
>>> job.but(seed=4).seed, job.but(seed=4).request == job.request
(4, True)
>>> DesignJob(LayoutRequest(height=8, width=8, min_stops=-1))
Traceback (most recent call last):
...
designer.core.errors.RequestError: min_stops must be at least 1
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from designer.core.control import CancelToken
from designer.core.level import Level
from designer.core.request import LayoutRequest

if TYPE_CHECKING:
    from designer.search.state import Progress


@dataclass(frozen=True)
class DesignJob:
    """A request (``designer.core.request.LayoutRequest``) and how it is run: ``seed``,
    ``time_limit`` (seconds, all the work), ``workers`` (None: every core), ``method`` (a name of
    ``designer.search.methods``), the objective (``maximize`` the min stops, ``maximize_choices``
    the options along the solution, or ``difficulty`` ``"expert"``, a preset run as a search of
    its own), the levels not to return (``exclude``), a layout to start from (``hint``), and what
    watches and ends the run (``progress``, ``executor`` for the exhaustive search's shards,
    ``cancel``), which no two jobs are compared by.

    Built, the job checks its request once (``designer.search.validation.validate``, one line
    for what is wrong); ``but`` derives the jobs the designer runs for it (a wrapper's plain
    request, another seed, less time), which are not checked again. A job crosses a cluster
    whole (pickled, it is not checked again either)."""

    request: LayoutRequest
    seed: int = 0
    time_limit: float = 60.0
    workers: int | None = None
    method: str = "auto"
    maximize: bool = False
    maximize_choices: bool = False
    difficulty: str | None = None
    exclude: tuple[Level, ...] = ()
    hint: Level | None = None
    progress: Progress | None = field(default=None, compare=False)
    executor: Any = field(default=None, compare=False)
    cancel: CancelToken | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        from designer.search.validation import validate

        validate(self.request)

    @classmethod
    def derived(cls, request: LayoutRequest, **settings: Any) -> DesignJob:
        """The job ``DesignJob(request, **settings)`` would be, for a request the designer derived
        from one it checked (a wrapper's plain request): not checked again."""
        job = object.__new__(cls)
        for one in fields(cls):
            value = request if one.name == "request" else settings.pop(one.name, one.default)
            object.__setattr__(job, one.name, value)
        if settings:
            raise TypeError(f"no such setting of a design: {', '.join(sorted(settings))}")
        return job

    def but(self, **changes: Any) -> DesignJob:
        """This job with ``changes``, derived by the designer from a job it checked: not checked
        again."""
        job = copy.copy(self)
        for name, value in changes.items():
            object.__setattr__(job, name, value)
        return job
