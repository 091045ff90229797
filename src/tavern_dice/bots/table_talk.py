"""Table talk: what the personas say at the table, from public events only.

A :class:`TableTalk` hears a game's events in order and answers with the lines its
personas (:mod:`tavern_dice.bots.levels`) say about them: an opening wager, a call, a lost
die, a win. It is a view-level thing, never an engine event and never the bot's: each
event is masked for a spectator (:meth:`~tavern_dice.events.Event.masked_for` ``None``)
before it is read, and a line is picked by a hash of the persona, the seat and how many
events came before, so the same public history gives the same lines whatever dice are
hidden under the cups. A persona therefore never says anything about its dice that its
play has not shown.

The occasions (keys of :attr:`Persona.talk`): Liar's Dice ``open`` (its opening wager;
about one in two is voiced), ``raise`` (one in four), ``call`` (it accuses), ``called``
(it is accused; one in two), ``lose`` (it loses a die; one in two), ``won`` (a call it
made or faced goes its way; one in two), ``out`` and ``win``; Dice Blackjack ``roll``
(one in three), ``stand``, ``bust``, ``win``, ``exact`` and ``lose``. In a line,
``{wager}`` is the wager just made and ``{them}`` the other player of the moment (the
accuser, the accused, or the player who wagered before it).

>>> from tavern_dice.liars_dice.events import Accused
>>> talk = TableTalk({1: "mags"}, ["Ann", "Mags"])
>>> talk.hear(Accused(accuser=1, wager_maker=0))
[(1, 'The odds are against you, Ann.')]
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from tavern_dice.blackjack.events import RolledAgain, Settled, Stood
from tavern_dice.bots.levels import Persona, persona_of
from tavern_dice.events import Event
from tavern_dice.liars_dice.events import (
    Accused,
    GameWon,
    PlayerOut,
    Revealed,
    RoundStarted,
    WagerMade,
)

SPOKEN_ONE_IN = {"open": 2, "raise": 4, "called": 2, "won": 2, "lose": 2, "roll": 3}
"""Occasions voiced only now and then (one in this many, by the same hash), so that the
talk stays a seasoning; every other occasion is always voiced."""


def _wager_words(event: WagerMade) -> str:
    if event.total is not None:
        return f"a sum of at least {event.total}"
    face = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}.get(
        event.face or 0, f"{event.face}s")
    return f"{event.quantity} {face}" if event.quantity != 1 else f"one {face[:-1]}"


class TableTalk:
    """The lines of the personas seated at a table, event by event (see the module doc).

    Args:
        seats: seat -> the bot kind played there (kinds that are not personas say
            nothing; so do seats missing here, such as people).
        names: every seat's name, for ``{them}``.
    """

    def __init__(self, seats: Mapping[int, str | None], names: Sequence[str]) -> None:
        self.personas: dict[int, Persona] = {}
        for seat, kind in seats.items():
            found = persona_of(kind)
            if found is not None and found.talk:
                self.personas[seat] = found
        self.names = list(names)
        self.heard = 0
        self._last_wager: int | None = None  # who made the standing wager
        self._accused: tuple[int, int] | None = None

    def hear(self, event: Event) -> list[tuple[int, str]]:
        """The lines said about ``event`` (the next event of the game): ``(seat, line)``."""
        public = event.masked_for(None)
        index = self.heard
        self.heard += 1
        return [(seat, line) for seat, occasion, them, wager in self._occasions(public)
                if (line := self._line(seat, occasion, index, them, wager)) is not None]

    def _occasions(self, event: Event) -> list[tuple[int, str, int | None, str]]:
        """``(seat, occasion, other seat, wager words)`` for each persona concerned."""
        found: list[tuple[int, str, int | None, str]] = []
        if isinstance(event, RoundStarted):
            self._last_wager = None
        elif isinstance(event, WagerMade):
            before = self._last_wager
            occasion = "open" if before is None else "raise"
            found.append((event.seat, occasion, before, _wager_words(event)))
            self._last_wager = event.seat
        elif isinstance(event, Accused):
            self._accused = (event.accuser, event.wager_maker)
            found.append((event.accuser, "call", event.wager_maker, ""))
            found.append((event.wager_maker, "called", event.accuser, ""))
        elif isinstance(event, Revealed) and self._accused is not None:
            accuser, maker = self._accused
            for seat, other in ((accuser, maker), (maker, accuser)):
                found.append((seat, "lose" if seat in event.losers else "won", other, ""))
            found += [(s, "lose", None, "") for s in event.losers if s not in self._accused]
        elif isinstance(event, PlayerOut):
            found.append((event.seat, "out", None, ""))
        elif isinstance(event, GameWon):
            found.append((event.seat, "win", None, ""))
        elif isinstance(event, RolledAgain):
            found.append((event.seat, "roll", None, ""))
        elif isinstance(event, Stood):
            found.append((event.seat, "stand", None, ""))
        elif isinstance(event, Settled):
            outcome = {"exact": "exact", "win": "win", "bust": "bust"}.get(event.outcome)
            if outcome is None:
                outcome = "win" if event.delta > 0 else "lose"
            found.append((event.seat, outcome, None, ""))
        return [f for f in found if f[0] in self.personas]

    def _line(self, seat: int, occasion: str, index: int, them: int | None,
              wager: str) -> str | None:
        persona = self.personas[seat]
        lines = persona.talk.get(occasion, ())
        if not lines:
            return None
        digest = hashlib.sha256(
            f"tavern-dice:talk:{persona.kind}:{seat}:{index}:{occasion}".encode()).digest()
        pick = int.from_bytes(digest[:8], "big")
        if pick % SPOKEN_ONE_IN.get(occasion, 1):
            return None
        other = self.names[them] if them is not None and them < len(self.names) else "friend"
        line = lines[(pick // 64) % len(lines)]
        return line.format(wager=wager, them=other)


__all__ = ["SPOKEN_ONE_IN", "TableTalk"]
