"""Drive a game with one agent per seat, reporting each new event to an observer.

One loop serves both games: each decision asks the seats the game's definition names,
in its asking order (:meth:`tavern_dice.games.GameDefinition.asking_order`: in Liar's
Dice, after every wager, each other player still in the game from the wager-maker's
left, the player to act last, since the seed lets "another player" accuse before
wager-making "continues to the left"), and applies the first action given
(:func:`tavern_dice.games.step`). An agent's illegal answer raises the engine's error
(a bot bug); a person's interface re-asks before answering.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tavern_dice.blackjack.events import RoundOpened
from tavern_dice.blackjack.state import BlackjackGame, Phase
from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent
from tavern_dice.errors import TavernError
from tavern_dice.events import Event
from tavern_dice.games import Engine, definition_of, step
from tavern_dice.liars_dice.round_cap import (
    ROUND_CAP_FACTOR,
    DecisionCapError,
    check_round_cap,
    decision_cap,
)
from tavern_dice.liars_dice.state import LiarsDiceGame

__all__ = [
    "ROUND_CAP_FACTOR", "DecisionCapError", "Observer", "check_round_cap", "decision_cap",
    "liars_dice_step", "play_blackjack_round", "play_liars_dice", "play_until",
]

Observer = Callable[[Event], None]

class _Feed:
    """Passes events that are new in a game's log to the observer."""

    def __init__(self, log: list[Event], observer: Observer | None, start: int = 0) -> None:
        self._log = log
        self._observer = observer
        self._seen = start

    def flush(self) -> None:
        while self._seen < len(self._log):
            event = self._log[self._seen]
            self._seen += 1
            if self._observer is not None:
                self._observer(event)


def liars_dice_step(game: LiarsDiceGame, agents: Sequence[LiarsDiceAgent]) -> None:
    """Make one decision: an out-of-turn accusation, or the player to act's action."""
    step(game, agents)


def play_until(
    game: Engine,
    agents: Sequence[Any],
    done: Callable[[], bool],
    observer: Observer | None = None,
    *,
    max_decisions: int | None = None,
    before_each: Callable[[], None] | None = None,
    reported: int = 0,
) -> int:
    """Let ``agents[seat]`` play ``game`` until ``done()``; return the decisions made.

    Args:
        observer: told each event of the log from number ``reported`` on, as it happens.
        max_decisions: stop with :class:`DecisionCapError` after this many decisions.
        before_each: called before each decision (it may raise to stop the game).

    Raises:
        TavernError: an agent answered with an illegal action, or nobody can act.

    A chance node the engine leaves to its caller (its chance policy,
    :mod:`tavern_dice.chance`) is resolved here from the engine's own dice source, so a
    game made not to roll for itself (dice typed at the terminal, shown in order) plays
    on the same way.
        DecisionCapError: ``max_decisions`` decisions made and not ``done()``.
    """
    feed = _Feed(game.log, observer, reported)
    feed.flush()
    made = 0
    while not done():
        if max_decisions is not None and made >= max_decisions:
            raise DecisionCapError(f"no winner after {max_decisions} decisions; stopped")
        if before_each is not None:
            before_each()
        if step(game, agents) is None:
            if game.chance_request() is None:
                raise TavernError("nobody can act, and no dice are waiting to be rolled")
            game.roll()
            feed.flush()
            continue
        made += 1
        feed.flush()
    return made


def play_liars_dice(
    game: LiarsDiceGame,
    agents: Sequence[LiarsDiceAgent],
    observer: Observer | None = None,
    max_decisions: int | None = None,
) -> int:
    """Play ``game`` to its end with ``agents[seat]`` for each seat; return the winner's seat.

    Args:
        max_decisions: stop after this many decisions (default :func:`decision_cap`).

    Raises:
        TavernError: an agent answered with an illegal action.
        DecisionCapError: no winner after ``max_decisions`` decisions, or a round that
            goes round for ever (:func:`check_round_cap`).
    """
    if len(agents) != game.num_players:
        raise ValueError(f"need {game.num_players} agents, got {len(agents)}")
    cap = decision_cap(game) if max_decisions is None else max_decisions
    play_until(game, agents, lambda: game.is_over, observer, max_decisions=cap,
               before_each=lambda: definition_of(game).check_progress(game))
    assert game.winner is not None
    return game.winner


def play_blackjack_round(
    game: BlackjackGame,
    agents: Sequence[BlackjackAgent | None],
    observer: Observer | None = None,
) -> None:
    """Play the open round of ``game``: bets, then each bettor's turn, to settlement.

    ``agents[seat] is None`` sits that seat out. Opens a new round first if the last
    one is over.
    """
    # Report this round's events only: earlier rounds were reported by earlier calls.
    if game.phase is Phase.ROUND_OVER:
        start = len(game.log)
        game.new_round()
    else:
        start = max(i for i, e in enumerate(game.log) if isinstance(e, RoundOpened))
    play_until(game, agents, lambda: game.phase is Phase.ROUND_OVER, observer, reported=start)
