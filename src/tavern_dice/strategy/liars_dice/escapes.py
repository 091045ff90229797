"""The ``either`` rule's extra raises, mixed into a ``standard`` stand-in policy.

Under the seed's raise rule (L5, ``either``) a wager may be raised by a higher face at a
*lower* quantity: after 4 fives, 1 six is legal, and nearly always holds. A policy solved
for the ``standard`` order (the heads-up blueprints beyond 6 dice in play play the seed's
rounds as a stand-in) never makes such a raise, so every raise it makes climbs, while an
opponent who uses them climbs only when it must: the local best response won 83 % of
5 v 5 rounds against the bare stand-in, mostly by accusing its climbed wagers
(``docs/strategy.md``).

:func:`with_escapes` moves a share of each hand's raising chance to the raises most
likely to hold with that hand, the seed's lower-quantity raises included: chances
``∝ exp(P(holds) / temperature)`` among the raises within ``margin`` of the safest, a
higher face, then a lower quantity, preferred on a tie (a higher face leaves the
opponent fewer lower raises). The
accusation keeps its chance. It is a measured repair, not an equilibrium of the seed's
round: moving all the raising chance there made the bot easier to read (the local best
response won 95 % of 5 v 5 rounds), half of it the hardest (74 %).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import ACCUSE, LiarsAction, Wager
from tavern_dice.strategy.liars_dice.odds import count_distribution, die_matches

FloatArray = npt.NDArray[np.floating[Any]]

_FACE_TIE, _QUANTITY_TIE = 1e-3, 1e-4
"""Score per face and per quantity step: far below a real difference in the chance a
raise holds, so they only break ties (most often between raises that surely hold)."""


def hold_chances(
    view: LiarsDiceView, hands: Sequence[tuple[int, ...]], wagers: Sequence[Wager]
) -> FloatArray:
    """``P(wager holds)`` per (hand, wager) for a player holding each of ``hands`` (all of
    one size), the other dice in play unseen (exact binomial tails, as floats)."""
    rules = view.rules
    size = len(hands[0]) if hands else 0
    unseen = view.dice_in_play - size
    # matches[die, face]: whether a die showing ``die`` counts toward ``face`` (L6).
    matches = np.array([[die_matches(d, f, rules) if d and f else False
                         for f in range(rules.sides + 1)] for d in range(rules.sides + 1)])
    dice = np.array(hands, dtype=np.int64).reshape(len(hands), size)
    faces = np.array([w.face for w in wagers], dtype=np.int64)
    quantities = np.array([w.quantity for w in wagers], dtype=np.int64)
    own = matches[dice][:, :, faces].sum(axis=1)  # (hands, wagers)
    # tails[f, k]: P(at least k of the unseen dice count toward face f), k = 0..unseen+1.
    tails = np.zeros((rules.sides + 1, unseen + 2))
    for face in set(faces.tolist()):
        dist = np.array([float(p) for p in count_distribution(unseen, face, rules)])
        tails[face, : unseen + 1] = np.cumsum(dist[::-1])[::-1]
    need = np.clip(quantities[None, :] - own, 0, unseen + 1)
    out: FloatArray = tails[faces[None, :], need]
    return out


def with_escapes(
    view: LiarsDiceView,
    hands: Sequence[tuple[int, ...]],
    actions: Sequence[LiarsAction],
    probs: FloatArray,
    *,
    share: float,
    temperature: float,
    margin: float,
) -> tuple[tuple[LiarsAction, ...], FloatArray]:
    """``(actions, probabilities)``: the policy ``(actions, probs)`` (rows: ``hands``) with
    ``share`` of each hand's raising chance moved to its safest legal raises (see the
    module doc). Every legal raise of ``view`` is among the actions returned."""
    legal: list[Wager] = [w for w in view.legal_wagers if isinstance(w, Wager)]
    if share <= 0.0 or not legal or not hands:
        return tuple(actions), probs
    accuse = [j for j, a in enumerate(actions) if a == ACCUSE]
    out_actions: list[LiarsAction] = [ACCUSE] if accuse else []
    out_actions.extend(legal)
    offset = 1 if accuse else 0
    index: dict[LiarsAction, int] = {w: offset + k for k, w in enumerate(legal)}
    out: FloatArray = np.zeros((len(hands), len(out_actions)))
    if accuse:
        out[:, 0] = probs[:, accuse].sum(axis=1)
    for j, action in enumerate(actions):
        if action != ACCUSE:
            out[:, index[action]] += (1.0 - share) * probs[:, j]
    raising = 1.0 - out[:, 0] if accuse else np.ones(len(hands))
    faces = np.array([w.face for w in legal], dtype=np.float64)
    quantities = np.array([w.quantity for w in legal], dtype=np.float64)
    score = hold_chances(view, hands, legal) + _FACE_TIE * faces - _QUANTITY_TIE * quantities
    best = score.max(axis=1, keepdims=True)
    weights = np.where(score >= best - margin, np.exp((score - best) / temperature), 0.0)
    weights /= weights.sum(axis=1, keepdims=True)
    out[:, offset:] += share * raising[:, None] * weights
    return tuple(out_actions), out
