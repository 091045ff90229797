"""``--hints`` for ``tavern play``: the strategy modules' figures, worded for one person.

Each hint is computed from the person's own view only (a
:class:`~tavern_dice.liars_dice.view.LiarsDiceView` or
:class:`~tavern_dice.blackjack.view.BlackjackView`), so it can never leak another
player's hidden dice. The odds and values come from
:mod:`tavern_dice.strategy.liars_dice.odds` and :mod:`tavern_dice.strategy.blackjack.solver`;
this module only picks the figures to show and words them as one or two dim lines.

* Dice Blackjack, before a move: the chance that the next d12 busts, the expected
  payout of standing now (with the best bonus) and of rolling (then playing on
  optimally), per 1 gp bet and in cp for the actual bet, and which is better.
* Dice Blackjack, before betting: the target is not rolled yet, so the hint is the
  expected payout of a whole round under optimal play for the person's proficiency
  bonus (minus the house edge).
* Liar's Dice: the chances that the standing wager is false, true but not exact, or
  exact given the person's own dice; who loses a die in each case if they accuse;
  and the legal wagers most likely to be true.

>>> percent(Fraction(5, 12)), percent(Fraction(1, 1000)), percent(Fraction(1))
('42%', '<1%', '100%')
>>> per_gp(Fraction(-3, 25)), per_gp(Fraction(0)), per_gp(Fraction(15, 1600), places=4)
('-0.12', '0.00', '+0.0094')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rich.console import RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tavern_dice.blackjack.actions import Roll, Stand
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.cli.render_blackjack import signed_cp
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager
from tavern_dice.money import format_cp
from tavern_dice.strategy.blackjack.solver import Action, solve
from tavern_dice.strategy.liars_dice.odds import (
    OutcomeCosts,
    WagerOdds,
    expected_dice_lost,
    outcome_costs,
    view_odds,
    wager_odds,
)

HINT_STYLE = "dim"
"""Style of every hint line: quieter than the table and the prompt."""

HINT_LABEL = "hint:"
"""The label in front of each hint line."""

SAFEST_COUNT = 4
"""How many of the safest legal wagers a Liar's Dice hint lists."""


# ---------------------------------------------------------------------- number formats


def percent(p: Fraction) -> str:
    """A probability as a whole percent; ``'<1%'`` and ``'>99%'`` for chances that are not
    0 or 1 but round to them, so that a certainty is never claimed where there is none."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    shown = round(p * 100)
    if shown < 1:
        return "<1%"
    if shown > 99:
        return ">99%"
    return f"{shown}%"


def per_gp(value: Fraction, places: int = 2) -> str:
    """An expected payout per unit bet (= gp per gp bet), signed, to ``places`` decimals."""
    shown = round(value, places)
    if shown == 0:
        return f"{0:.{places}f}"
    return f"{float(shown):+.{places}f}"


def _approx_cp(value: Fraction, bet_cp: int) -> int:
    """``value`` per unit bet times ``bet_cp``, to the nearest copper piece."""
    return round(value * bet_cp)


def hint_block(lines: Sequence[str]) -> RenderableType:
    """Hint lines laid out for the terminal: indented, each after :data:`HINT_LABEL`, dim,
    and wrapped under their own start (not under the label) on a narrow terminal."""
    grid = Table.grid(padding=(0, 1), pad_edge=False)
    grid.add_column(style=HINT_STYLE, no_wrap=True)
    grid.add_column(style=HINT_STYLE, overflow="fold")
    for line in lines:
        grid.add_row(HINT_LABEL, Text(line))
    return Padding(grid, (0, 0, 0, 2), expand=False)


# ---------------------------------------------------------------------- Dice Blackjack


@dataclass(frozen=True, slots=True)
class BlackjackMoveHint:
    """The figures behind a Dice Blackjack move hint (values per unit bet, exact).

    Attributes:
        target, house, total: the situation (``house`` is ``None`` after a house bust).
        bet_cp: the person's bet this round, in cp.
        bust_chance: P(the next d12 takes ``total`` over ``target``).
        stand_value: expected payout per unit bet of standing now with ``stand_bonus``.
        stand_bonus: the best bonus to add on standing (0 when not proficient).
        roll_value: expected payout per unit bet of rolling, then playing optimally.
        better: ``Roll()`` or ``Stand(bonus)`` (the solver's choice; ties go to standing).
    """

    target: int
    house: int | None
    total: int
    bet_cp: int
    bust_chance: Fraction
    stand_value: Fraction
    stand_bonus: int
    roll_value: Fraction
    better: Action

    @property
    def stand_cp(self) -> int:
        """Expected payout of standing on the actual bet, to the nearest cp."""
        return _approx_cp(self.stand_value, self.bet_cp)

    @property
    def roll_cp(self) -> int:
        """Expected payout of rolling on the actual bet, to the nearest cp."""
        return _approx_cp(self.roll_value, self.bet_cp)


def blackjack_move_hint(view: BlackjackView) -> BlackjackMoveHint:
    """The move hint for ``view``'s seat, on its turn after at least one d12.

    Raises:
        TavernError: the view is not of a seat with a live total and a bet.
    """
    seat = view.seat
    if seat is None or view.target is None or seat not in view.totals or seat not in view.bets:
        raise TavernError("a move hint needs a seat on its turn, with a bet and a total")
    solution = solve(view.rules, view.proficiency[seat] or None)
    target, total = view.target, view.totals[seat]
    house = None if view.house_bust else view.house_roll
    return BlackjackMoveHint(
        target=target,
        house=house,
        total=total,
        bet_cp=view.bets[seat],
        bust_chance=solution.bust_chance_next_roll(target, total),
        stand_value=solution.stand_value(target, house, total),
        stand_bonus=solution.bonus(target, house, total),
        roll_value=solution.roll_value(target, house, total),
        better=solution.action(target, house, total),
    )


def blackjack_move_lines(hint: BlackjackMoveHint) -> list[str]:
    """Two lines, one per move: its expected payout per gp bet and on the actual bet, the
    bust chance of rolling, and a mark on the better move.

    ``stand +1: expect +1.00/gp bet (≈ +2 gp on your 2 gp)  ← better``
    ``roll:     expect +0.46/gp bet (≈ +9 sp 2 cp) · next d12 busts 33%``
    """
    stand = "stand" + (f" +{hint.stand_bonus}" if hint.stand_bonus else "") + ":"
    width = max(len(stand), len("roll:"))
    better = "  ← better"
    return [
        f"{stand:<{width}} expect {per_gp(hint.stand_value)}/gp bet "
        f"(≈ {signed_cp(hint.stand_cp)} on your {format_cp(hint.bet_cp)})"
        + (better if isinstance(hint.better, Stand) else ""),
        f"{'roll:':<{width}} expect {per_gp(hint.roll_value)}/gp bet "
        f"(≈ {signed_cp(hint.roll_cp)}) · next d12 busts {percent(hint.bust_chance)}"
        + (better if isinstance(hint.better, Roll) else ""),
    ]


@dataclass(frozen=True, slots=True)
class BlackjackBetHint:
    """The figures behind the hint shown before betting.

    Attributes:
        proficiency_bonus: the person's PB (``None``: not proficient).
        expected_payout: expected payout per unit bet of a whole round under optimal
            play, before the target is rolled (B3-B8; a target of 1 counts -1).
    """

    proficiency_bonus: int | None
    expected_payout: Fraction

    @property
    def house_edge(self) -> Fraction:
        """The house's edge: the person's expected loss per unit bet."""
        return -self.expected_payout


def blackjack_bet_hint(view: BlackjackView) -> BlackjackBetHint:
    """The hint before betting: the round's value under optimal play for ``view``'s seat.

    Raises:
        TavernError: a spectator's view (no seat).
    """
    if view.seat is None:
        raise TavernError("a bet hint needs a seat")
    pb = view.proficiency[view.seat] or None
    return BlackjackBetHint(pb, solve(view.rules, pb).expected_payout())


def blackjack_bet_lines(hint: BlackjackBetHint) -> list[str]:
    """One line: the target is not rolled yet, so the expected payout of a whole round.

    ``a round at best play, no PB: expect +0.0094/gp bet (your edge 0.94%)``
    """
    pb = "no PB" if hint.proficiency_bonus is None else f"PB {hint.proficiency_bonus}"
    edge = hint.house_edge * 100
    if edge > 0:
        side = f"house edge {float(edge):.2f}%"
    elif edge < 0:
        side = f"your edge {float(-edge):.2f}%"
    else:
        side = "no edge either way"
    return [
        f"a round at best play, {pb}: expect {per_gp(hint.expected_payout, 4)}/gp bet ({side})"
    ]


# ---------------------------------------------------------------------- Liar's Dice


@dataclass(frozen=True, slots=True)
class RaiseOdds:
    """One legal wager and the chance that it holds (true or exact), given own dice."""

    wager: AnyWager
    true: Fraction


@dataclass(frozen=True, slots=True)
class LiarsHint:
    """The figures behind a Liar's Dice hint, for one seat.

    Attributes:
        seat: the person's seat.
        wager, wager_maker: the standing wager and who made it, or ``None``.
        odds: :func:`~tavern_dice.strategy.liars_dice.odds.view_odds` of the standing wager.
        costs: who loses a die in each outcome if this seat accuses now (``None`` when
            it may not accuse).
        lose_chance: this seat's chance of losing a die if it accuses now.
        safest: the legal wagers most likely to hold, best first.
    """

    seat: int
    wager: AnyWager | None
    wager_maker: int | None
    odds: WagerOdds | None
    costs: OutcomeCosts | None
    lose_chance: Fraction | None
    safest: tuple[RaiseOdds, ...]


def safest_wagers(view: LiarsDiceView, count: int = SAFEST_COUNT) -> tuple[RaiseOdds, ...]:
    """The ``count`` legal wagers of ``view`` most likely to hold, given its own dice.

    Ordered by that chance, highest first. Between equally likely wagers the bolder claim
    comes first (it is as safe and leaves the next player less room), and a wager is left
    out when a bolder one on the same face (or sum) is exactly as likely: "1 five" adds
    nothing next to "2 fives" when both are certain. Wagers that cannot hold are never
    listed, so fewer than ``count`` may come back.
    """
    rated = [
        RaiseOdds(w, wager_odds(w, view.own_dice, view.dice_in_play, view.rules).true)
        for w in view.legal_wagers
    ]
    rated.sort(key=lambda r: (-r.true, *(-x for x in _strength(r.wager))))
    shown: list[RaiseOdds] = []
    seen: set[tuple[int, Fraction]] = set()
    for r in rated:
        kind = r.wager.face if isinstance(r.wager, Wager) else 0
        if r.true == 0 or (kind, r.true) in seen:
            continue
        seen.add((kind, r.true))
        shown.append(r)
        if len(shown) == count:
            break
    return tuple(shown)


def _strength(wager: AnyWager) -> tuple[int, int]:
    if isinstance(wager, SumWager):
        return (wager.total, 0)
    return (wager.quantity, wager.face)


def liars_hint(view: LiarsDiceView, count: int = SAFEST_COUNT) -> LiarsHint:
    """The hint for ``view``'s seat when it is to act or may accuse.

    Raises:
        TavernError: a spectator's view (no seat).
    """
    seat = view.seat
    if seat is None:
        raise TavernError("a hint needs a seat")
    odds = costs = lose = None
    if view.wager is not None:
        odds = view_odds(view)
        if view.may_accuse and view.wager_maker is not None:
            in_game = [s for s, c in enumerate(view.dice_counts) if c > 0]
            costs = outcome_costs(view.wager_maker, seat, in_game, view.rules)
            lose = expected_dice_lost(odds, costs)[seat]
    return LiarsHint(seat, view.wager, view.wager_maker, odds, costs, lose,
                     safest_wagers(view, count))


def _short(wager: AnyWager) -> str:
    """A wager in few characters: '3 twos', 'sum ≥7'."""
    return f"sum ≥{wager.total}" if isinstance(wager, SumWager) else str(wager)


def _who(losers: Sequence[int], costs: OutcomeCosts, seat: int, players: Sequence[str]) -> str:
    """The losers of one outcome in a few words: 'you', 'Bo', 'all but Bo'."""
    others = [s for s in costs.seats if s != costs.wager_maker]
    if len(losers) > 1 and sorted(losers) == sorted(others):
        return f"all but {players[costs.wager_maker]}"
    return " and ".join("you" if s == seat else players[s] for s in losers)


def liars_lines(hint: LiarsHint, players: Sequence[str]) -> list[str]:
    """Up to two lines (none when there is nothing to say).

    ``3 twos: false 62% (Bo -1 die) · true, not exact 30% (you -1) · exact 8% (all but Bo -1)``
    ``accusing costs you a die 38% · safest raises: 1 three 91%, 4 ones 40%``

    The first line gives each outcome's chance and, when the seat may accuse, who loses
    a die in it; the second the seat's own chance of losing a die by accusing, and the
    safest wagers.
    """
    lines: list[str] = []
    tail: list[str] = []
    if hint.wager is not None and hint.odds is not None:
        odds, costs = hint.odds, hint.costs
        labels = ("false", "true, not exact", "exact")
        chances = (odds.false, odds.true_not_exact, odds.exact)
        parts = [f"{label} {percent(p)}" for label, p in zip(labels, chances, strict=True)]
        if costs is not None:
            losers = (costs.false, costs.true_not_exact, costs.exact)
            for i, (seats, unit) in enumerate(zip(losers, (" die", "", ""), strict=True)):
                parts[i] += f" ({_who(seats, costs, hint.seat, players)} -1{unit})"
        lines.append(f"{_short(hint.wager)}: " + " · ".join(parts))
        if hint.lose_chance is not None:
            tail.append(f"accusing costs you a die {percent(hint.lose_chance)}")
    if hint.safest:
        listed = ", ".join(f"{_short(r.wager)} {percent(r.true)}" for r in hint.safest)
        label = "safest openings" if hint.wager is None else "safest raises"
        tail.append(f"{label}: {listed}")
    if tail:
        lines.append(" · ".join(tail))
    return lines


__all__ = [
    "HINT_LABEL",
    "HINT_STYLE",
    "BlackjackBetHint",
    "BlackjackMoveHint",
    "LiarsHint",
    "RaiseOdds",
    "blackjack_bet_hint",
    "blackjack_bet_lines",
    "blackjack_move_hint",
    "blackjack_move_lines",
    "hint_block",
    "liars_hint",
    "liars_lines",
    "per_gp",
    "percent",
    "safest_wagers",
]
