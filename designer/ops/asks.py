"""What a user asks ``make`` for: an *ask*, the fields given and nothing else, as a shell has
them (the command line its flags by name, ``designer.cli.flags``; the studio its form's JSON).
Each field of an ask is

- a field of the request itself (``LayoutRequest``: ``min_stops``, ``coins``, ``player``, ...,
  ``REQUEST``), taken as it is;
- a form a user gives some of the request's fields in (``FORMS``): ``size`` (height, width),
  ``template`` (a file, or its rows in hand), ``frame``, ``doors`` (cells, numbered 1, 2, ... in
  order), ``routes`` (``RouteBand``'s text, "1:3=15"), ``full_clear`` (K, M);
- a setting of the run (``RUN``: ``designer.search.job.DesignJob``'s);
- or a pack's (``PACK``): ``count``, a ``curve`` "A..B", a ``difficulty`` preset, ``curve_by``.

``request_of`` gives the layout request of one level (checked by the job it goes into), and
``designer.ops.design.plan`` the jobs of a pack. A refusal says the fields in the request's own
words (``designer.core.errors.RequestError``), which each shell words as its own.

>>> request = request_of({"size": (9, 9), "doors": ((8, 4), (0, 4)), "routes": ("1:2=12",)})
>>> request.height, request.doors, str(request.routes[0]), request.min_stops
(9, ((1, (8, 4)), (2, (0, 4))), '1:2=12', 15)
>>> request_of({"min_stop": 3})
Traceback (most recent call last):
...
designer.core.errors.DesignerError: no such field of a design's ask: 'min_stop'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from designer.core.bands import Band, RouteBand
from designer.core.curves import Curve
from designer.core.errors import DesignerError, RequestError, literal
from designer.core.limits import MAX_COUNT, whole
from designer.core.request import LayoutRequest

#: The forms a user gives some of a request's fields in, and the fields each sets.
FORMS = {
    "size": ("height", "width"),
    "template": ("template", "floors", "portals", "height", "width"),
    "frame": ("frame",),
    "doors": ("doors",),
    "routes": ("routes",),
    "full_clear": ("full_clear_min", "full_clear_max"),
}
#: The settings of a design's run a user gives (``designer.search.job.DesignJob``'s).
RUN = ("seed", "time_limit", "workers", "method", "maximize", "maximize_choices")
#: A pack's: how many levels, and what sets each one's target (a curve, a preset, on which axis).
PACK = ("count", "curve", "difficulty", "curve_by")
#: The request's own fields an ask takes as they are: all but those a form sets, and the
#: predicted difficulty, which a pack's curve or preset sets (``curve_by`` difficulty).
REQUEST = tuple(
    one.name
    for one in fields(LayoutRequest)
    if one.name != "difficulty" and not any(one.name in set_ for set_ in FORMS.values())
)


def is_field(name: str) -> bool:
    """Whether an ask has a field ``name``."""
    return name in REQUEST or name in FORMS or name in RUN or name in PACK


def checked(asked: Mapping[str, Any]) -> None:
    """Refuse ``asked`` in one line when it names a field no ask has."""
    for name in asked:
        if not is_field(name):
            raise DesignerError(f"no such field of a design's ask: {str(name)[:40]!r}")


def request_of(asked: Mapping[str, Any]) -> LayoutRequest:
    """The ``LayoutRequest`` of one level that ``asked`` describes (not yet checked: the job it
    goes into checks it). Min stops are 15 unless given (1 when the ask maximizes them or asks
    a predicted difficulty, which sets its own target); the snow, the template's own."""
    checked(asked)
    template = asked.get("template")
    rows = floors = portals = None
    if template is not None:
        from designer.formats import template as templates

        for given, name in (
            (asked.get("size"), "{size}"),
            (None if asked.get("frame", True) else True, "{no_frame}"),
        ):
            if given is not None:
                raise RequestError(
                    f"{name} does not go with {{template}}: the template draws the grid and its "
                    "walls"
                )
        if isinstance(template, (tuple, list)):
            rows, floors, portals = templates.parse_template_parts("\n".join(template))
        else:
            rows, floors, portals = templates.read_template_parts(template)
        for end, char in (("start", "S"), ("goal", "G")):
            if asked.get(end) is not None and any(char in row for row in rows):
                raise RequestError(
                    f"{{{end}}} and the template's {char!r} both pin the same end: keep one"
                )
    h, w = (len(rows), len(rows[0])) if rows else (asked.get("size") or (12, 12))
    given = {name: asked[name] for name in REQUEST if asked.get(name) is not None}
    own = asked.get("maximize") or asked.get("curve_by") == "difficulty"
    given.setdefault("min_stops", 1 if own else 15)
    given.setdefault("snow", sum(row.count("_") for row in rows or ()))
    low, high = asked.get("full_clear") or (None, None)
    return LayoutRequest(
        **given,
        height=h,
        width=w,
        frame=asked.get("frame", True) and rows is None,
        template=rows,
        floors=floors,
        portals=portals,
        doors=tuple(enumerate(asked.get("doors") or (), 1)) or None,
        routes=tuple(RouteBand.parse(text) for text in asked.get("routes") or ()) or None,
        full_clear_min=low,
        full_clear_max=high,
    )


def full_clear_band(text: str | None) -> tuple[int | None, int | None]:
    """A full clear's band in its text form, ``K`` or ``K..M``, as (K, M); one line on a bad
    value.

    >>> full_clear_band("40"), full_clear_band("30..45")
    ((40, None), (30, 45))
    """
    if text is None:
        return (None, None)
    said = literal(repr(text))
    try:
        read = Band.parse(text)
        band = (read.low, read.high)
    except ValueError:
        raise RequestError(f"{{full_clear}} {said}: K or K..M, whole numbers of moves") from None
    if band[0] < 1 or (band[1] is not None and band[1] < band[0]):
        raise RequestError(f"{{full_clear}} {said}: K at least 1, and M at least K")
    for value in band:  # no full clear makes more moves than a level has cells: the stops' bound
        if value is not None:
            whole(value, "{full_clear}", 1, MAX_COUNT)
    return band


def targeted(
    asked: Mapping[str, Any], request: LayoutRequest
) -> tuple[list[LayoutRequest], str | None]:
    """The request of each level of the pack ``asked`` (``count`` of them), each with the
    target its curve or preset sets, and the preset that is a search of its own (``"expert"``,
    else None)."""
    from designer.search import difficulty as presets

    count = asked.get("count", 1)
    # a curve's long levels need room for their decisions: the frame grows when none is asked
    grow = asked.get("size") is None and asked.get("template") is None
    if asked.get("curve_by", "stops") == "difficulty":
        from designer.search.felt import first_stops

        felt = _felt(asked, request, count)
        if grow and asked.get("curve") is not None:
            felt = [presets.grown(one, first_stops(one.difficulty or 1)) for one in felt]
        return felt, None
    difficulty, curve = asked.get("difficulty"), asked.get("curve")
    if difficulty is None and curve is None:
        return [request] * count, None
    if difficulty is not None and curve is not None:
        raise RequestError("{difficulty} and {curve} both set the min stops: choose one")
    name = "{difficulty}" if difficulty is not None else "{curve}"
    for field in ("min_stops", "max_stops", "maximize", "maximize_choices"):
        if asked.get(field):
            raise RequestError(
                f"{{{field}}} does not go with {name}, which sets the min stops itself"
            )
    if difficulty is not None:
        expert = presets.EXPERT if difficulty == presets.EXPERT else None
        if expert and asked.get("size") is None and asked.get("template") is None:
            # a long level needs room for its decisions: the frame grows when none is asked
            from designer.search.tuning import EXPERT_SIDE

            request = replace(request, height=EXPERT_SIDE, width=EXPERT_SIDE)
        return [presets.banded(request, difficulty)] * count, expert
    assert curve is not None  # a preset or a curve: neither returned above, both refused
    requests = presets.curve_requests(request, Curve.parse(curve, "stops"), count)
    if grow:
        requests = [presets.grown(one, one.min_stops) for one in requests]
    return requests, None


def _felt(asked: Mapping[str, Any], request: LayoutRequest, count: int) -> list[LayoutRequest]:
    """The requests of a pack by predicted difficulty: each level's target, from the curve or the
    preset; min stops (default 1) a floor under each."""
    from designer.search import difficulty as presets

    for field in ("maximize", "maximize_choices"):
        if asked.get(field):
            raise RequestError(
                f"{{{field}}} does not go with {{curve_by}} difficulty, which sets its own target"
            )
    difficulty, curve = asked.get("difficulty"), asked.get("curve")
    if (difficulty is None) == (curve is None):
        raise RequestError(
            "{curve_by} difficulty asks {curve} A..B or {difficulty} NAME in predicted difficulty: "
            "give one"
        )
    if curve is not None:
        targets = Curve.parse(curve, "difficulty").targets(count)
    else:
        assert difficulty is not None  # a curve or a preset: neither or both refused above
        target = presets.preset(difficulty).felt
        if target is None:
            raise RequestError(
                f"{{difficulty}} {literal(difficulty)} is a search of its own, not a predicted "
                "difficulty: use easy, medium or hard with {curve_by} difficulty"
            )
        targets = [target] * count
    return [replace(request, difficulty=target) for target in targets]
