"""Races to call "Liar!": at the web table every player but the wager-maker may call at
once, so a call can arrive after another player's call has revealed the dice, or after
the wager it meant was raised. Such a call names the wager it was meant for (round and
code); it is refused with a message that says what happened, rather than landing on a
wager the caller never saw, or being answered "no wager stands yet".

Nothing here adjudicates: the facts come from the engine's log and state.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavern_dice.liars_dice.events import Accused, RoundStarted, WagerMade
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import AnyWager


@dataclass(frozen=True, slots=True)
class Call:
    """An accusation in the log: its round, caller, the accused and the wager called."""

    round: int
    accuser: int
    wager_maker: int
    wager: AnyWager | None


def last_call(game: LiarsDiceGame) -> Call | None:
    """The latest accusation in ``game``'s log, or ``None``."""
    round_, wager, found = 0, None, None
    for event in game.log:
        if isinstance(event, RoundStarted):
            round_, wager = event.round, None
        elif isinstance(event, WagerMade):
            wager = event.wager
        elif isinstance(event, Accused):
            found = Call(round_, event.accuser, event.wager_maker, wager)
    return found


def _called_first(game: LiarsDiceGame, call: Call, seat: int | None) -> str:
    """Who called first, told to ``seat`` (the refused caller): "you" for themselves."""
    names = game.players
    wager = f" of {call.wager}" if call.wager is not None else ""
    whose = "your" if call.wager_maker == seat else f"{names[call.wager_maker]}'s"
    if call.accuser == seat:  # their own call, sent twice (a double tap, a retry)
        return (f"you already called \"Liar!\" on {whose} wager{wager}: the dice of round "
                f"{call.round} are revealed")
    return (f"{names[call.accuser]} called \"Liar!\" first, on {whose} wager{wager}: the "
            f"dice of round {call.round} are revealed")


def stale_call(game: LiarsDiceGame, round_: int | None, wager: str | None,
               seat: int | None = None) -> str | None:
    """Why a call by ``seat`` meant for the wager ``wager`` (code) of round ``round_`` no
    longer applies, or ``None`` if that wager still stands (or the call named none)."""
    if round_ is None and wager is None:
        return None
    standing = game.current_wager
    if round_ in (None, game.round) and standing is not None \
            and wager in (None, standing.code()):
        return None
    call = last_call(game)
    if call is not None and (round_ is None or call.round == round_) \
            and (round_ != game.round or standing is None):
        return _called_first(game, call, seat)
    if standing is not None and round_ == game.round and game.wager_maker is not None:
        return (f"the wager changed before your call: {game.players[game.wager_maker]} now "
                f"says at least {standing}; call again if you doubt that")
    return f"the wager you called ({wager or 'any'}, round {round_}) no longer stands"


def refused_call(game: LiarsDiceGame, seat: int | None = None) -> str | None:
    """For a call the engine refused with no wager standing: who called first, if the
    previous round ended in a call (a client that named no wager lost a race)."""
    if game.current_wager is not None:
        return None
    call = last_call(game)
    if call is not None and call.round in (game.round, game.round - 1):
        return _called_first(game, call, seat)
    return None
