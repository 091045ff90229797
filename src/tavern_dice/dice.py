"""Dice sources: where every random roll comes from.

The rules engines never call a random number generator themselves. When the
game reaches a chance node (a roll-off, a secret round roll, the house's d20s,
a player's d12) the engine asks its injected :class:`DiceSource` for the
faces. Three sources cover the table:

* :class:`SeededDice` - a seeded PRNG; the same seed gives the same game
  (default for bots, tests and simulations);
* :class:`SecureDice` - the operating system's secure RNG (default when a
  person plays);
* :class:`ManualDice` - faces typed in by hand from physical dice, through a
  callback the interface supplies; :class:`TableDice` routes the people's seats to
  typed dice and the bots' to a computer source.

:class:`ScriptedDice` replays a fixed list of rolls (tests and log replay).

>>> d = SeededDice(7)
>>> d.roll(RollSpec(seat=0, count=5, sides=6, purpose="round"))
(3, 2, 4, 6, 1)
>>> SeededDice(7).roll(RollSpec(seat=0, count=5, sides=6, purpose="round"))
(3, 2, 4, 6, 1)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from tavern_dice.errors import InvalidDiceError

_INT_ONLY = {int}


@dataclass(frozen=True, slots=True)
class RollSpec:
    """One request for dice: ``count`` dice with faces ``1..sides``.

    Attributes:
        seat: the player who rolls, or ``None`` for the house.
        count: how many dice (>= 1).
        sides: faces per die (6 for d6, 12 for d12, 20 for d20).
        purpose: why they are rolled: ``'roll-off'``, ``'round'`` (secret
            Liar's Dice roll), ``'target'``, ``'house'``, ``'d12'``.
        secret: whether only ``seat`` may see the faces before a reveal.
    """

    seat: int | None
    count: int
    sides: int
    purpose: str
    secret: bool = False

    def check(self, faces: Sequence[int]) -> tuple[int, ...]:
        """Return ``faces`` as a tuple after checking them against this spec.

        Raises:
            InvalidDiceError: if there are not exactly ``count`` faces, each in ``1..sides``.
        """
        if type(faces) is tuple and len(faces) == self.count and faces and (
            {*map(type, faces)} == _INT_ONLY and min(faces) >= 1 and max(faces) <= self.sides
        ):
            return faces  # the common case, all C-level: whole numbers in 1..sides
        try:
            values = tuple(faces)
        except TypeError:  # a bare number or None where a list of faces belongs
            raise InvalidDiceError(
                f"expected a list of {self.count} d{self.sides} faces for {self.purpose}, "
                f"not {faces!r}"
            ) from None
        if len(values) != self.count:
            raise InvalidDiceError(
                f"expected {self.count} d{self.sides} for {self.purpose}, got {len(values)} values"
            )
        sides = self.sides
        for value in values:
            # type() rather than isinstance(): a bool is an int but no die face.
            if type(value) is not int or not 1 <= value <= sides:
                raise InvalidDiceError(
                    f"a d{self.sides} shows a whole number from 1 to {self.sides}, not {value!r}"
                )
        return values


@lru_cache(maxsize=1024)
def roll_spec(seat: int | None, count: int, sides: int, purpose: str, secret: bool) -> RollSpec:
    """A :class:`RollSpec`, made once for each distinct request: specs are immutable, and
    an engine asks for the same few (a seat, its dice, the purpose) at every chance node."""
    return RollSpec(seat, count, sides, purpose, secret)


class DiceSource(Protocol):
    """Anything that can answer a :class:`RollSpec` with faces."""

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        """Return ``spec.count`` faces, each in ``1..spec.sides``."""
        ...


class SeededDice:
    """Reproducible dice from a seeded Mersenne Twister (``random.Random``).

    Each face is drawn by rejection sampling on ``getrandbits`` (draw ``sides.bit_length()``
    bits until the number is below ``sides``): the same faces CPython's ``randint(1, sides)``
    gives today, but fixed here, so a seed replays the same game on any Python version, and
    about twice as fast as ``randint``.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def getstate(self) -> object:
        """The generator's position (to go back to it with :meth:`setstate`)."""
        return self._rng.getstate()

    def setstate(self, state: object) -> None:
        """Return the generator to a position :meth:`getstate` gave."""
        self._rng.setstate(state)  # type: ignore[arg-type]

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        sides = spec.sides
        bits = sides.bit_length()
        draw = self._rng.getrandbits
        faces = []
        for _ in range(spec.count):
            value = draw(bits)
            while value >= sides:
                value = draw(bits)
            faces.append(value + 1)
        return tuple(faces)


class SecureDice:
    """Unpredictable dice from the operating system (``secrets``)."""

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        return tuple(secrets.randbelow(spec.sides) + 1 for _ in range(spec.count))


class ManualDice:
    """Faces typed in by hand from physical dice.

    ``ask`` receives the spec and returns the faces; it is called again, with
    the error message, while the answer is invalid, so a person can retype.
    """

    def __init__(
        self, ask: Callable[[RollSpec, str | None], Sequence[int]], max_tries: int = 100
    ) -> None:
        self._ask = ask
        self._max_tries = max_tries

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        problem: str | None = None
        for _ in range(self._max_tries):
            try:
                return spec.check(self._ask(spec, problem))
            except InvalidDiceError as error:
                problem = str(error)
        raise InvalidDiceError(f"no valid roll after {self._max_tries} tries: {problem}")


class ScriptedDice:
    """Dice that come from a fixed sequence of rolls, in order (tests, replays).

    >>> s = ScriptedDice([(6, 6), (1,)])
    >>> s.roll(RollSpec(None, 2, 20, "house"))
    (6, 6)
    """

    def __init__(self, rolls: Iterable[Sequence[int]]) -> None:
        self._rolls = [tuple(r) for r in rolls]
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls have not been used yet."""
        return len(self._rolls) - self._next

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        if self._next >= len(self._rolls):
            raise InvalidDiceError(f"the script has no roll left for {spec.purpose}")
        faces = self._rolls[self._next]
        self._next += 1
        return spec.check(faces)


class TableDice:
    """Physical dice at a table (``tavern play --dice manual``, the web table's manual
    dice): the people type in their physical dice (and the house's, which the DM rolls),
    while each bot's dice come from ``computer``: a bot has no hand to roll with, and
    nobody should type (and so see) its secret dice.

    >>> typed = ManualDice(lambda spec, problem: [6] * spec.count)
    >>> dice = TableDice(typed, SeededDice(1), people=[0])
    >>> dice.roll(RollSpec(0, 2, 6, "round")), dice.roll(RollSpec(None, 1, 20, "target"))
    ((6, 6), (6,))
    >>> dice.roll(RollSpec(1, 2, 6, "round")) == SeededDice(1).roll(RollSpec(1, 2, 6, "round"))
    True
    """

    def __init__(self, typed: DiceSource, computer: DiceSource,
                 people: Sequence[int]) -> None:
        self.typed = typed
        self.computer = computer
        self.people = frozenset(people)

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        if spec.seat is None or spec.seat in self.people:
            return self.typed.roll(spec)
        return self.computer.roll(spec)


def seed_of(source: DiceSource) -> int | None:
    """The seed a game's log records for ``source``: a :class:`SeededDice`'s own, a
    :class:`TableDice`'s computer source's; ``None`` for any other source.

    A replay draws the untyped rolls from a fresh ``SeededDice(seed)`` (see
    :class:`~tavern_dice.replay.ReplayableGame`), so the seed comes from the source itself:
    one argument, ``dice=``, says where the rolls come from and what the log keeps.

    >>> seed_of(SeededDice(7)), seed_of(TableDice(ManualDice(print), SeededDice(3), [0]))
    (7, 3)
    >>> seed_of(SecureDice()) is None
    True
    """
    if isinstance(source, SeededDice):
        return source.seed
    if isinstance(source, TableDice):
        return seed_of(source.computer)
    return None
