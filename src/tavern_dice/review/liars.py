"""The Liar's Dice review: each decision of a seat against the project's strongest
evaluation (:func:`tavern_dice.review.evaluate.evaluate`).

The game is stepped through as a record (:class:`~tavern_dice.record.GameRecord`); just
before each action the seat's view is taken (its own dice and the public table, nothing
more),
and the action is valued as the seat could have valued it then:

* **On its turn** (a wager or an accusation): :func:`~tavern_dice.review.evaluate.evaluate`
  values every legal action, by the solved heads-up policy where a shipped table covers
  the round (the round's expected result, ``-1..+1``) and otherwise by the ``strong``
  bot's lookahead (dice: a die the seat loses ``-1``, an opponent's die
  ``+1 / opponents``). The two scales agree heads-up, where a die is a die.
* **Out of turn** (L7: "another player can accuse"): an accusation, or a wager the seat
  could have accused and let pass until the player to act acted on it, is valued by the
  same lookahead: accusing is worth the lookahead's value of the accusation, letting it
  pass is worth 0 (the round goes on without the seat: the ``strong`` bot's own
  ``pass_value``), and the best of the two is the reference. A seat whose chance was cut
  short by another seat's out-of-turn accusation did not pass: no decision is counted.

Costs are marked with :data:`~tavern_dice.review.marks.LIARS_THRESHOLDS` (inaccuracy from
0.10, mistake from 0.30, blunder from 0.60 dice), with one *known blunder* marked as such
whatever its cost: accusing a wager that the seat's own dice already made true (its own
matching dice reach the quantity, or its die the sum) can only cost it a die, so where
any other action was worth more it is a blunder, and the decision's note says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.events import Accused, PlayerOut, Revealed, RoundStarted, WagerMade
from tavern_dice.liars_dice.state import LiarsDiceGame, Phase
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, Wager
from tavern_dice.record import GameRecord, Step
from tavern_dice.review.evaluate import evaluate
from tavern_dice.review.marks import LIARS_THRESHOLDS
from tavern_dice.review.model import (
    ACCUSE_OUT_OF_TURN,
    PASS_OUT_OF_TURN,
    TURN,
    Choice,
    Decision,
    GameReview,
    LiarsKnown,
    Odds,
    SeatReview,
)
from tavern_dice.strategy.liars_dice.odds import matching_dice, view_odds

PASS = None
"""Out of turn: letting the standing wager pass (no action, as
:meth:`~tavern_dice.games.GameDefinition.answer` says it)."""

PASS_VALUE = 0.0
"""The value of letting a wager pass out of turn, in lookahead dice (see the module doc)."""

Valued = dict[LiarsDiceAction | None, float]
"""Each action's value: a wager, ``Accuse()`` or (out of turn) :data:`PASS`."""

ALTERNATIVES = 3
"""How many of the best actions a decision lists (the chosen one is added if not among
them)."""

VALUES = (
    "the round's expected result in dice (-1: you lose a die; +1: your opponent does, "
    "+1/opponents a die at bigger tables), by the solved heads-up policy where a shipped "
    "table covers the round, else the strong bot's lookahead, which also reads each wager "
    "as a hint of the wagerer's dice (the odds shown count your own dice only); letting a "
    "wager pass out of turn counts 0"
)
"""What a Liar's Dice review's values mean."""


def review_liars(game: LiarsDiceGame, seats: Sequence[int]) -> GameReview:
    """Review ``seats`` of ``game`` (a game replayed from its log, finished or not)."""
    wanted = tuple(dict.fromkeys(seats))
    walker = _Walker(game, wanted)
    for step in GameRecord.of(game).steps(masked=False, seats=wanted):
        walker.step(step)
    reviews = tuple(
        SeatReview(seat, game.players[seat], tuple(walker.decisions[seat]), walker.result(seat))
        for seat in wanted
    )
    return GameReview("liars-dice", game.players, LIARS_THRESHOLDS, VALUES, reviews, game.round)


class _Walker:
    """Follows the replay, keeping each reviewed seat's view of the state before the next
    action, and turns each action into decisions."""

    def __init__(self, game: LiarsDiceGame, seats: tuple[int, ...]) -> None:
        self.game = game
        self.seats = seats
        self.decisions: dict[int, list[Decision]] = {seat: [] for seat in seats}
        self.before: dict[int, LiarsDiceView] = {}
        self.turn: int | None = None
        self.round = 0
        self.out: dict[int, tuple[int, int]] = {}
        """seat -> (round it went out in, its place)."""

    def step(self, step: Step) -> None:
        dice_counts: tuple[int, ...] = ()
        for event in (step.event, *step.derived):
            if isinstance(event, WagerMade):
                self._acted(event.seat, event.wager)
            elif isinstance(event, Accused):
                self._acted(event.accuser, ACCUSE)
            elif isinstance(event, RoundStarted):
                self.round = event.round
            elif isinstance(event, Revealed):
                dice_counts = event.dice_counts
            elif isinstance(event, PlayerOut):
                alive = sum(1 for count in dice_counts if count > 0)
                self.out[event.seat] = (self.round, alive + 1)
        # Each step's views stand before the next action (a step that ends a round is
        # followed by the next round's deal, whose views replace them).
        self._snapshot(step.seat_views)

    def _snapshot(self, views: Mapping[int, LiarsDiceView]) -> None:
        self.before = {}
        if not views:
            return
        self.turn = next(iter(views.values())).turn
        for seat, view in views.items():
            if view.phase == Phase.BIDDING.value and (seat == view.turn or view.may_accuse):
                self.before[seat] = view

    def _acted(self, actor: int, action: LiarsDiceAction) -> None:
        on_turn = actor == self.turn
        for seat, view in self.before.items():
            if seat == actor:
                decision = (self._on_turn(view, action) if on_turn
                            else self._out_of_turn(view, accused=True))
            elif on_turn and view.may_accuse:
                # The player to act acted: this seat had the whole window and let it pass.
                decision = self._out_of_turn(view, accused=False)
            else:
                continue
            self.decisions[seat].append(decision)

    def _number(self, view: LiarsDiceView) -> int:
        assert view.seat is not None
        return len(self.decisions[view.seat]) + 1

    def _on_turn(self, view: LiarsDiceView, action: LiarsDiceAction) -> Decision:
        evaluation = evaluate(view)
        values: Valued = {a: v for a, v in evaluation.values.items()}
        method: str = evaluation.method
        if action not in values:
            # A table that leaves this action out: value the whole decision by the lookahead.
            values = {a: v for a, v in _lookahead(view).items()}
            method = "lookahead"
        return self._decision(view, TURN, values, action, method)

    def _out_of_turn(self, view: LiarsDiceView, *, accused: bool) -> Decision:
        values: Valued = {
            ACCUSE: _lookahead(view)[ACCUSE], PASS: PASS_VALUE,
        }
        kind = ACCUSE_OUT_OF_TURN if accused else PASS_OUT_OF_TURN
        return self._decision(view, kind, values, ACCUSE if accused else PASS, "lookahead")

    def _decision(
        self, view: LiarsDiceView, kind: str, values: Valued, action: LiarsDiceAction | None,
        method: str,
    ) -> Decision:
        ranked = sorted(values.items(), key=lambda item: -item[1])  # stable: ties keep order
        best_action, best_value = ranked[0]
        chosen = _choice(action, values[action])
        cost = max(0.0, best_value - values[action])
        forced = len(values) == 1
        mark = None if forced else LIARS_THRESHOLDS.mark(cost)
        note = None
        if isinstance(action, Accuse) and not forced and cost > 0:
            note = _sure_loss_note(view)
            if note is not None:
                mark = "blunder"
        top = [_choice(a, v) for a, v in ranked[:ALTERNATIVES]]
        if all(c.code != chosen.code for c in top):
            top.append(chosen)
        return Decision(
            number=self._number(view), round=view.round, kind=kind,
            known=_known(view, action), chosen=chosen, best=_choice(best_action, best_value),
            alternatives=tuple(top), cost=cost,
            mark=mark, method=method,
            forced=forced, note=note,
        )

    def result(self, seat: int) -> str:
        game = self.game
        if game.winner == seat:
            return "won the game"
        if seat in self.out:
            when, place = self.out[seat]
            return f"out in round {when} ({_ordinal(place)} of {game.num_players})"
        count = game.dice_counts[seat]
        return f"still in the game with {count} {'die' if count == 1 else 'dice'} when it stopped"


def _lookahead(view: LiarsDiceView) -> dict[LiarsDiceAction, float]:
    """The ``strong`` bot's lookahead values, without its solved tables (the values of
    :func:`~tavern_dice.review.evaluate.evaluate` away from them); out of turn, only the
    accusation's."""
    from tavern_dice.bots.liars_strong import StrongLiarsDiceBot

    return StrongLiarsDiceBot("judge", tables=False).action_values(view)


def _choice(action: LiarsDiceAction | None, value: float) -> Choice:
    if isinstance(action, Accuse):
        return Choice(action.code(), "Liar!", value)
    if action is PASS:
        return Choice("pass", "let it pass", value)
    return Choice(action.code(), str(action), value)


def _odds(view: LiarsDiceView, wager: AnyWager) -> Odds:
    odds = view_odds(view, wager)
    return Odds(odds.false, odds.true, odds.exact)


def _known(view: LiarsDiceView, action: LiarsDiceAction | None) -> LiarsKnown:
    chosen = None if action is PASS or isinstance(action, Accuse) else _odds(view, action)
    return LiarsKnown(
        own_dice=view.own_dice,
        dice_counts=view.dice_counts,
        wagers=tuple((seat, str(w)) for seat, w in view.round_wagers),
        standing=None if view.wager is None else str(view.wager),
        wager_maker=view.wager_maker,
        standing_odds=None if view.wager is None else _odds(view, view.wager),
        chosen_odds=chosen,
    )


def _sure_loss_note(view: LiarsDiceView) -> str | None:
    """Why accusing the standing wager could only lose, when the seat's own dice already
    made it true; ``None`` otherwise."""
    wager = view.wager
    if wager is None or view_odds(view, wager).false != 0:
        return None
    if isinstance(wager, Wager):
        held = matching_dice(view.own_dice, wager.face, view.rules)
        return (f"known blunder: your own dice already made {wager} true ({held} of yours "
                f"count, {wager.quantity} needed), so accusing it could only cost you a die")
    return (f"known blunder: your own die already made the {wager} true, so accusing it "
            "could only cost you a die")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


__all__ = ["PASS", "PASS_VALUE", "VALUES", "review_liars"]
