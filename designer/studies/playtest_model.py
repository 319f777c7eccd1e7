"""The model's player beside the players of a playtest: fitted to their choices (``fit``), its
predictions set beside what they did (``predicted_beside_observed``), and a log the model itself
plays (``simulated_log``)."""

from __future__ import annotations

import numpy as np

from designer.analysis import player as model
from designer.analysis import player_runs
from designer.core.errors import DesignerError
from designer.core.items import state_table
from designer.core.level import Level
from designer.formats.playtest_log import MOVES, Log, level_id, pack_id
from designer.studies.playtests import Replayed

#: The fewest choices a fit is made on: ten for each of the player's two parameters.
LEAST_CHOICES = 20
#: Below this many choices a fit warns: logs simulated from a known player (a pack of 12 levels of
#: 9x9, 12 seeds a count) gave parameters a median 13% to 31% off (90th percentile 34% to 124%)
#: at 200 to 800 choices, and 9% to 10% off at 900 to 2,800.
FEW_CHOICES = 1000


def fit(
    found: Replayed, pack: list[tuple[str, Level]], start: model.Player = model.DEFAULT
) -> tuple[model.Player, dict]:
    """The player whose choices are likeliest to give the logged ones (maximum likelihood), and
    what the fit saw: choices used, choices where the exit was in sight (the model takes it: they
    carry no information, and one that did not take it is counted as against the model), and the
    log-likelihood per choice."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp

    rows: dict[int, list] = {k: [] for k in range(len(pack))}
    for choice in found.choices:
        rows[choice.level].append(choice)
    toward, valid, back, chosen = [], [], [], []
    in_sight = against = 0
    for k, choices in rows.items():
        if not choices:
            continue
        table = state_table(pack[k][1])
        states = np.array([c.state for c in choices])
        t, v, ends = model.features(table, states, pack[k][1].height)
        exit_seen = (v & (ends == table.goal)).any(axis=0)
        for j, c in enumerate(choices):
            if exit_seen[j]:
                in_sight += 1
                against += int(ends[c.move, j] != table.goal)
                continue
            toward.append(t[:, j])
            valid.append(v[:, j])
            back.append(np.arange(4) == (model.OPPOSITE[c.last] if c.last < 4 else -1))
            chosen.append(c.move)
    if not chosen:
        raise DesignerError(
            "the logs hold no move a player chose away from the exit's sight: nothing to fit"
        )
    if len(chosen) < LEAST_CHOICES:
        raise DesignerError(
            f"the logs hold {len(chosen)} choices to fit (moves chosen away from the exit's "
            f"sight): too few to fit, a fit needs {LEAST_CHOICES} at the least"
        )
    T, V, B, C = np.array(toward), np.array(valid), np.array(back, float), np.array(chosen)
    pick = np.arange(len(C))

    def loss(params: np.ndarray) -> float:
        skill, aversion = params
        u = np.where(V, skill * (T - aversion * B), -np.inf)
        return float(-(u[pick, C] - logsumexp(u, axis=1)).sum())

    result = minimize(
        loss,
        np.array([start.skill, start.back_aversion]),
        method="L-BFGS-B",
        bounds=[(-50, 50), (-50, 50)],
    )
    skill, aversion = (float(round(x, 4)) for x in result.x)
    return model.Player(skill, aversion), {
        "choices": int(len(C)),
        "exit_in_sight": in_sight,
        "against_the_model": against,
        "log_likelihood_per_choice": round(-float(result.fun) / len(C), 4),
        "random_log_likelihood_per_choice": round(float(-np.log(V.sum(axis=1)).mean()), 4),
        **({"warning": few(len(C))} if len(C) < FEW_CHOICES else {}),
    }


def few(choices: int) -> str:
    """The warning of a fit on fewer than ``FEW_CHOICES`` choices.

    >>> few(423)
    'the fit rests on 423 choices, fewer than 1000: its parameters may be 15% to 30% off (docs/player.md)'
    """
    return (
        f"the fit rests on {choices} choices, fewer than {FEW_CHOICES}: its parameters may be 15% "
        "to 30% off (docs/player.md)"
    )


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
    that player must recover. A second a move."""
    from designer.formats.playtest_log import Event

    rng = np.random.default_rng(seed)
    ids = [level_id(level.rows()) for _, level in pack]
    chains = [model.chain(state_table(level), player, height=level.height) for _, level in pack]
    events: list[Event] = []
    for n in range(attempts):
        k = n % len(pack)
        visit, t, attempt, made = f"sim{n}", 0, 1, 0
        events.append(Event(visit, t, k, attempt, "start"))
        table = chains[k].states
        for step in player_runs.play_out(chains[k], rng):
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
