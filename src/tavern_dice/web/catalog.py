"""What a table can be: the games, their rulesets and bots, names and ids, and the error
a table answers with when it refuses something."""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

from pydantic import ValidationError

from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.errors import TavernError
from tavern_dice.games import GameDefinition
from tavern_dice.games import game as registry_game
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web.names import RESERVED_NAMES, reserved
from tavern_dice.web.protocol import MAX_NAME

LIARS_DICE = "liars-dice"
BLACKJACK = "blackjack"
GAMES = (LIARS_DICE, BLACKJACK)

Engine = LiarsDiceGame | BlackjackGame
Rules = LiarsDiceRules | BlackjackRules


KINDS: dict[str, GameDefinition] = {name: registry_game(name) for name in GAMES}
"""Each game the web offers, by name: its definition in the registry
(:mod:`tavern_dice.games`); the web's own per-game behaviour is in
:mod:`tavern_dice.web.adapters`."""


class ActionError(TavernError):
    """An action the table refuses; ``code`` is the ``error`` frame's code (see
    ``docs/web-protocol.md``). Nothing changed. ``field`` names the request field at
    fault (``rules.sides``, ``options.grace_s``, ``name``) where there is one."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


def validation_error(error: ValidationError, prefix: str = "") -> ActionError:
    """Pydantic's first complaint as a ``bad-message`` refusal naming the field
    (``options.grace_s: Input should be a valid integer``)."""
    first = error.errors()[0]
    where = prefix + ".".join(str(x) for x in first["loc"])
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return ActionError("bad-message", message, where or None)


def presets(game: str) -> dict[str, Rules]:
    """The engine's named rulesets for ``game``."""
    return dict(KINDS[game].presets)


def bot_kinds(game: str) -> list[str]:
    """The bot kinds the registry offers for ``game`` (every bot registered there, so a
    new bot appears at the web table without a change here).

    >>> {"random", "probabilistic"} <= set(bot_kinds("liars-dice"))
    True
    """
    return sorted(KINDS[game].bots)


def bot_levels(game: str) -> list[dict[str, Any]]:
    """The rated levels the DM may seat at a ``game`` table, weakest first: kind, persona
    name and title, level, manner and measured rating (``None`` where none is measured).

    >>> mags = bot_levels("liars-dice")[3]
    >>> mags["kind"], mags["name"], mags["level"], mags["rating"] > 0
    ('mags', 'Mags', 4, True)
    """
    from tavern_dice.bots.levels import levels
    from tavern_dice.play.ratings import level_rating

    found = []
    for persona in levels(game):
        rated = level_rating(persona.kind)
        found.append({"kind": persona.kind, "name": persona.name, "title": persona.title,
                      "level": persona.level, "manner": persona.manner,
                      "rating": None if rated is None else round(rated.mu)})
    return found


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
        return KINDS[game].rules.from_dict(data)
    except (TypeError, TavernError) as error:
        # The engine names the option it refuses (``sides must be a whole number, not
        # 6.0``); the reply names the request field, so a form can point at it.
        message = str(error)
        keys = [key for key in overrides if re.search(rf"\b{re.escape(key)}\b", message)]
        field = f"rules.{keys[0]}" if keys else "rules"
        raise ActionError("illegal", f"{field}: {message}", field) from None


def clean_name(raw: str) -> str:
    """A display name: NFC, trimmed, 1-32 characters, no control characters, and not a
    name the pages use for someone else (:data:`~tavern_dice.web.names.RESERVED_NAMES`:
    "You", "DM", "The DM"...), nor one that looks like it.

    >>> clean_name("  Ann ")
    'Ann'

    Raises:
        ActionError: empty, too long, holding control characters, or reserved.
    """
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ActionError("bad-message", f"a name is 1-{MAX_NAME} characters, not {len(name)}",
                          "name")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise ActionError("bad-message", "a name may not hold control characters", "name")
    taken = reserved(name)
    if taken is not None:
        whom = ("each player on their own screen" if taken == "You"
                else "the table's host, the DM")
        raise ActionError(
            "illegal", f"{name!r} reads as {taken!r}, what the table calls {whom}; choose "
            f"another name (not {', '.join(repr(r) for r in RESERVED_NAMES)})", "name")
    return name


def new_id(prefix: str) -> str:
    """A short random id such as ``g_Xz81aQ0pLw4`` (URL-safe, never ``:``)."""
    return f"{prefix}_{secrets.token_urlsafe(8)}"
