"""``designer playtest``: logs of the play page read against their pack, figures per level, a
report page, and the model's player fitted to the logs (``designer.studies.playtests``).
``examples/playtest.py`` runs through it: a pack, a log, the figures, a fit."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from designer.core.errors import DesignerError, shown
from designer.core.limits import MAX_LIVE_LINES

if TYPE_CHECKING:
    from designer.analysis.player import Player
    from designer.studies.playtests import Replayed


@dataclass(frozen=True)
class Playtested:
    """What ``playtest`` found: the pack ((name, level) in the page's order), the replay, the
    model's predictions beside the players', and the fit (None when not asked)."""

    pack: list
    replayed: Replayed
    compared: list
    player: Player
    fit: dict | None = None


def pack_levels(source: str) -> list:
    """The (name, level) pairs a play page of ``source`` (a level file, a pack folder or a
    glissade ``levels.json``) holds, in its order: a room's routes each way, as the page has them.
    A cave is refused in one line (its page plays its rooms as one sheet of keys and locks, which
    the replay does not read)."""
    from designer.ops.kinds.files import file_kind

    return file_kind(source).played_levels_of(source)


def page_levels(levels: list) -> list:
    """The (name, level) pairs of a play page of ``levels`` ((name, level or room) pairs), in the
    page's order, each as its kind plays it: a room's routes each way, named as the page names
    them."""
    from designer.ops.kinds.registry import entry_kind

    return [pair for name, level in levels for pair in entry_kind(level).played_levels(name, level)]


def playtest(
    logs: list[str], pack: str, *, player=None, fit: bool = False, member: str | None = None
) -> Playtested:
    """Read every log (``designer.formats.playtest_log``) against the pack and compare the model's
    ``player`` (default: the fitted one) with the players; with ``fit``, fit the player first:
    the family's ``member``, or the member that explains held-out choices best (None)."""
    from designer.analysis import player as model
    from designer.formats.playtest_log import read
    from designer.studies import playtest_fit, playtest_model, playtests

    if not logs:
        raise DesignerError("give at least one playtest log")
    levels = pack_levels(pack)
    replayed = playtests.replay([(path, read(path)) for path in logs], levels)
    chosen, report = player or model.DEFAULT, None
    if fit:
        chosen, report = playtest_fit.fit(replayed, levels, member)
    return Playtested(
        levels,
        replayed,
        playtest_model.predicted_beside_observed(replayed, levels, chosen),
        chosen,
        report,
    )


def player_file(found: Playtested) -> str:
    """The player file of a fit (``--player FILE`` of every command that uses the model)."""
    obj = found.player.to_json()
    from designer.studies.playtest_model import rounded

    obj["fit"] = {
        **(found.fit or {}),
        "levels": [rounded(one) for one in found.compared if one["observed_moves"] is not None],
    }
    return json.dumps(obj, indent=2) + "\n"


def check_member(member: str, fitting: bool) -> None:
    """``--member``'s value, refused in one line unless it names a member and comes with a fit."""
    from designer.core.players import MEMBERS

    if not fitting:
        raise DesignerError("--member says which member --fit fits: give --fit FILE too")
    if member not in MEMBERS:
        raise DesignerError(
            f"--member must name a member of the family ({', '.join(MEMBERS)}), not "
            f"{shown(member)!r}"
        )


def fit_lines(found: Playtested) -> list[str]:
    """What ``playtest --fit`` prints of its fit: the player, the figures beside the simple
    player's and a random one's, each member's held-out figure, and per level."""
    f = found.fit or {}
    player = found.player.to_json()
    named = ", ".join(
        f"{name} {value:g}" if value is not None else f"{name} never"
        for name, value in player.items()
        if name not in ("format", "member")
    )
    out = [
        f"fit: the {f['member']} player ({named}) from {f['choices']} choices and "
        f"{f['restarts_asked']} restarts asked for; log-likelihood a choice {f['log_likelihood_per_choice']} "
        f"(the simple player {f['simple_log_likelihood_per_choice']}, at random "
        f"{f['random_log_likelihood_per_choice']}); {f['exit_in_sight']} with the exit in "
        f"sight, {f['against_the_model']} of them not taking it"
    ]
    if "held_out" in f:
        held = ", ".join(
            f"{name} {value}{' (won)' * (name == f['member'])}"
            for name, value in f["held_out"].items()
        )
        out.append(f"held out (fitted on half the attempts, scored on the others): {held}")
    for one in f["per_level"]:
        out.append(
            f"fit on {shown(one['name'])}: {one['fitted']} a choice over {one['choices']} "
            f"(the simple player {one['simple']}, at random {one['random']})"
        )
    return out


def lines(found: Playtested) -> list[str]:
    """The per-level figures ``playtest`` prints."""
    out = []
    for stats, seen in zip(found.replayed.levels, found.compared):
        name = shown(stats.name)  # a file's or a log's name: shown, never obeyed by a terminal
        if not stats.players:
            out.append(f"{name}: no players")
            continue
        q = stats.to_json()
        moves = (
            "-"
            if q["moves"] is None
            else (
                f"median {q['moves'][1]:g} [{q['moves'][0]:g}-{q['moves'][2]:g}], "
                f"mean {seen['observed_moves']:.1f}"
            )
        )
        secs = (
            "-"
            if q["seconds"] is None
            else f"{q['seconds'][1]:.0f} s [{q['seconds'][0]:.0f}-{q['seconds'][2]:.0f}]"
        )
        over = "-" if q["over_par"] is None else f"+{q['over_par'][1]:g}"
        quits = ", ".join(f"{tuple(cell)} x{n}" for cell, n in q["quit_at"]) or "nowhere"
        predicted = "-" if seen["predicted_moves"] is None else f"{seen['predicted_moves']:.1f}"
        out.append(
            f"{name}: {stats.players} player{'s' * (stats.players != 1)}, "
            f"{stats.share_finished:.0%} finished; moves {moves} (the model's mean {predicted}), time {secs}, "
            f"over par {over}; restarts {q['restarts']:.2f}, undos {q['undos']:.2f}, hints "
            f"{q['hints']:.2f} a player, solver {stats.solver}; quit at {quits}"
        )
    if found.replayed.skipped:
        names = ", ".join(shown(name) for name in sorted(found.replayed.skipped)[:5])
        count = sum(found.replayed.skipped.values())
        out.append(
            f"skipped {count} event{'s' * (count != 1)} of {len(found.replayed.skipped)} level"
            f"{'s' * (len(found.replayed.skipped) != 1)} not in the pack: {names}"
        )
    return out


def report_page(found: Playtested, title: str = "ice-designer playtest") -> str:
    """The report: offline HTML, per level a heat map of where players rested and one of where
    they restarted, and the pack's curve, observed beside predicted beside asked."""
    import html

    from designer.export.picture import draw_level, svg_text

    parts = [
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><style>'
        "body{font:15px/1.4 sans-serif;margin:16px;color:#1d2a36;background:#eef5f9}"
        ".level{display:inline-block;vertical-align:top;margin:0 16px 20px 0;max-width:100%}"
        "svg{max-width:100%;height:auto}.maps{display:flex;gap:8px;flex-wrap:wrap}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        _curve_svg(found),
        "<ul>",
    ]
    parts += [f"<li>{html.escape(line)}</li>" for line in lines(found)]
    parts.append("</ul>")
    for (name, level), stats in zip(found.pack, found.replayed.levels):
        rests = {cell: float(n) for cell, n in stats.rests.items()}
        restarts = {cell: float(n) for cell, n in stats.restarted_at.items()}
        cell = max(8, min(24, 480 // max(level.width, 1)))
        maps = [
            f"<figure><figcaption>{what}</figcaption>{svg_text(draw_level(level, cell=cell, heat=heat or None))}"
            "</figure>"
            for what, heat in (("where players rested", rests), ("where they restarted", restarts))
        ]
        parts.append(
            f'<section class="level"><h2>{html.escape(name)}</h2><p>{stats.players} players, '
            f'{stats.share_finished:.0%} finished</p><div class="maps">{"".join(maps)}</div></section>'
        )
    parts.append("</body></html>\n")
    return "".join(parts)


def _curve_svg(found: Playtested) -> str:
    """The pack's curve on the 1-10 scale: observed (the players' mean moves to the finish),
    predicted (the model's expected moves) and par (each level's fewest moves, on the same
    scale), each level a point on its line, so that a curve of one level is seen too."""
    from designer.analysis.player import scale

    n = len(found.pack)
    width, height, pad = max(320, 40 * n), 220, 30
    series = {
        "observed": ("#d9433b", [one["observed_difficulty"] for one in found.compared]),
        "predicted": ("#1d6fb8", [one["predicted_difficulty"] for one in found.compared]),
        "par (scaled)": (
            "#888",
            [scale(stats.par) if stats.par > 0 else None for stats in found.replayed.levels],
        ),
    }
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="the pack\'s curve"><rect width="100%" height="100%" fill="#fff"/>'
    ]
    x = lambda k: pad + (width - 2 * pad) * (k / max(1, n - 1))  # noqa: E731
    y = lambda v: height - pad - (height - 2 * pad) * (v - 1) / 9  # noqa: E731
    for v in (1, 4, 7, 10):
        out.append(f'<text x="4" y="{y(v) + 4:.0f}" font-size="11">{v}</text>')
    for k, (label, (colour, values)) in enumerate(series.items()):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values) if v is not None)
        out.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}" class="curve"/>'
        )
        out += [
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{colour}" class="point">'
            f"<title>{label}, level {i + 1}: {v:.1f}</title></circle>"
            for i, v in enumerate(values)
            if v is not None
        ]
        out.append(
            f'<text x="{pad + 110 * k}" y="16" font-size="12" fill="{colour}">{label}</text>'
        )
    out.append("</svg>")
    return "".join(out)


class Behind(Exception):
    """Lines sent from another place than where the studio's count of the visit stands."""

    def __init__(self, have: int):
        super().__init__(f"the studio has {have} lines of this visit")
        self.have = have


class Live:
    """A playtest the studio runs: the play page of ``levels`` ((name, level or room) pairs),
    which sends each line of its log to ``sink`` as it is recorded, and the lines received so
    far, replayed by the rules as they arrive, as ``playtest`` reads a saved log.

    >>> from designer.core.level import Level
    >>> live = Live([("one", Level.from_rows(["####", "#SG#", "####"]))], sink="/lines")
    >>> line = {"visit": "v", "t": 0, "level": 0, "attempt": 1, "event": "start"}
    >>> live.take("v", 0, [line, {**line, "t": 700, "event": "move", "move": "r", "at": [1, 2], "by": "player"}])
    2
    >>> live.figures()["levels"][0]["players"]
    1
    """

    def __init__(
        self, levels: list, *, sink: str, title: str = "ice-designer playtest", player=None
    ) -> None:
        from designer.ops.kinds.registry import page
        from designer.studies.playtests import Replay

        self.pack = page_levels(levels)
        self.page = page(levels, title=title, sink=sink)
        self.replaying = Replay(self.pack)
        self.header = (
            self.replaying.pack_id,
            tuple((name, ident) for (name, _), ident in zip(self.pack, self.replaying.ids)),
        )
        self.player = player  # the model's player beside the players (None: the default)
        self.events: list = []
        self.have: dict[str, int] = {}  # visit -> its lines taken
        self._figures: tuple[int, dict] | None = None

    def take(self, visit: str, start: int, lines: list) -> int:
        """Visit ``visit``'s lines from its ``start``-th on, checked as a saved log's lines are and
        replayed by the rules; how many of the visit's lines the studio now has. ``Behind`` when
        ``start`` is not that count; DesignerError (one line, nothing taken) for a line that is
        not the format, not this visit's, or a move the rules do not give."""
        from designer.formats.playtest_log import Log, event_of

        if not isinstance(visit, str) or not 1 <= len(visit) <= 64:
            raise DesignerError("visit: the page's visit id, a short text")
        have = self.have.get(visit, 0)
        if start != have:
            raise Behind(have)
        if not lines:  # nothing to take: a visit is known by its lines, never by a request alone
            return have
        if len(self.events) + len(lines) > MAX_LIVE_LINES:
            raise DesignerError(
                f"the playtest holds its most lines ({MAX_LIVE_LINES:,}): save it and start another"
            )
        events = [
            event_of(obj, "the page", have + k + 1, len(self.pack)) for k, obj in enumerate(lines)
        ]
        if any(event.visit != visit for event in events):
            raise DesignerError("the page's lines name another visit than their own")
        try:
            self.replaying.add("the page", Log(*self.header, tuple(events)), continuing=True)
        # all or nothing: the lines taken before, replayed again without these
        except DesignerError:
            from designer.studies.playtests import Replay

            self.replaying = Replay(self.pack)
            self.replaying.add("the page", Log(*self.header, tuple(self.events)))
            raise
        self.events += events
        self.have[visit] = have + len(events)
        return self.have[visit]

    def found(self, player=None) -> Playtested:
        """What ``playtest`` finds in the lines so far, beside the model's ``player`` (default: the
        studio's player, else the default one)."""
        from designer.analysis import player as model
        from designer.studies import playtest_model

        chosen = player or self.player or model.DEFAULT
        replayed = self.replaying.result()
        return Playtested(
            self.pack,
            replayed,
            playtest_model.predicted_beside_observed(replayed, self.pack, chosen),
            chosen,
        )

    def figures(self) -> dict:
        """The studio's live view: lines and visits so far, ``playtest``'s lines, and per level
        the players' figures beside the model's."""
        from designer.studies.playtest_model import rounded

        if self._figures is None or self._figures[0] != len(self.events):
            found = self.found()
            self._figures = (
                len(self.events),
                {
                    "lines": len(self.events),
                    "visits": len(self.have),
                    "report": lines(found),
                    "levels": [
                        {**stats.to_json(), **rounded(seen)}
                        for stats, seen in zip(found.replayed.levels, found.compared)
                    ],
                },
            )
        return self._figures[1]

    def log_text(self) -> str:
        """The lines so far as a saved playtest log (``designer playtest`` reads it)."""
        from designer.formats.playtest_log import Log, write

        return write(Log(*self.header, tuple(self.events)))
