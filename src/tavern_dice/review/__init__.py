"""The post-game coach: each decision of a seat in a saved game, valued against the
project's strongest evaluation and marked like a chess engine's review.

* **Liar's Dice** (:mod:`.liars`): every wager and accusation on the seat's turn, and
  every out-of-turn accusation or pass, against
  :func:`tavern_dice.review.evaluate.evaluate` (the solved heads-up policy where one
  covers the round, else the ``strong`` bot's lookahead), in dice.
* **Dice Blackjack** (:mod:`.blackjack`): every roll and stand (with its bonus) against
  the exact optimal policy, in expected payout per unit bet.

Marks (:mod:`.marks`): inaccuracy ``?!``, mistake ``?``, blunder ``??`` from a cost of
0.10 / 0.30 / 0.60 dice in Liar's Dice and 0.02 / 0.10 / 0.25 per unit bet in Dice
Blackjack; accusing a wager the seat's own dice already made true is a blunder whenever
anything else was better.

``tavern review GAME.json`` prints a review; the web table serves one for a finished game
(``GET /api/tables/{id}/review``).

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> game = LiarsDiceGame(2, dice=SeededDice(4))
>>> review_game(game, [5])
Traceback (most recent call last):
...
tavern_dice.review.ReviewError: no seat 5 in this game; seats: 0 P1, 1 P2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.review.marks import (
    BLACKJACK_THRESHOLDS,
    LIARS_THRESHOLDS,
    SYMBOLS,
    Mark,
    Thresholds,
)
from tavern_dice.review.model import (
    ACCUSE_OUT_OF_TURN,
    PASS_OUT_OF_TURN,
    TURN,
    BlackjackKnown,
    Choice,
    Decision,
    GameReview,
    LiarsKnown,
    Odds,
    SeatReview,
)


class ReviewError(TavernError):
    """A review that cannot be made: a seat the game does not have."""


def review_game(game: LiarsDiceGame | BlackjackGame, seats: Sequence[int]) -> GameReview:
    """Review ``seats`` (seat numbers from 0) of ``game``, a game replayed from its log.

    Raises:
        ReviewError: a seat out of range (the message lists the seats).
    """
    players = game.players
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
            raise ReviewError(f"no seat {seat!r} in this game; seats: {seat_list(players)}")
    if isinstance(game, LiarsDiceGame):
        from tavern_dice.review.liars import review_liars

        return review_liars(game, seats)
    from tavern_dice.review.blackjack import review_blackjack

    return review_blackjack(game, seats)


def seat_list(players: Sequence[str]) -> str:
    """``'0 Ann, 1 Bo'``: the seats as an error message lists them."""
    return ", ".join(f"{i} {name}" for i, name in enumerate(players))


def people_seats(data: dict[str, Any], players: Sequence[str]) -> list[int]:
    """The seats a review covers by default: the people's (``"people"`` in a log saved by
    ``tavern play --save``), or seat 0 when the log does not say (an older log, an
    all-bot game)."""
    people = data.get("people")
    if isinstance(people, list):
        seats = [s for s in people if type(s) is int and 0 <= s < len(players)]
        if seats:
            return list(dict.fromkeys(seats))
    return [0]


__all__ = [
    "ACCUSE_OUT_OF_TURN",
    "BLACKJACK_THRESHOLDS",
    "LIARS_THRESHOLDS",
    "PASS_OUT_OF_TURN",
    "SYMBOLS",
    "TURN",
    "BlackjackKnown",
    "Choice",
    "Decision",
    "GameReview",
    "LiarsKnown",
    "Mark",
    "Odds",
    "ReviewError",
    "SeatReview",
    "Thresholds",
    "people_seats",
    "review_game",
    "seat_list",
]
