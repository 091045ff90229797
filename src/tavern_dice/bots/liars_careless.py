"""A careless Liar's Dice player: another bot that now and then loses the thread.

Each decision (on its turn and out of turn) it plays its ``base`` bot, except that with
chance ``slip`` it plays as the ``random`` bot instead: any legal wager, or a call on a
whim. One knob, from ``slip=0`` (the base bot itself) to ``slip=1`` (the ``random`` bot),
makes the weaker rated levels (:mod:`tavern_dice.bots.levels`) from the bots above them,
the way a tired or tipsy player still knows the odds but does not always use them.
``slip_at`` sets another chance at a table of a given size (the players the game started
with, out or not): a level can be steadier at a crowded table than heads-up, where one
player's slips meet a single opponent's play.

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
from collections.abc import Mapping
from typing import Any

from tavern_dice.bots.base import LiarsDiceAction, LiarsDiceAgent
from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.bots.registry import BotError, check_number, make_liars_dice_bot
from tavern_dice.liars_dice.view import LiarsDiceView


class CarelessLiarsDiceBot:
    """Plays ``base``, but with chance ``slip`` a random legal action (see the module doc).

    Args:
        name, seed: as every bot (the seed also seeds the base bot and the slips).
        base: the registry kind it plays when it does not slip.
        slip: the chance of each decision being random, 0 to 1.
        base_options: options for the base bot.
        slip_at: the chance at a table of that many players (the seats the game started
            with), where it differs from ``slip``: ``{2: 0.3}`` slips 30 % heads-up.

    Raises:
        BotError: a slip outside 0..1, a table size below 2, or a base bot the registry
            cannot seat.
    """

    def __init__(
        self,
        name: str = "careless",
        seed: int | None = None,
        *,
        base: str = "probabilistic",
        slip: float = 0.5,
        base_options: dict[str, Any] | None = None,
        slip_at: Mapping[int, float] | None = None,
    ) -> None:
        self.name = name
        self.seed = seed
        self.slip = check_number("slip", slip, 0.0, 1.0)
        self.slip_at = {self._table_size(n): check_number(f"slip_at[{n}]", value, 0.0, 1.0)
                        for n, value in (slip_at or {}).items()}
        self.base: LiarsDiceAgent = make_liars_dice_bot(
            base, name=name, seed=seed, **(base_options or {}))
        self.whim = RandomLiarsDiceBot(name, seed=None if seed is None else seed + 1)
        self.rng = random.Random(seed)

    @staticmethod
    def _table_size(players: object) -> int:
        if isinstance(players, bool) or not isinstance(players, int) or players < 2:
            raise BotError(f"slip_at is keyed by table sizes of 2 or more, not {players!r}")
        return players

    def slip_for(self, players: int) -> float:
        """The chance of a careless decision at a table that started with ``players``."""
        return self.slip_at.get(players, self.slip)

    def _player(self, view: LiarsDiceView) -> LiarsDiceAgent:
        # One draw a decision whatever the chance, so the same seed slips at the same
        # decisions at every table size where the chance is the same.
        slip = self.slip_for(len(view.players))
        return self.whim if self.rng.random() < slip else self.base

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """The base bot's action, or with chance ``slip`` a random one."""
        return self._player(view).choose_action(view)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """The base bot's answer, or with chance ``slip`` the random bot's."""
        return self._player(view).wants_to_accuse(view)

    def __repr__(self) -> str:
        at = f", slip_at={self.slip_at}" if self.slip_at else ""
        return (f"CarelessLiarsDiceBot(name={self.name!r}, base={self.base!r}, "
                f"slip={self.slip}{at})")
