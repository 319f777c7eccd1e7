"""Whether a proof is in reach of a design: the exhaustive search's estimate against the time left, and
the counterexample loop's claim on small walled grids. The policies (``designer.search.policies``)
and the race beside the model (``designer.search.race``) ask them."""

from __future__ import annotations

from designer.search.engines import exhaustive
from designer.search.state import Search
from designer.search.tuning import (
    CLIMB_SHARE_BEFORE_PROOF,
    EXHAUSTIVE_REACH,
)

ONE_LAYOUT = " (every start and goal tried on the only layout the request allows)"


def exhaustive_detail(layouts: int) -> str:
    """What an exhaustive search's proof covered, said after the verdict."""
    return f" (exhaustive search of {layouts:,} layouts up to symmetry)"


def proof_within_reach(search: Search) -> bool:
    """Whether an exhaustive search could complete in the time a short climb would leave it."""
    return exhaustive.applies(search.request) and (
        exhaustive.estimated_seconds(search.request, search.workers)
        <= (1 - CLIMB_SHARE_BEFORE_PROOF) * search.budget.left()
    )


def exhaustive_fits(search: Search) -> bool:
    """Whether a complete search of the space can be expected within ten times the time left."""
    if not exhaustive.applies(search.request):
        return False
    return (
        exhaustive.estimated_seconds(search.request, search.workers)
        <= EXHAUSTIVE_REACH * search.budget.left()
    )


def refutes(search: Search) -> bool:
    """Whether ``auto`` poses its proof to the counterexample loop in place of the CP-SAT model:
    where the loop wins (``refute.wins_proofs``: small walled grids, compiled kernels), it serves
    the goal, and no exhaustive search is in reach."""
    from designer.search.engines.refute import declines, wins_proofs

    return (
        wins_proofs(search.request)
        and not exhaustive_fits(search)
        and declines(search, search.goal) is None
    )
