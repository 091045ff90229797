"""A careless Liar's Dice player: another bot that now and then loses the thread.

Each decision (on its turn and out of turn) it plays its ``base`` bot, except that with
chance ``slip`` it plays as the ``random`` bot instead: any legal wager, or a call on a
whim. One knob, from ``slip=0`` (the base bot itself) to ``slip=1`` (the ``random`` bot),
makes the weaker rated levels (:mod:`tavern_dice.bots.levels`) from the bots above them,
the way a tired or tipsy player still knows the odds but does not always use them.

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> game = LiarsDiceGame(3, dice=SeededDice(4))
>>> seats = [CarelessLiarsDiceBot(f"c{i}", seed=i, slip=0.5) for i in range(3)]
>>> play_liars_dice(game, seats) in range(3)
True
"""

from __future__ import annotations

import random
from typing import Any

from tavern_dice.bots.base import LiarsDiceAction, LiarsDiceAgent
from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.bots.registry import check_number, make_liars_dice_bot
from tavern_dice.liars_dice.view import LiarsDiceView


class CarelessLiarsDiceBot:
    """Plays ``base``, but with chance ``slip`` a random legal action (see the module doc).

    Args:
        name, seed: as every bot (the seed also seeds the base bot and the slips).
        base: the registry kind it plays when it does not slip.
        slip: the chance of each decision being random, 0 to 1.
        base_options: options for the base bot.

    Raises:
        BotError: a slip outside 0..1, or a base bot the registry cannot seat.
    """

    def __init__(
        self,
        name: str = "careless",
        seed: int | None = None,
        *,
        base: str = "probabilistic",
        slip: float = 0.5,
        base_options: dict[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.seed = seed
        self.slip = check_number("slip", slip, 0.0, 1.0)
        self.base: LiarsDiceAgent = make_liars_dice_bot(
            base, name=name, seed=seed, **(base_options or {}))
        self.whim = RandomLiarsDiceBot(name, seed=None if seed is None else seed + 1)
        self.rng = random.Random(seed)

    def _player(self) -> LiarsDiceAgent:
        return self.whim if self.rng.random() < self.slip else self.base

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """The base bot's action, or with chance ``slip`` a random one."""
        return self._player().choose_action(view)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """The base bot's answer, or with chance ``slip`` the random bot's."""
        return self._player().wants_to_accuse(view)

    def __repr__(self) -> str:
        return f"CarelessLiarsDiceBot(name={self.name!r}, base={self.base!r}, slip={self.slip})"
