"""What the built-in Dice Blackjack bots share: a fixed bet each round (B2), and reading
their turn from the view.

Each bot bets its ``bet_cp`` (default 1 gp = 100 cp), brought within
``view.bet_limits`` (the table's limits and the bot's balance, as the engine gives
them); only its choice of moves differs (see ``blackjack_simple`` and
``blackjack_optimal``).
"""

from __future__ import annotations

import random
from typing import ClassVar

from tavern_dice.blackjack.actions import Bet, SitOut
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.registry import DEFAULT_BET_CP, BotError


class FixedBetBlackjackBot:
    """Base of the Dice Blackjack bots: bets ``bet_cp`` each round.

    Args:
        name: the seat's name (default: the bot's :attr:`kind`).
        seed: seed of the bot's own ``random.Random`` (the built-in bots play
            deterministically; the seed is kept so that every bot is built the same way).
        bet_cp: the bet in cp (>= 1), capped by the table's limits and the balance.

    Raises:
        BotError: a bet below 1 cp.
    """

    kind: ClassVar[str] = "fixed-bet"
    """The bot's kind in :data:`~tavern_dice.bots.registry.BLACKJACK_BOTS`, and its default
    name."""

    def __init__(
        self, name: str | None = None, seed: int | None = None, bet_cp: int = DEFAULT_BET_CP
    ) -> None:
        if isinstance(bet_cp, bool) or not isinstance(bet_cp, int) or bet_cp < 1:
            raise BotError(f"bet_cp is a whole number of cp, at least 1, not {bet_cp!r}")
        self.name = self.kind if name is None else name
        self.seed = seed
        self.bet_cp = bet_cp
        self.rng = random.Random(seed)

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        """A bet of ``bet_cp`` within ``view.bet_limits``; ``SitOut()`` if it may not bet."""
        if view.bet_limits is None:
            return SitOut()
        low, high = view.bet_limits
        if high < low:
            return SitOut()
        return Bet(max(low, min(self.bet_cp, high)))

    def turn(self, view: BlackjackView) -> tuple[int, int, int, int | None]:
        """``(seat, target, total, house)`` of the bot's turn: its running total and the
        house roll to beat (``None`` when the house bust).

        Raises:
            BotError: asked to move outside its turn.
        """
        seat, target = view.seat, view.target
        if seat is None or target is None or seat not in view.totals:
            raise BotError(f"{self.name} was asked to move outside its turn")
        return seat, target, view.totals[seat], None if view.house_bust else view.house_roll

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, bet_cp={self.bet_cp})"
