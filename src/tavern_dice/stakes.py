"""Stakes and the pot: gold a Liar's Dice game is played for.

The rules text plays Liar's Dice for dice (lives), not gold; a table may add a stake on
top: every player antes the same amount into a pot when the game starts, the winner
takes the whole pot, and a game stopped before anyone won gives each ante back. Nothing
here touches a rule of the game: the pot only reads who won.

Players are named by any hashable key (the web table uses its player ids); amounts are
integer copper pieces (:mod:`tavern_dice.money`).

>>> pot = Pot.collect(50, {"ann": 120, "bo": 50}, ["ann", "bo"])
>>> pot.total, pot.payout("bo")
(100, {'bo': 100})
>>> pot.refunds()
{'ann': 50, 'bo': 50}
>>> Pot.collect(50, {"ann": 120, "bo": 40}, ["ann", "bo"], names={"bo": "Bo"})
Traceback (most recent call last):
...
tavern_dice.errors.InsufficientFundsError: the stake is 50 cp; Bo cannot pay it
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from tavern_dice.errors import InsufficientFundsError, RulesetError

Player = TypeVar("Player")


@dataclass(frozen=True, slots=True)
class Pot(Generic[Player]):
    """The antes of one game, by player (cp each player put in)."""

    antes: Mapping[Player, int] = field(default_factory=dict)

    @classmethod
    def collect(cls, stake: int, balances: Mapping[Player, int], players: Sequence[Player],
                names: Mapping[Player, str] | None = None) -> Pot[Player]:
        """Every player's ante of ``stake`` cp (an empty pot for a stake of 0).

        Raises:
            RulesetError: a negative stake.
            InsufficientFundsError: a player whose balance is below the stake, naming
                each (by ``names``, else by key); nothing is collected then.
        """
        if stake < 0:
            raise RulesetError(f"a stake is 0 cp or more, not {stake}")
        if not stake:
            return cls({})
        poor = [(names or {}).get(p, str(p)) for p in players if balances.get(p, 0) < stake]
        if poor:
            raise InsufficientFundsError(f"the stake is {stake} cp; {', '.join(poor)} "
                                         "cannot pay it")
        return cls({p: stake for p in players})

    @property
    def total(self) -> int:
        """The whole pot in cp."""
        return sum(self.antes.values())

    def payout(self, winner: Player) -> dict[Player, int]:
        """What the pot pays when ``winner`` wins the game: all of it (nothing if empty)."""
        total = self.total
        return {winner: total} if total else {}

    def refunds(self) -> dict[Player, int]:
        """What a game stopped before anyone won gives back: each player's own ante."""
        return {p: amount for p, amount in self.antes.items() if amount}
