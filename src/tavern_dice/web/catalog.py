"""What a table can be: the games, their rulesets and bots, names and ids, and the error
a table answers with when it refuses something."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from tavern_dice.blackjack.rules import PRESETS as BLACKJACK_PRESETS
from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.bots.registry import BLACKJACK_BOTS, LIARS_DICE_BOTS
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import PRESETS as LIARS_DICE_PRESETS
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web.protocol import MAX_NAME

LIARS_DICE = "liars-dice"
BLACKJACK = "blackjack"
GAMES = (LIARS_DICE, BLACKJACK)
BLACKJACK_MAX_SEATS = 10
"""The Dice Blackjack engine seats 1 to 10 players."""

DEFAULT_STANDIN = {LIARS_DICE: "probabilistic", BLACKJACK: "cautious"}
"""The bot that plays for an away or timed-out person unless the host picks another."""
DEFAULT_BOT_BET_CP = 100
"""What a Blackjack bot bets each round (1 gp), raised to the table minimum."""

Engine = LiarsDiceGame | BlackjackGame
Rules = LiarsDiceRules | BlackjackRules


class ActionError(TavernError):
    """An action the table refuses; ``code`` is the ``error`` frame's code (see
    ``docs/web-protocol.md``). Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def presets(game: str) -> dict[str, Rules]:
    """The engine's named rulesets for ``game``."""
    if game == LIARS_DICE:
        return dict(LIARS_DICE_PRESETS)
    return dict(BLACKJACK_PRESETS)


def bot_kinds(game: str) -> list[str]:
    """The bot kinds the registry offers for ``game``.

    >>> {"random", "probabilistic"} <= set(bot_kinds("liars-dice"))
    True
    """
    return sorted(LIARS_DICE_BOTS if game == LIARS_DICE else BLACKJACK_BOTS)


def build_rules(game: str, preset: str, overrides: dict[str, Any]) -> Rules:
    """A preset with some options replaced, validated by the engine's ruleset.

    >>> build_rules("liars-dice", "tavern", {"dice_per_player": 3}).dice_per_player
    3

    Raises:
        ActionError: an unknown game or preset.
        TavernError: options the engine's ruleset rejects (``RulesetError``).
    """
    if game not in GAMES:
        raise ActionError("bad-message", f"game is one of {list(GAMES)}, not {game!r}")
    named = presets(game)
    if preset not in named:
        raise ActionError("illegal", f"unknown preset {preset!r}; known: {sorted(named)}")
    data = named[preset].to_dict() | overrides
    try:
        if game == LIARS_DICE:
            return LiarsDiceRules.from_dict(data)
        return BlackjackRules.from_dict(data)
    except TypeError as error:
        raise ActionError("illegal", f"invalid rules: {error}") from None


def clean_name(raw: str) -> str:
    """A display name: NFC, trimmed, 1-32 characters, no control characters.

    >>> clean_name("  Ann ")
    'Ann'

    Raises:
        ActionError: empty, too long, or holding control characters.
    """
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ActionError("bad-message", f"a name is 1-{MAX_NAME} characters, not {len(name)}")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise ActionError("bad-message", "a name may not hold control characters")
    return name


def new_id(prefix: str) -> str:
    """A short random id such as ``g_Xz81aQ0pLw4`` (URL-safe, never ``:``)."""
    return f"{prefix}_{secrets.token_urlsafe(8)}"
