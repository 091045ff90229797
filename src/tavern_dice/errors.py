"""The project's error types.

Every error raised for bad input subclasses :class:`TavernError`, which itself
subclasses :class:`ValueError` (as python-chess does), so callers may catch
either. Messages say what was wrong and what would have been legal; an action
that raises changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class TavernError(ValueError):
    """Base class of every error this project raises for bad input."""


class InvalidActionError(TavernError):
    """An action that is malformed, not one the rules refuse: a quantity of ``2.5`` or
    ``"2"``, a seat given as text, an action name the game does not know, a wager typed
    in a form :func:`~tavern_dice.liars_dice.wager.parse_wager` cannot read (as
    python-chess keeps ``InvalidMoveError`` apart from ``IllegalMoveError``)."""


class IllegalActionError(TavernError):
    """An action that the rules do not allow in the current state.

    Raised, for example, for a wager that does not raise the standing wager,
    an accusation by the wager-maker, a roll by a player whose turn it is not.
    """


class NotYourTurnError(IllegalActionError):
    """An action by a player who may not act now."""


class InvalidDiceError(TavernError):
    """Dice values that cannot come from the dice asked for (wrong count, face out of range)."""


class InsufficientFundsError(IllegalActionError):
    """A bet above a player's balance or outside the table's limits."""


class RulesetError(TavernError):
    """A ruleset whose options contradict each other or are out of range."""


class LogError(TavernError):
    """A saved game log that is malformed or does not replay to the state it records."""


def allowed(check: Callable[..., None], *args: Any) -> bool:
    """Whether ``check(*args)`` passes: ``False`` where it raises an
    :class:`IllegalActionError` or an :class:`InvalidActionError` (each ``can`` query is
    its ``verify`` check, asked this way)."""
    try:
        check(*args)
    except (IllegalActionError, InvalidActionError):
        return False
    return True
