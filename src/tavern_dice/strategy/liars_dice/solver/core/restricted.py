"""The double oracle's restricted game (:mod:`.oracle`, step 1 and 2): the histories it
holds with the actions allowed at each, those compiled into arrays level by level, and
the vectorised discounted CFR that solves it, both players' hands batched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound

if TYPE_CHECKING:
    from tavern_dice.strategy.liars_dice.solver.core.oracle_response import StrategyAt

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]
History = tuple[int, ...]

TINY = 1e-30
"""Regret sums at or below this are taken as none (their inverse would overflow float32)."""


class OracleError(TavernError):
    """A double-oracle run that cannot go on (a history outside the round, a budget)."""


@dataclass
class RestrictedGame:
    """The histories of the restricted game and the actions allowed at each.

    Attributes:
        game: the round.
        allowed: history -> the actions allowed there (wager numbers; ``game.liar``).
    """

    game: OracleRound
    allowed: dict[History, set[int]] = field(default_factory=dict)

    @classmethod
    def opening(cls, game: OracleRound) -> RestrictedGame:
        """Every opening wager, each answered by an accusation (the default)."""
        out = cls(game)
        out.allowed[()] = set(game.raises(()))
        for b in out.allowed[()]:
            out.allowed[(b,)] = {game.liar}
        return out

    @classmethod
    def whole(cls, game: OracleRound, limit: int) -> RestrictedGame | None:
        """Every history of the round, if there are at most ``limit`` (small rounds: the
        double oracle then has nothing to add, and CFR solves the round exactly)."""
        out = cls(game)
        stack: list[History] = [()]
        while stack:
            history = stack.pop()
            raises = game.raises(history)
            out.allowed[history] = set(raises) | ({game.liar} if history else set())
            if len(out.allowed) + len(stack) > limit:
                return None
            stack.extend((*history, b) for b in raises)
        return out

    def add(self, history: History, action: int) -> bool:
        """Allow ``action`` after ``history`` (and create the history it leads to, with the
        default accusation allowed there). Returns whether anything was new."""
        actions = self.allowed.setdefault(history, set() if not history else {self.game.liar})
        if action in actions:
            return False
        actions.add(action)
        if action != self.game.liar:
            child = (*history, action)
            if child not in self.allowed:
                self.allowed[child] = {self.game.liar}
        return True

    @property
    def n_histories(self) -> int:
        return len(self.allowed)

    def copy(self) -> RestrictedGame:
        """A snapshot that later :meth:`add` calls on this game leave as it is."""
        return RestrictedGame(self.game, {h: set(a) for h, a in self.allowed.items()})


@dataclass(frozen=True)
class Level:
    """The nodes of one depth (one actor) and their slots, as index arrays a sweep uses."""

    lo: int
    hi: int
    s_lo: int
    s_hi: int
    actor: int
    starts: IntArray
    raise_rows: IntArray
    raise_children: IntArray
    liar_rows: IntArray
    liar_nodes: IntArray
    liar_bids: IntArray
    liar_bidders: IntArray


@dataclass
class CompiledTree:
    """A restricted game as arrays, histories sorted by depth, slots (history, action)
    sorted by history with the accusation first.

    Attributes:
        histories: node id -> history.
        index: history -> node id.
        depth, actor, last: per node: number of wagers, who acts (depth % 2), last wager
            (-1 at the root).
        level_nodes: per depth, ``(first node, end)``.
        slot_node, slot_action, slot_child: per slot; ``slot_child`` is -1 for an accusation.
        node_slots: per node, ``(first slot, end)`` as two arrays.
        in_slot: per node, the slot that leads to it (-1 at the root).
        player_slots: per player, the slots where that player acts (ascending).
        slot_pos: per slot, its row in its actor's strategy array.
    """

    histories: list[History]
    index: dict[History, int]
    depth: IntArray
    actor: IntArray
    last: IntArray
    level_nodes: list[tuple[int, int]]
    slot_node: IntArray
    slot_action: IntArray
    slot_child: IntArray
    slot_start: IntArray
    slot_end: IntArray
    in_slot: IntArray
    player_slots: tuple[IntArray, IntArray]
    slot_pos: IntArray
    levels: list[Level] = field(default_factory=list)

    @classmethod
    def build(cls, restricted: RestrictedGame) -> CompiledTree:
        liar = restricted.game.liar
        histories = sorted(restricted.allowed, key=lambda h: (len(h), h))
        index = {h: i for i, h in enumerate(histories)}
        n = len(histories)
        depth = np.array([len(h) for h in histories], dtype=np.int64)
        last = np.array([h[-1] if h else -1 for h in histories], dtype=np.int64)
        actor = depth % 2
        levels: list[tuple[int, int]] = []
        for d in range(int(depth.max()) + 1):
            lo = int(np.searchsorted(depth, d, side="left"))
            hi = int(np.searchsorted(depth, d, side="right"))
            levels.append((lo, hi))
        slot_node: list[int] = []
        slot_action: list[int] = []
        slot_child: list[int] = []
        starts = np.empty(n, dtype=np.int64)
        ends = np.empty(n, dtype=np.int64)
        in_slot = np.full(n, -1, dtype=np.int64)
        for i, h in enumerate(histories):
            starts[i] = len(slot_node)
            actions = sorted(restricted.allowed[h], key=lambda a: -1 if a == liar else a)
            for a in actions:
                child = -1 if a == liar else index.get((*h, a), -1)
                if a != liar and child < 0:
                    raise OracleError(f"history {(*h, a)} is allowed but missing")
                if child >= 0:
                    in_slot[child] = len(slot_node)
                slot_node.append(i)
                slot_action.append(a)
                slot_child.append(child)
            ends[i] = len(slot_node)
        sn = np.array(slot_node, dtype=np.int64)
        sa = np.array(slot_action, dtype=np.int64)
        sc = np.array(slot_child, dtype=np.int64)
        slot_actor = actor[sn]
        player_slots = (np.flatnonzero(slot_actor == 0), np.flatnonzero(slot_actor == 1))
        slot_pos = np.empty(sn.shape[0], dtype=np.int64)
        for p in (0, 1):
            slot_pos[player_slots[p]] = np.arange(player_slots[p].shape[0])
        compiled = cls(histories, index, depth, actor, last, levels, sn, sa, sc, starts, ends,
                       in_slot, player_slots, slot_pos)
        for lo, hi in levels:
            s_lo, s_hi = int(starts[lo]), int(ends[hi - 1])
            children = sc[s_lo:s_hi]
            raise_rows = np.flatnonzero(children >= 0)
            liar_rows = np.flatnonzero(children < 0)
            liar_nodes = sn[s_lo + liar_rows]
            compiled.levels.append(Level(
                lo, hi, s_lo, s_hi, int(actor[lo]), starts[lo:hi] - s_lo, raise_rows,
                children[raise_rows], liar_rows, liar_nodes, last[liar_nodes],
                1 - actor[liar_nodes],
            ))
        return compiled

    @property
    def n_nodes(self) -> int:
        return len(self.histories)

    @property
    def n_slots(self) -> int:
        return int(self.slot_node.shape[0])


class RestrictedSolver:
    """Discounted CFR (alpha 1.5, beta 0, gamma 2) on a compiled restricted game, with
    alternating updates; strategies are arrays ``(player's slots, player's hands)``."""

    def __init__(self, game: OracleRound, tree: CompiledTree, dtype: type = np.float32) -> None:
        self.game = game
        self.tree = tree
        self.dtype = dtype
        self.n_hands = (game.hands[0].n_states, game.hands[1].n_states)
        self.regret: list[FloatArray] = [
            np.zeros((tree.player_slots[p].shape[0], self.n_hands[p]), dtype=dtype)
            for p in (0, 1)
        ]
        self.avg = [np.zeros_like(r) for r in self.regret]
        self._seg = [self._segments(p) for p in (0, 1)]
        self.sigma = [self._normalise(p, np.ones_like(r)) for p, r in enumerate(self.regret)]
        self.iterations = 0

    def _normalise(self, p: int, weights: FloatArray) -> FloatArray:
        first, seg = self._seg[p]
        if not weights.shape[0]:
            return np.zeros_like(weights)
        # Per node, then one gather per slot: the weights are never negative, so a node
        # whose weights sum to 0 has all of them 0, and (0 + 1) / count is uniform there.
        sums = np.add.reduceat(weights, first, axis=0)
        # A sum too small for its inverse to fit float32 (a hand that almost never gets
        # there) counts as empty too: 1 / 1e-42 overflows, and inf * 0 turned a 5 v 1 build
        # to NaN after 4,274 s (2026-12-04).
        empty = sums <= TINY
        if empty.any():
            counts = np.diff(np.r_[first, weights.shape[0]]).astype(weights.dtype)
            inv = 1.0 / np.where(empty, counts[:, None], sums)
            return (weights + empty[seg]) * inv[seg]
        return weights * (1.0 / sums)[seg]

    def _segments(self, p: int) -> tuple[IntArray, IntArray]:
        """Player ``p``'s node segments: the row of each node's first slot, and each
        slot's node (as a segment number)."""
        t = self.tree
        slots = t.player_slots[p]
        nodes = t.slot_node[slots]
        first = np.flatnonzero(np.r_[True, nodes[1:] != nodes[:-1]])
        seg = np.repeat(np.arange(first.shape[0]), np.diff(np.r_[first, slots.shape[0]]))
        return first, seg

    def warm_start(self, old: RestrictedSolver) -> None:
        """Carry regrets and averages of slots that exist in both trees."""
        new_t, old_t = self.tree, old.tree
        for p in (0, 1):
            old_key = {
                (old_t.histories[int(old_t.slot_node[s])], int(old_t.slot_action[s])): i
                for i, s in enumerate(old_t.player_slots[p].tolist())
            }
            rows_new, rows_old = [], []
            for i, s in enumerate(new_t.player_slots[p].tolist()):
                key = (new_t.histories[int(new_t.slot_node[s])], int(new_t.slot_action[s]))
                j = old_key.get(key)
                if j is not None:
                    rows_new.append(i)
                    rows_old.append(j)
            self.regret[p][rows_new] = old.regret[p][rows_old]
            self.avg[p][rows_new] = old.avg[p][rows_old]
            self.sigma[p] = self._normalise(p, np.maximum(self.regret[p], 0.0))
        self.iterations = old.iterations

    def seed(self, strategy: tuple[StrategyAt, StrategyAt], iterations: int) -> None:
        """Start from a known strategy, as if ``iterations`` iterations had led to it (a
        build going on from a shipped table, whose solver state is not kept): its current
        and average strategies become ``strategy`` (uniform where it has no row, or an
        all-zero one, as a pruned hand has), the average weighted like that many DCFR
        iterations, and each positive regret is the strategy's probability times
        ``sqrt(iterations)`` times the largest instantaneous regret at that node and hand,
        so regret matching plays ``strategy`` until the new iterations move it. Without
        this a fresh solver on the stored histories starts over (0.35 after the first
        double-oracle round of a table stored at 0.146, 2026-12-02)."""
        t = self.tree
        for p in (0, 1):
            rows = np.zeros_like(self.regret[p], dtype=np.float64)
            for node in np.flatnonzero(t.actor == p).tolist():
                found = strategy[p](t.histories[node])
                if found is None:
                    continue
                actions, probs = found
                where = {a: k for k, a in enumerate(actions)}
                lo, hi = int(t.slot_start[node]), int(t.slot_end[node])
                for slot in range(lo, hi):
                    k = where.get(int(t.slot_action[slot]))
                    if k is not None:
                        rows[t.slot_pos[slot]] = probs[k]
            self.sigma[p] = self._normalise(p, rows.astype(self.dtype))
        weight = float(iterations) ** 3 / 3.0  # sum of t^2 over the iterations it stands for
        scale = float(iterations) ** 0.5
        reach = [self.reach(p, self.sigma[p]) for p in (0, 1)]
        for i in (0, 1):
            nodes_i = t.slot_node[t.player_slots[i]]
            own = reach[i][nodes_i]
            self.avg[i] = (np.float32(weight) * own * self.sigma[i]).astype(self.dtype)
            v, sv = self.values(i, reach[1 - i], self.sigma)
            gap = np.abs(sv - v[nodes_i])
            first, seg = self._seg[i]
            largest = np.maximum.reduceat(gap, first, axis=0) if gap.shape[0] else gap
            self.regret[i] = (scale * self.sigma[i] * largest[seg]).astype(self.dtype)
        self.iterations = int(iterations)

    # ------------------------------------------------------------------ sweeps

    def reach(self, p: int, sigma_p: FloatArray) -> FloatArray:
        """Shape ``(nodes, hands[p])``: chance times ``p``'s own probability of each node."""
        t = self.tree
        r: FloatArray = np.empty((t.n_nodes, self.n_hands[p]), dtype=self.dtype)
        r[0] = self.game.hands[p].prob
        for lo, hi in t.level_nodes[1:]:
            slots = t.in_slot[lo:hi]
            parents = t.slot_node[slots]
            child = r[parents]
            mine = t.actor[parents] == p
            if mine.any():
                child[mine] *= sigma_p[t.slot_pos[slots[mine]]]
            r[lo:hi] = child
        return r

    def values(
        self, i: int, reach_o: FloatArray, sigma: list[FloatArray]
    ) -> tuple[FloatArray, FloatArray]:
        """Counterfactual values of player ``i``: per node ``(nodes, hands[i])`` and per
        slot of ``i`` ``(i's slots, hands[i])``. Every node of a depth has the same actor
        (players alternate), so each depth is one batch."""
        t = self.tree
        game = self.game
        o = 1 - i
        v: FloatArray = np.empty((t.n_nodes, self.n_hands[i]), dtype=self.dtype)
        slot_v: FloatArray = np.empty((t.n_slots, self.n_hands[i]), dtype=self.dtype)
        for level in reversed(t.levels):
            lo, hi, s_lo, s_hi = level.lo, level.hi, level.s_lo, level.s_hi
            slot_v[s_lo + level.raise_rows] = v[level.raise_children]
            if level.liar_rows.size:
                ls = s_lo + level.liar_rows
                reach = reach_o[level.liar_nodes]
                if level.actor == o:
                    reach = reach * sigma[o][t.slot_pos[ls]]
                slot_v[ls] = game.accuse_values(i, level.liar_bids, level.liar_bidders, reach)
            block = slot_v[s_lo:s_hi]
            if level.actor == i:
                block = block * sigma[i][t.slot_pos[s_lo:s_hi]]
            v[lo:hi] = np.add.reduceat(block, level.starts, axis=0)
        return v, slot_v[t.player_slots[i]]

    def iterate(self, n: int) -> None:
        """``n`` alternating-update DCFR iterations."""
        t = self.tree
        for _ in range(n):
            self.iterations += 1
            it = float(self.iterations)
            for i in (0, 1):
                o = 1 - i
                reach_o = self.reach(o, self.sigma[o])
                # average strategy of o, weighted by its own reach and t^2
                nodes_o = t.slot_node[t.player_slots[o]]
                self.avg[o] += np.float32(it * it) * reach_o[nodes_o] * self.sigma[o]
                v, sv = self.values(i, reach_o, self.sigma)
                nodes_i = t.slot_node[t.player_slots[i]]
                r = self.regret[i]
                r += sv - v[nodes_i]
                ta = it**1.5
                r *= np.where(r > 0, np.float32(ta / (ta + 1.0)), np.float32(0.5))
                self.sigma[i] = self._normalise(i, np.maximum(r, 0.0))

    def average(self) -> list[FloatArray]:
        """The average strategies (uniform where a node was never reached), in float64."""
        return [self._normalise(p, self.avg[p].astype(np.float64)) for p in (0, 1)]

    def value(self, sigma: list[FloatArray]) -> float:
        """Player 0's expected payoff under ``sigma`` in the restricted game."""
        v, _ = self.values(0, self.reach(1, sigma[1]), sigma)
        return float(self.game.hands[0].prob @ v[0])
