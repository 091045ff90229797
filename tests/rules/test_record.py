"""The record apart from the state (issue 9): ``GameRecord`` loads any game's log, steps
through it input by input with the derived events and one viewer's view (masked once),
and shows the game as it stood at an accusation, not the next round. ``Revealed`` says
which dice counted (L6), and logs written before it did still load."""

from __future__ import annotations

import pytest

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.blackjack.events import RoundOpened
from tavern_dice.dice import ScriptedDice
from tavern_dice.errors import LogError
from tavern_dice.events import DiceRolled
from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules, Wager
from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.events import Accused, Revealed, RoundStarted, WagerMade
from tavern_dice.record import GameRecord
from tavern_dice.replay import LOG_VERSION


def played() -> LiarsDiceGame:
    """Three players, 2 dice each, sixes wild; seat 0 opens 3 fours and seat 2 calls it."""
    rules = LiarsDiceRules(dice_per_player=2, wild_face=6)
    dice = ScriptedDice([(6, 6), (1, 1), (1, 2), (4, 6), (2, 3), (4, 1), (5, 5), (3,), (4,)])
    game = LiarsDiceGame(["Ann", "Bo", "Cy"], rules=rules, dice=dice)
    game.apply(0, Wager(3, 4))
    game.apply(2, Accuse())
    return game


def test_revealed_says_which_dice_counted_wild_ones_included() -> None:
    reveal = played().log[6]
    assert isinstance(reveal, Revealed)
    assert reveal.hands == ((4, 6), (2, 3), (4, 1)) and reveal.count == 3
    assert reveal.counted == ((True, True), (False, False), (True, False))  # the 6 is wild
    assert reveal.outcome == "spot-on"
    assert reveal.to_dict()["counted"] == [[True, True], [False, False], [True, False]]


def test_steps_give_inputs_derived_events_and_the_view_at_an_accusation() -> None:
    game = played()
    steps = list(GameRecord.load(game.to_log()).steps(viewer=1))
    assert [type(s.event).__name__ for s in steps] == [
        "DiceRolled", "DiceRolled", "WagerMade", "Accused", "DiceRolled"]
    roll_off, deal, wager, call, next_deal = steps
    assert [type(e) for e in roll_off.derived] == [type(game.log[1]), RoundStarted]
    assert deal.event.dice == ((None, None), (2, 3), (None, None))  # masked for Bo, once
    assert deal.view.own_dice == (2, 3) and wager.view.wager == Wager(3, 4)
    assert wager.event == WagerMade(0, 3, 4, None) and wager.derived == ()
    # At the call: the round as it stood (its wager, Bo's dice, the counts before).
    assert call.event == Accused(2, 0)
    assert (call.view.round, call.view.wager, call.view.own_dice) == (1, Wager(3, 4), (2, 3))
    assert call.view.dice_counts == (2, 2, 2)
    assert [type(e) for e in call.derived] == [Revealed, RoundStarted]
    assert call.derived[0].hands == ((4, 6), (2, 3), (4, 1))  # revealed: shown to all
    assert next_deal.view.round == 2 and next_deal.view.dice_counts == (2, 1, 1)
    everything = list(GameRecord.load(game.to_log()).steps(masked=False))
    assert everything[1].event.dice == ((4, 6), (2, 3), (4, 1))


def test_a_blackjack_record_starts_with_its_opening_round() -> None:
    game = BlackjackGame(["Ann"], dice=ScriptedDice([(14,), (9, 17), (8,), (5,)]),
                         balances=1000, proficiency=[4])
    game.place_bet(0, 300)
    game.stand(0)
    record = GameRecord.of(game)
    assert record.header == {k: v for k, v in game.to_log().items() if k != "events"}
    steps = list(record.steps(viewer=0))
    assert steps[0].event == RoundOpened(1, (0,), (1000,)) and steps[0].derived == ()
    assert [type(s.event).__name__ for s in steps[1:]] == [
        "BetPlaced", "DiceRolled", "DiceRolled", "DiceRolled", "Stood"]
    assert steps[-1].view.phase == "round-over" and steps[-1].view.balances == (700,)
    flat = [e for s in steps for e in (s.event, *s.derived)]
    assert flat == game.log  # every event once, in order


def test_logs_written_before_counted_still_load() -> None:
    data = played().to_log()
    assert data["version"] == LOG_VERSION
    for event in data["events"]:
        event.pop("counted", None)
    restored = LiarsDiceGame.from_log(data)
    reveal = next(e for e in restored.log if isinstance(e, Revealed))
    assert reveal.counted == ((True, True), (False, False), (True, False))  # derived again
    record = GameRecord.load(data)
    assert [s.event for s in record.steps()][3] == Accused(2, 0)
    data["events"][6]["hands"] = [[1, 1], [2, 3], [4, 1]]  # an edited reveal still fails
    with pytest.raises(LogError, match="derived events do not match"):
        GameRecord.load(data)


def test_log_header_is_to_log_without_events() -> None:
    game = played()
    header = game.log_header()
    assert "events" not in header and {**header, "events": game.to_log()["events"]} == (
        game.to_log())
    assert isinstance(game.log[0], DiceRolled)
