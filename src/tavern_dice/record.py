"""A game's record, apart from its state: load any game's log, step through it.

As python-chess keeps ``pgn.Game`` apart from ``Board`` (and pokerkit its
``HandHistory`` apart from ``State``), a :class:`GameRecord` is the saved game: its
header and its events. Loading one replays it through its game's engine (found by the
log's ``"game"`` in :mod:`tavern_dice.games`), which checks every input. Stepping
through it yields, for each input event (a roll or a player's action), the events the
engine derived from it and the view of one viewer; masking for that viewer is done
here, once, so callers need not replay or mask anything themselves.

>>> from tavern_dice.liars_dice import Accuse, LiarsDiceGame, LiarsDiceRules, Wager
>>> from tavern_dice.dice import ScriptedDice
>>> dice = ScriptedDice([(6, 6), (1, 4), (2, 2), (2, 5), (6, 6), (3,)])
>>> game = LiarsDiceGame(["Ann", "Bo"], rules=LiarsDiceRules(dice_per_player=2), dice=dice)
>>> game.apply(0, Wager(3, 2)).seat, game.apply(1, Accuse()).outcome
(0, 'spot-on')
>>> record = GameRecord.load(game.to_log())
>>> [(s.event.type, [e.type for e in s.derived]) for s in record.steps(viewer=1)][:2]
[('dice_rolled', ['roll_off_result', 'round_started']), ('dice_rolled', [])]
>>> call = [s for s in record.steps(viewer=1) if s.event.type == "accused"][0]
>>> call.view.round, call.view.wager, call.view.own_dice   # the round as it stood at the call
(1, Wager(quantity=3, face=2), (2, 5))
>>> [e.type for e in call.derived]
['revealed', 'round_started']
>>> list(record.steps(viewer=1))[1].event.dice      # Ann's dice hidden from Bo
((None, None), (2, 5))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from tavern_dice.events import Event
from tavern_dice.games import Engine, GameDefinition, definition_of, game, load_log


class Step(NamedTuple):
    """One input of a record and what came of it, as one viewer may see them.

    Attributes:
        event: the input event (a roll, a player's action; or, first, an event the game
            logs as it is set up, such as Dice Blackjack's first ``RoundOpened``).
        derived: the events the engine derived from it, oldest first.
        view: the viewer's view of the game as it stood right after ``event``; after an
            input on which the engine moves straight on (a Liar's Dice accusation, whose
            reveal starts the next round), the game as it stood at it: the round, its
            standing wager and the viewer's dice, with the reveal in ``derived``.
        seat_views: each seat of ``steps(seats=...)``'s own view, taken with ``view``
            (a post-game review looks at several seats' decisions in one pass).
    """

    event: Event
    derived: tuple[Event, ...]
    view: Any
    seat_views: Mapping[int, Any] = {}


class GameRecord:
    """A saved game of any game: its header and its events, checked by a replay.

    Build one with :meth:`load` (a saved log) or :meth:`of` (a game being played).
    """

    def __init__(self, definition: GameDefinition, header: dict[str, Any],
                 events: tuple[Event, ...], final: Engine) -> None:
        self.definition = definition
        self.header = header
        """The log without its events: which game, players, rules, starting conditions."""
        self.events = events
        self.final = final
        """The game as the record leaves it (one replay of it; do not change it)."""

    @classmethod
    def load(cls, data: Any) -> GameRecord:
        """A record from a saved log (``to_log()``), replayed through its game's engine.

        Raises:
            LogError: no game log, a game this version does not know, or a log that does
                not replay (the message says what).
        """
        final = load_log(data)
        header = {key: value for key, value in data.items() if key != "events"}
        return cls(definition_of(final), header, tuple(final.log), final)

    @classmethod
    def of(cls, engine: Engine) -> GameRecord:
        """The record of ``engine`` as it stands (no copy of its events is serialised)."""
        return cls(definition_of(engine), engine.log_header(), tuple(engine.log), engine)

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in seat order."""
        return self.final.players

    def steps(self, viewer: int | None = None, *, masked: bool = True,
              seats: Sequence[int] = ()) -> Iterator[Step]:
        """Each input with its derived events and ``viewer``'s view (``None``: a
        spectator), events masked for ``viewer`` (``masked=False``: every die shown, for
        a game that is over), and the own views of ``seats``. See :class:`Step`."""
        state = game(self.definition.name).state
        replay, _events, typed = state.replay_start(self.header | {"events": []})
        moving_on = self.definition.moving_on
        log = replay.log
        started = False
        for index, event in enumerate(self.events):
            if index < len(log):
                if not started:  # logged while the game was set up
                    yield Step(self._mask(event, viewer, masked), (), replay.view(viewer),
                               {seat: replay.view(seat) for seat in seats})
                continue
            started = True
            before = (replay.view(viewer), {seat: replay.view(seat) for seat in seats}) \
                if isinstance(event, moving_on) else None
            replay.replay_input(event, typed)
            derived = tuple(self._mask(e, viewer, masked) for e in log[index + 1:])
            view, seat_views = before if before is not None else (
                replay.view(viewer), {seat: replay.view(seat) for seat in seats})
            yield Step(self._mask(event, viewer, masked), derived, view, seat_views)

    @staticmethod
    def _mask(event: Event, viewer: int | None, masked: bool) -> Event:
        return event.masked_for(viewer) if masked else event
