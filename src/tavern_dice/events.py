"""Event records: every state change of a game is one frozen event in its log.

Events are plain frozen dataclasses. Each serialises to a JSON-ready ``dict``
with a ``"type"`` tag and back, and can be masked for one viewer so that a
player's copy of the log never holds another player's unrevealed dice.

Input events (rolls and players' actions) are what a replay feeds back into a
fresh game; derived events (reveals, settlements, eliminations) are recomputed
by the engine and compared with the stored ones.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self, TypeVar, cast

from tavern_dice.errors import LogError

E = TypeVar("E", bound="Event")

_REGISTRY: dict[str, type[Event]] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each event class's field names in order (``dataclasses.fields`` rebuilds its answer
at every call, and the web table turns events into data for every change)."""

HIDDEN = None
"""What a masked die shows: ``None`` in place of each face."""


@dataclasses.dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. Subclasses set ``type`` and ``is_input``."""

    type: ClassVar[str] = "event"
    is_input: ClassVar[bool] = False

    def __init_subclass__(cls) -> None:
        # No super() call: slots=True dataclasses rebuild the class, which breaks
        # zero-argument super(); object.__init_subclass__ does nothing anyway.
        tag = cls.__dict__.get("type")
        if isinstance(tag, str):
            _REGISTRY[tag] = cls

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"type": ..., field: value, ...}`` with tuples as lists."""
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(self))
        out: dict[str, Any] = {"type": self.type}
        for name in names:
            value = getattr(self, name)
            out[name] = _to_json(value) if isinstance(value, tuple | list) else value
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Event:
        """Rebuild an event from :meth:`to_dict` output.

        Raises:
            LogError: for an unknown type or fields that do not fit it.
        """
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise LogError(f"an event must be an object with a 'type' string, not {data!r}")
        cls = _REGISTRY.get(data["type"])
        if cls is None:
            raise LogError(f"unknown event type {data['type']!r}; known: {sorted(_REGISTRY)}")
        fields = {f.name for f in dataclasses.fields(cls)}
        # A field with a default was added after logs were first written without it.
        optional = {f.name for f in dataclasses.fields(cls)
                    if f.default is not dataclasses.MISSING}
        given = set(data) - {"type"}
        if not fields - optional <= given <= fields:
            raise LogError(
                f"event {data['type']!r} needs fields {sorted(fields)}, got {sorted(given)}"
            )
        return cls(**{name: _from_json(data[name]) for name in given})

    def masked_for(self, viewer: int | None) -> Self:
        """Return this event as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
        return self


def _to_json(value: Any) -> Any:
    # Called for sequences only; their items are mostly numbers, not looked into.
    return [_to_json(v) if isinstance(v, tuple | list) else v for v in value]


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """A chance node resolved: each roller's faces.

    Attributes:
        purpose: ``'roll-off'``, ``'round'``, ``'target'``, ``'house'`` or ``'d12'``.
        seats: who rolled, aligned with ``dice``; ``-1`` is the house.
        dice: the faces of each roller, e.g. ``((3, 5, 1, 1, 6), (2, 2, 4, 6, 6))``.
        secret: whether each roller's faces are hidden from the others until a reveal.
    """

    type: ClassVar[str] = "dice_rolled"
    is_input: ClassVar[bool] = True
    purpose: str
    seats: tuple[int, ...]
    dice: tuple[tuple[int | None, ...], ...]
    secret: bool

    def masked_for(self, viewer: int | None) -> DiceRolled:
        if not self.secret:
            return self
        dice = tuple(
            faces if seat == viewer else (HIDDEN,) * len(faces)
            for seat, faces in zip(self.seats, self.dice, strict=True)
        )
        # Direct construction: dataclasses.replace is several times slower, and views mask
        # every secret roll once per viewer.
        return DiceRolled(self.purpose, self.seats, dice, self.secret)


def slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of slot ``name`` of the slotted dataclass ``cls``: what its frozen
    ``__init__`` calls (through ``object.__setattr__``) for that field. An engine builds its
    most frequent events with ``object.__new__`` and these (no ``__post_init__`` to skip),
    about twice as fast as through ``__init__``; the event is the same."""
    return cast(Callable[[Any, Any], None], cls.__dict__[name].__set__)


def slot_builder(cls: type[E]) -> Callable[..., E]:
    """A constructor of ``cls`` taking its fields in order, positionally, that builds the
    event through :func:`slot_setter` (see there: the same event, made faster)."""
    names = [f.name for f in dataclasses.fields(cast(Any, cls))]
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    scope.update({f"set_{i}": slot_setter(cls, name) for i, name in enumerate(names)})
    # One call per field, written out as dataclasses writes its __init__ (a loop over the
    # setters costs a third more per event, and engines build several per action).
    params = ", ".join(f"v{i}" for i in range(len(names)))
    body = "".join(f"    set_{i}(event, v{i})\n" for i in range(len(names)))
    exec(f"def build({params}):\n    event = new(cls)\n{body}    return event\n", scope)
    build = cast(Callable[..., E], scope["build"])
    build.__doc__ = f"``{cls.__name__}(...)`` from its fields in order, through its slots."
    return build


new_dice_rolled = slot_builder(DiceRolled)
"""``DiceRolled(purpose, seats, dice, secret)``, built through :func:`slot_setter`."""


def masked_events(events: Sequence[Event], viewer: int | None) -> tuple[Event, ...]:
    """``events`` as ``viewer`` (a seat, or ``None`` for a spectator) may see them."""
    return tuple(e.masked_for(viewer) for e in events)


HOUSE = -1
"""The seat number that stands for the house (the DM) in events."""
