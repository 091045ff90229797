"""What the web table asks of a game: the :class:`GameAdapter` protocol.

The table (:mod:`tavern_dice.web.tables`) is written once for both games; everything it
does differently for Liar's Dice and Dice Blackjack is a method of the game's adapter,
chosen once by game name (:func:`tavern_dice.web.adapters.adapter_for`). An adapter holds
no state of its own: each call gets the table's session, rules and options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tavern_dice.stakes import Pot
from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import Engine, Rules
from tavern_dice.web.house import HouseDice
from tavern_dice.web.journal import GameSession

Controls = Callable[[int], bool]
"""Whether the server plays a game seat (a bot, or a person's stand-in)."""
Reload = Callable[[dict[str, Any]], object]
"""Puts the session's game back as a stored log has it (after a half-made change)."""


class GameAdapter(Protocol):
    """One game's web-specific behaviour (see the module doc)."""

    name: str
    default_standin: str
    """The bot that plays for an away or timed-out person unless the host picks another."""
    grant_refusal: str | None
    """Why the DM may not grant gold while a game runs, or ``None`` if they may."""
    player_dice: bool
    """Whether players may type in their own physical dice (with manual dice)."""

    def max_seats(self, rules: Rules) -> int:
        """The most seats a table with ``rules`` has."""
        ...

    def check_join(self, rules: Rules, name: str, proficiency: int | None) -> None:
        """Refuse (``ActionError``) a person who could not play this game so."""
        ...

    def open_game(self, rules: Rules, options: p.TableOptions, names: Sequence[str],
                  balances: Sequence[int], proficiency: Sequence[int | None]
                  ) -> tuple[Engine, HouseDice | None]:
        """A new game for the seated players, with its dice source and chance policy
        (and the house's committing dice, if the game has any).

        Raises:
            TavernError: the engine refuses the players or their gold.
        """
        ...

    def reopen_game(self, log: dict[str, Any], rules: Rules, options: p.TableOptions
                    ) -> tuple[Engine, HouseDice | None]:
        """The game a stored log records, to play on with the same dice and policy."""
        ...

    def pot(self, stake: int, balances: Mapping[str, int], seats: Sequence[str],
            names: Mapping[str, str]) -> Pot[str]:
        """The antes a new game takes (an empty pot where the game has no stakes)."""
        ...

    def typed_hands(self, options: p.TableOptions) -> bool:
        """Whether the players type in their own physical dice (:mod:`.physical`)."""
        ...

    def player_action(self, engine: Engine, seat: int, frame: Any) -> None:
        """Apply a player's action frame to the engine (raises if refused)."""
        ...

    def resolve_chance(self, s: GameSession, options: p.TableOptions,
                       server_rolls: Controls) -> bool:
        """Roll what the table need not wait for; return whether anything was rolled."""
        ...

    def pending_roll(self, s: GameSession, options: p.TableOptions,
                     server_rolls: Controls) -> dict[str, Any] | None:
        """The ``pending_roll`` of a state frame: the dice the table waits for."""
        ...

    def is_over(self, engine: Engine) -> bool:
        """Whether the game is over (no round can follow)."""
        ...

    def make_bot(self, kind: str, name: str, rules: Rules) -> Any:
        """A new agent of ``kind`` playing as ``name``."""
        ...

    def house_roll(self, s: GameSession, frame: p.HouseRoll, options: p.TableOptions,
                   reload: Reload) -> None:
        """The DM's ``house_roll``."""
        ...

    def d12(self, s: GameSession, face: int, options: p.TableOptions) -> None:
        """The DM's ``d12`` (a typed d12 face)."""
        ...

    def next_round(self, s: GameSession) -> None:
        """The DM's ``next_round``."""
        ...
