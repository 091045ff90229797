"""Expected values of accusing and raising, from beliefs about every opponent's dice.

The ``trusting`` and ``strong`` bots share this: given a
:class:`~tavern_dice.strategy.liars_dice.belief.RoundBelief` (a posterior over each opponent's
hand) and the bot's own dice,

* **accuse**: the expected score of the three outcomes (L8), the count's distribution being
  the convolution of every opponent's belief with the bot's own matching dice;
* **raise**: a one-step lookahead. Each opponent, in the order the runner asks them (the
  players after the next out of turn, then the next player on their turn), accuses with a
  chance that falls as *their* odds of the wager rise (a logistic curve around a threshold
  per opponent, given their own matching dice from the belief about them); an
  accusation's outcome is scored jointly with the dice that made that opponent accuse. If
  nobody accuses the wager passes on, worth ``pass_value``.

Scores: a die the bot loses is ``-1``, a die an opponent loses
``+opponent_weight / (opponents in the game)``, as
:func:`~tavern_dice.strategy.liars_dice.odds.outcome_costs` says who loses what.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.liars_dice.actions import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.events import RoundStarted, WagerMade
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, SumWager
from tavern_dice.strategy.liars_dice.belief import (
    MAX_HANDS,
    FloatArray,
    IntArray,
    RoundBelief,
    face_tails,
    hand_count,
    hand_space,
    sum_tail,
)
from tavern_dice.strategy.liars_dice.odds import matching_dice, outcome_costs

SUM = 0
"""The feature index that stands for the dice's sum (L10); faces are 1..sides."""

Threshold = Callable[[int, bool], float]
"""``threshold(seat, answers_on_turn)``: the odds below which ``seat`` is modelled as
likely to accuse a wager (on its turn, or out of turn)."""


@dataclass(frozen=True, slots=True)
class RoundState:
    """What one decision needs: the belief and the table as the bot sees it."""

    belief: RoundBelief
    me: int
    own_dice: tuple[int, ...]
    alive: tuple[int, ...]
    opponents: tuple[int, ...]
    order: tuple[int, ...]
    """Opponents in the order they answer a wager of the bot: out of turn first, the next
    player (who answers on their turn) last."""


def round_wagers(view: LiarsDiceView) -> tuple[RoundStarted | None, list[WagerMade]]:
    """This round's :class:`RoundStarted` (or ``None``) and wagers, from the view's log."""
    started: RoundStarted | None = None
    wagers: list[WagerMade] = []
    for event in reversed(view.log):
        if isinstance(event, WagerMade):
            wagers.append(event)
        elif isinstance(event, RoundStarted):
            started = event
            break
    wagers.reverse()
    return started, wagers


NewBelief = Callable[[tuple[int, ...]], RoundBelief]
"""Makes a round's fresh belief from the dice every seat started the round with."""

BeforeObserve = Callable[[RoundBelief, int, WagerMade, tuple[int, ...]], None]
"""``before(belief, index, wager, counts)``: called before the round's ``index``-th wager
(from 0) is folded into ``belief`` (to set the likelihood of its maker, say)."""


class BeliefKeeper:
    """A bot's belief about the round in play, kept from one decision to the next.

    :meth:`state` makes a fresh belief at a new round (or when the round's wagers are not
    those it has folded in: another game, a replay) and folds in each wager made since it
    was last asked, so that a round's decisions cost one Bayes update per wager in all.
    """

    def __init__(self) -> None:
        self._belief: RoundBelief | None = None
        self._key: tuple[object, ...] | None = None

    def state(
        self, view: LiarsDiceView, new: NewBelief, before: BeforeObserve | None = None
    ) -> RoundState:
        """The :class:`RoundState` of ``view`` (a seated view), its belief up to date."""
        assert view.seat is not None
        started, wagers = round_wagers(view)
        counts = started.dice_counts if started is not None else view.dice_counts
        key: tuple[object, ...] = (view.rules, view.seat, started, counts)
        belief = self._belief
        if (
            belief is None
            or self._key != key
            or len(belief.observed) > len(wagers)
            or any(
                (seat, wager) != (event.seat, event.wager)
                for (seat, wager), event in zip(belief.observed, wagers, strict=False)
            )
        ):
            belief = new(counts)
            self._belief, self._key = belief, key
        for i in range(len(belief.observed), len(wagers)):
            previous = wagers[i - 1].wager if i else None
            if before is not None:
                before(belief, i, wagers[i], counts)
            belief.observe(wagers[i].seat, wagers[i].wager, previous)
        return round_state(view, belief)


def round_state(view: LiarsDiceView, belief: RoundBelief) -> RoundState:
    """The :class:`RoundState` of ``view`` with ``belief`` (already updated)."""
    assert view.seat is not None
    me = view.seat
    counts = belief.dice_counts
    n = len(counts)
    alive = tuple(s for s in range(n) if counts[s] > 0)
    left = tuple((me + step) % n for step in range(1, n) if counts[(me + step) % n] > 0)
    order = left[1:] + left[:1]
    return RoundState(belief, me, view.own_dice, alive, tuple(sorted(left)), order)


def posterior_state(
    view: LiarsDiceView, reach: Mapping[int, npt.NDArray[np.floating[Any]]]
) -> RoundState:
    """The :class:`RoundState` of ``view`` (a seated view) with each opponent's belief the
    posterior ``reach`` gives it (weights over the hands of
    :func:`~tavern_dice.strategy.liars_dice.belief.hand_space` of its dice, any scale); an
    opponent with more hands than a belief keeps one by one keeps its prior."""
    assert view.seat is not None
    belief = RoundBelief(view.rules, view.seat, view.dice_counts)
    for seat, opponent in belief.opponents.items():
        if opponent.by_hand:
            opponent.set_posterior(reach[seat])
    return round_state(view, belief)


def feature_of(wager: AnyWager) -> tuple[int, int]:
    """``(feature, claim)``: the face and quantity, or :data:`SUM` and the total."""
    if isinstance(wager, SumWager):
        return SUM, wager.total
    return wager.face, wager.quantity


class Valuer:
    """Expected scores of accusing and of each raise (see the module doc).

    Args:
        opponent_weight: what all opponents' lost dice together are worth against one of
            the bot's own.
        pass_value: the value of a wager passing on with nobody accusing.
        steepness: how sharply modelled accusations switch on (logistic slope).
        threshold: each opponent's accusation threshold (:data:`Threshold`).
    """

    def __init__(
        self, opponent_weight: float, pass_value: float, steepness: float, threshold: Threshold
    ) -> None:
        self.opponent_weight = opponent_weight
        self.pass_value = pass_value
        self.steepness = steepness
        self.threshold = threshold

    def _score(self, losers: Sequence[int], state: RoundState) -> float:
        alpha = self.opponent_weight / max(len(state.alive) - 1, 1)
        return sum(-1.0 if seat == state.me else alpha for seat in losers)

    def scores(self, maker: int, accuser: int, state: RoundState) -> tuple[float, float, float]:
        """Scores of a false, a true-not-exact and an exact wager when ``accuser`` accuses
        ``maker``, from the engine's :func:`outcome_costs`."""
        costs = outcome_costs(maker, accuser, state.alive, state.belief.rules)
        return (
            self._score(costs.false, state),
            self._score(costs.true_not_exact, state),
            self._score(costs.exact, state),
        )

    def own(self, state: RoundState, feature: int) -> int:
        if feature == SUM:
            return sum(state.own_dice)
        return matching_dice(state.own_dice, feature, state.belief.rules)

    def own_matrix(
        self, state: RoundState, hands: Sequence[Sequence[int]], sums: bool
    ) -> IntArray:
        """Shape ``(hands, features)``: each hand's matching dice per face (or its sum)."""
        rules = state.belief.rules
        if sums:
            return np.array([[sum(h)] for h in hands], dtype=np.int64)
        sizes = {len(h) for h in hands}
        if len(sizes) == 1 and hand_count(len(hands[0]), rules.sides) <= MAX_HANDS:
            # The hand space counts every hand's matching dice once (a range asks for
            # all 252 hands of 5 dice at every decision).
            space = hand_space(len(hands[0]), rules)
            out: IntArray = space.match[[space.index_of(h) for h in hands]]
            return out
        return np.array(
            [[matching_dice(h, f, rules) for f in range(1, rules.sides + 1)] for h in hands],
            dtype=np.int64,
        )

    def _dist(self, state: RoundState, seat: int, feature: int) -> FloatArray:
        belief = state.belief.opponents[seat]
        return belief.sum_distribution() if feature == SUM else belief.face_distribution(feature)

    def outcome_chances(
        self, wager: AnyWager, state: RoundState, own: IntArray | None = None
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """``(false, true but not exact, exact)`` chances of ``wager`` given the beliefs,
        one entry per own hand: ``own`` holds each hand's matching dice (or sum) for the
        wager's feature (default: the bot's own dice only)."""
        feature, claim = feature_of(wager)
        if own is None:
            own = np.array([self.own(state, feature)], dtype=np.int64)
        total = np.ones(1)
        for seat in state.opponents:
            total = np.convolve(total, self._dist(state, seat, feature))
        cdf = np.concatenate(([0.0], np.cumsum(total)))
        need = claim - own
        below = cdf[np.clip(need, 0, total.shape[0])]
        padded = np.concatenate((total, [0.0]))
        exact = np.where(need >= 0, padded[np.clip(need, 0, total.shape[0])], 0.0)
        over = np.maximum(0.0, 1.0 - below - exact)
        return below, over, exact

    def accuse_values(
        self, wager: AnyWager, maker: int, state: RoundState, own: IntArray | None = None
    ) -> FloatArray:
        """The bot accuses ``wager``, made by ``maker``: one value per own hand (see
        :meth:`outcome_chances`)."""
        below, over, exact = self.outcome_chances(wager, state, own)
        if_false, if_true, if_exact = self.scores(maker, state.me, state)
        out: FloatArray = below * if_false + over * if_true + exact * if_exact
        return out

    def accuse_column(self, view: LiarsDiceView, state: RoundState, own: IntArray) -> FloatArray:
        """The viewer accuses the standing wager of ``view``: one value per hand, ``own``
        being :meth:`own_matrix` of the hands (its column of the wager's face, or the sum)."""
        assert view.wager is not None and view.wager_maker is not None
        feature = 0 if view.sum_wagers else feature_of(view.wager)[0] - 1
        return self.accuse_values(view.wager, view.wager_maker, state, own[:, feature])

    def accuse_value(self, wager: AnyWager, maker: int, state: RoundState) -> float:
        """The bot accuses ``wager``, made by ``maker``, with its own dice."""
        return float(self.accuse_values(wager, maker, state)[0])

    def action_matrix(
        self,
        view: LiarsDiceView,
        state: RoundState,
        hands: Sequence[Sequence[int]],
        candidates: Sequence[AnyWager],
    ) -> tuple[tuple[LiarsDiceAction, ...], FloatArray]:
        """``(actions, values)`` on the viewer's turn for each of ``hands`` as its dice:
        :data:`ACCUSE` first where it may accuse, then ``candidates``; ``values`` has one
        row per hand. Empty ``actions`` when there is nothing to do."""
        sums = view.sum_wagers
        own = self.own_matrix(state, hands, sums)
        actions: list[LiarsDiceAction] = []
        columns: list[FloatArray] = []
        if view.may_accuse and view.wager is not None and view.wager_maker is not None:
            actions.append(ACCUSE)
            columns.append(self.accuse_column(view, state, own)[:, None])
        if candidates:
            actions.extend(candidates)
            columns.append(self.raise_values_for(state, candidates, own))
        if not columns:
            return (), np.zeros((len(hands), 0))
        return tuple(actions), np.concatenate(columns, axis=1)

    def raise_values(
        self, state: RoundState, candidates: Sequence[AnyWager]
    ) -> list[tuple[AnyWager, float]]:
        """Each candidate raise with its expected score, for the bot's own dice."""
        if not candidates:
            return []
        values = self.raise_values_for(state, candidates)[0]
        return list(zip(candidates, values.tolist(), strict=True))

    def raise_values_for(
        self, state: RoundState, candidates: Sequence[AnyWager], own: IntArray | None = None
    ) -> FloatArray:
        """Shape ``(hands, candidates)``: each raise's expected score for each own hand
        (``own`` from :meth:`own_matrix`; default: the bot's own dice)."""
        sums = isinstance(candidates[0], SumWager)
        if own is None:
            own = self.own_matrix(state, [state.own_dice], sums)
        levels = self.level_grid(state, sums, int(own.max()) + 1)
        rows = np.array([0 if sums else feature_of(w)[0] - 1 for w in candidates])
        claims = np.array([feature_of(w)[1] for w in candidates])
        out: FloatArray = levels[own[:, rows], rows[None, :], claims[None, :]]
        return out

    def _rows(self, state: RoundState, seat: int, sums: bool) -> FloatArray:
        """``seat``'s distribution of each feature, one row per face (or one row: the sum)."""
        belief = state.belief.opponents[seat]
        if sums:
            return belief.sum_distribution()[None, :]
        faces = range(1, state.belief.rules.sides + 1)
        return np.stack([belief.face_distribution(f) for f in faces])

    def raise_grid(self, state: RoundState, sums: bool, own: IntArray) -> FloatArray:
        """Expected score of wagering ``claim`` on each feature, per own hand:
        ``grid[hand, row, claim]`` (rows: faces 1..sides, or the sum), for every claim up
        to the largest possible; ``own`` is :meth:`own_matrix`."""
        levels = self.level_grid(state, sums, int(own.max()) + 1)
        out: FloatArray = levels[own, np.arange(own.shape[1])[None, :]]
        return out

    def level_grid(self, state: RoundState, sums: bool, levels: int) -> FloatArray:
        """:meth:`raise_grid` by the bot's own matching dice (or sum) instead of by hand:
        ``grid[n, row, claim]`` is the score when ``n`` of its dice count toward the row.
        A raise's value depends on the bot's hand only through that number, so a range of
        252 hands costs six rows, not 252."""
        own = np.repeat(np.arange(levels, dtype=np.int64)[:, None], 1 if sums else
                        state.belief.rules.sides, axis=1)
        rules = state.belief.rules
        dice = state.belief.dice_in_play
        top = dice * rules.sides if sums else dice
        claims = np.arange(top + 1)
        n_features = 1 if sums else rules.sides
        seats = state.opponents
        rows = [self._rows(state, seat, sums) for seat in seats]
        # Everyone's dice but one opponent's, from prefix and suffix convolutions (each
        # opponent's dice are independent of the others').
        prefix = [np.ones((n_features, 1))]
        for dist in rows:
            prefix.append(convolve_rows(prefix[-1], dist))
        suffix = [np.ones((n_features, 1))]
        for dist in reversed(rows):
            suffix.append(convolve_rows(suffix[-1], dist))
        suffix.reverse()
        hands = own.shape[0]
        value = np.zeros((hands, n_features, top + 1))
        survive = np.ones((hands, n_features, top + 1))
        nxt = state.order[-1]
        feature_index = np.arange(n_features)[None, :, None, None]
        for seat in state.order:
            i = seats.index(seat)
            mine = rows[i]
            rest = convolve_rows(prefix[i], suffix[i + 1])
            k = np.arange(mine.shape[1])
            # What the responder's unseen dice must supply, and their odds of it.
            need = claims[:, None] - k[None, :]
            tails = self._tails(state, seat, sums)
            odds = tails[:, np.clip(need, 0, tails.shape[1] - 1)]
            threshold = self.threshold(seat, seat == nxt)
            exponent = np.clip(self.steepness * (odds - threshold), -50.0, 50.0)
            weight = mine[:, None, :] / (1.0 + np.exp(exponent))  # (F, claims, k)
            # What everyone else's dice, mine included, must supply for the count to
            # reach the claim: by own hand.
            need_rest = need[None, None, :, :] - own[:, :, None, None]  # (H, F, claims, k)
            width = rest.shape[1]
            cdf = np.concatenate((np.zeros((n_features, 1)), np.cumsum(rest, axis=1)), axis=1)
            padded = np.concatenate((rest, np.zeros((n_features, 1))), axis=1)
            idx = np.clip(need_rest, 0, width)
            below = (weight[None] * cdf[feature_index, idx]).sum(axis=3)
            exact = (weight[None] * padded[feature_index, idx] * (need_rest >= 0)).sum(axis=3)
            p_accuse = weight.sum(axis=2)[None]
            over = p_accuse - below - exact
            if_false, if_true, if_exact = self.scores(state.me, seat, state)
            value += survive * (below * if_false + over * if_true + exact * if_exact)
            survive *= 1.0 - p_accuse
        grid: FloatArray = value + survive * self.pass_value
        return grid

    def _tails(self, state: RoundState, seat: int, sums: bool) -> FloatArray:
        """What ``seat`` cannot see, as chance tables: one row per feature."""
        rules = state.belief.rules
        unseen = state.belief.dice_in_play - state.belief.dice_counts[seat]
        if sums:
            return sum_tail(unseen, rules.sides)[None, :]
        return face_tails(unseen, rules)


def convolve_rows(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-by-row convolution of two stacks of distributions (sums of independent counts)."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    width = a.shape[1]
    for k in range(b.shape[1]):
        out[:, k : k + width] += a * b[:, k : k + 1]
    return out
