"""The ``random`` Liar's Dice bot: a baseline that plays any legal action at random.

On its turn it accuses (when it may, L7) with probability ``accuse_probability``
and otherwise makes a wager drawn uniformly from its legal wagers (L4, L5, L10);
with no legal raise left it accuses. Out of turn it accuses with the small
probability ``out_of_turn_probability``. Since every turn after the opening
ends the round with probability at least ``accuse_probability``, rounds end
even under the seed's cyclic ``either`` raise rule.

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> game = LiarsDiceGame(3, dice=SeededDice(1))
>>> play_liars_dice(game, [RandomLiarsDiceBot(f"r{i}", seed=i) for i in range(3)]) in (0, 1, 2)
True
"""

from __future__ import annotations

import random

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.bots.registry import BotError
from tavern_dice.liars_dice.view import LiarsDiceView


def _check_probability(name: str, value: float) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        raise BotError(f"{name} is a probability from 0 to 1, not {value!r}")
    return float(value)


class RandomLiarsDiceBot:
    """Uniformly random legal wagers; accuses now and then.

    Args:
        name: the seat's name.
        seed: seed of the bot's own ``random.Random``.
        accuse_probability: chance of accusing on its turn when it may (default 0.3).
        out_of_turn_probability: chance of accusing another player's wager out of turn
            (default 0.05).

    Raises:
        BotError: a probability outside 0..1, or ``accuse_probability`` 0 (rounds might
            never end under the ``either`` raise rule).
    """

    def __init__(
        self,
        name: str = "random",
        seed: int | None = None,
        *,
        accuse_probability: float = 0.3,
        out_of_turn_probability: float = 0.05,
    ) -> None:
        self.name = name
        self.seed = seed
        self.accuse_probability = _check_probability("accuse_probability", accuse_probability)
        if self.accuse_probability == 0:
            raise BotError("accuse_probability must be above 0 so that every round can end")
        self.out_of_turn_probability = _check_probability(
            "out_of_turn_probability", out_of_turn_probability
        )
        self.rng = random.Random(seed)

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """Accuse with probability ``accuse_probability`` (or when no raise is legal),
        otherwise one of ``view.legal_wagers`` uniformly at random."""
        if view.may_accuse and (
            not view.legal_wagers or self.rng.random() < self.accuse_probability
        ):
            return ACCUSE
        if not view.legal_wagers:
            raise BotError(f"{self.name} was asked to act with no legal action")
        return self.rng.choice(view.legal_wagers)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """Accuse out of turn with probability ``out_of_turn_probability``."""
        return view.may_accuse and self.rng.random() < self.out_of_turn_probability

    def __repr__(self) -> str:
        return f"RandomLiarsDiceBot(name={self.name!r}, seed={self.seed!r})"
