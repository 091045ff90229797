"""What a post-game review holds: each decision of a seat, what the seat knew then, the
value of what it did and of the best action, and the mark (see :mod:`.marks`).

Everything here is plain data with a JSON-ready ``to_dict`` (``tavern review --json``,
the web table's review endpoint); the analysis lives in :mod:`.liars` and
:mod:`.blackjack`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tavern_dice.review.marks import SYMBOLS, Mark, Thresholds


@dataclass(frozen=True, slots=True)
class Choice:
    """One action and its value.

    Attributes:
        code: the action in machine form: a wager code (``'3x2'``, ``'sum 7'``),
            ``'accuse'``, ``'pass'``, ``'roll'`` or ``'stand+B'``.
        text: the action in words (``'3 twos'``, ``'Liar!'``, ``'stand, add 2'``).
        value: its value in the review's unit.
    """

    code: str
    text: str
    value: float

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "text": self.text, "value": self.value}


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact chances of a Liar's Dice wager as the seat saw it (L8), as floats, with
    the exact fractions as text (``'25/36'``)."""

    false: Fraction
    true: Fraction
    exact: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "false": float(self.false), "true": float(self.true), "exact": float(self.exact),
            "exact_fractions": {"false": str(self.false), "true": str(self.true),
                                "exact": str(self.exact)},
        }


@dataclass(frozen=True, slots=True)
class LiarsKnown:
    """What a Liar's Dice seat knew at a decision: its own dice and the public table.

    Attributes:
        own_dice: the seat's faces this round.
        dice_counts: every seat's dice (lives).
        wagers: this round's wagers so far, oldest first, as ``(seat, wager text)``.
        standing: the standing wager in words, or ``None`` before the first wager.
        wager_maker: who made it.
        standing_odds: its exact odds from the seat's dice (``None`` without a wager).
        chosen_odds: for a wager the seat made, that wager's odds as it saw them.
    """

    own_dice: tuple[int, ...]
    dice_counts: tuple[int, ...]
    wagers: tuple[tuple[int, str], ...]
    standing: str | None
    wager_maker: int | None
    standing_odds: Odds | None
    chosen_odds: Odds | None

    @property
    def dice_in_play(self) -> int:
        return sum(self.dice_counts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "own_dice": list(self.own_dice),
            "dice_counts": list(self.dice_counts),
            "dice_in_play": self.dice_in_play,
            "wagers": [{"seat": seat, "wager": text} for seat, text in self.wagers],
            "standing": self.standing,
            "wager_maker": self.wager_maker,
            "standing_odds": None if self.standing_odds is None else self.standing_odds.to_dict(),
            "chosen_odds": None if self.chosen_odds is None else self.chosen_odds.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class BlackjackKnown:
    """What a Dice Blackjack seat knew at a decision (nothing in this game is secret).

    Attributes:
        target: the target number (B3).
        house: the house roll, or ``None`` when the house busted (B5).
        total: the seat's d12s so far (before any bonus).
        bonus_cap: the most it may add on standing (B7).
        bet_cp: its bet this round; balance_cp: its gold before the round settles.
        bust_chance: the chance that one more d12 takes it over the target.
    """

    target: int
    house: int | None
    total: int
    bonus_cap: int
    bet_cp: int
    balance_cp: int
    bust_chance: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target, "house": self.house, "house_bust": self.house is None,
            "total": self.total, "bonus_cap": self.bonus_cap, "bet_cp": self.bet_cp,
            "balance_cp": self.balance_cp, "bust_chance": float(self.bust_chance),
            "bust_chance_fraction": str(self.bust_chance),
        }


TURN = "turn"
"""A decision on the seat's turn (a wager, an accusation, a roll, a stand)."""
ACCUSE_OUT_OF_TURN = "out-of-turn accusation"
"""Liar's Dice: the seat accused another's wager before the player to act (L7)."""
PASS_OUT_OF_TURN = "out-of-turn pass"
"""Liar's Dice: the seat let a wager it could have accused pass, and the player to act
acted on it."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat.

    Attributes:
        number: 1, 2, ... in the order of the game.
        round: the game's round.
        kind: :data:`TURN`, :data:`ACCUSE_OUT_OF_TURN` or :data:`PASS_OUT_OF_TURN`.
        known: what the seat knew (:class:`LiarsKnown` or :class:`BlackjackKnown`).
        chosen, best: the action taken and the best one, with their values.
        alternatives: the best few actions (best first), the chosen one among them.
        cost: ``best.value - chosen.value`` (0 when the choice was best).
        mark: ``'inaccuracy'``, ``'mistake'``, ``'blunder'`` or ``None``.
        method: how it was valued: ``'solved policy'``, ``'lookahead'`` or
            ``'exact solution'``.
        forced: only one action was legal (never marked).
        note: a remark in words (a known blunder says why), or ``None``.
        exact_cost: Dice Blackjack: the cost as an exact fraction.
    """

    number: int
    round: int
    kind: str
    known: LiarsKnown | BlackjackKnown
    chosen: Choice
    best: Choice
    alternatives: tuple[Choice, ...]
    cost: float
    mark: Mark | None
    method: str
    forced: bool = False
    note: str | None = None
    exact_cost: Fraction | None = None

    @property
    def symbol(self) -> str:
        """``'?!'``, ``'?'``, ``'??'`` or ``''``."""
        return SYMBOLS[self.mark] if self.mark is not None else ""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "number": self.number, "round": self.round, "kind": self.kind,
            "known": self.known.to_dict(), "chosen": self.chosen.to_dict(),
            "best": self.best.to_dict(),
            "alternatives": [a.to_dict() for a in self.alternatives],
            "cost": self.cost, "mark": self.mark, "symbol": self.symbol,
            "method": self.method, "forced": self.forced, "note": self.note,
        }
        if self.exact_cost is not None:
            data["exact_cost"] = str(self.exact_cost)
        return data


@dataclass(frozen=True, slots=True)
class SeatReview:
    """Every decision of one seat, and how the game went for it.

    Attributes:
        seat, name: the seat reviewed.
        decisions: in the order of the game.
        result: how the game ended for the seat, in words.
    """

    seat: int
    name: str
    decisions: tuple[Decision, ...]
    result: str

    def counts(self) -> dict[Mark, int]:
        """How many decisions earned each mark."""
        out: dict[Mark, int] = {mark: 0 for mark in SYMBOLS}
        for d in self.decisions:
            if d.mark is not None:
                out[d.mark] += 1
        return out

    @property
    def rated(self) -> tuple[Decision, ...]:
        """The decisions that had a choice (not forced)."""
        return tuple(d for d in self.decisions if not d.forced)

    @property
    def total_cost(self) -> float:
        return sum(d.cost for d in self.decisions)

    @property
    def mean_cost(self) -> float:
        """The average cost of a decision that had a choice (0 with none)."""
        rated = self.rated
        return self.total_cost / len(rated) if rated else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "result": self.result,
            "summary": {"decisions": len(self.decisions), "rated": len(self.rated),
                        **self.counts(), "total_cost": self.total_cost,
                        "mean_cost": self.mean_cost},
            "decisions": [d.to_dict() for d in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """A review of one finished (or abandoned) game for one or more seats.

    Attributes:
        game: ``'liars-dice'`` or ``'blackjack'``.
        players: every seat's name.
        thresholds: the marks' thresholds (and the unit of every value and cost).
        values: what a value means, in words.
        seats: one review per seat asked for.
        rounds: how many rounds the game had.
    """

    game: str
    players: tuple[str, ...]
    thresholds: Thresholds
    values: str
    seats: tuple[SeatReview, ...]
    rounds: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": list(self.players), "rounds": self.rounds,
            "thresholds": self.thresholds.to_dict(), "values": self.values,
            "seats": [s.to_dict() for s in self.seats],
        }
