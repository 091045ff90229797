"""Rounds that would never end: the cap that stops them (``repeat_wagers`` on, L5b).

With repeated wagers allowed under the ``either`` raise rule, agents may pass the same
wagers round for ever; whoever runs a table (the terminal runner, the web table's bots)
stops such a round with :func:`check_round_cap`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavern_dice.errors import TavernError

if TYPE_CHECKING:
    from tavern_dice.liars_dice.state import LiarsDiceGame

ROUND_CAP_FACTOR = 10
"""With ``repeat_wagers`` on under the ``either`` rule a round has no end; the runner stops
one after this many times ``sides x dice in play`` wagers (every other round ends within
``sides x dice in play``, L5b)."""


class DecisionCapError(TavernError):
    """A game stopped by the runner because its agents would not end it (also from
    ``tavern_dice.play.runner``, where it was defined first)."""


def decision_cap(game: LiarsDiceGame) -> int:
    """The most decisions a game of ``game``'s table can take when every round ends within
    its :attr:`~LiarsDiceGame.round_wager_limit`: each round costs at least one die, and
    holds at most ``sides x dice in play`` wagers and one accusation."""
    dice = sum(game.starting_dice)
    per_round = game.rules.sides * dice + 1
    if game.rules.repeat_wagers:
        per_round *= ROUND_CAP_FACTOR
    return max(dice - 1, 1) * per_round


def check_round_cap(game: LiarsDiceGame) -> None:
    """Stop a round that has gone round too long (repeats on, see :data:`ROUND_CAP_FACTOR`).

    Raises:
        DecisionCapError: naming the round, its wagers and the option that allows this.
    """
    if game.round_wager_limit is not None:
        return
    cap = ROUND_CAP_FACTOR * game.rules.sides * game.dice_in_play
    if len(game.round_wagers) >= cap:
        recent = ", ".join(str(w) for _, w in game.round_wagers[-4:])
        raise DecisionCapError(
            f"round {game.round} has gone on for {len(game.round_wagers)} wagers (the last: "
            f"{recent}) without an accusation: with repeat_wagers on, the 'either' raise "
            "rule lets wagers come round again for ever; stopped. Play with repeated "
            "wagers forbidden (the tavern preset, L5b) to make every round end."
        )
