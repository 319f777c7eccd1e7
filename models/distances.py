"""Exact forward distances: the cells the player can rest on and the min stops to each
(``forward_distances``), which make ``goal_stops >= K`` exact."""

from __future__ import annotations

from designer.models.grid import SlideGrid
from designer.models.literals import Literals


def forward_distances(
    model, lits: Literals, grid: SlideGrid, is_start, is_goal, stops, check_time, exact: bool = True
):
    """``rests[c]``: the player can rest on c; ``moves_to[c]``: the min stops to get there, exact
    (every value has a parent that attains it; 0 where c is not reached). Slides carry the
    distance of the move they belong to: ``moves_to[u] + 1`` leaving a resting cell u, kept while
    the player passes a cell, handed to the cell where the slide stops. ``exact=False`` leaves the
    parents out: the sets are then closed under moves and the distances upper bounds only."""
    bound = grid.bound
    rests = {c: model.new_bool_var(f"rests{c}") for c in grid.cells}
    moves_to = {c: model.new_int_var(0, bound, f"moves_to{c}") for c in grid.cells}
    sliding = {s: model.new_bool_var(f"sliding{s}") for s in grid.slides}
    slide_moves = {s: model.new_int_var(0, bound, f"slide_moves{s}") for s in grid.slides}
    parents: dict[object, list] = {key: [] for key in [*grid.cells, *grid.slides]}

    def feeds(target_flag, target_value, conditions, value_expr, key) -> None:
        """When ``conditions`` hold the target is on (and its value at most ``value_expr``); a
        parent literal picks the condition set that attains the value."""
        lits.implies(conditions, [target_flag])
        lits.enforce(target_value <= value_expr, conditions)
        if not exact:
            return
        parent = model.new_bool_var("parent")
        lits.implies([parent], [lits.conj(conditions)])
        model.add(target_value == value_expr).only_enforce_if(parent)
        parents[key].append(parent)

    for cell in grid.cells:
        lits.implies([rests[cell]], [grid.open[cell]])
        lits.implies([is_start[cell]], [rests[cell]])
        lits.enforce(moves_to[cell] == 0, [is_start[cell]])
        lits.enforce(moves_to[cell] == 0, [~rests[cell]])
    for k, slide in enumerate(grid.slides):
        if k % 512 == 0:
            check_time()
        cell, d = slide
        lits.implies([sliding[slide]], [grid.open[cell]])
        lits.enforce(slide_moves[slide] == 0, [~sliding[slide]])
        prev = grid.previous_slide(slide)
        if prev is not None:
            behind = prev[0]  # leave a resting cell ...
            feeds(
                sliding[slide],
                slide_moves[slide],
                [rests[behind], lits.negate(is_goal[behind]), grid.open[cell]],
                moves_to[behind] + 1,
                slide,
            )
            # ... or pass the cell behind
            feeds(
                sliding[slide],
                slide_moves[slide],
                [sliding[prev], lits.negate(stops[prev])],
                slide_moves[prev],
                slide,
            )
        lands = grid.lands(cell)  # a portal's target, or the cell itself
        feeds(
            rests[lands], moves_to[lands], [sliding[slide], stops[slide]], slide_moves[slide], lands
        )
    if exact:
        for cell in grid.cells:
            lits.implies([rests[cell]], [is_start[cell]] + parents[cell])
        for slide in grid.slides:
            lits.implies([sliding[slide]], parents[slide])
    return rests, moves_to
