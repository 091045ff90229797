"""The public tree of a two-player round: bid histories, who acts, what they may do.

A *public node* is what both players have seen: the wagers so far (player 0
bids first, then the players alternate). At a node the actor may raise to any
higher-numbered wager (L5, see :mod:`.bids`) or, unless the
node is the root, accuse ("liar", L7), which ends the round. An *information
set* is (actor's own hand, public node).

Two representations, chosen by ``recall``:

* ``recall=None`` - **exact, perfect recall**: a node is the full bid history.
  Wagers strictly increase, so a history is a subset of the ``B`` wagers and
  the tree has ``2**B`` nodes (``B = n_dice * sides``; 1 die each with d6:
  ``2**12 = 4096``; 3 dice in play: ``2**18 = 262144``; 4 dice in play would be
  ``2**24`` nodes times 21-56 hands - several GiB per array, beyond this
  project's budget).
* ``recall=k`` - **imperfect-recall abstraction** for bigger rounds: a node is
  (the last ``k`` wagers, the player to act), so earlier wagers are forgotten
  and the tree becomes a DAG with about ``2 * C(B, k)`` nodes. ``k = 1`` is the
  (last wager, player to act) state, at most 2B + 1 nodes. Strategies in the
  abstraction are legal strategies of the real game (they ignore part of the
  history), but equilibria of the abstraction need not be equilibria of the
  real game, and exploitability measured inside it is a lower bound only.

Feasibility on the project's machine (24 GiB, 2 cores), 6-sided dice:

=============================  ==========  ==========================================
round                          nodes       memory / time per CFR iteration
=============================  ==========  ==========================================
exact, 2 dice in play (1, 1)   4 096       ~1 MB, ~2 ms
exact, 3 dice in play (2, 1)   262 144     ~15 arrays x 22-44 MB, ~0.4-0.7 s
exact, 4 dice in play (2, 2)   16.8 M      1.4-3.7 GB per float32 array: too big/slow
recall 2, 6 dice (3, 3)        ~1 300      EU 1 300 x 56 x 56, ~0.3 s
recall 2, 10 dice (5, 5)       ~3 500      EU 0.9 GB float32, ~10 s: too slow
recall 1, 10 dice (5, 5)       120         EU 30 MB, ~0.5 s
=============================  ==========  ==========================================

A third, :meth:`PublicTree.build_escapes`, is the ``recall=1`` DAG with a budget of
*escapes*, raises to a lower-numbered wager (the seed's ``either``-only raises): a node
is (last wager, actor, escapes left).

Numbering: nodes are sorted by (escapes used, layer = last wager, actor); each player's
*slots* (its actions at its nodes) are sorted by (node, action) with the
accusation first. Arrays are grouped per (escapes used, layer, actor) so that the
solver sweeps a layer at a time, parents first (:class:`Group`).

>>> tree = PublicTree.build(n_bids=12)
>>> tree.n_nodes, tree.n_slots
(4096, (4095, 4095))
>>> tree.node_of([3, 7]) == tree.node_of([3, 7]), tree.actor_at([3, 7])
(True, 0)
>>> PublicTree.build(n_bids=12, recall=1).n_nodes  # (wager 0, player 0 to act) is unreachable
24
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import IllegalActionError, RulesetError

IntArray = npt.NDArray[np.int64]

MAX_EXACT_BIDS = 22
"""Largest wager count for the exact (perfect-recall) tree: ``2**22`` nodes."""


@dataclass(frozen=True)
class Group:
    """The nodes of one (layer, actor) and how they connect; see :class:`PublicTree`.

    Attributes:
        layer: last wager number of these nodes (-1 at the root).
        actor: the player to act at these nodes.
        n_lo, n_hi: node ids ``n_lo .. n_hi - 1``.
        s_lo, s_hi: the actor's slots at these nodes, ``s_lo .. s_hi - 1``.
        seg_starts: shape ``(n_hi - n_lo,)``, first slot of each node, relative to ``s_lo``.
        has_liar: whether the first slot of each node is the accusation (not at the root).
        in_slots: the other player's slots leading into these nodes, sorted by child.
        in_parents: the nodes those slots start from.
        in_starts: ``None`` if each node has exactly one incoming slot (a tree),
            else the first incoming slot of each node (for ``np.add.reduceat``).
    """

    layer: int
    actor: int
    n_lo: int
    n_hi: int
    s_lo: int
    s_hi: int
    seg_starts: IntArray = field(repr=False)
    has_liar: bool
    in_slots: IntArray = field(repr=False)
    in_parents: IntArray = field(repr=False)
    in_starts: IntArray | None = field(repr=False)


@dataclass(frozen=True)
class PublicTree:
    """Public nodes and per-player action slots of a round with ``n_bids`` wagers.

    Attributes:
        n_bids: wagers ``0 .. n_bids - 1``; action ``n_bids`` is the accusation.
        recall: ``None`` (exact histories) or ``k`` (remember the last ``k`` wagers).
        node_layer, node_actor: shape ``(n_nodes,)``.
        slot_node, slot_child, slot_action: per player, shape ``(n_slots[p],)``:
            where the slot is, the node it leads to (itself for the accusation),
            the action number.
        slot_seg: per player, shape ``(n_slots[p],)``: the index of the slot's node
            among that player's nodes.
        seg_starts: per player, shape ``(number of the player's nodes,)``.
        player_nodes: per player, the node ids where the player acts, ascending.
        groups: per (layer, actor), in ascending layer order.
    """

    n_bids: int
    recall: int | None
    node_layer: IntArray = field(repr=False)
    node_actor: IntArray = field(repr=False)
    slot_node: tuple[IntArray, IntArray] = field(repr=False)
    slot_child: tuple[IntArray, IntArray] = field(repr=False)
    slot_action: tuple[IntArray, IntArray] = field(repr=False)
    slot_seg: tuple[IntArray, IntArray] = field(repr=False)
    seg_starts: tuple[IntArray, IntArray] = field(repr=False)
    player_nodes: tuple[IntArray, IntArray] = field(repr=False)
    groups: list[Group] = field(repr=False)
    _mask_to_node: IntArray | None = field(repr=False)
    _key_to_node: dict[tuple[tuple[int, ...], int], int] | None = field(repr=False)
    escapes: int | None = None

    # ------------------------------------------------------------------ build
    @classmethod
    def build(cls, n_bids: int, recall: int | None = None) -> PublicTree:
        """Build the exact tree (``recall=None``) or the last-``recall``-wagers DAG."""
        if n_bids < 1:
            raise RulesetError("a round needs at least one wager")
        if recall is None:
            if n_bids > MAX_EXACT_BIDS:
                raise RulesetError(
                    f"the exact tree of {n_bids} wagers has 2**{n_bids} nodes; "
                    f"use recall=1 or 2 (at most {MAX_EXACT_BIDS} wagers are exact)"
                )
            return cls._build_exact(n_bids)
        if recall < 1:
            raise RulesetError(f"recall must be >= 1 or None, not {recall}")
        return cls._build_window(n_bids, recall)

    @classmethod
    def _build_exact(cls, n_bids: int) -> PublicTree:
        masks = np.arange(1 << n_bids, dtype=np.int64)
        layer = (np.frexp(masks.astype(np.float64))[1] - 1).astype(np.int64)
        actor = (np.bitwise_count(masks) % 2).astype(np.int64)
        par = np.concatenate([np.arange(1 << c, dtype=np.int64) for c in range(n_bids)])
        act = np.concatenate([np.full(1 << c, c, dtype=np.int64) for c in range(n_bids)])
        child = par + (np.int64(1) << act)
        return cls._compile(n_bids, None, layer, actor, par, child, act, masks, None)

    @classmethod
    def _build_window(cls, n_bids: int, k: int) -> PublicTree:
        if k in (1, 2):
            return cls._build_window_closed(n_bids, k)
        return cls._build_window_bfs(n_bids, k)

    @classmethod
    def _build_window_closed(cls, n_bids: int, k: int) -> PublicTree:
        """The last-``k``-wagers DAG for ``k`` 1 or 2, its nodes and edges written down at
        once (a two-wager DAG of 60 wagers has 72,000 edges: 0.1-0.15 s of CPU walked one
        at a time) in the order :meth:`_build_window_bfs` discovers them within each
        (last wager, actor), so the compiled DAG is the same one.

        The nodes of last wager ``L``: with ``k`` 2, the first bidder's windows ``(c, L)``
        (``c < L``), then the second's ``(L,)`` and ``(d, L)`` (``1 <= d < L``: the second
        bidder never acts after wager 0 but as the round's second wager); with ``k`` 1,
        ``(L,)`` for the first bidder (``L >= 1``), then the second's."""
        n = n_bids
        last = np.arange(n, dtype=np.int64)
        if k == 2:
            # offset[L]: the first node of last wager L; actor 0's come first, L of them.
            offset = np.where(last == 0, 1, 2 + last * (last - 1))
            windows: list[tuple[tuple[int, ...], int]] = [((), 0)]
            for lay in range(n):
                windows += [((c, lay), 0) for c in range(lay)]
                windows += [((lay,), 1)] + [((d, lay), 1) for d in range(1, lay)]
        else:
            offset = np.where(last == 0, 1, 2 * last)
            windows = [((), 0)]
            for lay in range(n):
                windows += ([((lay,), 0)] if lay else []) + [((lay,), 1)]
        layer = np.array([w[-1] if w else -1 for w, _ in windows], dtype=np.int64)
        actor = np.array([a for _, a in windows], dtype=np.int64)
        counts = np.where(layer < 0, n, n - 1 - layer)
        pars = np.repeat(np.arange(layer.shape[0], dtype=np.int64), counts)
        starts = np.cumsum(counts) - counts
        acts = layer[pars] + 1 + np.arange(pars.shape[0], dtype=np.int64) - starts[pars]
        by, was = actor[pars], layer[pars]
        if k == 2:
            # The root's child (c,) for actor 1 sits after actor 0's c windows; actor 1's
            # children (L, c) at c's offset plus L; actor 0's (L, c) for actor 1 at c's
            # offset plus c (actor 0's windows) plus L (after the window (c,) at 0).
            kids = np.where(was < 0, offset[acts] + acts,
                            np.where(by == 1, offset[acts] + was, offset[acts] + acts + was))
        else:
            kids = np.where(by == 1, offset[acts], offset[acts] + (acts > 0))
        keys = {key: i for i, key in enumerate(windows)}
        return cls._compile(n_bids, k, layer, actor, pars, kids, acts, None, keys)

    @classmethod
    def _build_window_bfs(cls, n_bids: int, k: int) -> PublicTree:
        """The last-``k``-wagers DAG by a walk from the root, its windows numbered as the
        walk first meets them."""
        root: tuple[tuple[int, ...], int] = ((), 0)
        keys = {root: 0}
        order = [root]
        pars: list[int] = []
        kids: list[int] = []
        acts: list[int] = []
        head = 0
        while head < len(order):
            window, actor = order[head]
            last = window[-1] if window else -1
            for c in range(last + 1, n_bids):
                key = ((*window, c)[-k:], 1 - actor)
                if key not in keys:
                    keys[key] = len(order)
                    order.append(key)
                pars.append(head)
                kids.append(keys[key])
                acts.append(c)
            head += 1
        layer = np.array([w[-1] if w else -1 for w, _ in order], dtype=np.int64)
        actor_arr = np.array([a for _, a in order], dtype=np.int64)
        return cls._compile(
            n_bids, k, layer, actor_arr, np.array(pars, dtype=np.int64),
            np.array(kids, dtype=np.int64), np.array(acts, dtype=np.int64), None, keys,
        )

    @classmethod
    def build_escapes(cls, n_bids: int, escape_to: Sequence[Sequence[int]],
                      budget: int) -> PublicTree:
        """The last-wager DAG with up to ``budget`` *escapes* besides the raises to a
        higher-numbered wager: from wager ``w`` a player may also wager any of
        ``escape_to[w]`` (lower-numbered: under the seed's ``either`` raise a higher face
        at a lower quantity), each using one of the escapes left. A node is (last wager,
        player to act, escapes left); with none left the round goes on as the ``recall=1``
        DAG. Escapes to lower numbers would cycle without the budget; with it the nodes
        sort by (escapes used, last wager), parents first."""
        if budget < 0 or len(escape_to) != n_bids:
            raise RulesetError("an escape tree needs a budget >= 0 and targets per wager")
        root: tuple[tuple[int, ...], int] = ((), 0)
        keys = {root: 0}
        order: list[tuple[int, int, int]] = [(-1, 0, budget)]
        pars: list[int] = []
        kids: list[int] = []
        acts: list[int] = []
        head = 0
        while head < len(order):
            last, actor, left = order[head]
            moves = [(c, left) for c in range(last + 1, n_bids)]
            if left and last >= 0:
                moves += [(c, left - 1) for c in escape_to[last]]
            for c, after in moves:
                key = ((c, after), 1 - actor)
                if key not in keys:
                    keys[key] = len(order)
                    order.append((c, 1 - actor, after))
                pars.append(head)
                kids.append(keys[key])
                acts.append(c)
            head += 1
        return cls._compile(
            n_bids, 1, np.array([w for w, _, _ in order], dtype=np.int64),
            np.array([a for _, a, _ in order], dtype=np.int64), np.array(pars, dtype=np.int64),
            np.array(kids, dtype=np.int64), np.array(acts, dtype=np.int64), None, keys,
            np.array([budget - e for _, _, e in order], dtype=np.int64), budget,
        )

    @classmethod
    def _compile(
        cls,
        n_bids: int,
        recall: int | None,
        layer: IntArray,
        actor: IntArray,
        par: IntArray,
        child: IntArray,
        act: IntArray,
        masks: IntArray | None,
        keys: dict[tuple[tuple[int, ...], int], int] | None,
        stage: IntArray | None = None,
        escapes: int | None = None,
    ) -> PublicTree:
        n = layer.shape[0]
        stage = np.zeros(n, dtype=np.int64) if stage is None else stage
        order = np.lexsort((np.arange(n), actor, layer, stage))
        new_id = np.empty(n, dtype=np.int64)
        new_id[order] = np.arange(n, dtype=np.int64)
        layer, actor, stage = layer[order], actor[order], stage[order]
        par, child = new_id[par], new_id[child]
        nonroot = np.arange(1, n, dtype=np.int64)  # the root sorts first (layer -1)
        s_par = np.concatenate([par, nonroot])
        s_child = np.concatenate([child, nonroot])
        s_act = np.concatenate([act, np.full(n - 1, n_bids, dtype=np.int64)])
        s_sortkey = np.where(s_act == n_bids, -1, s_act)
        slot_node, slot_child, slot_action, slot_seg, seg_starts, pnodes = [], [], [], [], [], []
        for p in (0, 1):
            sel = np.flatnonzero(actor[s_par] == p)
            sel = sel[np.lexsort((s_sortkey[sel], s_par[sel]))]
            sn = s_par[sel]
            nodes_p = np.flatnonzero(actor == p).astype(np.int64)
            starts = np.searchsorted(sn, nodes_p).astype(np.int64)
            seg = np.searchsorted(nodes_p, sn).astype(np.int64)
            slot_node.append(sn)
            slot_child.append(s_child[sel])
            slot_action.append(s_act[sel])
            slot_seg.append(seg)
            seg_starts.append(starts)
            pnodes.append(nodes_p)
        # incoming bid slots of each node, per parent player, sorted by child
        in_order = []
        for p in (0, 1):
            bid_slots = np.flatnonzero(slot_action[p] < n_bids)
            in_order.append(bid_slots[np.argsort(slot_child[p][bid_slots], kind="stable")])
        groups: list[Group] = []
        # Sweep order: stage, then the last wager, then the actor (parents before children).
        gkey = (stage * (n_bids + 1) + layer + 1) * 2 + actor
        for st, lay, a in product(range(int(stage.max()) + 1), range(-1, n_bids), (0, 1)):
            want = (st * (n_bids + 1) + lay + 1) * 2 + a
            n_lo = int(np.searchsorted(gkey, want, side="left"))
            n_hi = int(np.searchsorted(gkey, want, side="right"))
            if n_hi == n_lo:
                continue
            sn = slot_node[a]
            s_lo = int(np.searchsorted(sn, n_lo, side="left"))
            s_hi = int(np.searchsorted(sn, n_hi, side="left"))
            starts = np.searchsorted(sn[s_lo:s_hi], np.arange(n_lo, n_hi)).astype(np.int64)
            o = 1 - a
            io = in_order[o]
            kids_sorted = slot_child[o][io]
            i_lo = int(np.searchsorted(kids_sorted, n_lo, side="left"))
            i_hi = int(np.searchsorted(kids_sorted, n_hi, side="left"))
            in_slots = io[i_lo:i_hi].astype(np.int64)
            in_kids = kids_sorted[i_lo:i_hi]
            in_starts: IntArray | None = None
            if in_slots.shape[0] != n_hi - n_lo:
                in_starts = np.searchsorted(in_kids, np.arange(n_lo, n_hi)).astype(np.int64)
            groups.append(Group(
                lay, a, n_lo, n_hi, s_lo, s_hi, starts, lay >= 0, in_slots,
                slot_node[o][in_slots], in_starts,
            ))
        mask_to_node = new_id if masks is not None else None
        key_to_node = None
        if keys is not None:
            key_to_node = {k: int(new_id[v]) for k, v in keys.items()}
        return cls(
            n_bids, recall, layer, actor,
            (slot_node[0], slot_node[1]), (slot_child[0], slot_child[1]),
            (slot_action[0], slot_action[1]), (slot_seg[0], slot_seg[1]),
            (seg_starts[0], seg_starts[1]), (pnodes[0], pnodes[1]), groups,
            mask_to_node, key_to_node, escapes,
        )

    # ------------------------------------------------------------------ queries
    @property
    def n_nodes(self) -> int:
        """Number of public nodes (the root is node 0)."""
        return int(self.node_layer.shape[0])

    @property
    def n_slots(self) -> tuple[int, int]:
        """Number of (node, action) slots of each player."""
        return (int(self.slot_node[0].shape[0]), int(self.slot_node[1].shape[0]))

    @staticmethod
    def actor_at(history: Sequence[int]) -> int:
        """The player to act after ``history`` (player 0 bids first; they alternate)."""
        return len(history) % 2

    def node_of(self, history: Sequence[int]) -> int:
        """The node reached by the wager numbers ``history`` (strictly increasing)."""
        prev = -1
        for b in history:
            if not prev < b < self.n_bids:
                raise IllegalActionError(
                    f"wager history {list(history)} is not strictly increasing within "
                    f"0..{self.n_bids - 1} (L5: each wager must raise the last)"
                )
            prev = b
        if self._mask_to_node is not None:
            mask = 0
            for b in history:
                mask |= 1 << b
            return int(self._mask_to_node[mask])
        assert self._key_to_node is not None and self.recall is not None
        key = (tuple(int(b) for b in history[len(history) - self.recall:])
               if len(history) > self.recall else tuple(int(b) for b in history),
               self.actor_at(history))
        return self._key_to_node[key]

    def window_node(self, last: Sequence[int], actor: int) -> int:
        """The node of a ``recall=k`` DAG whose remembered wagers are ``last`` (the last
        ``k``, or the whole history when shorter) with player ``actor`` to act."""
        if self._key_to_node is None:
            raise RulesetError("only a recall-k DAG is indexed by its last wagers")
        if self.escapes is not None and last:  # the escape DAG, every escape still left
            return self.escape_node(int(last[-1]), actor, self.escapes)
        node = self._key_to_node.get((tuple(int(b) for b in last), int(actor)))
        if node is None:
            raise IllegalActionError(
                f"no node remembers wagers {list(last)} with player {actor} to act"
            )
        return node

    def escape_node(self, wager: int, actor: int, left: int) -> int:
        """The node of an escape DAG (:meth:`build_escapes`) after ``wager`` with player
        ``actor`` to act and ``left`` escapes left."""
        if self.escapes is None or self._key_to_node is None:
            raise RulesetError("only an escape DAG counts the escapes left")
        node = self._key_to_node.get(((int(wager), int(left)), int(actor)))
        if node is None:
            raise IllegalActionError(
                f"no node after wager {wager} with player {actor} to act and {left} "
                f"escapes left"
            )
        return node

    def slots_at(self, node: int) -> tuple[int, slice]:
        """``(actor, slots)``: who acts at ``node`` and the range of their slots there."""
        a = int(self.node_actor[node])
        seg = int(np.searchsorted(self.player_nodes[a], node))
        lo = int(self.seg_starts[a][seg])
        hi = (int(self.seg_starts[a][seg + 1]) if seg + 1 < self.seg_starts[a].shape[0]
              else self.n_slots[a])
        return a, slice(lo, hi)
