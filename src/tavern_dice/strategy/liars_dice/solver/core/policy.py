"""A solved round's strategy for both players, queried by (own dice, public wagers).

>>> from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
>>> from tavern_dice.liars_dice.actions import Accuse
>>> from tavern_dice.liars_dice.wager import Wager
>>> spec = RoundSpec((1, 1), wild_face=6, spot_on=False)
>>> pol = solve_round(spec, target_exploitability=1e-2).policy
>>> # holding the wild 6, "1 three" is surely true: never accuse it
>>> probs = pol.action_probabilities([6], [Wager(1, 3)])
>>> abs(sum(probs.values()) - 1) < 1e-9 and probs[Accuse()] < 0.01
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import IllegalActionError, TavernError
from tavern_dice.liars_dice.actions import LiarsDiceAction
from tavern_dice.liars_dice.rules import RaiseRule
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec

FloatArray = npt.NDArray[np.float64]
Action = LiarsDiceAction
"""A wager (raise) or the accusation ``Accuse()``: the engine's actions."""


def spec_to_dict(spec: RoundSpec) -> dict[str, Any]:
    """JSON-ready form of a :class:`RoundSpec`."""
    return {
        "dice": list(spec.dice), "sides": spec.sides, "raise_rule": spec.raise_rule.value,
        "wild_face": spec.wild_face, "spot_on": spec.spot_on, "sum_wagers": spec.sum_wagers,
        "payoffs": list(spec.payoffs),
    }


def spec_from_dict(data: dict[str, Any]) -> RoundSpec:
    """Inverse of :func:`spec_to_dict`."""
    return RoundSpec(
        dice=(int(data["dice"][0]), int(data["dice"][1])), sides=int(data["sides"]),
        raise_rule=RaiseRule(data["raise_rule"]), wild_face=data["wild_face"],
        spot_on=bool(data["spot_on"]), sum_wagers=bool(data["sum_wagers"]),
        payoffs=(float(data["payoffs"][0]), float(data["payoffs"][1])),
    )


class RoundPolicy:
    """Both players' behaviour in one round.

    Attributes:
        spec: the round; player 0 is the first bidder.
        recall: ``None`` (strategies see the full wager history) or ``k``
            (they see the last ``k`` wagers).
        strategy: per player ``p``, shape ``(n_slots[p], n_hands[p])``: the
            probability of each slot's action for each hand (sums to 1 per node).
    """

    def __init__(
        self, spec: RoundSpec, recall: int | None, strategy: tuple[FloatArray, FloatArray]
    ) -> None:
        self.spec = spec
        self.recall = recall
        self.strategy = strategy
        self._game: RoundGame | None = None
        self._tree: PublicTree | None = None

    def attach(self, game: RoundGame, tree: PublicTree) -> None:
        """Reuse an already built game and tree (they must match ``spec``/``recall``)."""
        self._game, self._tree = game, tree

    def attach_none(self) -> None:
        """Drop the built game and tree (smaller to pickle; rebuilt on demand)."""
        self._game, self._tree = None, None

    @property
    def game(self) -> RoundGame:
        """The round's wagers, hands and payoffs (built on first use)."""
        if self._game is None:
            self._game = RoundGame.build(self.spec)
        return self._game

    @property
    def tree(self) -> PublicTree:
        """The public tree the strategy is indexed by (built on first use)."""
        if self._tree is None:
            self._tree = PublicTree.build(self.game.bids.n_bids, self.recall)
        return self._tree

    def wager_numbers(self, history: Sequence[AnyWager | int]) -> list[int]:
        """Wager numbers of a history given as wagers or numbers."""
        return [self.game.bids.index(w) for w in history]

    def distribution(
        self, hand: Iterable[int], history: Sequence[AnyWager | int]
    ) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """``(actions, probabilities)`` of the player to act, as numbers (``n_bids`` = liar).

        Args:
            hand: the acting player's own dice (any order).
            history: the wagers so far, first bidder's first; the actor is
                player ``len(history) % 2``.
        """
        nums = self.wager_numbers(history)
        node = self.tree.node_of(nums)
        actor, sl = self.tree.slots_at(node)
        x = self.game.hands[actor].index(hand)
        return self.tree.slot_action[actor][sl], self.strategy[actor][sl, x]

    def action_probabilities(
        self, hand: Iterable[int], history: Sequence[AnyWager | int]
    ) -> dict[Action, float]:
        """Probabilities over legal actions: wagers (raises) and ``Accuse()``."""
        actions, probs = self.distribution(hand, history)
        named = self.game.bids.actions
        out: dict[Action, float] = {}
        for a, p in zip(actions.tolist(), probs.tolist(), strict=True):
            out[named[a]] = float(p)
        return out

    def save(self, path: str | Path) -> None:
        """Write a compressed ``.npz`` (spec as JSON, strategies as float32)."""
        meta = {"spec": spec_to_dict(self.spec), "recall": self.recall, "format": 1}
        np.savez_compressed(
            Path(path), meta=np.array(json.dumps(meta)),
            strategy0=self.strategy[0].astype(np.float32),
            strategy1=self.strategy[1].astype(np.float32),
        )

    @classmethod
    def load(cls, path: str | Path) -> RoundPolicy:
        """Read a policy written by :meth:`save`."""
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != 1:
                raise TavernError(f"{path}: not a round policy file")
            strat = (data["strategy0"].astype(np.float64), data["strategy1"].astype(np.float64))
        pol = cls(spec_from_dict(meta["spec"]), meta["recall"], strat)
        if strat[0].shape != (pol.tree.n_slots[0], pol.game.n_states[0]):
            raise IllegalActionError(f"{path}: strategy shape does not match its round")
        return pol
