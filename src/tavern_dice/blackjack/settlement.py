"""Pure Dice Blackjack adjudication: the house roll and the settlement of one bet.

>>> from tavern_dice.blackjack.rules import TAVERN
>>> house_roll(TAVERN, 12, (12, 15))      # a die equal to the target counts (B5)
12
>>> house_roll(TAVERN.replace(house_needs_under=True), 12, (12, 15)) is None
True
>>> settle(TAVERN, 301, 14, target=14, house=14)   # exact hit: 1.5x, rounded down (B8)
('exact', 451)
>>> settle(TAVERN, 100, 10, target=14, house=None)  # the house busts (B5)
('house-bust', 100)
>>> settle(TAVERN, 100, 9, target=14, house=9)      # not closer than the house: lose
('lose', -100)
>>> payout_ratio(TAVERN, "exact"), payout_ratio(TAVERN, "house-bust"), payout_ratio(TAVERN, "bust")
(Fraction(3, 2), Fraction(1, 1), Fraction(-1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.errors import TavernError


def house_roll(rules: BlackjackRules, target: int, dice: Sequence[int]) -> int | None:
    """The house's roll: the highest of its dice not over ``target`` (B5), or ``None``
    for a house bust.

    Seed: "Whichever of these is closer to the target number without going over becomes
    the house's roll. If neither of the house's rolls are under the target number, the
    house busts." A die equal to the target counts unless ``rules.house_needs_under``.
    """
    fits = [d for d in dice if d < target or (d == target and not rules.house_needs_under)]
    return max(fits) if fits else None


def outcome(rules: BlackjackRules, final: int | None, *, target: int, house: int | None) -> str:
    """How one player's round ends (B8): ``'bust'``, ``'exact'``, ``'house-bust'``, ``'win'``
    or ``'lose'``.

    Args:
        final: the player's final total (d12s plus any bonus), or ``None`` after a bust.
        target: the target number; house: the house roll, ``None`` if the house busted.

    Seed: "If a player's final roll is closer to the target number than the house's roll,
    that player wins gold equal to their wager. If a player busts, they lose their wager.
    If a player is NOT closer to the target number than the house's roll, they lose their
    wager. If a player hits the target number exactly, they win gold equal to 1.5x their
    wager."
    """
    if final is None or final > target:
        return "bust"
    if final == target:
        if rules.house_exact_beats_player_exact and house == target:
            return "lose"
        return "exact"
    if house is None:
        return "house-bust"
    if final > house:
        return "win"
    return "lose"


OUTCOMES = ("bust", "exact", "house-bust", "win", "lose")
"""Every way one player's round ends (B8), as :func:`outcome` names them."""

_WIN = Fraction(1)
_LOSS = Fraction(-1)


def payout_ratio(rules: BlackjackRules, result: str) -> Fraction:
    """What an :func:`outcome` pays per unit bet, exactly (B8): an exact hit
    ``exact_numerator/exact_denominator`` (seed: "1.5x their wager"), a win or a house bust
    +1, a bust or a loss -1. :func:`settle` pays it in cp, an exact hit rounded down to
    the copper piece; the solver values play with it unrounded.

    Raises:
        TavernError: ``result`` is none of :data:`OUTCOMES`.
    """
    if result == "exact":
        return Fraction(rules.exact_numerator, rules.exact_denominator)
    if result in ("win", "house-bust"):
        return _WIN
    if result in ("bust", "lose"):
        return _LOSS
    raise TavernError(f"unknown outcome {result!r}; one of {', '.join(OUTCOMES)}")


def settle(
    rules: BlackjackRules, bet: int, final: int | None, *, target: int, house: int | None
) -> tuple[str, int]:
    """Settle one bet of ``bet`` cp: return ``(outcome, player's gain in cp)`` (B8).

    The :func:`outcome` pays :func:`payout_ratio` times the bet: an exact hit rounded down
    to the copper piece (:meth:`~tavern_dice.blackjack.rules.BlackjackRules.exact_payout`),
    a win or a house bust the bet; a bust or a loss costs the bet.
    """
    result = outcome(rules, final, target=target, house=house)
    if result == "exact":
        return result, rules.exact_payout(bet)
    return result, int(payout_ratio(rules, result) * bet)
