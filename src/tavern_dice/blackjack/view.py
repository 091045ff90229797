"""Per-player views of a Dice Blackjack session. Nothing in this game is secret: the
target and the house roll are shown before players roll (B5), so a view is the public
state plus what the viewer may do now."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tavern_dice.blackjack.actions import Bet, BlackjackAction, Roll, SitOut, as_action
from tavern_dice.blackjack.checks import (
    PLAYING,
    check_acting,
    check_amount,
    check_betting_seat,
    check_bonus,
)
from tavern_dice.blackjack.events import Settled
from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.errors import IllegalActionError
from tavern_dice.events import Event
from tavern_dice.view_base import ViewMixin

if TYPE_CHECKING:
    from tavern_dice.blackjack.state import BlackjackGame


@dataclass(frozen=True, slots=True)
class BlackjackView(ViewMixin[BlackjackAction]):
    """One seat's view (``seat is None``: a spectator or the DM's public screen).

    Amounts in cp. ``house_roll`` is ``None`` before the house rolls and after a house
    bust (see ``house_bust``). ``legal_actions`` are the kinds of action the viewer may
    take (``'bet'``, ``'sit-out'``, ``'roll'``, ``'stand'``), from
    :meth:`BlackjackGame.action_kinds`; ``bet_limits`` is ``(min, max)`` cp when betting.
    ``log`` is the events as the viewer may see them, up to when the view was made (a
    tuple, built when first read).
    """

    seat: int | None
    players: tuple[str, ...]
    rules: BlackjackRules
    phase: str
    round: int
    balances: tuple[int, ...]
    house_net: int
    proficiency: tuple[int | None, ...]
    bets: dict[int, int]
    target: int | None
    house_dice: tuple[int, ...]
    house_roll: int | None
    house_bust: bool
    totals: dict[int, int]
    finals: dict[int, int | None]
    turn: int | None
    legal_actions: tuple[str, ...]
    legal_bonuses: tuple[int, ...]
    bet_limits: tuple[int, int] | None
    settlements: tuple[Settled, ...]
    # The game's log is append-only, so a snapshot of it is the list and its length now.
    # Copying it into every view made a long session quadratic: views are built for every
    # decision, and only a reader of ``log`` needs the events.
    _events: list[Event] = field(repr=False, compare=False)
    _log_length: int = field(repr=False)

    @staticmethod
    def of(game: BlackjackGame, seat: int | None) -> BlackjackView:
        """Build ``seat``'s view of ``game``."""
        actions = tuple(game.action_kinds(seat)) if seat is not None else ()
        return BlackjackView(
            seat=seat,
            players=game.players,
            rules=game.rules,
            phase=game.phase.value,
            round=game.round,
            balances=game.balances,
            house_net=game.house_net,
            proficiency=game.proficiency,
            bets=dict(game.bets),
            target=game.target,
            house_dice=game.house_dice,
            house_roll=game.house_roll,
            house_bust=game.house_bust,
            totals=dict(game.totals),
            finals=dict(game.finals),
            turn=game.turn,
            legal_actions=actions,
            legal_bonuses=game.legal_bonuses(seat) if seat is not None else (),
            bet_limits=game.bet_limits(seat) if "bet" in actions and seat is not None else None,
            settlements=tuple(game.settlements()) if game.phase.value == "round-over" else (),
            _events=game.log,
            _log_length=len(game.log),
        )

    def verify(self, action: BlackjackAction) -> None:
        """Raise if the viewer may not take ``action`` now, with the engine's own message
        (:mod:`~tavern_dice.blackjack.checks` reads only what a view shows), so a player's
        interface checks an answer without the referee's game. (Out of turn while the
        turn's d12 is still to be rolled, the view says whose turn it is, where the engine
        says the d12 comes first.)

        Raises:
            InvalidActionError: ``action`` is no action. IllegalActionError (or
                ``InsufficientFundsError``): the rules refuse it now, or the viewer is a
                spectator.
        """
        chosen = as_action(action)
        seat = self.seat
        if seat is None:
            raise IllegalActionError("a spectator takes no action; only seated players act")
        kinds = self.legal_actions
        if isinstance(chosen, Bet | SitOut):
            # Balances do not move while bets are open: eligible now is eligible at the
            # round's opening (B1).
            balance = self.balances[seat]
            eligible = balance >= self.rules.min_bet_cp
            check_betting_seat(
                seat, players=self.players, rules=self.rules, phase=self.phase,
                eligible=eligible, decided=seat in self.bets or (eligible and not kinds),
                balance=balance,
            )
            if isinstance(chosen, Bet):
                check_amount(seat, chosen.amount, players=self.players, rules=self.rules,
                             balance=balance)
            return
        pending = self.phase == PLAYING and seat == self.turn and not kinds
        check_acting(seat, players=self.players, phase=self.phase, turn=self.turn,
                     d12_pending=pending)
        if not isinstance(chosen, Roll):
            check_bonus(
                seat, chosen.bonus, players=self.players, rules=self.rules,
                legal=self.legal_bonuses, proficiency=self.proficiency[seat],
                total=self.totals.get(seat, 0), target=self.target,
            )

    def personal_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "legal_actions": list(self.legal_actions),
            "legal_bonuses": list(self.legal_bonuses),
            "bet_limits": None if self.bet_limits is None else list(self.bet_limits),
        }

    def _state_dict(self) -> dict[str, Any]:
        return {
            "balances": list(self.balances),
            "house_net": self.house_net,
            "proficiency": list(self.proficiency),
            "bets": {str(k): v for k, v in self.bets.items()},
            "target": self.target,
            "house_dice": list(self.house_dice),
            "house_roll": self.house_roll,
            "house_bust": self.house_bust,
            "totals": {str(k): v for k, v in self.totals.items()},
            "finals": {str(k): v for k, v in self.finals.items()},
            "turn": self.turn,
            "legal_actions": list(self.legal_actions),
            "legal_bonuses": list(self.legal_bonuses),
            "bet_limits": None if self.bet_limits is None else list(self.bet_limits),
            "settlements": [s.to_dict() for s in self.settlements],
        }
