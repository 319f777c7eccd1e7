"""What the studio shows of a cave as it is drawn and filled: its floor plan and figures
(``plan_view``; a draft's while it is not a cave yet), the cave saved as text or as a Tiled world
(``cave_save``), and its play page."""

from __future__ import annotations

import json

from designer.core.errors import DesignerError, LevelError
from designer.ops.caves import parse_cave, read_cave, world_contents


def draft_view(text: str, reason: str) -> dict:
    """What the studio shows of a cave being drawn that is not a cave yet (``reason``: the
    reader's line): the draft as it was sent, that line as its figures and its one refusal, and
    where each door leads so far. No plan: a plan is drawn of a cave."""
    from types import SimpleNamespace

    from designer.caves.cave import door_words
    from designer.caves.parts import CaveRoom, Link, parse_door

    obj = json.loads(text) if text.lstrip().startswith("{") else {}

    def listed(key: str) -> list:  # the draft's objects under ``key``; anything else is none yet
        found = obj.get(key)
        return [one for one in found if isinstance(one, dict)] if isinstance(found, list) else []

    rooms, links, ends = [], [], {}
    for room in listed("rooms"):
        try:
            made = CaveRoom(str(room["name"]), tuple(room["rows"]), None, int(room.get("floor", 1)))
            made.doors  # noqa: B018 (its rows read here, or the room left out)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        rooms.append(made)
    names = {room.name for room in rooms}
    for link in listed("links"):
        try:
            joined = Link(
                link["kind"],
                parse_door(str(link["from"])),
                parse_door(str(link["to"])),
                link.get("lock"),
            )
        except (KeyError, LevelError):
            continue
        if joined.a[0] in names and joined.b[0] in names:
            links.append(joined)
    for end in ("entrance", "exit"):
        try:
            ends[end] = parse_door(obj[end]) if isinstance(obj.get(end), str) else None
        except LevelError:
            ends[end] = None
    if not rooms:
        reason = "no room yet: add one"
    elif ends["entrance"] is None or ends["exit"] is None:
        missing = " or ".join(end for end in ("entrance", "exit") if ends[end] is None)
        reason = f"no {missing} yet: make a door the {missing.split(' or ')[0]}"

    # what door_words reads of a cave
    words = door_words(SimpleNamespace(rooms=rooms, links=links, **ends))  # type: ignore[arg-type]
    return {
        "cave": obj,
        "draft": True,
        "free": True,
        "refused": [reason],
        "figures": f"not a cave yet: {reason}",
        "doors": {
            room.name: [
                [n, words.get((room.name, n), "leads nowhere yet")] for n in sorted(room.doors)
            ]
            for room in rooms
        },
    }


def cave_save(text: str, kind: str) -> dict:
    """The cave the studio holds, saved as ``kind``: its text form (``{"text"}``) or a Tiled world
    zipped (``{"zip"}``: bytes; its maps, ``cave.world`` and the one tileset image, as ``export
    --to tiled`` writes them)."""
    import io
    import zipfile

    cave = parse_cave(text)
    if kind == "text":
        return {"text": str(cave) + "\n"}
    if kind != "world":
        raise DesignerError(f"a cave is saved as text or world, not {kind!r}")
    if cave.free:
        raise DesignerError("the cave has free cells (?): fill it first, then save its world")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in world_contents(cave).items():
            archive.writestr(name, body)
    return {"zip": buffer.getvalue()}


def play_page(source: str, title: str, hint_cost: int = 0) -> str:
    """The play page of the whole cave in ``source`` (``designer.export.play``)."""
    from designer.caves.play import cave_page

    return cave_page(read_cave(source), title, hint_cost)


#: The seconds the studio's live figures give a cave's full clear.
LIVE_FULL_CLEAR = 1.0


def plan_view(text: str, draft: bool = False) -> dict:
    """What the studio shows of a cave (its text or JSON): its JSON form, the floor plan as SVG
    (with the way through when the cave is filled and solvable), and its figures in a line. With
    ``draft`` (a cave being drawn, as JSON), one the reader refuses is shown as ``draft_view``
    shows it, not refused."""
    import base64

    from designer.caves.cave_analysis import analyze as analyze_cave
    from designer.caves.picture import svg_plan
    from designer.core.errors import LevelError
    from designer.core.limits import sized

    try:
        cave = parse_cave(text)
    except LevelError as exc:
        if not draft:
            raise
        return draft_view(text, str(exc))  # a cave still being drawn: what it lacks, said live
    found = {"cave": cave.to_json(), "free": cave.free}
    for room in found["cave"]["rooms"]:  # each room goes on the studio's board: at most 40x40
        try:
            sized(room["rows"])
        except DesignerError as exc:
            raise DesignerError(f"room {room['name']}: {exc}") from None

    def count(n: int, what: str) -> str:
        return f"{n} {what}{'s' * (n != 1)}"

    line = f"{count(len(cave.rooms), 'room')}, {count(len(cave.links), 'link')}, {count(len(cave.keys), 'key')}"
    way = False
    if not cave.free:
        report = analyze_cave(cave, rooms=False)
        way = report.way is not None
        keys = "".join(
            f", key {k.name} {'needed' if k.needed else 'not needed'}" for k in report.keys
        )
        line += (
            f": {report.solvability}, min stops {report.min_stops if way else '-'}, reversible: "
            f"{'yes' if report.reversible else 'no'}{keys}"
        )
        if cave.coins:  # live: the full clear within a second (its words say when unproven)
            from designer.caves.coins import full_clear

            line += f", full clear ({count(len(cave.coins), 'coin')}) {full_clear(cave, LIVE_FULL_CLEAR).words()}"
    else:
        from designer.caves.refusals import refusals

        refused = refusals(cave)  # what a fill would refuse at once, shown before any fill
        found["refused"] = refused
        line += ": " + ("; ".join(refused) if refused else "free cells left (fill the cave)")
    found["figures"] = line
    from designer.caves.cave import door_words

    # each room's doors, where they lead: shown beside the room on the board
    words = door_words(cave)
    found["doors"] = {
        room.name: [[n, words.get((room.name, n), "leads nowhere yet")] for n in sorted(room.doors)]
        for room in cave.rooms
    }
    found["plan"] = base64.b64encode(svg_plan(cave, way=way).encode()).decode("ascii")
    return found
