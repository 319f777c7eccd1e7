"""What ``make``'s options ask for, as the designer's requests: the layout request of one level
(``request_for``), the full clear's band (``full_clear_band``), and a pack's requests by predicted
difficulty. ``designer.ops.design.plan`` gathers them into a plan."""

from __future__ import annotations

from dataclasses import dataclass, replace

from designer.core.bands import Band
from designer.core.curves import Curve
from designer.core.errors import DesignerError
from designer.core.limits import MAX_COUNT, whole
from designer.core.request import LayoutRequest


@dataclass(frozen=True)
class MakeOptions:
    """What a user asks ``make`` for, as typed values (a shell parses its text into these). None
    is "not given": each has the default ``make --help`` names."""

    size: tuple[int, int] | None = None
    template: str | tuple[str, ...] | None = (
        None  # a template file (ASCII plus ? for a free cell, or a Tiled
    )
    # map), or its rows already in hand (a sketch the studio holds)
    min_stops: int | None = None
    max_stops: int | None = None
    start: tuple[int, int] | None = None
    goal: tuple[int, int] | None = None
    seed: int | None = None
    time_limit: float | None = None
    frame: bool = True
    max_rocks: int | None = None
    snow: int | None = None
    tidy: bool = False
    maximize: bool = False
    min_choices: int | None = None
    maximize_choices: bool = False
    unique: bool = False
    difficulty: str | None = None  # a preset of designer.search.difficulty
    curve: str | None = None  # "A..B": a pack whose min stops rise evenly
    workers: int | None = None
    count: int = 1
    method: str | None = None
    doors: tuple[tuple[int, int], ...] = ()  # a room's doors (cells), numbered 1, 2, ... in order
    routes: tuple[
        str, ...
    ] = ()  # a room's routes, in --route's text form: "1:3", "1:3=15", "1:3=15..20"
    items: int = 0  # items to place (--items), besides those a template draws (*)
    teleports: int = 0  # teleport pairs to place (--teleports)
    coins: int = 0  # coins to place (--coins: designer.search.coins)
    # the full clear's band (--full-clear K..M)
    full_clear: tuple[int | None, int | None] = (
        None,
        None,
    )
    first: bool = (
        False  # the first level that meets the request (--first; designer.search.decisions)
    )
    # what --curve and --difficulty ask: "stops", or "difficulty" (designer.search.felt)
    curve_by: str = "stops"
    player: tuple[float, float] | None = (
        None  # the model's player (--player FILE): skill, back aversion
    )


def request_for(options: MakeOptions) -> LayoutRequest:
    """The ``LayoutRequest`` that the options describe (before validation)."""
    rows = floors = portals = None
    if options.template is not None:
        from designer.formats.template import read_template_parts

        for given, name in (
            (options.size, "--size"),
            (None if options.frame else True, "--no-frame"),
        ):
            if given is not None:
                raise DesignerError(
                    f"{name} does not go with --template: the template draws the grid and its walls"
                )
        if isinstance(options.template, (tuple, list)):
            from designer.formats.template import parse_template_parts

            rows, floors, portals = parse_template_parts("\n".join(options.template))
        else:
            rows, floors, portals = read_template_parts(options.template)
        for pin, char, name in ((options.start, "S", "--start"), (options.goal, "G", "--goal")):
            if pin is not None and any(char in row for row in rows):
                raise DesignerError(
                    f"{name} and the template's {char!r} both pin the same end: keep one"
                )
    h, w = (len(rows), len(rows[0])) if rows else (options.size or (12, 12))
    by_difficulty = options.curve_by == "difficulty"
    min_stops = (
        options.min_stops
        if options.min_stops is not None
        else (1 if options.maximize or by_difficulty else 15)
    )
    snow = options.snow if options.snow is not None else sum(row.count("_") for row in rows or ())
    from designer.core.bands import RouteBand

    doors = tuple((number, cell) for number, cell in enumerate(options.doors, 1)) or None
    routes = tuple(RouteBand.parse(text) for text in options.routes) or None
    return LayoutRequest(
        height=h,
        width=w,
        frame=options.frame and rows is None,
        min_stops=min_stops,
        max_stops=options.max_stops,
        start=options.start,
        goal=options.goal,
        max_rocks=options.max_rocks,
        snow=snow,
        tidy=options.tidy,
        template=rows,
        min_choices=options.min_choices,
        unique=options.unique,
        doors=doors,
        routes=routes,
        items=options.items,
        teleports=options.teleports,
        floors=floors,
        portals=portals,
        coins=options.coins,
        full_clear_min=options.full_clear[0],
        full_clear_max=options.full_clear[1],
        first=options.first,
        player=options.player,
    )


def full_clear_band(text: str | None) -> tuple[int | None, int | None]:
    """``--full-clear K`` or ``K..M`` as (K, M); DesignerError (one line) on a bad value.

    >>> full_clear_band("40"), full_clear_band("30..45")
    ((40, None), (30, 45))
    """
    if text is None:
        return (None, None)
    try:
        read = Band.parse(text)
        band = (read.low, read.high)
    except ValueError:
        raise DesignerError(f"--full-clear {text!r}: K or K..M, whole numbers of moves") from None
    if band[0] < 1 or (band[1] is not None and band[1] < band[0]):
        raise DesignerError(f"--full-clear {text!r}: K at least 1, and M at least K")
    for value in band:  # no full clear makes more moves than a level has cells: the stops' bound
        if value is not None:
            whole(value, "--full-clear", 1, MAX_COUNT)
    return band


def felt_requests(options: MakeOptions, request: LayoutRequest) -> list[LayoutRequest]:
    """The requests of ``--curve-by difficulty``: each level's predicted difficulty, from the curve
    or the preset; min stops (``--min-stops``, default 1) a floor under each."""
    from designer.search import difficulty as presets

    for flag, value in (
        ("--maximize", options.maximize),
        ("--maximize-choices", options.maximize_choices),
    ):
        if value:
            raise DesignerError(
                f"{flag} does not go with --curve-by difficulty, which sets its own target"
            )
    if (options.difficulty is None) == (options.curve is None):
        raise DesignerError(
            "--curve-by difficulty asks --curve A..B or --difficulty NAME in predicted difficulty: "
            "give one"
        )
    if options.curve is not None:
        targets = Curve.parse(options.curve, "difficulty").targets(options.count)
    else:
        assert options.difficulty is not None  # by difficulty: a preset or a curve
        target = presets.preset(options.difficulty).felt
        if target is None:
            raise DesignerError(
                f"--difficulty {options.difficulty} is a search of its own, not a predicted difficulty: "
                "use easy, medium or hard with --curve-by difficulty"
            )
        targets = [target] * options.count
    return [replace(request, difficulty=target) for target in targets]
