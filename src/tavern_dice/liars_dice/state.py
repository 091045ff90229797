"""The Liar's Dice rules engine: one mutable game state with a log of frozen events.

Every action (:mod:`~tavern_dice.liars_dice.actions`: a wager or ``Accuse()``) goes
through ``legal_actions(seat)``, ``can(seat, action)``, ``verify(seat, action)``, which
raises with the reason and what would be legal, and ``apply(seat, action)``, which
appends events to :attr:`LiarsDiceGame.log` and returns the main one; underneath, each
action has its own ``can_*``/``verify_*`` query and method (``wager``, ``accuse``).
A rejected action changes nothing. Rolls happen at explicit chance nodes (OpenSpiel style):
:meth:`LiarsDiceGame.chance_request` says what must be rolled and
:meth:`LiarsDiceGame.roll` resolves it from the injected dice source or from
faces given by hand. With ``auto_roll=True`` (the default) chance nodes are
resolved from the dice source as soon as they arise.

A two-player game with scripted dice (seat 0 wins the roll-off 12 to 5):

>>> from tavern_dice.dice import ScriptedDice
>>> from tavern_dice.liars_dice.rules import LiarsDiceRules
>>> from tavern_dice.liars_dice.wager import Wager
>>> rules = LiarsDiceRules(dice_per_player=2)
>>> dice = ScriptedDice([(6, 6), (1, 4), (2, 2), (2, 5), (6, 6), (3,)])
>>> game = LiarsDiceGame(["Ann", "Bo"], rules=rules, dice=dice)
>>> game.turn, game.hands
(0, ((2, 2), (2, 5)))
>>> game.wager(Wager(3, 2))
WagerMade(seat=0, quantity=3, face=2, total=None)
>>> game.can_accuse(0), game.can_accuse(1)
(False, True)
>>> game.accuse(1).outcome      # three twos on the table: spot-on
'spot-on'
>>> game.dice_counts            # everyone but the wager-maker lost a die
(2, 1)
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Collection, Sequence
from typing import Any

from tavern_dice.chance import rolls_itself
from tavern_dice.dice import DiceSource, RollSpec, SeededDice, roll_spec
from tavern_dice.errors import (
    IllegalActionError,
    InvalidActionError,
    RulesetError,
)
from tavern_dice.events import DiceRolled, Event, new_dice_rolled
from tavern_dice.liars_dice.actions import LiarsDiceActions
from tavern_dice.liars_dice.adjudication import (
    count_in_hands,
    dice_losers,
    reveal_outcome,
    tally,
)
from tavern_dice.liars_dice.checks import accusers_of, check_accuse, check_wager, wager_passes
from tavern_dice.liars_dice.events import (
    Accused,
    GameWon,
    PlayerOut,
    Revealed,
    RollOffResult,
    WagerMade,
    new_accused,
    new_revealed,
    new_round_started,
)
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import (
    AnyWager,
    SumWager,
    legal_raises,
)
from tavern_dice.replay import ReplayableGame

GAME_NAME = "liars-dice"


class Phase(enum.Enum):
    """Where the game stands."""

    ROLL_OFF = "roll-off"
    """Chance: the contenders roll all their dice publicly (L2)."""
    ROUND_ROLL = "round-roll"
    """Chance: every player in the game rolls in secret (L11)."""
    BIDDING = "bidding"
    """A player must wager (or accuse); others may accuse the standing wager (L7)."""
    OVER = "over"
    """One player has dice left (L9)."""


_COPIED = frozenset({list, dict, set})
_SHARED = frozenset({int, str, tuple, bool, float, type(None), Phase, LiarsDiceRules})
"""Types a copy of a game copies or shares without asking isinstance() (see __deepcopy__)."""
_CONTAINERS = (list, dict, set)  # a tuple: faster for isinstance() than list | dict | set
# The phases as module constants: reading Phase.BIDDING goes through the enum class.
_BIDDING = Phase.BIDDING
_ROLL_OFF = Phase.ROLL_OFF
_ROUND_ROLL = Phase.ROUND_ROLL
_OVER = Phase.OVER


class LiarsDiceGame(LiarsDiceActions, ReplayableGame):
    """A game of Liar's Dice under a :class:`LiarsDiceRules` ruleset.

    Args:
        players: the players' names in seating order (to the left = next seat),
            or a player count (names ``'P1'``...). 2 to 10 (L1).
        rules: the ruleset (default :data:`~tavern_dice.liars_dice.rules.TAVERN`, the seed).
        dice: the dice source: ``SeededDice(7)`` for a game a seed replays (the log keeps
            the seed), ``SecureDice()``, typed-in or scripted dice (default: an unseeded
            :class:`~tavern_dice.dice.SeededDice`).
        seed: deprecated (a ``DeprecationWarning``): ``seed=7`` is ``dice=SeededDice(7)``.
        auto_roll: the chance policy (:mod:`~tavern_dice.chance`): which chance
            nodes are resolved from ``dice`` as soon as they arise: all (``True``), none
            (``False``), or those of the purposes given (``{"roll-off"}``).
        starting_dice: each seat's dice at the start, 1 to ``rules.dice_per_player``
            (default: ``rules.dice_per_player`` each, the seed's "5d6").

    Raises:
        RulesetError: for a player count outside the ruleset's range, or bad starting dice.
    """

    GAME_NAME = GAME_NAME  # the name in saved logs ("game")
    rules: LiarsDiceRules

    def __init__(
        self,
        players: Sequence[str] | int,
        rules: LiarsDiceRules = TAVERN,
        dice: DiceSource | None = None,
        *,
        seed: int | None = None,
        auto_roll: bool | Collection[str] = True,
        starting_dice: Sequence[int] | None = None,
    ) -> None:
        self._seat_players(players, rules, rules.min_players, rules.max_players, "Liar's Dice")
        names = self.players
        self._start_log(dice, seed, auto_roll)
        self._last_reveal: Revealed | None = None
        n = len(names)
        # L1: lives are dice. A DM may seat players with fewer (a handicap, or a study of
        # an endgame); the default is the seed's 5 each.
        if starting_dice is None:
            self._counts = [rules.dice_per_player] * n
        else:
            self._counts = list(starting_dice)
            if len(self._counts) != n or not all(
                isinstance(c, int) and 1 <= c <= rules.dice_per_player for c in self._counts
            ):
                raise RulesetError(
                    f"starting_dice needs one count from 1 to {rules.dice_per_player} per "
                    f"player ({n}), not {list(starting_dice)}"
                )
        self.starting_dice: tuple[int, ...] = tuple(self._counts)
        self._hands: list[tuple[int, ...]] = [()] * n
        self.phase = _ROLL_OFF
        self.round = 0
        self.starter: int | None = None
        self.turn: int | None = None
        self.current_wager: AnyWager | None = None
        self.wager_maker: int | None = None
        self.sum_wagers = False
        self.winner: int | None = None
        self.round_wagers: tuple[tuple[int, AnyWager], ...] = ()
        """This round's wagers so far, oldest first, as ``(seat, wager)``."""
        self._contenders: tuple[int, ...] = tuple(range(n))
        self._legal_cache: tuple[object, int, tuple[AnyWager, ...]] | None = None
        """The legal wagers and the state they are for (see _legal_wagers)."""
        self._advance()

    def __deepcopy__(self, memo: dict[int, Any]) -> LiarsDiceGame:
        """An independent copy of the game, made cheaply.

        OpenSpiel clones a state at every node it visits (:mod:`tavern_dice.interop`), and a
        generic deep copy walks every event of the log. Everything in a game is immutable
        (frozen events and rules, tuples, numbers, enums) except its containers, whose
        items are immutable too, and its dice source: copy those, share the rest.
        """
        clone = object.__new__(type(self))
        # setattr, not __dict__.update(): it keeps the compact layout later reads are fast on.
        for name, value in vars(self).items():
            kind = type(value)
            # The exact types first (no call); isinstance() for the rest, subclasses too.
            if kind in _COPIED or (kind not in _SHARED and isinstance(value, _CONTAINERS)):
                value = value.copy()
            setattr(clone, name, value)
        clone.dice = copy.deepcopy(self.dice, memo)
        return clone

    # ------------------------------------------------------------------ queries

    @property
    def num_players(self) -> int:
        """Number of seats (players still in or out)."""
        return len(self.players)

    @property
    def dice_counts(self) -> tuple[int, ...]:
        """Dice (= lives) each seat has now; 0 means out (L1, L9)."""
        return tuple(self._counts)

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's current secret dice (faces 1..sides). For a referee, not a player:
        players see :meth:`view`."""
        return tuple(self._hands)

    @property
    def in_game(self) -> tuple[int, ...]:
        """Seats that still have dice (L9)."""
        return tuple([s for s, c in enumerate(self._counts) if c > 0])

    @property
    def dice_in_play(self) -> int:
        """Total dice on the table this round."""
        return sum(self._counts)

    @property
    def is_over(self) -> bool:
        """Whether one player is left with dice (L9)."""
        return self.phase is _OVER

    @property
    def last_reveal(self) -> Revealed | None:
        """The latest reveal (L8), with every hand shown, or ``None`` before the first."""
        return self._last_reveal

    def next_in_game(self, seat: int) -> int:
        """The next seat to the left of ``seat`` that still has dice (L3, L7)."""
        counts = self._counts
        n = len(counts)
        candidate = seat + 1 if seat + 1 < n else 0
        if counts[candidate] > 0:  # the common case: the next seat still has dice
            return candidate
        for step in range(2, n + 1):
            candidate = (seat + step) % n
            if counts[candidate] > 0:
                return candidate
        raise IllegalActionError("no player has dice left")

    def count_matching(self, wager: AnyWager) -> int:
        """How many dice on the table satisfy ``wager``: dice showing the face, plus wild
        dice for any other face (L6); for a :class:`SumWager`, the sum of all dice (L10)."""
        return count_in_hands(self._hands, wager, self.rules)

    # ------------------------------------------------------------------ chance

    def chance_request(self) -> tuple[RollSpec, ...] | None:
        """The dice that must be rolled now, one spec per roller, or ``None`` if no chance
        node is pending. Roll-off dice are public (L2); round dice are secret (L11)."""
        phase = self.phase
        if phase is _BIDDING:  # asked at every decision: answered first
            return None
        sides = self.rules.sides
        if phase is _ROLL_OFF:
            dice = self.rules.dice_per_player
            return tuple([roll_spec(s, dice, sides, "roll-off", False) for s in self._contenders])
        if phase is _ROUND_ROLL:
            return tuple(
                [roll_spec(s, c, sides, "round", True) for s, c in enumerate(self._counts) if c]
            )
        return None

    def roll(self, faces: Sequence[Sequence[int]] | None = None) -> DiceRolled:
        """Resolve the pending chance node.

        Args:
            faces: one sequence of faces per spec of :meth:`chance_request`, in order
                (dice typed in by hand), or ``None`` to ask the dice source.

        Raises:
            IllegalActionError: if no roll is pending.
            InvalidDiceError: if ``faces`` do not fit the request.
        """
        specs = self.chance_request()
        if specs is None:
            raise IllegalActionError(f"no dice are to be rolled now (phase {self.phase.value})")
        if faces is None:
            roll = self.dice.roll
            rolled = tuple([spec.check(roll(spec)) for spec in specs])
        else:
            if len(faces) != len(specs):
                raise IllegalActionError(
                    f"expected faces for {len(specs)} rollers (seats "
                    f"{[s.seat for s in specs]}), got {len(faces)}"
                )
            rolled = tuple(spec.check(f) for spec, f in zip(specs, faces, strict=True))
        self._count_roll(faces is not None)
        seats = tuple([spec.seat for spec in specs if spec.seat is not None])
        event = new_dice_rolled(specs[0].purpose, seats, rolled, specs[0].secret)
        self.log.append(event)
        if self.phase is _ROLL_OFF:
            self._resolve_roll_off(seats, rolled)
        else:
            hands = self._hands
            for seat, hand in zip(seats, rolled, strict=True):
                hands[seat] = hand  # a tuple: RollSpec.check returns one
            self.phase = _BIDDING
            self.turn = self.starter
        self._advance()
        return event

    def _resolve_roll_off(
        self, seats: tuple[int, ...], rolled: tuple[tuple[int, ...], ...]
    ) -> None:
        # L2: "The player with the highest sum of dice goes first. In the event of a tie,
        # the highest scoring players continue to roll off until a winner can be determined."
        sums = tuple(map(sum, rolled))
        best = max(sums)
        leaders = tuple([s for s, total in zip(seats, sums, strict=True) if total == best])
        self.log.append(RollOffResult(seats, sums, leaders))
        if len(leaders) > 1:
            self._contenders = leaders
            return
        self._start_round(leaders[0])

    def _start_round(self, starter: int) -> None:
        self.round += 1
        self.starter = starter
        self.current_wager = None
        self.wager_maker = None
        self.round_wagers = ()
        counts = self._counts
        self._hands = [()] * len(counts)
        # L10: "If two players are left and have one die each, wagers instead are based on
        # the sum of the dice"
        alive = [c for c in counts if c > 0]
        self.sum_wagers = self.rules.sum_endgame and alive == [1, 1]
        self.log.append(new_round_started(self.round, starter, tuple(counts), self.sum_wagers))
        self.phase = _ROUND_ROLL
        self.turn = None

    def _advance(self) -> None:
        # The phases in which chance_request() is not None, tested without building specs.
        while self.auto_roll and (self.phase is _ROLL_OFF or self.phase is _ROUND_ROLL):
            if self.auto_roll is not True and not rolls_itself(
                    self.auto_roll, "roll-off" if self.phase is _ROLL_OFF else "round"):
                return
            self.roll()

    # ------------------------------------------------------------------ wagers

    def legal_wagers(self) -> list[AnyWager]:
        """Every wager the player to act may make now, in increasing (quantity, face) order
        (L4, L5, L10); empty when no wager may be made."""
        return list(self._legal_wagers())

    def _legal_wagers(self) -> tuple[AnyWager, ...]:
        if self.phase is not _BIDDING:
            return ()
        # Asked again and again in one state (views, bots, runners): kept for the state. In
        # a round, round_wagers fixes the rest, a new tuple at each wager (held, so unique).
        made = self.round_wagers
        cached = self._legal_cache
        if cached is not None and cached[0] is made and cached[1] == self.round:
            return cached[2]
        legal = legal_raises(
            self.rules, self.dice_in_play, self.current_wager, self.sum_wagers, made
        )
        self._legal_cache = (made, self.round, legal)
        return legal

    @property
    def round_wager_limit(self) -> int | None:
        """The most wagers this round can hold, or ``None`` if it has no end.

        Every wager names one of ``sides x dice in play`` face wagers (or one of the sums),
        and with repeats forbidden (L5b) or under an order that only goes up each can be
        made at most once. With ``repeat_wagers`` under the ``either`` rule a round may go
        round for ever (3 twos, 2 fours, 3 twos ...).
        """
        rules = self.rules
        if rules.repeat_wagers and rules.raise_rule is RaiseRule.EITHER and not self.sum_wagers:
            return None
        if self.sum_wagers:
            return self.dice_in_play * (rules.sides - 1) + 1
        return self.dice_in_play * rules.sides

    def verify_wager(self, wager: AnyWager, seat: int | None = None) -> None:
        """Raise if ``seat`` (default: the player to act) may not make ``wager`` now.

        Raises:
            NotYourTurnError: if it is not ``seat``'s turn to wager.
            IllegalActionError: if the wager is out of range or does not raise the standing
                wager; the message names the standing wager and the lowest legal raises.
        """
        if (
            self.phase is _BIDDING
            and (seat is None or (type(seat) is int and seat == self.turn))
            and wager_passes(wager, self.rules, sum(self._counts), self.current_wager,
                             self.sum_wagers, self.round_wagers)
        ):
            return  # the common case: every check below would pass
        check_wager(
            wager, seat, players=self.players, rules=self.rules, phase=self.phase.value,
            turn=self.turn, standing=self.current_wager, sum_wagers=self.sum_wagers,
            counts=self._counts, round_wagers=self.round_wagers,
        )

    def can_wager(self, wager: AnyWager, seat: int | None = None) -> bool:
        """Whether :meth:`verify_wager` would pass."""
        try:
            self.verify_wager(wager, seat)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def wager(self, wager: AnyWager, seat: int | None = None) -> WagerMade:
        """The player to act wagers (L4, L5, L10); the turn passes to the left.

        Raises:
            NotYourTurnError, IllegalActionError: see :meth:`verify_wager`.
        """
        self.verify_wager(wager, seat)
        turn = self.turn
        assert turn is not None
        event = WagerMade.of(turn, wager)
        self.log.append(event)
        self.current_wager = wager
        self.wager_maker = turn
        self.round_wagers += ((turn, wager),)
        self.turn = self.next_in_game(turn)
        return event

    # ------------------------------------------------------------------ accusations

    def accusers(self) -> tuple[int, ...]:
        """Seats that may accuse now: every player still in the game but the wager-maker,
        starting to the wager-maker's left (L7)."""
        if self.phase is not _BIDDING:
            return ()
        return accusers_of(self.wager_maker, self._counts)

    def verify_accuse(self, seat: int) -> None:
        """Raise if ``seat`` may not accuse now.

        Raises:
            InvalidActionError: ``seat`` is not a seat number.
            IllegalActionError: no wager stands, the seat is out, or it made the wager.
        """
        if self.can_accuse(seat):
            return  # the same tests, without building a message
        check_accuse(seat, players=self.players, phase=self.phase.value,
                     wager_maker=self.wager_maker, counts=self._counts)

    def can_accuse(self, seat: int) -> bool:
        """Whether :meth:`verify_accuse` would pass."""
        # The same tests as verify_accuse without building error messages: views ask this
        # for every bot decision.
        return (
            type(seat) is int
            and 0 <= seat < len(self.players)
            and self.phase is _BIDDING
            and self.wager_maker is not None
            and self._counts[seat] > 0
            and seat != self.wager_maker
        )

    def accuse(self, seat: int) -> Revealed:
        """``seat`` accuses the wager-maker of lying; all dice are revealed (L7, L8).

        Outcomes (L8): count below the quantity - the wager-maker loses a die; above it -
        the accuser loses a die; exactly it (with ``spot_on``) - everyone but the
        wager-maker loses a die. Then a player with no dice is out (L9), and a new round
        starts to the left of this round's starter (L3), or the game ends.

        Raises:
            IllegalActionError: see :meth:`verify_accuse`.
        """
        self.verify_accuse(seat)
        maker = self.wager_maker
        wager = self.current_wager
        assert maker is not None and wager is not None
        log = self.log
        rules = self.rules
        counts = self._counts
        log.append(new_accused(seat, maker))
        hands = tuple(self._hands)
        count, counted = tally(hands, wager, rules)  # L4, L6, L10
        claimed = wager.total if isinstance(wager, SumWager) else wager.quantity
        outcome = reveal_outcome(count, claimed, rules)
        losers = dice_losers(outcome, maker, seat, self.in_game)
        for loser in losers:
            counts[loser] -= 1
        reveal = new_revealed(hands, count, outcome, losers, tuple(counts), counted)
        log.append(reveal)
        self._last_reveal = reveal
        for loser in losers:
            if counts[loser] == 0:
                log.append(PlayerOut(loser))
        alive = self.in_game
        self.turn = None
        self.current_wager = None
        self.wager_maker = None
        if len(alive) == 1:
            self.winner = alive[0]
            self.phase = _OVER
            self.log.append(GameWon(alive[0]))
        else:
            assert self.starter is not None
            self._start_round(self.next_in_game(self.starter))
            self._advance()
        return reveal

    # ------------------------------------------------------------------ views and logs

    def view(self, seat: int | None) -> LiarsDiceView:
        """What ``seat`` may see (``None``: a spectator); see :class:`~.view.LiarsDiceView`."""
        return LiarsDiceView.of(self, seat)

    def _header(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "starting_dice": list(self.starting_dice),
        }

    @classmethod
    def _fresh(cls, data: dict[str, Any]) -> LiarsDiceGame:
        return cls(
            data["players"], rules=LiarsDiceRules.from_dict(data["rules"]), auto_roll=False,
            dice=SeededDice(data.get("seed")), starting_dice=data.get("starting_dice"),
        )

    def _apply_input(self, event: Event) -> None:
        if isinstance(event, WagerMade):
            self.wager(event.wager, event.seat)
        elif isinstance(event, Accused):
            self.accuse(event.accuser)
