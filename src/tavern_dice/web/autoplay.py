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

from tavern_dice.errors import TavernError
from tavern_dice.games import Ask, Engine, apply_action, definition_of

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


def next_bot_move(engine: Engine, controls: Callable[[int], bool], agent_for: AgentFor,
                  asked: AskMemory) -> Move | None:
    """The next move a bot-played seat makes now, or ``None`` if the game waits for a
    person (or the DM).

    Raises:
        DecisionCapError: a Liar's Dice round that has gone round too long
            (:func:`~tavern_dice.play.runner.check_round_cap`).

    The seats are asked in the game's asking order
    (:meth:`~tavern_dice.games.GameDefinition.asking_order`), skipping people's: in
    Liar's Dice, after a wager, each bot that may accuse is asked once (L7), then the bot
    to act, if any, raises or accuses; in Blackjack bots bet in seat order, and the bot
    whose turn it is rolls or stands once its d12 is rolled.
    """
    definition = definition_of(engine)
    # With repeat_wagers on, bots may pass the same wagers round for ever: stop the round
    # the way the terminal runner does (raises DecisionCapError).
    definition.check_progress(engine)
    if asked.at != len(engine.log):
        asked.at, asked.seats = len(engine.log), set()
    for ask in definition.asking_order(engine):
        if not controls(ask.seat):
            continue
        if ask.optional:
            if ask.seat in asked.seats:
                continue
            asked.seats.add(ask.seat)
        move = _move(engine, ask, agent_for(ask.seat))
        if move is not None:
            return move
    return None


def _move(engine: Engine, ask: Ask, agent: Any) -> Move | None:
    try:
        action = definition_of(engine).answer(engine, ask, agent)
    except TavernError as error:
        # A malformed answer (a bot bug) fails when the move runs, as an illegal one does,
        # where the table logs it and carries on.
        return partial(_refuse, error)
    return None if action is None else partial(apply_action, engine, ask.seat, action)


def _refuse(error: TavernError) -> None:
    raise error


def move_for(engine: Engine, seat: int, agent: Any) -> Move:
    """What ``agent`` does for ``seat`` now, when the game waits on it: a wager or
    accusation on its Liar's Dice turn; a bet (or sitting out) while Blackjack bets are
    open; else roll or stand."""
    move = _move(engine, Ask(seat, False), agent)
    assert move is not None  # a seat that must act answers
    return move


def must_act(engine: Engine, seat: int) -> bool:
    """Whether the game waits on ``seat`` now."""
    return seat in definition_of(engine).waiting_on(engine)


def timer_target(engine: Engine, person: Callable[[int], bool]
                 ) -> tuple[TimerKey, tuple[int, ...]] | None:
    """The people the game waits on now, for a turn timer: ``(key, seats)``. The key
    changes with each new decision (a new turn, a new betting round), so a timer runs
    once per decision."""
    definition = definition_of(engine)
    waiting = tuple(seat for seat in definition.waiting_on(engine) if person(seat))
    return (definition.decision_key(engine), waiting) if waiting else None
