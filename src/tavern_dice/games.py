"""The games by name: one definition per game, so that shells dispatch instead of branching.

A :class:`GameDefinition` says what a game is (its name in logs, its state and rules
classes, presets, bots and seat limits) and, for whoever seats agents (the terminal
runner, the web table's bots), **who may act now, in asking order**, and what each of
them is asked. Those two are written here once:

* Liar's Dice (L7): after a wager, every other player still in the game, starting to
  the wager-maker's left, *may* accuse it out of turn; the player to act is asked last
  and *must* raise or accuse.
* Dice Blackjack (B2, B6): while bets are open each undecided player, in seat order,
  must bet or sit out; then the player whose turn it is must roll or stand once their
  d12 is rolled.

>>> LIARS_DICE.name, GAMES["blackjack"].title
('liars-dice', 'Dice Blackjack')
>>> from tavern_dice.dice import ScriptedDice
>>> from tavern_dice.liars_dice import LiarsDiceGame, Wager
>>> game = LiarsDiceGame(3, dice=ScriptedDice([(6,) * 5, (1,) * 5, (2,) * 5] + [(3,) * 5] * 3))
>>> game.apply(0, Wager(2, 3))
WagerMade(seat=0, quantity=2, face=3, total=None)
>>> definition_of(game).asking_order(game)     # seat 2 may accuse first; seat 1 must act
(Ask(seat=2, optional=True), Ask(seat=1, optional=False))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from tavern_dice.blackjack.actions import Bet as BetAction
from tavern_dice.blackjack.actions import BlackjackAction
from tavern_dice.blackjack.actions import Roll as RollAction
from tavern_dice.blackjack.actions import SitOut as SitOutAction
from tavern_dice.blackjack.actions import Stand as StandAction
from tavern_dice.blackjack.rules import PRESETS as BLACKJACK_PRESETS
from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.state import Phase as BlackjackPhase
from tavern_dice.bots.registry import (
    BLACKJACK_BOTS,
    LIARS_DICE_BOTS,
    make_blackjack_bot,
    make_liars_dice_bot,
)
from tavern_dice.errors import InvalidActionError, LogError, TavernError
from tavern_dice.events import Event
from tavern_dice.liars_dice.actions import ACCUSE, Accuse, LiarsDiceAction
from tavern_dice.liars_dice.checks import asked_out_of_turn
from tavern_dice.liars_dice.events import Accused
from tavern_dice.liars_dice.round_cap import check_round_cap
from tavern_dice.liars_dice.rules import PRESETS as LIARS_DICE_PRESETS
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.state import Phase as LiarsPhase
from tavern_dice.liars_dice.wager import parse_wager

if TYPE_CHECKING:
    from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent

Engine = LiarsDiceGame | BlackjackGame
"""A game state of either game."""
Action = LiarsDiceAction | BlackjackAction
"""An action of either game."""
Rules = LiarsDiceRules | BlackjackRules


class Ask(NamedTuple):
    """One seat to ask now: ``optional`` seats may pass (an out-of-turn accusation, L7);
    the others must act before the game goes on."""

    seat: int
    optional: bool


@dataclass(frozen=True, slots=True)
class GameDefinition:
    """One game, as the shells see it (see the module doc).

    Attributes:
        name: the name in saved logs (``"game"``) and on the command line.
        title: the name people read.
        state: the engine class (its ``from_log`` replays a log).
        rules: the ruleset class; presets: its named rulesets (``tavern`` is the seed).
        bots: the bot kinds by name; make_bot: ``make_bot(kind, name=..., seed=...)``.
        moving_on: the inputs after which the engine moves straight on to what comes next
            (a Liar's Dice accusation: the reveal, then the next round), so that a record
            (:mod:`tavern_dice.record`) shows the game as it stood at them.

    The game-specific parts (asking order, answers, progress checks, decision keys, web
    messages) are the functions below, reached through the methods.
    """

    name: str
    title: str
    state: type[LiarsDiceGame] | type[BlackjackGame]
    rules: type[LiarsDiceRules] | type[BlackjackRules]
    presets: Mapping[str, Rules]
    bots: Mapping[str, Callable[..., Any]]
    make_bot: Callable[..., Any]
    moving_on: tuple[type[Event], ...]
    _check_progress: Callable[[Any], None]
    _decision_key: Callable[[Any], tuple[Any, ...]]
    _asking_order: Callable[[Any], tuple[Ask, ...]]
    _answer: Callable[[Any, Ask, Any], Action | None]
    _from_message: Callable[[Mapping[str, Any]], Action]

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """The fewest and most players a table under ``rules`` seats (the rules own them)."""
        return rules.min_players, rules.max_players

    def asking_order(self, engine: Engine) -> tuple[Ask, ...]:
        """Who may act now, in the order they are asked (empty at a chance node, between
        rounds and at the end)."""
        return self._asking_order(engine)

    def waiting_on(self, engine: Engine) -> tuple[int, ...]:
        """The seats the game waits on now (those that must act), in asking order."""
        return tuple(ask.seat for ask in self._asking_order(engine) if not ask.optional)

    def check_progress(self, engine: Engine) -> None:
        """Raise if the game has gone on without end (see
        :func:`~tavern_dice.liars_dice.round_cap.check_round_cap`); call before asking.

        Raises:
            DecisionCapError: a Liar's Dice round that has gone round too long.
        """
        self._check_progress(engine)

    def decision_key(self, engine: Engine) -> tuple[Any, ...]:
        """A key that changes with each new decision the game waits on (a new turn, a new
        betting round), so that a turn timer runs once per decision."""
        return self._decision_key(engine)

    def answer(self, engine: Engine, ask: Ask, agent: Any) -> Action | None:
        """Ask ``agent`` (a bot or a person's agent, or ``None`` for an empty Blackjack seat,
        which sits out) what it does for ``ask.seat`` now, from that seat's view only, and
        return its answer, one of the engine's actions (which the engine checks when it is
        applied); ``None``: an optional seat passes."""
        return self._answer(engine, ask, agent)

    def action_from_message(self, message: Mapping[str, Any]) -> Action:
        """An action from a web frame's fields (``{"type": "wager", "wager": "3x2"}``,
        ``{"type": "accuse"}``, ``{"type": "bet", "amount_cp": 200}``, ``{"type": "sit_out"}``,
        ``{"type": "roll"}``, ``{"type": "stand", "bonus": 1}``; other fields are ignored).

        Raises:
            InvalidActionError: a type this game has no action for, or bad fields.
        """
        return self._from_message(message)

    def from_log(self, data: dict[str, Any]) -> Engine:
        """Replay a saved log of this game (``state.from_log``).

        Raises:
            LogError: the log does not replay.
        """
        return self.state.from_log(data)


# ---------------------------------------------------------------------- Liar's Dice


def _liars_asking_order(game: LiarsDiceGame) -> tuple[Ask, ...]:
    if game.phase is not LiarsPhase.BIDDING or game.turn is None:
        return ()
    # L7, seed: "After a wager is made, another player can accuse the wager-maker of
    # lying" before wager-making "continues to the left": every other player may call,
    # from the wager-maker's left; the player to act is asked last.
    turn = game.turn
    if game.wager_maker is None:
        return (Ask(turn, False),)
    out = [Ask(seat, True) for seat in asked_out_of_turn(game.wager_maker, turn,
                                                         game.dice_counts)]
    out.append(Ask(turn, False))
    return tuple(out)


def _liars_answer(game: LiarsDiceGame, ask: Ask,
                  agent: LiarsDiceAgent) -> LiarsDiceAction | None:
    view = game.view(ask.seat)
    if ask.optional:
        return ACCUSE if agent.wants_to_accuse(view) else None
    return agent.choose_action(view)


def _liars_from_message(message: Mapping[str, Any]) -> LiarsDiceAction:
    kind = message.get("type")
    if kind == "accuse":
        return Accuse()
    if kind == "wager":
        return parse_wager(message.get("wager"))  # type: ignore[arg-type]  # it checks
    raise InvalidActionError(
        f"{kind!r} is not a Liar's Dice action; the actions are 'wager' and 'accuse'"
    )


def _liars_check_progress(game: LiarsDiceGame) -> None:
    if game.phase is LiarsPhase.BIDDING:
        check_round_cap(game)


def _turn_key(game: Engine) -> tuple[Any, ...]:
    return ("turn", len(game.log))


# ---------------------------------------------------------------------- Dice Blackjack


def _blackjack_asking_order(game: BlackjackGame) -> tuple[Ask, ...]:
    if game.phase is BlackjackPhase.BETTING:
        return tuple(Ask(seat, False) for seat in game.eligible if game.can_sit_out(seat))
    turn = game.turn
    if turn is not None and game.can_roll_again(turn):
        return (Ask(turn, False),)
    return ()


def _blackjack_answer(game: BlackjackGame, ask: Ask,
                      agent: BlackjackAgent | None) -> BlackjackAction:
    if agent is None:
        return SitOutAction()
    view = game.view(ask.seat)
    if game.phase is BlackjackPhase.BETTING:
        return agent.choose_bet(view)
    return agent.choose_move(view)


def _blackjack_decision_key(game: BlackjackGame) -> tuple[Any, ...]:
    # Bets are one decision for the whole table: the timer runs once per betting round.
    return ("bet", game.round) if game.phase is BlackjackPhase.BETTING else _turn_key(game)


def _blackjack_from_message(message: Mapping[str, Any]) -> BlackjackAction:
    kind = message.get("type")
    if kind == "bet":
        return BetAction(message.get("amount_cp"))  # type: ignore[arg-type]  # it checks
    if kind in ("sit_out", "sit-out"):
        return SitOutAction()
    if kind == "roll":
        return RollAction()
    if kind == "stand":
        return StandAction(message.get("bonus", 0))
    raise InvalidActionError(
        f"{kind!r} is not a Dice Blackjack action; the actions are 'bet', 'sit_out', "
        "'roll' and 'stand'"
    )


LIARS_DICE = GameDefinition(
    name=LiarsDiceGame.GAME_NAME, title="Liar's Dice", state=LiarsDiceGame,
    rules=LiarsDiceRules, presets=LIARS_DICE_PRESETS, bots=LIARS_DICE_BOTS,
    make_bot=make_liars_dice_bot, moving_on=(Accused,),
    _check_progress=_liars_check_progress, _decision_key=_turn_key,
    _asking_order=_liars_asking_order, _answer=_liars_answer, _from_message=_liars_from_message,
)
BLACKJACK = GameDefinition(
    name=BlackjackGame.GAME_NAME, title="Dice Blackjack", state=BlackjackGame,
    rules=BlackjackRules, presets=BLACKJACK_PRESETS, bots=BLACKJACK_BOTS,
    make_bot=make_blackjack_bot, moving_on=(), _check_progress=lambda game: None,
    _decision_key=_blackjack_decision_key, _asking_order=_blackjack_asking_order,
    _answer=_blackjack_answer, _from_message=_blackjack_from_message,
)

GAMES: dict[str, GameDefinition] = {d.name: d for d in (LIARS_DICE, BLACKJACK)}
"""Every game by its name in logs (``"liars-dice"``, ``"blackjack"``)."""


class UnknownGameError(TavernError):
    """A game name no definition has; the message lists the known ones."""


def game(name: str) -> GameDefinition:
    """The definition of the game called ``name``.

    Raises:
        UnknownGameError: no such game; the message names the known ones.
    """
    found = GAMES.get(name)
    if found is None:
        raise UnknownGameError(f"no game {name!r}; the games are {', '.join(GAMES)}")
    return found


def definition_of(engine: Engine) -> GameDefinition:
    """The definition of the game ``engine`` plays."""
    return GAMES[engine.GAME_NAME]


def load_log(data: Any) -> Engine:
    """Replay a saved log of any game (its ``"game"`` entry says which).

    Raises:
        LogError: no game log, a game this version does not know, or a log that does not
            replay (the engine's message says what).
    """
    kind = data.get("game") if isinstance(data, dict) else None
    known = " or ".join(repr(name) for name in GAMES)
    if kind is None:
        raise LogError(f"not a game log: it names no game (a saved log has \"game\": {known})")
    if kind not in GAMES:
        raise LogError(f"not a game log this version knows: its 'game' is {kind!r}, "
                       f"expected {known}")
    return GAMES[kind].from_log(data)


def apply_action(engine: Engine, seat: int, action: Action) -> Event:
    """``engine.apply(seat, action)`` for an engine and action of either game (an action
    of the other game is an :class:`~tavern_dice.errors.InvalidActionError`)."""
    return engine.apply(seat, action)  # type: ignore[arg-type]  # the engine checks it


def apply_message(engine: Engine, seat: int, message: Mapping[str, Any]) -> Event:
    """Apply a player's action sent as a web frame's fields (see
    :meth:`GameDefinition.action_from_message`) for ``seat``: the one place a message
    becomes an engine call.

    Raises:
        InvalidActionError: a malformed message. IllegalActionError (``NotYourTurnError``
            among them): the rules refuse it now; the message says what would be legal.
    """
    action = definition_of(engine).action_from_message(message)
    return apply_action(engine, seat, action)


def step(engine: Engine, agents: Sequence[Any]) -> Event | None:
    """Make one decision: ask the seats of :meth:`GameDefinition.asking_order` in turn
    (``agents[seat]``) and apply the first action given; ``None`` if nobody acts (a
    chance node is pending, or the round or game is over).

    Raises:
        TavernError: an agent answered with an illegal action (a bot bug; a person's
            agent re-asks before answering).
    """
    definition = definition_of(engine)
    for ask in definition.asking_order(engine):
        action = definition.answer(engine, ask, agents[ask.seat])
        if action is not None:
            return apply_action(engine, ask.seat, action)
    return None
