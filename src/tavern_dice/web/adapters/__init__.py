"""Each game's web-specific behaviour, one adapter per game, chosen by game name here.

>>> adapter_for("blackjack").default_standin
'cautious'
"""

from __future__ import annotations

from tavern_dice.web.adapters.base import GameAdapter
from tavern_dice.web.adapters.blackjack import BlackjackAdapter
from tavern_dice.web.adapters.liars import LiarsDiceAdapter
from tavern_dice.web.catalog import BLACKJACK, LIARS_DICE, ActionError

ADAPTERS: dict[str, GameAdapter] = {
    LIARS_DICE: LiarsDiceAdapter(),
    BLACKJACK: BlackjackAdapter(),
}
"""The one place the web table picks a game's behaviour by its name."""


def adapter_for(game: str) -> GameAdapter:
    """The adapter of ``game``.

    Raises:
        ActionError: ``bad-message`` for a game the web table does not offer.
    """
    adapter = ADAPTERS.get(game)
    if adapter is None:
        raise ActionError("bad-message", f"game is one of {sorted(ADAPTERS)}, not {game!r}")
    return adapter


__all__ = ["ADAPTERS", "GameAdapter", "adapter_for"]
