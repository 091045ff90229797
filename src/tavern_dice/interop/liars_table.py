"""A Liar's Dice game as one decision at a time, for OpenSpiel and PettingZoo.

The engine (:class:`~tavern_dice.liars_dice.LiarsDiceGame`) lets *any* other player
accuse the standing wager at any moment before the next wager (L7: "another player can
accuse the wager-maker of lying. If no one at the table wants to call their bluff,
wager-making continues to the left"). Frameworks for turn-based games need one player
to act at a time, so this module makes that moment an explicit **accusation window**:

1. After a wager by the wager-maker M, every other player still in the game except the
   next player, in turn to M's left (the seats after the next player), is asked once:
   ``accuse`` or ``pass``. The first ``accuse`` ends the round (L8).
2. If all of them pass, the next player to M's left (whose turn it is) raises or
   accuses; when no raise is legal they must accuse (L7).

So the out-of-turn players speak first, and the next player decides knowing that nobody
else called. With two players there is no window: the next player is the only one who
could accuse. Passing is the only action this module adds; wagers and accusations go to
the engine, which judges them and settles the reveal.

Chance is explicit too: every die of a round's secret roll is one chance node (faces
equally likely, L11), dealt seat by seat in the engine's order; the engine receives the
whole roll once the last die is known (L11: everyone rolls in secret, then bidding
starts). A player sees their own dice once the roll is complete. The roll-off (L2) is
one chance node naming the starting player, each seat with probability ``1/players``:
everyone rolls the same dice in it, so by symmetry that is its exact distribution; the
engine is handed a roll-off the chosen seat wins. A single-round table
(``single_round=True``) skips the roll-off: seat 0 starts.

>>> from tavern_dice.liars_dice import LiarsDiceRules, Wager
>>> table = LiarsDiceTable(3, LiarsDiceRules(dice_per_player=1), single_round=True)
>>> for face in (2, 5, 5):
...     table.apply_chance(face - 1)          # the dice of seats 0, 1, 2
>>> table.actor(), table.label(table.actions.encode(Wager(2, 5)))
(0, '2x5')
>>> table.apply(table.actions.encode(Wager(2, 5)))
>>> table.actor(), [table.label(a) for a in table.legal_actions()]   # seat 2 may call first
(2, ['accuse', 'pass'])
>>> table.apply(table.actions.pass_)
>>> table.actor(), table.label(table.legal_actions()[-1])            # then seat 1's turn
(1, 'accuse')
>>> table.apply(table.actions.accuse)      # two fives: spot-on, seats 1 and 2 lose a die
>>> table.is_over, table.returns()
(True, [1.0, -0.5, -0.5])
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from tavern_dice.dice import ScriptedDice
from tavern_dice.errors import IllegalActionError, RulesetError
from tavern_dice.interop.liars_actions import LiarsActions, Pass
from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.events import Revealed
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame, Phase

ChanceKind = Literal["starter", "die"]
"""A chance node: who starts (the roll-off, L2) or one die of a secret roll (L11)."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What happened in one round, for the players' information states.

    Attributes:
        number: the round (1, 2, ...).
        starter: who wagers first (L3).
        dice_counts: each seat's dice this round.
        sum_wagers: whether it is the sum endgame (L10).
        hands: every seat's dice, sorted, once the roll is complete (``None`` before).
        moves: ``(seat, action number)`` in order: wagers, passes and the accusation.
        reveal: the reveal that ended the round (L8), or ``None``.
    """

    number: int
    starter: int
    dice_counts: tuple[int, ...]
    sum_wagers: bool
    hands: tuple[tuple[int, ...], ...] | None = None
    moves: tuple[tuple[int, int], ...] = ()
    reveal: Revealed | None = None


def check_finite(rules: LiarsDiceRules) -> None:
    """Refuse a ruleset whose rounds may never end.

    Raises:
        RulesetError: ``repeat_wagers`` under the ``either`` raise rule (L5b): 3 twos,
            2 fours, 3 twos ... can go round for ever, and a game tree must be finite.
    """
    if rules.repeat_wagers and rules.raise_rule is RaiseRule.EITHER:
        raise RulesetError(
            "with repeat_wagers under the 'either' raise rule a round can go round for ever "
            "(3 twos, 2 fours, 3 twos ...; L5b), so the game has no finite tree; turn "
            "repeat_wagers off or use the 'standard' or 'face-major' raise rule"
        )


class LiarsDiceTable:
    """One Liar's Dice game (or single round) driven one decision or one die at a time.

    Args:
        players: number of seats, 2-10.
        rules: the ruleset (default: the seed's).
        starting_dice: each seat's dice at the start (default: ``rules.dice_per_player``).
        single_round: stop after the first reveal; seat 0 starts and there is no roll-off.

    Raises:
        RulesetError: a table the engine refuses, or one whose rounds may never end.
    """

    def __init__(
        self,
        players: int,
        rules: LiarsDiceRules = TAVERN,
        *,
        starting_dice: Sequence[int] | None = None,
        single_round: bool = False,
    ) -> None:
        check_finite(rules)
        # No dice source: every face comes from a chance node; asking the source is a bug.
        self.engine = LiarsDiceGame(
            players, rules, ScriptedDice(()), auto_roll=False, starting_dice=starting_dice
        )
        self.rules = rules
        self.single_round = single_round
        self.actions = LiarsActions(rules.sides, sum(self.engine.dice_counts), rules.sum_endgame)
        self.window: tuple[int, ...] = ()
        """Seats still to be asked ``accuse`` or ``pass``, in order."""
        self.passed: tuple[int, ...] = ()
        """Seats that passed since the last wager."""
        self.pending: tuple[int, ...] = ()
        """Faces dealt so far of the roll in progress."""
        self.rounds: list[RoundRecord] = []
        if single_round:
            self._roll_off(0)

    def __deepcopy__(self, memo: dict[int, Any]) -> LiarsDiceTable:
        # OpenSpiel clones a state at every node: the records are immutable, so a copy of
        # the list and a copy of the engine (itself cheap) make an independent table.
        clone = object.__new__(LiarsDiceTable)
        clone.__dict__.update(self.__dict__)
        clone.engine = copy.deepcopy(self.engine, memo)
        clone.rounds = list(self.rounds)
        return clone

    # ------------------------------------------------------------------ size

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        return self.engine.num_players

    @property
    def max_rounds(self) -> int:
        """The most rounds the game can last: every reveal costs a die (L8), and the game
        ends when one player has dice (L9)."""
        return 1 if self.single_round else sum(self.engine.starting_dice) - 1

    def max_decisions(self) -> int:
        """An upper bound on the decisions (not chance outcomes) in one game.

        A round holds at most ``num_wagers`` wagers (each wager at most once: L5b, or an
        order that only goes up), each followed by at most ``players - 2`` passes, and
        one accusation.
        """
        return self.max_rounds * (self.actions.num_wagers * (self.num_players - 1) + 1)

    # ------------------------------------------------------------------ chance

    def chance_kind(self) -> ChanceKind | None:
        """The chance node pending now, or ``None``."""
        if self.is_over:
            return None
        phase = self.engine.phase
        if phase is Phase.ROLL_OFF:
            return "starter"
        if phase is Phase.ROUND_ROLL:
            return "die"
        return None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` at the pending chance node: a seat for the roll-off,
        ``face - 1`` for a die.

        Raises:
            IllegalActionError: no chance node is pending.
        """
        kind = self.chance_kind()
        if kind == "starter":
            return [(seat, 1.0 / self.num_players) for seat in range(self.num_players)]
        if kind == "die":
            sides = self.rules.sides
            return [(face, 1.0 / sides) for face in range(sides)]
        raise IllegalActionError("no chance node is pending; a player is to act")

    def dealing(self) -> tuple[int, int]:
        """``(seat, die number)`` of the die dealt next (die numbers from 0).

        Raises:
            IllegalActionError: no die is being dealt.
        """
        specs = self.engine.chance_request()
        if self.chance_kind() != "die" or specs is None:
            raise IllegalActionError("no die is being dealt now")
        index = len(self.pending)
        for spec in specs:
            if index < spec.count:
                assert spec.seat is not None
                return spec.seat, index
            index -= spec.count
        raise AssertionError("a complete roll was not handed to the engine")

    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending chance node with ``outcome`` (see :meth:`chance_outcomes`).

        Raises:
            IllegalActionError: no chance node is pending, or the outcome is not one of it.
        """
        legal = [o for o, _ in self.chance_outcomes()]
        if type(outcome) is not int or outcome not in legal:
            raise IllegalActionError(f"chance outcome {outcome!r} is not one of {legal}")
        if self.chance_kind() == "starter":
            self._roll_off(outcome)
            return
        self.pending += (outcome + 1,)
        specs = self.engine.chance_request()
        assert specs is not None
        if len(self.pending) < sum(spec.count for spec in specs):
            return
        faces: list[tuple[int, ...]] = []
        start = 0
        for spec in specs:
            faces.append(self.pending[start : start + spec.count])
            start += spec.count
        self.pending = ()
        self.engine.roll(faces)
        hands = tuple(tuple(sorted(hand)) for hand in self.engine.hands)
        self.rounds[-1] = replace(self.rounds[-1], hands=hands)

    def _roll_off(self, winner: int) -> None:
        # L2 by symmetry: every seat rolls the same dice, so each starts with chance
        # 1/players. The engine gets a roll-off that seat wins (top faces against ones).
        specs = self.engine.chance_request()
        assert specs is not None
        top = self.rules.sides
        self.engine.roll([(top if s.seat == winner else 1,) * s.count for s in specs])
        self._record_round()

    def _record_round(self) -> None:
        engine = self.engine
        assert engine.starter is not None
        self.rounds.append(
            RoundRecord(engine.round, engine.starter, engine.dice_counts, engine.sum_wagers)
        )

    # ------------------------------------------------------------------ decisions

    @property
    def is_over(self) -> bool:
        """Whether the game (or the single round) has ended."""
        if self.single_round:
            return self.engine.last_reveal is not None
        return self.engine.is_over

    def actor(self) -> int | None:
        """The seat that decides now, or ``None`` at a chance node or the end."""
        if self.is_over or self.chance_kind() is not None:
            return None
        if self.window:
            return self.window[0]
        return self.engine.turn

    def legal_actions(self) -> list[int]:
        """The actor's legal action numbers, ascending: in the window ``accuse`` and
        ``pass``; on a turn the engine's legal wagers, and ``accuse`` once a wager stands."""
        if self.actor() is None:
            return []
        acts = self.actions
        if self.window:
            return [acts.accuse, acts.pass_]
        legal = [acts.encode(w) for w in self.engine.legal_wagers()]
        if self.engine.wager_maker is not None:
            legal.append(acts.accuse)
        return legal

    def label(self, action: int) -> str:
        """The action's short name (``'3x2'``, ``'sum 7'``, ``'accuse'``, ``'pass'``)."""
        return self.actions.label(action)

    def apply(self, action: int) -> None:
        """The actor takes action number ``action``.

        Raises:
            InvalidActionError: not an action number of this game.
            IllegalActionError: not legal now; the message lists what is.
        """
        move = self.actions.decode(action)
        action = int(action)
        seat = self.actor()
        legal = self.legal_actions()
        if seat is None or action not in legal:
            who = "nobody may act now" if seat is None else f"seat {seat} acts"
            raise IllegalActionError(
                f"{self.actions.label(action)!r} is not legal: {who}; legal: "
                f"{[self.actions.label(a) for a in legal] or 'none'}"
            )
        self.rounds[-1] = replace(self.rounds[-1], moves=(*self.rounds[-1].moves, (seat, action)))
        engine = self.engine
        if isinstance(move, Pass):
            self.window = self.window[1:]
            self.passed += (seat,)
        elif isinstance(move, Accuse):
            self.window, self.passed = (), ()
            reveal = engine.accuse(seat)
            self.rounds[-1] = replace(self.rounds[-1], reveal=reveal)
            if not self.is_over:
                self._record_round()
        else:
            engine.wager(move, seat)
            # L7 made explicit: the others, to the maker's left; the next player's turn after.
            self.window = tuple(s for s in engine.accusers() if s != engine.turn)
            self.passed = ()

    # ------------------------------------------------------------------ outcome

    def returns(self) -> list[float]:
        """Each seat's payoff; zero until the end. The sums are zero.

        * A whole game: the winner +1, everyone else ``-1 / (players - 1)`` (L9).
        * A single round: ``(dice the others lost) / (players - 1) - (dice lost) *
          players / (players - 1)``: with two players the loser of the die -1 and the
          other +1, the scale of the project's round solver.
        """
        n = self.num_players
        if not self.is_over:
            return [0.0] * n
        if self.single_round:
            reveal = self.engine.last_reveal
            assert reveal is not None
            lost = [reveal.losers.count(seat) for seat in range(n)]
            total = sum(lost)
            return [(total - n * mine) / (n - 1) for mine in lost]
        winner = self.engine.winner
        return [1.0 if seat == winner else -1.0 / (n - 1) for seat in range(n)]

    def utility_bounds(self) -> tuple[float, float]:
        """The smallest and largest payoff :meth:`returns` can give."""
        n = self.num_players
        return (-1.0, 1.0) if self.single_round else (-1.0 / (n - 1), 1.0)


def parse_starting_dice(text: str) -> tuple[int, ...] | None:
    """Read starting dice written ``'2/1'`` (or ``'2,1'``; empty: the ruleset's dice each).

    OpenSpiel's game strings separate parameters with commas and read a value of digits
    and dashes as a number, so a game parameter takes the ``'2/1'`` form.

    Raises:
        RulesetError: text that is not whole numbers separated by ``/`` or ``,``.
    """
    text = text.strip()
    if not text:
        return None
    parts = [p.strip() for p in text.replace(",", "/").split("/")]
    if not all(p.isdigit() for p in parts):
        raise RulesetError(
            f"starting dice are whole numbers separated by '/', such as '2/1', not {text!r}"
        )
    return tuple(int(p) for p in parts)
