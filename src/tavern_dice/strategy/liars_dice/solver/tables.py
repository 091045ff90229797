"""Solved heads-up policies shipped as package data, and their lookup by the bots.

For the rules a table was solved for (:data:`TABLE_RULES`), every two-player round
``(first bidder's dice, second bidder's dice)`` up to 5 dice each has a policy from the
double oracle (:mod:`.oracle`): the histories of its restricted game, the actions
allowed at each, and both players' probabilities for every hand, stored as ``uint16``
(probability x 65535) for every action but each history's last,
which gets what the others leave (a quarter fewer bytes). A history outside the table is
answered by the policy's default, an accusation: the double oracle certified the policy
*with* that default, so no deviation into such a history gains more than the round's
recorded exploitability.

Files (``tavern_dice/data/liars_dice_heads_up_<key>.npz``) are read lazily, one round at a
time. Rebuild them with ``python -m tavern_dice.strategy.liars_dice.solver.build_tables`` (see
``docs/solver.md`` for how long each takes).
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.adjudication import count_matching
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import ACCUSE, LiarsAction, Wager
from tavern_dice.strategy.liars_dice.solver.oracle import (
    CompiledTree,
    OracleResult,
    RestrictedGame,
    RestrictedSolver,
    StrategyAt,
    best_response,
    policy_value,
)
from tavern_dice.strategy.liars_dice.solver.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.table_rows import stored_rows, unstored_rows

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]
History = tuple[int, ...]

MAX_DICE = 5
"""Tables cover rounds with up to this many dice on each side."""

TABLE_RULES: dict[str, LiarsDiceRules] = {
    "tavern": TAVERN,
    "tavern-standard": TAVERN.replace(raise_rule=RaiseRule.STANDARD),
}
"""The rules each shipped table was solved for: the seed (``either``, repeats forbidden)
and the seed with the ``standard`` raise."""


class TableError(TavernError):
    """A table that does not exist or does not fit the round asked about."""


def table_key(rules: LiarsDiceRules) -> str | None:
    """The shipped table that covers two-player rounds of ``rules``, or ``None``.

    Two-player rounds do not depend on ``spot_on`` (an exact wager costs the accuser, as a
    true one does), on the dice each player started with, or on the table size limits.
    """
    for key, solved in TABLE_RULES.items():
        if (
            rules.sides == solved.sides and rules.wild_face == solved.wild_face
            and rules.sum_endgame == solved.sum_endgame
            and rules.raise_rule is solved.raise_rule
            and (rules.repeat_wagers == solved.repeat_wagers
                 or rules.raise_rule is not RaiseRule.EITHER)
        ):
            return key
    return None


def data_path(key: str, folder: Path | None = None) -> Path:
    """Where the table ``key`` lives: in ``folder`` (a build's), else in the folder named by
    ``$TAVERN_TABLES`` (to try a build before installing it), else the package data."""
    if key not in TABLE_RULES:
        raise TableError(f"no heads-up table {key!r}; available: {list(TABLE_RULES)}")
    return data_file(f"liars_dice_heads_up_{key}.npz", folder)


def data_file(name: str, folder: Path | None = None) -> Path:
    """The shipped data file ``name``: in ``folder``, else in ``$TAVERN_TABLES``, else in
    the package data."""
    if folder is None and os.environ.get("TAVERN_TABLES"):
        folder = Path(os.environ["TAVERN_TABLES"])
    if folder is not None:
        return folder / name
    return Path(str(resources.files("tavern_dice").joinpath(f"data/{name}")))


@dataclass
class RoundTable:
    """One round's solved policy.

    Attributes:
        game: the round (first bidder's dice first).
        parent, bid: per history (node), its parent node (-1 at the root) and last wager.
        slot_start, slot_action: the actions allowed at each node (``slot_start[n]`` to
            ``slot_start[n + 1]``), wager numbers, the accusation being ``game.liar``.
        strategy: per player, ``(that player's slots, hands)`` probabilities.
        meta: how it was solved (exploitability, value, histories, seconds).
    """

    game: OracleRound
    parent: IntArray
    bid: IntArray
    slot_start: IntArray
    slot_action: IntArray
    strategy: tuple[FloatArray, FloatArray]
    meta: dict[str, Any] = field(default_factory=dict)
    _index: dict[History, int] | None = field(default=None, repr=False)
    _rows: IntArray | None = field(default=None, repr=False)
    _depth: IntArray | None = field(default=None, repr=False)

    @property
    def n_nodes(self) -> int:
        return int(self.parent.shape[0])

    @property
    def index(self) -> dict[History, int]:
        """History -> node (built on first use)."""
        if self._index is None:
            histories: list[History] = []
            for node in range(self.n_nodes):
                p = int(self.parent[node])
                histories.append(() if p < 0 else (*histories[p], int(self.bid[node])))
            self._index = {h: i for i, h in enumerate(histories)}
        return self._index

    @property
    def depth(self) -> IntArray:
        """Per node: how many wagers its history holds (its actor is ``depth % 2``)."""
        if self._depth is None:
            depth = np.zeros(self.n_nodes, dtype=np.int64)
            for node in range(1, self.n_nodes):  # parents come before their children
                depth[node] = depth[self.parent[node]] + 1
            self._depth = depth
        return self._depth

    @property
    def rows(self) -> IntArray:
        """Per slot: its row in its actor's strategy array."""
        if self._rows is None:
            counts = np.diff(self.slot_start)
            actor = np.repeat(self.depth % 2, counts)
            rows = np.empty(actor.shape[0], dtype=np.int64)
            for p in (0, 1):
                mine = actor == p
                rows[mine] = np.arange(int(mine.sum()))
            self._rows = rows
        return self._rows

    def policy(
        self, history: History, hands: Sequence[int]
    ) -> tuple[list[int], FloatArray]:
        """``(actions, probabilities (hands x actions))`` of the player to act after
        ``history``, for hand numbers ``hands`` (of :attr:`OracleRound.hands`); outside the
        table, the default: accuse (certain)."""
        node = self.index.get(history)
        actor = len(history) % 2
        if node is None:
            return [self.game.liar], np.ones((len(hands), 1))
        lo, hi = int(self.slot_start[node]), int(self.slot_start[node + 1])
        probs = self.strategy[actor][self.rows[lo:hi]][:, list(hands)].T
        return self.slot_action[lo:hi].tolist(), probs


    def policy_at(
        self, history: History, player: int
    ) -> tuple[list[int], FloatArray] | None:
        """``player``'s ``(actions, probabilities (actions x hands))`` at ``history``, or
        ``None`` outside the table."""
        node = self.index.get(history)
        if node is None:
            return None
        lo, hi = int(self.slot_start[node]), int(self.slot_start[node + 1])
        return self.slot_action[lo:hi].tolist(), self.strategy[player][self.rows[lo:hi]]

    def opponent_reach(self, history: History, player: int) -> FloatArray:
        """The range ``player``'s opponent has after ``history`` by the table's policy:
        their hand's chance times the chance of each wager they made, read while the round
        was in the table (nothing is read into a wager that left it, nor after). Never
        all zero: a history the policy rules out gives the plain chances."""
        game = self.game
        opponent = 1 - player
        reach = game.hands[opponent].prob.astype(np.float64).copy()
        for k, action in enumerate(history):
            if k % 2 != opponent:
                continue
            found = self.policy_at(history[:k], opponent)
            if found is None or action not in found[0]:
                break
            row = found[1][found[0].index(action)]
            if (reach * row).sum() <= 0:
                break
            reach = reach * row
        return reach

    def restricted(self) -> RestrictedGame:
        """The table's histories and allowed actions, as a restricted game (to grow the
        double oracle from, e.g. under another raise rule)."""
        out = RestrictedGame(self.game)
        for history, node in self.index.items():
            lo, hi = int(self.slot_start[node]), int(self.slot_start[node + 1])
            out.allowed[history] = {int(a) for a in self.slot_action[lo:hi]}
        return out

    def strategy_at(self, player: int) -> StrategyAt:
        """``player``'s behaviour for :func:`~.oracle.best_response`."""
        def at(history: History) -> tuple[list[int], FloatArray] | None:
            return self.policy_at(history, player)
        return at

    def measure(self, max_nodes: int = 20_000_000, lbr: bool = True) -> dict[str, float]:
        """Exact full-recall best responses to this policy: its exploitability (NashConv
        / 2), its value to the first bidder, what the measurement took, and (``lbr``) the
        gain of a local best response (:mod:`.lbr`), a cheaper lower bound."""
        start = time.perf_counter()
        responses = [
            best_response(self.game, self.strategy_at(1 - p), p, max_nodes) for p in (0, 1)
        ]
        value = policy_value(self.game, (self.strategy_at(0), self.strategy_at(1)))
        measured = time.perf_counter()
        figures = {
            "exploitability": (responses[0].value + responses[1].value) / 2.0,
            "value": value,
            "best_response_histories": responses[0].nodes + responses[1].nodes,
            "measure_seconds": measured - start,
        }
        if lbr:
            from tavern_dice.strategy.liars_dice.solver.lbr import lbr_exploitability

            figures["lbr_exploitability"] = lbr_exploitability(self)
            figures["lbr_seconds"] = time.perf_counter() - measured
        return figures

    def own_reach(self, player: int) -> FloatArray:
        """Shape ``(nodes, player's hands)``: the chance that ``player``'s own play brings
        each hand to each history (the product of its probabilities along the way; the
        opponent's and chance's left out)."""
        n = self.n_nodes
        depth = self.depth
        # The slot at its parent that leads to each node: (node, action) keys, sorted.
        counts = np.diff(self.slot_start)
        slot_node = np.repeat(np.arange(n), counts)
        width = int(self.slot_action.max()) + 1
        keys = slot_node * width + self.slot_action
        order = np.argsort(keys, kind="stable")
        child = np.arange(1, n)
        into = order[np.searchsorted(keys[order], self.parent[child] * width
                                     + self.bid[child])]
        reach = np.ones((n, self.strategy[player].shape[1]))
        for d in range(1, int(depth.max()) + 1 if n > 1 else 1):
            nodes = np.flatnonzero(depth == d)
            parents = self.parent[nodes]
            step = reach[parents]
            if (d - 1) % 2 == player:  # the player made the wager into these nodes
                step = step * self.strategy[player][self.rows[into[nodes - 1]]]
            reach[nodes] = step
        return reach

    def pruned(self, below: float) -> RoundTable:
        """A copy that forgets each hand's play at the histories its own play brings it to
        with a chance under ``below`` (zeros here; the file stores the default as certain
        there, runs that compress to nothing, and such a hand plays it, so never goes
        deeper). What a hand does
        there weighs in the round's value only in proportion to that chance; the build
        measures the copy exactly (:func:`~.build_tables.prune_file`)."""
        counts = np.diff(self.slot_start)
        slot_node = np.repeat(np.arange(self.n_nodes), counts)
        depth = self.depth
        out = []
        for p in (0, 1):
            strategy = self.strategy[p].copy()
            mine = depth[slot_node] % 2 == p
            reach = self.own_reach(p)[slot_node[mine]]
            rows = self.rows[mine]
            # Histories a hand never reaches store zeros whatever ``below`` (as built).
            keep = (reach >= below) & (reach > 0)
            strategy[rows] = np.where(keep, strategy[rows], 0.0)
            out.append(strategy)
        return RoundTable(self.game, self.parent, self.bid, self.slot_start, self.slot_action,
                          (out[0], out[1]), dict(self.meta))


def from_result(result: OracleResult, meta: dict[str, Any] | None = None) -> RoundTable:
    """A :class:`RoundTable` of a double-oracle result (the policy it certified)."""
    tree: CompiledTree = result.tree
    game = result.restricted.game
    parent = np.full(tree.n_nodes, -1, dtype=np.int64)
    bid = np.full(tree.n_nodes, -1, dtype=np.int64)
    for node, history in enumerate(tree.histories):
        if history:
            parent[node] = tree.index[history[:-1]]
            bid[node] = history[-1]
    slot_start = np.append(tree.slot_start, tree.n_slots).astype(np.int64)
    # A hand that its own play never brings to a history needs no answer there (the other
    # player's choices cannot bring it either): zeros, stored as the default.
    solver = RestrictedSolver(game, tree, np.float64)
    strategy_list = []
    for p in (0, 1):
        reach = solver.reach(p, result.strategy[p])
        mine = tree.player_slots[p]
        keep = reach[tree.slot_node[mine]] > 0
        strategy_list.append(np.where(keep, result.strategy[p], 0.0))
    strategy = (strategy_list[0], strategy_list[1])
    info = {"exploitability": result.exploitability, "value": result.value,
            "histories": tree.n_nodes, **(meta or {})}
    return RoundTable(game, parent, bid, slot_start, tree.slot_action.astype(np.int64),
                      strategy, info)


def save(tables: dict[tuple[int, int], RoundTable], key: str, path: Path,
         extra: dict[str, Any] | None = None) -> None:
    """Write ``tables`` (by dice) as the package data of ``key``: per round its histories,
    their actions and each player's :func:`stored_rows` (``q0``, ``q1``)."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    rounds = []
    for (a, b), table in sorted(tables.items()):
        name = f"r{a}_{b}"
        arrays[f"{name}_parent"] = table.parent.astype(np.int32)
        arrays[f"{name}_bid"] = table.bid.astype(np.int16)
        arrays[f"{name}_slot_start"] = table.slot_start.astype(np.int32)
        arrays[f"{name}_slot_action"] = table.slot_action.astype(np.int16)
        for p in (0, 1):
            arrays[f"{name}_q{p}"] = stored_rows(table, p)
        rounds.append({"dice": [a, b], **table.meta})
    write_data(path, arrays, key, rounds, extra)


def write_data(path: Path, arrays: dict[str, npt.NDArray[Any]], key: str,
               rounds: list[dict[str, Any]], extra: dict[str, Any] | None = None) -> None:
    """Write ``arrays`` and the JSON metadata of rules ``key`` and its ``rounds`` to the
    compressed ``.npz`` at ``path``."""
    meta = {"format": 1, "key": key, "rules": TABLE_RULES[key].to_dict(), "rounds": rounds,
            **(extra or {})}
    write_npz(path, {**arrays, "meta": np.array(json.dumps(meta))})


def write_npz(path: Path, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``arrays`` as an ``.npz`` that :func:`numpy.load` reads, its members compressed
    with LZMA (a sixth smaller than ``numpy.savez_compressed``'s deflate on these tables;
    reading the biggest array takes about half a second instead of a tenth)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed: a build rewrites its file after each round while other
    # processes may be reading it.
    part = path.with_name(path.stem + ".part.npz")
    with zipfile.ZipFile(part, "w", compression=zipfile.ZIP_LZMA) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    os.replace(part, path)


def read_meta(path: Path) -> dict[str, Any]:
    """The JSON metadata stored in the table file at ``path`` (read now, not cached)."""
    with np.load(path, allow_pickle=False) as data:
        meta: dict[str, Any] = json.loads(str(data["meta"]))
    return meta


@lru_cache(maxsize=4)
def _meta(path: str) -> dict[str, Any]:
    return read_meta(Path(path))


def forget_loaded() -> None:
    """Drop every cached table and metadata: for a process that rewrites table files
    (a build) and reads them again."""
    load_round.cache_clear()
    _meta.cache_clear()


def metadata(key: str) -> dict[str, Any]:
    """The JSON metadata of a shipped table (its rounds and how each was solved)."""
    return _meta(str(data_path(key)))


@lru_cache(maxsize=64)
def load_round(key: str, first: int, second: int, folder: Path | None = None) -> RoundTable:
    """The shipped policy of round ``(first bidder's dice, second's)`` under ``key`` (from
    the package data, or from ``folder``)."""
    path = data_path(key, folder)
    name = f"r{first}_{second}"
    info = next((r for r in _meta(str(path))["rounds"] if r["dice"] == [first, second]),
                None)
    if info is None:
        raise TableError(f"the {key} table has no round with dice {(first, second)}")
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[f"{name}_{k}"] for k in
                  ("parent", "bid", "slot_start", "slot_action", "q0", "q1")}
    table = RoundTable(
        OracleRound(TABLE_RULES[key], (first, second)),
        arrays["parent"].astype(np.int64), arrays["bid"].astype(np.int64),
        arrays["slot_start"].astype(np.int64), arrays["slot_action"].astype(np.int64),
        (np.empty((0, 0)), np.empty((0, 0))), dict(info),
    )
    # Read once the table knows its histories (which rows each node's last action fills).
    table.strategy = (unstored_rows(table, 0, arrays["q0"]),
                      unstored_rows(table, 1, arrays["q1"]))
    return table


def heads_up_round(view: LiarsDiceView) -> tuple[int, int, int, int] | None:
    """``(first bidder's dice, second's, my player number, opponent)`` of the heads-up
    round ``view`` shows, bidding, with at most :data:`MAX_DICE` dice a side, or ``None``."""
    if view.seat is None or view.phase != "bidding" or view.starter is None:
        return None
    alive = [s for s, c in enumerate(view.dice_counts) if c > 0]
    if len(alive) != 2 or view.seat not in alive:
        return None
    other = alive[0] if alive[1] == view.seat else alive[1]
    mine, theirs = view.dice_counts[view.seat], view.dice_counts[other]
    if mine > MAX_DICE or theirs > MAX_DICE:
        return None
    if view.starter == view.seat:
        return mine, theirs, 0, other
    return theirs, mine, 1, other


def _round_of(view: LiarsDiceView) -> tuple[str, int, int, int, int] | None:
    """``(key, first bidder's dice, second's, my player number, opponent)`` of a
    heads-up round a table covers, or ``None``."""
    found = heads_up_round(view)
    key = table_key(view.rules)
    if found is None or key is None:
        return None
    return (key, *found)


def keep_legal(
    view: LiarsDiceView, named: Sequence[LiarsAction], probs: FloatArray
) -> tuple[tuple[LiarsAction, ...], FloatArray]:
    """A stored policy's actions and probabilities without the raises the table's rules
    forbid here, the rest renormalised per hand (a hand left with nothing accuses).

    Only a stand-in policy has such raises: a ``standard`` raise that repeats an earlier
    wager of the round after an ``either``-only raise (L5b)."""
    legal = set(view.legal_wagers)
    keep = [i for i, a in enumerate(named) if a == ACCUSE or a in legal]
    if len(keep) == len(named):
        return tuple(named), probs
    kept = tuple(named[i] for i in keep)
    probs = probs[:, keep]
    total = probs.sum(axis=1, keepdims=True)
    accuse = np.array([a == ACCUSE for a in kept])
    return kept, np.where(total > 0, probs / np.maximum(total, 1e-300), accuse[None, :] * 1.0)


def off_tree_policy(
    table: RoundTable, history: History, hands: Sequence[int], legal: Collection[int]
) -> tuple[list[int], FloatArray]:
    """A one-step answer where the opponent has left the table's histories.

    The table's own default there is to accuse (that is what its exploitability was
    certified with). ``strong`` answers so off a stand-in table (:func:`heads_up_policy`):
    it keeps the opponent's range as the table left it (their wagers while the round was in
    the table, read through the table's policy; nothing is read into the wager that left
    it), and for each of its hands takes the better of accusing (it wins if the standing
    wager is false) and the raise most likely to hold (as if it will be accused) among
    ``legal``, the wager numbers the table's rules allow now (a stand-in's own raises can
    include a repeat, L5b).
    """
    game = table.game
    player = len(history) % 2
    reach = table.opponent_reach(history, player)
    # Only the rules' raises: a stand-in's best raise that the rules forbid was dropped
    # later (keep_legal), leaving the hand to accuse.
    raises = [r for r in game.raises(history) if r in legal]
    bids = np.array([history[-1], *raises], dtype=np.int64)
    true, total = game.true_mass(player, bids, np.broadcast_to(reach, (bids.shape[0],
                                                                       reach.shape[0])))
    odds = true[:, list(hands)] / np.maximum(total, 1e-300)
    accuse = 1.0 - odds[0]
    probs = np.zeros((len(hands), 1 + len(raises)))
    if raises:
        best = odds[1:].argmax(axis=0)
        take = odds[1:].max(axis=0) > accuse
        probs[np.arange(len(hands)), np.where(take, best + 1, 0)] = 1.0
    else:
        probs[:, 0] = 1.0
    return [game.liar, *raises], probs


def heads_up_policy(
    view: LiarsDiceView, hands: Sequence[tuple[int, ...]], off_tree: str = "accuse"
) -> tuple[tuple[LiarsAction, ...], FloatArray] | None:
    """The shipped policy's ``(actions, probabilities (hands x actions))`` for the seat
    whose view this is, holding each of ``hands``, on its turn; ``None`` where no table
    covers the round (three or more players, other rules, a round the rules' table
    lacks, or the table file missing).

    ``off_tree``: where the round has left the table's histories, ``'accuse'`` (the
    table's certified default), ``'odds'`` (:func:`off_tree_policy`), or ``'stand-in'``:
    the odds where the table is a stand-in, whose histories the rules' raises often leave,
    and on the rules' own table the certified accuse, save for a hand that makes the
    standing wager true by itself (accusing it loses for certain; a raise loses at most as
    much, so this cannot raise the certified exploitability). A 2026-12-05 check measured the odds
    answer on the own tables giving `lbr` 0.08 a round more at 2 v 4
    (``docs/strategy.md``).
    """
    found = _round_of(view)
    if found is None or view.turn != view.seat:
        return None
    key, first, second, player, _ = found
    table = _covering_table(key, first, second)
    if table is None:
        return None
    game = table.game
    try:
        history = tuple(game.index[w] for _, w in view.round_wagers)
        numbers = [game.hands[player].index(h) for h in hands]
    except (KeyError, TavernError):
        return None
    # Off the histories, the hands that leave the table's certified accuse for the odds.
    leave = [False] * len(hands)
    if off_tree != "accuse" and history and history not in table.index:
        if off_tree == "odds" or game.rules != TABLE_RULES[key]:
            leave = [True] * len(hands)
        else:
            standing = view.round_wagers[-1][1]
            leave = [isinstance(standing, Wager)
                     and count_matching(h, standing, view.rules) >= standing.quantity
                     for h in hands]
    if any(leave):
        legal = {game.index[w] for w in view.legal_wagers if w in game.index}
        actions, probs = off_tree_policy(table, history, numbers, legal)
        # The answer's first action is the accuse (off_tree_policy).
        probs = np.where(np.array(leave)[:, None], probs, np.eye(len(actions))[0])
    else:
        actions, probs = table.policy(history, numbers)
    return keep_legal(
        view, [ACCUSE if a == game.liar else game.wagers[a] for a in actions], probs
    )


TABLE_STAND_INS: dict[str, str] = {"tavern": "tavern-standard"}
"""For a round a key's table lacks, the table played instead. Every ``standard`` raise is
an ``either`` raise (repeated wagers aside, which :func:`heads_up_policy` drops), so the
``standard`` policy is a legal strategy of the seed's round; it is not an equilibrium
there (an ``either``-only raise leaves its histories, and its best response may use those
raises), but it is a much better answer than no table at all (``docs/strategy.md``). The
shipped ``tavern`` table has every round up to 6 dice in play (1 v 5 and 5 v 1 since
2026-12-02), so it plays only where a build of one (``TAVERN_TABLES``) lacks a round."""

STAND_IN_MAX_IN_PLAY = 6
"""A stand-in plays only rounds with at most this many dice in play. The ``tavern-standard``
table also has the rounds of 7 and 8 dice in play (2026-12-04); under the seed's rules those
rounds are searched instead (:mod:`.search`) where the seed's own table lacks them, which
``lbr`` found the harder of the two at 4 v 3 (it won 131 of 200 single rounds against the
search, 142 of the same 200 against the 7-dice stand-in; ``docs/strategy.md``)."""


def table_rounds(key: str) -> set[tuple[int, int]]:
    """The rounds ``(first bidder's dice, second's)`` ``key``'s own table has."""
    return {(info["dice"][0], info["dice"][1]) for info in metadata(key)["rounds"]}


def stand_in_rounds(key: str) -> list[tuple[int, int]]:
    """The rounds ``(first bidder's dice, second's)`` that ``key``'s own table lacks and
    its stand-in's table plays (:data:`TABLE_STAND_INS`), smallest first."""
    stand_in = TABLE_STAND_INS.get(key)
    if stand_in is None:
        return []
    own = table_rounds(key)
    rounds = {d for d in table_rounds(stand_in) if sum(d) <= STAND_IN_MAX_IN_PLAY}
    return sorted(rounds - own, key=lambda d: (d[0] + d[1], d))


def _covering_table(key: str, first: int, second: int) -> RoundTable | None:
    """``key``'s table of the round, else its stand-in's (up to
    :data:`STAND_IN_MAX_IN_PLAY` dice in play), else ``None``."""
    stand_in = TABLE_STAND_INS.get(key) if first + second <= STAND_IN_MAX_IN_PLAY else None
    for candidate in (key, stand_in):
        if candidate is None:
            continue
        try:
            return load_round(candidate, first, second)
        except (TableError, OSError):
            continue
    return None
