"""What the per-player views of both games share: the masked log, ``can`` and the
JSON-ready form (:class:`~tavern_dice.liars_dice.view.LiarsDiceView`,
:class:`~tavern_dice.blackjack.view.BlackjackView`)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from tavern_dice.errors import allowed
from tavern_dice.events import Event, masked_events
from tavern_dice.rules_base import RulesetMixin

ActionT = TypeVar("ActionT")


class ViewMixin(Generic[ActionT]):
    """Base of a game's view dataclass, which declares these fields (and may narrow
    ``rules``) and implements :meth:`verify` and :meth:`_state_dict`.

    A view keeps the game's append-only log and its length when the view was made, not a
    copy: views are built for every decision, and only a reader of ``log`` needs the
    events, masked for the viewer.
    """

    __slots__ = ()

    seat: int | None
    players: tuple[str, ...]
    rules: RulesetMixin
    phase: str
    round: int
    _events: list[Event]
    _log_length: int

    @property
    def log(self) -> tuple[Event, ...]:
        """The events as the viewer may see them, up to when the view was made."""
        return masked_events(self._events[: self._log_length], self.seat)

    def verify(self, action: ActionT) -> None:
        """Raise if the viewer may not take ``action`` now, with the engine's message."""
        raise NotImplementedError

    def can(self, action: ActionT) -> bool:
        """Whether :meth:`verify` would pass."""
        return allowed(self.verify, action)

    def _state_dict(self) -> dict[str, Any]:
        """The JSON-ready fields of the game's own state (after ``round``)."""
        raise NotImplementedError

    def personal_dict(self) -> dict[str, Any]:
        """The fields of ``to_dict(include_log=False)`` that may differ between viewers
        of one state: ``seat`` and what only that seat sees or may do."""
        raise NotImplementedError

    def shared_dict(self) -> dict[str, Any]:
        """The other fields of ``to_dict(include_log=False)``, the same for every viewer
        of one state (the web table encodes them once per change for all its seats)."""
        data = self.to_dict(include_log=False)
        for key in self.personal_dict():
            del data[key]
        return data

    def to_dict(self, *, include_log: bool = True) -> dict[str, Any]:
        """JSON-ready form (for the web table). ``include_log=False`` leaves out ``"log"``
        (a table that sends new events as they happen needs no copy of the whole log)."""
        data: dict[str, Any] = {
            "seat": self.seat,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "round": self.round,
            **self._state_dict(),
        }
        if include_log:
            data["log"] = [e.to_dict() for e in self.log]
        return data
