"""Reading a table of three or more with a known policy: the reader's posteriors (issue 7's
model-based exploiter there) and the public beliefs ``strong`` reads with are exact,
passes included, against an independent hand-by-hand replay of the bot; the bots'
accusation chances for many hands agree with their single-hand answers; the suite runs
the reader only where it differs from ``lbr``."""

from __future__ import annotations

import math

import pytest

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_exploit.reader import TableReader
from tavern_dice.bots.liars_exploit.views import public_events, view_as
from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
from tavern_dice.bots.public_beliefs import PublicBeliefs
from tavern_dice.bots.registry import BotError, make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.events import Event
from tavern_dice.liars_dice.checks import accusers_of
from tavern_dice.liars_dice.events import WagerMade
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, Wager
from tavern_dice.measure.exploit import suite
from tavern_dice.play.runner import play_liars_dice

SMALL = TAVERN.replace(dice_per_player=2)


class Checked:
    """The reader in a seat, its posteriors checked at every question it is asked."""

    def __init__(self, reader: TableReader) -> None:
        self.reader = reader
        self.name = reader.name
        self.checked = 0
        self.ruled_out = 0

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        self._check(view)
        return self.reader.choose_action(view)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        self._check(view)
        return self.reader.wants_to_accuse(view)

    def _check(self, view: LiarsDiceView) -> None:
        if sum(1 for c in view.dice_counts if c > 0) < 3 or not view.round_wagers:
            return
        assert view.seat is not None
        for seat in range(len(view.players)):
            if seat == view.seat or view.dice_counts[seat] == 0:
                continue
            reach = self.reader.tracker(seat).reach(view)
            hands = hands_of(view.dice_counts[seat], view.rules.sides)
            expected = [hands.prob[i] if _would_have_played(view, seat, hand) else 0.0
                        for i, hand in enumerate(hands.faces)]
            assert reach.tolist() == pytest.approx(expected, abs=1e-15)
            self.ruled_out += sum(1 for p in expected if p == 0.0)
            self.checked += 1


def _would_have_played(view: LiarsDiceView, seat: int, hand: tuple[int, ...]) -> bool:
    """Whether a fresh ``trusting`` holding ``hand`` in ``seat`` would have made every wager
    ``seat`` made this round and let pass every wager it was asked to accuse before
    ``view``'s question, asked one view at a time, in the engine's asking order."""
    bot = TrustingLiarsDiceBot("copy")
    wagers = view.round_wagers
    events = public_events(view)
    start = len(events)
    for _ in wagers:  # the log position where this round's first wager stands
        start = max(i for i in range(start) if isinstance(events[i], WagerMade))
    opening = start
    for k, (maker, wager) in enumerate(wagers):
        before = _at(view, events, opening, k, seat, hand)
        if maker == seat and bot.choose_action(before) != wager:
            return False
        nxt = wagers[k + 1][0] if k + 1 < len(wagers) else view.turn
        asked = [s for s in accusers_of(maker, view.dice_counts) if s != nxt]
        if k + 1 == len(wagers) and view.seat != view.turn:
            asked = asked[: asked.index(view.seat)]
        if seat in asked and bot.wants_to_accuse(_at(view, events, opening, k + 1, seat, hand,
                                                     turn=nxt)):
            return False
    return True


def _at(view: LiarsDiceView, events: list[Event], opening: int, k: int, seat: int,
        hand: tuple[int, ...], turn: int | None = None) -> LiarsDiceView:
    """``seat``'s view holding ``hand`` after this round's first ``k`` wagers."""
    kept: tuple[tuple[int, AnyWager], ...] = view.round_wagers[:k]
    log = events[: opening + k]
    assert all(isinstance(e, WagerMade) for e in log[opening:])
    base = LiarsDiceView(
        seat=seat, players=view.players, rules=view.rules, phase=view.phase, round=view.round,
        starter=view.starter, turn=turn if turn is not None else view.round_wagers[k][0],
        own_dice=hand, dice_counts=view.dice_counts, dice_in_play=view.dice_in_play,
        sum_wagers=view.sum_wagers, wager=kept[-1][1] if kept else None,
        wager_maker=kept[-1][0] if kept else None, round_wagers=kept, legal_wagers=(),
        may_accuse=False, last_reveal=view.last_reveal, winner=view.winner, _events=log,
        _log_length=len(log),
    )
    return view_as(base, seat, hand)


@pytest.mark.parametrize("seed", [3, 8])
def test_the_readers_posteriors_are_exact_passes_included(seed: int) -> None:
    reader = Checked(TableReader("reader", seed, target="trusting"))
    others = [make_liars_dice_bot("trusting", name=f"t{i}") for i in range(3)]
    game = LiarsDiceGame(4, rules=SMALL, dice=SeededDice(seed))
    play_liars_dice(game, [reader, *others])
    assert game.is_over
    assert reader.checked > 20 and reader.ruled_out > 0


@pytest.mark.parametrize("kind", ["strong", "trusting"])
def test_accusation_chances_for_many_hands_match_one_hand_at_a_time(kind: str) -> None:
    game = LiarsDiceGame(4, rules=TAVERN, dice=SeededDice(5))
    bots = [make_liars_dice_bot(kind, name=f"b{i}", seed=i) for i in range(4)]
    asked = 0
    while not game.is_over and asked < 12:
        turn = game.turn
        assert turn is not None
        for seat in accusers_of(game.wager_maker, game.dice_counts):
            if seat == turn:
                continue
            view = game.view(seat)
            hands = hands_of(view.dice_counts[seat], view.rules.sides).faces
            bot = bots[seat]
            chances = bot.accuse_chances(view, hands)  # type: ignore[attr-defined]
            for hand, chance in zip(hands[::17], chances[::17], strict=True):
                one = view_as(view, seat, hand)
                if isinstance(bot, StrongLiarsDiceBot):
                    assert math.isclose(chance, bot.accuse_probability(one), abs_tol=1e-12)
                else:
                    assert chance == float(bot.wants_to_accuse(one))
            asked += 1
        action = bots[turn].choose_action(game.view(turn))
        if action == ACCUSE:
            game.accuse(turn)
        else:
            assert not isinstance(action, str)
            game.wager(action, turn)
    assert asked >= 12


def test_the_suite_runs_the_reader_only_at_bigger_tables() -> None:
    assert "reader" not in suite(2)
    assert "reader" in suite(3) and "lbr" in suite(4)


@pytest.mark.parametrize("ask", [2.5, -1, True, "8", None])
def test_ask_is_a_whole_number_of_raises(ask: object) -> None:
    with pytest.raises(BotError, match="ask is a whole number"):
        TableReader("r", 1, target="strong", ask=ask)  # type: ignore[arg-type]
    assert TableReader("r", 1, target="strong", ask=3).ask == 3


class Reading:
    """A seat played by ``trusting`` whose public beliefs, read with trusting's own policy
    and no floor, are checked at every question against the hand-by-hand replay."""

    def __init__(self) -> None:
        self.bot = TrustingLiarsDiceBot("reading")
        self.name = self.bot.name
        self.beliefs = PublicBeliefs(self.bot.range_policy, self.bot.accuse_chances,
                                     lambda seat, index, counts: 0.0)
        self.checked = 0

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        self._check(view)
        return self.bot.choose_action(view)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        self._check(view)
        return self.bot.wants_to_accuse(view)

    def _check(self, view: LiarsDiceView) -> None:
        if sum(1 for c in view.dice_counts if c > 0) < 3 or not view.round_wagers:
            return
        reach = self.beliefs.reach(view)
        for seat, weights in reach.items():
            if seat == view.seat:
                continue
            hands = hands_of(view.dice_counts[seat], view.rules.sides)
            expected = [hands.prob[i] if _would_have_played(view, seat, hand) else 0.0
                        for i, hand in enumerate(hands.faces)]
            assert weights.tolist() == pytest.approx(expected, abs=1e-15)
            self.checked += 1


def test_public_beliefs_read_every_seat_with_one_policy_exactly() -> None:
    seat = Reading()
    game = LiarsDiceGame(4, rules=SMALL, dice=SeededDice(8))
    play_liars_dice(game, [seat, *(make_liars_dice_bot("trusting", name=f"t{i}")
                                   for i in range(3))])
    assert seat.checked > 20


def test_a_floor_keeps_every_hand_possible() -> None:
    game = LiarsDiceGame(4, rules=SMALL, dice=SeededDice(8))
    bots = [make_liars_dice_bot("trusting", name=f"t{i}") for i in range(4)]
    while len(game.round_wagers) < 3:
        turn = game.turn
        assert turn is not None
        action = bots[turn].choose_action(game.view(turn))
        assert action != ACCUSE and not isinstance(action, str)
        game.wager(action, turn)
    bot = TrustingLiarsDiceBot()
    exact = PublicBeliefs(bot.range_policy, bot.accuse_chances, lambda s, i, c: 0.0)
    floored = PublicBeliefs(bot.range_policy, bot.accuse_chances, lambda s, i, c: 0.1)
    view = game.view(game.turn)
    maker = game.round_wagers[0][0]
    assert (exact.reach(view)[maker] == 0).any()
    assert (floored.reach(view)[maker] > 0).all()


def test_asked_values_match_an_enumeration_of_every_pair_of_hands() -> None:
    """The reader's score of a raise with the others' answers asked of their copies, against
    every pair of the two opponents' hands enumerated, each answer asked one hand at a time
    (the player out of turn first, then the next player)."""
    game = LiarsDiceGame(3, rules=SMALL, dice=SeededDice(4))
    bots = [make_liars_dice_bot("trusting", name=f"t{i}") for i in range(3)]
    while game.turn != 0 or not game.round_wagers:
        turn = game.turn
        assert turn is not None
        action = bots[turn].choose_action(game.view(turn))
        assert action != ACCUSE and not isinstance(action, str)
        game.wager(action, turn)
    reader = TableReader("reader", 1, target="trusting", ask=4)
    view = game.view(0)
    state = reader.state(view)
    copy = TrustingLiarsDiceBot("copy")
    hands = hands_of(2, 6)
    reach = {s: reader.tracker(s).reach(view) for s in (1, 2)}
    for wager in view.legal_wagers[::5]:
        assert isinstance(wager, Wager)
        extra = ((0, wager),)
        expected = 0.0
        for i, h1 in enumerate(hands.faces):
            for j, h2 in enumerate(hands.faces):
                weight = (reach[1][i] / reach[1].sum()) * (reach[2][j] / reach[2].sum())
                if weight == 0:
                    continue
                count = sum(d == wager.face for d in (*view.own_dice, *h1, *h2))
                if copy.wants_to_accuse(view_as(view, 2, h2, extra)):
                    accuser = 2
                elif copy.choose_action(view_as(view, 1, h1, extra)) == ACCUSE:
                    accuser = 1
                else:
                    continue  # it passes on: worth pass_value, 0
                if_false, if_true, if_exact = reader.valuer.scores(0, accuser, state)
                expected += weight * (if_false if count < wager.quantity else
                                      if_exact if count == wager.quantity else if_true)
        assert reader.asked_value(view, state, wager) == pytest.approx(expected, abs=1e-12)
