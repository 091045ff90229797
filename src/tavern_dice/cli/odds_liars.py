"""Rendering for ``tavern odds liars-dice``: a wager's three outcomes and who pays for each.

The numbers all come from :mod:`tavern_dice.strategy.liars_dice.odds`
(:func:`~tavern_dice.strategy.liars_dice.odds.wager_odds` for the chances,
:func:`~tavern_dice.strategy.liars_dice.odds.outcome_costs` for who loses a die); this module
reads the options and lays the answers out.

>>> parse_dice("2,2,5,6,6"), parse_dice("22566"), parse_dice("3 1"), parse_dice("")
((2, 2, 5, 6, 6), (2, 2, 5, 6, 6), (3, 1), ())
"""

from __future__ import annotations

import re
from fractions import Fraction

from rich.table import Table

from tavern_dice.errors import InvalidDiceError
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager, SumWager
from tavern_dice.strategy.liars_dice.odds import (
    OutcomeCosts,
    WagerOdds,
    expected_dice_lost,
    matching_dice,
    outcome_costs,
    success_probability,
)

MAKER, ACCUSER = 0, 1
"""The seats that stand for the wager-maker and the accuser in the cost table."""

DEFAULT_TABLE = 3
"""Players assumed when ``--players`` is not given: the wager-maker, the accuser and one
other (enough to show who else pays on a spot-on)."""

_SPLIT = re.compile(r"[\s,;/+]+")


def parse_dice(text: str) -> tuple[int, ...]:
    """Read one's own dice: ``'2,2,5,6,6'``, ``'2 2 5 6 6'`` or, run together, ``'22566'``
    (one digit a die). Faces are checked against the ruleset later.

    Raises:
        InvalidDiceError: text that is not whole numbers.
    """
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    if len(tokens) == 1 and len(tokens[0]) > 1 and tokens[0].isdigit():
        tokens = list(tokens[0])
    if not all(t.isdigit() for t in tokens):
        raise InvalidDiceError(
            f"cannot read {text!r} as dice; write the faces as whole numbers, e.g. 2,2,5,6,6"
        )
    return tuple(int(t) for t in tokens)


def percent(p: Fraction) -> str:
    """A chance as a percentage with two decimals: ``'33.33 %'``."""
    return f"{float(p) * 100:.2f} %"


def role(seat: int, others: int) -> str:
    """Who a cost-table seat stands for."""
    if seat == MAKER:
        return "the wager-maker"
    if seat == ACCUSER:
        return "the accuser"
    return "each other player" if others > 1 else "the other player"


def losers_text(losers: tuple[int, ...], costs: OutcomeCosts) -> str:
    """The seats that lose a die, in words: ``'the accuser and each other player (3 dice)'``."""
    others = len(costs.seats) - 2
    names: list[str] = []
    if MAKER in losers:
        names.append(role(MAKER, others))
    if ACCUSER in losers:
        names.append(role(ACCUSER, others))
    rest = [s for s in losers if s not in (MAKER, ACCUSER)]
    if rest:
        names.append(role(rest[0], others))
    text = " and ".join(names)
    if len(losers) > 1:
        text += f" ({len(losers)} dice)"
    return text


def table_costs(players: int | None, rules: LiarsDiceRules) -> OutcomeCosts:
    """:func:`outcome_costs` for a table of ``players`` (default :data:`DEFAULT_TABLE`) with
    seat 0 the wager-maker and seat 1 the accuser."""
    return outcome_costs(MAKER, ACCUSER, range(players or DEFAULT_TABLE), rules)


def needed_line(
    wager: AnyWager, own: tuple[int, ...], dice_in_play: int, rules: LiarsDiceRules
) -> str:
    """What the unseen dice must show for the wager to hold, in one sentence."""
    unseen = dice_in_play - len(own)
    if isinstance(wager, SumWager):
        have = sum(own)
        return (
            f"Your dice sum to {have}; the {unseen} unseen "
            f"{'die' if unseen == 1 else 'dice'} must add at least {wager.total - have} "
            "for the wager to hold."
        )
    have = matching_dice(own, wager.face, rules)
    need = max(0, wager.quantity - have)
    p = success_probability(wager.face, rules)
    wild = (
        f" (a {wager.face} or the wild {rules.wild_face})"
        if rules.wild_face is not None and wager.face != rules.wild_face else ""
    )
    return (
        f"You hold {have} that count; {need} more needed among the {unseen} unseen "
        f"{'die' if unseen == 1 else 'dice'}, each counting with chance {p}{wild}."
    )


def odds_table(wager: AnyWager, odds: WagerOdds, costs: OutcomeCosts) -> Table:
    """The three outcomes of accusing ``wager`` (L8): chance as an exact fraction and a
    percentage, and who loses a die in each under the ruleset."""
    table = Table(title=f"If someone accuses “{wager}”")
    table.add_column("outcome", no_wrap=True)
    table.add_column("chance", justify="right", overflow="fold")
    table.add_column("percent", justify="right", no_wrap=True)
    table.add_column("who loses a die")
    exact_name = "exact (spot-on)" if costs.exact_outcome == "spot-on" else "exact (counts as true)"
    rows = (
        ("false", odds.false, costs.false),
        ("true, not exact", odds.true_not_exact, costs.true_not_exact),
        (exact_name, odds.exact, costs.exact),
    )
    for name, p, losers in rows:
        table.add_row(name, str(p), percent(p), losers_text(losers, costs))
    table.add_section()
    table.add_row("[bold]wager holds[/]", str(odds.true), percent(odds.true), "")
    return table


def expected_loss_line(odds: WagerOdds, costs: OutcomeCosts) -> str:
    """Each role's expected dice lost if the wager is accused."""
    lost = expected_dice_lost(odds, costs)
    others = len(costs.seats) - 2
    parts = [
        f"wager-maker {float(lost[MAKER]):.4f}",
        f"accuser {float(lost[ACCUSER]):.4f}",
    ]
    if others:
        parts.append(f"{role(2, others)} {float(lost[2]):.4f}")
    return "Expected dice lost if accused: " + ", ".join(parts) + "."
