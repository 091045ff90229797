"""Exact odds of a Liar's Dice wager, as one player sees the table.

A player knows their own dice and how many dice are in play; every other die
is unseen and uniform on ``1..sides``. For a count wager "at least ``q`` dice
show ``f``" (L4) the dice that count are the player's own matches plus a
binomial number of the unseen dice, each matching with probability

* ``1/sides`` without a wild face, or for a wager on the wild face itself;
* ``2/sides`` with a wild face (L6 option) and a wager on another face: the die
  matches if it shows ``f`` or the wild face.

For a sum wager in the two-player, one-die endgame (L10, "wagers instead are
based on the sum of the dice") the sum is the player's own dice plus the exact
convolution of the unseen dice.

An accusation (L7) reveals the dice, and exactly one of three things is the
case (L8): the wager was **false** (fewer than claimed), **true but not exact**
(more than claimed) or **exact** (spot-on). :func:`wager_odds` gives the three
probabilities as :class:`~fractions.Fraction` (summing to 1);
:func:`wager_odds_float` and :func:`true_probability` give the same numbers as
floats, from cached tables, for bots. :func:`outcome_costs` says who loses a
die in each case under a ruleset, and :func:`expected_dice_lost` combines the two.

Holding two fives among 10 dice, with no wild face, "3 fives" needs at least one
five among the 5 unseen dice:

>>> from tavern_dice.liars_dice.rules import TAVERN, OPENSPIEL
>>> from tavern_dice.liars_dice.wager import SumWager, Wager
>>> odds = wager_odds(Wager(3, 5), (5, 5, 1, 2, 3), 10, TAVERN)
>>> odds.false == Fraction(5, 6) ** 5, odds.true
(True, Fraction(4651, 7776))
>>> wager_odds(Wager(1, 3), (), 2, OPENSPIEL).false   # 6s are wild: a die counts w.p. 2/6
Fraction(4, 9)
>>> wager_odds(SumWager(7), (3,), 2, TAVERN)          # the other die must show 4+
WagerOdds(false=Fraction(1, 2), true_not_exact=Fraction(1, 3), exact=Fraction(1, 6))
>>> costs = outcome_costs(wager_maker=0, accuser=1, in_game=(0, 1, 2), rules=TAVERN)
>>> costs.false, costs.true_not_exact, costs.exact
((0,), (1,), (1, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

from tavern_dice.errors import InvalidDiceError, TavernError
from tavern_dice.liars_dice.adjudication import dice_losers, die_counts, reveal_outcome
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager

if TYPE_CHECKING:
    from tavern_dice.liars_dice.view import LiarsDiceView


class OddsError(TavernError):
    """Input that no table could show: a face or quantity out of range, more own dice
    than dice in play, seats that are not in the game."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class WagerOdds:
    """The chance of each outcome of accusing a wager (L8), exact.

    Attributes:
        false: P(fewer dice match than claimed; for a sum wager, the sum is lower).
        true_not_exact: P(more dice match than claimed; the sum is higher).
        exact: P(exactly the claimed count or total: "spot-on").

    The three are :class:`~fractions.Fraction` and sum to 1.
    """

    false: Fraction
    true_not_exact: Fraction
    exact: Fraction

    @property
    def true(self) -> Fraction:
        """P(the wager holds): true but not exact, or exact."""
        return self.true_not_exact + self.exact

    def as_floats(self) -> FloatOdds:
        """The same odds as floats."""
        return FloatOdds(float(self.false), float(self.true_not_exact), float(self.exact))


@dataclass(frozen=True, slots=True)
class FloatOdds:
    """:class:`WagerOdds` as floats (for bots and display); each within 1 ulp of exact."""

    false: float
    true_not_exact: float
    exact: float

    @property
    def true(self) -> float:
        """P(the wager holds)."""
        return 1.0 - self.false


# --------------------------------------------------------------------------- the dice


def _check_rules_dice(own_dice: Sequence[int], dice_in_play: int, rules: LiarsDiceRules) -> int:
    """Validate the player's dice and return the number of unseen dice."""
    for face in own_dice:
        whole = isinstance(face, int) and not isinstance(face, bool)
        if not whole or not 1 <= face <= rules.sides:
            raise InvalidDiceError(
                f"a d{rules.sides} shows a whole number from 1 to {rules.sides}, not {face!r}"
            )
    if isinstance(dice_in_play, bool) or not isinstance(dice_in_play, int):
        raise OddsError(f"dice in play is a whole number, not {dice_in_play!r}")
    if dice_in_play < len(own_dice):
        raise OddsError(
            f"{len(own_dice)} own dice cannot be among only {dice_in_play} dice in play; "
            f"dice in play must be at least {len(own_dice)}"
        )
    return dice_in_play - len(own_dice)


def _check_wager(wager: AnyWager, rules: LiarsDiceRules) -> None:
    if isinstance(wager, SumWager):
        if wager.total < 1:
            raise OddsError(f"a sum wager names a positive total, not {wager.total}")
        return
    if not isinstance(wager, Wager):
        raise OddsError(f"expected a Wager or SumWager, not {wager!r}")
    if not 1 <= wager.face <= rules.sides:
        raise OddsError(f"a face is 1-{rules.sides}, not {wager.face}")
    if wager.quantity < 1:
        raise OddsError(f"a wager claims at least 1 die, not {wager.quantity}")


def die_matches(die: int, face: int, rules: LiarsDiceRules) -> bool:
    """Whether one die counts toward a wager on ``face`` (L4, L6): it shows ``face``, or it
    shows the wild face and ``face`` is not the wild face."""
    return die_counts(die, face, rules)


def matching_dice(dice: Sequence[int], face: int, rules: LiarsDiceRules) -> int:
    """How many of ``dice`` count toward a wager on ``face`` (see :func:`die_matches`)."""
    return sum(1 for die in dice if die_matches(die, face, rules))


def success_faces(face: int, rules: LiarsDiceRules) -> int:
    """How many faces of an unseen die count toward a wager on ``face``: 2 with a wild face
    (and ``face`` not wild), else 1. The per-die chance is ``success_faces / sides``."""
    return 2 if rules.wild_face is not None and face != rules.wild_face else 1


def success_probability(face: int, rules: LiarsDiceRules) -> Fraction:
    """Chance that one unseen die counts toward a wager on ``face``: ``1/sides`` or
    ``2/sides`` (L6 wild face)."""
    return Fraction(success_faces(face, rules), rules.sides)


# --------------------------------------------------------------------------- distributions


@dataclass(frozen=True, slots=True)
class _Dist:
    """An integer-valued distribution as counts of equally likely outcomes.

    ``ways[i]`` outcomes give the value ``low + i``, out of ``total`` outcomes; ``below[i]``
    is ``sum(ways[:i])`` (so ``below[len(ways)] == total``).
    """

    low: int
    ways: tuple[int, ...]
    below: tuple[int, ...]
    total: int

    def split(self, claim: int) -> tuple[int, int, int]:
        """Outcome counts with value below, equal to and above ``claim``."""
        i = min(max(claim - self.low, 0), len(self.ways))
        at = self.ways[i] if claim - self.low == i and i < len(self.ways) else 0
        under = self.below[i]
        return under, at, self.total - under - at


def _make_dist(low: int, ways: Sequence[int]) -> _Dist:
    below = [0]
    for w in ways:
        below.append(below[-1] + w)
    return _Dist(low, tuple(ways), tuple(below), below[-1])


@lru_cache(maxsize=4096)
def _count_dist(unseen: int, hits: int, sides: int) -> _Dist:
    """Binomial(unseen, hits/sides) as outcome counts over ``sides ** unseen``."""
    misses = sides - hits
    return _make_dist(
        0, [comb(unseen, k) * hits**k * misses ** (unseen - k) for k in range(unseen + 1)]
    )


@lru_cache(maxsize=512)
def _sum_dist(dice: int, sides: int) -> _Dist:
    """The sum of ``dice`` fair d``sides`` as outcome counts over ``sides ** dice``, by
    repeated convolution (exact integers)."""
    ways = [1]  # the empty sum is 0 in one way
    for _ in range(dice):
        nxt = [0] * (len(ways) + sides - 1)
        for i, w in enumerate(ways):
            for face in range(sides):
                nxt[i + face] += w
        ways = nxt
    return _make_dist(dice, ways)


def count_distribution(unseen: int, face: int, rules: LiarsDiceRules) -> tuple[Fraction, ...]:
    """``P(k of the unseen dice count toward face)`` for ``k = 0..unseen`` (binomial)."""
    dist = _count_dist(unseen, success_faces(face, rules), rules.sides)
    return tuple(Fraction(w, dist.total) for w in dist.ways)


def sum_distribution(dice: int, sides: int) -> dict[int, Fraction]:
    """``{s: P(dice d(sides) sum to s)}`` for ``s = dice..dice*sides`` (exact convolution)."""
    dist = _sum_dist(dice, sides)
    return {dist.low + i: Fraction(w, dist.total) for i, w in enumerate(dist.ways)}


def _dist_and_claim(
    wager: AnyWager, own_dice: Sequence[int], dice_in_play: int, rules: LiarsDiceRules
) -> tuple[_Dist, int]:
    """The distribution of what the unseen dice add, and what they must add for the
    wager to be exact."""
    unseen = _check_rules_dice(own_dice, dice_in_play, rules)
    _check_wager(wager, rules)
    if isinstance(wager, SumWager):
        return _sum_dist(unseen, rules.sides), wager.total - sum(own_dice)
    known = matching_dice(own_dice, wager.face, rules)
    dist = _count_dist(unseen, success_faces(wager.face, rules), rules.sides)
    return dist, wager.quantity - known


# --------------------------------------------------------------------------- odds


def wager_odds(
    wager: AnyWager, own_dice: Sequence[int], dice_in_play: int, rules: LiarsDiceRules
) -> WagerOdds:
    """Exact chances that ``wager`` is false, true but not exact, or exact (L8).

    Args:
        wager: a count wager (L4) or a sum wager (L10).
        own_dice: the faces the player sees (their own dice); may be empty (a spectator).
        dice_in_play: all dice on the table this round, the player's included.
        rules: the ruleset (``sides``, ``wild_face``).

    Returns:
        :class:`WagerOdds` of Fractions summing to 1. A wager needing more dice than
        are in play is false with probability 1.

    Raises:
        InvalidDiceError: a face of ``own_dice`` outside ``1..sides``.
        OddsError: more own dice than dice in play; a wager face outside ``1..sides``,
            a quantity or total below 1.
    """
    dist, claim = _dist_and_claim(wager, own_dice, dice_in_play, rules)
    under, at, over = dist.split(claim)
    return WagerOdds(
        Fraction(under, dist.total), Fraction(over, dist.total), Fraction(at, dist.total)
    )


def wager_odds_float(
    wager: AnyWager, own_dice: Sequence[int], dice_in_play: int, rules: LiarsDiceRules
) -> FloatOdds:
    """:func:`wager_odds` as floats (correctly rounded ratios of exact integer counts)."""
    dist, claim = _dist_and_claim(wager, own_dice, dice_in_play, rules)
    under, at, over = dist.split(claim)
    return FloatOdds(under / dist.total, over / dist.total, at / dist.total)


def true_probability(
    wager: AnyWager, own_dice: Sequence[int], dice_in_play: int, rules: LiarsDiceRules
) -> float:
    """P(``wager`` holds: true or exact) as a float; the bots' hot path."""
    dist, claim = _dist_and_claim(wager, own_dice, dice_in_play, rules)
    under, _, _ = dist.split(claim)
    return (dist.total - under) / dist.total


def expected_count(
    face: int, own_dice: Sequence[int], dice_in_play: int, rules: LiarsDiceRules
) -> Fraction:
    """Expected number of dice on the table that count toward ``face``: own matches plus
    ``unseen * success_probability``."""
    unseen = _check_rules_dice(own_dice, dice_in_play, rules)
    _check_wager(Wager(1, face), rules)
    return matching_dice(own_dice, face, rules) + unseen * success_probability(face, rules)


def view_odds(view: LiarsDiceView, wager: AnyWager | None = None) -> WagerOdds:
    """:func:`wager_odds` of ``wager`` (default: the standing wager) as ``view``'s seat sees
    it: its own dice among ``view.dice_in_play``.

    Raises:
        OddsError: no wager given and none stands.
    """
    chosen = view.wager if wager is None else wager
    if chosen is None:
        raise OddsError("no wager stands yet; name a wager to get its odds")
    return wager_odds(chosen, view.own_dice, view.dice_in_play, view.rules)


# --------------------------------------------------------------------------- costs


@dataclass(frozen=True, slots=True)
class OutcomeCosts:
    """Who loses a die in each outcome of one accusation (L8), under one ruleset.

    Attributes:
        wager_maker, accuser: the two seats.
        seats: the seats still in the game.
        false: losers if the wager is false: the wager-maker.
        true_not_exact: losers if it is true and not exact: the accuser.
        exact: losers if it is exact: with ``spot_on`` everyone but the wager-maker
            (accuser included), otherwise the accuser (exact counts as true).
        exact_outcome: the engine's name for the exact case, ``'spot-on'`` or ``'true'``.
    """

    wager_maker: int
    accuser: int
    seats: tuple[int, ...]
    false: tuple[int, ...]
    true_not_exact: tuple[int, ...]
    exact: tuple[int, ...]
    exact_outcome: str

    def losers(self, outcome: str) -> tuple[int, ...]:
        """Losers for an engine outcome name (``'false'``, ``'true'``, ``'spot-on'``) as in
        :class:`~tavern_dice.liars_dice.events.Revealed`, or for ``'exact'`` /
        ``'true_not_exact'``.

        Raises:
            OddsError: for another name.
        """
        table = {
            "false": self.false,
            "true": self.true_not_exact,
            "true_not_exact": self.true_not_exact,
            "exact": self.exact,
            "spot-on": self.exact,
        }
        if outcome not in table or (outcome == "spot-on" and self.exact_outcome != "spot-on"):
            known = sorted(k for k in table if k != "spot-on" or self.exact_outcome == "spot-on")
            raise OddsError(f"unknown outcome {outcome!r}; known: {known}")
        return table[outcome]


def outcome_costs(
    wager_maker: int, accuser: int, in_game: Sequence[int], rules: LiarsDiceRules
) -> OutcomeCosts:
    """Who loses a die in each outcome when ``accuser`` accuses ``wager_maker`` (L8).

    Seed: "The wager-maker loses a dice ... The accuser loses a dice ... Everyone but the
    wager-maker loses a dice" for a false, a true and a spot-on wager. Without
    ``rules.spot_on`` an exact wager is simply true and the accuser loses.

    Args:
        wager_maker, accuser: two different seats, both in ``in_game``.
        in_game: the seats that still have dice.

    Raises:
        OddsError: the seats are equal or not in the game.
    """
    seats = tuple(in_game)
    if wager_maker not in seats or accuser not in seats:
        raise OddsError(
            f"wager-maker {wager_maker} and accuser {accuser} must be seats in the game: {seats}"
        )
    if wager_maker == accuser:
        raise OddsError(f"seat {accuser} made the wager and cannot accuse it (L7)")
    exact_outcome = reveal_outcome(1, 1, rules)
    return OutcomeCosts(
        wager_maker,
        accuser,
        seats,
        dice_losers("false", wager_maker, accuser, seats),
        dice_losers("true", wager_maker, accuser, seats),
        dice_losers(exact_outcome, wager_maker, accuser, seats),
        exact_outcome,
    )


def expected_dice_lost(odds: WagerOdds, costs: OutcomeCosts) -> dict[int, Fraction]:
    """Each seat's expected dice lost if the accusation happens: ``{seat: Fraction}``.

    >>> from tavern_dice.liars_dice.rules import TAVERN
    >>> odds = WagerOdds(Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))
    >>> expected_dice_lost(odds, outcome_costs(0, 1, (0, 1, 2), TAVERN))
    {0: Fraction(1, 2), 1: Fraction(1, 2), 2: Fraction(1, 6)}
    """
    lost = {seat: Fraction(0) for seat in costs.seats}
    for p, losers in (
        (odds.false, costs.false),
        (odds.true_not_exact, costs.true_not_exact),
        (odds.exact, costs.exact),
    ):
        for seat in losers:
            lost[seat] += p
    return lost


__all__ = [
    "FloatOdds",
    "OddsError",
    "OutcomeCosts",
    "WagerOdds",
    "count_distribution",
    "die_matches",
    "expected_count",
    "expected_dice_lost",
    "matching_dice",
    "outcome_costs",
    "success_faces",
    "success_probability",
    "sum_distribution",
    "true_probability",
    "view_odds",
    "wager_odds",
    "wager_odds_float",
]
