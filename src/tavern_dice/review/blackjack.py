"""The Dice Blackjack review: each roll and stand (with its bonus) of a seat against the
exact optimal policy (:func:`tavern_dice.strategy.blackjack.solver.solve` for the table's
rules and the seat's proficiency bonus).

At each decision the seat knew the target, the house roll (or the house's bust) and its
own total (B5, B6). Rolling on is worth the solver's
:meth:`~tavern_dice.strategy.blackjack.solver.BlackjackSolution.roll_value` (one more d12,
then optimal play), standing with a bonus ``b`` is worth
:func:`~tavern_dice.strategy.blackjack.solver.settle` of ``total + b`` (B7, B8); the best
is the solver's own choice. Values and costs are exact expected payouts per unit bet
(a cost of 0.25 on a 2 gp bet is 50 cp thrown away on average), marked with
:data:`~tavern_dice.review.marks.BLACKJACK_THRESHOLDS` (inaccuracy from 0.02, mistake
from 0.10, blunder from 0.25 per unit bet). The first d12 of a turn is rolled without
asking (B6), so it is no decision; bets are not judged (every bet of the same play has
the same expected payout per unit).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tavern_dice.blackjack.actions import Roll
from tavern_dice.blackjack.events import RolledAgain, Stood
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.events import Event
from tavern_dice.money import format_cp
from tavern_dice.record import GameRecord
from tavern_dice.review.marks import BLACKJACK_THRESHOLDS
from tavern_dice.review.model import TURN, BlackjackKnown, Choice, Decision, GameReview, SeatReview
from tavern_dice.strategy.blackjack.solver import bust_chance, settle, solve

VALUES = (
    "the exact expected payout per unit bet with optimal play from then on (+1 a win, "
    "-1 a loss, the exact-hit payout for an exact hit)"
)
"""What a Dice Blackjack review's values mean."""


def review_blackjack(game: BlackjackGame, seats: Sequence[int]) -> GameReview:
    """Review ``seats`` of ``game`` (a session replayed from its log)."""
    wanted = tuple(dict.fromkeys(seats))
    decisions: dict[int, list[Decision]] = {seat: [] for seat in wanted}
    before: dict[int, BlackjackView] = {}
    for step in GameRecord.of(game).steps(masked=False, seats=wanted):
        event = step.event
        if isinstance(event, RolledAgain | Stood) and event.seat in before:
            view = before[event.seat]
            found = decisions[event.seat]
            found.append(_decision(len(found) + 1, view, event))
        # Each step's views (after its input and all it derived) stand before the next.
        before = {seat: view for seat, view in step.seat_views.items()
                  if view.turn == seat and Roll.kind in view.legal_actions}
    reviews = tuple(
        SeatReview(seat, game.players[seat], tuple(decisions[seat]), _result(game, seat))
        for seat in wanted
    )
    return GameReview("blackjack", game.players, BLACKJACK_THRESHOLDS, VALUES, reviews,
                      game.round)


def _decision(number: int, view: BlackjackView, event: Event) -> Decision:
    seat = view.seat
    assert seat is not None and view.target is not None
    target, total = view.target, view.totals[seat]
    house = None if view.house_bust else view.house_roll
    solution = solve(view.rules, view.proficiency[seat])
    values: dict[str, tuple[Fraction, str]] = {
        "roll": (solution.roll_value(target, house, total), "roll another d12"),
    }
    for bonus in view.legal_bonuses:
        values[_stand_code(bonus)] = (settle(view.rules, total + bonus, target, house),
                                      _stand_text(bonus))
    if isinstance(event, RolledAgain):
        code = "roll"
    else:
        assert isinstance(event, Stood)
        code = _stand_code(event.bonus)
    # The solver's own choice is the best (ties: standing, then the smallest bonus).
    best_move = solution.action(target, house, total)
    best_code = "roll" if isinstance(best_move, Roll) else _stand_code(best_move.bonus)
    best_value = solution.value(target, house, total)
    chosen_value = values[code][0]
    cost = best_value - chosen_value
    ranked = sorted(values.items(), key=lambda item: -item[1][0])
    top = [Choice(c, text, float(v)) for c, (v, text) in ranked[:3]]
    chosen = Choice(code, values[code][1], float(chosen_value))
    if all(c.code != code for c in top):
        top.append(chosen)
    known = BlackjackKnown(
        target=target, house=house, total=total, bonus_cap=solution.bonus_cap,
        bet_cp=view.bets.get(seat, 0), balance_cp=view.balances[seat],
        bust_chance=bust_chance(view.rules, target, total),
    )
    return Decision(
        number=number, round=view.round, kind=TURN, known=known, chosen=chosen,
        best=Choice(best_code, values[best_code][1], float(best_value)),
        alternatives=tuple(top), cost=float(cost), mark=BLACKJACK_THRESHOLDS.mark(float(cost)),
        method="exact solution", exact_cost=cost,
    )


def _stand_code(bonus: int) -> str:
    return f"stand+{bonus}"


def _stand_text(bonus: int) -> str:
    return "stand" if bonus == 0 else f"stand, add {bonus}"


def _result(game: BlackjackGame, seat: int) -> str:
    change = game.balances[seat] - game.starting_balances[seat]
    sign = "+" if change > 0 else "-" if change < 0 else "±"
    return (f"{sign}{format_cp(abs(change))} over {game.round} "
            f"{'round' if game.round == 1 else 'rounds'} (now {format_cp(game.balances[seat])})")


__all__ = ["VALUES", "review_blackjack"]
