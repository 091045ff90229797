"""Dice Blackjack solved exactly: the best play and the house edge, in exact fractions.

A round (seed "PLAYING"): the house rolls the large d20, the *target* T (B3); a
target of 1 collects every bet at once (B4). Otherwise the house rolls two more
d20s and keeps the higher one that is not over the target, the *house roll*
h; if neither qualifies the house *busts* (B5). Target and house roll are known
before the players roll. A player rolls one d12 (mandatory), then may roll
another and add it, again and again, or stand; over the target is a bust (B6).
After standing a proficient player may add 0..ceil(PB/2) (B7). Settlement (B8):
bust -1; final total == target +3/2; else +1 if the house busted or the total
beats the house roll, -1 otherwise.

All values are expected payouts per unit bet, as :class:`fractions.Fraction`
(the exact 3/2 for an exact hit, not the copper-rounded payout). The house
edge is the player's expected *loss* per unit bet, so positive favours the house.

Here ``house`` is always the house roll, or ``None`` when the house busted; a
*total* is the sum of the player's d12s before any bonus (0 before the first
roll). Ties between standing and rolling go to standing; ties between bonuses
go to the smallest.

>>> from tavern_dice.blackjack.rules import TAVERN
>>> sol = solve(TAVERN)
>>> sol.action(20, 15, 14), sol.action(20, 15, 17)
(Roll(), Stand(bonus=0))
>>> sol.stand_value(20, 15, 17)
Fraction(1, 1)
>>> solve(TAVERN, 4).bonus(20, 15, 18)   # 18 + 2 hits the target: 3/2
2
>>> house_distribution(TAVERN, 3)[None]   # both d20s over 3
Fraction(289, 400)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from tavern_dice.blackjack import settlement
from tavern_dice.blackjack.actions import Roll, Stand
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.errors import TavernError

Action = Roll | Stand
"""What a player does on their turn: roll another d12 or stand (B6), as the engine's
actions."""

HouseResult = int | None
"""The house roll (1..target), or ``None`` when the house busted (B5)."""

Policy = Callable[[int, int, HouseResult, int], Action]
"""``policy(total, target, house, bonus_cap) -> Roll() | Stand()`` for totals >= 1 (the
player adds the bonus on standing: a policy says only whether to stand)."""

_ROLL = Roll()
_STAND = Stand()

_WIN = Fraction(1)
_LOSS = Fraction(-1)


# --------------------------------------------------------------------------- chance


def target_distribution(rules: BlackjackRules = TAVERN) -> dict[int, Fraction]:
    """Probability of each target ``1..target_sides`` (B3: "The number they roll becomes
    the target number"): uniform, ``{T: 1/target_sides}``."""
    p = Fraction(1, rules.target_sides)
    return {t: p for t in range(1, rules.target_sides + 1)}


def house_qualifying_faces(rules: BlackjackRules, target: int) -> int:
    """How many faces of a house die count for the target (B5: "closer to the target
    number without going over"): ``min(target, house_sides)``, or ``min(target - 1,
    house_sides)`` with ``house_needs_under`` ("neither ... under the target")."""
    top = target - 1 if rules.house_needs_under else target
    return max(0, min(top, rules.house_sides))


def house_distribution(rules: BlackjackRules, target: int) -> dict[HouseResult, Fraction]:
    """Distribution of the house result given the target (B5).

    The house rolls ``house_dice`` d``house_sides`` and keeps the highest die that
    qualifies (see :func:`house_qualifying_faces`); with none it busts ("If neither
    of the house's rolls are under the target number, the house busts").

    Returns:
        ``{h: P(house roll == h)}`` for each possible ``h`` (ascending) and
        ``{None: P(bust)}`` (present only when the bust chance is positive);
        the probabilities sum to 1.
    """
    _check_target(rules, target)
    s, n = rules.house_sides, rules.house_dice
    q = house_qualifying_faces(rules, target)
    over = s - q  # faces that do not qualify
    out: dict[HouseResult, Fraction] = {}
    for h in range(1, q + 1):
        p = Fraction((h + over) ** n - (h - 1 + over) ** n, s**n)
        if p:
            out[h] = p
    if over:
        out[None] = Fraction(over**n, s**n)
    return out


def bust_chance(rules: BlackjackRules, target: int, total: int) -> Fraction:
    """Chance that one more d``player_sides`` takes ``total`` over ``target`` (B6)."""
    n = rules.player_sides
    return Fraction(min(n, max(0, total + n - target)), n)


# --------------------------------------------------------------------------- payouts


def settle(rules: BlackjackRules, final: int, target: int, house: HouseResult) -> Fraction:
    """Payout per unit bet of a player who stood on ``final`` (bonus included) (B8).

    The engine's :func:`~tavern_dice.blackjack.settlement.outcome` decides the result and
    its :func:`~tavern_dice.blackjack.settlement.payout_ratio` pays it exactly (the 3/2
    of an exact hit, not the copper-rounded payout).
    """
    return settlement.payout_ratio(
        rules, settlement.outcome(rules, final, target=target, house=house)
    )


def best_bonus(
    rules: BlackjackRules, total: int, target: int, house: HouseResult, bonus_cap: int
) -> tuple[int, Fraction]:
    """The bonus to add on standing at ``total`` and the payout it gives (B7).

    Tries every legal bonus ``0..min(bonus_cap, target - total)`` (a bonus taking the
    total over the target is refused) and returns the smallest one with the highest
    :func:`settle` payout, as ``(bonus, payout)``.
    """
    best_b, best_v = 0, settle(rules, total, target, house)
    for b in range(1, min(bonus_cap, target - total) + 1):
        v = settle(rules, total + b, target, house)
        if v > best_v:
            best_b, best_v = b, v
    return best_b, best_v


# --------------------------------------------------------------------------- solving


@dataclass(frozen=True, slots=True)
class _Table:
    """Values for one (target, house) situation, indexed by total 0..target."""

    stand: tuple[Fraction, ...]
    roll: tuple[Fraction, ...]
    bonus: tuple[int, ...]
    action: tuple[Action, ...]

    def value(self, total: int) -> Fraction:
        return self.stand[total] if isinstance(self.action[total], Stand) else self.roll[total]


def _backward(
    rules: BlackjackRules,
    target: int,
    house: HouseResult,
    bonus_cap: int,
    choose: Callable[[int, Fraction, Fraction], Action],
) -> _Table:
    """Backward induction over totals ``target..0`` with ``choose(total, stand, roll)``; a
    stand in the table carries the best bonus."""
    n = rules.player_sides
    size = target + 1
    stand: list[Fraction] = [_LOSS] * size
    roll: list[Fraction] = [_LOSS] * size
    bonus: list[int] = [0] * size
    action: list[Action] = [_ROLL] * size
    value: list[Fraction] = [_LOSS] * size
    for total in range(target, -1, -1):
        bonus[total], stand[total] = best_bonus(rules, total, target, house, bonus_cap)
        acc = Fraction(-max(0, total + n - target))  # each busting face pays -1
        for nxt in range(total + 1, min(total + n, target) + 1):
            acc += value[nxt]
        roll[total] = acc / n
        # B6: the first d12 is mandatory, so total 0 always rolls.
        chosen = _ROLL if total == 0 else choose(total, stand[total], roll[total])
        action[total] = Stand(bonus[total]) if isinstance(chosen, Stand) else _ROLL
        value[total] = stand[total] if isinstance(chosen, Stand) else roll[total]
    return _Table(tuple(stand), tuple(roll), tuple(bonus), tuple(action))


def _optimal(total: int, stand: Fraction, roll: Fraction) -> Action:
    return _ROLL if roll > stand else _STAND


@dataclass(frozen=True)
class BlackjackSolution:
    """Optimal play of Dice Blackjack for one ruleset and one proficiency bonus.

    Build it with :func:`solve`. Every method takes the situation the player sees:
    ``target`` (2..target_sides; 1 too if ``target_one_collects`` is off), ``house``
    (the house roll, or ``None`` for a house bust) and ``total`` (the sum of their
    d12s so far, 0..target; 0 means the mandatory first roll is still to come).

    Attributes:
        rules: the ruleset solved.
        proficiency_bonus: the player's PB (``None``: not proficient).
        bonus_cap: the largest bonus they may add, ``ceil(PB/2)`` (B7).
    """

    rules: BlackjackRules
    proficiency_bonus: int | None
    bonus_cap: int
    _tables: dict[tuple[int, HouseResult], _Table] = field(
        default_factory=dict, repr=False, compare=False
    )

    def _table(self, target: int, house: HouseResult) -> _Table:
        key = (target, house)
        table = self._tables.get(key)
        if table is None:
            _check_situation(self.rules, target, house)
            table = _backward(self.rules, target, house, self.bonus_cap, _optimal)
            self._tables[key] = table
        return table

    def _at(self, target: int, house: HouseResult, total: int) -> _Table:
        table = self._table(target, house)
        if not 0 <= total <= target:
            raise TavernError(
                f"total {total} is not a live total for target {target}; use 0..{target}"
            )
        return table

    def action(self, target: int, house: HouseResult, total: int) -> Action:
        """The best move at ``total``: ``Roll()``, or ``Stand(bonus)`` with the best bonus
        (always ``Roll()`` at 0)."""
        return self._at(target, house, total).action[total]

    def bonus(self, target: int, house: HouseResult, total: int) -> int:
        """The bonus (0..bonus_cap) to add on standing at ``total`` (B7)."""
        return self._at(target, house, total).bonus[total]

    def stand_value(self, target: int, house: HouseResult, total: int) -> Fraction:
        """Expected payout per unit bet of standing now at ``total`` with the best bonus."""
        return self._at(target, house, total).stand[total]

    def roll_value(self, target: int, house: HouseResult, total: int) -> Fraction:
        """Expected payout per unit bet of rolling one more d12, then playing on optimally."""
        return self._at(target, house, total).roll[total]

    def value(self, target: int, house: HouseResult, total: int = 0) -> Fraction:
        """Expected payout per unit bet from ``total`` under optimal play.

        ``value(target, house)`` (total 0) is the value of the whole turn once the
        house has rolled.
        """
        return self._at(target, house, total).value(total)

    def bust_chance_next_roll(self, target: int, total: int) -> Fraction:
        """Chance that the next d12 takes ``total`` over ``target``."""
        return bust_chance(self.rules, target, total)

    def stand_at(self, target: int, house: HouseResult) -> int:
        """The smallest total (>= 1) at which the best play stands (the chart's cell).

        The best play is a threshold: it rolls below this total and stands from it
        up to the target (see :meth:`is_threshold`).
        """
        table = self._table(target, house)
        return next(t for t in range(1, target + 1) if isinstance(table.action[t], Stand))

    def is_threshold(self, target: int, house: HouseResult) -> bool:
        """Whether the best play stands at every total from :meth:`stand_at` up."""
        table = self._table(target, house)
        first = self.stand_at(target, house)
        return all(isinstance(a, Stand) for a in table.action[first:])

    def target_value(self, target: int) -> Fraction:
        """Expected payout per unit bet once the target is known, before the house rolls
        (-1 for target 1 when ``target_one_collects``: B4 "all bets are collected")."""
        if target == 1 and self.rules.target_one_collects:
            _check_target(self.rules, target)
            return _LOSS
        return sum(
            (p * self.value(target, h) for h, p in house_distribution(self.rules, target).items()),
            Fraction(0),
        )

    def expected_payout(self) -> Fraction:
        """Expected payout per unit bet of a whole round under optimal play."""
        return sum(
            (p * self.target_value(t) for t, p in target_distribution(self.rules).items()),
            Fraction(0),
        )

    def house_edge(self) -> Fraction:
        """The player's expected loss per unit bet under optimal play (``-expected_payout``)."""
        return -self.expected_payout()


def _check_target(rules: BlackjackRules, target: int) -> None:
    if not 1 <= target <= rules.target_sides:
        raise TavernError(f"target {target} is not a face of the d{rules.target_sides}")


def _check_situation(rules: BlackjackRules, target: int, house: HouseResult) -> None:
    _check_target(rules, target)
    if target == 1 and rules.target_one_collects:
        raise TavernError("a target of 1 collects every bet at once (B4); nothing is played")
    if house not in house_distribution(rules, target):
        possible = ", ".join(str(h) for h in house_distribution(rules, target))
        raise TavernError(f"house result {house} is impossible for target {target}: {possible}")


def _check_pb(rules: BlackjackRules, proficiency_bonus: int | None) -> None:
    if proficiency_bonus is not None and not 2 <= proficiency_bonus <= (
        rules.max_proficiency_bonus
    ):
        raise TavernError(
            f"proficiency bonus must be None or 2..{rules.max_proficiency_bonus}, "
            f"not {proficiency_bonus}"
        )


@lru_cache(maxsize=64)
def solve(
    rules: BlackjackRules = TAVERN, proficiency_bonus: int | None = None
) -> BlackjackSolution:
    """Solve Dice Blackjack for a player with ``proficiency_bonus`` (cached).

    Args:
        rules: the ruleset (default: the seed's).
        proficiency_bonus: ``None`` (not proficient) or 2..max_proficiency_bonus.

    Returns:
        A :class:`BlackjackSolution`; its tables fill in lazily, per (target, house).

    Raises:
        TavernError: for a proficiency bonus out of range.
    """
    _check_pb(rules, proficiency_bonus)
    return BlackjackSolution(rules, proficiency_bonus, rules.bonus_cap(proficiency_bonus))


# --------------------------------------------------------------------------- fixed policies


def _simple_policy(
    total: int, target: int, house: HouseResult, bonus_cap: int, margin: int
) -> Action:
    reach = min(total + bonus_cap, target)
    if reach == target:
        return _STAND  # the bonus makes an exact hit: 3/2, the best payout there is
    if house is not None and reach <= house:
        return _ROLL  # standing loses anyway: nothing to lose
    return _STAND if target - total < margin else _ROLL


def cautious_policy(total: int, target: int, house: HouseResult, bonus_cap: int) -> Action:
    """The ``cautious`` bot's rule of thumb, for totals >= 1.

    Stands if ``total + bonus_cap`` reaches the target (the bonus makes an exact hit);
    else rolls if the house did not bust and ``total + bonus_cap <= house`` (standing
    loses anyway); else stands when ``target - total < 7``, rolls otherwise.

    >>> [cautious_policy(t, 20, 15, 0) for t in (12, 16)], cautious_policy(13, 20, None, 0)
    ([Roll(), Stand(bonus=0)], Roll())
    """
    return _simple_policy(total, target, house, bonus_cap, 7)


def bold_policy(total: int, target: int, house: HouseResult, bonus_cap: int) -> Action:
    """The ``bold`` bot's rule of thumb, for totals >= 1.

    As :func:`cautious_policy`, but it stands only when ``target - total < 3``.

    >>> bold_policy(16, 20, 15, 0), bold_policy(18, 20, None, 0), bold_policy(18, 20, 10, 2)
    (Roll(), Stand(bonus=0), Stand(bonus=0))
    """
    return _simple_policy(total, target, house, bonus_cap, 3)


POLICIES: Mapping[str, Policy] = {"cautious": cautious_policy, "bold": bold_policy}
"""The named fixed policies, by bot name."""


@lru_cache(maxsize=256)
def _policy_target_value(
    rules: BlackjackRules, bonus_cap: int, policy: Policy, target: int
) -> Fraction:
    total = Fraction(0)
    for house, p in house_distribution(rules, target).items():

        def choose(t: int, _s: Fraction, _r: Fraction, house: HouseResult = house) -> Action:
            return policy(t, target, house, bonus_cap)

        total += p * _backward(rules, target, house, bonus_cap, choose).value(0)
    return total


def policy_value(
    rules: BlackjackRules,
    proficiency_bonus: int | None,
    policy: Policy,
    target: int,
    house: HouseResult,
) -> Fraction:
    """Expected payout per unit bet of a turn played by ``policy`` once the house rolled.

    On standing the player adds the best bonus (:func:`best_bonus`).
    """
    _check_pb(rules, proficiency_bonus)
    _check_situation(rules, target, house)
    cap = rules.bonus_cap(proficiency_bonus)

    def choose(t: int, _s: Fraction, _r: Fraction) -> Action:
        return policy(t, target, house, cap)

    return _backward(rules, target, house, cap, choose).value(0)


def house_edge(
    rules: BlackjackRules = TAVERN,
    proficiency_bonus: int | None = None,
    policy: Policy | None = None,
) -> Fraction:
    """The house edge: the player's expected loss per unit bet (positive favours the house).

    Args:
        rules: the ruleset.
        proficiency_bonus: ``None`` or 2..max_proficiency_bonus (B7).
        policy: a fixed :data:`Policy` (e.g. :func:`cautious_policy`), or ``None`` for
            optimal play. A target of 1 counts -1 when ``target_one_collects`` (B4).

    Under the seed's rules optimal play beats the house slightly; the cautious bot
    does not:

    >>> [round(float(house_edge(TAVERN, None, p)), 4) for p in (None, cautious_policy)]
    [-0.0094, 0.0435]
    """
    if policy is None:
        return solve(rules, proficiency_bonus).house_edge()
    _check_pb(rules, proficiency_bonus)
    cap = rules.bonus_cap(proficiency_bonus)
    expected = Fraction(0)
    for target, p in target_distribution(rules).items():
        if target == 1 and rules.target_one_collects:
            expected += p * _LOSS
        else:
            expected += p * _policy_target_value(rules, cap, policy, target)
    return -expected


def house_edges(
    rules: BlackjackRules = TAVERN, proficiency_bonus: int | None = None
) -> dict[str, Fraction]:
    """House edge under optimal play and under each named policy.

    Returns:
        ``{'optimal': edge, 'cautious': edge, 'bold': edge}`` (Fractions per unit bet).
    """
    out = {"optimal": house_edge(rules, proficiency_bonus)}
    for name, policy in POLICIES.items():
        out[name] = house_edge(rules, proficiency_bonus, policy)
    return out


__all__ = [
    "POLICIES",
    "Action",
    "BlackjackSolution",
    "HouseResult",
    "Policy",
    "best_bonus",
    "bold_policy",
    "bust_chance",
    "cautious_policy",
    "house_distribution",
    "house_edge",
    "house_edges",
    "house_qualifying_faces",
    "policy_value",
    "settle",
    "solve",
    "target_distribution",
]
