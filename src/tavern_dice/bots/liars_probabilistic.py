"""The ``probabilistic`` Liar's Dice bot: plays the exact odds of its own dice.

It reads the chance that a wager holds from
:func:`tavern_dice.strategy.liars_dice.odds.true_probability` (binomial over the
unseen dice, L6 wild face included; exact convolution for the L10 sum endgame),
given only its own dice and the number of dice in play.

* **Raise**: among its *candidate raises* it picks the one most likely to be true;
  ties go to the smallest raise (first in the engine's (quantity, face) order).
* **Accuse on its turn**: when the standing wager holds with probability below
  ``threshold`` (default 0.5) *and* accusing wins more often than its best raise
  would hold (``P(false) > P(best raise true)``), or when it has no candidate raise.
* **Accuse out of turn**: only when the standing wager holds with probability below
  ``out_of_turn_threshold`` (default 0.2).

Termination. The seed's ``either`` raise rule (L5) has cycles (3 twos, 2 fours,
3 twos, ...), so a bot that always took "the likeliest legal raise" could loop
for ever. Under ``either`` its candidate raises are the legal wagers that are
*also* higher in the ``standard`` (quantity, face) order than the standing
wager, checked with the engine's :func:`~tavern_dice.liars_dice.wager.is_raise`.
A table of these bots therefore raises strictly upward in a finite order, and a
round has at most ``dice_in_play * sides`` wagers. The other raise rules are
total orders already; sum wagers must rise anyway.

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> game = LiarsDiceGame(4, dice=SeededDice(5))
>>> bots = [ProbabilisticLiarsDiceBot(f"p{i}", seed=i) for i in range(4)]
>>> play_liars_dice(game, bots, max_decisions=5_000) in range(4)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction, one_action_per_hand
from tavern_dice.bots.registry import BotError
from tavern_dice.liars_dice.rules import RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise
from tavern_dice.strategy.liars_dice.odds import matching_dice, true_probability

_TIE = 1e-12
"""Chances closer than this are equal: float sums of the same exact values may differ
in the last bit, and a tie must go to the smallest raise."""


def candidate_raises(view: LiarsDiceView) -> tuple[AnyWager, ...]:
    """The raises the bot considers: ``view.legal_wagers``, and under the ``either`` rule
    only those also higher than the standing wager in the ``standard`` order (L5), so
    that its raises never cycle. Order kept (smallest first)."""
    standing = view.wager
    if view.rules.raise_rule is not RaiseRule.EITHER or not isinstance(standing, Wager):
        return view.legal_wagers
    return tuple(w for w in view.legal_wagers if is_raise(w, standing, RaiseRule.STANDARD))


def _for_hand(chance: Callable[[AnyWager, tuple[int, ...]], float], hand: tuple[int, ...],
              wager: AnyWager) -> float:
    return chance(wager, hand)


def _best_raise(
    view: LiarsDiceView, p_true: Callable[[AnyWager], float]
) -> tuple[AnyWager, float] | None:
    best: tuple[AnyWager, float] | None = None
    for wager in candidate_raises(view):
        p = p_true(wager)
        if best is None or p > best[1] + _TIE:
            best = (wager, p)
    return best


class ProbabilisticLiarsDiceBot:
    """Raises to the likeliest wager and accuses unlikely ones (see the module doc).

    Args:
        name: the seat's name.
        seed: seed of the bot's own ``random.Random``; its play is a pure function of
            the view, so the seed changes nothing today, but it is kept so that every
            bot is built the same way.
        threshold: on its turn, a standing wager less likely than this to hold may be
            accused (default 0.5).
        out_of_turn_threshold: out of turn, accuse a wager less likely than this to hold
            (default 0.2).

    Raises:
        BotError: a threshold outside 0..1.
    """

    def __init__(
        self,
        name: str = "probabilistic",
        seed: int | None = None,
        *,
        threshold: float = 0.5,
        out_of_turn_threshold: float = 0.2,
    ) -> None:
        for label, value in (("threshold", threshold), ("out_of_turn_threshold",
                                                        out_of_turn_threshold)):
            if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
                raise BotError(f"{label} is a probability from 0 to 1, not {value!r}")
        self.name = name
        self.seed = seed
        self.threshold = float(threshold)
        self.out_of_turn_threshold = float(out_of_turn_threshold)
        self.rng = random.Random(seed)

    def p_true(self, view: LiarsDiceView, wager: AnyWager) -> float:
        """P(``wager`` holds) given the view's own dice and dice in play."""
        return true_probability(wager, view.own_dice, view.dice_in_play, view.rules)

    def best_raise(self, view: LiarsDiceView) -> tuple[AnyWager, float] | None:
        """The candidate raise most likely to hold (ties: the smallest) and its chance, or
        ``None`` when there is no candidate raise."""
        return _best_raise(view, lambda wager: self.p_true(view, wager))

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """Raise to :meth:`best_raise`, or accuse (see the module doc)."""
        return self._choose(view, lambda wager: self.p_true(view, wager))

    def range_policy(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], npt.NDArray[np.float64]]:
        """What :meth:`choose_action` picks with each of ``hands`` as its dice (one action
        per row). A wager's chance depends only on the hand's matching dice (or its sum),
        so each is worked out once for all hands: a model of this bot asks this."""
        rules, dice = view.rules, view.dice_in_play
        known: dict[tuple[AnyWager, int], float] = {}

        def chance(wager: AnyWager, hand: tuple[int, ...]) -> float:
            mine = sum(hand) if isinstance(wager, SumWager) else matching_dice(
                hand, wager.face, rules)
            got = known.get((wager, mine))
            if got is None:
                got = known[(wager, mine)] = true_probability(wager, hand, dice, rules)
            return got

        return one_action_per_hand(
            [self._choose(view, partial(_for_hand, chance, hand)) for hand in hands])

    def _choose(self, view: LiarsDiceView, p_true: Callable[[AnyWager], float]) -> LiarsDiceAction:
        best = _best_raise(view, p_true)
        if view.wager is None or not view.may_accuse:
            if best is None:
                raise BotError(f"{self.name} was asked to act with no legal action")
            return best[0]
        if best is None:
            return ACCUSE
        p_standing = p_true(view.wager)
        if p_standing < self.threshold and 1.0 - p_standing > best[1] + _TIE:
            return ACCUSE
        return best[0]

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """Accuse out of turn only a wager that holds with chance below
        ``out_of_turn_threshold``."""
        if not view.may_accuse or view.wager is None:
            return False
        return self.p_true(view, view.wager) < self.out_of_turn_threshold

    def __repr__(self) -> str:
        return f"ProbabilisticLiarsDiceBot(name={self.name!r}, seed={self.seed!r})"
