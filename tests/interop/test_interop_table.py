"""The framework-free part of the interop layers: action numbers, the accusation window,
dice as chance nodes, payoffs and what each player may see (issue 11)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tavern_dice.dice import RollSpec, SeededDice
from tavern_dice.errors import IllegalActionError, InvalidActionError, RulesetError
from tavern_dice.interop.liars_actions import PASS, LiarsActions
from tavern_dice.interop.liars_encoding import LiarsEncoder
from tavern_dice.interop.liars_table import LiarsDiceTable, parse_starting_dice
from tavern_dice.liars_dice import Accuse, LiarsDiceGame, LiarsDiceRules, RaiseRule, SumWager, Wager


def deal(table: LiarsDiceTable, *faces: int) -> None:
    for face in faces:
        table.apply_chance(face - 1)


def names(table: LiarsDiceTable) -> list[str]:
    return [table.label(a) for a in table.legal_actions()]


def test_action_numbers_round_trip_and_grow_with_the_standard_order() -> None:
    acts = LiarsActions(sides=6, max_dice=4, sum_wagers=True)
    moves = [acts.decode(a) for a in range(acts.num_actions)]
    assert moves[-2:] == [Accuse(), PASS] and isinstance(moves[-2], Accuse)
    assert all(acts.encode(m) == a for a, m in enumerate(moves))
    wagers = [m for m in moves if isinstance(m, Wager)]
    assert wagers == sorted(wagers)  # (quantity, face) order: the standard raise order
    assert [m for m in moves if isinstance(m, SumWager)] == [SumWager(t) for t in range(2, 13)]
    with pytest.raises(InvalidActionError, match="wagers are 1-4 of a face 1-6"):
        acts.encode(Wager(5, 2))
    with pytest.raises(InvalidActionError, match="0-36"):
        acts.decode(37)


def test_the_window_asks_the_others_in_turn_then_the_next_player() -> None:
    """L7: "another player can accuse ... If no one ... wager-making continues to the left"."""
    table = LiarsDiceTable(5, LiarsDiceRules(dice_per_player=1), single_round=True)
    deal(table, 1, 2, 3, 4, 5)
    assert table.actor() == 0 and "accuse" not in names(table)  # no wager stands yet
    table.apply(table.actions.encode(Wager(1, 3)))
    asked = []
    while table.window:
        asked.append(table.actor())
        assert names(table) == ["accuse", "pass"]
        with pytest.raises(IllegalActionError, match=r"legal: \['accuse', 'pass'\]"):
            table.apply(table.actions.encode(Wager(2, 3)))
        table.apply(table.actions.pass_)
    assert asked == [2, 3, 4]
    assert table.actor() == 1
    with pytest.raises(IllegalActionError, match="'pass' is not legal"):
        table.apply(table.actions.pass_)
    table.apply(table.actions.encode(Wager(1, 4)))  # seat 1 raises: seats 3, 4, 0 may call
    asked = [table.actor()]
    table.apply(table.actions.pass_)
    asked.append(table.actor())
    table.apply(table.actions.accuse)  # seat 4 calls out of turn: one four, a spot-on
    assert asked == [3, 4]
    assert table.is_over and table.engine.last_reveal is not None
    assert table.engine.last_reveal.outcome == "spot-on"
    assert table.returns() == [-0.25, 1.0, -0.25, -0.25, -0.25]
    assert table.rounds[0].moves[-1] == (4, table.actions.accuse)


def test_players_who_are_out_are_never_asked() -> None:
    table = LiarsDiceTable(4, LiarsDiceRules(dice_per_player=1))
    table.apply_chance(0)  # seat 0 starts
    deal(table, 6, 6, 6, 6)
    table.apply(table.actions.encode(Wager(4, 6)))  # true and exact
    table.apply(table.actions.accuse)  # seat 2 calls: spot-on, seats 1-3 are out
    assert table.is_over and table.returns() == [1.0, -1 / 3, -1 / 3, -1 / 3]

    table = LiarsDiceTable(4, LiarsDiceRules(dice_per_player=2, spot_on=False))
    table.apply_chance(3)
    deal(table, *[1] * 8)
    table.apply(table.actions.encode(Wager(1, 6)))  # false: seat 3 loses a die
    table.apply(table.actions.pass_)
    table.apply(table.actions.accuse)  # seat 1 calls out of turn
    assert table.engine.dice_counts == (2, 2, 2, 1)
    assert not table.is_over and table.chance_kind() == "die"
    assert table.rounds[-1].number == 2 and table.rounds[-1].starter == 0


def test_dice_are_dealt_seat_by_seat_and_the_engine_gets_the_whole_roll() -> None:
    table = LiarsDiceTable(2, LiarsDiceRules(dice_per_player=2), single_round=True)
    assert table.chance_kind() == "die" and table.dealing() == (0, 0)
    assert table.chance_outcomes() == [(f, 1 / 6) for f in range(6)]
    deal(table, 5, 1, 4)
    assert table.dealing() == (1, 1) and table.engine.hands == ((), ())
    deal(table, 4)
    assert table.engine.hands == ((5, 1), (4, 4))
    assert table.rounds[0].hands == ((1, 5), (4, 4))
    with pytest.raises(IllegalActionError, match="no chance node"):
        table.apply_chance(0)


def test_a_round_ends_within_its_bound_under_the_seed_either_rule() -> None:
    """L5b keeps every round finite, so OpenSpiel's max game length holds."""
    rng = np.random.default_rng(3)
    for players in (2, 3, 5):
        table = LiarsDiceTable(players, LiarsDiceRules(dice_per_player=2))
        decisions = 0
        while not table.is_over:
            if table.chance_kind() is not None:
                outcomes = table.chance_outcomes()
                table.apply_chance(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            legal = table.legal_actions()
            table.apply(legal[int(rng.integers(len(legal)))])
            decisions += 1
        assert decisions <= table.max_decisions()
        assert sum(table.returns()) == pytest.approx(0.0)


def test_endless_rules_and_bad_starting_dice_are_refused() -> None:
    with pytest.raises(RulesetError, match="round for ever"):
        LiarsDiceTable(2, LiarsDiceRules(repeat_wagers=True))
    LiarsDiceTable(2, LiarsDiceRules(repeat_wagers=True, raise_rule=RaiseRule.STANDARD))
    assert parse_starting_dice("2/1") == (2, 1) == parse_starting_dice("2, 1")
    assert parse_starting_dice("") is None
    with pytest.raises(RulesetError, match="such as '2/1'"):
        parse_starting_dice("two/one")


def test_copies_are_independent() -> None:
    table = LiarsDiceTable(3, LiarsDiceRules(dice_per_player=2))
    table.apply_chance(1)
    clone = copy.deepcopy(table)
    deal(clone, *[3] * 6)
    clone.apply(clone.legal_actions()[0])
    assert table.engine.hands == ((), (), ()) and table.rounds[-1].moves == ()
    assert len(table.engine.log) < len(clone.engine.log)


def test_the_engine_copies_cheaply_and_completely() -> None:
    game = LiarsDiceGame(3, dice=SeededDice(5))
    before = game.to_log()
    clone = copy.deepcopy(game)
    clone.wager(clone.legal_wagers()[0])
    clone.accuse(clone.accusers()[-1])
    assert game.to_log() == before
    assert LiarsDiceGame.from_log(clone.to_log()).to_log() == clone.to_log()
    # a copy's dice source goes on exactly as the original's would
    spec = RollSpec(0, 5, 6, "round", secret=True)
    assert copy.deepcopy(game).dice.roll(spec) == game.dice.roll(spec)


@pytest.mark.parametrize("perfect_recall", [True, False])
def test_views_hide_other_players_dice_until_a_reveal(perfect_recall: bool) -> None:
    """L11: "All players roll their dice in Secret"."""
    tables = []
    for faces in ((2, 2, 5, 6, 1, 1), (2, 2, 3, 3, 4, 4)):
        table = LiarsDiceTable(3, LiarsDiceRules(dice_per_player=2), single_round=True)
        deal(table, *faces)
        table.apply(table.actions.encode(Wager(2, 2)))
        tables.append(table)
    enc = LiarsEncoder(tables[0], perfect_recall=perfect_recall)
    a, b = tables
    assert enc.string(a, 0) == enc.string(b, 0)
    assert (enc.tensor(a, 0) == enc.tensor(b, 0)).all()
    assert enc.string(a, 1) != enc.string(b, 1)
    referee = LiarsEncoder(a, perfect_recall=perfect_recall, private="all")
    assert referee.string(a, 0) != referee.string(b, 0)
    for table in tables:
        table.apply(table.actions.accuse)
    assert enc.string(a, 0) != enc.string(b, 0)  # the reveal shows every hand


def test_the_information_state_keeps_the_order_of_wagers() -> None:
    """Under the seed's 'either' rule the same wagers in another order are another history."""
    tensors = []
    for first, second in ((Wager(3, 2), Wager(2, 4)), (Wager(2, 4), Wager(3, 2))):
        table = LiarsDiceTable(2, LiarsDiceRules(dice_per_player=3), single_round=True)
        deal(table, *[1] * 6)
        table.apply(table.actions.encode(first))
        table.apply(table.actions.encode(second))
        tensors.append(LiarsEncoder(table, perfect_recall=True).tensor(table, 0))
    assert not (tensors[0] == tensors[1]).all()
