"""The one registry of design methods: what ``designer make --method``, ``designer compare`` and
the library all choose from. The modules that implement them (``policies.POLICIES``,
``baselines.GENERATORS``) are imported only when a method runs, so that reading the registry (the
command line does, at start-up) costs nothing; a test holds their tables to this one.

>>> names()
('auto', 'cpsat', 'cpsat-ends', 'sat', 'random', 'repair', 'greedy')
>>> METHODS["cpsat"].can_maximize, METHODS["random"].can_maximize
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from designer.core.errors import DesignerError, RequestError

if TYPE_CHECKING:
    from designer.search.job import DesignJob
    from designer.search.result import Design


@dataclass(frozen=True)
class Method:
    """A way to design a level: a policy of the designer, or a classic generator."""

    name: str
    summary: str
    designer: bool  # one of the designer's policies (else a classic generator, for comparison)

    @property
    def can_maximize(self) -> bool:
        """Only the designer's policies can raise min stops and prove a best."""
        return self.designer

    def run(self, job: DesignJob) -> Design:
        """Design a level for ``job`` (``designer.search.job.DesignJob``; DesignFailed when it
        cannot be met) by this method. ``job.difficulty`` ``"expert"`` runs that preset's two
        searches (``designer.search.difficulty``); the banded presets are requests of their own."""
        request, difficulty = job.request, job.difficulty
        if difficulty is not None:
            from designer.search.difficulty import EXPERT, design_expert

            if difficulty != EXPERT:
                raise DesignerError(
                    f"difficulty {difficulty!r} is a band of min stops: pose it as the request"
                )
            if self.name != "auto":
                raise RequestError(
                    "{difficulty} expert needs {method} auto (it raises the choices, which only "
                    "the portfolio counts)"
                )
            if job.maximize or job.maximize_choices:
                raise RequestError(
                    "{difficulty} expert sets its own objectives: leave out {maximize} and "
                    "{maximize_choices}"
                )
            return design_expert(job, self.run)
        if self.designer:
            from designer.search import design as policies

            return policies.run(job.but(method=self.name))
        from designer.core.request_kinds import request_kind

        if not request_kind(request).lays_ends:  # they lay a level's start and goal, never doors
            raise RequestError(
                f"a room's doors ({{doors}}, or 1-9 in a template) need {{method}} auto or cpsat, "
                "not "
                f"{self.name}"
            )
        if request.item_count:  # they know no items
            raise RequestError(
                f"items ({{items}}, or * in a template) need {{method}} auto, not {self.name}"
            )
        if request.teleports:  # nor portals
            raise RequestError(f"{{teleports}} needs {{method}} auto, not {self.name}")
        # as published, they lay rocks on an open frame, not in a drawing
        if request.template is not None:
            raise RequestError(f"{{template}} needs {{method}} {designer_names()}, not {self.name}")
        from designer.search.engines import baselines

        return baselines.generate(
            self.name,
            request,
            seed=job.seed,
            time_limit=job.time_limit,
            exclude=job.exclude,
            cancel=job.cancel,
        )


METHODS: dict[str, Method] = {
    method.name: method
    for method in (
        Method("auto", "the designer's portfolio", True),
        Method("cpsat", "the CP-SAT model alone", True),
        Method(
            "cpsat-ends",
            "the CP-SAT model alone, posed once per start and goal pair (proofs in small rooms)",
            True,
        ),
        Method(
            "sat",
            "the counterexample loop alone: an incremental SAT solver learning why layouts fail, once per "
            "start and goal pair (proofs in small rooms)",
            True,
        ),
        Method(
            "random",
            "independent random rocks, drawn until a level passes (the classic rejection sampler)",
            False,
        ),
        Method(
            "repair",
            "random rocks, snow and cleanup scans, restarted when short (a classic repair generator)",
            False,
        ),
        Method(
            "greedy",
            "one rock moved at a time, longest solution first (the classic hill-climbing maximiser)",
            False,
        ),
    )
}


def names() -> tuple[str, ...]:
    return tuple(METHODS)


def designer_names() -> str:
    """The designer's policies, in words, for messages.

    >>> designer_names()
    'auto, cpsat, cpsat-ends or sat'
    """
    policies = [m.name for m in METHODS.values() if m.designer]
    return ", ".join(policies[:-1]) + " or " + policies[-1] if len(policies) > 1 else policies[0]


def get(name: str) -> Method:
    """The method of that name (UnknownMethod, a DesignerError and a ValueError, naming the
    choices otherwise: a method read back from a level file is input like any other)."""
    try:
        return METHODS[name]
    except KeyError:
        raise UnknownMethod(f"unknown method {name!r}: choose from {', '.join(METHODS)}") from None


class UnknownMethod(DesignerError, ValueError):
    """A method name that is not in the registry."""
