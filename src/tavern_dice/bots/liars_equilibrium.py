"""The ``equilibrium`` Liar's Dice bot: the shipped solved policy wherever one covers.

When exactly two players are left, each with at most five dice, and the table's rules are
those a shipped table was solved for
(:data:`tavern_dice.strategy.liars_dice.solver.play.tables.TABLE_RULES`: the
seed's rules, and the seed with the ``standard`` raise), it samples its action from that
round's policy for its dice and this round's wagers, exactly as the table's exploitability
was certified: a history outside the table is met with an accusation. Everywhere else it
plays its fallback bot (``trusting`` by default).

Each round's policy comes with its exact exploitability (``tavern solve tables``): no
opponent, however it plays, expects to gain more than that from it in that round.

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot
>>> game = LiarsDiceGame(["eq", "p"], dice=SeededDice(4), starting_dice=[1, 1])
>>> play_liars_dice(game, [EquilibriumLiarsDiceBot("eq", seed=1),
...                        ProbabilisticLiarsDiceBot("p", seed=2)]) in (0, 1)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.base import LiarsDiceAction, LiarsDiceAgent
from tavern_dice.liars_dice.view import LiarsDiceView


def policy_covers(view: LiarsDiceView) -> bool:
    """Whether a shipped table covers the round ``view`` shows (for the seat to act)."""
    from tavern_dice.strategy.liars_dice.solver.play.tables import heads_up_policy

    if view.seat is None or view.turn != view.seat:
        return False
    return heads_up_policy(view, (view.own_dice,)) is not None


class EquilibriumLiarsDiceBot:
    """Samples the shipped heads-up policy; falls back to another bot elsewhere.

    Args:
        name: the bot's name at the table.
        seed: seeds its sampling and its fallback bot.
        fallback: the registry kind played where no policy covers (default ``trusting``,
            the Bayesian bot this project called ``strong`` before the robust one).
    """

    def __init__(
        self, name: str = "equilibrium", seed: int | None = None, *, fallback: str = "trusting"
    ) -> None:
        from tavern_dice.bots.registry import make_liars_dice_bot

        self.name = name
        self._rng = random.Random(seed)
        self._fallback: LiarsDiceAgent = make_liars_dice_bot(fallback, name=name, seed=seed)

    def range_policy(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], npt.NDArray[np.floating[Any]]]:
        """The table's probabilities for each of ``hands``, where a table covers the round;
        the fallback's answer hand by hand elsewhere."""
        from dataclasses import replace

        from tavern_dice.strategy.liars_dice.solver.play.tables import heads_up_policy

        found = heads_up_policy(view, hands)
        if found is not None:
            return found
        index: dict[LiarsDiceAction, int] = {}
        picks = [
            index.setdefault(self._fallback.choose_action(replace(view, own_dice=hand)),
                             len(index))
            for hand in hands
        ]
        out = np.zeros((len(hands), len(index)))
        out[np.arange(len(hands)), picks] = 1.0
        return tuple(index), out

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        from tavern_dice.strategy.liars_dice.solver.play.tables import heads_up_policy

        found = heads_up_policy(view, (view.own_dice,))
        if found is None:
            return self._fallback.choose_action(view)
        actions, probs = found
        return self._rng.choices(actions, weights=probs[0].tolist())[0]

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        # With two players the only possible accuser is the player to act, who answers
        # through choose_action; out-of-turn questions only arise at bigger tables.
        return self._fallback.wants_to_accuse(view)
