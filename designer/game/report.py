"""The game's report for its maker (docs/spec.md, "Games", "The report"): one HTML page, no script,
with each world's mechanic, its teaching level's ablation, the curve of predicted difficulty across
the game (a drawing), the variety figures, and every level's par, difficulty and verified class.
"""

from __future__ import annotations

import html

from designer.game.design import Game

#: The drawing of the curve: pixels per level, and its height.
STEP, HEIGHT = 14, 160


def report_page(game: Game, found: dict | None = None) -> str:
    """The report's HTML, from the game's ``game.json`` figures (``found``; None: worked out)."""
    from designer.game.files import index, level_file
    from designer.game.teach import held_words

    found = index(game) if found is None else found
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(game.plan.title)}: the report</title>",
        "<style>body{font:15px/1.4 'DejaVu Sans',Verdana,sans-serif;margin:16px;color:#1d2a36}"
        "table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #c5d0d8;"
        "padding:2px 8px;text-align:left}svg{max-width:100%;height:auto}</style></head><body>",
        f"<h1>{html.escape(game.plan.title)}</h1>",
        f"<p>Seed {game.plan.seed}; {sum(len(w.levels) for w in game.worlds)} levels and "
        f"{sum(w.cave is not None for w in game.worlds)} caves in {len(game.worlds)} worlds, "
        "every one verified.</p>",
        "<h2>Predicted difficulty across the game</h2>",
        _curve(game),
    ]
    variety = found["variety"]
    near = variety["closest"]
    parts += [
        "<h2>Variety</h2><ul>",
        f"<li>sizes: {html.escape(', '.join(variety['sizes']))}</li>",
        f"<li>styles of layout: {html.escape(', '.join(variety['styles']))}</li>",
        f"<li>near copies: layouts closer than {variety['near']:.0%} of their open cells, or "
        f"{variety['same_way']:.0%} with one solution shape; none in the game</li>",
        "<li>the closest two levels: "
        + (
            "none"
            if near is None
            else f"{html.escape(' and '.join(near['levels']))}, {near['distance']:.1%} apart"
        )
        + "</li>",
        f"<li>fewest-moves solutions repeated: {variety['solutions_repeated']}</li></ul>",
    ]
    for n, (world, said) in enumerate(zip(game.worlds, found["worlds"]), 1):
        parts.append(
            f"<h2>World {n}: {html.escape(world.world.name)} ({html.escape(world.world.mechanic)}, "
            f"band {html.escape(world.world.band)})</h2>"
        )
        teaching = world.levels[0].ablation
        if teaching is not None:
            parts.append(f"<p>Teaching level: {html.escape(teaching.words())}.</p>")
        parts.append(
            "<table><tr><th>level</th><th>role</th><th>mechanics</th><th>style</th><th>par</th>"
            "<th>difficulty</th><th>class</th></tr>"
        )
        for k, entry in enumerate(said["levels"], 1):
            parts.append(
                f"<tr><td>{html.escape(level_file(n, k))}</td><td>{entry['role']}</td>"
                f"<td>{html.escape(', '.join(entry['mechanics']))}</td><td>{entry['style']}</td>"
                f"<td>{entry['par']}</td>"
                f"<td>{entry['difficulty']:.2f}</td><td>{entry['class']}</td></tr>"
            )
        parts.append("</table>")
        cave = said["cave"]
        if cave is not None:
            needed = "each needed" if all(cave["keys_needed"]) else "not each needed"
            rooms = ", ".join(f"{name} {size}" for name, size in zip(cave["rooms"], cave["sizes"]))
            keys = ", ".join(
                f"{key} ({'opens a key room' if pattern == 'chain' else 'opens a gate'})"
                for key, pattern in zip(cave["keys"], cave["key_patterns"])
            )
            held = " " + held_words(cave["ablation"]) if cave["ablation"] else ""
            parts.append(
                f"<p>The cave ({html.escape(cave['file'])}): rooms {html.escape(rooms)}; keys "
                f"{html.escape(keys)}, {needed}; par {cave['par']}.{html.escape(held)}</p>"
            )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _curve(game: Game) -> str:
    """The predicted difficulty of every level in order, a polyline per world, 0 to 10."""
    width = max(1, sum(len(world.levels) for world in game.worlds)) * STEP + STEP
    lines, k = [], 0
    for world in game.worlds:
        points = []
        for one in world.levels:
            k += 1
            y = HEIGHT - one.difficulty / 10 * HEIGHT
            points.append(f"{k * STEP},{y:.1f}")
        lines.append(
            f'<polyline fill="none" stroke="#2f80ed" stroke-width="2" points="{" ".join(points)}"/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT}" '
        f'viewBox="0 0 {width} {HEIGHT}" role="img" aria-label="predicted difficulty by level">'
        f'<rect width="{width}" height="{HEIGHT}" fill="#f4f8fb"/>' + "".join(lines) + "</svg>"
    )
