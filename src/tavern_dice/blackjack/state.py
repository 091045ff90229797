"""The Dice Blackjack rules engine: the DM is the house; players bet gold (in cp).

Like :class:`~tavern_dice.liars_dice.state.LiarsDiceGame`: every action
(:mod:`~tavern_dice.blackjack.actions`: ``Bet``, ``SitOut``, ``Roll``, ``Stand``) goes
through ``legal_actions(seat)``, ``can(seat, action)``, ``verify(seat, action)``, which
raises with the reason, and ``apply(seat, action)``, which appends frozen events to
:attr:`BlackjackGame.log`; underneath, each action has its own ``can_*``/``verify_*``
query and method (``place_bet``, ``sit_out``, ``roll_again``, ``stand``).
Rolls are chance nodes resolved from the injected dice source (or from faces
typed in by the DM) via :meth:`BlackjackGame.roll`.

A round with scripted dice: target 14, house dice 9 and 17 (house roll 9).

>>> from tavern_dice.dice import ScriptedDice
>>> dice = ScriptedDice([(14,), (9, 17), (8,), (5,)])
>>> game = BlackjackGame(["Ann"], dice=dice, balances=1000, proficiency=[4])
>>> game.place_bet(0, 300)
BetPlaced(seat=0, amount=300)
>>> game.target, game.house_roll, game.totals[0]
(14, 9, 8)
>>> game.roll_again(0)
RolledAgain(seat=0)
>>> game.totals[0], game.legal_bonuses(0)      # 13: may add up to 1 (ceil(4/2)=2 would pass 14)
(13, (0, 1))
>>> game.stand(0, bonus=1)
Stood(seat=0, bonus=1)
>>> [(e.outcome, e.delta, e.balance) for e in game.settlements()]
[('exact', 450, 1450)]
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import Any

from tavern_dice.blackjack.actions import BlackjackActions
from tavern_dice.blackjack.checks import (
    bet_limits_of,
    check_acting,
    check_amount,
    check_betting_seat,
    check_bonus,
)
from tavern_dice.blackjack.events import (
    BetPlaced,
    HouseRolled,
    RolledAgain,
    RoundClosed,
    RoundOpened,
    SatOut,
    Settled,
    Stood,
    TargetSet,
    TotalChanged,
    TurnStarted,
)
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.blackjack.settlement import house_roll, settle
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.chance import rolls_itself
from tavern_dice.dice import DiceSource, RollSpec, SeededDice
from tavern_dice.errors import (
    IllegalActionError,
    RulesetError,
)
from tavern_dice.events import HOUSE, DiceRolled, Event
from tavern_dice.money import format_cp, gp
from tavern_dice.replay import ReplayableGame

GAME_NAME = "blackjack"


class Phase(enum.Enum):
    """Where the round stands."""

    BETTING = "betting"
    """B2: every eligible player bets or sits out before any die is rolled."""
    TARGET_ROLL = "target-roll"
    """Chance, B3: the house's large d20."""
    HOUSE_ROLL = "house-roll"
    """Chance, B5: the house's two other d20s."""
    PLAYING = "playing"
    """B6/B7: the player to act rolls d12s or stands (chance when a d12 is pending)."""
    ROUND_OVER = "round-over"
    """B8/B9: bets settled; :meth:`BlackjackGame.new_round` opens the next."""


class BlackjackGame(BlackjackActions, ReplayableGame):
    """A session of Dice Blackjack: rounds against the house, gold tracked in cp.

    Args:
        players: names in seating order, or a count (names ``'P1'``...).
        rules: the ruleset (default: the seed).
        dice: the dice source: ``SeededDice(7)`` for a game a seed replays (the log keeps
            the seed), ``SecureDice()``, typed-in or scripted dice (default: an unseeded
            :class:`~tavern_dice.dice.SeededDice`).
        balances: each player's starting gold in cp (one int for all; default 10 gp).
        proficiency: each player's proficiency bonus (2-6) for Performance, Deception or
            thieves' tools, or ``None`` if not proficient (B7).
        seed: deprecated (a ``DeprecationWarning``): ``seed=7`` is ``dice=SeededDice(7)``.
        auto_roll: the chance policy (:mod:`~tavern_dice.chance`): which chance
            nodes are resolved from ``dice`` as soon as they arise: all (``True``), none
            (``False``), or those of the purposes given (``{"d12"}``).

    Raises:
        RulesetError: no players, a negative balance or a bonus outside 2..max.
    """

    GAME_NAME = GAME_NAME  # the name in saved logs ("game")
    rules: BlackjackRules

    def __init__(
        self,
        players: Sequence[str] | int,
        rules: BlackjackRules = TAVERN,
        dice: DiceSource | None = None,
        *,
        balances: Sequence[int] | int = gp(10),
        proficiency: Sequence[int | None] | None = None,
        seed: int | None = None,
        auto_roll: bool | Collection[str] = True,
    ) -> None:
        self._seat_players(players, rules, rules.min_players, rules.max_players, "Dice Blackjack")
        names = self.players
        start = [balances] * len(names) if isinstance(balances, int) else list(balances)
        profs = list(proficiency) if proficiency is not None else [None] * len(names)
        if len(start) != len(names) or len(profs) != len(names):
            raise RulesetError("give one balance and one proficiency bonus per player")
        if any(not isinstance(b, int) or b < 0 for b in start):
            raise RulesetError(f"balances are whole, non-negative cp amounts, not {start}")
        for pb in profs:
            # B7's bonus is ceil(PB/2) whole points: a PB that is not a whole number would
            # only fail later, when a player stands.
            whole = isinstance(pb, int) and not isinstance(pb, bool)
            if pb is not None and not (whole and 2 <= pb <= rules.max_proficiency_bonus):
                raise RulesetError(
                    f"a proficiency bonus is 2-{rules.max_proficiency_bonus}, or none; not {pb!r}"
                )
        self.starting_balances: tuple[int, ...] = tuple(start)
        self.proficiency: tuple[int | None, ...] = tuple(profs)
        self._start_log(dice, seed, auto_roll)
        self._balances = list(start)
        self.house_net = 0
        self.round = 0
        self.phase = Phase.ROUND_OVER
        self._reset_round()
        self.new_round()

    def _reset_round(self) -> None:
        self.bets: dict[int, int] = {}
        self._decided: set[int] = set()
        self._eligible: tuple[int, ...] = ()
        self.target: int | None = None
        self.house_dice: tuple[int, ...] = ()
        self.house_roll: int | None = None
        self.house_bust = False
        self.totals: dict[int, int] = {}
        self.finals: dict[int, int | None] = {}
        self.turn: int | None = None
        self._d12_pending = False

    # ------------------------------------------------------------------ queries

    @property
    def balances(self) -> tuple[int, ...]:
        """Every player's gold in cp (B1)."""
        return tuple(self._balances)

    @property
    def eligible(self) -> tuple[int, ...]:
        """Seats that may bet this round: gold for at least the table minimum (B1, B9)."""
        return self._eligible

    @property
    def is_over(self) -> bool:
        """Whether no player has gold enough to bet (B9: "assuming they have gold to wager")."""
        return self.phase is Phase.ROUND_OVER and not any(
            b >= self.rules.min_bet_cp for b in self._balances
        )

    def bonus_cap(self, seat: int) -> int:
        """Largest proficiency bonus ``seat`` may add: ``ceil(PB/2)``, 0 if not proficient,
        at most the table's ``max_added_bonus``."""
        return self.rules.bonus_cap(self.proficiency[seat])

    def settlements(self) -> list[Settled]:
        """The settlements of the latest settled round."""
        out: list[Settled] = []
        for event in reversed(self.log):
            if isinstance(event, RoundOpened):
                break
            if isinstance(event, Settled):
                out.append(event)
        return out[::-1]

    # ------------------------------------------------------------------ rounds and bets

    def new_round(self) -> RoundOpened:
        """Open a round for bets (B9: "Players may continue playing as long as they'd like,
        assuming they have gold to wager").

        Raises:
            IllegalActionError: the current round is not over, or nobody can bet.
        """
        if self.phase is not Phase.ROUND_OVER:
            raise IllegalActionError(f"the round is still going (phase {self.phase.value})")
        eligible = tuple(
            s for s, b in enumerate(self._balances) if b >= self.rules.min_bet_cp
        )
        if not eligible:
            raise IllegalActionError(
                f"no player has the table minimum of {format_cp(self.rules.min_bet_cp)}"
            )
        self._reset_round()
        self.round += 1
        self._eligible = eligible
        self.phase = Phase.BETTING
        event = RoundOpened(self.round, eligible, self.balances)
        self.log.append(event)
        return event

    def bet_limits(self, seat: int) -> tuple[int, int]:
        """The smallest and largest bet ``seat`` may place now, in cp (B2)."""
        return bet_limits_of(self.rules, self._balances[seat])

    def verify_bet(self, seat: int, amount: int) -> None:
        """Raise if ``seat`` may not bet ``amount`` cp now.

        Raises:
            IllegalActionError: not the betting phase, an unknown seat, or already decided.
            InsufficientFundsError: the amount is outside the table limits or the balance.
        """
        self._verify_betting_seat(seat)
        check_amount(seat, amount, players=self.players, rules=self.rules,
                     balance=self._balances[seat])

    def can_bet(self, seat: int, amount: int) -> bool:
        """Whether :meth:`verify_bet` would pass."""
        try:
            self.verify_bet(seat, amount)
        except IllegalActionError:
            return False
        return True

    def place_bet(self, seat: int, amount: int) -> BetPlaced:
        """``seat`` stakes ``amount`` cp for this round (B2: "Before any dice are rolled,
        whoever wants to play places their bet in front of them")."""
        self.verify_bet(seat, amount)
        event = BetPlaced(seat, amount)
        self.log.append(event)
        self.bets[seat] = amount
        self._decided.add(seat)
        self._after_betting()
        return event

    def sit_out(self, seat: int) -> SatOut:
        """``seat`` does not play this round (B2: only "whoever wants to play" bets)."""
        self._verify_betting_seat(seat)
        event = SatOut(seat)
        self.log.append(event)
        self._decided.add(seat)
        self._after_betting()
        return event

    def _verify_betting_seat(self, seat: int) -> None:
        valid = isinstance(seat, int) and 0 <= seat < len(self.players)
        check_betting_seat(
            seat, players=self.players, rules=self.rules, phase=self.phase.value,
            eligible=not valid or seat in self._eligible, decided=valid and seat in self._decided,
            balance=self._balances[seat] if valid else 0,
        )

    def _after_betting(self) -> None:
        if set(self._eligible) - self._decided:
            return
        if not self.bets:
            self._close_round()
            return
        self.phase = Phase.TARGET_ROLL
        self._advance()

    # ------------------------------------------------------------------ chance

    def chance_request(self) -> tuple[RollSpec, ...] | None:
        """The dice to roll now (one spec), or ``None``: the target d20 (B3), the house's
        two d20s (B5), or the acting player's d12 (B6)."""
        r = self.rules
        if self.phase is Phase.TARGET_ROLL:
            return (RollSpec(None, 1, r.target_sides, "target"),)
        if self.phase is Phase.HOUSE_ROLL:
            return (RollSpec(None, r.house_dice, r.house_sides, "house"),)
        if self.phase is Phase.PLAYING and self._d12_pending:
            return (RollSpec(self.turn, 1, r.player_sides, "d12"),)
        return None

    def roll(self, faces: Sequence[Sequence[int]] | None = None) -> DiceRolled:
        """Resolve the pending chance node from the dice source, or from ``faces`` typed in
        (one sequence per spec of :meth:`chance_request`).

        Raises:
            IllegalActionError: no roll is pending. InvalidDiceError: faces that do not fit.
        """
        specs = self.chance_request()
        if specs is None:
            raise IllegalActionError(f"no dice are to be rolled now (phase {self.phase.value})")
        spec = specs[0]
        if faces is None:
            rolled = spec.check(self.dice.roll(spec))
        else:
            if len(faces) != 1:
                raise IllegalActionError(f"expected one roll ({spec.purpose}), got {len(faces)}")
            rolled = spec.check(faces[0])
        self._count_roll(typed=faces is not None)
        seat = HOUSE if spec.seat is None else spec.seat
        event = DiceRolled(spec.purpose, (seat,), (rolled,), False)
        self.log.append(event)
        if self.phase is Phase.TARGET_ROLL:
            self._on_target(rolled[0])
        elif self.phase is Phase.HOUSE_ROLL:
            self._on_house(rolled)
        else:
            self._on_d12(rolled[0])
        self._advance()
        return event

    def _advance(self) -> None:
        while self.auto_roll and (specs := self.chance_request()) is not None \
                and rolls_itself(self.auto_roll, specs[0].purpose):
            self.roll()

    def _on_target(self, target: int) -> None:
        self.target = target
        self.log.append(TargetSet(target))
        # B4, seed: "If the house rolls a 1 for their target number, all bets are collected
        # immediately and a new round can begin."
        if target == 1 and self.rules.target_one_collects:
            for seat in sorted(self.bets):
                self._settle_one(seat, "collected", -self.bets[seat], None)
            self._close_round()
            return
        self.phase = Phase.HOUSE_ROLL

    def _on_house(self, dice: tuple[int, ...]) -> None:
        assert self.target is not None
        self.house_dice = dice
        self.house_roll = house_roll(self.rules, self.target, dice)
        self.house_bust = self.house_roll is None
        self.log.append(HouseRolled(dice, self.house_roll))
        self.phase = Phase.PLAYING
        self._next_turn()

    def _next_turn(self) -> None:
        remaining = [s for s in sorted(self.bets) if s not in self.finals]
        if not remaining:
            self._settle_all()
            return
        self.turn = remaining[0]
        self.totals[self.turn] = 0
        self.log.append(TurnStarted(self.turn))
        # B6, seed: "They start by rolling a single d12."
        self._d12_pending = True

    def _on_d12(self, face: int) -> None:
        assert self.turn is not None and self.target is not None
        self._d12_pending = False
        seat = self.turn
        self.totals[seat] += face
        bust = self.totals[seat] > self.target
        self.log.append(TotalChanged(seat, self.totals[seat], bust))
        if bust:
            self.finals[seat] = None
            self._next_turn()

    # ------------------------------------------------------------------ player actions

    def _verify_acting(self, seat: int) -> None:
        check_acting(seat, players=self.players, phase=self.phase.value, turn=self.turn,
                     d12_pending=self._d12_pending)

    def verify_roll_again(self, seat: int) -> None:
        """Raise if ``seat`` may not roll another d12 now (not their turn, or done)."""
        self._verify_acting(seat)

    def can_roll_again(self, seat: int) -> bool:
        """Whether :meth:`verify_roll_again` would pass."""
        try:
            self.verify_roll_again(seat)
        except IllegalActionError:
            return False
        return True

    def roll_again(self, seat: int) -> RolledAgain:
        """``seat`` rolls another d12 and adds it (B6: "they can roll another d12 and add
        their number to it"); over the target is a bust, which ends the turn."""
        self.verify_roll_again(seat)
        event = RolledAgain(seat)
        self.log.append(event)
        self._d12_pending = True
        self._advance()
        return event

    def legal_bonuses(self, seat: int) -> tuple[int, ...]:
        """Bonuses ``seat`` may add on standing now (B7): 0..ceil(PB/2), never past the target."""
        if not self.can_roll_again(seat):
            return ()
        assert self.target is not None
        room = self.target - self.totals[seat]
        return tuple(range(min(self.bonus_cap(seat), room) + 1))

    def verify_stand(self, seat: int, bonus: int = 0) -> None:
        """Raise if ``seat`` may not stand with ``bonus`` now.

        Raises:
            NotYourTurnError: not ``seat``'s turn.
            IllegalActionError: a bonus above ceil(PB/2), below 0, or taking the total over
                the target (seed: "add (not subtract) up to half of their proficiency bonus").
        """
        self._verify_acting(seat)
        check_bonus(
            seat, bonus, players=self.players, rules=self.rules, legal=self.legal_bonuses(seat),
            proficiency=self.proficiency[seat], total=self.totals[seat], target=self.target,
        )

    def can_stand(self, seat: int, bonus: int = 0) -> bool:
        """Whether :meth:`verify_stand` would pass."""
        try:
            self.verify_stand(seat, bonus)
        except IllegalActionError:
            return False
        return True

    def stand(self, seat: int, bonus: int = 0) -> Stood:
        """``seat`` stands on their total plus ``bonus`` (B6, B7)."""
        self.verify_stand(seat, bonus)
        event = Stood(seat, bonus)
        self.log.append(event)
        self.finals[seat] = self.totals[seat] + bonus
        self._next_turn()
        self._advance()
        return event

    # ------------------------------------------------------------------ settlement

    def _settle_one(self, seat: int, outcome: str, delta: int, final: int | None) -> None:
        self._balances[seat] += delta
        self.house_net -= delta
        self.log.append(
            Settled(seat, self.bets[seat], final, outcome, delta, self._balances[seat])
        )

    def _settle_all(self) -> None:
        assert self.target is not None
        self.turn = None
        for seat in sorted(self.bets):
            final = self.finals[seat]
            outcome, delta = settle(
                self.rules, self.bets[seat], final, target=self.target, house=self.house_roll
            )
            self._settle_one(seat, outcome, delta, final)
        self._close_round()

    def _close_round(self) -> None:
        self.phase = Phase.ROUND_OVER
        self.turn = None
        self.log.append(RoundClosed(self.round, self.house_net))

    # ------------------------------------------------------------------ views and logs

    def view(self, seat: int | None) -> BlackjackView:
        """What ``seat`` may see; see :class:`~.view.BlackjackView`."""
        return BlackjackView.of(self, seat)

    def _header(self) -> dict[str, Any]:
        return {
            "balances": list(self.starting_balances),
            "proficiency": list(self.proficiency),
            "seed": self.seed,
        }

    @classmethod
    def _fresh(cls, data: dict[str, Any]) -> BlackjackGame:
        return cls(
            data["players"],
            rules=BlackjackRules.from_dict(data["rules"]),
            balances=data["balances"],
            proficiency=data["proficiency"],
            dice=SeededDice(data.get("seed")),
            auto_roll=False,
        )

    def _apply_input(self, event: Event) -> None:
        if isinstance(event, RoundOpened) and event.round > self.round:
            self.new_round()
        elif isinstance(event, BetPlaced):
            self.place_bet(event.seat, event.amount)
        elif isinstance(event, SatOut):
            self.sit_out(event.seat)
        elif isinstance(event, RolledAgain):
            self.roll_again(event.seat)
        elif isinstance(event, Stood):
            self.stand(event.seat, event.bonus)
