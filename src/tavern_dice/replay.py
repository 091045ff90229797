"""Saving a game as JSON and replaying it: one mechanism for both engines.

A game's record is a header (which game, its players, rules and starting
conditions) and its events. Replaying builds a fresh game from the header and
feeds it the record's *input* events (rolls and players' actions); the engine
derives everything else, and the replay is accepted only if the log it derives
equals the stored one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Self

from tavern_dice.errors import LogError
from tavern_dice.events import Event


class ReplayableGame:
    """Base of the game states: ``to_log``, ``from_log`` and ``replay_steps``.

    A subclass sets :attr:`GAME_NAME` and implements :meth:`_header` (the record's
    starting conditions), :meth:`_fresh` (a game from a header, with ``auto_roll`` off)
    and :meth:`_apply_input` (feed one input event; ignore derived ones).
    """

    GAME_NAME: ClassVar[str] = ""
    log: list[Event]

    def _header(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _fresh(cls, data: dict[str, Any]) -> Self:
        raise NotImplementedError

    def _apply_input(self, event: Event) -> None:
        raise NotImplementedError

    def to_log(self) -> dict[str, Any]:
        """The game as JSON-ready data: ``{"game", "version", <header>, "events"}``."""
        return {
            "game": self.GAME_NAME,
            "version": 1,
            **self._header(),
            "events": [e.to_dict() for e in self.log],
        }

    @classmethod
    def from_log(cls, data: dict[str, Any]) -> Self:
        """Replay a :meth:`to_log` record into an identical game.

        Raises:
            LogError: if the record is malformed, an input does not replay (an edited bet
                above the balance, a die showing 7), or the derived events differ.
        """
        name = cls.GAME_NAME
        if not isinstance(data, dict) or data.get("game") != name:
            raise LogError(f"not a {name} log")
        try:
            events = [Event.from_dict(e) for e in data["events"]]
            game = cls._fresh(data)
        except LogError:
            raise
        except KeyError as error:
            raise LogError(f"malformed {name} log: it has no {error} entry") from None
        except (TypeError, ValueError) as error:  # ValueError covers TavernError
            raise LogError(f"malformed {name} log: {error}") from None
        try:
            for event in events:
                game._apply_input(event)
        except (AssertionError, IndexError, TypeError, ValueError) as error:
            # An edited input fails to replay: report it as a bad log, not as a move
            # someone is trying to make now.
            raise LogError(f"the log does not replay: {error}") from None
        if game.log != events:
            raise LogError("the log's derived events do not match a replay of its inputs")
        return game

    def replay_steps(self) -> Iterator[tuple[Event, Self]]:
        """Yield each event with the game as it stood right after it (``tavern replay``).

        The game yielded is one object that moves on: use it before asking for the next.
        """
        game = type(self)._fresh(self.to_log())
        seen = 0
        for event in self.log:
            game._apply_input(event)
            while seen < len(game.log):
                yield game.log[seen], game
                seen += 1


def faces_of(event_dice: tuple[tuple[int | None, ...], ...]) -> list[tuple[int, ...]]:
    """The faces of a :class:`~tavern_dice.events.DiceRolled` event, to roll them again."""
    return [tuple(int(f) for f in faces if f is not None) for faces in event_dice]
