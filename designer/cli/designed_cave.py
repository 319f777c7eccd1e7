"""What ``designer cave`` prints of a designed cave: its way room by room, its keys, its predicted
difficulty and its rooms', and how it was made."""

from __future__ import annotations

#: The most seconds the summary of a cave with coins spends on its full clear.
FULL_CLEAR_SECONDS = 2.0


def landed(record: dict) -> str:
    """How a cave asked a band of predicted difficulty landed in it: ", aimed 8.6..9.7, design 2
    of at most 8 (seed 1000002)"; nothing for a cave asked none."""
    landing = record.get("felt")
    if landing is None:
        return ""
    from designer.caves.felt import TRIES, said

    band = said(tuple(landing["band"]))
    designs = landing["designs"]
    asked = "aimed" if landing["aim"] else "asked"
    if not landing["in_band"]:
        return f", {asked} {band}: not reached in {designs} designs, the nearest kept"
    return f", {asked} {band}, design {designs} of at most {TRIES} (seed {landing['seed']})"


def summary(found) -> str:
    """The line ``designer cave`` prints for a designed cave: its way, its rooms, how it was made."""
    a, record = found.analysis, found.record
    stops = ", ".join(f"{visit.room} {visit.stops}" for visit in a.way.visits)
    keys = (
        "; "
        + ", ".join(
            f"key {k.name} needed" if k.needed else f"key {k.name} saves {k.without - k.stops}"
            for k in a.keys
        )
        if a.keys
        else ""
    )
    from designer.analysis.routes import room_difficulty
    from designer.caves.cave_analysis import played

    rooms = ", ".join(f"{room.name} {room_difficulty(room.room)}" for room in found.cave.rooms)
    # a cave asked a band was measured as it landed: its record holds what it felt
    difficulty = record["felt"]["difficulty"] if "felt" in record else played(found.cave).difficulty
    felt = f"; predicted difficulty {difficulty:g}{landed(record)} (rooms, their hardest route: {rooms})"
    coins = len(found.cave.coins)
    if coins:  # the coins a template drew: the full clear, searched for at most FULL_CLEAR_SECONDS
        from designer.caves.coins import full_clear

        felt += f"; full clear ({coins} coin{'s' * (coins > 1)}) {full_clear(found.cave, FULL_CLEAR_SECONDS).words()}"
    return (
        f"designed: a cave of {len(found.cave.rooms)} rooms, min stops {a.min_stops} ({stops}); strong on the "
        f"whole graph, every room strong and reversible on every route{keys}{felt} (cave: {record['rounds']} "
        f"round{'s' if record['rounds'] != 1 else ''} of plan and rooms, seed {record['seed']}, "
        f"{record['seconds']:.2f} s)"
    )
