"""The same sampled bound as :func:`~tavern_dice.measure.round_gain.round_gain`, with both
hands summed out: the same expected figure from fewer rounds.

:func:`round_gain` plays whole rounds and scores each +-1, so most of a figure's spread is
the luck of the reveal. ``lbr`` holds a copy of its target, and so its exact hand posterior
at every point of the round; :func:`integrated_round_gain` draws only the public wagers
and scores each round by its expected result given them:

* on ``lbr``'s turn it chooses for every hand it could hold at once
  (:meth:`~tavern_dice.bots.liars_exploit.lookahead.LookaheadExploiter.choices`); its
  action is drawn with the chance its hands take it, and its range keeps those hands;
* on the target's turn the action is drawn from its chances averaged over its range
  (``sum_h reach(h) * p(a | h)``), and its range is weighed by that action's chance;
* an accusation's chance at each decision is counted exactly, its expected result taken
  over both ranges, and only the raises are drawn (:data:`EXPAND_DOWN_TO`).

The wagers are so drawn with the chances they have when both hands are dealt and the
players act, and each round's score is the conditional expectation of the played score
given them: the same mean (Rao-Blackwell), a smaller variance (about a tenth, measured in
``docs/experiments.md``). Each position's interval is the normal one from the scores'
sample variance. Rounds, seats and roll-offs are those of :func:`round_gain` with the same
``seed``; the draws come from a generator seeded from ``seed + k``, so a run repeats
exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter, Truths, truths
from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.liars_dice.actions import ACCUSE, Accuse, LiarsDiceAction
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.measure.exploit import ExploitError, lookup
from tavern_dice.measure.round_gain import TwoPositions, check_round_request, deal_round

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class ScoreSample:
    """One position's rounds: how many, and the sum and sum of squares of their scores."""

    rounds: int
    total: float
    squares: float

    @property
    def mean(self) -> float:
        """Mean score; 0 with no rounds."""
        return self.total / self.rounds if self.rounds else 0.0

    @property
    def variance(self) -> float:
        """Sample variance of one round's score (1, the most a +-1 score can have, with
        fewer than two rounds)."""
        if self.rounds < 2:
            return 1.0
        return max(self.squares - self.rounds * self.mean ** 2, 0.0) / (self.rounds - 1)

    @property
    def variance_of_mean(self) -> float:
        return self.variance / self.rounds if self.rounds else 1.0


@dataclass(frozen=True)
class IntegratedGain(TwoPositions[ScoreSample]):
    """``lbr``'s single rounds with both hands summed out (:func:`integrated_round_gain`)."""

    @property
    def played_rounds_equivalent(self) -> float:
        """How many played (+-1) rounds would give an interval as narrow: a played round's
        score has variance ``1 - mean^2`` per position."""
        played = sum((1 - s.mean ** 2) / s.rounds for s in (self.first, self.second)
                     if s.rounds)
        mine = self.first.variance_of_mean + self.second.variance_of_mean
        return self.rounds * played / mine if mine > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "exploiter": self.exploiter, "target": self.target, "dice": list(self.dice),
            "rounds": self.rounds, "integrated": True,
            "first": {"rounds": self.first.rounds, "mean": self.first.mean,
                      "variance": self.first.variance},
            "second": {"rounds": self.second.rounds, "mean": self.second.mean,
                       "variance": self.second.variance},
            "gain": self.gain, "low": low, "high": high,
            "played_rounds_equivalent": self.played_rounds_equivalent,
        }


EXPAND_DOWN_TO = 1e-3
"""While the round's remaining weight is at least this, an accusation's chance at a
decision is counted exactly and only the raises are drawn (weighted by the chance of
raising); below it the accusation is drawn like any action, so that a round that rarely
ends does not run on for ever. Either way each round's expected score is unchanged."""


def _expected(truth: Truths, wager: AnyWager, mine: FloatArray, theirs: FloatArray,
              accuser_is_me: bool) -> float:
    """The exploiter's expected score when ``wager`` is accused, its hands weighed by
    ``mine`` and the target's by ``theirs``: the accuser loses if it holds (spot-on
    included, L8), else the maker."""
    maker_score = float(mine @ truth.called(wager, theirs)) / float(mine.sum() * theirs.sum())
    return -maker_score if accuser_is_me else maker_score


def integrated_score(target: str, exploiter: str, pair: tuple[int, int], seed: int,
                     seat: int, table: LiarsDiceRules) -> tuple[int, float]:
    """One round (see the module doc): the exploiter's position (0: it bids first) and its
    expected score given the raises drawn."""
    game = deal_round(table, seed, pair)
    agent = lookup(exploiter).build(target, "exploiter", seed)
    if not isinstance(agent, LookaheadExploiter) or agent.depth != 1:
        raise ExploitError(f"{exploiter!r} is not a local best response with a model of "
                           f"its target; the integrated figure is lbr's")
    opp = 1 - seat
    rng = np.random.default_rng(seed)
    position = 0 if game.starter == seat else 1
    sides = game.rules.sides
    reach = {seat: hands_of(game.dice_counts[seat], sides).prob.astype(np.float64),
             opp: hands_of(game.dice_counts[opp], sides).prob.astype(np.float64)}
    truth = truths(game.view(seat), seat)  # the dice counts stay put within the round
    score, weight = 0.0, 1.0  # what the accusations weighed so far add; the rest's weight
    while True:
        # The exploiter's view: its dealt dice are in it, but nothing below reads them
        # (its choices are made for every hand it could hold; the target's views are built
        # by its model from the public part).
        view = game.view(seat)
        actor = game.turn
        assert actor is not None
        actions: Sequence[LiarsDiceAction]
        strategy: FloatArray
        if actor == seat:
            actions, pick = agent.choices(view, reach[opp])
            strategy = np.eye(len(actions))[pick]
        else:
            actions, probs = agent.model.policy(view, opp)
            strategy = np.asarray(probs, dtype=np.float64)
        chances = reach[actor] @ strategy
        chances /= chances.sum()
        accused = None
        if ACCUSE in actions:
            i = list(actions).index(ACCUSE)
            if chances[i] > 0:
                assert view.wager is not None
                who = {**reach, actor: reach[actor] * strategy[:, i]}
                accused = _expected(truth, view.wager, who[seat], who[opp], actor == seat)
                if weight >= EXPAND_DOWN_TO:
                    # Counted exactly: the round goes on only by a raise.
                    score += weight * chances[i] * accused
                    if chances[i] >= 1.0 - 1e-12:
                        return position, score
                    weight *= 1.0 - chances[i]
                    chances[i] = 0.0
                    chances /= chances.sum()
        drawn = int(rng.choice(len(actions), p=chances))
        action = actions[drawn]
        if isinstance(action, Accuse):
            assert accused is not None
            return position, score + weight * accused
        reach[actor] = reach[actor] * strategy[:, drawn]
        game.wager(action, actor)


def integrated_round_gain(
    target: str, exploiter: str, dice: int | tuple[int, int], rounds: int, seed: int = 1,
    rules: LiarsDiceRules = TAVERN, progress: Callable[[int], None] | None = None,
) -> IntegratedGain:
    """:func:`~tavern_dice.measure.round_gain.round_gain`'s rounds (the same seats, roll-offs
    and arguments), each scored by ``lbr``'s expected result given the wagers drawn.

    Raises:
        ExploitError: an unknown exploiter, one without a model of its target, or a count
            that is not a whole number of at least 1.
        RulesetError: more dice than the rules allow a player.
    """
    pair, table = check_round_request(exploiter, dice, rounds, rules)
    sums = {0: [0, 0.0, 0.0], 1: [0, 0.0, 0.0]}
    for k in range(rounds):
        position, score = integrated_score(target, exploiter, pair, seed + k, k % 2, table)
        sums[position][0] += 1
        sums[position][1] += score
        sums[position][2] += score * score
        if progress is not None:
            progress(1)
    first, second = (ScoreSample(int(s[0]), float(s[1]), float(s[2]))
                     for s in (sums[0], sums[1]))
    return IntegratedGain(exploiter, target, pair, first, second)
