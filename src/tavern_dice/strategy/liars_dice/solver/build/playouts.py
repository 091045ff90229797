"""Vectorised random playouts of single two-player rounds (benchmarks, sanity checks).

Each playout rolls both hands, then the players alternate picking uniformly
among their legal actions - every higher wager (L5) and, except on the opening
bid, the accusation (L7) - until someone accuses; the reveal (L8) decides who
loses a die. All rounds advance in lockstep (one action per round per step),
so the loop runs at most ``n_bids + 1`` times whatever ``n_rounds`` is.

With ``dice=(5, 5)``, ``wild_face=6`` and the ``standard`` raise these are the
rules of OpenSpiel's ``liars_dice`` with ``numdice=5`` (whose random playouts
also pick uniformly among legal actions).

>>> out = random_playouts(1000, dice=(1, 1), rng=np.random.default_rng(0))
>>> out.loser.shape, bool(set(out.loser.tolist()) <= {0, 1})
((1000,), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavern_dice.liars_dice.rules import RaiseRule
from tavern_dice.strategy.liars_dice.solver.core.bids import BidSpace

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Playouts:
    """Results of :func:`random_playouts`.

    Attributes:
        loser: shape ``(n_rounds,)``: the player (0 = first bidder) who loses a die.
        n_wagers: shape ``(n_rounds,)``: wagers made before the accusation.
        last_wager: shape ``(n_rounds,)``: number of the accused wager.
    """

    loser: IntArray
    n_wagers: IntArray
    last_wager: IntArray


def random_playouts(
    n_rounds: int,
    dice: tuple[int, int] = (5, 5),
    sides: int = 6,
    wild_face: int | None = 6,
    raise_rule: RaiseRule = RaiseRule.STANDARD,
    rng: np.random.Generator | None = None,
) -> Playouts:
    """Play ``n_rounds`` uniformly random rounds at once.

    Args:
        n_rounds: how many rounds.
        dice: ``(first bidder's dice, second's)``.
        sides: faces per die.
        wild_face: L6 wild face or ``None``.
        raise_rule: ``standard`` or ``face-major``.
        rng: random generator (a fresh unseeded one by default).
    """
    rng = rng or np.random.default_rng()
    bids = BidSpace.counts(sum(dice), sides, raise_rule)
    n_bids = bids.n_bids
    hands = rng.integers(1, sides + 1, size=(n_rounds, sum(dice)), dtype=np.int8)
    counts = np.stack([(hands == f).sum(axis=1, dtype=np.int16) for f in range(1, sides + 1)],
                      axis=1)
    if wild_face is not None:
        w = wild_face - 1
        wild = counts[:, w].copy()
        counts += wild[:, None]
        counts[:, w] = wild
    last = np.full(n_rounds, -1, dtype=np.int64)
    n_wagers = np.zeros(n_rounds, dtype=np.int64)
    loser = np.empty(n_rounds, dtype=np.int64)
    active = np.arange(n_rounds, dtype=np.int64)
    cur = last.copy()
    step = 0
    while active.size:
        actor = step % 2
        avail = n_bids - 1 - cur  # raises available
        can_accuse = cur >= 0
        n_legal = avail + can_accuse
        pick = (rng.random(active.size) * n_legal).astype(np.int64)
        accuse = pick >= avail
        raised = ~accuse
        cur = np.where(raised, cur + 1 + pick, cur)
        if accuse.any():
            done = active[accuse]
            b = cur[accuse]
            true = counts[done, bids.faces[b] - 1] >= bids.quantities[b]
            # a true wager costs the accuser (actor) a die, a false one the wager-maker
            loser[done] = np.where(true, actor, 1 - actor)
            last[done] = b
            n_wagers[done] = step
            active, cur = active[raised], cur[raised]
        step += 1
    return Playouts(loser, n_wagers, last)
