"""Moves a bot makes for a seat: a bot's own seat, a stand-in for an away player, and the
one move a stand-in makes when a person's turn timer runs out.

Decisions come from the bot agents (``tavern_dice.bots``), which see only their
seat's view; each move is returned as a call on the engine, which checks it.
Which seats are bot-played and which agent plays them is the table's business,
passed in as ``controls(seat)`` and ``agent_for(seat)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.state import Phase as BlackjackPhase
from tavern_dice.bots.base import ACCUSE
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.state import Phase as LiarsPhase
from tavern_dice.play.runner import check_round_cap

Engine = LiarsDiceGame | BlackjackGame
Move = Callable[[], object]
"""A move, ready to run: a bound call of an engine action."""
AgentFor = Callable[[int], Any]
"""The agent that plays a seat (a ``LiarsDiceAgent`` or ``BlackjackAgent``)."""
TimerKey = tuple[Any, ...]


@dataclass(slots=True)
class AskMemory:
    """Which bots were already asked whether to accuse the standing wager (log length
    ``at``): each is asked once per wager, as the terminal runner does."""

    at: int = -1
    seats: set[int] = field(default_factory=set)


def liars_bot_move(engine: LiarsDiceGame, controls: Callable[[int], bool],
                   agent_for: AgentFor, asked: AskMemory) -> Move | None:
    """The next move a bot-played seat makes now in Liar's Dice, or ``None`` if the game
    waits for a person.

    Raises:
        DecisionCapError: a round that has gone round too long
            (:func:`~tavern_dice.play.runner.check_round_cap`).

    After a wager, each bot that may accuse is asked once (L7); then the bot to act, if
    any, raises or accuses.
    """
    if engine.phase is not LiarsPhase.BIDDING:
        return None
    # With repeat_wagers on, bots may pass the same wagers round for ever: stop the
    # round the way the terminal runner does (raises DecisionCapError).
    check_round_cap(engine)
    if engine.wager_maker is not None:
        if asked.at != len(engine.log):
            asked.at, asked.seats = len(engine.log), set()
        for seat in engine.accusers():
            if seat == engine.turn or seat in asked.seats or not controls(seat):
                continue
            asked.seats.add(seat)
            if agent_for(seat).wants_to_accuse(engine.view(seat)):
                return partial(engine.accuse, seat)
    turn = engine.turn
    if turn is not None and controls(turn):
        return move_for(engine, turn, agent_for(turn))
    return None


def blackjack_bot_move(engine: BlackjackGame, controls: Callable[[int], bool],
                       agent_for: AgentFor, asked: AskMemory) -> Move | None:
    """The next move a bot-played seat makes now in Dice Blackjack, or ``None`` if the
    game waits for a person (or the DM): bots bet in seat order, and the bot whose turn
    it is rolls or stands once its d12 is rolled. (``asked`` is Liar's Dice's.)"""
    if engine.phase is BlackjackPhase.BETTING:
        for seat in engine.eligible:
            if "bet" in engine.legal_actions(seat) and controls(seat):
                return move_for(engine, seat, agent_for(seat))
        return None
    turn = engine.turn
    if engine.phase is BlackjackPhase.PLAYING and turn is not None \
            and engine.chance_request() is None and controls(turn):
        return move_for(engine, turn, agent_for(turn))
    return None


def move_for(engine: Engine, seat: int, agent: Any) -> Move:
    """What ``agent`` does for ``seat`` now: a wager or accusation on its Liar's Dice
    turn; a bet (or sitting out) while Blackjack bets are open; else roll or stand."""
    view = engine.view(seat)
    if isinstance(engine, LiarsDiceGame):
        action = agent.choose_action(view)
        if action == ACCUSE:
            return partial(engine.accuse, seat)
        return partial(engine.wager, action, seat)
    if engine.phase is BlackjackPhase.BETTING:
        bet = agent.choose_bet(view)
        if bet is None:
            return partial(engine.sit_out, seat)
        return partial(engine.place_bet, seat, bet)
    move, bonus = agent.choose_move(view)
    if move == "roll":
        return partial(engine.roll_again, seat)
    return partial(engine.stand, seat, bonus)


def liars_must_act(engine: LiarsDiceGame, seat: int) -> bool:
    """Whether the Liar's Dice game waits on ``seat`` now (its turn)."""
    return engine.turn == seat


def blackjack_must_act(engine: BlackjackGame, seat: int) -> bool:
    """Whether the Dice Blackjack game waits on ``seat`` now (to bet, roll or stand)."""
    return bool(engine.legal_actions(seat))


def liars_timer_target(engine: LiarsDiceGame, person: Callable[[int], bool]
                       ) -> tuple[TimerKey, tuple[int, ...]] | None:
    """The person the Liar's Dice game waits on now, for a turn timer: ``(key, seats)``.
    The key changes with each new decision, so a timer runs once per decision."""
    turn = engine.turn
    if engine.phase is LiarsPhase.BIDDING and turn is not None and person(turn):
        return ("turn", len(engine.log)), (turn,)
    return None


def blackjack_timer_target(engine: BlackjackGame, person: Callable[[int], bool]
                           ) -> tuple[TimerKey, tuple[int, ...]] | None:
    """The people the Dice Blackjack game waits on now, for a turn timer: everyone yet
    to bet in a betting round (one key per round), or the player to act."""
    if engine.phase is BlackjackPhase.BETTING:
        waiting = tuple(seat for seat in engine.eligible
                        if "bet" in engine.legal_actions(seat) and person(seat))
        return (("bet", engine.round), waiting) if waiting else None
    turn = engine.turn
    if engine.phase is BlackjackPhase.PLAYING and turn is not None \
            and engine.chance_request() is None and person(turn):
        return ("turn", len(engine.log)), (turn,)
    return None
