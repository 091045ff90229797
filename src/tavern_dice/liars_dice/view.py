"""Per-player views of a Liar's Dice game: what one seat may see, and nothing more.

A view holds the viewer's own dice, every player's dice count (lives), the
standing wager, whose turn it is, the viewer's legal actions, the last reveal
and the log masked for the viewer. Other players' unrevealed dice never appear.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tavern_dice.errors import IllegalActionError
from tavern_dice.events import Event
from tavern_dice.liars_dice.actions import Accuse, LiarsDiceAction, as_action
from tavern_dice.liars_dice.checks import check_accuse, check_wager
from tavern_dice.liars_dice.events import Revealed
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager, wager_codes
from tavern_dice.view_base import ViewMixin

if TYPE_CHECKING:
    from tavern_dice.liars_dice.state import LiarsDiceGame


@dataclass(slots=True)
class LiarsDiceView(ViewMixin[LiarsDiceAction]):
    """One seat's view (``seat is None``: a spectator, who sees only what is public).

    A view is a snapshot: changing it changes nothing in the game. (It is not a frozen
    dataclass because views are built for every bot decision, and frozen construction
    costs more than half of it.)

    Attributes:
        own_dice: the viewer's faces this round (empty for a spectator or a player out).
        dice_counts: every seat's dice (lives), public (L1).
        wager / wager_maker: the standing wager and who made it, or ``None``.
        round_wagers: this round's wagers so far, oldest first, as ``(seat, wager)``.
        legal_wagers: what the viewer may wager now (empty unless it is their turn).
        may_accuse: whether the viewer may accuse now (L7).
        last_reveal: the latest reveal, with every hand shown, or ``None``.
        log: the events as the viewer may see them (a tuple, built when first read).
    """

    seat: int | None
    players: tuple[str, ...]
    rules: LiarsDiceRules
    phase: str
    round: int
    starter: int | None
    turn: int | None
    own_dice: tuple[int, ...]
    dice_counts: tuple[int, ...]
    dice_in_play: int
    sum_wagers: bool
    wager: AnyWager | None
    wager_maker: int | None
    round_wagers: tuple[tuple[int, AnyWager], ...]
    legal_wagers: tuple[AnyWager, ...]
    may_accuse: bool
    last_reveal: Revealed | None
    winner: int | None
    # The game's log is append-only, so a snapshot of it is the list and its length now;
    # events are masked for the viewer only if someone reads ``log``.
    _events: list[Event] = field(repr=False, compare=False)
    _log_length: int = field(repr=False)

    @staticmethod
    def of(game: LiarsDiceGame, seat: int | None) -> LiarsDiceView:
        """Build ``seat``'s view of ``game``."""
        # Reads the engine's fields directly (not its tuple-building properties): views are
        # built for every bot decision.
        is_turn = seat is not None and seat == game.turn
        counts = game._counts
        return LiarsDiceView(
            seat=seat,
            players=game.players,
            rules=game.rules,
            phase=game.phase.value,
            round=game.round,
            starter=game.starter,
            turn=game.turn,
            own_dice=game._hands[seat] if seat is not None else (),
            dice_counts=tuple(counts),
            dice_in_play=sum(counts),
            sum_wagers=game.sum_wagers,
            wager=game.current_wager,
            wager_maker=game.wager_maker,
            round_wagers=game.round_wagers,
            legal_wagers=game._legal_wagers() if is_turn else (),
            may_accuse=seat is not None and game.can_accuse(seat),
            last_reveal=game.last_reveal,
            winner=game.winner,
            _events=game.log,
            _log_length=len(game.log),
        )

    def verify(self, action: LiarsDiceAction) -> None:
        """Raise if the viewer may not take ``action`` now, with the engine's own message
        (the checks read only what the view shows: :mod:`~tavern_dice.liars_dice.checks`),
        so a player's interface checks an answer without the referee's game.

        Raises:
            InvalidActionError: ``action`` is no action. IllegalActionError: the rules
                refuse it now, or the viewer is a spectator.
        """
        chosen = as_action(action)
        if self.seat is None:
            raise IllegalActionError("a spectator takes no action; only seated players act")
        if isinstance(chosen, Accuse):
            check_accuse(self.seat, players=self.players, phase=self.phase,
                         wager_maker=self.wager_maker, counts=self.dice_counts)
            return
        check_wager(
            chosen, self.seat, players=self.players, rules=self.rules, phase=self.phase,
            turn=self.turn, standing=self.wager, sum_wagers=self.sum_wagers,
            counts=self.dice_counts, round_wagers=self.round_wagers,
        )

    def personal_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "own_dice": list(self.own_dice),
            "legal_wagers": wager_codes(self.legal_wagers, self.dice_in_play, self.rules.sides),
            "may_accuse": self.may_accuse,
        }

    def _state_dict(self) -> dict[str, Any]:
        return {
            "starter": self.starter,
            "turn": self.turn,
            "own_dice": list(self.own_dice),
            "dice_counts": list(self.dice_counts),
            "dice_in_play": self.dice_in_play,
            "sum_wagers": self.sum_wagers,
            "wager": None if self.wager is None else self.wager.code(),
            "wager_text": None if self.wager is None else str(self.wager),
            "wager_maker": self.wager_maker,
            "round_wagers": [[seat, w.code()] for seat, w in self.round_wagers],
            "legal_wagers": wager_codes(self.legal_wagers, self.dice_in_play, self.rules.sides),
            "may_accuse": self.may_accuse,
            "last_reveal": None if self.last_reveal is None else _reveal_data(self.last_reveal),
            "winner": self.winner,
        }


_last_reveal_data: tuple[Revealed | None, dict[str, Any]] = (None, {})
"""The latest reveal turned into data: ``(event, data)``, replaced as one (bots build views
on worker threads)."""


def _reveal_data(reveal: Revealed) -> dict[str, Any]:
    """``reveal.to_dict()``, made once for the reveal: every seat's view shows it, and a
    table builds them all at each change. The views of one reveal share it (read-only)."""
    global _last_reveal_data
    event, data = _last_reveal_data
    if event is not reveal:
        data = reveal.to_dict()
        _last_reveal_data = (reveal, data)
    return data
