"""The model's player beside the players of a playtest: its predictions set beside what they did
(``predicted_beside_observed``), and a log the model itself plays (``simulated_log``). The fit
to their choices is ``designer.studies.playtest_fit``'s."""

from __future__ import annotations

import numpy as np

from designer.analysis import player as model
from designer.analysis import player_runs
from designer.core.items import state_table
from designer.core.level import Level
from designer.formats.playtest_log import MOVES, Log, level_id, pack_id
from designer.studies.playtests import Replayed


def predicted_beside_observed(
    found: Replayed, pack: list[tuple[str, Level]], player: model.Player
) -> list[dict]:
    """Per level: the model's expected moves and difficulty beside the players' mean moves to the
    finish (finishers) and the difficulty those moves give on the same scale, unrounded (a line
    rounds once, as it prints; ``rounded`` as a file keeps them)."""
    out = []
    for (name, level), stats in zip(pack, found.levels):
        try:
            figures = model.play(level, player)
        except Exception:  # an unsolvable level: nothing to predict
            figures = None
        observed = float(np.mean(stats.moves)) if stats.moves else None
        out.append(
            {
                "name": name,
                "predicted_moves": None if figures is None else figures.expected_moves,
                "predicted_difficulty": None if figures is None else figures.difficulty,
                "observed_moves": observed,
                "observed_difficulty": None if observed is None else model.scale(observed),
                "ratio": None
                if figures is None or not observed
                else observed / figures.expected_moves,
            }
        )
    return out


def rounded(compared: dict) -> dict:
    """One level's ``predicted_beside_observed`` as a file keeps it: moves to 2 decimals, the
    ratio to 3."""
    places = {"predicted_moves": 2, "observed_moves": 2, "ratio": 3}
    return {
        name: value if value is None or name not in places else round(value, places[name])
        for name, value in compared.items()
    }


def simulated_log(
    pack: list[tuple[str, Level]], player: model.Player, attempts: int, seed: int = 0
) -> Log:
    """A playtest log of ``attempts`` visits by the model's ``player``, spread over the pack's
    levels in turn (one visit, one level, played to the exit; a trap is a restart): what a fit of
    that player must recover (a restart it asks for is logged as the page logs one). A second a
    move."""
    from designer.formats.playtest_log import Event

    rng = np.random.default_rng(seed)
    ids = [level_id(level.rows()) for _, level in pack]
    chains = [model.walked_chain(state_table(level), player, level.height) for _, level in pack]
    events: list[Event] = []
    for n in range(attempts):
        k = n % len(pack)
        visit, t, attempt, made = f"sim{n}", 0, 1, 0
        events.append(Event(visit, t, k, attempt, "start"))
        table = chains[k].states
        for step in player_runs.play_out(chains[k], rng, player=player):
            t += 1000
            if step is None:
                events.append(Event(visit, t, k, attempt, "restart"))
                attempt, made = attempt + 1, 0
                events.append(Event(visit, t, k, attempt, "start"))
                continue
            d, end = step
            made += 1
            events.append(Event(visit, t, k, attempt, "move", MOVES[d], table.cell(end)))
        events.append(Event(visit, t, k, attempt, "finish", moves=made))
    return Log(
        pack_id(ids), tuple((name, ident) for (name, _), ident in zip(pack, ids)), tuple(events)
    )
