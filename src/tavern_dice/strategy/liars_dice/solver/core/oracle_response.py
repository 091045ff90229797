"""The double oracle's certificate (:mod:`.oracle`, step 3): a player's exact
full-recall best response in the whole round against the other's restricted strategy
extended by the default accusation, the histories it plays to, and the value of a pair
of such strategies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.core.restricted import FloatArray, History, OracleError

StrategyAt = Callable[[History], tuple[list[int], FloatArray] | None]
"""``strategy_at(history)``: the fixed player's ``(actions, probabilities (actions x
hands))`` at a history of the restricted game, or ``None`` outside it (the default:
accuse)."""


@dataclass
class BestResponse:
    """A full-recall best response: its value and the histories it plays to.

    Attributes:
        player: the responder.
        value: its expected payoff (its own sign: payoff to ``player``).
        plays: ``(history, action)`` pairs the responder's best actions take, for hands
            that reach them with positive probability against the fixed player.
        nodes: histories visited.
    """

    player: int
    value: float
    plays: list[tuple[History, int]]
    nodes: int


def best_response(
    game: OracleRound, strategy_at: StrategyAt, player: int, max_nodes: int = 20_000_000,
) -> BestResponse:
    """The exact best response of ``player`` in the whole round against the other
    player's strategy (``strategy_at``, the default accusation outside it)."""
    me, other = player, 1 - player
    liar = game.liar
    n_me = game.hands[me].n_states
    choices: dict[History, tuple[list[int], npt.NDArray[np.int16]]] = {}
    count = 0
    bidder_me = np.array([me])

    def value(history: History, reach: FloatArray) -> FloatArray:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise OracleError(f"the best response passed {max_nodes} histories")
        last = history[-1] if history else -1
        if len(history) % 2 == other:
            at = strategy_at(history)
            if at is None:  # the default: the fixed player accuses my wager
                default: FloatArray = game.accuse_values(
                    me, np.array([last]), bidder_me, reach[None, :]
                )[0]
                return default
            actions, probs = at
            total = np.zeros(n_me)
            for k, action in enumerate(actions):
                child = reach * probs[k]
                if not child.any():
                    continue
                if action == liar:
                    total += game.accuse_values(me, np.array([last]), bidder_me,
                                                child[None, :])[0]
                else:
                    total += value((*history, action), child)
            return total
        options: list[int] = []
        rows: list[FloatArray] = []
        if history:
            options.append(liar)
            rows.append(game.accuse_values(me, np.array([last]), np.array([other]),
                                           reach[None, :])[0])
        outside: list[int] = []
        for action in game.raises(history):
            child = (*history, action)
            if strategy_at(child) is None:
                outside.append(action)
            else:
                options.append(action)
                rows.append(value(child, reach))
        if outside:
            bids = np.array(outside, dtype=np.int64)
            block = game.accuse_values(
                me, bids, np.full(bids.shape[0], me), np.broadcast_to(reach, (len(outside),
                                                                             reach.shape[0])),
            )
            options.extend(outside)
            rows.extend(block)
        stacked = np.stack(rows)
        best = stacked.argmax(axis=0).astype(np.int16)
        choices[history] = (options, best)
        out: FloatArray = stacked.max(axis=0)
        return out

    root = value((), game.hands[other].prob.astype(np.float64))
    total = float(game.hands[me].prob @ root)
    plays = _collect_plays(game, strategy_at, me, choices)
    return BestResponse(me, total, plays, count)


def _collect_plays(
    game: OracleRound, strategy_at: StrategyAt, me: int,
    choices: dict[History, tuple[list[int], npt.NDArray[np.int16]]],
) -> list[tuple[History, int]]:
    """The ``(history, action)`` pairs the best response plays with positive probability:
    walk down from the root with the set of the responder's hands still playing."""
    other = 1 - me
    plays: list[tuple[History, int]] = []
    liar = game.liar
    stack: list[tuple[History, npt.NDArray[np.bool_], FloatArray]] = [
        ((), np.ones(game.hands[me].n_states, dtype=bool),
         game.hands[other].prob.astype(np.float64))
    ]
    while stack:
        history, hands, reach = stack.pop()
        if not hands.any() or not reach.any():
            continue
        if len(history) % 2 == other:
            at = strategy_at(history)
            if at is None:
                continue
            for action, probs in zip(at[0], at[1], strict=True):
                if action != liar:
                    child = reach * probs
                    if child.any():
                        stack.append(((*history, action), hands, child))
            continue
        options, best = choices[history]
        for k in np.unique(best[hands]).tolist():
            action = options[k]
            plays.append((history, action))
            if action != liar:
                stack.append(((*history, action), hands & (best == k), reach))
    return plays


def policy_value(game: OracleRound, at: tuple[StrategyAt, StrategyAt]) -> float:
    """Player 0's expected payoff when both players follow ``at`` (each with the default
    accusation outside its table)."""
    liar = game.liar

    def value(history: History, reach0: FloatArray, reach1: FloatArray) -> float:
        actor = len(history) % 2
        last = history[-1] if history else -1
        found = at[actor](history)
        actions: list[int]
        probs: FloatArray
        if found is None:
            actions, probs = [liar], np.ones((1, game.hands[actor].n_states))
        else:
            actions, probs = found
        total = 0.0
        for k, action in enumerate(actions):
            r0 = reach0 * probs[k] if actor == 0 else reach0
            r1 = reach1 * probs[k] if actor == 1 else reach1
            if not r0.any() or not r1.any():
                continue
            if action == liar:
                v = game.accuse_values(0, np.array([last]), np.array([1 - actor]),
                                       r1[None, :])[0]
                total += float(r0 @ v)
            else:
                total += value((*history, action), r0, r1)
        return total

    return value((), game.hands[0].prob.astype(np.float64), game.hands[1].prob.astype(np.float64))
