"""The player family fitted to the choices players made (docs/player.md, "The family").

Each choice away from the exit's sight has an exact probability under a member of the family
(``designer.studies.playtest_choices`` gives what that attempt had seen): with ``u = skill *
(toward_f - back_aversion * back) + memory * new + route * route_gain + turn * side + variety *
untried``, a move's
chance is ``(1 - lapse) * softmax(u) + lapse / open moves``, times the chance not to give up,
``1 - h(stale)``, and a restart asked for has the chance ``h(stale) = 1 / (1 + exp(patience -
stale))``. With the exit in sight, a member who may not notice it (``notice``) takes it with the
chance ``notice`` and otherwise picks as anywhere else: a move's chance is ``notice * onto +
(1 - notice) * p``, ``onto`` 1 for the move onto the exit, ``p`` the chance above; the other
members always take the exit, and are fitted on the choices away from its sight alone. (No member
has both ``notice`` and ``patience``: giving up is read away from the exit's sight.) A fit
maximises the log-likelihood of the logged choices: the weights, the lapse and the notice
together (L-BFGS-B, with the exact gradient), each foresight in turn, and the patience on its
own (its part of the likelihood is apart from the rest).

``compare`` fits every member on half the attempts (``halves``) and scores it on the other
half (its moves, and its choices to give up: ``held_out_score``): the member with the best
held-out log-likelihood per choice wins (``winner``), and is fitted again on all of them.
"""

from __future__ import annotations

import math

import numpy as np

from designer.core.errors import DesignerError
from designer.core.level import Level
from designer.core.players import DEFAULT, MEMBERS, MOST_FORESIGHT, RANGES, Player
from designer.studies.playtest_choices import Choices, choices_of
from designer.studies.playtests import RESTART, Replayed

#: The fewest choices a fit is made on: ten for each parameter of the simple player.
LEAST_CHOICES = 20
#: Below this many choices a fit warns: logs simulated from a known simple player (a pack of 12
#: levels of 9x9, 12 seeds a count) gave parameters a median 13% to 31% off (90th percentile
#: 34% to 124%) at 200 to 800 choices, and 9% to 10% off at 900 to 2,800.
FEW_CHOICES = 1000

#: The weights and the chances a fit moves, in this order.
FITTED = ("skill", "back_aversion", "memory", "lapse", "route", "turn", "notice", "variety")
#: A lapse is fitted within these (a lapse of exactly 0 has no gradient to leave it by), and the
#: notice within these (at 1 a move past the exit would have no chance, and one held out would
#: score minus infinity: a player who always took the exit is fitted 0.9999).
LAPSE_BOUNDS = (1e-6, 0.95)
NOTICE_BOUNDS = (0.0, 0.9999)


def move_log_likelihood(player: Player, data: Choices) -> np.ndarray:
    """Each move's log-probability under ``player``, away from the exit's sight (its restarts
    asked for left out, and the chance not to give up not counted: ``give_up_log_likelihood``
    has it)."""
    away = data.away()
    return _moves(_params(player), away.where(away.move != RESTART), player.foresight)[0]


def sight_log_likelihood(player: Player, fit_on: Choices, held: Choices) -> np.ndarray:
    """Each move of ``held`` made with the exit in sight, its log-probability: under ``player``
    when it may not notice the exit; for a member that always takes it, as one that takes it at
    the rate the moves of ``fit_on`` did, whatever it sees, and otherwise picks among the other
    moves by its own weights (so a member with ``notice`` gains only where the moves past the
    exit follow what the player sees)."""
    in_sight = held.where(held.exit.any(axis=1) & (held.move != RESTART))
    if "notice" in MEMBERS[player.member]:
        return _moves(_params(player), in_sight, player.foresight)[0]
    before = fit_on.where(fit_on.exit.any(axis=1) & (fit_on.move != RESTART))
    rate = min(max(float(_took(before).mean()) if before.count else 1.0, 1e-6), 1 - 1e-6)
    past, onto = _moves(_params(player), in_sight, player.foresight, exit_chance=True)
    past -= np.log1p(-np.minimum(onto, 1 - 1e-12))  # among the moves past the exit
    return np.where(_took(in_sight), math.log(rate), math.log1p(-rate) + past)


def _took(data: Choices) -> np.ndarray:
    """Whether each choice took a move onto the exit."""
    return data.exit[np.arange(data.count), np.minimum(data.move, 3)] & (data.move != RESTART)


def _params(player: Player) -> np.ndarray:
    return np.array([float(getattr(player, name)) for name in FITTED])


def _moves(
    p: np.ndarray,
    data: Choices,
    foresight: int,
    counts: np.ndarray | None = None,
    *,
    exit_chance: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Each move's log-probability, and the gradient of their sum (each row counted ``counts``
    times) in ``FITTED``'s order. A move in sight of the exit counts the notice (the module
    docstring says how); with ``exit_chance``, each move's log-probability before the notice and,
    instead of the gradient, each row's chance of the moves onto the exit before it."""
    skill, back_aversion, memory, lapse, route, turn, notice, variety = p
    near, valid, back, new = data.toward[foresight], data.valid, data.back, data.new
    move = data.move
    pick = np.arange(move.size)
    seen = skill * (near - back_aversion * back) + memory * new + route * data.route
    seen = seen + variety * data.untried
    u = np.where(valid, seen + turn * data.side, -np.inf)
    u = u - u.max(axis=1, keepdims=True)
    e = np.exp(u)
    total = e.sum(axis=1)
    q = e / total[:, None]
    log_q = u[pick, move] - np.log(total)
    open_moves = valid.sum(axis=1)
    if lapse > 0:
        log_p = np.logaddexp(math.log1p(-lapse) + log_q, math.log(lapse) - np.log(open_moves))
    else:
        log_p = log_q
    if exit_chance:
        at_random = np.where(valid, 1.0 / open_moves[:, None], 0.0)
        return log_p, (((1 - lapse) * q + lapse * at_random) * data.exit).sum(axis=1)
    share = np.exp(math.log1p(-lapse) + log_q - log_p)  # the softmax's part of each move's chance
    # in sight of the exit: notice * onto + (1 - notice) * p; ``kept``: the part of p in it
    in_sight = data.exit.any(axis=1)
    onto = data.exit[pick, move] / np.maximum(1, data.exit.sum(axis=1))
    log_final, kept = log_p, np.ones(move.size)
    if in_sight.any():
        with np.errstate(divide="ignore"):
            noticed = np.where(onto > 0, np.log(notice * onto), -np.inf)
            past = math.log1p(-notice) + log_p if notice < 1 else np.full(move.size, -np.inf)
        log_final = np.where(in_sight, np.logaddexp(noticed, past), log_p)
        kept = np.where(in_sight, np.exp(past - log_final), 1.0)

    times = np.ones(move.size) if counts is None else counts
    weight = share * times * kept

    def along(du: np.ndarray) -> float:
        du = np.where(valid, du, 0.0)
        return float((weight * (du[pick, move] - (q * du).sum(axis=1))).sum())

    by_notice = np.where(in_sight, (onto - np.exp(log_p)) * np.exp(-log_final), 0.0)
    gradient = np.array(
        [
            along(near - back_aversion * back),
            along(-skill * back.astype(float)),
            along(new.astype(float)),
            float(((1 / open_moves - np.exp(log_q)) * np.exp(-log_p) * times * kept).sum()),
            along(data.route),
            along(data.side),
            float((by_notice * times).sum()),
            along(data.untried.astype(float)),
        ]
    )
    return log_final, gradient


def give_up_log_likelihood(patience: float, data: Choices) -> float:
    """The log-likelihood of every choice to go on or to restart (after at least one move
    without a new stop) under ``patience``."""
    stale, quit = _give_up_rows(data)
    x = stale - patience
    return float((quit * x - np.logaddexp(0.0, x)).sum())


def _give_up_rows(data: Choices) -> tuple[np.ndarray, np.ndarray]:
    keep = (data.stale > 0) & ~data.exit.any(axis=1)
    return data.stale[keep].astype(float), data.move[keep] == RESTART


def fit_member(member: str, data: Choices) -> Player:
    """The ``member`` likeliest to have made the choices of ``data``."""
    from scipy.optimize import minimize, minimize_scalar

    free = MEMBERS[member]
    moves = data if "notice" in free else data.away()
    moves = moves.where(moves.move != RESTART)
    if not moves.count:
        raise ValueError("no move to fit")
    rows, counts = moves.same()
    moves = moves.where(rows)
    # the start: the default player, who lapses a little and misses the exit now and then if
    # the member can (logs that tell nothing, every choice with one move, leave it as it is)
    aversion = DEFAULT.back_aversion if "back_aversion" in free else 0.0
    lapse = 0.05 if "lapse" in free else 0.0
    notice = 0.9 if "notice" in free else 1.0
    base = np.array([DEFAULT.skill, aversion, 0.0, lapse, 0.0, 0.0, notice, 0.0])
    mask = np.array([name in free for name in FITTED])
    chances = {"lapse": LAPSE_BOUNDS, "notice": NOTICE_BOUNDS}
    bounds = [chances.get(name, RANGES[name]) for name in FITTED if name in free]
    total = float(counts.sum())
    best = None
    for foresight in range(MOST_FORESIGHT + 1) if "foresight" in free else (0,):

        def loss(x: np.ndarray, f: int = foresight) -> tuple[float, np.ndarray]:
            p = base.copy()
            p[mask] = x
            log_p, gradient = _moves(p, moves, f, counts)
            return -float(log_p @ counts) / total, -gradient[mask] / total

        found = minimize(loss, base[mask], jac=True, method="L-BFGS-B", bounds=bounds)
        if best is None or found.fun < best[0]:
            best = (float(found.fun), found.x, foresight)
    assert best is not None
    values = base.copy()
    values[mask] = best[1]
    fitted = {name: float(round(values[j], 4)) for j, name in enumerate(FITTED) if name in free}
    if "foresight" in free:
        fitted["foresight"] = best[2]
    if "patience" in free:
        stale, quit = _give_up_rows(data)
        if quit.any():
            low, high = RANGES["patience"]
            found = minimize_scalar(
                lambda patience: -give_up_log_likelihood(patience, data),
                bounds=(low, high),
                method="bounded",
                options={"xatol": 1e-3},
            )
            fitted["patience"] = float(round(found.x, 3))
    return Player.of(member, **fitted)


def random_log_likelihood(data: Choices) -> np.ndarray:
    """Each move's log-probability, away from the exit's sight, under a player who picks among
    the open moves at random."""
    away = data.away()
    return -np.log(away.valid[away.move != RESTART].sum(axis=1))


def fit(
    found: Replayed, pack: list[tuple[str, Level]], member: str | None = None
) -> tuple[Player, dict]:
    """The player of the family likeliest to have made the logged choices, and what the fit saw.

    ``member``: that member's fit; None: every member compared on held-out attempts
    (``compare``), and the winner fitted on all of them. The report: the choices used (away from
    the exit's sight), the moves made with the exit in sight and those that did not take it
    (which only a member with ``notice`` is fitted on, and held out on),
    the fitted player's log-likelihood per choice beside the simple player's and a random
    player's, in all and per level, and each member's held-out figure when they were compared."""
    data = choices_of(found, pack)
    away = data.away()
    moves = int((away.move != RESTART).sum())
    if not moves:
        raise DesignerError(
            "the logs hold no move a player chose away from the exit's sight: nothing to fit"
        )
    if moves < LEAST_CHOICES:
        raise DesignerError(
            f"the logs hold {moves} choices to fit (moves chosen away from the exit's "
            f"sight): too few to fit, a fit needs {LEAST_CHOICES} at the least"
        )
    held = None
    if member is None:
        split = halves(data.attempt)
        held = compare(data) if split.any() and not split.all() else None
        member = winner(held) if held else "simple"
    player = fit_member(member, data)
    simple = player if member == "simple" else fit_member("simple", data)
    ours, theirs = move_log_likelihood(player, data), move_log_likelihood(simple, data)
    level_of = away.level[away.move != RESTART]
    at_random = random_log_likelihood(data)
    per_level = []
    for k, (name, _) in enumerate(pack):
        mine = level_of == k
        if mine.any():
            per_level.append(
                {
                    "name": name,
                    "choices": int(mine.sum()),
                    "fitted": round(float(ours[mine].mean()), 4),
                    "simple": round(float(theirs[mine].mean()), 4),
                    "random": round(float(at_random[mine].mean()), 4),
                }
            )
    report = {
        "member": member,
        "choices": moves,
        "restarts_asked": int((data.move == RESTART).sum()),
        "exit_in_sight": data.in_sight,
        "against_the_model": data.against,
        "log_likelihood_per_choice": round(float(ours.mean()), 4),
        "simple_log_likelihood_per_choice": round(float(theirs.mean()), 4),
        "random_log_likelihood_per_choice": round(float(at_random.mean()), 4),
        "per_level": per_level,
    }
    if held is not None:  # + 0.0: a figure that rounds to nothing is 0.0, never -0.0
        report["held_out"] = {name: round(value, 4) + 0.0 for name, value in held.items()}
    if moves < FEW_CHOICES:
        report["warning"] = few(moves)
    return player, report


def few(choices: int) -> str:
    """The warning of a fit on fewer than ``FEW_CHOICES`` choices.

    >>> few(423)
    'the fit rests on 423 choices, fewer than 1000: its parameters may be 15% to 30% off (docs/player.md)'
    """
    return (
        f"the fit rests on {choices} choices, fewer than {FEW_CHOICES}: its parameters may be 15% "
        "to 30% off (docs/player.md)"
    )


#: How much better per choice (held out) a member with more parameters must be to win.
MARGIN = 0.001


def winner(held: dict[str, float]) -> str:
    """The member a comparison chooses: the best held-out log-likelihood per choice, but a member
    with more parameters only when it beats each one with fewer by ``MARGIN``.

    >>> winner({"simple": -0.50, "careful": -0.4995, "explorer": -0.45, "impatient": -0.46})
    'explorer'
    >>> winner({"simple": -0.50, "careful": -0.4995, "explorer": -0.4992, "impatient": -0.6})
    'simple'
    """
    best = "simple"
    for name in sorted(held, key=lambda name: (len(MEMBERS[name]), list(MEMBERS).index(name))):
        fewer = [other for other in held if len(MEMBERS[other]) < len(MEMBERS[name])]
        if held[name] > held[best] and all(held[name] >= held[o] + MARGIN for o in fewer):
            best = name
    return best


def halves(attempt: np.ndarray) -> np.ndarray:
    """Whether each attempt falls in the first half of a comparison: by a fixed scrambling of its
    number (Knuth's multiplicative hash), so that every level and player falls in both halves.

    >>> halves(np.arange(1, 9)).astype(int).tolist()
    [1, 0, 1, 0, 0, 1, 0, 1]
    """
    return (attempt.astype(np.uint64) * np.uint64(2654435761)) % np.uint64(2**32) >= 2**31


def compare(data: Choices) -> dict[str, float]:
    """Each member's held-out log-likelihood per move, restarts asked for included: fitted on half
    the attempts, scored on the other half (see the module docstring)."""
    even = halves(data.attempt)
    fit_on, held = data.where(even), data.where(~even)
    out = {}
    for member in MEMBERS:
        player = fit_member(member, fit_on)
        out[member] = held_out_score(player, fit_on, held)
    return out


def held_out_score(player: Player, fit_on: Choices, held: Choices) -> float:
    """``player``'s log-likelihood of ``held``'s choices per move: its moves, and its choices to
    give up or go on. A player without patience gives up, for this score, at the rate the
    choices of ``fit_on`` gave up at, whatever it has seen: the score of a member that does not
    model giving up is then that of one that gives up at random, and a member with patience
    gains only where restarts follow what the player has seen. The moves made with the exit in
    sight count too (``sight_log_likelihood``)."""
    away, in_sight = move_log_likelihood(player, held), sight_log_likelihood(player, fit_on, held)
    moves = np.concatenate([away, in_sight])
    if player.patience is not None:
        quits = give_up_log_likelihood(player.patience, held)
    else:
        _, before = _give_up_rows(fit_on)
        rate = min(max(float(before.mean()) if before.size else 0.0, 1e-6), 1 - 1e-6)
        _, quit = _give_up_rows(held)
        quits = float(quit.sum()) * math.log(rate) + float((~quit).sum()) * math.log1p(-rate)
    return float((moves.sum() + quits) / max(1, moves.size))
