"""Dice Blackjack rulesets: the seed's house d20 game and its named options.

>>> TAVERN.target_sides, TAVERN.house_dice, TAVERN.player_sides
(20, 2, 12)
>>> TAVERN.exact_payout(301)   # 1.5x, rounded down to the copper piece
451
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tavern_dice.errors import RulesetError
from tavern_dice.rules_base import RulesetMixin


@dataclass(frozen=True, slots=True)
class BlackjackRules(RulesetMixin):
    """One Dice Blackjack ruleset (frozen). Money is in copper pieces (cp).

    Attributes:
        target_sides: the house's large die (seed "large d20"); its roll is the target (B3).
        house_dice, house_sides: the house's other dice (seed "other two d20's") (B5).
        player_sides: the players' dice (seed "d12's") (B6).
        house_needs_under: B5 option. ``False`` (default): a house die equal to the
            target counts ("without going over"). ``True``: read "under" strictly.
        house_exact_beats_player_exact: B8 option. ``False`` (default): a player on the
            target wins 1.5x even if the house is on it too. ``True``: the house wins that tie.
        target_one_collects: B4 (seed "SPECIAL CIRCUMSTANCE"): a target of 1 collects every bet.
        exact_numerator, exact_denominator: B8 payout for hitting the target (seed 1.5x = 3/2),
            rounded down to the copper piece.
        min_bet_cp, max_bet_cp: B2 table limits in cp (``None``: no maximum).
        max_proficiency_bonus: B7, the largest proficiency bonus a character has (D&D 5e: 6).
        max_added_bonus: B7 table option, the most any player may add on standing, whatever
            their proficiency bonus (``None``, the seed: ``ceil(PB/2)`` is the only limit).
            A house that wants its edge back caps it (``0`` turns the bonus off).
    """

    target_sides: int = 20
    house_dice: int = 2
    house_sides: int = 20
    player_sides: int = 12
    house_needs_under: bool = False
    house_exact_beats_player_exact: bool = False
    target_one_collects: bool = True
    exact_numerator: int = 3
    exact_denominator: int = 2
    min_bet_cp: int = 1
    max_bet_cp: int | None = None
    max_proficiency_bonus: int = 6
    max_added_bonus: int | None = None

    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 10
    """The engine seats 1 to 10 players against the house (not options: the seed sets no
    limit, and the web table's seat list and the tests are sized for ten)."""

    @property
    def min_players(self) -> int:
        """The fewest players a session seats (as ``LiarsDiceRules.min_players``)."""
        return self.MIN_PLAYERS

    @property
    def max_players(self) -> int:
        """The most players a session seats (as ``LiarsDiceRules.max_players``)."""
        return self.MAX_PLAYERS

    def __post_init__(self) -> None:
        self.check_field_types()
        for name in ("target_sides", "house_sides", "player_sides"):
            if not 2 <= getattr(self, name) <= 100:
                raise RulesetError(f"{name} must be 2-100, not {getattr(self, name)}")
        if not 1 <= self.house_dice <= 5:
            raise RulesetError(f"house_dice must be 1-5, not {self.house_dice}")
        if self.exact_denominator <= 0 or self.exact_numerator < 0:
            raise RulesetError("the exact-hit payout must be a non-negative fraction")
        if self.min_bet_cp < 1:
            raise RulesetError(f"min_bet_cp must be at least 1, not {self.min_bet_cp}")
        if self.max_added_bonus is not None and self.max_added_bonus < 0:
            raise RulesetError(
                f"max_added_bonus is a cap of 0 or more on the bonus added, or None for no "
                f"cap; not {self.max_added_bonus}"
            )
        if self.max_bet_cp is not None and self.max_bet_cp < self.min_bet_cp:
            raise RulesetError(
                f"the table maximum bet (max_bet_cp {self.max_bet_cp}) is below the table "
                f"minimum (min_bet_cp {self.min_bet_cp}); amounts are in cp"
            )

    def exact_payout(self, bet_cp: int) -> int:
        """Winnings in cp for hitting the target exactly: ``floor(bet * 3/2)`` (B8)."""
        return bet_cp * self.exact_numerator // self.exact_denominator

    def bonus_cap(self, proficiency_bonus: int | None) -> int:
        """Largest bonus a player may add (B7): ``ceil(PB / 2)``, 0 if not proficient, and
        no more than the table's ``max_added_bonus``.

        >>> [TAVERN.bonus_cap(pb) for pb in (None, 2, 3, 4, 5, 6)]
        [0, 1, 2, 2, 3, 3]
        >>> [TAVERN.replace(max_added_bonus=1).bonus_cap(pb) for pb in (None, 2, 6)]
        [0, 1, 1]
        """
        half = -(-proficiency_bonus // 2) if proficiency_bonus else 0
        if self.max_added_bonus is None:
            return half
        return min(half, self.max_added_bonus)

    def payout_text(self) -> str:
        """The exact-hit payout as odds, e.g. ``'3:2'`` (B8: "1.5x their wager")."""
        return f"{self.exact_numerator}:{self.exact_denominator}"


def parse_payout(text: str) -> tuple[int, int]:
    """Read an exact-hit payout written as odds, ``'6:5'`` (or ``'6/5'``), as
    ``(exact_numerator, exact_denominator)``.

    >>> parse_payout("3:2"), parse_payout(" 6/5 ")
    ((3, 2), (6, 5))

    Raises:
        RulesetError: text that is not two whole numbers, the second above 0.
    """
    parts = text.replace("/", ":").split(":") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts) or int(parts[1]) == 0:
        raise RulesetError(
            f"an exact-hit payout is written as odds such as 3:2 (the seed's 1.5x), 6:5 or "
            f"1:1; not {text!r}"
        )
    return int(parts[0]), int(parts[1])


TAVERN = BlackjackRules()
"""The seed's rules (the default)."""

PRESETS: dict[str, BlackjackRules] = {"tavern": TAVERN}
