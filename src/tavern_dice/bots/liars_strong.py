"""The ``strong`` Liar's Dice bot: reads opponents' wagers and weighs every outcome.

**Beliefs.** For each opponent it keeps a posterior over their hidden hand
(:class:`~tavern_dice.strategy.liars_belief.RoundBelief`), updated by Bayes' rule from
every wager they made this round (read from ``view.log`` since the last
:class:`~tavern_dice.liars_dice.events.RoundStarted`): a wager their dice back up is
likelier than one they do not. Convolving these beliefs with its own dice gives the
distribution of the count (or, in the L10 endgame, the sum) the reveal would show.

**Values.** Each outcome of an accusation (L8) costs seats dice, as
:func:`~tavern_dice.strategy.liars_odds.outcome_costs` says for the ruleset (spot-on
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

>>> from tavern_dice.liars_dice.state import LiarsDiceGame
>>> from tavern_dice.play.runner import play_liars_dice
>>> from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot
>>> game = LiarsDiceGame(3, seed=2)
>>> seats = [StrongLiarsDiceBot("s"), ProbabilisticLiarsDiceBot("p1"),
...          ProbabilisticLiarsDiceBot("p2")]
>>> play_liars_dice(game, seats, max_decisions=5_000) in range(3)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from tavern_dice.bots.base import ACCUSE, LiarsAction
from tavern_dice.bots.liars_probabilistic import candidate_raises
from tavern_dice.bots.registry import BotError
from tavern_dice.liars_dice.events import RoundStarted, WagerMade
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, SumWager
from tavern_dice.strategy.liars_belief import (
    FloatArray,
    RoundBelief,
    WagerModel,
    face_tails,
    sum_tail,
)
from tavern_dice.strategy.liars_odds import matching_dice, outcome_costs

_TIE = 1e-12
"""Values closer than this are equal; ties go to the smallest raise."""

_SUM = 0
"""The feature index that stands for the dice's sum (L10); faces are 1..sides."""


@dataclass(frozen=True, slots=True)
class _Round:
    """What one decision needs: the belief and the table as the bot sees it."""

    belief: RoundBelief
    me: int
    own_dice: tuple[int, ...]
    alive: tuple[int, ...]
    opponents: tuple[int, ...]
    order: tuple[int, ...]
    """Opponents in the order they answer a wager of the bot: out of turn first, the next
    player (who answers on their turn) last."""


def _check_number(name: str, value: float, low: float, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= low:
        raise BotError(f"{name} is a number of at least {low}, not {value!r}")
    if high is not None and value > high:
        raise BotError(f"{name} is a number from {low} to {high}, not {value!r}")
    return float(value)


class StrongLiarsDiceBot:
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
            (see :class:`~tavern_dice.strategy.liars_belief.WagerModel`).

    Raises:
        BotError: an option out of range.
    """

    def __init__(
        self,
        name: str = "strong",
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
        self.opponent_weight = _check_number("opponent_weight", opponent_weight, 0.0)
        self.pass_value = _check_number("pass_value", pass_value, -1.0, 1.0)
        self.out_of_turn_margin = _check_number("out_of_turn_margin", out_of_turn_margin, 0.0)
        self.accuse_threshold = _check_number("accuse_threshold", accuse_threshold, 0.0, 1.0)
        self.out_of_turn_threshold = _check_number(
            "out_of_turn_threshold", out_of_turn_threshold, 0.0, 1.0
        )
        self.steepness = _check_number("steepness", steepness, 0.0)
        try:
            self.model = WagerModel(wager_model, temper, rationality, bluff)
        except ValueError as error:
            raise BotError(str(error)) from None
        self._belief: RoundBelief | None = None
        self._belief_key: tuple[object, ...] | None = None

    # ------------------------------------------------------------------ the agent protocol

    def choose_action(self, view: LiarsDiceView) -> LiarsAction:
        """The best of accusing (when it may) and each candidate raise."""
        state = self._round(view)
        candidates = candidate_raises(view)
        best: LiarsAction | None = None
        best_value = -np.inf
        if view.may_accuse and view.wager is not None and view.wager_maker is not None:
            best, best_value = ACCUSE, self._accuse_value(view, state)
        for wager, value in self._raise_values(view, state, candidates):
            if value > best_value + _TIE:
                best, best_value = wager, value
        if best is None:
            raise BotError(f"{self.name} was asked to act with no legal action")
        return best

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """Accuse out of turn when that scores better than letting the wager stand."""
        if not view.may_accuse or view.wager is None or view.wager_maker is None:
            return False
        value = self._accuse_value(view, self._round(view))
        return value > self.pass_value + self.out_of_turn_margin

    # ------------------------------------------------------------------ beliefs

    def _round(self, view: LiarsDiceView) -> _Round:
        if view.seat is None:
            raise BotError(f"{self.name} plays a seat; a spectator's view has no decisions")
        me = view.seat
        started: RoundStarted | None = None
        wagers: list[WagerMade] = []
        for event in reversed(view.log):
            if isinstance(event, WagerMade):
                wagers.append(event)
            elif isinstance(event, RoundStarted):
                started = event
                break
        wagers.reverse()
        counts = started.dice_counts if started is not None else view.dice_counts
        key: tuple[object, ...] = (view.rules, me, started, counts)
        belief = self._belief
        if (
            belief is None
            or self._belief_key != key
            or len(belief.observed) > len(wagers)
            or any(
                (seat, wager) != (event.seat, event.wager)
                for (seat, wager), event in zip(belief.observed, wagers, strict=False)
            )
        ):
            belief = RoundBelief(view.rules, me, counts, self.model)
            self._belief, self._belief_key = belief, key
        for i in range(len(belief.observed), len(wagers)):
            previous = wagers[i - 1].wager if i else None
            belief.observe(wagers[i].seat, wagers[i].wager, previous)
        n = len(counts)
        alive = tuple(s for s in range(n) if counts[s] > 0)
        left = tuple((me + step) % n for step in range(1, n) if counts[(me + step) % n] > 0)
        order = left[1:] + left[:1]
        return _Round(belief, me, view.own_dice, alive, tuple(sorted(left)), order)

    # ------------------------------------------------------------------ values

    def _alpha(self, state: _Round) -> float:
        return self.opponent_weight / max(len(state.alive) - 1, 1)

    def _score(self, losers: Sequence[int], state: _Round) -> float:
        alpha = self._alpha(state)
        return sum(-1.0 if seat == state.me else alpha for seat in losers)

    def _scores(self, maker: int, accuser: int, state: _Round) -> tuple[float, float, float]:
        """Scores of a false, a true-not-exact and an exact wager when ``accuser`` accuses
        ``maker``, from the engine's :func:`outcome_costs`."""
        costs = outcome_costs(maker, accuser, state.alive, state.belief.rules)
        return (
            self._score(costs.false, state),
            self._score(costs.true_not_exact, state),
            self._score(costs.exact, state),
        )

    @staticmethod
    def _feature(wager: AnyWager) -> tuple[int, int]:
        if isinstance(wager, SumWager):
            return _SUM, wager.total
        return wager.face, wager.quantity

    def _own(self, state: _Round, feature: int) -> int:
        if feature == _SUM:
            return sum(state.own_dice)
        return matching_dice(state.own_dice, feature, state.belief.rules)

    def _dist(self, state: _Round, seat: int, feature: int) -> FloatArray:
        belief = state.belief.opponents[seat]
        return belief.sum_distribution() if feature == _SUM else belief.face_distribution(feature)

    def _accuse_value(self, view: LiarsDiceView, state: _Round) -> float:
        assert view.wager is not None and view.wager_maker is not None
        feature, claim = self._feature(view.wager)
        total = np.ones(1)
        for seat in state.opponents:
            total = np.convolve(total, self._dist(state, seat, feature))
        need = claim - self._own(state, feature)
        below = float(total[: max(need, 0)].sum())
        exact = float(total[need]) if 0 <= need < len(total) else 0.0
        over = max(0.0, 1.0 - below - exact)
        if_false, if_true, if_exact = self._scores(view.wager_maker, state.me, state)
        return below * if_false + over * if_true + exact * if_exact

    def _raise_values(
        self, view: LiarsDiceView, state: _Round, candidates: Sequence[AnyWager]
    ) -> list[tuple[AnyWager, float]]:
        if not candidates:
            return []
        sums = isinstance(candidates[0], SumWager)
        grid = self._raise_grid(state, sums)
        out: list[tuple[AnyWager, float]] = []
        for wager in candidates:
            feature, claim = self._feature(wager)
            out.append((wager, float(grid[0 if sums else feature - 1, claim])))
        return out

    def _rows(self, state: _Round, seat: int, sums: bool) -> FloatArray:
        """``seat``'s distribution of each feature, one row per face (or one row: the sum)."""
        belief = state.belief.opponents[seat]
        if sums:
            return belief.sum_distribution()[None, :]
        faces = range(1, state.belief.rules.sides + 1)
        return np.stack([belief.face_distribution(f) for f in faces])

    def _raise_grid(self, state: _Round, sums: bool) -> FloatArray:
        """Expected score of wagering ``claim`` on each feature: ``grid[row, claim]`` (rows:
        faces 1..sides, or the sum), for every claim up to the largest possible."""
        rules = state.belief.rules
        dice = state.belief.dice_in_play
        top = dice * rules.sides if sums else dice
        claims = np.arange(top + 1)
        features = [_SUM] if sums else list(range(1, rules.sides + 1))
        own = np.array([self._own(state, f) for f in features])
        seats = state.opponents
        rows = [self._rows(state, seat, sums) for seat in seats]
        # Everyone's dice but one opponent's, from prefix and suffix convolutions (each
        # opponent's dice are independent of the others').
        prefix = [np.ones((len(features), 1))]
        for dist in rows:
            prefix.append(_convolve_rows(prefix[-1], dist))
        suffix = [np.ones((len(features), 1))]
        for dist in reversed(rows):
            suffix.append(_convolve_rows(suffix[-1], dist))
        suffix.reverse()
        value = np.zeros((len(features), top + 1))
        survive = np.ones((len(features), top + 1))
        nxt = state.order[-1]
        for seat in state.order:
            i = seats.index(seat)
            mine = rows[i]
            rest = _convolve_rows(prefix[i], suffix[i + 1])
            k = np.arange(mine.shape[1])
            # What the responder's unseen dice must supply, and their odds of it.
            need = claims[:, None] - k[None, :]
            tails = self._tails(state, seat, sums)
            odds = tails[:, np.clip(need, 0, tails.shape[1] - 1)]
            threshold = self.accuse_threshold if seat == nxt else self.out_of_turn_threshold
            exponent = np.clip(self.steepness * (odds - threshold), -50.0, 50.0)
            weight = mine[:, None, :] / (1.0 + np.exp(exponent))
            # What everyone else's dice must supply for the count to reach the claim.
            need_rest = need[None, :, :] - own[:, None, None]
            width = rest.shape[1]
            cdf = np.concatenate((np.zeros((len(features), 1)), np.cumsum(rest, axis=1)), axis=1)
            padded = np.concatenate((rest, np.zeros((len(features), 1))), axis=1)
            idx = np.clip(need_rest, 0, width)
            row = np.arange(len(features))[:, None, None]
            below = (weight * cdf[row, idx]).sum(axis=2)
            exact = (weight * padded[row, idx] * (need_rest >= 0)).sum(axis=2)
            p_accuse = weight.sum(axis=2)
            over = p_accuse - below - exact
            if_false, if_true, if_exact = self._scores(state.me, seat, state)
            value += survive * (below * if_false + over * if_true + exact * if_exact)
            survive *= 1.0 - p_accuse
        grid: FloatArray = value + survive * self.pass_value
        return grid

    def _tails(self, state: _Round, seat: int, sums: bool) -> FloatArray:
        """What ``seat`` cannot see, as chance tables: one row per feature."""
        rules = state.belief.rules
        unseen = state.belief.dice_in_play - state.belief.dice_counts[seat]
        if sums:
            return sum_tail(unseen, rules.sides)[None, :]
        return face_tails(unseen, rules)

    def __repr__(self) -> str:
        return f"StrongLiarsDiceBot(name={self.name!r}, seed={self.seed!r})"



def _convolve_rows(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-by-row convolution of two stacks of distributions (sums of independent counts)."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    width = a.shape[1]
    for k in range(b.shape[1]):
        out[:, k : k + width] += a * b[:, k : k + 1]
    return out
