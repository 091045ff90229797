"""A table's options, read and checked in one place (at creation and at ``set_options``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError, bot_kinds, validation_error

RATED_GAMES = ("liars-dice",)
"""The games the table option ``rated`` applies to (the rated levels play Liar's Dice)."""


def read_options(game: str, data: Mapping[str, Any], prefix: str = "") -> p.TableOptions:
    """``data`` as the options of a ``game`` table; ``prefix`` is where they sit in the
    request (``"options."`` in ``POST /api/tables``), for the error's field.

    Raises:
        ActionError: ``bad-message`` naming the field pydantic refuses, or ``illegal``
            for a stand-in bot the game does not have (listing those it has), or for
            ``rated`` on a game that has no ratings (only Liar's Dice has).
    """
    try:
        options = p.TableOptions.model_validate(dict(data))
    except ValidationError as error:
        raise validation_error(error, prefix) from None
    kinds = bot_kinds(game)
    if options.standin_bot is not None and options.standin_bot not in kinds:
        where = f"{prefix}standin_bot"
        raise ActionError("illegal", f"{where}: unknown bot {options.standin_bot!r}; "
                          f"known: {kinds}", where)
    if options.rated and game not in RATED_GAMES:
        where = f"{prefix}rated"
        raise ActionError("illegal", f"{where}: only {', '.join(RATED_GAMES)} games are "
                          f"rated, not {game}", where)
    return options


def changed_options(game: str, current: p.TableOptions, changes: Mapping[str, Any],
                    running: bool) -> p.TableOptions:
    """The options after the host's ``set_options`` (``changes`` over ``current``).

    Raises:
        ActionError: as :func:`read_options`; ``conflict`` for a change of ``dice_mode``
            or ``rated`` while a game is ``running`` (they change only between games:
            whether a game is rated is settled before it starts).
    """
    options = read_options(game, current.model_dump() | dict(changes))
    for key in ("dice_mode", "rated"):
        if getattr(options, key) != getattr(current, key) and running:
            raise ActionError("conflict", f"{key} changes only between games")
    return options
