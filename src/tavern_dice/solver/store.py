"""Solved match policies shipped as package data, and the API bots use to query them.

Data: ``tavern_dice/data/liars_dice_<rules_key>.npz`` holds, for every round
``(first bidder's dice, second bidder's dice)`` of the two-player match, both
players' strategies quantised to ``uint8`` (probability x 255, renormalised per
node on load), plus JSON metadata: how each round was solved (exact tree or
last-``k``-wagers memory), its value and exploitability, and the match win
probabilities. Files are read lazily, once per process.

Rules keys:

* ``'tavern-standard'``: the seed's tavern rules (no wild face, spot-on, sum
  endgame at one die each) with the ``standard`` raise rule, since the seed's
  ``either`` rule has no finite round tree (see :mod:`tavern_dice.solver.bids`).

Typical use by a bot (hand ``[2, 5, 5]``, opponent has 2 dice, the opponent
opened this round with "2 fives")::

    probs = equilibrium_action_probabilities(
        "tavern-standard", my_dice=[2, 5, 5], their_dice=2, i_start=False,
        history=[Wager(2, 5)],
    )
    # {'liar': 0.03, Wager(2, 6): 0.4, Wager(3, 5): 0.5, ...}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import NotYourTurnError, TavernError
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.solver.match import MatchSolution
from tavern_dice.solver.policy import Action, RoundPolicy, spec_from_dict, spec_to_dict
from tavern_dice.solver.sweeps import SlotOps

FloatArray = npt.NDArray[np.float64]
RULES_KEYS = ("tavern-standard",)


def data_path(rules_key: str) -> Path:
    """Where the package data of ``rules_key`` lives."""
    if rules_key not in RULES_KEYS:
        raise TavernError(f"no solved policies for {rules_key!r}; available: {list(RULES_KEYS)}")
    return Path(str(resources.files("tavern_dice").joinpath(f"data/liars_dice_{rules_key}.npz")))


def save_match(sol: MatchSolution, path: str | Path, extra: dict[str, Any] | None = None) -> None:
    """Write a :class:`MatchSolution` in the package-data format."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    rounds = []
    for (a, b), res in sorted(sol.rounds.items()):
        pol = res.policy
        for p in (0, 1):
            q = np.rint(np.clip(pol.strategy[p], 0.0, 1.0) * 255.0).astype(np.uint8)
            arrays[f"r{a}_{b}_p{p}"] = q
        rounds.append({
            "dice": [a, b], "spec": spec_to_dict(pol.spec), "recall": pol.recall,
            "value": res.value, "exploitability": res.exploitability,
            "exploitability_kind": "exact" if pol.recall is None else "recall-k lower bound",
            "iterations": res.iterations, "seconds": round(res.seconds, 2),
        })
    meta = {
        "format": 1, "rules": sol.rules.to_dict(), "rounds": rounds,
        "win": sol.win.tolist(), **(extra or {}),
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(Path(path), allow_pickle=False, **arrays)


@lru_cache(maxsize=4)
def _load_file(path: str) -> tuple[dict[str, Any], dict[str, npt.NDArray[np.uint8]]]:
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {k: data[k] for k in data.files if k != "meta"}
    return meta, arrays


@lru_cache(maxsize=64)
def _round_policy(path: str, a: int, b: int) -> RoundPolicy:
    meta, arrays = _load_file(path)
    for info in meta["rounds"]:
        if tuple(info["dice"]) == (a, b):
            pol = RoundPolicy(spec_from_dict(info["spec"]), info["recall"],
                              (np.zeros((0, 0)), np.zeros((0, 0))))
            ops = SlotOps(pol.tree, (pol.game.hands[0].prob, pol.game.hands[1].prob))
            strat = tuple(
                ops.normalise(p, arrays[f"r{a}_{b}_p{p}"].astype(np.float64)) for p in (0, 1)
            )
            pol.strategy = (strat[0], strat[1])
            return pol
    raise TavernError(f"{path} has no round with dice {(a, b)}")


def load_match_metadata(rules_key: str = "tavern-standard") -> dict[str, Any]:
    """The JSON metadata of a rules key's data (rounds, values, win table)."""
    return _load_file(str(data_path(rules_key)))[0]


@dataclass(frozen=True)
class PlayerPolicy:
    """One player's equilibrium behaviour in one round of the match.

    Attributes:
        rules_key: which solved ruleset.
        d_mine, d_theirs: dice held by this player and by the opponent.
        i_start: whether this player bids first this round.
        round: the solved round (player 0 = first bidder).
        recall: ``None`` if exact, else how many last wagers the policy looks at.
    """

    rules_key: str
    d_mine: int
    d_theirs: int
    i_start: bool
    round: RoundPolicy

    @property
    def player(self) -> int:
        """This player's index in the round (0 = first bidder)."""
        return 0 if self.i_start else 1

    @property
    def recall(self) -> int | None:
        """``None`` (exact policy) or the number of last wagers it depends on."""
        return self.round.recall

    def action_probabilities(
        self, my_dice: Iterable[int], history: Sequence[AnyWager | int]
    ) -> dict[Action, float]:
        """Probabilities of each legal action: raises (wagers) and ``"liar"``.

        Args:
            my_dice: this player's own dice (any order), ``d_mine`` of them.
            history: the round's wagers so far, in order (the first bidder's
                first), as :class:`Wager` / :class:`SumWager` or wager numbers.

        Raises:
            NotYourTurnError: if the history says the opponent is to act.
            IllegalActionError: for a history that does not raise each time.
            InvalidDiceError: for dice that are not ``d_mine`` faces.
        """
        if len(history) % 2 != self.player:
            raise NotYourTurnError(
                f"after {len(history)} wagers it is the "
                f"{'first' if len(history) % 2 == 0 else 'second'} bidder's turn"
            )
        return self.round.action_probabilities(my_dice, history)


def load_policy(rules_key: str, d_mine: int, d_theirs: int, i_start: bool) -> PlayerPolicy:
    """The solved policy for a player with ``d_mine`` dice against ``d_theirs``.

    Args:
        rules_key: one of :data:`RULES_KEYS`.
        d_mine, d_theirs: dice held (1..5 each).
        i_start: whether this player bids first this round.
    """
    path = str(data_path(rules_key))
    dice = (d_mine, d_theirs) if i_start else (d_theirs, d_mine)
    return PlayerPolicy(rules_key, d_mine, d_theirs, bool(i_start), _round_policy(path, *dice))


def equilibrium_action_probabilities(
    rules_key: str,
    my_dice: Sequence[int],
    their_dice: int,
    i_start: bool,
    history: Sequence[AnyWager | int],
) -> dict[Action, float]:
    """Equilibrium probabilities of each legal action for the player to act.

    Args:
        rules_key: one of :data:`RULES_KEYS` (``'tavern-standard'``).
        my_dice: the acting player's dice (any order).
        their_dice: how many dice the opponent holds.
        i_start: whether the acting player bid first this round.
        history: this round's wagers so far.

    Returns:
        ``{action: probability}`` over raises (:class:`Wager`, or :class:`SumWager`
        in the one-die-each endgame) and ``"liar"`` (not on the opening bid).
    """
    pol = load_policy(rules_key, len(my_dice), their_dice, i_start)
    return pol.action_probabilities(my_dice, history)


def match_win_probability(rules_key: str, d_mine: int, d_theirs: int, i_start: bool) -> float:
    """Probability of winning the match from this state when both play the solved policies."""
    win = load_match_metadata(rules_key)["win"]
    return float(win[d_mine][d_theirs][0 if i_start else 1])
