"""The value of each action a player could take now, by the project's strongest evaluation.

* **Heads-up, where a shipped table covers the round**
  (:mod:`tavern_dice.strategy.liars_dice.solver.play.tables`):
  the exact expected result of the round, ``+1`` if the opponent loses the die and ``-1``
  if the player does, when both play the solved policy from then on (the opponent's hand
  weighted by the range the table's policy gives it after this round's wagers). A raise
  that leaves the table's histories is met by the table's default, an accusation.
* **Elsewhere** (three or more players, other rules): the ``strong`` bot's lookahead, in
  dice (a die the player loses ``-1``, an opponent's die ``+1 / opponents``).

Both answer "how much does each choice cost against good play": what a post-game review
marks as an inaccuracy, a mistake or a blunder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.view import LiarsDiceView

FloatArray = npt.NDArray[np.floating[Any]]
Method = Literal["solved policy", "lookahead"]


@dataclass(frozen=True)
class Evaluation:
    """Each legal action's value for the player to act, and how it was computed.

    Attributes:
        method: ``'solved policy'`` (round units, ``-1..+1``) or ``'lookahead'`` (dice).
        values: action -> value.
    """

    method: Method
    values: dict[LiarsDiceAction, float]

    @property
    def best(self) -> LiarsDiceAction:
        """The action of highest value (ties: the first listed)."""
        return max(self.values, key=lambda a: self.values[a])

    def loss(self, action: LiarsDiceAction) -> float:
        """How much less ``action`` is worth than the best action."""
        return self.values[self.best] - self.values[action]


def evaluate(view: LiarsDiceView) -> Evaluation:
    """Evaluate every legal action of the seat whose turn ``view`` shows."""
    if view.seat is None or view.turn != view.seat:
        raise ValueError("evaluate the view of the player to act")
    table_values = _table_values(view)
    if table_values is not None:
        return Evaluation("solved policy", table_values)
    return Evaluation("lookahead", _lookahead_values(view))


def _lookahead_values(view: LiarsDiceView) -> dict[LiarsDiceAction, float]:
    from tavern_dice.bots.liars_strong import StrongLiarsDiceBot

    bot = StrongLiarsDiceBot("judge", tables=False)
    return bot.action_values(view)


def _table_values(view: LiarsDiceView) -> dict[LiarsDiceAction, float] | None:
    from tavern_dice.strategy.liars_dice.solver.play.tables import _round_of, load_round

    found = _round_of(view)
    if found is None:
        return None
    key, first, second, player, _ = found
    try:
        table = load_round(key, first, second)
    except (OSError, ValueError):
        return None
    game = table.game
    history = tuple(game.index[w] for _, w in view.round_wagers)
    hand = game.hands[player].index(view.own_dice)
    opponent = 1 - player
    reach = table.opponent_reach(history, player)
    total = float(reach.sum())
    values: dict[LiarsDiceAction, float] = {}
    if history:
        liar = game.accuse_values(player, np.array([history[-1]]), np.array([opponent]),
                                  reach[None, :])[0]
        values[ACCUSE] = float(liar[hand]) / total
    walker = _Walker(table, player, hand)
    for wager in game.raises(history):
        value = walker.after_my_raise((*history, wager), reach)
        values[game.wagers[wager]] = value / total
    return values


class _Walker:
    """Both players follow the table from a history on: the player's value for one hand,
    against the opponent's reach (not normalised)."""

    def __init__(self, table: Any, player: int, hand: int) -> None:
        self.table = table
        self.game = table.game
        self.player = player
        self.hand = hand

    def after_my_raise(self, history: tuple[int, ...], reach: FloatArray) -> float:
        return self._value(history, reach)

    def _value(self, history: tuple[int, ...], reach: FloatArray) -> float:
        game = self.game
        actor = len(history) % 2
        last = history[-1]
        at = self.table.policy_at(history, actor)
        if at is None:
            actions: list[int] = [game.liar]
            probs = np.ones((1, game.hands[actor].n_states))
        else:
            actions, probs = at
        total = 0.0
        for k, action in enumerate(actions):
            if actor == self.player:
                weight = float(probs[k][self.hand])
                if weight <= 0:
                    continue
                branch = reach * weight
            else:
                branch = reach * probs[k]
                if not branch.any():
                    continue
            if action == game.liar:
                v = game.accuse_values(self.player, np.array([last]), np.array([1 - actor]),
                                       branch[None, :])[0]
                total += float(v[self.hand])
            else:
                total += self._value((*history, action), branch)
        return total
