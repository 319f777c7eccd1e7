"""``designer playtest``: logs of the play page read against their pack, figures per level, a
report page, and the model's player fitted to the logs (``designer.studies.playtests``).
``examples/playtest.py`` runs through it: a pack, a log, the figures, a fit."""

from __future__ import annotations

import json
from dataclasses import dataclass

from designer.core.errors import DesignerError


@dataclass(frozen=True)
class Playtested:
    """What ``playtest`` found: the pack ((name, level) in the page's order), the replay, the
    model's predictions beside the players', and the fit (None when not asked)."""

    pack: list
    replayed: object
    compared: list
    player: object
    fit: dict | None = None


def pack_levels(source: str) -> list:
    """The (name, level) pairs a play page of ``source`` (a level file, a pack folder or a
    glissade ``levels.json``) holds, in its order: a room's routes each way, as the page has them.
    A cave is refused in one line (its page plays its rooms as one sheet of keys and locks, which
    the replay does not read)."""
    from designer.core.room import Room
    from designer.ops.exports import _read, is_cave_source

    if is_cave_source(source):
        raise DesignerError(f"--pack {source}: a cave's playtests are not read (a pack of levels or rooms is)")
    files, _ = _read(source)
    out = []
    for item in files:
        if isinstance(item.level, Room):
            for a, b in item.level.routes():
                for route in ((a, b), (b, a)):
                    out.append((f"{item.name}: door {route[0]} to door {route[1]}", item.level.route(*route)))
        else:
            out.append((item.name, item.level))
    return out


def playtest(logs: list[str], pack: str, *, player=None, fit: bool = False) -> Playtested:
    """Read every log (``designer.formats.playtest_log``) against the pack and compare the model's
    ``player`` (default: the fitted one) with the players; with ``fit``, fit the player first."""
    from designer.analysis import player as model
    from designer.studies import playtests
    from designer.formats.playtest_log import read

    if not logs:
        raise DesignerError("give at least one playtest log")
    levels = pack_levels(pack)
    replayed = playtests.replay([(path, read(path)) for path in logs], levels)
    chosen, report = player or model.DEFAULT, None
    if fit:
        chosen, report = playtests.fit(replayed, levels, chosen)
    return Playtested(levels, replayed, playtests.predicted_beside_observed(replayed, levels, chosen), chosen, report)


def player_file(found: Playtested) -> str:
    """The player file of a fit (``--player FILE`` of every command that uses the model)."""
    obj = found.player.to_json()
    obj["fit"] = {**(found.fit or {}), "levels": [one for one in found.compared if one["observed_moves"] is not None]}
    return json.dumps(obj, indent=2) + "\n"


def lines(found: Playtested) -> list[str]:
    """The per-level figures ``playtest`` prints."""
    out = []
    for stats, seen in zip(found.replayed.levels, found.compared):
        if not stats.players:
            out.append(f"{stats.name}: no players")
            continue
        q = stats.to_json()
        moves = "-" if q["moves"] is None else (f"median {q['moves'][1]:g} [{q['moves'][0]:g}-{q['moves'][2]:g}], "
                                                f"mean {seen['observed_moves']:.1f}")
        secs = "-" if q["seconds"] is None else f"{q['seconds'][1]:.0f} s [{q['seconds'][0]:.0f}-{q['seconds'][2]:.0f}]"
        over = "-" if q["over_par"] is None else f"+{q['over_par'][1]:g}"
        quits = ", ".join(f"{tuple(cell)} x{n}" for cell, n in q["quit_at"]) or "nowhere"
        predicted = "-" if seen["predicted_moves"] is None else f"{seen['predicted_moves']:.1f}"
        out.append(f"{stats.name}: {stats.players} player{'s' * (stats.players != 1)}, "
                   f"{stats.share_finished:.0%} finished; moves {moves} (the model's mean {predicted}), time {secs}, "
                   f"over par {over}; restarts {q['restarts']:.2f}, undos {q['undos']:.2f}, hints "
                   f"{q['hints']:.2f} a player, solver {stats.solver}; quit at {quits}")
    if found.replayed.skipped:
        names = ", ".join(sorted(found.replayed.skipped)[:5])
        count = sum(found.replayed.skipped.values())
        out.append(f"skipped {count} event{'s' * (count != 1)} of {len(found.replayed.skipped)} level"
                   f"{'s' * (len(found.replayed.skipped) != 1)} not in the pack: {names}")
    return out


def report_page(found: Playtested, title: str = "ice-designer playtest") -> str:
    """The report: offline HTML, per level a heat map of where players rested and one of where
    they restarted, and the pack's curve, observed beside predicted beside asked."""
    import html

    from designer.export.picture import draw_level, svg_text

    parts = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>"
             "body{font:15px/1.4 sans-serif;margin:16px;color:#1d2a36;background:#eef5f9}"
             ".level{display:inline-block;vertical-align:top;margin:0 16px 20px 0;max-width:100%}"
             "svg{max-width:100%;height:auto}.maps{display:flex;gap:8px;flex-wrap:wrap}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>", _curve_svg(found), "<ul>"]
    parts += [f"<li>{html.escape(line)}</li>" for line in lines(found)]
    parts.append("</ul>")
    for (name, level), stats in zip(found.pack, found.replayed.levels):
        rests = {cell: float(n) for cell, n in stats.rests.items()}
        restarts = {cell: float(n) for cell, n in stats.restarted_at.items()}
        cell = max(8, min(24, 480 // max(level.width, 1)))
        maps = [f"<figure><figcaption>{what}</figcaption>{svg_text(draw_level(level, cell=cell, heat=heat or None))}"
                "</figure>" for what, heat in (("where players rested", rests), ("where they restarted", restarts))]
        parts.append(f"<section class=\"level\"><h2>{html.escape(name)}</h2><p>{stats.players} players, "
                     f"{stats.share_finished:.0%} finished</p><div class=\"maps\">{''.join(maps)}</div></section>")
    parts.append("</body></html>\n")
    return "".join(parts)


def _curve_svg(found: Playtested) -> str:
    """The pack's curve on the 1-10 scale: observed (the players' mean moves to the finish),
    predicted (the model's expected moves) and asked (the par each level was asked for)."""
    from designer.analysis.player import scale

    n = len(found.pack)
    width, height, pad = max(320, 40 * n), 220, 30
    series = {"observed": ("#d9433b", [one["observed_difficulty"] for one in found.compared]),
              "predicted": ("#1d6fb8", [one["predicted_difficulty"] for one in found.compared]),
              "asked (par)": ("#888", [scale(stats.par) if stats.par > 0 else None for stats in found.replayed.levels])}
    out = [f"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" role=\"img\" "
           f"aria-label=\"the pack's curve\"><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"]
    x = lambda k: pad + (width - 2 * pad) * (k / max(1, n - 1))  # noqa: E731
    y = lambda v: height - pad - (height - 2 * pad) * (v - 1) / 9  # noqa: E731
    for v in (1, 4, 7, 10):
        out.append(f"<text x=\"4\" y=\"{y(v) + 4:.0f}\" font-size=\"11\">{v}</text>")
    for k, (label, (colour, values)) in enumerate(series.items()):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values) if v is not None)
        out.append(f"<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{points}\" class=\"curve\"/>")
        out.append(f"<text x=\"{pad + 110 * k}\" y=\"16\" font-size=\"12\" fill=\"{colour}\">{label}</text>")
    out.append("</svg>")
    return "".join(out)
