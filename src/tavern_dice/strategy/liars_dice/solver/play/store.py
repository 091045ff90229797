"""The shipped equilibrium policies by rules key: what a bot asks them.

A thin layer over :mod:`.tables` (the double oracle's heads-up
policies, full recall, stored as ``uint16``): the probabilities of each action for a hand
and this round's wagers, and the match win probabilities that follow from the rounds'
values. Rules keys are those of :data:`~.tables.TABLE_RULES`:
``'tavern'`` (the seed: ``either`` raise, no repeated wager) and ``'tavern-standard'``.

>>> from tavern_dice.liars_dice.actions import Accuse
>>> from tavern_dice.liars_dice.wager import Wager
>>> probs = equilibrium_action_probabilities(
...     "tavern-standard", my_dice=[5, 2], their_dice=2, i_start=False, history=[Wager(1, 5)])
>>> abs(sum(probs.values()) - 1) < 1e-9 and Accuse() in probs
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import NotYourTurnError, TavernError
from tavern_dice.liars_dice.actions import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.strategy.liars_dice.solver.core.match import win_probabilities
from tavern_dice.strategy.liars_dice.solver.play.tables import (
    MAX_DICE,
    TABLE_RULES,
    TableError,
    data_path,
    load_round,
    metadata,
)

Action = LiarsDiceAction
"""A wager (raise) or the accusation ``Accuse()``: the engine's actions."""

RULES_KEYS = tuple(TABLE_RULES)


def equilibrium_action_probabilities(
    rules_key: str,
    my_dice: Sequence[int],
    their_dice: int,
    i_start: bool,
    history: Sequence[AnyWager],
) -> dict[Action, float]:
    """Equilibrium probabilities of each legal action for the player to act.

    Args:
        rules_key: one of :data:`RULES_KEYS`.
        my_dice: the acting player's dice (any order).
        their_dice: how many dice the opponent holds.
        i_start: whether the acting player bid first this round.
        history: this round's wagers so far.

    Raises:
        NotYourTurnError: the history says the opponent is to act.
        TavernError: no table for the key, dice or wagers.
    """
    player = 0 if i_start else 1
    if len(history) % 2 != player:
        raise NotYourTurnError(
            f"after {len(history)} wagers it is the "
            f"{'first' if len(history) % 2 == 0 else 'second'} bidder's turn"
        )
    mine = len(my_dice)
    dice = (mine, their_dice) if i_start else (their_dice, mine)
    table = load_round(rules_key, *dice)
    game = table.game
    try:
        numbers = tuple(game.index[w] for w in history)
        hand = game.hands[player].index(my_dice)
    except KeyError as error:
        raise TavernError(f"{error} is not a wager of a {dice} round") from None
    actions, probs = table.policy(numbers, [hand])
    return {
        (ACCUSE if a == game.liar else game.wagers[a]): float(p)
        for a, p in zip(actions, probs[0], strict=True) if p > 0
    }


@lru_cache(maxsize=4)
def _win(rules_key: str) -> npt.NDArray[np.float64]:
    values = {tuple(r["dice"]): float(r["value"]) for r in metadata(rules_key)["rounds"]}
    # A match from (n, n) passes through every round with at most n dice a side.
    covered = max((n for n in range(MAX_DICE + 1)
                   if all((a, b) in values for a in range(1, n + 1)
                          for b in range(1, n + 1))), default=0)
    return win_probabilities(values, covered)


def match_win_probability(rules_key: str, d_mine: int, d_theirs: int, i_start: bool) -> float:
    """Probability of winning the two-player match from this state when both play the
    shipped policies (backward induction over the rounds' values,
    :func:`~.match.win_probabilities`).

    Raises:
        TableError: the table lacks a round the match could reach from there.
    """
    win = _win(rules_key)
    covered = win.shape[0] - 1
    if not (0 <= d_mine <= covered and 0 <= d_theirs <= covered):
        raise TableError(
            f"the {rules_key} table covers whole matches up to {covered} dice a side, "
            f"not {(d_mine, d_theirs)}"
        )
    return float(win[d_mine, d_theirs, 0 if i_start else 1])


__all__ = [
    "RULES_KEYS", "Action", "data_path", "equilibrium_action_probabilities",
    "match_win_probability",
]
