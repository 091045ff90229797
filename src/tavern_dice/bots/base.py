"""The agent interface shared by bots and people.

A seat at the table is an *agent*. Agents see only their own view (the same
:class:`~tavern_dice.liars_dice.view.LiarsDiceView` or
:class:`~tavern_dice.blackjack.view.BlackjackView` a person is shown) and
answer with one of the engine's actions (:mod:`tavern_dice.liars_dice.actions`,
:mod:`tavern_dice.blackjack.actions`), which the engine checks:
:meth:`tavern_dice.games.GameDefinition.answer` asks them, in the game's asking order,
and applies what they answer as it is. Bots, the terminal's human seat and the web
table's seats all implement these protocols.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.liars_dice.actions import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.view import LiarsDiceView

if TYPE_CHECKING:
    # Only the annotations name NumPy: the registry imports this module, and importing the
    # registry (and so tavern_dice.games) must not cost NumPy's import.
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACCUSE", "BlackjackAgent", "LiarsDiceAction", "LiarsDiceAgent",
    "MixedLiarsDiceAgent", "RangeAccuser", "RangeLiarsDiceAgent",
]


@runtime_checkable
class LiarsDiceAgent(Protocol):
    """Plays one Liar's Dice seat."""

    name: str

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """On the agent's turn: one of ``view.legal_wagers``, or ``Accuse()`` (if
        ``view.may_accuse``)."""
        ...

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """Out of turn, after another player's wager: whether to accuse it now (L7)."""
        ...


@runtime_checkable
class BlackjackAgent(Protocol):
    """Plays one Dice Blackjack seat."""

    name: str

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        """``Bet(cp)`` with an amount within ``view.bet_limits``, or ``SitOut()``."""
        ...

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        """On the agent's turn, after at least one d12: ``Roll()``, or ``Stand(bonus)`` with
        a bonus from ``view.legal_bonuses``."""
        ...


@runtime_checkable
class MixedLiarsDiceAgent(LiarsDiceAgent, Protocol):
    """A Liar's Dice agent that can say how likely it is to take each action on its turn
    (a randomised bot reports its mixed strategy, so a model of it is exact)."""

    def action_probabilities(self, view: LiarsDiceView) -> dict[LiarsDiceAction, float]:
        """On the agent's turn: the chance of each action (summing to 1)."""
        ...


@runtime_checkable
class RangeLiarsDiceAgent(LiarsDiceAgent, Protocol):
    """A Liar's Dice agent that can answer for many hands at once: what it would do on its
    turn with each of ``hands`` as its own dice (``view.own_dice`` is ignored)."""

    def range_policy(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[LiarsDiceAction, ...], npt.NDArray[np.floating[Any]]]:
        """``(actions, probabilities)``: shape ``(len(hands), len(actions))``, rows sum to 1."""
        ...


@runtime_checkable
class RangeAccuser(LiarsDiceAgent, Protocol):
    """A Liar's Dice agent that can say, for many hands at once, how likely it is to accuse
    out of turn (L7): what :meth:`~LiarsDiceAgent.wants_to_accuse` would answer with each
    of ``hands`` as its own dice. A model of it then reads a pass as exactly as a wager."""

    def accuse_chances(
        self, view: LiarsDiceView, hands: Sequence[tuple[int, ...]]
    ) -> npt.NDArray[np.floating[Any]]:
        """Shape ``(len(hands),)``: the chance it accuses the standing wager now, per hand."""
        ...


def one_action_per_hand(
    chosen: Sequence[LiarsDiceAction],
) -> tuple[tuple[LiarsDiceAction, ...], npt.NDArray[np.float64]]:
    """A deterministic bot's :meth:`RangeLiarsDiceAgent.range_policy` answer from the
    action it picks with each hand: the distinct actions, first seen first, and a row per
    hand with 1 on its action."""
    import numpy as np  # here, not at the top: see the TYPE_CHECKING import

    actions = tuple(dict.fromkeys(chosen))
    column = {action: j for j, action in enumerate(actions)}
    rows = np.zeros((len(chosen), len(actions)))
    rows[np.arange(len(chosen)), [column[a] for a in chosen]] = 1.0
    return actions, rows
