"""Beliefs about opponents' hidden dice in one Liar's Dice round, updated from their wagers.

Before any wager, every opponent's hand is a fair roll of their dice (L3: "All players
roll their dice in Secret"), independent of the viewer's own dice. Each wager an
opponent makes is evidence about their hand: a player tends to wager what their own
dice support. :class:`RoundBelief` keeps, for every opponent, a posterior

    P(hand | their wagers)  ∝  P(hand) * Π_wagers L(wager | hand)

with a likelihood :class:`WagerModel` of one of two kinds, both built on the
opponent's own chance that the wager holds, ``p(w | hand)`` (their matching dice
plus a binomial over the dice they cannot see, from
:func:`tavern_dice.strategy.liars_dice.odds.count_distribution`):

* ``'support'``: ``L = bluff + (1 - bluff) * p(w | hand) ** temper``; a wager is likelier
  the better their dice back it, and ``temper`` (0..) says how much to believe that.
* ``'quantal'``: the opponent picks among the raises open to them with chances
  ``∝ exp(rationality * p(c | hand))`` (a quantal response to their own odds), mixed
  with a uniform bluff: ``L = bluff / #raises + (1 - bluff) * softmax(...)[w]``. This
  also reads what a wager says by *not* naming another face.

The posterior is kept over whole hands (face multisets, ``C(d + sides - 1, d)`` of them,
252 for 5d6) while that is at most :data:`MAX_HANDS`; beyond, over each face's count
separately (a ``'support'`` update of the wagered face's count only). Either way a
belief answers :meth:`OpponentBelief.face_distribution` (how many of their dice count
toward a face, L6 wild face included) and :meth:`OpponentBelief.sum_distribution`
(their sum, for the L10 sum endgame).

>>> from tavern_dice.liars_dice.rules import TAVERN
>>> from tavern_dice.liars_dice.wager import Wager
>>> belief = RoundBelief(TAVERN, viewer=0, dice_counts=(5, 5), model=WagerModel("support"))
>>> prior = belief.opponents[1].face_distribution(6)
>>> round(float(prior @ range(6)), 4)          # 5 dice: 5/6 of a six expected
0.8333
>>> belief.observe(1, Wager(4, 6), previous=None)
>>> round(float(belief.opponents[1].face_distribution(6) @ range(6)), 2) > 1.5
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise, legal_raises
from tavern_dice.strategy.liars_dice.odds import count_distribution, die_matches, sum_distribution

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

MAX_HANDS = 3000
"""Largest number of distinct hands kept one by one; larger hands fall back to per-face
count marginals."""


class BeliefError(TavernError):
    """A wager model with options out of range, or an observation that cannot belong to
    the round (a seat out of the game, the viewer's own wager)."""


@dataclass(frozen=True, slots=True)
class WagerModel:
    """How likely an opponent is to make a wager, given their hand (see the module doc).

    Attributes:
        kind: ``'support'`` or ``'quantal'``.
        temper: ``'support'``: the exponent on their chance that the wager holds (0 ignores
            wagers; 1 takes that chance at face value).
        rationality: ``'quantal'``: how sharply they prefer raises their dice back
            (0: uniformly random raises).
        bluff: chance that a wager says nothing about the hand (0..1).
    """

    kind: Literal["support", "quantal"] = "quantal"
    temper: float = 1.0
    rationality: float = 12.0
    bluff: float = 0.05

    def __post_init__(self) -> None:
        if self.kind not in ("support", "quantal"):
            raise BeliefError(f"a wager model is 'support' or 'quantal', not {self.kind!r}")
        if not self.temper >= 0 or not self.rationality >= 0:
            raise BeliefError("temper and rationality are non-negative numbers")
        if not 0 <= self.bluff <= 1:
            raise BeliefError(f"bluff is a probability from 0 to 1, not {self.bluff!r}")


# --------------------------------------------------------------------------- float tables


@lru_cache(maxsize=4096)
def count_tail(unseen: int, face: int, rules: LiarsDiceRules) -> FloatArray:
    """``t[n] = P(at least n of `unseen` dice count toward face)`` for ``n = 0..unseen+1``
    (so ``t[0] == 1`` and ``t[unseen + 1] == 0``); index with ``clip(n, 0, unseen + 1)``."""
    return _tail_of(list(count_distribution(unseen, face, rules)))


@lru_cache(maxsize=1024)
def sum_tail(unseen: int, sides: int) -> FloatArray:
    """``t[n] = P(the sum of `unseen` d(sides) is at least n)`` for ``n = 0..unseen*sides+1``."""
    dist = sum_distribution(unseen, sides)
    return _tail_of([dist.get(total, Fraction(0)) for total in range(unseen * sides + 1)])


def _tail_of(pmf: Sequence[Fraction]) -> FloatArray:
    """``t[n] = P(X >= n)`` for ``n = 0..len(pmf)``, summed exactly, then rounded once."""
    tail = [Fraction(0)] * (len(pmf) + 1)
    for n in range(len(pmf) - 1, -1, -1):
        tail[n] = tail[n + 1] + pmf[n]
    out = np.array([float(t) for t in tail])
    out.setflags(write=False)
    return out


@lru_cache(maxsize=256)
def face_tails(unseen: int, rules: LiarsDiceRules) -> FloatArray:
    """Shape ``(sides, unseen + 2)``: row ``f - 1`` is :func:`count_tail` for face ``f``."""
    table = np.stack([count_tail(unseen, f, rules) for f in range(1, rules.sides + 1)])
    table.setflags(write=False)
    return table


def hand_count(dice: int, sides: int) -> int:
    """How many distinct hands (face multisets) ``dice`` d(sides) can show."""
    return math.comb(dice + sides - 1, dice)


@dataclass(frozen=True, slots=True)
class HandSpace:
    """Every hand of ``dice`` dice under a ruleset, with its chance and what it counts.

    Attributes:
        prior: shape ``(H,)``, the multinomial chance of each hand (sums to 1).
        match: shape ``(H, sides)``, dice of the hand counting toward face ``f`` at column
            ``f - 1`` (:func:`~tavern_dice.strategy.liars_dice.odds.die_matches`, wild included).
        sums: shape ``(H,)``, the hand's sum of faces.
    """

    dice: int
    prior: FloatArray
    match: IntArray
    sums: IntArray
    index: dict[tuple[int, ...], int] = field(repr=False, compare=False)

    def index_of(self, hand: Sequence[int]) -> int:
        """The number of ``hand`` (any order) in this space."""
        return self.index[tuple(sorted(hand))]


@lru_cache(maxsize=64)
def hand_space(dice: int, rules: LiarsDiceRules) -> HandSpace:
    """The :class:`HandSpace` of ``dice`` dice (cached; at most :data:`MAX_HANDS` hands)."""
    sides = rules.sides
    if hand_count(dice, sides) > MAX_HANDS:
        raise BeliefError(f"{dice}d{sides} has more than {MAX_HANDS} hands")
    faces = range(1, sides + 1)
    hands = list(itertools.combinations_with_replacement(faces, dice))
    prior = np.empty(len(hands))
    match = np.empty((len(hands), sides), dtype=np.int64)
    sums = np.empty(len(hands), dtype=np.int64)
    scale = math.factorial(dice) / sides**dice
    for i, hand in enumerate(hands):
        ways = scale
        for face in faces:
            ways /= math.factorial(hand.count(face))
        prior[i] = ways
        for face in faces:
            match[i, face - 1] = sum(1 for die in hand if die_matches(die, face, rules))
        sums[i] = sum(hand)
    for array in (prior, match, sums):
        array.setflags(write=False)
    return HandSpace(dice, prior, match, sums, {hand: i for i, hand in enumerate(hands)})


@lru_cache(maxsize=4096)
def raise_options(
    previous: AnyWager | None, dice_in_play: int, rules: LiarsDiceRules, sums: bool
) -> tuple[IntArray, IntArray]:
    """The raises a player weighs after ``previous`` (L5, L10), as ``(claims, faces)``
    arrays (faces all 0 for sum wagers). Under the ``either`` rule only raises also higher
    in the ``standard`` order count, as the bots play (the others cycle)."""
    claims: list[int] = []
    faces: list[int] = []
    if sums:
        for total in range(dice_in_play, dice_in_play * rules.sides + 1):
            if is_raise(SumWager(total), previous, rules.raise_rule):
                claims.append(total)
                faces.append(0)
    else:
        for quantity in range(1, dice_in_play + 1):
            for face in range(1, rules.sides + 1):
                wager = Wager(quantity, face)
                if not is_raise(wager, previous, rules.raise_rule):
                    continue
                if (
                    rules.raise_rule is RaiseRule.EITHER
                    and previous is not None
                    and not is_raise(wager, previous, RaiseRule.STANDARD)
                ):
                    continue
                claims.append(quantity)
                faces.append(face)
    out = (np.array(claims, dtype=np.int64), np.array(faces, dtype=np.int64))
    for array in out:
        array.setflags(write=False)
    return out


def options_of(wagers: Sequence[AnyWager]) -> tuple[IntArray, IntArray]:
    """``(claims, faces)`` arrays of a list of wagers (faces 0 for sum wagers)."""
    claims = np.array(
        [w.total if isinstance(w, SumWager) else w.quantity for w in wagers], dtype=np.int64
    )
    faces = np.array([0 if isinstance(w, SumWager) else w.face for w in wagers], dtype=np.int64)
    return claims, faces


# --------------------------------------------------------------------------- beliefs


class OpponentBelief:
    """One opponent's hidden dice: a posterior over their hands (or face counts)."""

    def __init__(self, seat: int, dice: int, rules: LiarsDiceRules) -> None:
        self.seat = seat
        self.dice = dice
        self.rules = rules
        self.by_hand = hand_count(dice, rules.sides) <= MAX_HANDS
        self._space: HandSpace | None = hand_space(dice, rules) if self.by_hand else None
        self._weights: FloatArray | None = None
        self._faces: FloatArray | None = None
        if self._space is None:
            self._faces = np.stack([
                np.array([float(p) for p in count_distribution(dice, f, rules)])
                for f in range(1, rules.sides + 1)
            ])
        self._face_cache: dict[int, FloatArray] = {}

    @property
    def weights(self) -> FloatArray:
        """Posterior chance of each hand of :func:`hand_space` (by-hand beliefs only)."""
        assert self._space is not None
        return self._space.prior if self._weights is None else self._weights

    def set_posterior(self, weights: npt.NDArray[np.floating[Any]]) -> None:
        """Replace the posterior by ``weights`` over the hands of :func:`hand_space` (any
        scale; a hand's chance is its share): a posterior computed elsewhere, such as an
        exploiter's exact one from a copy of the bot (by-hand beliefs only; all-zero
        weights leave the belief as it was)."""
        assert self._space is not None, "only by-hand beliefs take a posterior"
        total = float(weights.sum())
        if total > 0:
            self._weights = np.asarray(weights, dtype=np.float64) / total
            self._face_cache.clear()

    def face_distribution(self, face: int) -> FloatArray:
        """``d[k] = P(k of their dice count toward face)``, ``k = 0..dice`` (sums to 1)."""
        cached = self._face_cache.get(face)
        if cached is not None:
            return cached
        if self._space is not None:
            out = np.bincount(
                self._space.match[:, face - 1], weights=self.weights, minlength=self.dice + 1
            ).astype(np.float64)
        else:
            assert self._faces is not None
            out = self._faces[face - 1]
        self._face_cache[face] = out
        return out

    def sum_distribution(self) -> FloatArray:
        """``d[s] = P(their dice sum to s)``, ``s = 0..dice*sides`` (zero below ``dice``)."""
        cached = self._face_cache.get(0)
        if cached is not None:
            return cached
        if self._space is not None:
            out = np.bincount(
                self._space.sums, weights=self.weights, minlength=self.dice * self.rules.sides + 1
            ).astype(np.float64)
        else:
            out = np.zeros(self.dice * self.rules.sides + 1)
            for total, p in sum_distribution(self.dice, self.rules.sides).items():
                out[total] = float(p)
        self._face_cache[0] = out
        return out

    def observe(
        self,
        wager: AnyWager,
        previous: AnyWager | None,
        dice_in_play: int,
        model: WagerModel,
        options: tuple[IntArray, IntArray] | None = None,
    ) -> None:
        """Update on this opponent's ``wager`` made over ``previous`` (Bayes' rule).

        ``options``: the raises they chose among, as ``(claims, faces)`` arrays (default
        :func:`raise_options`)."""
        unseen = dice_in_play - self.dice
        if self._space is None:
            self._observe_marginal(wager, unseen, model)
            return
        if model.kind == "support":
            p_obs = self._own_odds(wager, unseen)
            likelihood = model.bluff + (1.0 - model.bluff) * p_obs**model.temper
        else:
            choice, n_options = self.quantal_choice(wager, previous, dice_in_play, model,
                                                    options)
            likelihood = model.bluff / max(n_options, 1) + (1.0 - model.bluff) * choice
        posterior = self.weights * likelihood
        total = posterior.sum()
        if total > 0:
            self._weights = posterior / total
        self._face_cache.clear()

    def _own_odds(self, wager: AnyWager, unseen: int) -> FloatArray:
        """Per hand: the chance the wager holds by its dice and ``unseen`` unknown dice."""
        assert self._space is not None
        space = self._space
        if isinstance(wager, SumWager):
            tail = sum_tail(unseen, self.rules.sides)
            own = space.sums
            claim = wager.total
        else:
            tail = count_tail(unseen, wager.face, self.rules)
            own = space.match[:, wager.face - 1]
            claim = wager.quantity
        out: FloatArray = tail[np.clip(claim - own, 0, len(tail) - 1)]
        return out

    def quantal_choice(
        self,
        wager: AnyWager,
        previous: AnyWager | None,
        dice_in_play: int,
        model: WagerModel,
        options: tuple[IntArray, IntArray] | None = None,
        rows: IntArray | None = None,
    ) -> tuple[FloatArray, int]:
        """Per hand (or per hand numbered in ``rows``): the chance an honest player (a
        quantal response to their own odds, ``model.rationality``) picks ``wager`` among
        ``options``; and how many options there were (a bluff picks among them
        uniformly)."""
        assert self._space is not None
        space = self._space
        unseen = dice_in_play - self.dice
        p_obs = self._own_odds(wager, unseen)
        match, sums = space.match, space.sums
        if rows is not None:
            p_obs, match, sums = p_obs[rows], match[rows], sums[rows]
        claims, faces = options if options is not None else raise_options(
            previous, dice_in_play, self.rules, isinstance(wager, SumWager)
        )
        if isinstance(wager, SumWager):
            tail = sum_tail(unseen, self.rules.sides)
            top = len(tail) - 1
            p_all = tail[np.clip(claims[None, :] - sums[:, None], 0, top)]
        else:
            tails = face_tails(unseen, self.rules)
            top = tails.shape[1] - 1
            need = np.clip(claims[None, :] - match[:, faces - 1], 0, top)
            p_all = tails[(faces - 1)[None, :], need]
        if p_all.shape[1] == 0:
            return np.ones_like(p_obs), 1
        beta = model.rationality
        peak = np.maximum(p_all.max(axis=1), p_obs)
        norm = np.exp(beta * (p_all - peak[:, None])).sum(axis=1)
        choice: FloatArray = np.exp(beta * (p_obs - peak)) / norm
        return choice, int(claims.shape[0])

    def _observe_marginal(self, wager: AnyWager, unseen: int, model: WagerModel) -> None:
        if isinstance(wager, SumWager) or self._faces is None:
            return
        tail = count_tail(unseen, wager.face, self.rules)
        own = np.arange(self.dice + 1)
        p_obs = tail[np.clip(wager.quantity - own, 0, len(tail) - 1)]
        likelihood = model.bluff + (1.0 - model.bluff) * p_obs ** max(model.temper, 1.0)
        row = self._faces[wager.face - 1] * likelihood
        if row.sum() > 0:
            faces = self._faces.copy()
            faces[wager.face - 1] = row / row.sum()
            self._faces = faces
        self._face_cache.clear()


class RoundBelief:
    """The viewer's beliefs about every opponent still in the round.

    Args:
        rules: the ruleset.
        viewer: the seat whose beliefs these are.
        dice_counts: every seat's dice this round (0 for a seat out of the game).
        model: the likelihood of a wager given a hand.
        models: a likelihood per seat, where it differs from ``model`` (a bluff rate
            learned at the table, say).
        every_raise: read a wager as chosen among every legal raise (the ``either`` rule's
            lower-quantity raises and L5b included), not only those higher in the
            ``standard`` order (:func:`raise_options`).

    Attributes:
        opponents: ``{seat: OpponentBelief}`` for every other seat with dice.
        observed: the wagers folded in so far, as ``(seat, wager)``, oldest first.
    """

    def __init__(
        self,
        rules: LiarsDiceRules,
        viewer: int,
        dice_counts: Sequence[int],
        model: WagerModel | None = None,
        models: Mapping[int, WagerModel] | None = None,
        every_raise: bool = False,
    ) -> None:
        self.rules = rules
        self.viewer = viewer
        self.models = dict(models or {})
        self.every_raise = every_raise
        self.dice_counts = tuple(dice_counts)
        self.dice_in_play = sum(self.dice_counts)
        self.model = model if model is not None else WagerModel()
        self.opponents: dict[int, OpponentBelief] = {
            seat: OpponentBelief(seat, count, rules)
            for seat, count in enumerate(self.dice_counts)
            if count > 0 and seat != viewer
        }
        self.observed: list[tuple[int, AnyWager]] = []

    def observe(self, seat: int, wager: AnyWager, previous: AnyWager | None) -> None:
        """Fold in ``seat``'s ``wager``, made when ``previous`` stood (``None``: it opened).
        The viewer's own wagers are recorded but say nothing new.

        Raises:
            BeliefError: ``seat`` is not in the round.
        """
        if seat != self.viewer:
            belief = self.opponents.get(seat)
            if belief is None:
                raise BeliefError(f"seat {seat} has no dice this round; it cannot wager")
            options = None
            if self.every_raise:
                options = options_of(legal_raises(
                    self.rules, self.dice_in_play, previous,
                    isinstance(wager, SumWager), self.observed,
                ))
            belief.observe(wager, previous, self.dice_in_play,
                           self.models.get(seat, self.model), options)
        self.observed.append((seat, wager))


__all__ = [
    "MAX_HANDS",
    "BeliefError",
    "HandSpace",
    "OpponentBelief",
    "RoundBelief",
    "WagerModel",
    "count_tail",
    "face_tails",
    "hand_count",
    "hand_space",
    "options_of",
    "raise_options",
    "sum_tail",
]
