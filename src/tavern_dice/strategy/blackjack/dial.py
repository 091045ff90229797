"""The DM's house-edge dial: table rules that give the house a chosen edge.

Under the seed's rules a perfect Dice Blackjack player beats the house (+0.94 % per gp
bet without proficiency, far more with a bonus). The dial tries every combination of
the rule options that move the edge and picks the one closest to the edge the DM asks
for, against a perfect player (:func:`~tavern_dice.strategy.blackjack.solver.solve`):

* the exact-hit payout (B8; ``exact_numerator:exact_denominator``): 3:2 (the seed),
  5:4, 6:5, 1:1;
* whether the house wins a tie on the target (B8, ``house_exact_beats_player_exact``);
* whether a house die equal to the target counts (B5, ``house_needs_under``; the strict
  reading helps the player);
* a cap on the bonus a player may add (B7, ``max_added_bonus``).

The table's players are described by the bonuses they may add (``+0`` not proficient,
``+1`` for PB 2, ``+2`` for PB 3-4, ``+3`` for PB 5-6). The **table edge** is the mean
of their edges: the house's expected take per gp when each of them bets the same.
Among equally close candidates the one with the fewest changes to the seed wins.

>>> from fractions import Fraction
>>> result = dial(Fraction(2, 100), bonuses=(0,))
>>> result.chosen.flags()
['--exact-payout', '6:5']
>>> f"{float(result.chosen.table_edge):.3%}"      # exact: a Fraction
'1.833%'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.errors import RulesetError
from tavern_dice.strategy.blackjack.solver import house_edge

PAYOUTS: tuple[tuple[int, int], ...] = ((3, 2), (5, 4), (6, 5), (1, 1))
"""Exact-hit payouts tried, as odds: the seed's 3:2 (1.5x), then less for the player."""


def proficiency_for_bonus(bonus: int, rules: BlackjackRules = TAVERN) -> int | None:
    """A proficiency bonus whose half, rounded up, is ``bonus`` (B7): ``None`` for +0,
    PB 2 for +1, PB 4 for +2, PB 6 for +3.

    Raises:
        RulesetError: a bonus no character's proficiency gives under ``rules``.
    """
    top = TAVERN.bonus_cap(rules.max_proficiency_bonus)
    if type(bonus) is not int or not 0 <= bonus <= top:
        raise RulesetError(f"a bonus added on standing is +0 to +{top}, not {bonus!r}")
    return None if bonus == 0 else 2 * bonus


@lru_cache(maxsize=256)
def bonus_edge(rules: BlackjackRules, bonus: int) -> Fraction:
    """The house edge against a perfect player who may add ``bonus`` under ``rules``."""
    return house_edge(rules, proficiency_for_bonus(bonus, rules))


@dataclass(frozen=True)
class Candidate:
    """One set of table rules and its exact house edges.

    Attributes:
        rules: the ruleset.
        bonuses: the table's bonuses, in order.
        edges: the house edge against a perfect player with each bonus (per unit bet).
    """

    rules: BlackjackRules
    bonuses: tuple[int, ...]
    edges: tuple[Fraction, ...]

    @property
    def table_edge(self) -> Fraction:
        """The mean of :attr:`edges`: the house's take per unit bet at this table."""
        return sum(self.edges, Fraction(0)) / len(self.edges)

    @property
    def changes(self) -> int:
        """How many of the dial's options differ from the seed's."""
        rules = self.rules
        return sum((
            rules.payout_text() != TAVERN.payout_text(),
            rules.house_exact_beats_player_exact != TAVERN.house_exact_beats_player_exact,
            rules.house_needs_under != TAVERN.house_needs_under,
            rules.max_added_bonus is not None,
        ))

    def flags(self) -> list[str]:
        """The ``tavern play/simulate blackjack`` flags that play these rules."""
        rules = self.rules
        out: list[str] = []
        if rules.payout_text() != TAVERN.payout_text():
            out += ["--exact-payout", rules.payout_text()]
        if rules.house_exact_beats_player_exact:
            out.append("--house-exact-beats-player-exact")
        if rules.house_needs_under:
            out.append("--house-needs-under")
        if rules.max_added_bonus is not None:
            out += ["--max-added-bonus", str(rules.max_added_bonus)]
        return out


@dataclass(frozen=True)
class DialResult:
    """What :func:`dial` found.

    Attributes:
        target: the house edge asked for (per unit bet).
        candidates: every candidate tried, in the order tried.
        chosen: the one closest to ``target``.
    """

    target: Fraction
    candidates: tuple[Candidate, ...]
    chosen: Candidate


def candidates(
    bonuses: Sequence[int], base: BlackjackRules = TAVERN
) -> list[Candidate]:
    """Every combination of the dial's options on top of ``base``, with exact edges.

    A cap at or above the table's largest bonus changes nothing, so caps go from 0 to one
    below it.

    Raises:
        RulesetError: no bonuses, or one no proficiency gives.
    """
    table = tuple(bonuses)
    if not table:
        raise RulesetError("give at least one bonus, e.g. +0 for players without proficiency")
    for bonus in table:
        proficiency_for_bonus(bonus, base)
    caps: list[int | None] = [None, *range(max(table))]
    out: list[Candidate] = []
    for (num, den), ties, under in itertools.product(PAYOUTS, (False, True), (False, True)):
        rules = base.replace(
            exact_numerator=num, exact_denominator=den, house_exact_beats_player_exact=ties,
            house_needs_under=under, max_added_bonus=None,
        )
        # Under a cap, a player adds min(bonus, cap): the same game as that smaller bonus.
        uncapped = {b: bonus_edge(rules, b) for b in range(max(table) + 1)}
        for cap in caps:
            edges = tuple(uncapped[b if cap is None else min(b, cap)] for b in table)
            out.append(Candidate(rules.replace(max_added_bonus=cap), table, edges))
    return out


def dial(
    target: Fraction, bonuses: Sequence[int] = (0, 1, 2, 3), base: BlackjackRules = TAVERN
) -> DialResult:
    """The table rules whose house edge (the mean over ``bonuses``) is closest to
    ``target`` (per unit bet: ``Fraction(2, 100)`` is 2 %); ties go to fewer changes.

    Raises:
        RulesetError: see :func:`candidates`.
    """
    tried = candidates(bonuses, base)
    best = min(
        range(len(tried)),
        key=lambda i: (abs(tried[i].table_edge - target), tried[i].changes, i),
    )
    return DialResult(target, tuple(tried), tried[best])


def parse_edge(text: str) -> Fraction:
    """Read a house edge: ``'2%'``, ``'-0.5 %'`` or a fraction of the bet, ``'0.02'``.

    >>> parse_edge("2%"), parse_edge("0.015")
    (Fraction(1, 50), Fraction(3, 200))

    Raises:
        RulesetError: text that is not a number.
    """
    raw = text.strip() if isinstance(text, str) else ""
    percent = raw.endswith("%")
    number = raw.removesuffix("%").strip()
    try:
        value = Fraction(number)
    except (ValueError, ZeroDivisionError):
        raise RulesetError(
            f"a house edge is a percentage such as 2% or -0.5%, or a fraction of the bet "
            f"such as 0.02; not {text!r}"
        ) from None
    return value / 100 if percent else value
