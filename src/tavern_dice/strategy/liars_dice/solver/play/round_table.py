"""One heads-up round's solved policy (:class:`RoundTable`): its histories, the actions
allowed at each, both players' probabilities, and the exact measurements of it.

A table read from a file keeps its rows as stored (:mod:`.table_rows`) and decodes one
history's rows where a bot asks (:meth:`RoundTable.policy`), so a round costs its stored
bytes in memory, not eight bytes a probability; :attr:`RoundTable.strategy` decodes them
all for builders and measurements.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.oracle import (
    CompiledTree,
    OracleResult,
    RestrictedGame,
    RestrictedSolver,
    StrategyAt,
    best_response,
    policy_value,
)
from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.play.table_rows import (
    first_stored_rows,
    node_rows,
    unstored_rows,
)
from tavern_dice.strategy.liars_dice.solver.play.table_store import Rows

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]
History = tuple[int, ...]


class TableError(TavernError):
    """A table that does not exist or does not fit the round asked about."""


@dataclass
class RoundTable:
    """One round's solved policy.

    Attributes:
        game: the round (first bidder's dice first).
        parent, bid: per history (node), its parent node (-1 at the root) and last wager.
        slot_start, slot_action: the actions allowed at each node (``slot_start[n]`` to
            ``slot_start[n + 1]``), wager numbers, the accusation being ``game.liar``.
        floats: per player, ``(that player's slots, hands)`` probabilities, or ``None``
            for a table read from a file, which keeps its ``stored`` rows and decodes
            them where asked (:attr:`strategy` decodes them all, for offline work).
        meta: how it was solved (exploitability, value, histories, seconds).
        stored: per player, the rows as stored (:func:`~.table_rows.stored_rows`).
    """

    game: OracleRound
    parent: IntArray
    bid: IntArray
    slot_start: IntArray
    slot_action: IntArray
    floats: tuple[FloatArray, FloatArray] | None
    meta: dict[str, Any] = field(default_factory=dict)
    stored: tuple[Rows, Rows] | None = field(default=None, repr=False)
    _index: dict[History, int] | None = field(default=None, repr=False)
    _rows: IntArray | None = field(default=None, repr=False)
    _depth: IntArray | None = field(default=None, repr=False)
    _children: tuple[IntArray, IntArray, int] | None = field(default=None, repr=False)
    _first_stored: tuple[IntArray, IntArray] | None = field(default=None, repr=False)

    @property
    def strategy(self) -> tuple[FloatArray, FloatArray]:
        """Per player, every slot's probabilities as floats (decoded from the stored rows
        on first use: a round's worth of memory, for builders and measurements; a bot asks
        :meth:`policy`, which decodes one history)."""
        if self.floats is None:
            if self.stored is None:
                raise TableError("a table without probabilities")
            self.floats = (unstored_rows(self, 0, self.stored[0]),
                           unstored_rows(self, 1, self.stored[1]))
        return self.floats

    def node_of(self, history: History) -> int | None:
        """The node after ``history``, or ``None`` outside the table (a walk down the
        sorted ``(parent, wager)`` keys: no index of every history is built)."""
        if self._index is not None:  # built already (offline work): a dict lookup
            return self._index.get(history)
        if self._children is None:
            width = int(self.bid.max(initial=0)) + 1
            keys = self.parent[1:] * width + self.bid[1:]
            order = np.argsort(keys, kind="stable")
            self._children = (keys[order], order + 1, width)
        keys, nodes, width = self._children
        node = 0
        for action in history:
            if not 0 <= action < width:
                return None
            key = node * width + action
            at = int(np.searchsorted(keys, key))
            if at >= keys.shape[0] or int(keys[at]) != key:
                return None
            node = int(nodes[at])
        return node

    def node_probs(self, node: int, player: int) -> FloatArray:
        """``player``'s probabilities ``(actions x hands)`` at ``node``."""
        lo, hi = int(self.slot_start[node]), int(self.slot_start[node + 1])
        if self.floats is not None or self.stored is None:
            return self.strategy[player][self.rows[lo:hi]]
        if self._first_stored is None:
            self._first_stored = (first_stored_rows(self, 0), first_stored_rows(self, 1))
        return node_rows(self.stored[player], int(self._first_stored[player][node]), hi - lo)

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
            found = self._depth_by_levels()
            self._depth = found if found is not None else self._depth_by_jumps()
        return self._depth

    def _depth_by_levels(self) -> IntArray | None:
        """Per node its depth, for nodes stored breadth first (as the builds write them),
        else ``None``: the nodes whose parent is before level k's end are those of levels
        up to k + 1, one search a level, not a Python step a node (0.2 s for a 3 v 3
        round's 500,000)."""
        parent = self.parent
        if not bool((parent[1:-1] <= parent[2:]).all()):
            return None
        ends = [1]
        while ends[-1] < self.n_nodes:
            found = int(np.searchsorted(parent, ends[-1], side="left"))
            if found <= ends[-1]:  # a level that ends nowhere: not breadth first
                return None
            ends.append(found)
        return np.repeat(np.arange(len(ends)), np.diff([0, *ends]))

    def _depth_by_jumps(self) -> IntArray:
        """Per node its depth, for nodes in any order with parents first: each pass adds
        the depth of the ancestor reached so far and jumps to that ancestor's, log2(depth)
        passes over the arrays."""
        depth = (self.parent >= 0).astype(np.int64)
        up = self.parent.astype(np.int64)
        live = np.flatnonzero(up >= 0)
        while live.size:
            above = up[live]
            depth[live] += depth[above]
            up[live] = up[above]
            live = live[up[live] >= 0]
        return depth

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
        node = self.node_of(history)
        actor = len(history) % 2
        if node is None:
            return [self.game.liar], np.ones((len(hands), 1))
        lo, hi = int(self.slot_start[node]), int(self.slot_start[node + 1])
        probs = self.node_probs(node, actor)[:, list(hands)].T
        return self.slot_action[lo:hi].tolist(), probs


    def policy_at(
        self, history: History, player: int
    ) -> tuple[list[int], FloatArray] | None:
        """``player``'s ``(actions, probabilities (actions x hands))`` at ``history``, or
        ``None`` outside the table."""
        node = self.node_of(history)
        if node is None:
            return None
        lo, hi = int(self.slot_start[node]), int(self.slot_start[node + 1])
        return self.slot_action[lo:hi].tolist(), self.node_probs(node, player)

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
        # Best responses ask every history: decode the whole round and index it first.
        _ = self.strategy, self.index
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
            from tavern_dice.strategy.liars_dice.solver.core.lbr import lbr_exploitability

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
