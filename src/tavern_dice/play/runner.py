"""Drive a game with one agent per seat, reporting each new event to an observer.

The runner asks, after every wager, each other player still in the game (starting
to the wager-maker's left, the player to act last) whether to accuse, since the
seed lets "another player" accuse before wager-making "continues to the left";
then the player to act raises or accuses. An agent's illegal answer raises the
engine's error (a bot bug); a person's interface re-asks before answering.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tavern_dice.blackjack.events import RoundOpened
from tavern_dice.blackjack.state import BlackjackGame, Phase
from tavern_dice.bots.base import ACCUSE, BlackjackAgent, LiarsDiceAgent
from tavern_dice.events import Event
from tavern_dice.liars_dice.state import LiarsDiceGame

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
    for seat in game.accusers():
        if seat != game.turn and agents[seat].wants_to_accuse(game.view(seat)):
            game.accuse(seat)
            return
    actor = game.turn
    assert actor is not None
    action = agents[actor].choose_action(game.view(actor))
    if action == ACCUSE:
        game.accuse(actor)
    else:
        game.wager(action, actor)


def play_liars_dice(
    game: LiarsDiceGame,
    agents: Sequence[LiarsDiceAgent],
    observer: Observer | None = None,
    max_decisions: int = 1_000_000,
) -> int:
    """Play ``game`` to its end with ``agents[seat]`` for each seat; return the winner's seat.

    Raises:
        TavernError: an agent answered with an illegal action.
        RuntimeError: no winner after ``max_decisions`` decisions (agents that loop).
    """
    if len(agents) != game.num_players:
        raise ValueError(f"need {game.num_players} agents, got {len(agents)}")
    feed = _Feed(game.log, observer)
    feed.flush()
    for _ in range(max_decisions):
        if game.is_over:
            assert game.winner is not None
            return game.winner
        liars_dice_step(game, agents)
        feed.flush()
    raise RuntimeError(f"no winner after {max_decisions} decisions")


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
    else:
        start = max(i for i, e in enumerate(game.log) if isinstance(e, RoundOpened))
    feed = _Feed(game.log, observer, start)
    if game.phase is Phase.ROUND_OVER:
        game.new_round()
    feed.flush()
    for seat in game.eligible:
        agent = agents[seat]
        bet = agent.choose_bet(game.view(seat)) if agent is not None else None
        if bet is None:
            game.sit_out(seat)
        else:
            game.place_bet(seat, bet)
        feed.flush()
    while game.phase is Phase.PLAYING:
        actor = game.turn
        assert actor is not None
        player = agents[actor]
        assert player is not None
        move, bonus = player.choose_move(game.view(actor))
        if move == "roll":
            game.roll_again(actor)
        else:
            game.stand(actor, bonus)
        feed.flush()
