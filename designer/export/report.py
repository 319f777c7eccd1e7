"""Plain-text views of a level for people: the annotated map and the analysis report."""

from __future__ import annotations

from designer.analysis.graph import Analysis
from designer.core.level import Level
from designer.core.room import lost_words

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
TRAP_MARK = "!"
LEGEND = (
    "map: each resting cell shows the moves left to the goal from it "
    "(0-9, then a=10 ... z=35, + for more); ! = trap (the goal cannot be reached from there)"
)


def remaining_map(level: Level, analysis: Analysis) -> list[str]:
    """The level's rows with every reachable resting cell marked by its moves left, traps by '!'.
    A level with items: its states with no item taken yet (the cells as the player first meets them)."""
    rows = [list(row) for row in level.rows()]
    for (r, c, *taken), left in analysis.remaining.items():
        if (r, c) not in (level.start, level.goal) and not any(taken):
            rows[r][c] = DIGITS[left] if left < len(DIGITS) else "+"
    for r, c, *taken in analysis.trap_cells:
        if (r, c) != level.start and not any(taken):
            rows[r][c] = TRAP_MARK
    return ["".join(row) for row in rows]


def _state(label) -> str:
    """A cell (r,c), or a state (r,c,taken) of a level with items."""
    return "(" + ",".join(str(v) for v in label) + ")"


def side_by_side(left: list[str], right: list[str], gap: int = 4) -> list[str]:
    width = max((len(x) for x in left), default=0)
    return [f"{a:<{width}}{' ' * gap}{b}".rstrip() for a, b in zip(left, right)]


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _passage_lines(level, a: Analysis) -> list[str]:
    """The floors, wrap-around and portals of a level (or a room: what its first route found of
    them), and what ``analyze`` found of them."""
    lines = []
    for floor, found in zip(level.floor_list(), a.floors or [{}] * len(level.floor_list())):
        name = (
            f"floor {floor.name}: rows {floor.top}-{floor.top + floor.height - 1}, "
            if floor.name
            else "grid: "
        )
        wrap = {
            "": "no wrap",
            "x": "wraps left-right",
            "y": "wraps top-bottom",
            "xy": "wraps both ways",
        }[floor.wrap]
        fate = ""
        if found:
            fate = (
                "; never reached"
                if not found["reached"]
                else "; can be left for good"
                if found["no_return"]
                else "; the player can always come back"
            )
        lines.append(f"{name}{floor.height}x{floor.width}, {wrap}{fate}")
    for portal in a.portals:
        src, dst = tuple(portal["from"]), tuple(portal["to"])
        kind = "pair" if portal["pair"] else "one-way"
        play = (
            "never used"
            if not portal["used"]
            else "no way back once taken"
            if portal["one_way"]
            else "can be undone"
        )
        lines.append(f"portal {level.where(src)} -> {level.where(dst)} ({kind}): {play}")
    return lines


def report(level: Level, analysis: Analysis) -> str:
    """The human-readable analysis that ``designer analyze`` prints."""
    a = analysis
    lines = [
        f"level: {level.height}x{level.width}, start {level.start}, goal {level.goal} ({level.dialect})"
    ]
    if not level.plain:
        lines.extend(_passage_lines(level, a))
    lines.append(f"solvability: {a.solvability}    reversible: {_yes(a.reversible)}")
    if a.solution:
        s, d = a.solution, a.distance_solution
        assert d is not None  # solvable: a least-distance way too
        lines.append(f"min stops: {s.stops}  (distance {s.distance})  {s.moves}")
        lines.append(f"least distance: {d.distance}  ({d.stops} stops)  {d.moves}")
        if a.items:
            lines.append(
                f"items: {len(a.items)} to take, in the order {', '.join(str(k + 1) for k in s.order())}"
            )
            lines.extend(
                f"  item {k} {_state(item.cell)}: taken at move {item.taken_at}, adds {item.adds} "
                f"move{'s' if item.adds != 1 else ''}"
                for k, item in enumerate(a.items, 1)
            )
    else:
        lines.append("min stops: none (the goal cannot be reached)")
    largest = len(a.sccs[0]) if a.sccs else 0
    lines.append(
        f"resting {'states' if level.items else 'cells'}: {a.resting_cells}    moves: {a.moves}    "
        f"SCCs: {len(a.sccs)} (largest {largest}, {a.sink_sccs} sink{'s' if a.sink_sccs != 1 else ''})"
    )
    unit = "state" if level.items else "cell"
    lines.append(
        f"traps: {len(a.traps)} ({len(a.trap_cells)} {unit}{'s' if len(a.trap_cells) != 1 else ''})"
    )
    for k, trap in enumerate(a.traps, 1):
        sink = ", ".join(_state(label) for label in trap["sink"][:8]) + (
            " ..." if len(trap["sink"]) > 8 else ""
        )
        lines.append(
            f"  trap {k}: sink of {len(trap['sink'])} [{sink}], {len(trap['basin'])} {unit}s drain into it"
        )
    if a.branching:
        lines.append(
            f"branching along the solution: {a.options} other moves at {len(a.branching)} stops: "
            f"{sum(s.alternatives for s in a.branching)} as good, "
            f"{sum(s.setbacks for s in a.branching)} set back, {sum(s.traps for s in a.branching)} into traps"
        )
        lines.append(
            f"choices: {a.per_stop:.2f} options a stop, {a.rail_stops} rail stop"
            f"{'s' if a.rail_stops != 1 else ''} (at most one other move), "
            f"{a.solutions} fewest-moves solution{'s' if a.solutions != 1 else ''}"
        )
    if a.creativity:
        c = a.creativity
        lines.append(
            f"creativity: C = {c.C:.2f}  (d = {c.d:.2f} from p={c.p} i={c.i} t={c.t} g={c.density:.2f}; "
            f"v = {c.v:.2f} for n={c.cells})"
        )
    lines.append("")
    lines.extend(side_by_side(level.rows(), remaining_map(level, a)))
    lines.append(
        LEGEND
        + ("; * = item, the map shows the moves left before any is taken" if level.items else "")
    )
    return "\n".join(lines)


def coin_lines(level: Level, coins) -> list[str]:
    """A level's coins in ``designer analyze``: the full clear (``designer.analysis.tour``), then
    each coin: the moves it adds to the full clear, whether every fewest way to the exit takes it,
    and its full-clear traps (states from which it can no longer be taken, named as traps are)."""
    full = coins.full
    lines = [
        f"full clear: {full.words()}" + (f"  {full.moves}" if full.moves else ""),
        f"coins: {len(coins.coins)}    full-clear traps: {coins.traps}",
    ]
    for k, coin in enumerate(coins.coins, 1):
        adds = (
            "adds ?"
            if coin.adds is None
            else f"adds {coin.adds} move{'s' if coin.adds != 1 else ''}"
        )
        way = ", on every fewest way" if coin.on_every_way else ""
        trap = (
            ""
            if coin.traps is not None
            else ", its way and traps not searched (time limit reached)"
        )
        if coin.traps:
            named = ", ".join(_state(t) for t in coin.traps[:6]) + (
                " ..." if len(coin.traps) > 6 else ""
            )
            trap = f", lost for good from {len(coin.traps)} state{'s' if len(coin.traps) != 1 else ''} [{named}]"
        lines.append(f"  coin {k} {_state(coin.cell)}: {adds}{way}{trap}")
    return lines


def player_lines(figures, shape=None, where=None) -> list[str]:
    """The lines of ``analyze`` for the model's player (``designer.analysis.player.Figures``; None:
    not worked out) and the level's structure (``designer.analysis.structure.Structure``);
    ``where`` names a cell as a player sees it (a cave's: its room and the room's own cell,
    ``designer.caves.cave_analysis.room_cells``)."""
    return (_figures_lines(figures, where) if figures is not None else []) + (
        _shape_lines(shape) if shape is not None else []
    )


def _figures_lines(figures, where=None) -> list[str]:
    parts = figures.parts()
    spread = figures.interval or {}  # a player played out: each figure's 95% interval

    def give(name: str, text: str) -> str:
        return f" ± {text.format(spread[name])}" if name in spread else ""

    within = ", ".join(
        f"{p:.0%}{give(f'within {n}', '{:.0%}')} within {n}" for n, p in figures.within.items()
    )
    named = (lambda cell: " ".join(map(str, where(cell)))) if where else str
    hottest = ", ".join(f"{named(cell)} {rests:.1f}" for cell, rests in figures.hottest())
    # a chain too close to never finishing: stepped, not solved
    least = "at least " if figures.at_least else ""
    lines = [
        f"predicted difficulty: {least}{figures.difficulty:.1f} "
        f"{'of 10' if figures.difficulty <= 10 else '(past the top of 10)'}  "
        f"(expected moves {least}"
        f"{figures.expected_moves:.1f}{give('expected_moves', '{:.1f}')} = "
        f"par {parts['par']:.0f} + {parts['wandering']:.1f} wandering + {parts['restarts']:.1f} in attempts "
        f"restarted; {figures.expected_restarts:.2f} restarts)",
        f"player: {within}; rests most on {hottest}",
    ]
    if spread:
        lines.append(
            f"played out: {figures.runs:,} runs (each ± a 95% interval), the same for the same seed"
        )
    return lines


def _shape_lines(shape) -> list[str]:
    return [
        f"structure: {shape.subgoals} subgoal{'s' * (shape.subgoals != 1)} (stops every way passes), "
        f"{shape.counter_intuitive} counter-intuitive move{'s' * (shape.counter_intuitive != 1)}, "
        f"{shape.reachable} reachable stops, {shape.dead_ends} dead end{'s' * (shape.dead_ends != 1)}, "
        f"{shape.traps} trap stop{'s' * (shape.traps != 1)}, {shape.branching:.2f} moves a stop"
    ]


def room_report(analysed) -> str:
    """The human-readable analysis of a room's routes (``designer.analysis.routes.RoomAnalysis``)
    that ``designer analyze`` prints for a room with several doors."""
    room = analysed.room
    doors = ", ".join(f"{number} {cell}" for number, cell in room.doors)
    lines = [
        f"room: {room.height}x{room.width}, {len(room.doors)} door{'s' if len(room.doors) != 1 else ''}: {doors} ({room.dialect})"
    ]
    failing = analysed.failing()
    verdict = (
        "yes" if not failing else "no (" + ", ".join(f"{name} {why}" for name, why in failing) + ")"
    )
    # the floors and portals, and what the first route finds of them
    if not room.plain and analysed.routes:
        lines.extend(_passage_lines(room, analysed.routes[0].analysis))
    lines.append(f"routes: {len(analysed.routes)}, every one strong and reversible: {verdict}")
    for one in analysed.routes:
        a, (start, goal) = one.analysis, one.route
        if a.solution is None:
            lines.append(f"route {one.name}: unsolvable ({lost_words(start, goal)})")
            continue
        s = a.solution
        lines.append(
            f"route {one.name}: {a.solvability}, reversible: {_yes(a.reversible)}, min stops {s.stops} "
            f"(distance {s.distance}) {s.moves}, {a.per_stop:.2f} options a stop, {a.rail_stops} rail "
            f"stop{'s' if a.rail_stops != 1 else ''}, {a.solutions} fewest-moves "
            f"solution{'s' if a.solutions != 1 else ''}"
        )
        if a.items:
            lines.append(
                "  items: "
                + ", ".join(
                    f"{k} {_state(item.cell)} at move {item.taken_at}, adds {item.adds}"
                    for k, item in enumerate(a.items, 1)
                )
            )
    lines.append("")
    lines.extend(room.rows())
    return "\n".join(lines)


def way_lines(way) -> list[str]:
    """A cave's way through, room by room (``designer.caves.graph.Way``)."""
    lines = [f"{way.moves}", f"stops: {way.stops}  distance: {way.distance}"]
    for visit in way.visits:
        keys = f", takes key {', '.join(visit.keys)}" if visit.keys else ""
        lines.append(
            f"  {visit.room} (in by door {visit.door}): {visit.moves}, {visit.stops} "
            f"stop{'s' if visit.stops != 1 else ''}{keys}"
        )
    if way.keys:
        lines.append("keys: " + ", ".join(f"{name} at move {at}" for name, at in way.keys.items()))
    return lines


def cave_report(analysed) -> str:
    """The human-readable analysis of a cave (``designer.caves.cave_analysis.CaveAnalysis``) that
    ``designer analyze`` prints: the whole graph, then every room's own routes."""
    cave = analysed.cave
    floors = sorted({room.floor for room in cave.rooms})
    lines = [
        f"cave: {len(cave.rooms)} rooms on {len(floors)} floor{'s' if len(floors) != 1 else ''}, "
        f"{len(cave.links)} links, {len(cave.keys)} key{'s' if len(cave.keys) != 1 else ''}",
        f"solvability: {analysed.solvability} ({analysed.traps} trapped states)",
        f"reversible: {_yes(analysed.reversible)} (from every state reached, the entrance again)",
        f"min stops: {analysed.min_stops if analysed.way else '-'}",
        "rooms never reached: " + (", ".join(analysed.unreached) or "none"),
    ]
    one_way = [str(use.link) for use in analysed.links if use.one_way]
    lines.append("one way in play: " + ("; ".join(one_way) or "none"))
    unused = [str(use.link) for use in analysed.links if not use.used]
    if unused:
        lines.append("links never passed: " + "; ".join(unused))
    for key in analysed.keys:
        worth = (
            "needed: the exit cannot be reached without it"
            if key.needed
            else f"without it {key.without} stops" + ("" if key.matters else ": it does not matter")
        )
        taken = f"taken at move {key.taken_at}" if key.taken_at else "not taken on the way"
        lines.append(f"key {key.name}: {taken}; {worth}")
    if analysed.way is not None:
        lines.append("way through:")
        lines.extend("  " + line for line in way_lines(analysed.way))
    for room, routes in zip(cave.rooms, analysed.rooms):
        lines.append("")
        lines.append(f"room {room.name}:")
        lines.append(room_report(routes))
    return "\n".join(lines)
