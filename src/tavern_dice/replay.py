"""Saving a game as JSON and replaying it: one mechanism for both engines.

A game's record is a header (which game, its players, rules and starting
conditions) and its events. Replaying builds a fresh game from the header and
feeds it the record's *input* events (rolls and players' actions); the engine
derives everything else, and the replay is accepted only if the log it derives
equals the stored one.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Self

from tavern_dice.chance import AutoRoll, auto_roll_policy
from tavern_dice.dice import DiceSource, RollSpec, ScriptedDice, SeededDice, seed_of
from tavern_dice.errors import LogError, RulesetError
from tavern_dice.events import DiceRolled, Event, masked_events
from tavern_dice.rules_base import RulesetMixin


class ReplayableGame:
    """Base of the game states: their seats and log, ``to_log``, ``from_log`` and
    ``replay_steps``.

    A subclass sets :attr:`GAME_NAME`, calls :meth:`_seat_players` and :meth:`_start_log`
    from its constructor, and implements :meth:`_header` (the record's starting conditions
    besides the players and the rules), :meth:`_fresh` (a game from a header, with
    ``auto_roll`` off), :meth:`_apply_input` (feed one input event other than a roll;
    ignore derived ones), ``chance_request`` and ``roll``, and calls :meth:`_count_roll`
    from ``roll``.

    **Continuing a restored game.** A seeded game's dice source is a random number
    generator that has moved on with every roll it made. So that a game restored from
    its log rolls next exactly what the uninterrupted game would have rolled, the log
    lists the rolls whose faces were typed in by hand (``typed_rolls``, roll numbers from
    0), and a replay draws every other roll from a fresh ``SeededDice(seed)``, checking
    that it gives the logged faces: the generator then stands where it stood.
    """

    GAME_NAME: ClassVar[str] = ""
    players: tuple[str, ...]
    rules: RulesetMixin
    log: list[Event]
    dice: DiceSource
    seed: int | None
    auto_roll: AutoRoll
    typed_rolls: list[int]
    """Numbers (from 0, in roll order) of the rolls whose faces were typed in by hand."""
    _roll_count: int

    def _seat_players(self, players: Sequence[str] | int, rules: RulesetMixin, low: int,
                      high: int, title: str) -> None:
        """Seat ``players`` (names in seating order, or a count: ``'P1'``...) under
        ``rules``, ``low`` to ``high`` of them for the game ``title``.

        Raises:
            RulesetError: for a player count outside ``low..high``.
        """
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if not low <= len(names) <= high:
            raise RulesetError(f"{title} takes {low}-{high} players, not {len(names)}")
        self.rules = rules
        self.players = tuple(names)

    def _start_log(self, dice: DiceSource | None, seed: int | None,
                   auto_roll: bool | Collection[str]) -> None:
        """Set the dice source (by default ``SeededDice()``, an unseeded one), the seed the
        log keeps (:func:`~tavern_dice.dice.seed_of` the source), the chance policy and an
        empty log.

        ``seed`` is the constructors' deprecated ``seed=``: ``seed=7`` is
        ``dice=SeededDice(7)``. Given with ``dice=`` as well, it is only what the log
        records, as before it was deprecated.
        """
        if seed is not None:
            warnings.warn(
                "seed= is deprecated; pass dice=SeededDice(seed) (tavern_dice.dice)",
                DeprecationWarning, stacklevel=3,  # the caller of the game's constructor
            )
            if dice is None:
                dice = SeededDice(seed)
        self.dice = dice if dice is not None else SeededDice()
        self.seed = seed if seed is not None else seed_of(self.dice)
        self.auto_roll = auto_roll_policy(auto_roll)
        self.log = []
        """Every event so far, oldest first. Append-only: views keep a slice of it."""
        self.typed_rolls = []
        self._roll_count = 0

    def masked_log(self, seat: int | None) -> tuple[Event, ...]:
        """The log as ``seat`` (``None``: a spectator) may see it: other players'
        unrevealed dice hidden (see :meth:`~tavern_dice.events.Event.masked_for`)."""
        return masked_events(self.log, seat)

    def chance_request(self) -> tuple[RollSpec, ...] | None:
        raise NotImplementedError

    def roll(self, faces: Sequence[Sequence[int]] | None = None) -> DiceRolled:
        raise NotImplementedError

    def _count_roll(self, typed: bool) -> None:
        """Record one resolved chance node; ``typed``: its faces were given by hand."""
        if typed:
            self.typed_rolls.append(self._roll_count)
        self._roll_count += 1

    def _header(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def _fresh(cls, data: dict[str, Any]) -> Self:
        raise NotImplementedError

    def _apply_input(self, event: Event) -> None:
        raise NotImplementedError

    def log_header(self) -> dict[str, Any]:
        """The record's header: :meth:`to_log` without ``"events"`` (``{"game", "version",
        "players", "rules", <header>, "typed_rolls", "auto_roll"}``), built without
        serialising a single event (a store that appends events as they happen keeps the
        header once)."""
        return {
            "game": self.GAME_NAME,
            "version": LOG_VERSION,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            **self._header(),
            "typed_rolls": list(self.typed_rolls),
            "auto_roll": policy_to_json(self.auto_roll),
        }

    def to_log(self) -> dict[str, Any]:
        """The game as JSON-ready data: ``{"game", "version", "players", "rules", <header>,
        "typed_rolls", "auto_roll", "events"}``."""
        return {**self.log_header(), "events": [e.to_dict() for e in self.log]}

    def _replay_roll(self, event: DiceRolled, typed: Collection[int] | None) -> None:
        """Resolve the next chance node with a logged roll, moving a seeded dice source on
        as the roll moved it (see the class doc). ``typed`` is ``None`` for a log written
        before typed rolls were listed: a roll the seed does not give counts as typed."""
        faces = faces_of(event.dice)
        number = self._roll_count
        source = self.dice
        if typed is not None and number in typed:
            self.roll(faces)
            return
        if isinstance(source, SeededDice) and source.seed is not None:
            specs = self.chance_request() or ()
            state = source.getstate()
            drawn = [tuple(source.roll(spec)) for spec in specs]
            if drawn != faces:
                if typed is not None:
                    raise LogError(
                        f"roll {number + 1} ({event.purpose}) is not what seed {source.seed} "
                        "rolls, and the log does not list it among its typed_rolls"
                    )
                source.setstate(state)
                self.roll(faces)
                return
        # Resolve it as a roll from the source, so that it is not counted as typed.
        self.dice = ScriptedDice(faces)
        try:
            self.roll()
        finally:
            self.dice = source

    @classmethod
    def replay_start(cls, data: dict[str, Any]) -> tuple[Self, list[Event], list[int] | None]:
        """Check a :meth:`to_log` record's header and events and build the fresh game its
        inputs replay into: ``(game, events, typed_rolls)``; feed the inputs with
        :meth:`replay_input`. (:meth:`from_log` does both, and checks the result.)

        Raises:
            LogError: a malformed record or an unknown version.
        """
        name = cls.GAME_NAME
        if not isinstance(data, dict) or data.get("game") != name:
            raise LogError(f"not a {name} log")
        version = data.get("version")
        if version not in (1, LOG_VERSION) or type(version) is not int:
            raise LogError(
                f"this {name} log has version {version!r}; this version of tavern-dice "
                f"reads versions 1 and {LOG_VERSION}"
            )
        typed = data.get("typed_rolls")
        if typed is not None and (
            not isinstance(typed, list) or any(type(n) is not int for n in typed)
        ):
            raise LogError(f"typed_rolls must be a list of roll numbers, not {typed!r}")
        recorded_policy(data)  # a malformed policy is refused before anything replays
        try:
            events = [Event.from_dict(e) for e in data["events"]]
            game = cls._fresh(data)
        except LogError:
            raise
        except KeyError as error:
            raise LogError(f"malformed {name} log: it has no {error} entry") from None
        except (TypeError, ValueError) as error:  # ValueError covers TavernError
            raise LogError(f"malformed {name} log: {error}") from None
        return game, events, typed

    def replay_input(self, event: Event, typed: Collection[int] | None) -> None:
        """Feed one logged event to a game replaying its record: a roll resolves the
        pending chance node (see the class doc for ``typed``), a player's action is taken
        again, and a derived event is ignored (the engine derives it itself).

        Raises:
            LogError: the input does not replay (an edited bet above the balance, a die
                showing 7).
        """
        try:
            if isinstance(event, DiceRolled):
                self._replay_roll(event, typed)
            else:
                self._apply_input(event)
        except LogError:
            raise
        except (AssertionError, IndexError, TypeError, ValueError) as error:
            # An edited input fails to replay: report it as a bad log, not as a move
            # someone is trying to make now.
            raise LogError(f"an input event does not replay: {error}") from None

    @classmethod
    def from_log(cls, data: dict[str, Any], *, dice: DiceSource | None = None,
                 auto_roll: bool | Iterable[str] | None = None) -> Self:
        """Replay a :meth:`to_log` record into an identical game.

        The game then plays on with ``dice`` (by default the seeded source, moved on as
        the record's rolls moved it) under the chance policy ``auto_roll``
        (:mod:`tavern_dice.chance`). By default that is the policy the game was made with,
        as its record says, so a restored game continues as it was made: one that rolled
        its own dice rolls the next round's too. A record written before policies were
        recorded rolls nothing itself.

        Raises:
            LogError: if the record is malformed, an input does not replay (an edited bet
                above the balance, a die showing 7), or the derived events differ.
        """
        game, events, typed = cls.replay_start(data)
        for event in events:
            game.replay_input(event, typed)
        if game.log != events:
            raise LogError("the log's derived events do not match a replay of its inputs")
        if typed is not None and game.typed_rolls != typed:
            raise LogError(
                f"typed_rolls lists rolls {typed}, but rolls {game.typed_rolls} were typed in"
            )
        if dice is not None:
            game.dice = dice
        game.auto_roll = recorded_policy(data) if auto_roll is None else auto_roll_policy(auto_roll)
        return game

    def replay_steps(self) -> Iterator[tuple[Event, Self]]:
        """Yield each event with the game as it stood after the input that made it.

        The game yielded is one object that moves on: use it before asking for the next.
        Every event of one input comes with the state after all of them (after an
        accusation, the next round already): :class:`tavern_dice.record.GameRecord` steps
        through a record input by input, with each step's view taken where it belongs.
        """
        game = type(self)._fresh(self.log_header())
        typed = list(self.typed_rolls)
        seen = 0
        for event in self.log:
            game.replay_input(event, typed)
            while seen < len(game.log):
                yield game.log[seen], game
                seen += 1


LOG_VERSION = 2
"""Version 2 adds ``typed_rolls`` (and, optionally, ``auto_roll``); version-1 logs still
load."""


def policy_to_json(policy: AutoRoll) -> bool | list[str]:
    """A chance policy as JSON: ``true``, ``false`` or the sorted purposes."""
    return policy if isinstance(policy, bool) else sorted(policy)


def recorded_policy(data: dict[str, Any]) -> AutoRoll:
    """The chance policy a record says its game was made with (``False`` for a record
    that predates the ``auto_roll`` entry: such a game was restored rolling nothing).

    Raises:
        LogError: an ``auto_roll`` entry that is neither a bool nor a list of purposes.
    """
    value = data.get("auto_roll", False)
    if isinstance(value, bool):
        return value
    if isinstance(value, list) and all(isinstance(p, str) for p in value):
        return auto_roll_policy(value)
    raise LogError(
        f"auto_roll must be true, false or a list of roll purposes (such as [\"roll-off\"]), "
        f"not {value!r}"
    )


def faces_of(event_dice: tuple[tuple[int | None, ...], ...]) -> list[tuple[int, ...]]:
    """The faces of a :class:`~tavern_dice.events.DiceRolled` event, to roll them again."""
    return [tuple(int(f) for f in faces if f is not None) for faces in event_dice]
