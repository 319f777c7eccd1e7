"""The line a design is summed up in, as ``designer make`` prints it: what the level (or room) is, its
figures, and how it was found. A shell prints it; a script may too."""

from __future__ import annotations


def summary(found, job) -> str:
    """The line ``make`` prints for a designed level of ``job`` (``designer.search.job.DesignJob``):
    what it is, and how it was found."""
    g = found.generator
    proof = ""
    if job.maximize:
        proof = ", proven optimal" if g.proven_optimal else ", not proven optimal"
    elif job.difficulty:
        proof = (
            ", the longest there is (proven)"
            if g.proven_optimal
            else ", the longest found (not proven)"
            if g.proven_optimal is not None
            else ", the longest found with a quarter or fewer of its stops on rails"
        )
    skipped = "".join(f"; {why}" for why in g.skipped)
    if g.difficulty_felt is not None:
        asked = g.request.difficulty if g.request is not None else None
        proof += f", predicted difficulty {g.difficulty_felt:g}" + (
            f" (asked {asked:g})" if asked is not None else ""
        )
    choices = ""
    if g.options is not None:
        a = found.analysis
        choices = (
            f", {a.options} options ({a.per_stop:.2f} a stop), {a.rail_stops} rail "
            f"stop{'s' if a.rail_stops != 1 else ''}, "
            f"{a.solutions} fewest-moves solution{'s' if a.solutions != 1 else ''}"
        )
        if job.maximize_choices:
            choices += ", not proven optimal"
        elif job.difficulty and g.proven_optimal is not None:
            choices += ", the most found at that length"
    if found.room is not None:  # every route's min stops (and options), the shortest's proof
        routes = ", ".join(
            f"{one.name} {one.analysis.min_stops}"
            + (
                f" ({one.analysis.options} options, {one.analysis.per_stop:.2f} a stop)"
                if g.options is not None
                else ""
            )
            for one in found.routes.routes
        )
        what = "shortest route" if job.maximize else "every route"
        proof = (
            proof.replace(", proven optimal", f", {what} proven optimal") if job.maximize else proof
        )
        taken = (
            f"; {len(found.room.items)} item{'s' if len(found.room.items) != 1 else ''}, each mattering on every "
            "route"
            if found.room.items
            else ""
        )
        doors = len(found.room.doors)
        return (
            f"designed: a room of {doors} door{'s' if doors != 1 else ''}, min stops by route {routes}; "
            f"every route strong and reversible{taken}{proof} ({g.method}: {g.stage}, seed {g.seed}, "
            f"{g.seconds:.2f} s{skipped})"
        )
    items = found.level.items if found.level is not None else ()
    level = found.level
    if level is not None and len(level.floors) > 1:
        choices += f" on the whole graph of {len(level.floors)} floors"
    wraps = (
        sorted({floor.wrap for floor in level.floors if floor.wrap}) if level is not None else []
    )
    if wraps:
        choices += f", wrapping {' and '.join(wraps)}"
    placed = g.request.teleports if g.request is not None else 0
    if placed:
        choices += f", {placed} teleport pair{'s' if placed != 1 else ''} placed, each mattering"
    if level is not None and level.coins:
        choices += f", {len(level.coins)} coin{'s' * (len(level.coins) > 1)}, each worth taking, full clear {g.full_clear} (proven optimal)"
    if items:  # what each adds, as analyze says it
        choices += (
            f", {len(items)} item{'s' if len(items) != 1 else ''}, each mattering (adding "
            + ", ".join(str(item.adds) for item in found.analysis.items)
            + (" move)" if [item.adds for item in found.analysis.items] == [1] else " moves)")
        )
    return (
        f"designed: min stops {found.min_stops}, strong, reversible{proof}{choices} "
        f"({g.method}: {g.stage}, seed {g.seed}, {g.seconds:.2f} s{skipped})"
    )
