"""The decision-time search's subgame (:mod:`.search`): which raises it weighs, the other
player's answers to each, the leaves they reach, and the two products a solve iterates
(the other's values of its answers given the actor's reach, the actor's values of its
raises given the other's), with regret matching over them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tavern_dice.liars_dice.actions import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager, Wager, legal_raises
from tavern_dice.strategy.liars_dice.solver.play.leaf_set import LeafSet
from tavern_dice.strategy.liars_dice.solver.play.leaves import LeafValues

FloatArray = npt.NDArray[np.float64]

SPREAD = 1
"""Raises considered per face: the smallest legal quantity and up to this many above it."""


def legal_after(rules: LiarsDiceRules, dice: int, wagers: Sequence[AnyWager]) -> list[AnyWager]:
    """The legal raises after ``wagers`` (L5, L5b)."""
    return list(legal_raises(rules, dice, wagers[-1] if wagers else None, False,
                             [(0, w) for w in wagers]))


def searched_raises(rules: LiarsDiceRules, dice: int, wagers: Sequence[AnyWager],
                    every: bool = False, also: AnyWager | None = None) -> list[AnyWager]:
    """The legal raises after ``wagers`` (L5, L5b), all or the searched few per face (and
    ``also``, where it is legal: the wager a modelled opponent made)."""
    legal = legal_after(rules, dice, wagers)
    if every:
        return legal
    lowest: dict[int, int] = {}
    for w in legal:
        assert isinstance(w, Wager)
        lowest.setdefault(w.face, w.quantity)
    return [w for w in legal if isinstance(w, Wager)
            and (w.quantity <= lowest[w.face] + SPREAD or w == also)]


class Subgame:
    """The depth-2 subgame's shape (the root's actions, each raise's answers, the leaves
    they reach) and its two products: the other's values of its answers given the actor's
    reach, and the actor's values of its raises given the other's."""

    def __init__(self, leaves: LeafValues, rules: LiarsDiceRules, actor: int,
                 wagers: Sequence[AnyWager], every: bool, also: AnyWager | None,
                 choose: bool) -> None:
        a = actor
        dice = leaves.first + leaves.second
        n_a, n_b = leaves.game.n_states[a], leaves.game.n_states[1 - a]
        self.n_b = n_b
        self.root: list[LiarsDiceAction] = [ACCUSE] if wagers else []
        raises = searched_raises(rules, dice, wagers, every, also)
        self.root += raises
        self.first_raise = len(self.root) - len(raises)
        self.k = k = len(raises)
        # The other's answers to each raise: accuse (exactly rank <= dice + 1: the score
        # depends on the actor's hand only through its count of the face), or raise to a
        # leaf (a node of the DAG).
        self.u_acc = np.empty((k, n_a, leaves.dice_of(a) + 1))
        self.vt_acc = np.empty((k, leaves.dice_of(a) + 1, n_b))
        owner: list[int] = []
        column: list[int] = []
        nodes: list[int] = []
        self.width = 1
        self.answer_lists: list[list[LiarsDiceAction]] = []
        for i, r in enumerate(raises):
            self.u_acc[i], self.vt_acc[i] = leaves.raise_accused(a, r)
            answers = searched_raises(rules, dice, [*wagers, r])
            self.answer_lists.append([ACCUSE, *answers])
            self.width = max(self.width, 1 + len(answers))
            for j, r2 in enumerate(answers):
                owner.append(i)
                column.append(1 + j)
                nodes.append(leaves.leaf(r, r2, a))
        self.owner = np.array(owner, dtype=np.int64)
        self.column = np.array(column, dtype=np.int64)
        values = leaves.factored(a)
        self.leaf = LeafSet(values if choose else values.blueprint(),
                            np.array(nodes, dtype=np.int64), self.owner, self.column, k)
        self.n_c = self.leaf.shape[0]
        # (k, width, n_b), spelt out over the hands: an operand broadcast along the middle
        # axis runs NumPy's loops a row of answers at a time, ten times slower.
        valid = np.zeros((k, self.width, 1), dtype=bool)
        valid[:, 0] = True
        valid[self.owner, self.column] = True
        self.valid = np.ascontiguousarray(np.broadcast_to(valid, (k, self.width, n_b)))
        self.uniform = self.valid / self.valid.sum(axis=1, keepdims=True)

    def answer_values(self, x: FloatArray, s_c: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``(q_b, q_c)``: the other's value of each answer ``(k, width, n_b)`` and of each
        continuation at each leaf ``(continuations, leaves, n_b)``, given the actor's
        reach of each raise ``x`` and the other's choice of continuation ``s_c``."""
        q_b = np.zeros((self.k, self.width, self.n_b))
        q_b[:, 0] = -np.matmul(np.matmul(x.T[:, None, :], self.u_acc), self.vt_acc)[:, 0, :]
        q_c = self.leaf.forward(x)
        np.negative(q_c, out=q_c)  # the other's score
        if self.leaf.size:
            # One continuation (the blueprint alone, the usual search): no choice to weigh.
            q_b[self.owner, self.column] = (q_c[0] if self.n_c == 1
                                               else (q_c * s_c).sum(axis=0))
        return q_b, q_c

    def root_values(self, y: FloatArray, s_c: FloatArray) -> FloatArray:
        """The actor's value of each root raise ``(n_a, k)`` given the other's reach of
        each answer ``y`` ``(k, width, n_b)`` and its choice of continuation ``s_c``."""
        q_raise: FloatArray = np.matmul(self.u_acc,
                                        np.matmul(self.vt_acc, y[:, 0, :, None]))[:, :, 0].T
        if self.leaf.size:
            q_raise += self.leaf.backward(y, None if self.n_c == 1 else s_c)
        return q_raise


def hands_first(per_answer: FloatArray) -> FloatArray:
    """``(k, n_b, width)`` of the solver's ``(k, width, n_b)``: as :class:`Solution` keeps
    the other's answers."""
    out: FloatArray = np.ascontiguousarray(np.swapaxes(per_answer, 1, 2))
    return out


def match_first(regret: FloatArray) -> FloatArray:
    """Regret matching over the first axis (the continuations), else uniform."""
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=0, keepdims=True)
    out: FloatArray = np.where(total > 0, pos / np.where(total > 0, total, 1.0),
                               1.0 / regret.shape[0])
    return out


def match(regret: FloatArray, uniform: FloatArray | None, axis: int = -1) -> FloatArray:
    """Regret matching over ``axis``: chances in proportion to positive regret, else
    ``uniform`` (or uniform over that axis)."""
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=axis, keepdims=True)
    empty = total <= 0
    if not empty.any():
        out: FloatArray = pos / total
        return out
    fallback = uniform if uniform is not None else np.full_like(regret,
                                                                1.0 / regret.shape[axis])
    out = np.where(empty, fallback, pos / np.where(empty, 1.0, total))
    return out
