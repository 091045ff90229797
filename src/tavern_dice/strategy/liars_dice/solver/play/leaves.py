"""Leaf values of the decision-time search (:mod:`.search`): the blueprint played out.

After the search's two wagers a round is valued by the ``standard`` last-wager blueprint
played out from the new standing wager by both players (``EU`` of :mod:`.dag`, per pair
of hands). One value per leaf lets the searcher assume its opponent keeps to the blueprint
past the horizon, and a search that best-responds to that is exploitable there (Brown,
Sandholm & Amos, "Depth-Limited Solving for Imperfect-Information Games", 2018). With
:data:`CONTINUATIONS` the player who answers at the subgame's second level instead picks,
per leaf and hand, which of several continuations it plays past the horizon (the blueprint,
or the blueprint biased toward accusing or toward raising), the searcher keeping to the
blueprint: the searcher's values are then those of the answer the opponent likes best.
With :data:`RECALL` 2 a leaf whose two wagers rise in the ``standard`` order is valued by
the two-wager blueprint instead. Both ship off: neither measured better against the local
best response (``docs/strategy.md``).

Values are stored at rank :data:`RANK` (an SVD per node) where that is all but exact, and
whole at the low wagers (:data:`DENSE_RESIDUAL`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.wager import AnyWager, Wager, legal_raises
from tavern_dice.strategy.heap import trim
from tavern_dice.strategy.liars_dice.solver.core.dag import DagCFRSolver
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame
from tavern_dice.strategy.liars_dice.solver.play import leaf_cache
from tavern_dice.strategy.liars_dice.solver.play.blueprint import (
    blueprint_game,
    blueprint_tree,
    load_blueprint,
)

FloatArray = npt.NDArray[np.float64]
AnyFloats = npt.NDArray[np.floating[Any]]

RANK = 16
"""Rank kept of each leaf's value matrix."""
DENSE_RESIDUAL = 1e-3
"""A node whose rank-:data:`RANK` SVD leaves more than this share of its value matrix
(Frobenius norm) is kept whole instead. At 5 v 5 those are the low wagers (43 of 120
nodes: quantities up to 3-4), where a round starts and an escape lands: rank 16 left 20 %
of the lowest ones' matrices (12-14 % at rank 32, 5-6 % at 64, 1 % at 128), entries off by
up to 1.7 on the +-1 scale; the higher wagers are exact to rounding at rank 16."""
SVD_POWER = 0
"""Subspace iterations of :func:`truncated_svd` for the leaves. **0**: the matrices that
rank :data:`RANK` keeps are all but exactly of that rank, and a plain range finder finds
them; at every round from 5 v 5 to 5 v 2 it keeps the same nodes whole as 2 iterations do
(43 of 120 at 5 v 5), at about half the time (5 v 5: 123 against 242 ms of CPU)."""
RECALL = 1
"""The blueprint memory the leaves are valued with: 1, the last wager; 2, the actor's own
last wager too, where the two rise in the ``standard`` order (else the last-wager one).
**1**: with 2, ``lbr`` won 123 of 200 single 4 v 3 rounds of the seed's rules against 131
as shipped, and under the ``standard`` raise the search so played no better than the
two-wager blueprint alone (209 of 400 each); at 5 v 5 its values take 263 MB a player and
about 2 minutes to build (``docs/strategy.md``)."""
CONTINUATIONS: tuple[str, ...] = ("blueprint",)
"""What the answering player may play past the horizon, one value set each: ``blueprint``;
``accuse`` and ``raise``, the blueprint with that kind of action's chances multiplied by
:data:`BIAS` (then renormalised); ``best``, its recall-1 best response to the blueprint.
The answering player picks among them only in the searcher's own solves. **The blueprint
alone**: with ``accuse`` and ``raise`` too, ``lbr`` won 65 of 100 single 4 v 3 rounds
against 61 as shipped (the same seeds), and each search took 2.5-3 times as long."""
BIAS = 5.0
"""How much a biased continuation favours its kind of action."""
ESCAPES = 0
"""With a count above 0, the leaves are valued by an *escape-aware* last-wager blueprint
instead of the ``standard`` one: CFR (:data:`ESCAPE_ITERATIONS`) on the DAG where, past
the horizon, either player may also make up to this many of the seed's ``either``-only
raises (a higher face at a lower quantity; :meth:`.PublicTree.build_escapes`), solved when
a round's values are first built (about 2 minutes at 4 v 4). **Off**: on the same 100
rounds of 4 v 4 ``lbr`` gained 0.391 [0.324, 0.458] a round with 2 escapes and 0.433
[0.361, 0.504] with 1, against 0.310 [0.246, 0.374] as shipped (``docs/strategy.md``)."""
ESCAPE_ITERATIONS = 600
"""CFR iterations of the escape-aware blueprint (the shipped last-wager ones': 600)."""


@dataclass(frozen=True)
class Factors:
    """One actor's leaf values, per continuation ``c`` of the other and node ``n``:
    ``u[c, n] @ vt[c, n]`` at rank :data:`RANK`, or, where ``slot[n] >= 0``, the whole
    matrix :meth:`whole` reads from ``dense[c, slot[n]]``: as stored, or, with ``flip``,
    minus its transpose (the other actor's, shared: 11 MB a player at 5 v 5)."""

    u: npt.NDArray[np.float32]
    vt: npt.NDArray[np.float32]
    slot: npt.NDArray[np.int64]
    dense: npt.NDArray[np.float32]
    flip: bool = False

    def blueprint(self) -> Factors:
        """These values with only the first continuation (the blueprint)."""
        return Factors(self.u[:1], self.vt[:1], self.slot, self.dense[:1], self.flip)

    def whole(self, slots: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """``(continuations, len(slots), n_a, n_b)``: the whole matrices of ``slots``
        (rows the actor's hands), copied out."""
        found = self.dense[:, slots]
        return -np.swapaxes(found, 2, 3) if self.flip else found

    def other(self) -> Factors:
        """The other actor's values, where both read the same matrices (the blueprint
        alone): ``-(U Vt)^T = (-Vt^T) U^T``, the whole matrices shared."""
        return Factors(-np.swapaxes(self.vt, 2, 3), np.swapaxes(self.u, 2, 3), self.slot,
                       self.dense, not self.flip)


@dataclass(frozen=True)
class Memory:
    """The blueprint of one memory (last-wager or two-wager) of a round: its DAG, both
    players' strategies (slots x hands) and ``eu``, ``(nodes, n0, n1)``, the first
    bidder's expected score from each node with both players on it. The last two are
    ``None`` once the leaves are factored (:meth:`LeafValues.slim`)."""

    tree: PublicTree
    strategy: tuple[FloatArray, FloatArray] | None
    eu: npt.NDArray[np.float32] | None


@dataclass(frozen=True)
class LeafValues:
    """One round's blueprint values, per node of its last-wager DAG, then (with
    :data:`RECALL` 2) of its two-wager DAG, factored per actor and continuation.

    Attributes:
        first, second: the round's dice (first bidder, second).
        game: the round (wagers, hands).
        memories: the last-wager blueprint, then the two-wager one where it is read.
        factors: per actor, :meth:`factored` (built on first use).
        svds: :meth:`_decomposed`'s, kept.
    """

    first: int
    second: int
    game: RoundGame
    memories: tuple[Memory, ...]
    factors: dict[int, Factors]
    svds: dict[tuple[int, str, int], tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                           npt.NDArray[np.bool_]]] = field(default_factory=dict)

    @property
    def tree(self) -> PublicTree:
        """The last-wager DAG."""
        return self.memories[0].tree

    @property
    def eu(self) -> npt.NDArray[np.float32]:
        """The last-wager blueprint's values (:func:`build_leaf_values`'s; a slim set has
        none)."""
        return self._kept(0)[1]

    @property
    def strategy(self) -> tuple[FloatArray, FloatArray]:
        return self._kept(0)[0]

    def _kept(self, memory: int) -> tuple[tuple[FloatArray, FloatArray],
                                          npt.NDArray[np.float32]]:
        found = self.memories[memory]
        if found.eu is None or found.strategy is None:
            raise ValueError("these leaf values are slim (factored, the blueprint's values "
                             "dropped): build_leaf_values keeps them")
        return found.strategy, found.eu

    def slim(self) -> LeafValues:
        """These values as the search keeps them: both actors' factors, built now, and
        nothing else of the blueprint's values (5 v 5: 19 MB, against 70 MB whole)."""
        factors = {actor: self.factored(actor) for actor in (0, 1)}
        memories = tuple(Memory(m.tree, None, None) for m in self.memories)
        return LeafValues(self.first, self.second, self.game, memories, factors)

    def node(self, wager: AnyWager, actor: int) -> int:
        """The last-wager node of standing ``wager`` with ``actor`` to act."""
        return int(self.tree.window_node([self.game.bids.index(wager)], actor))

    def leaf(self, own: AnyWager, standing: AnyWager, actor: int) -> int:
        """The leaf's node, numbered across memories: the two-wager node of ``actor``'s
        ``own`` last wager and the ``standing`` one where they rise in the ``standard``
        order and that blueprint is read, else the last-wager node."""
        mine, theirs = self.game.bids.index(own), self.game.bids.index(standing)
        if len(self.memories) > 1 and mine < theirs:
            return self.tree.n_nodes + int(
                self.memories[1].tree.window_node([mine, theirs], actor))
        return self.node(standing, actor)

    def continued(self, player: int, how: str, memory: int = 0) -> npt.NDArray[np.float32]:
        """``EU`` (first bidder's score) of blueprint ``memory`` with ``player`` playing
        continuation ``how``."""
        strategy, eu = self._kept(memory)
        if how == "blueprint":
            return eu
        if how not in ("accuse", "raise", "best"):
            raise ValueError(f"unknown continuation {how!r}: blueprint, accuse, raise or best")
        tree = self.memories[memory].tree
        if how == "best":
            return _play_out(self.game, tree, strategy, strategy, best=player)
        sigma = [strategy[0], strategy[1]]
        accuse = tree.slot_action[player] == tree.n_bids
        favoured = accuse if how == "accuse" else ~accuse
        biased = sigma[player] * np.where(favoured, BIAS, 1.0)[:, None]
        total = np.add.reduceat(biased, tree.seg_starts[player], axis=0)[tree.slot_seg[player]]
        sigma[player] = biased / np.where(total > 0, total, 1.0)
        return _play_out(self.game, tree, (sigma[0], sigma[1]), strategy)

    def factored(self, actor: int) -> Factors:
        """The actor's leaf values as the search reads them, one set per continuation of
        the other: rank :data:`RANK` where that keeps all but :data:`DENSE_RESIDUAL` of a
        node's matrix in every set, else the whole matrix."""
        found = self.factors.get(actor)
        if found is not None:
            return found
        other = self.factors.get(1 - actor)
        if other is not None and CONTINUATIONS == ("blueprint",):
            self.factors[actor] = other.other()
            return self.factors[actor]
        n_c = len(CONTINUATIONS)
        # Each continuation played out once, held while its SVD and whole matrices are
        # read (a reference for the blueprint; 30 MB a biased one at 5 v 5).
        eus = {(how, memory): self.continued(1 - actor, how, memory)
               for how in CONTINUATIONS for memory in range(len(self.memories))}
        sets = [[self._decomposed(memory, how, 1 - actor, eus[how, memory])
                 for memory in range(len(self.memories))] for how in CONTINUATIONS]
        whole = np.asarray(np.stack(
            [np.concatenate([f for _, _, f in per]) for per in sets]).any(axis=0))
        slot = np.full(whole.shape[0], -1, dtype=np.int64)
        slot[whole] = np.arange(int(whole.sum()))
        us, vts, dense = [], [], []
        for how, per in zip(CONTINUATIONS, sets, strict=True):
            lo = 0
            for memory, (u, vt, _) in enumerate(per):
                # The other actor's matrix is minus the transpose: -(U Vt)^T = (-Vt^T) U^T.
                us.append(u if actor == 0 else -np.swapaxes(vt, 1, 2))
                vts.append(vt if actor == 0 else np.swapaxes(u, 1, 2))
                kept = whole[lo:lo + u.shape[0]]
                lo += u.shape[0]
                if kept.any():
                    m = eus[how, memory][kept]
                    dense.append(m if actor == 0 else -np.swapaxes(m, 1, 2))
        n_a, n_b = self.game.n_states[actor], self.game.n_states[1 - actor]
        found = Factors(
            np.concatenate(us).reshape(n_c, whole.shape[0], n_a, -1),
            np.concatenate(vts).reshape(n_c, whole.shape[0], -1, n_b),
            slot, (np.concatenate(dense) if dense else np.zeros((0, n_a, n_b))).reshape(
                n_c, -1, n_a, n_b).astype(np.float32, copy=False))
        self.factors[actor] = found
        return found

    def _decomposed(self, memory: int, how: str, player: int,
                    eu: npt.NDArray[np.float32]) -> tuple[
            npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """``(U s, Vt, whole)``: the first bidder's value matrices ``eu`` of blueprint
        ``memory``, ``player`` playing on as ``how``, at rank :data:`RANK` (float32), and
        which nodes that leaves more than :data:`DENSE_RESIDUAL` of; kept, and shared by both actors
        where ``how`` is the blueprint (an SVD serves a matrix and its transpose)."""
        key = (memory, how, -1 if how == "blueprint" else player)
        found = self.svds.get(key)
        if found is None:
            us, vts, flags = [], [], []
            for lo in range(0, eu.shape[0], 64):  # in chunks: a residual's copy is 16 MB
                chunk = eu[lo:lo + 64]
                u, s, vt, left = truncated_svd(chunk, RANK, power=SVD_POWER)
                us.append(u * s[:, None, :])
                vts.append(vt)
                total = np.square(chunk).sum(axis=(1, 2), dtype=np.float64)
                flags.append((total > 0) & (left > DENSE_RESIDUAL**2 * total))
            # float32: the searches stream these; half the bytes is half the time.
            found = (np.concatenate(us).astype(np.float32), np.concatenate(vts).astype(
                np.float32), np.concatenate(flags))
            self.svds[key] = found
        return found

    def dice_of(self, player: int) -> int:
        return self.first if player == 0 else self.second

    def raise_accused(self, actor: int, wager: AnyWager) -> tuple[FloatArray, FloatArray]:
        """``(U, Vt)`` with ``U @ Vt`` the actor's score (rows its hands) when its raise
        ``wager`` is accused: ``U`` one-hot of the actor's count of the face, ``Vt`` +1
        where that count and the other's reach the quantity (L8: true, the accuser pays)."""
        assert isinstance(wager, Wager)
        counts = self.counts
        mine = counts[actor][:, wager.face - 1]
        theirs = counts[1 - actor][:, wager.face - 1]
        size = self.dice_of(actor) + 1
        u = (mine[:, None] == np.arange(size)[None, :]).astype(np.float64)
        vt = np.where(np.arange(size)[:, None] + theirs[None, :] >= wager.quantity, 1.0, -1.0)
        return u, vt

    @cached_property
    def counts(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Per player and hand, the dice counting toward each face (L6 wilds included)."""
        wild = self.game.spec.wild_face
        return (self.game.hands[0].effective_counts(wild),
                self.game.hands[1].effective_counts(wild))

    def standing_accused(self, actor: int, wager: AnyWager, reach: FloatArray) -> FloatArray:
        """The actor's score per hand when it accuses the other's ``wager``, the other's
        hands weighted by ``reach``: minus the other's score for its accused raise."""
        u, vt = self.raise_accused(1 - actor, wager)
        out: FloatArray = -(vt.T @ (u.T @ reach))
        return out


@lru_cache(maxsize=2)
def leaf_values(key: str, first: int, second: int) -> LeafValues:
    """The blueprint values of round ``(first, second)`` under blueprint ``key`` as the
    search reads them (:meth:`LeafValues.slim`; about 0.4 s of CPU to build at 5 v 5 from
    the last-wager blueprint, 19 MB kept), read from the disk cache where an earlier
    process built them (:mod:`.leaf_cache`; milliseconds, the pages shared). Two rounds are
    kept: a heads-up game meets each round size once, from the biggest down, so a longer
    memory would hold rounds the game has left behind."""
    name = _cache_entry(key, first, second)
    stored = leaf_cache.read(name) if name is not None else None
    if stored is not None:
        found = _from_cache(key, first, second, stored)
        if found is not None:
            return found
    found = build_leaf_values(key, first, second).slim()
    trim()  # the build's temporaries, back to the system
    if name is not None:
        mine = found.factors[0]
        leaf_cache.write(name, {"u": mine.u, "vt": mine.vt, "slot": mine.slot,
                                "dense": mine.dense})
    return found


def _cache_entry(key: str, first: int, second: int) -> str | None:
    """The round's disk-cache entry, or ``None`` where the cache is off or the leaves are not
    the shipped kind (a research setting: two memories, continuations, escapes), which are
    built each time."""
    if (RECALL != 1 or ESCAPES or CONTINUATIONS != ("blueprint",)
            or leaf_cache.cache_folder() is None):  # no entry: the blueprint not hashed
        return None
    return leaf_cache.entry_name(key, first, second,
                                 f"rank={RANK}|residual={DENSE_RESIDUAL}|power={SVD_POWER}")


def _from_cache(key: str, first: int, second: int,
                stored: dict[str, npt.NDArray[Any]]) -> LeafValues | None:
    """Slim leaf values over a cache entry's arrays, or ``None`` if they do not fit the
    round (then it is built again and the entry replaced)."""
    game = blueprint_game(key, first, second)
    tree = blueprint_tree(game.bids.n_bids, 1)
    u, vt, slot, dense = (stored[k] for k in leaf_cache.ARRAYS)
    n0, n1 = game.n_states
    nodes = tree.n_nodes
    if (u.dtype != np.float32 or vt.dtype != np.float32 or dense.dtype != np.float32
            or slot.dtype != np.int64 or u.ndim != 4 or vt.ndim != 4 or dense.ndim != 4
            or u.shape[:3] != (1, nodes, n0) or vt.shape[:2] != (1, nodes)
            or vt.shape[2:] != (u.shape[3], n1) or slot.shape != (nodes,)
            or dense.shape != (1, int((slot >= 0).sum()), n0, n1)
            or not np.array_equal(slot[slot >= 0], np.arange(dense.shape[1]))):
        return None
    mine = Factors(u, vt, slot, dense)
    return LeafValues(first, second, game, (Memory(tree, None, None),),
                      {0: mine, 1: mine.other()})


def build_leaf_values(key: str, first: int, second: int) -> LeafValues:
    """The blueprint values of round ``(first, second)`` under blueprint ``key``, whole
    (``eu``, 30 MB at 5 v 5) and not kept: for measures and tests."""
    if ESCAPES:
        game = load_blueprint(key, first, second).game
        return LeafValues(first, second, game, (escape_memory(game, ESCAPES),), {})
    memories = []
    for recall in range(1, RECALL + 1):
        bp = load_blueprint(key, first, second, recall=recall)
        s0, s1 = (np.asarray(p, dtype=np.float64) for p in bp.strategy)
        eu = _play_out(bp.game, bp.tree, (s0, s1), (s0, s1))
        memories.append(Memory(bp.tree, (s0, s1), eu))
    return LeafValues(first, second, bp.game, tuple(memories), {})


def escape_targets(game: RoundGame) -> list[list[int]]:
    """Per wager of ``game`` (numbered in the ``standard`` order), the lower-numbered
    wagers the seed's ``either`` raise (L5) also allows after it: its escapes."""
    bids = game.bids
    either = TAVERN.replace(sides=bids.sides)
    out: list[list[int]] = []
    for i in range(bids.n_bids):
        raises = legal_raises(either, bids.n_dice, bids.wager(i), False)
        out.append(sorted(j for j in map(bids.index, raises) if j < i))
    return out


def escape_memory(game: RoundGame, escapes: int,
                  iterations: int | None = None) -> Memory:
    """The escape-aware last-wager blueprint of ``game`` (:data:`ESCAPES`): its DAG, both
    players' average strategies after ``iterations`` (:data:`ESCAPE_ITERATIONS`) of CFR,
    and its values with both on it."""
    tree = PublicTree.build_escapes(game.bids.n_bids, escape_targets(game), escapes)
    solver = DagCFRSolver(game, tree)
    solver.iterate(ESCAPE_ITERATIONS if iterations is None else iterations)
    s0, s1 = (np.asarray(p, dtype=np.float64) for p in solver.average())
    return Memory(tree, (s0, s1), _play_out(game, tree, (s0, s1), (s0, s1)))


def _play_out(game: RoundGame, tree: PublicTree, sigma: tuple[FloatArray, FloatArray],
              reached: tuple[FloatArray, FloatArray], best: int | None = None,
              ) -> npt.NDArray[np.float32]:
    """``EU`` (first bidder's score, ``(nodes, n0, n1)``) of both players on ``sigma``
    (``best``: that player instead best-responding, per node and hand), the players'
    reaches those of ``reached``. A best response is swept on a game of its own: its float64
    accusation payoffs (60 MB at 5 v 5) go with it, not onto the blueprint's cached
    ``game``."""
    if best is None:
        # The values alone build their payoffs in float32 and keep none of them.
        return DagCFRSolver(game, tree).values(sigma).astype(np.float32, copy=False)
    solver = DagCFRSolver(RoundGame.build(game.spec), tree)
    reach = (solver.ops.reach(0, reached[0]), solver.ops.reach(1, reached[1]))
    eu, _ = solver.sweep(sigma, reach, best=best)
    return eu.astype(np.float32)


def truncated_svd(
    m: AnyFloats, rank: int, oversample: int = 8, power: int = 2
) -> tuple[AnyFloats, AnyFloats, AnyFloats, FloatArray]:
    """``(U, s, Vt, left)`` of a batch of matrices ``m`` at ``rank``, and per matrix the
    squared Frobenius norm the rank leaves out.

    A randomised range finder (Halko, Martinsson & Tropp 2011: ``rank + oversample``
    Gaussian probes, ``power`` subspace iterations), then the SVD of the small projection.
    The leaves only need rank 16 and how much it leaves out; on the 5 v 5 leaves this gives
    the full SVD's rank-16 factors to 1e-11 (float64) and the same whole-matrix nodes, in a
    sixth of its time (5.8 s against 33.9 s of CPU on a busy machine). It works in ``m``'s
    dtype: the leaves' float32 halves the bytes again. ``left`` is the residual's, summed
    in float64. The probes come from a fixed seed, so a search replays exactly.
    """
    rows, cols = m.shape[1], m.shape[2]
    k = min(rank + oversample, rows, cols)
    if k >= min(rows, cols):  # nothing to gain: the plain SVD
        u, s, vt = np.linalg.svd(m, full_matrices=False)
        r = min(rank, s.shape[1])
        return u[:, :, :r], s[:, :r], vt[:, :r], (s[:, r:].astype(np.float64) ** 2).sum(axis=1)
    probes = np.random.default_rng(0).standard_normal((cols, k)).astype(m.dtype)
    q, _ = np.linalg.qr(m @ probes)
    for _ in range(power):
        z, _ = np.linalg.qr(np.swapaxes(m, 1, 2) @ q)
        q, _ = np.linalg.qr(m @ z)
    u_small, s, vt = np.linalg.svd(np.swapaxes(q, 1, 2) @ m, full_matrices=False)
    r = min(rank, k)
    u = q @ u_small[:, :, :r]
    # What the rank leaves out, from the residual itself: |m|^2 - |s|^2 cancels to
    # rounding in float32 where the rank keeps all but a millionth.
    rest = m - (u * s[:, None, :r]) @ vt[:, :r]
    left = np.square(rest, out=rest).sum(axis=(1, 2), dtype=np.float64)
    return u, s[:, :r], vt[:, :r], left
