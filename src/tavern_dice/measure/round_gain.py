"""A sampled lower bound on a bot's exploitability in one heads-up round.

Whole games (:mod:`.exploit`) say who wins; the exploitability of a round's policy (what
``tavern solve tables`` prints for the rounds with a table) is a per-round figure. Where no
exact best response fits (7-10 dice in play), an exploiter's average score over many
single rounds bounds it from below: :func:`round_gain` seats an exploiter against a bot
for ``rounds`` rounds of ``a v b`` (the first bidder's dice, then the second's), a round
scored +1 to whoever keeps all their dice and -1 to the other (heads-up exactly one player
loses a die: a spot-on call costs the accuser, L8).

The exploiter plays either position: bidding first with ``a`` dice against the bot's
policy for the second bidder, and second with ``b`` dice against its policy for the first.
With the round's value ``v`` (the first bidder's), the first position's best score is
``v`` plus the best response's gain against the second bidder's policy, the second's
``-v`` plus the gain against the first's: ``v`` cancels, and the average of the two
positions' mean scores is a lower bound on NashConv / 2, the exploitability
:mod:`tavern_dice.strategy.liars_dice.solver.play.tables` reports, whether or not ``a = b``.
The roll-off decides who bids first (as at the table; it does not depend on the dice
counts, so the first bidder is dealt ``a``); each position's mean is taken apart
(stratified), so an uneven split of positions does not bias the figure. The interval is
the normal one of that stratified mean (95 %, each position's win rate Agresti-Coull
adjusted, so that a position won or lost every time still has a width); it says the
figure is sampled, not exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.measure.exploit import ExploitError, lookup
from tavern_dice.play.runner import liars_dice_step


@dataclass(frozen=True)
class PositionScore:
    """The exploiter's rounds in one position: how many, and how many it won."""

    rounds: int
    wins: int

    @property
    def mean(self) -> float:
        """Mean score (+1 a win, -1 a loss); 0 with no rounds."""
        return (2 * self.wins - self.rounds) / self.rounds if self.rounds else 0.0

    @property
    def variance_of_mean(self) -> float:
        """Variance of :attr:`mean` (a score is ``2 x win - 1``), from the Agresti-Coull
        win rate ``(wins + 2) / (rounds + 4)``."""
        p = (self.wins + 2) / (self.rounds + 4)
        return 4 * p * (1 - p) / (self.rounds + 4)


class Position(Protocol):
    """One position's rounds as :class:`TwoPositions` reads them."""

    @property
    def rounds(self) -> int: ...

    @property
    def mean(self) -> float: ...

    @property
    def variance_of_mean(self) -> float: ...


P = TypeVar("P", bound=Position)


@dataclass(frozen=True)
class TwoPositions(Generic[P]):
    """An exploiter's single rounds against a bot, by the exploiter's position, and the
    figure they give: the two positions' mean scores averaged (stratified), with its
    interval.

    Attributes:
        exploiter, target: who played.
        dice: the first bidder's dice and the second's.
        first, second: the exploiter's rounds bidding first and bidding second.
    """

    exploiter: str
    target: str
    dice: tuple[int, int]
    first: P
    second: P

    @property
    def rounds(self) -> int:
        return self.first.rounds + self.second.rounds

    @property
    def gain(self) -> float:
        """The exploiter's mean score averaged over the two positions (a sampled lower
        bound on the target's exploitability in this round)."""
        return (self.first.mean + self.second.mean) / 2

    @property
    def interval(self) -> tuple[float, float]:
        """95 % normal interval of :attr:`gain`."""
        half = 1.96 * math.sqrt(self.first.variance_of_mean + self.second.variance_of_mean) / 2
        return self.gain - half, self.gain + half


@dataclass(frozen=True)
class RoundGain(TwoPositions[PositionScore]):
    """Rounds played out, each scored +-1 (:func:`round_gain`)."""

    @property
    def wins(self) -> int:
        return self.first.wins + self.second.wins

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "exploiter": self.exploiter, "target": self.target, "dice": list(self.dice),
            "rounds": self.rounds, "wins": self.wins,
            "first": {"rounds": self.first.rounds, "wins": self.first.wins},
            "second": {"rounds": self.second.rounds, "wins": self.second.wins},
            "gain": self.gain, "low": low, "high": high,
        }


def deal_round(rules: LiarsDiceRules, seed: int, dice: tuple[int, int]) -> LiarsDiceGame:
    """A heads-up game seeded ``seed`` whose first round has the first bidder (the
    roll-off's winner) holding ``dice[0]`` dice and the other ``dice[1]``."""
    game = LiarsDiceGame(2, rules=rules, dice=SeededDice(seed), starting_dice=list(dice))
    if game.starter == 1 and dice[0] != dice[1]:
        # The roll-off is the same whatever the counts: seat the counts the other way.
        game = LiarsDiceGame(2, rules=rules, dice=SeededDice(seed),
                             starting_dice=[dice[1], dice[0]])
    return game


def check_round_request(exploiter: str, dice: int | tuple[int, int], rounds: int,
                        rules: LiarsDiceRules) -> tuple[tuple[int, int], LiarsDiceRules]:
    """The dice pair (first bidder's, second's) and the rules to deal it under, after
    checking the request.

    Raises:
        ExploitError: an unknown exploiter, or a count that is not a whole number of at
            least 1.
        RulesetError: more dice than the rules allow a player.
    """
    lookup(exploiter)
    pair = dice if isinstance(dice, tuple) else (dice, dice)
    if len(pair) != 2:
        raise ExploitError(f"dice must be one count or two (the first bidder's, the "
                           f"second's); got {dice!r}")
    for label, count in (("dice", pair[0]), ("dice", pair[1]), ("rounds", rounds)):
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ExploitError(f"{label} must be a whole number of at least 1; got {count!r}")
    return pair, rules.replace(dice_per_player=max(*pair, rules.dice_per_player))


def round_gain(
    target: str, exploiter: str, dice: int | tuple[int, int], rounds: int, seed: int = 1,
    rules: LiarsDiceRules = TAVERN, progress: Callable[[int], None] | None = None,
) -> RoundGain:
    """Play ``rounds`` single heads-up rounds, ``exploiter`` against ``target``, of
    ``dice`` dice each, or of ``dice = (a, b)``: the first bidder ``a`` dice, the second
    ``b``. Round ``k`` is the first round of a game seeded ``seed + k``, the exploiter in
    seat ``k % 2``, both bots seeded from ``seed + k``. ``progress`` is called with 1
    after each round.

    Raises:
        ExploitError: an unknown exploiter (the message lists the suite), or a count that
            is not a whole number of at least 1.
        RulesetError: more dice than the rules allow a player.
    """
    pair, table = check_round_request(exploiter, dice, rounds, rules)
    won = {0: [0, 0], 1: [0, 0]}  # exploiter's position (0: first bidder): [rounds, wins]
    for k in range(rounds):
        seat = k % 2
        game = deal_round(table, seed + k, pair)
        agents = [make_liars_dice_bot(target, "target", seed + k)] * 2
        agents[seat] = lookup(exploiter).build(target, "exploiter", seed + k)
        round_number = game.round
        position = 0 if game.starter == seat else 1
        held = game.dice_counts[seat]
        while game.round == round_number and game.winner is None:
            liars_dice_step(game, agents)
        won[position][0] += 1
        won[position][1] += int(game.dice_counts[seat] == held)
        if progress is not None:
            progress(1)
    return RoundGain(exploiter, target, pair, PositionScore(*won[0]), PositionScore(*won[1]))
