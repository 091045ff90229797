"""A table's options, read and checked in one place (at creation and at ``set_options``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError, bot_kinds, validation_error


def read_options(game: str, data: Mapping[str, Any], prefix: str = "") -> p.TableOptions:
    """``data`` as the options of a ``game`` table; ``prefix`` is where they sit in the
    request (``"options."`` in ``POST /api/tables``), for the error's field.

    Raises:
        ActionError: ``bad-message`` naming the field pydantic refuses, or ``illegal``
            for a stand-in bot the game does not have (listing those it has).
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
    return options


def changed_options(game: str, current: p.TableOptions, changes: Mapping[str, Any],
                    running: bool) -> p.TableOptions:
    """The options after the host's ``set_options`` (``changes`` over ``current``).

    Raises:
        ActionError: as :func:`read_options`; ``conflict`` for a change of ``dice_mode``
            while a game is ``running`` (it changes only between games).
    """
    options = read_options(game, current.model_dump() | dict(changes))
    if options.dice_mode != current.dice_mode and running:
        raise ActionError("conflict", "dice_mode changes only between games")
    return options
