"""Mirror images of excluded levels: what a search that excludes levels (a pack's earlier ones)
must still look at before it says no level is left.

The CP-SAT model and the SAT loop pose one of each set of mirror images (``designer.models.
symmetry``). A level the request allows has its kept image among the posed ones, so once a proof
says no posed level is left, the levels left are the other images of the excluded ones, and only
those. ``with_images`` runs a policy and looks at them: the best that passes the verifier is the
answer when the policy proves no level left (or, maximizing, when it beats the policy's best);
when none passes, the proof's words hold as they are ("other than the N made before and their
mirror images", ``designer.search.result.infeasible_message``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from designer.core.level import Level
from designer.search.result import Design, DesignFailed
from designer.search.state import Search


def with_images(
    policy: Callable[[Search], Design], search: Search, exclude: tuple[Level, ...]
) -> Design:
    """``policy(search)``, and the mirror images of ``exclude`` where the policy's proofs do not
    reach them (see the module docstring)."""
    if not exclude:
        return policy(search)
    try:
        found = policy(search)
    except DesignFailed as failed:
        if failed.reason != "infeasible":
            raise
        image = unmade_image(search, exclude)
        # the proof's words hold: every level left is excluded, or an image of one
        if image is None:
            raise
        return image
    if search.goal.maximizing:
        image = unmade_image(search, exclude)
        if image is not None and search.score(image) > search.score(found):
            return replace(
                image, generator=image.generator.but(proven_optimal=found.generator.proven_optimal)
            )
    return found


def unmade_image(search: Search, exclude: tuple[Level, ...]) -> Design | None:
    """The best verified mirror image of an excluded level that is itself not excluded, or None."""
    from designer.models.symmetry import images

    best = None
    for made in exclude:
        for image in images(search.request, made):
            if image in exclude:
                continue
            found = search.verify(image, "mirror image of an earlier level")
            if found is not None and (best is None or search.score(found) > search.score(best)):
                best = found
    return best
