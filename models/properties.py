"""Strong solvability (``strongly_solvable``) and reversibility (``reversible``), each a way of
moves down a potential."""

from __future__ import annotations

from designer.core.terrain import Cell
from designer.models.grid import SlideGrid
from designer.models.literals import Literals


def strongly_solvable(
    model, lits: Literals, grid: SlideGrid, rests, is_goal, stops, check_time
) -> None:
    """Every resting cell but the goal has a move to a cell with a smaller ``to_goal`` potential,
    so the goal can be reached from everywhere the player can rest. ``slide_to_goal`` carries the
    potential of the cell where a slide stops back to the cell it leaves from."""
    bound = grid.bound
    to_goal = {c: model.new_int_var(0, bound, f"to_goal{c}") for c in grid.cells}
    slide_to_goal = {s: model.new_int_var(0, bound, f"slide_to_goal{s}") for s in grid.slides}
    for k, slide in enumerate(grid.slides):
        if k % 512 == 0:
            check_time()
        cell, _ = slide
        nxt = grid.next_slide(slide)
        if nxt is not None:
            lits.enforce(
                slide_to_goal[slide] >= slide_to_goal[nxt],
                [grid.open[cell], lits.negate(stops[slide])],
            )
        lits.enforce(
            slide_to_goal[slide] >= to_goal[grid.lands(cell)], [grid.open[cell], stops[slide]]
        )
    for cell in grid.cells:
        onward = _moves_down(model, lits, grid, cell, to_goal, slide_to_goal, "onward")
        lits.implies([rests[cell]], [is_goal[cell]] + onward)


def _moves_down(
    model,
    lits: Literals,
    grid: SlideGrid,
    cell: Cell,
    potential,
    slide_potential,
    name: str,
    sliding=None,
) -> list:
    """One literal per direction a move can leave ``cell`` in: when true, the first cell of the
    slide is open (and, given ``sliding``, that slide is marked), and the cell where the slide
    stops has a smaller potential than ``cell``."""
    moves = []
    for d in range(4):
        first = (grid.step(cell, d), d)
        if first[0] not in grid.cell_set:
            continue
        move = model.new_bool_var(name)
        lits.implies([move], [grid.open[first[0]]])
        if sliding is not None:
            lits.implies([move], [sliding[first]])
        model.add(potential[cell] >= slide_potential[first] + 1).only_enforce_if(move)
        moves.append(move)
    return moves


def reversible(
    model, lits: Literals, grid: SlideGrid, is_start, is_goal, stops, check_time
) -> None:
    """In the swapped level (the start captures, the goal is plain ice) a way leads from the goal to
    the start: each cell on it but the start takes a move to the next with a smaller
    ``back_potential``; ``on_way_back`` and ``back_sliding`` mark the cells and slides it uses."""
    bound = grid.bound
    on_way_back = {c: model.new_bool_var(f"on_way_back{c}") for c in grid.cells}
    back_potential = {c: model.new_int_var(0, bound, f"back_potential{c}") for c in grid.cells}
    back_sliding = {s: model.new_bool_var(f"back_sliding{s}") for s in grid.slides}
    slide_back_potential = {
        s: model.new_int_var(0, bound, f"slide_back_potential{s}") for s in grid.slides
    }
    for k, slide in enumerate(grid.slides):
        if k % 512 == 0:
            check_time()
        cell, _ = slide
        lits.implies([back_sliding[slide]], [grid.open[cell]])
        nxt = grid.next_slide(slide)
        if nxt is not None:
            passing = [back_sliding[slide], lits.negate(stops[slide])]
            lits.implies(passing, [back_sliding[nxt]])
            lits.enforce(slide_back_potential[slide] >= slide_back_potential[nxt], passing)
        stopping = [back_sliding[slide], stops[slide]]
        lits.implies(stopping, [on_way_back[grid.lands(cell)]])
        lits.enforce(slide_back_potential[slide] >= back_potential[grid.lands(cell)], stopping)
    for cell in grid.cells:
        lits.implies([is_goal[cell]], [on_way_back[cell]])
        onward = _moves_down(
            model, lits, grid, cell, back_potential, slide_back_potential, "back_move", back_sliding
        )
        lits.implies([on_way_back[cell]], [is_start[cell]] + onward)
