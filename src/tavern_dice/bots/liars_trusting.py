"""The ``trusting`` Liar's Dice bot: reads opponents' wagers and weighs every outcome.

This was the project's ``strong`` bot until it was found to trust wagers too much: it
models every opponent as bluffing 5 % of the time, learns nothing from reveals and
chooses deterministically, so a bot that bluffs on purpose, or one that replays it on
every hand it could hold, beats it (see ``tavern exploit trusting``). It stays available
under this name so that the robust ``strong`` can be measured against it.

**Beliefs.** For each opponent it keeps a posterior over their hidden hand
(:class:`~tavern_dice.strategy.liars_dice.belief.RoundBelief`), updated by Bayes' rule from
every wager they made this round (read from ``view.log`` since the last
:class:`~tavern_dice.liars_dice.events.RoundStarted`): a wager their dice back up is
likelier than one they do not. Convolving these beliefs with its own dice gives the
distribution of the count (or, in the L10 endgame, the sum) the reveal would show.

**Values.** Each outcome of an accusation (L8) costs seats dice, as
:func:`~tavern_dice.strategy.liars_dice.odds.outcome_costs` says for the ruleset (spot-on
included). The bot scores a die it loses as ``-1`` and a die an opponent loses as
``+opponent_weight / (opponents in the game)``: in an elimination game its own dice
matter most, and the others' losses help it a little each.

* **Accuse** (on its turn or out of turn): the expected score of the three outcomes.
* **Raise**: a one-step lookahead. Each opponent, in the order the runner asks them
  (the players after the next out of turn, then the next player on their turn), accuses
  with a chance that falls as *their* odds of the wager rise (a logistic curve around
  ``accuse_threshold`` for the next player and ``out_of_turn_threshold`` for the others,
  given their own matching dice from its belief about them); an accusation's outcome is
  scored jointly with the dice that made that opponent accuse. If nobody accuses the
  wager passes on, worth ``pass_value``.
* On its turn it takes the best of accusing and every candidate raise; out of turn it
  accuses when that beats letting the wager stand (``pass_value + out_of_turn_margin``).

**Termination.** As the ``probabilistic`` bot, under the seed's cyclic ``either`` rule it
only raises to wagers also higher in the ``standard`` order
(:func:`~tavern_dice.bots.liars_probabilistic.candidate_raises`), so its raises never
cycle; the other rules are total orders already.

**Speed.** Beliefs are folded in incrementally (one update per new wager) and the
lookahead is vectorised with NumPy: ``benchmarks/bots.py`` prints decision times.

>>> from tavern_dice.dice import SeededDice
>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot
>>> game = LiarsDiceGame(3, dice=SeededDice(2))
>>> seats = [TrustingLiarsDiceBot("s"), ProbabilisticLiarsDiceBot("p1"),
...          ProbabilisticLiarsDiceBot("p2")]
>>> play_liars_dice(game, seats, max_decisions=5_000) in range(3)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.bots.liars_probabilistic import candidate_raises
from tavern_dice.bots.registry import BotError, check_number
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.strategy.liars_dice.belief import RoundBelief, WagerModel
from tavern_dice.strategy.liars_dice.values import BeliefKeeper, RoundState, Valuer

_TIE = 1e-12
"""Values closer than this are equal; ties go to the smallest raise."""


class TrustingLiarsDiceBot:
    """Bayesian beliefs about opponents' dice and expected-value play (see the module doc).

    Args:
        name: the seat's name.
        seed: seed of the bot's own ``random.Random``; its play is a pure function of the
            view, so the seed changes nothing, but every bot is built the same way.
        opponent_weight: what all opponents' lost dice together are worth against one of
            its own (each opponent's die: this divided by the opponents in the game).
        pass_value: the value of a wager passing on with nobody accusing.
        out_of_turn_margin: how much better than ``pass_value`` an out-of-turn accusation
            must score.
        accuse_threshold, out_of_turn_threshold: the odds (by their own dice) below which
            the next player, and the players after, are modelled as likely to accuse.
        steepness: how sharply those modelled accusations switch on (logistic slope).
        wager_model, temper, rationality, bluff: the likelihood of an opponent's wager
            (see :class:`~tavern_dice.strategy.liars_dice.belief.WagerModel`).

    Raises:
        BotError: an option out of range.
    """

    def __init__(
        self,
        name: str = "trusting",
        seed: int | None = None,
        *,
        opponent_weight: float = 1.0,
        pass_value: float = 0.0,
        out_of_turn_margin: float = 0.0,
        accuse_threshold: float = 0.45,
        out_of_turn_threshold: float = 0.2,
        steepness: float = 20.0,
        wager_model: Literal["support", "quantal"] = "quantal",
        temper: float = 1.0,
        rationality: float = 12.0,
        bluff: float = 0.05,
    ) -> None:
        self.name = name
        self.seed = seed
        self.rng = random.Random(seed)
        self.opponent_weight = check_number("opponent_weight", opponent_weight, 0.0)
        self.pass_value = check_number("pass_value", pass_value, -1.0, 1.0)
        self.out_of_turn_margin = check_number("out_of_turn_margin", out_of_turn_margin, 0.0)
        self.accuse_threshold = check_number("accuse_threshold", accuse_threshold, 0.0, 1.0)
        self.out_of_turn_threshold = check_number(
            "out_of_turn_threshold", out_of_turn_threshold, 0.0, 1.0
        )
        self.steepness = check_number("steepness", steepness, 0.0)
        try:
            self.model = WagerModel(wager_model, temper, rationality, bluff)
        except ValueError as error:
            raise BotError(str(error)) from None
        self._beliefs = BeliefKeeper()
        self.valuer = Valuer(
            self.opponent_weight, self.pass_value, self.steepness, self._threshold
        )

    # ------------------------------------------------------------------ the agent protocol

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """The best of accusing (when it may) and each candidate raise."""
        state = self._round(view)
        best: LiarsDiceAction | None = None
        best_value = -np.inf
        if view.may_accuse and view.wager is not None and view.wager_maker is not None:
            best = ACCUSE
            best_value = self.valuer.accuse_value(view.wager, view.wager_maker, state)
        for wager, value in self.valuer.raise_values(state, candidate_raises(view)):
            if value > best_value + _TIE:
                best, best_value = wager, value
        if best is None:
            raise BotError(f"{self.name} was asked to act with no legal action")
        return best

    def range_policy(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], npt.NDArray[np.floating[Any]]]:
        """What :meth:`choose_action` picks with each of ``hands`` as its dice, for all at
        once (its beliefs about the others do not depend on its own dice): one action per
        row, ties broken as there (accusing first, then the raises in order). A model of
        this bot (an exploiter's) asks this instead of one hand at a time."""
        actions, values = self.valuer.action_matrix(
            view, self._round(view), hands, candidate_raises(view))
        if not actions:
            raise BotError(f"{self.name} was asked to act with no legal action")
        best = np.zeros(len(hands), dtype=np.int64)
        best_value = values[:, 0].copy()
        for j in range(1, values.shape[1]):
            better = values[:, j] > best_value + _TIE
            best[better] = j
            best_value[better] = values[better, j]
        probs = np.zeros(values.shape)
        probs[np.arange(len(hands)), best] = 1.0
        return tuple(actions), probs

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """Accuse out of turn when that scores better than letting the wager stand."""
        return bool(self.accuse_chances(view, (view.own_dice,))[0])

    def accuse_chances(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> npt.NDArray[np.floating[Any]]:
        """What :meth:`wants_to_accuse` answers with each of ``hands`` as its dice, as
        chances (1 or 0), for all hands at once (a model of it reads its passes so)."""
        if not view.may_accuse or view.wager is None or view.wager_maker is None:
            return np.zeros(len(hands))
        state = self._round(view)
        own = self.valuer.own_matrix(state, hands, view.sum_wagers)
        value = self.valuer.accuse_column(view, state, own)
        return (value > self.pass_value + self.out_of_turn_margin).astype(np.float64)

    def _threshold(self, seat: int, on_turn: bool) -> float:
        """The same accusation threshold for every opponent (it learns nothing)."""
        return self.accuse_threshold if on_turn else self.out_of_turn_threshold

    # ------------------------------------------------------------------ beliefs

    def _round(self, view: LiarsDiceView) -> RoundState:
        me = view.seat
        if me is None:
            raise BotError(f"{self.name} plays a seat; a spectator's view has no decisions")
        return self._beliefs.state(
            view, lambda counts: RoundBelief(view.rules, me, counts, self.model)
        )

    def __repr__(self) -> str:
        return f"TrustingLiarsDiceBot(name={self.name!r}, seed={self.seed!r})"
