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
from tavern_dice.errors import TavernError
from tavern_dice.events import Event
from tavern_dice.liars_dice.state import LiarsDiceGame

Observer = Callable[[Event], None]

ROUND_CAP_FACTOR = 10
"""With ``repeat_wagers`` on under the ``either`` rule a round has no end; the runner stops
one after this many times ``sides x dice in play`` wagers (every other round ends within
``sides x dice in play``, L5b)."""


class DecisionCapError(TavernError):
    """A game stopped by the runner because its agents would not end it."""


def decision_cap(game: LiarsDiceGame) -> int:
    """The most decisions a game of ``game``'s table can take when every round ends within
    its :attr:`~LiarsDiceGame.round_wager_limit`: each round costs at least one die, and
    holds at most ``sides x dice in play`` wagers and one accusation."""
    dice = sum(game.starting_dice)
    per_round = game.rules.sides * dice + 1
    if game.rules.repeat_wagers:
        per_round *= ROUND_CAP_FACTOR
    return max(dice - 1, 1) * per_round


def check_round_cap(game: LiarsDiceGame) -> None:
    """Stop a round that has gone round too long (repeats on, see :data:`ROUND_CAP_FACTOR`).

    Raises:
        DecisionCapError: naming the round, its wagers and the option that allows this.
    """
    if game.round_wager_limit is not None:
        return
    cap = ROUND_CAP_FACTOR * game.rules.sides * game.dice_in_play
    if len(game.round_wagers) >= cap:
        recent = ", ".join(str(w) for _, w in game.round_wagers[-4:])
        raise DecisionCapError(
            f"round {game.round} has gone on for {len(game.round_wagers)} wagers (the last: "
            f"{recent}) without an accusation: with repeat_wagers on, the 'either' raise "
            "rule lets wagers come round again for ever; stopped. Play with repeated "
            "wagers forbidden (the tavern preset, L5b) to make every round end."
        )


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
    feed = _Feed(game.log, observer)
    feed.flush()
    for _ in range(cap):
        if game.is_over:
            assert game.winner is not None
            return game.winner
        check_round_cap(game)
        liars_dice_step(game, agents)
        feed.flush()
    if game.is_over:
        assert game.winner is not None
        return game.winner
    raise DecisionCapError(f"no winner after {cap} decisions; stopped")


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
