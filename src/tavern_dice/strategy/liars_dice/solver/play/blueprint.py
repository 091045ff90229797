"""Approximate heads-up policies for the rounds no table covers (7-10 dice in play).

The shipped tables (:mod:`.tables`) are double-oracle equilibria on the full-recall tree.
The seed's tables stop at 6 dice in play, the ``standard`` ones at 8 (2026-12-04: 1,000-3,100 s
a round for 0.01-0.04, 11 MB a round at 8 dice); beyond that the double oracle took 886 s
to reach an exploitability of 0.12 at 5 v 4 and 3,236 s for 0.15 at 5 v 5, and its tables
would be tens of MB each. This module ships **blueprints** for every round with 7-10 dice
in play all the same (they play where no table does, and the search's leaves read them):
CFR on the last-wagers DAG (:mod:`.dag`). With ``recall=1`` a player sees its own dice, the
standing wager and who made it, and forgets the earlier wagers; with ``recall=2`` it also
remembers the wager before (its own last one, heads-up). Both are shipped for every round
with 7-10 dice in play; a player reads the two-wager blueprint, and the last-wager one
where the two-wager one has no node (a history whose last two wagers do not rise in the
``standard`` order, under the ``either`` stand-in). The two-wager DAGs are 15-25 times
bigger (an iteration took 0.6 s at 4 v 3, 5-7 s at 5 v 4 and 15 s at 5 v 5 on this
machine, one process per core), so the 9- and 10-dice ones get fewer iterations
(:func:`default_iterations`).
Neither is an equilibrium of the real round: a full-recall opponent can read more from the
whole history. Measured (``docs/strategy.md``): the local best response (:mod:`.lbr`) wins
77 % of 5 v 5 rounds against the last-wager blueprint, against 97.5 % against the
lookahead ``strong`` played there before, and 72.5 % of 4 v 3 rounds against it, 59.5 %
against the two-wager one; small rounds give the scale of the gap (3 v 3: LBR gains 0.32
a round from a recall-1 policy, 0.003 from the full-recall table).

It covers the ``standard`` raise; the seed's ``either`` rule plays it as a stand-in, like
:data:`.tables.TABLE_STAND_INS`: only the standing wager matters to it, so a round that
an ``either``-only raise brought to a wager is answered from that wager, with any raise
the rules forbid (a repeat, L5b) left out.

Rules without a table of their own get blueprints for every round they can: the seed's
rules with ones wild (:data:`BLUEPRINT_RULES` ``wild-ones-standard``, Perudo's common house
rule; heads-up, spot-on changes nothing) have last-wager blueprints from 3 to 10 dice in
play, which play its ``standard`` rounds and value the search's leaves under its
``either`` raise (:mod:`.search`).

Files: one folder per memory ``k`` and key
(``tavern_dice/data/liars_dice_heads_up_recall<k>_<key>/``), one file per round
``r<first bidder's dice>_<second's>.npz`` (:mod:`.table_store`'s layout), each player's
probabilities per (slot, hand) as ``uint8`` (x 255, renormalised on load). Rebuilding a
round rewrites its file alone. Rebuild with
``python -m tavern_dice.strategy.liars_dice.solver.build.build_blueprints``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import IllegalActionError, TavernError
from tavern_dice.liars_dice.actions import LiarsDiceAction
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.strategy.liars_dice.solver.core.dag import DagCFRSolver
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec
from tavern_dice.strategy.liars_dice.solver.play.table_store import (
    Rows,
    read_folder_meta,
    read_round,
    round_file,
    write_round,
)
from tavern_dice.strategy.liars_dice.solver.play.tables import (
    MAX_DICE,
    TABLE_RULES,
    TableError,
    data_file,
    heads_up_round,
    keep_legal,
)

FloatArray = npt.NDArray[np.floating[Any]]

MIN_DICE_IN_PLAY = 7
"""The ``tavern-standard`` blueprints cover heads-up rounds with at least this many dice
in play (the tables cover the rest)."""

BLUEPRINT_RULES: dict[str, LiarsDiceRules] = {
    "tavern-standard": TABLE_RULES["tavern-standard"],
    "wild-ones-standard": TAVERN.replace(raise_rule=RaiseRule.STANDARD, wild_face=1),
}
"""The rules each key's blueprints were solved for (always the ``standard`` raise: the
``either`` raise plays them as a stand-in)."""

BLUEPRINT_KEYS = tuple(BLUEPRINT_RULES)
"""The rules keys with shipped blueprints."""

MIN_IN_PLAY: dict[str, int] = {"tavern-standard": MIN_DICE_IN_PLAY, "wild-ones-standard": 3}
"""Per key, the fewest dice in play its blueprints cover: above the tables for a key that
has them; from 3 for one that has none (two dice in play is the sum endgame, L10, which
no wild face changes: the seed's own table plays it)."""

SHIPPED_RECALLS: dict[str, tuple[int, ...]] = {
    "tavern-standard": (2, 1), "wild-ones-standard": (1,)}
"""Per key, the memories shipped (a two-wager build takes hours, :func:`default_iterations`)."""

RECALLS = (2, 1)
"""The memories a blueprint may have, the longest first: a player asks the longest that
covers its round and has a node for its history."""

_SCALE = 255.0
_DROP_AT_MOST = 1
"""Stored chances (x 255) this small are written as 0 (:func:`save_round`)."""


def blueprint_rounds(key: str = "tavern-standard") -> list[tuple[int, int]]:
    """Every ``(first bidder's dice, second's)`` the blueprints of ``key`` cover, biggest
    first."""
    rounds = [(a, b) for a in range(1, MAX_DICE + 1) for b in range(1, MAX_DICE + 1)
              if a + b >= MIN_IN_PLAY[key]]
    return sorted(rounds, key=lambda d: (-(d[0] + d[1]), d))


def default_iterations(recall: int, dice: tuple[int, int]) -> int:
    """CFR iterations of the shipped build: 600 for the last-wager blueprints; for the
    two-wager ones 1,000 with 7 or 8 dice in play (closer to their abstraction's
    equilibrium; lbr's game line moved from 56.1 % to 55.1 %, within its noise:
    docs/strategy.md), 300 at 9 and 350 at 5 v 5 (the shipped 5 v 5 took about 15 s an
    iteration, 5 v 4 and 4 v 5 5-7 s, one process per core of the 2-core machine; 600 at
    9 dice measured no better)."""
    if recall == 1:
        return 600
    return {10: 350, 9: 300}.get(sum(dice), 1000)


@dataclass(frozen=True)
class Blueprint:
    """One round's policy on a last-wagers DAG.

    Attributes:
        game: the round (wagers in ``standard`` raise order, hands, truth).
        tree: its last-wagers DAG (``tree.recall`` wagers remembered).
        raw: per player, ``(slots, hands)`` probabilities as stored (``uint8``, x 255);
            kept so, and renormalised one node at a time, because a two-wager round
            would take 73-145 MB as floats (5 v 5), 18 MB so.
        meta: how it was solved.
    """

    game: RoundGame
    tree: PublicTree
    raw: tuple[Rows, Rows]
    meta: dict[str, Any]

    @property
    def strategy(self) -> tuple[FloatArray, FloatArray]:
        """Both players' probabilities per (slot, hand), renormalised node by node as play
        reads them (built on each call, for tools and tests)."""
        per_player = []
        for player in (0, 1):
            nodes = np.split(np.asarray(self.raw[player]), self.tree.seg_starts[player][1:])
            per_player.append(np.vstack([_node_rows(block) for block in nodes]))
        return per_player[0], per_player[1]

    def policy(
        self, wagers: Sequence[int], player: int, hands: Sequence[int]
    ) -> tuple[list[int], FloatArray]:
        """``(actions, probabilities (hands x actions))`` of ``player`` (0: the first
        bidder) with the hand numbers ``hands``, after the round's ``wagers`` (wager
        numbers, oldest first; only the last ``tree.recall`` count). The accusation is
        action ``game.bids.liar``.

        Raises:
            IllegalActionError: the DAG has no node for those wagers (they do not rise in
                the ``standard`` order, or it is not ``player``'s turn after them).
        """
        recall = self.tree.recall or 1
        node = self.tree.window_node(list(wagers)[-recall:], player)
        actor, slots = self.tree.slots_at(node)
        block = self.raw[actor][slots]
        numbers = list(hands)
        if numbers != list(range(block.shape[1])):  # a model asks for every hand in order
            block = block[:, numbers]
        probs = _node_rows(block).T
        return self.tree.slot_action[actor][slots].tolist(), probs


def solve_blueprint(
    key: str, dice: tuple[int, int], iterations: int, recall: int = 1
) -> tuple[tuple[FloatArray, FloatArray], dict[str, Any]]:
    """Run ``iterations`` of CFR on the round's last-``recall``-wagers DAG; return the
    average strategy and what the solve measured (its exploitability lower bound within
    the abstraction: the best responses there remember no more wagers)."""
    start = time.perf_counter()
    spec = RoundSpec.from_rules(BLUEPRINT_RULES[key], dice)
    game = RoundGame.build(spec)
    tree = PublicTree.build(game.bids.n_bids, recall)
    solver = DagCFRSolver(game, tree)
    solver.iterate(iterations)
    bound, value = solver.measure()
    avg = solver.average()
    meta = {"dice": list(dice), "iterations": iterations, "recall": recall,
            "recall_exploitability_lower_bound": bound, "value": value,
            "solve_seconds": round(time.perf_counter() - start, 1)}
    return (avg[0], avg[1]), meta


def data_path(key: str, folder: Path | None = None, recall: int = 1) -> Path:
    """The folder of the ``recall`` blueprints of ``key`` (in ``folder``, ``$TAVERN_TABLES``,
    or the package data), one file per round."""
    if key not in BLUEPRINT_KEYS:
        raise TableError(f"no heads-up blueprint {key!r}; available: {list(BLUEPRINT_KEYS)}")
    if recall not in RECALLS:
        raise TableError(f"no blueprint remembers {recall!r} wagers; available: {list(RECALLS)}")
    return data_file(f"liars_dice_heads_up_recall{recall}_{key}", folder)


def save_round(key: str, folder: Path, strategy: tuple[FloatArray, FloatArray],
               meta: dict[str, Any]) -> Path:
    """Write one round's blueprint (``meta["dice"]``) into ``folder``; return its file.

    A chance stored as 1/255 or less is dropped (its node renormalised on load): the
    ones-wild files came out 7 % smaller so, which kept all the package's data within
    20 MB. (The ``tavern-standard`` files were built before this and keep theirs.)"""
    arrays = {}
    for p in (0, 1):
        stored = np.rint(np.clip(strategy[p], 0.0, 1.0) * _SCALE).astype(np.uint8)
        stored[stored <= _DROP_AT_MOST] = 0
        arrays[f"p{p}"] = stored
    return write_round(folder, key, BLUEPRINT_RULES[key].to_dict(), arrays, meta,
                       names=("p0", "p1"))


def save(
    solved: dict[tuple[int, int], tuple[tuple[FloatArray, FloatArray], dict[str, Any]]],
    key: str, folder: Path,
) -> None:
    """Write the blueprints ``solved`` (by dice) into ``folder``, a file per round."""
    for _, (strategy, meta) in sorted(solved.items()):
        save_round(key, folder, strategy, meta)


def read_meta(folder: Path) -> dict[str, Any]:
    """Every round's figures in a blueprint ``folder``: ``{"format", "key", "rules",
    "rounds"}``.

    Raises:
        FileNotFoundError: the folder holds no round file.
    """
    key = folder.name.partition("_recall")[2].partition("_")[2]
    rules = BLUEPRINT_RULES[key].to_dict() if key in BLUEPRINT_RULES else {}
    return read_folder_meta(folder, key, rules)


@lru_cache(maxsize=4)
def load_blueprint(
    key: str, first: int, second: int, folder: Path | None = None, recall: int = 1
) -> Blueprint:
    """The shipped ``recall`` blueprint of round ``(first, second)`` under ``key``. Four are
    kept (a two-wager 5 v 5 round holds 18 MB): a heads-up game reads a round's one or two
    memories and then moves on to a smaller round for good."""
    path = round_file(data_path(key, folder, recall), first, second)
    if not path.is_file():
        raise TableError(f"the {key} recall-{recall} blueprints have no round with dice "
                         f"{(first, second)}")
    arrays, info = read_round(path, names=("p0", "p1"))
    game = blueprint_game(key, first, second)
    tree = blueprint_tree(game.bids.n_bids, recall)
    return Blueprint(game, tree, (arrays["p0"], arrays["p1"]), dict(info))


@lru_cache(maxsize=8)
def blueprint_tree(n_bids: int, recall: int) -> PublicTree:
    """The DAG of a round of ``n_bids`` wagers remembering ``recall``, shared by every
    key and kept past its blueprint: a two-wager one takes about 0.2 s of CPU to build at
    5 v 5 (4 MB), a cost each game would otherwise pay again at each round size."""
    return PublicTree.build(n_bids, recall)


@lru_cache(maxsize=16)
def blueprint_game(key: str, first: int, second: int) -> RoundGame:
    """The round's wagers and hands, one per round whatever the memory (a player falling
    back from the two-wager blueprint to the last-wager one reads the same game)."""
    return RoundGame.build(RoundSpec.from_rules(BLUEPRINT_RULES[key], (first, second)))


def _node_rows(raw: npt.NDArray[np.uint8]) -> FloatArray:
    """One node's stored ``(slots, hands)`` probabilities summing to 1 again per hand after
    quantisation; a hand with nothing left plays the node's first action (the accusation
    where legal)."""
    # Summed as integers and divided once: the same figures as dividing a float copy
    # (every total is exact), in less than half the time of a model's answer.
    total = raw.sum(axis=0, dtype=np.int64)
    if total.all():
        quotient: FloatArray = raw / total
        return quotient
    out: FloatArray = np.divide(raw, total, out=np.zeros(raw.shape), where=total > 0)
    out[0, total <= 0] = 1.0
    return out


def blueprint_key(rules: LiarsDiceRules) -> str | None:
    """The blueprint that plays rounds of ``rules``: one solved for the same dice, wild
    face and endgame, under the same raise rule or (the ``either`` raise) as its stand-in;
    a repeated wager (L5b) is never a ``standard`` raise, so that rule does not matter."""
    for key, solved in BLUEPRINT_RULES.items():
        if (rules.sides == solved.sides and rules.wild_face == solved.wild_face
                and rules.sum_endgame == solved.sum_endgame
                and rules.raise_rule in (solved.raise_rule, RaiseRule.EITHER)):
            return key
    return None


def blueprint_round(view: LiarsDiceView) -> tuple[str, int, int, int] | None:
    """``(blueprint key, first bidder's dice, second's, my player number)`` when it is the
    viewing seat's turn in a heads-up round a blueprint covers (7-10 dice in play; from 3
    for a key without tables), else ``None``."""
    found = heads_up_round(view)
    if found is None or view.turn != view.seat:
        return None
    first, second, player, _ = found
    key = blueprint_key(view.rules)
    if key is None or first + second < MIN_IN_PLAY[key]:
        return None
    return key, first, second, player


def blueprint_policy(
    view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
) -> tuple[tuple[LiarsDiceAction, ...], FloatArray] | None:
    """The blueprint's ``(actions, probabilities (hands x actions))`` for the seat whose
    view this is, holding each of ``hands``, on its turn: the two-wager blueprint where it
    covers the round and has a node for the history, else the last-wager one; ``None``
    where no blueprint covers the round (not heads-up, under 7 or over 10 dice in play,
    rules without one, the sum endgame, or the data files missing)."""
    found = blueprint_round(view)
    if found is None:
        return None
    key, first, second, player = found
    for recall in RECALLS:
        try:
            blueprint = load_blueprint(key, first, second, recall=recall)
        except (TableError, OSError):
            continue
        game = blueprint.game
        try:
            wagers = [game.bids.index(w) for _, w in view.round_wagers[-recall:]]
            numbers = game.hands[player].indices(hands)
        except TavernError:  # a wager or hand this round's blueprint does not know
            return None
        try:
            actions, probs = blueprint.policy(wagers, player, numbers)
        except IllegalActionError:  # wagers that do not rise in the standard order
            continue
        named = game.bids.actions
        return keep_legal(view, [named[a] for a in actions], probs)
    return None
