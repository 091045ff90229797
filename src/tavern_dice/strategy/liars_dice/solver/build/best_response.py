"""Exact best responses with full recall against a fixed round policy, for rounds whose
policy support keeps the tree small.

A policy solved with a last-``k``-wagers memory (:mod:`.public_tree`)
is a legal strategy of the real round, but its exploitability measured inside the
abstraction is only a lower bound: an opponent who remembers every wager may gain more.
This module measures it exactly. The best responder sees the whole wager history; the
fixed player's reach over their hands is carried down the histories, so a branch the
fixed player never takes (zero reach for every hand) is pruned, while the best responder
tries every legal action. The tree it walks is therefore the fixed player's support
interleaved with all of the responder's raises: millions of histories at 6 dice in play,
far fewer than the ``2**36`` of the whole round.

Values are exact up to floating point: ``exploitability = (BR_0 + BR_1) / 2`` (NashConv
/ 2, the figure :meth:`~.sweeps.Sweeper.exploitability` reports on
exact trees), in the round's payoff units.

>>> from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
>>> from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundSpec
>>> res = solve_round(RoundSpec((1, 1), wild_face=6, spot_on=False),
...                   target_exploitability=1e-3)
>>> exact = exploitability(res.policy)
>>> abs(exact.exploitability - res.exploitability) < 1e-9
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

PolicyAt = Callable[[tuple[int, ...]], tuple[IntArray, FloatArray]]
"""``policy_at(history) -> (actions, probabilities)``: at the node after ``history`` (wager
numbers), the actor's actions (wager numbers; the accusation is ``n_bids``) and their
probabilities, shape ``(len(actions), n_hands[actor])``."""

Raises = Callable[[tuple[int, ...]], Sequence[int]]
"""``raises(history)``: the wagers (numbers) that may follow ``history``."""


class BestResponseTooBig(TavernError):
    """The pruned tree grew past the node budget: the exact figure does not fit here."""


@dataclass(frozen=True)
class BestResponseResult:
    """One player's exact best response.

    Attributes:
        player: the best responder (0 = first bidder).
        value: the best responder's expected payoff.
        nodes: histories visited.
        seconds: wall time.
    """

    player: int
    value: float
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Exploitability:
    """Both best responses and the policy's own value.

    Attributes:
        exploitability: ``(BR_0 + BR_1) / 2`` (NashConv / 2).
        value: player 0's payoff when both play the policy.
        responses: the two best responses.
    """

    exploitability: float
    value: float
    responses: tuple[BestResponseResult, BestResponseResult]

    @property
    def nodes(self) -> int:
        """Histories visited by both best responses."""
        return self.responses[0].nodes + self.responses[1].nodes

    @property
    def seconds(self) -> float:
        """Time both best responses took."""
        return self.responses[0].seconds + self.responses[1].seconds


def standard_raises(n_bids: int) -> Raises:
    """Raises of a totally ordered round: every higher wager number (L5 ``standard``)."""
    def raises(history: tuple[int, ...]) -> Sequence[int]:
        return range(history[-1] + 1 if history else 0, n_bids)
    return raises


def policy_function(policy: RoundPolicy) -> PolicyAt:
    """``policy_at`` for a solved :class:`RoundPolicy` (exact tree or last-k memory)."""
    tree = policy.tree

    def policy_at(history: tuple[int, ...]) -> tuple[IntArray, FloatArray]:
        node = tree.node_of(history)
        actor, slots = tree.slots_at(node)
        return tree.slot_action[actor][slots], policy.strategy[actor][slots]
    return policy_at


class _Walker:
    """The recursion of one best response (see the module doc)."""

    def __init__(
        self, game: RoundGame, policy_at: PolicyAt, raises: Raises, player: int,
        max_nodes: int, prune: float,
    ) -> None:
        self.game = game
        self.policy_at = policy_at
        self.raises = raises
        self.player = player
        self.liar = game.bids.n_bids
        self.max_nodes = max_nodes
        self.prune = prune
        self.nodes = 0
        # payoff to the responder when `bidder` made wager b and the other accused, as a
        # matrix (responder's hands x fixed player's hands)
        p0 = game.payoff0
        if player == 0:
            self._terminal = p0  # (bidder, b, n0, n1)
        else:
            self._terminal = -p0.transpose(0, 1, 3, 2)

    def terminal(self, bidder: int, bid: int, reach: FloatArray) -> FloatArray:
        out: FloatArray = self._terminal[bidder, bid] @ reach
        return out

    def value(self, history: tuple[int, ...], reach: FloatArray) -> FloatArray:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise BestResponseTooBig(
                f"the best response passed {self.max_nodes} histories; this round does not "
                "fit an exact measurement here"
            )
        actor = len(history) % 2
        me = self.player
        last = history[-1] if history else -1
        if actor != me:
            actions, probs = self.policy_at(history)
            total = np.zeros(self.game.n_states[me])
            for i, action in enumerate(actions.tolist()):
                child = reach * probs[i]
                if child.sum() <= self.prune:
                    continue
                if action == self.liar:
                    total += self.terminal(me, last, child)
                else:
                    total += self.value((*history, action), child)
            return total
        best = np.full(self.game.n_states[me], -np.inf)
        if history:
            np.maximum(best, self.terminal(1 - me, last, reach), out=best)
        for action in self.raises(history):
            np.maximum(best, self.value((*history, action), reach), out=best)
        return best


def best_response(
    game: RoundGame,
    policy_at: PolicyAt,
    player: int,
    raises: Raises | None = None,
    max_nodes: int = 50_000_000,
    prune: float = 0.0,
) -> BestResponseResult:
    """The exact best response of ``player`` (who sees every wager) to ``policy_at``.

    Args:
        game: the round (hands, wagers, payoffs).
        policy_at: the fixed player's behaviour (see :data:`PolicyAt`); only the other
            player's nodes are asked.
        player: the best responder, 0 (first bidder) or 1.
        raises: the legal raises (default: every higher wager number).
        max_nodes: stop with :class:`BestResponseTooBig` past this many histories.
        prune: skip a fixed player's branch whose total reach is at most this (0: exact).
    """
    if player not in (0, 1):
        raise TavernError(f"the best responder is player 0 or 1, not {player!r}")
    start = time.perf_counter()
    walker = _Walker(
        game, policy_at, raises or standard_raises(game.bids.n_bids), player, max_nodes, prune
    )
    other = 1 - player
    values = walker.value((), game.hands[other].prob.astype(np.float64))
    value = float(game.hands[player].prob @ values)
    return BestResponseResult(player, value, walker.nodes, time.perf_counter() - start)


def exploitability(
    policy: RoundPolicy, max_nodes: int = 50_000_000, prune: float = 0.0
) -> Exploitability:
    """Exact NashConv / 2 of ``policy`` against full-recall best responses, and its value."""
    game = policy.game
    policy_at = policy_function(policy)
    responses = (
        best_response(game, policy_at, 0, max_nodes=max_nodes, prune=prune),
        best_response(game, policy_at, 1, max_nodes=max_nodes, prune=prune),
    )
    # The policy's own value: on its own tree or DAG, where a node's expected payoff given
    # both hands does not depend on the history (recall-k) or is the history (exact).
    if policy.recall is None:
        from tavern_dice.strategy.liars_dice.solver.core.sweeps import Sweeper

        value = Sweeper(game, policy.tree).expected_value(policy.strategy)
    else:
        from tavern_dice.strategy.liars_dice.solver.core.dag import DagCFRSolver

        solver = DagCFRSolver(game, policy.tree, dtype=np.float64)
        value = solver.value(policy.strategy)
    br0 = responses[0].value
    br1 = responses[1].value
    return Exploitability((br0 + br1) / 2.0, value, responses)
