"""Local best response (LBR) to a heads-up round policy, valued exactly.

LBR (Lisy & Bowling, "Equilibrium Approximation Quality of Current No-Limit Poker Bots",
2017) is a cheap exploiter: at each of its decisions it knows the policy's exact range
for the opponent's hand and looks one answer ahead. Liar's Dice's version (the same as
:class:`~tavern_dice.bots.liars_exploit.lookahead.LookaheadExploiter` at ``depth=1``):
accuse, or raise and let the policy answer, after which LBR assumes it ends the round at
once by the better of accusing the policy's raise and making its own likeliest raise and
having it accused.

Its value against the policy is computed here exactly (every hand of both players, every
branch of the policy's play), so it is a true lower bound on the policy's exploitability:
``lbr_gain(table, player) <= best response gain``. Where an exact best response does not
fit, this is the figure to quote.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    # For annotations only: a table's measure() runs LBR, so tables imports this module.
    from tavern_dice.strategy.liars_dice.solver.play.round_table import RoundTable

FloatArray = npt.NDArray[np.floating[Any]]
History = tuple[int, ...]


class _LBR:
    def __init__(self, table: RoundTable, player: int) -> None:
        self.table = table
        self.game = table.game
        self.me = player
        self.other = 1 - player
        self.nodes = 0

    def _policy(self, history: History) -> tuple[list[int], FloatArray]:
        found = self.table.policy_at(history, self.other)
        if found is None:
            return [self.game.liar], np.ones((1, self.game.hands[self.other].n_states))
        return found

    def _truth(self, bids: list[int], reach: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per bid and my hand: the opponent mass making the bid hold; and the total."""
        arr = np.array(bids, dtype=np.int64)
        return self.game.true_mass(self.me, arr, np.broadcast_to(reach, (len(bids),
                                                                           reach.shape[0])))

    def _leaf(self, history: History, reach: FloatArray) -> FloatArray:
        """Per my hand: the better of accusing the standing wager and my likeliest raise
        being accused (not normalised)."""
        bids = [history[-1], *self.game.raises(history)]
        true, total = self._truth(bids, reach)
        accuse = total[0] - 2.0 * true[0]
        if len(bids) == 1:
            out: FloatArray = accuse
            return out
        called = 2.0 * true[1:] - total[1:]
        best: FloatArray = np.maximum(accuse, called.max(axis=0))
        return best

    def _raise_value(self, history: History, wager: int, reach: FloatArray) -> FloatArray:
        """Per my hand: my raise to ``wager``, the policy answers, then :meth:`_leaf`."""
        child = (*history, wager)
        actions, probs = self._policy(child)
        out = np.zeros(self.game.hands[self.me].n_states)
        for k, action in enumerate(actions):
            branch = reach * probs[k]
            if not branch.any():
                continue
            if action == self.game.liar:
                true, total = self._truth([wager], branch)
                out += 2.0 * true[0] - total[0]
            else:
                out += self._leaf((*child, action), branch)
        return out

    def choices(
        self, history: History, reach: FloatArray
    ) -> tuple[list[int], npt.NDArray[np.int64]]:
        """LBR's options here and, per my hand, the index of the one it takes."""
        options: list[int] = []
        rows: list[FloatArray] = []
        if history:
            true, total = self._truth([history[-1]], reach)
            options.append(self.game.liar)
            rows.append(total[0] - 2.0 * true[0])
        for wager in self.game.raises(history):
            options.append(wager)
            rows.append(self._raise_value(history, wager, reach))
        return options, np.stack(rows).argmax(axis=0)

    def value(self, history: History, reach: FloatArray, hands: npt.NDArray[np.bool_]) -> float:
        """My payoff (not normalised) over my ``hands`` still in play, from ``history``."""
        self.nodes += 1
        game = self.game
        actor = len(history) % 2
        if actor == self.other:
            actions, probs = self._policy(history)
            total = 0.0
            for k, action in enumerate(actions):
                branch = reach * probs[k]
                if not branch.any():
                    continue
                if action == game.liar:
                    true, mass = self._truth([history[-1]], branch)
                    # The policy accused my wager: I win if it holds.
                    total += float(game.hands[self.me].prob[hands] @ (2.0 * true[0] -
                                                                     mass[0])[hands])
                else:
                    total += self.value((*history, action), branch, hands)
            return total
        options, pick = self.choices(history, reach)
        total = 0.0
        for index in np.unique(pick[hands]).tolist():
            mine = hands & (pick == index)
            action = options[index]
            if action == game.liar:
                true, mass = self._truth([history[-1]], reach)
                total += float(game.hands[self.me].prob[mine] @ (mass[0] - 2.0 *
                                                                 true[0])[mine])
            else:
                total += self.value((*history, action), reach, mine)
        return total


def lbr_value(table: RoundTable, player: int) -> tuple[float, int]:
    """LBR's expected payoff (its own sign; a round scored +-1) as ``player`` against the
    table's other player, and the histories visited."""
    walker = _LBR(table, player)
    game = table.game
    reach = game.hands[1 - player].prob.astype(np.float64)
    hands = np.ones(game.hands[player].n_states, dtype=bool)
    value = walker.value((), reach, hands)
    return value, walker.nodes


def lbr_exploitability(table: RoundTable) -> float:
    """``(LBR_0 + LBR_1) / 2``: the LBR counterpart of NashConv / 2, a lower bound on the
    table's exploitability."""
    return (lbr_value(table, 0)[0] + lbr_value(table, 1)[0]) / 2.0
