"""Liar's Dice rulesets: the seed's tavern rules and the named options that vary them.

The preset :data:`TAVERN` is exactly ``shared/seed/tavern-games.txt``; every
other field value is a documented departure (see ``docs/rules.md``).

>>> TAVERN.dice_per_player, TAVERN.raise_rule.value, TAVERN.spot_on, TAVERN.wild_face
(5, 'either', True, None)
>>> TAVERN.repeat_wagers      # L5b: a wager made this round may not be made again
False
>>> LiarsDiceRules.from_dict({"raise_rule": "standard"}).raise_rule
<RaiseRule.STANDARD: 'standard'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from tavern_dice.errors import RulesetError
from tavern_dice.rules_base import RulesetMixin


class RaiseRule(enum.Enum):
    """How a new wager must exceed the standing one (rule L5).

    * ``EITHER`` (seed): higher quantity of any face, *or* higher face of any
      quantity. "They can make a wager on the total of a higher value dice ...
      a wager containing a higher total of dice ... or combines the previous
      two conditions." This order has cycles (3 twos < 2 fours < 3 twos).
    * ``STANDARD``: higher quantity of any face, or same quantity of a higher face.
    * ``FACE_MAJOR``: higher face of any quantity, or same face with a higher quantity.
    """

    EITHER = "either"
    STANDARD = "standard"
    FACE_MAJOR = "face-major"


@dataclass(frozen=True, slots=True)
class LiarsDiceRules(RulesetMixin):
    """One Liar's Dice ruleset (frozen).

    Attributes:
        dice_per_player: starting dice, which are also lives (L1; seed "5d6", "5 lives").
        sides: faces per die (seed: d6).
        min_players, max_players: table size (2 to 10).
        raise_rule: L5, see :class:`RaiseRule`.
        wild_face: L6, a face that counts toward every other face, or ``None`` (seed).
        spot_on: L8, whether an exact wager costs everyone but the wager-maker a die
            (seed); ``False`` treats an exact count as true.
        sum_endgame: L10, whether two players with one die each wager on the sum (seed).
        repeat_wagers: L5b, whether a wager already made this round may be made again.
            The seed's ``either`` rule allows it (3 twos, 2 fours, 3 twos ...), so a round
            could go round for ever; the ``tavern`` preset forbids it (``False``), which
            ends every round within ``sides x dice in play`` wagers. Under the other raise
            rules and in the sum endgame a wager can never come back, so it changes nothing.
    """

    dice_per_player: int = 5
    sides: int = 6
    min_players: int = 2
    max_players: int = 10
    raise_rule: RaiseRule = RaiseRule.EITHER
    wild_face: int | None = None
    spot_on: bool = True
    sum_endgame: bool = True
    repeat_wagers: bool = False

    def __post_init__(self) -> None:
        self.check_field_types()
        if not 1 <= self.dice_per_player <= 20:
            raise RulesetError(f"dice_per_player must be 1-20, not {self.dice_per_player}")
        if not 2 <= self.sides <= 20:
            raise RulesetError(f"sides must be 2-20, not {self.sides}")
        if not 2 <= self.min_players <= self.max_players <= 10:
            raise RulesetError(
                f"need 2 <= min_players <= max_players <= 10, got "
                f"{self.min_players}..{self.max_players}"
            )
        if self.wild_face is not None and not 1 <= self.wild_face <= self.sides:
            raise RulesetError(
                f"wild_face must be a face 1-{self.sides} or None, not {self.wild_face!r}"
            )


TAVERN = LiarsDiceRules()
"""The seed's rules, word for word (the default)."""

OPENSPIEL = LiarsDiceRules(
    dice_per_player=1, raise_rule=RaiseRule.STANDARD, wild_face=6, spot_on=False,
    sum_endgame=False,
)
"""OpenSpiel's ``liars_dice`` round: 1 die each, face 6 wild, standard raise, no spot-on."""

PRESETS: dict[str, LiarsDiceRules] = {"tavern": TAVERN, "openspiel": OPENSPIEL}
