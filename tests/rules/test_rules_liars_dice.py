"""Liar's Dice: one or more tests per rule L1-L11 (issue 2), each quoting its seed line.

Every test drives the engine with dice typed in (``auto_roll=False`` and
``game.roll([...])``) or scripted, so each asserted value follows from the
faces written here. The rule ids are those of the issue and ``docs/rules.md``;
``tests/rules/test_rules_doc.py`` checks that every quoted seed line is verbatim.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest

from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.errors import (
    IllegalActionError,
    InvalidDiceError,
    LogError,
    NotYourTurnError,
    RulesetError,
    TavernError,
)
from tavern_dice.events import DiceRolled, Event
from tavern_dice.liars_dice import (
    OPENSPIEL,
    PRESETS,
    TAVERN,
    Accuse,
    LiarsDiceGame,
    LiarsDiceRules,
    Phase,
    RaiseRule,
    SumWager,
    Wager,
)
from tavern_dice.liars_dice.events import (
    Accused,
    GameWon,
    PlayerOut,
    Revealed,
    RollOffResult,
    RoundStarted,
    WagerMade,
)

E = TypeVar("E", bound=Event)

ONE_DIE = LiarsDiceRules(dice_per_player=1)
TWO_DICE = LiarsDiceRules(dice_per_player=2)


def dealt(
    hands: Sequence[Sequence[int]], rules: LiarsDiceRules = TAVERN, starter: int = 0
) -> LiarsDiceGame:
    """A game whose roll-off ``starter`` won (all sixes against all ones) and whose first
    round dealt ``hands`` (typed in, one list of faces per seat)."""
    d = rules.dice_per_player
    game = LiarsDiceGame(len(hands), rules=rules, auto_roll=False)
    game.roll([[6] * d if seat == starter else [1] * d for seat in range(len(hands))])
    game.roll(hands)
    return game


def events_of(game: LiarsDiceGame, kind: type[E]) -> list[E]:
    """The events of one kind in ``game``'s log, oldest first."""
    return [e for e in game.log if isinstance(e, kind)]


# --------------------------------------------------------------------------- L1 lives are dice


def test_l1_each_player_starts_with_five_dice_which_are_their_lives() -> None:
    """L1. Seed: "Players each begin with 5 lives." "Each player must have a dice tray as
    well as 5d6."
    """
    game = LiarsDiceGame(["Ann", "Bo", "Cy", "Di"], dice=SeededDice(3))
    assert game.dice_counts == (5, 5, 5, 5)
    assert [len(hand) for hand in game.hands] == [5, 5, 5, 5]
    assert all(1 <= face <= 6 for hand in game.hands for face in hand)
    assert game.dice_in_play == 20


def test_l1_losing_a_life_is_losing_a_die() -> None:
    """L1. Seed: "The wager-maker loses a dice moving forward"."""
    game = dealt([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    game.wager(Wager(9, 6), 0)  # no six on the table: false
    game.accuse(1)
    assert game.dice_counts == (4, 5, 5)
    # The next round's secret roll asks seat 0 for four dice, the others for five.
    request = game.chance_request()
    assert request is not None
    assert [(spec.seat, spec.count) for spec in request] == [(0, 4), (1, 5), (2, 5)]


def test_l1_dice_per_player_option_and_table_size() -> None:
    """L1. Seed: "Players each begin with 5 lives."
    """
    game = LiarsDiceGame(3, rules=LiarsDiceRules(dice_per_player=3), dice=SeededDice(1))
    assert game.dice_counts == (3, 3, 3)
    assert LiarsDiceGame(2, dice=SeededDice(1)).num_players == 2
    assert LiarsDiceGame(10, dice=SeededDice(1)).dice_in_play == 50
    with pytest.raises(RulesetError, match="2-10 players, not 1"):
        LiarsDiceGame(1)
    with pytest.raises(RulesetError, match="2-10 players, not 11"):
        LiarsDiceGame(11)
    with pytest.raises(RulesetError, match="dice_per_player"):
        LiarsDiceRules(dice_per_player=0)


# --------------------------------------------------------------------------- L2 roll-off


def test_l2_highest_public_sum_starts_and_the_roll_off_is_logged() -> None:
    """L2. Seed: "To begin the game, each player Publicly rolls their dice." "The player
    with the highest sum of dice goes first."
    """
    game = LiarsDiceGame(3, rules=TWO_DICE, auto_roll=False)
    request = game.chance_request()
    assert request is not None
    assert [(s.seat, s.count, s.purpose, s.secret) for s in request] == [
        (0, 2, "roll-off", False), (1, 2, "roll-off", False), (2, 2, "roll-off", False),
    ]
    game.roll([[3, 4], [6, 5], [2, 2]])
    assert events_of(game, RollOffResult) == [RollOffResult((0, 1, 2), (7, 11, 4), (1,))]
    assert game.starter == 1
    assert game.phase is Phase.ROUND_ROLL
    # Public: another player's view shows the roll-off faces unmasked.
    rolled = [e for e in game.view(0).log if isinstance(e, DiceRolled)]
    assert rolled[0].dice == ((3, 4), (6, 5), (2, 2))


def test_l2_only_the_tied_leaders_roll_again_until_one_is_highest() -> None:
    """L2. Seed: "In the event of a tie, the highest scoring players continue to roll off
    until a winner can be determined." "This player goes first."
    """
    game = LiarsDiceGame(4, rules=TWO_DICE, auto_roll=False)
    game.roll([[6, 6], [3, 4], [6, 6], [6, 6]])  # 12, 7, 12, 12
    request = game.chance_request()
    assert request is not None and [s.seat for s in request] == [0, 2, 3]
    game.roll([[5, 5], [4, 1], [6, 4]])  # 10, 5, 10: seats 0 and 3 still tied
    request = game.chance_request()
    assert request is not None and [s.seat for s in request] == [0, 3]
    game.roll([[1, 2], [2, 2]])  # seat 3 wins 4 to 3
    assert events_of(game, RollOffResult) == [
        RollOffResult((0, 1, 2, 3), (12, 7, 12, 12), (0, 2, 3)),
        RollOffResult((0, 2, 3), (10, 5, 10), (0, 3)),
        RollOffResult((0, 3), (3, 4), (3,)),
    ]
    game.roll([[1, 1], [2, 2], [3, 3], [4, 4]])
    assert (game.starter, game.turn) == (3, 3)


# --------------------------------------------------------------------------- L3 starter


def test_l3_first_round_the_roll_off_winner_starts() -> None:
    """L3. Seed: "If it is the first round, the player who won the roll off goes first."
    """
    game = dealt([[1], [2], [3]], rules=ONE_DIE, starter=2)
    assert game.round == 1
    assert (game.starter, game.turn) == (2, 2)
    assert game.legal_actions(2)[0] == Wager(1, 1)
    assert game.legal_actions(0) == []  # not seat 0's turn, and no wager to accuse yet


def test_l3_later_rounds_start_left_of_the_previous_starter() -> None:
    """L3. Seed: "In subsequent rounds, the player to the left of the previous starting
    player go first."
    """
    game = dealt([[1, 1], [2, 2], [3, 3]], rules=TWO_DICE)
    assert game.starter == 0
    game.wager(Wager(1, 4), 0)  # no fours: false, seat 0 loses a die
    game.accuse(2)
    assert game.starter == 1
    game.roll([[5], [2, 2], [3, 3]])
    assert game.turn == 1
    game.wager(Wager(2, 2), 1)  # exactly 2 twos: spot-on, seats 0 and 2 lose a die
    game.accuse(0)
    assert game.dice_counts == (0, 2, 1)
    assert game.starter == 2


def test_l3_rotation_skips_eliminated_players_even_the_previous_starter() -> None:
    """L3. Seed: "In subsequent rounds, the player to the left of the previous starting
    player go first." "If a player loses all of their dice, they are out of the game"
    """
    game = dealt([[2], [3], [4], [5]], rules=ONE_DIE)
    game.wager(Wager(1, 6), 0)  # no six: false, the starter (seat 0) is out
    game.accuse(1)
    assert game.dice_counts == (0, 1, 1, 1)
    assert game.starter == 1  # left of seat 0, who is out
    game.roll([[2], [2], [5]])
    game.wager(Wager(1, 2), 1)  # two twos: true but not exact, the accuser loses
    game.accuse(2)
    assert game.dice_counts == (0, 1, 0, 1)
    assert game.starter == 3  # left of seat 1 is seat 2, out: skipped
    assert events_of(game, RoundStarted)[-1] == RoundStarted(3, 3, (0, 1, 0, 1), True)


# --------------------------------------------------------------------------- L4 wagers


def test_l4_a_wager_claims_at_least_quantity_dice_show_the_face() -> None:
    """L4. Seed: "For example: they can claim that among the table there are at least 3
    twos." "This would mean that of the rolled dice at least 3 of them have a value of 2."
    """
    game = dealt([[2, 2, 5, 6, 1], [2, 3, 3, 4, 4]])
    assert game.count_matching(Wager(3, 2)) == 3
    assert game.count_matching(Wager(1, 4)) == 2
    game.wager(Wager(3, 2), 0)
    assert game.current_wager == Wager(3, 2) and game.wager_maker == 0
    assert events_of(game, WagerMade) == [WagerMade(0, 3, 2, None)]


def test_l4_the_first_wager_is_free_and_the_quantity_is_bounded_by_dice_in_play() -> None:
    """L4. Seed: "The first player can make any wager that they wish." "On their turn, a
    player must make a wager on the total number of any given dice on the table."
    """
    game = dealt([[1, 1, 1, 1, 1], [6, 6, 6, 6, 6]])
    legal = game.legal_wagers()
    assert len(legal) == 10 * 6
    assert (legal[0], legal[-1]) == (Wager(1, 1), Wager(10, 6))
    before = game.to_log()
    with pytest.raises(IllegalActionError, match=r"quantity must be 1-10 \(dice in play\), not 11"):
        game.wager(Wager(11, 3), 0)
    with pytest.raises(IllegalActionError, match="quantity must be 1-10"):
        game.wager(Wager(0, 3), 0)
    with pytest.raises(IllegalActionError, match="a face is 1-6, not 7"):
        game.wager(Wager(2, 7), 0)
    assert game.to_log() == before
    game.wager(Wager(10, 6), 0)
    assert game.current_wager == Wager(10, 6)


# --------------------------------------------------------------------------- L5 raise rule


def test_l5_either_rule_allows_every_seed_example_after_three_twos() -> None:
    """L5. Seed: "They can make a wager on the total of a higher value dice (following the
    previous example, the next player could claim that there are 2 fours)" "They can make a
    wager containing a higher total of dice (4 twos (or even 4 ones))" "They can make a
    wager that combines the previous two conditions (4 fives for example)"
    """
    game = dealt([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    game.wager(Wager(3, 2), 0)
    for example in (Wager(2, 4), Wager(4, 2), Wager(4, 1), Wager(4, 5)):
        assert game.can_wager(example, 1), example
    for not_a_raise in (Wager(3, 2), Wager(2, 2), Wager(3, 1), Wager(1, 1)):
        assert not game.can_wager(not_a_raise, 1), not_a_raise
    game.wager(Wager(2, 4), 1)
    assert game.current_wager == Wager(2, 4)


def test_l5_either_rule_allows_cycles_only_with_repeat_wagers() -> None:
    """L5. Seed: "The player that follows them to the left must now raise the wager." "This
    can be done in one of three ways:"
    """
    game = dealt([[1, 2, 3, 4, 5]] * 3, rules=TAVERN.replace(repeat_wagers=True))
    game.wager(Wager(3, 2), 0)
    game.wager(Wager(2, 4), 1)  # higher face
    game.wager(Wager(3, 2), 2)  # higher quantity: back to the opening wager
    assert [e.wager for e in events_of(game, WagerMade)] == [Wager(3, 2), Wager(2, 4), Wager(3, 2)]
    assert game.turn == 0
    assert game.round_wager_limit is None


def test_l5b_a_wager_already_made_this_round_is_refused_naming_it() -> None:
    """L5b. Seed: "The player that follows them to the left must now raise the wager."
    """
    game = dealt([[1, 2, 3, 4, 5]] * 3)
    assert game.rules.repeat_wagers is False  # the tavern preset's decision
    game.wager(Wager(3, 2), 0)
    game.wager(Wager(2, 4), 1)
    before = game.to_log()
    assert not game.can_wager(Wager(3, 2), 2)
    assert Wager(3, 2) not in game.legal_wagers()
    with pytest.raises(IllegalActionError, match=r"3 twos was already wagered this round "
                       r"\(wager 1 of the round, by P1\).*L5b.*legal: "):
        game.wager(Wager(3, 2), 2)
    assert game.to_log() == before
    game.wager(Wager(4, 2), 2)  # a fresh raise is fine
    # Every round ends: at most sides x dice in play wagers.
    assert game.round_wager_limit == 6 * 15


def test_l5b_the_seed_examples_of_a_raise_stay_legal() -> None:
    """L5b. Seed: "They can make a wager on the total of a higher value dice (following the
    previous example, the next player could claim that there are 2 fours)" "They can make a
    wager containing a higher total of dice (4 twos (or even 4 ones))" "They can make a
    wager that combines the previous two conditions (4 fives for example)"
    """
    for example in (Wager(2, 4), Wager(4, 2), Wager(4, 1), Wager(4, 5)):
        game = dealt([[1, 2, 3, 4, 5]] * 3)
        game.wager(Wager(3, 2), 0)
        assert game.can_wager(example, 1), example
        game.wager(example, 1)


def test_l5b_first_legal_wager_bots_finish_every_round() -> None:
    """L5b. Seed: "The player that follows them to the left must now raise the wager."
    """
    game = LiarsDiceGame(3, dice=SeededDice(4))
    rounds = 0
    while not game.is_over:
        limit = game.round_wager_limit
        assert limit is not None
        legal = game.legal_wagers()
        if legal:
            game.wager(legal[0], game.turn)
            assert len(game.round_wagers) <= limit
        else:
            assert game.turn is not None
            game.accuse(game.turn)
            rounds += 1
    assert game.winner is not None and 1 <= rounds <= 14  # 15 dice: at most 14 rounds


def test_l5_standard_and_face_major_options() -> None:
    """L5. Seed: "The player that follows them to the left must now raise the wager."
    """
    cases = {
        RaiseRule.STANDARD: (
            [Wager(3, 3), Wager(3, 6), Wager(4, 1), Wager(4, 2)],
            [Wager(2, 4), Wager(3, 2), Wager(3, 1), Wager(2, 6)],
            Wager(3, 3),
        ),
        RaiseRule.FACE_MAJOR: (
            [Wager(2, 4), Wager(1, 3), Wager(4, 2), Wager(1, 6)],
            [Wager(4, 1), Wager(3, 2), Wager(2, 2), Wager(9, 1)],
            Wager(1, 3),
        ),
    }
    for rule, (legal, illegal, lowest) in cases.items():
        game = dealt([[1, 2, 3, 4, 5]] * 3, rules=LiarsDiceRules(raise_rule=rule))
        game.wager(Wager(3, 2), 0)
        assert [game.can_wager(w, 1) for w in legal] == [True] * 4, rule
        assert [game.can_wager(w, 1) for w in illegal] == [False] * 4, rule
        assert game.legal_wagers()[0] == lowest, rule
    assert LiarsDiceRules.from_dict({"raise_rule": "face-major"}).raise_rule is RaiseRule.FACE_MAJOR
    with pytest.raises(RulesetError, match="raise_rule must be one of"):
        LiarsDiceRules.from_dict({"raise_rule": "sideways"})


# --------------------------------------------------------------------------- L6 wild face


def test_l6_no_face_is_wild_by_default() -> None:
    """L6. Seed: "This would mean that of the rolled dice at least 3 of them have a value
    of 2."
    """
    assert TAVERN.wild_face is None
    game = dealt([[1, 1, 1, 2, 5], [1, 2, 4, 4, 6]])
    assert game.count_matching(Wager(1, 2)) == 2  # the four ones do not count as twos
    game.wager(Wager(3, 2), 0)
    reveal = game.accuse(1)
    assert (reveal.count, reveal.outcome, reveal.losers) == (2, "false", (0,))


def test_l6_wild_face_option_counts_toward_every_other_face() -> None:
    """L6. Seed: "This would mean that of the rolled dice at least 3 of them have a value
    of 2."
    """
    perudo = LiarsDiceRules(wild_face=1)
    game = dealt([[1, 1, 1, 2, 5], [1, 2, 4, 4, 6]], rules=perudo)
    assert game.count_matching(Wager(1, 2)) == 6  # 2 twos + 4 wild ones
    assert game.count_matching(Wager(1, 6)) == 5  # 1 six + 4 wild ones
    assert game.count_matching(Wager(1, 1)) == 4  # a wager on ones counts only ones
    game.wager(Wager(6, 2), 0)
    reveal = game.accuse(1)
    assert (reveal.count, reveal.outcome) == (6, "spot-on")
    assert OPENSPIEL.wild_face == 6 and PRESETS["openspiel"] is OPENSPIEL
    with pytest.raises(RulesetError, match="wild_face"):
        LiarsDiceRules(wild_face=7)


# --------------------------------------------------------------------------- L7 accusing


def test_l7_any_other_player_may_accuse_until_the_next_wager() -> None:
    """L7. Seed: "Once this wager has been made, another player can accuse the wager-maker
    of lying."
    """
    game = dealt([[1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4, 4]])
    game.wager(Wager(2, 2), 0)
    assert game.accusers() == (1, 2, 3)
    assert [game.can_accuse(s) for s in range(4)] == [False, True, True, True]
    assert game.legal_actions(3) == [Accuse()]  # out of turn: accusing only
    game.wager(Wager(2, 3), 1)  # the next wager: now seat 1's wager stands
    assert game.accusers() == (2, 3, 0)
    assert game.wager_maker == 1
    reveal = game.accuse(3)  # out of turn (seat 2 is to act)
    assert events_of(game, Accused) == [Accused(3, 1)]
    assert (reveal.count, reveal.outcome, reveal.losers) == (5, "true", (3,))


def test_l7_the_next_player_must_raise_or_accuse_and_accuse_when_no_raise_is_left() -> None:
    """L7. Seed: "If no one at the table wants to call their bluff, wager-making continues
    to the left."
    """
    game = dealt([[1, 1], [6, 6]], rules=TWO_DICE)
    assert Accuse() not in game.legal_actions(0)  # the first player must wager
    game.wager(Wager(3, 6), 0)
    actions = game.legal_actions(1)
    assert actions == [Wager(4, face) for face in range(1, 7)] + [Accuse()]
    game.wager(Wager(4, 6), 1)  # the highest wager: no raise is left
    assert game.legal_wagers() == []
    assert game.legal_actions(0) == [Accuse()]
    before = game.to_log()
    with pytest.raises(IllegalActionError, match="no raise is possible"):
        game.wager(Wager(4, 6), 0)
    assert game.to_log() == before
    assert game.accuse(0).outcome == "false"


def test_l7_accusations_need_a_standing_wager_and_a_player_still_in() -> None:
    """L7. Seed: "Once this wager has been made, another player can accuse the wager-maker
    of lying."
    """
    game = dealt([[2], [3], [4]], rules=ONE_DIE)
    with pytest.raises(IllegalActionError, match="no wager stands yet"):
        game.accuse(1)
    game.wager(Wager(1, 6), 0)
    game.accuse(1)  # seat 0 is out
    game.roll([[2], [2]])
    game.wager(SumWager(3), 1)  # two players with one die each: the sum endgame (L10)
    with pytest.raises(IllegalActionError, match="out of the game"):
        game.accuse(0)
    with pytest.raises(IllegalActionError, match="no seat 5"):
        game.accuse(5)


# --------------------------------------------------------------------------- L8 reveal


def test_l8_false_wager_costs_the_wager_maker_a_die() -> None:
    """L8. Seed: "The wager was false" "The wager-maker loses a dice moving forward"
    """
    game = dealt([[2, 2, 3, 4, 5], [2, 1, 1, 6, 6], [3, 3, 3, 4, 4]])
    game.wager(Wager(4, 2), 0)
    reveal = game.accuse(2)
    assert reveal == Revealed(
        hands=((2, 2, 3, 4, 5), (2, 1, 1, 6, 6), (3, 3, 3, 4, 4)),
        count=3, outcome="false", losers=(0,), dice_counts=(4, 5, 5),
    )


def test_l8_true_but_not_exact_costs_the_accuser_a_die() -> None:
    """L8. Seed: "The wager was true, but not exact (wager made for 5 sixes, but there were
    actually 6 of them)" "The accuser loses a dice moving forward"
    """
    game = dealt([[6, 6, 6, 1, 2], [6, 6, 6, 3, 4], [1, 2, 3, 4, 5]])
    game.wager(Wager(5, 6), 0)  # 6 sixes on the table
    reveal = game.accuse(2)
    assert (reveal.count, reveal.outcome, reveal.losers) == (6, "true", (2,))
    assert game.dice_counts == (5, 5, 4)


def test_l8_spot_on_costs_every_other_player_a_die_the_accuser_included() -> None:
    """L8. Seed: "The wager was spot-on" "Everyone but the wager-maker loses a dice moving
    forward"
    """
    game = dealt([[6, 6, 1, 1, 2], [6, 3, 3, 3, 4], [1, 2, 3, 4, 5], [5, 5, 5, 5, 6]])
    game.wager(Wager(3, 6), 0)
    game.wager(Wager(4, 6), 1)  # exactly 4 sixes
    reveal = game.accuse(3)
    assert (reveal.count, reveal.outcome, reveal.losers) == (4, "spot-on", (0, 2, 3))
    assert game.dice_counts == (4, 5, 4, 4)


def test_l8_spot_on_option_off_treats_an_exact_count_as_true() -> None:
    """L8. Seed: "Everyone but the wager-maker loses a dice moving forward"
    """
    rules = LiarsDiceRules(spot_on=False)
    game = dealt([[6, 6, 1, 1, 2], [6, 3, 3, 3, 4], [1, 2, 3, 4, 5]], rules=rules)
    game.wager(Wager(3, 6), 0)  # exactly 3 sixes
    reveal = game.accuse(1)
    assert (reveal.count, reveal.outcome, reveal.losers) == (3, "true", (1,))
    assert game.dice_counts == (5, 4, 5)


# --------------------------------------------------------------------------- L9 out and winner


def test_l9_no_dice_is_out_and_the_last_player_with_dice_wins() -> None:
    """L9. Seed: "If a player loses all of their dice, they are out of the game" "The last
    player left with dice wins the game"
    """
    game = dealt([[4], [4], [2]], rules=ONE_DIE)
    game.wager(Wager(2, 4), 0)  # spot-on: seats 1 and 2 both lose their last die
    game.accuse(2)
    assert events_of(game, PlayerOut) == [PlayerOut(1), PlayerOut(2)]
    assert events_of(game, GameWon) == [GameWon(0)]
    assert (game.winner, game.is_over, game.phase) == (0, True, Phase.OVER)
    assert game.in_game == (0,)
    assert game.legal_actions(0) == [] and game.chance_request() is None
    with pytest.raises(IllegalActionError, match="phase over"):
        game.wager(Wager(1, 1), 0)


def test_l9_out_players_are_skipped_in_the_wager_order() -> None:
    """L9. Seed: "If a player loses all of their dice, they are out of the game"
    """
    game = dealt([[5, 5], [1, 2], [3, 3]], rules=TWO_DICE)
    game.wager(Wager(1, 6), 0)
    game.accuse(1)
    game.roll([[6], [2, 2], [3, 3]])
    game.wager(Wager(2, 2), 1)  # spot-on: seats 0 (last die) and 2 lose
    game.accuse(2)
    assert game.dice_counts == (0, 2, 1)
    game.roll([[4, 4], [1]])
    assert game.turn == 2  # starter: left of seat 1
    game.wager(Wager(1, 4), 2)
    assert game.turn == 1  # seat 0 is out: left of seat 2 is seat 1
    assert game.accusers() == (1,)


# --------------------------------------------------------------------------- L10 sum endgame


def test_l10_two_players_with_one_die_each_wager_on_the_sum() -> None:
    """L10. Seed: "If two players are left and have one die each, wagers instead are based
    on the sum of the dice, where the sum must increase on progressive wagers."
    """
    game = dealt([[2, 2], [5, 6]], rules=TWO_DICE)
    assert not game.sum_wagers
    game.wager(Wager(4, 2), 0)  # 2 twos: false
    game.accuse(1)
    assert game.dice_counts == (1, 2) and not game.sum_wagers  # 1 + 2 dice: not yet
    game.roll([[3], [5, 6]])
    game.wager(Wager(2, 5), 1)  # 1 five: false
    game.accuse(0)
    assert game.dice_counts == (1, 1)
    assert events_of(game, RoundStarted)[-1] == RoundStarted(3, 0, (1, 1), True)
    game.roll([[3], [4]])
    assert game.sum_wagers
    assert game.legal_wagers() == [SumWager(t) for t in range(2, 13)]
    before = game.to_log()
    with pytest.raises(IllegalActionError, match="wager on the sum"):
        game.wager(Wager(1, 3), 0)
    assert game.to_log() == before
    game.wager(SumWager(6), 0)
    assert game.legal_wagers() == [SumWager(t) for t in range(7, 13)]
    for not_higher in (SumWager(6), SumWager(5)):
        with pytest.raises(IllegalActionError, match="does not raise sum of at least 6"):
            game.wager(not_higher, 1)
    with pytest.raises(IllegalActionError, match="a sum wager names a total 2-12, not 13"):
        game.wager(SumWager(13), 1)
    game.wager(SumWager(8), 1)  # 3 + 4 = 7: false
    reveal = game.accuse(0)
    assert (reveal.count, reveal.outcome, reveal.losers) == (7, "false", (1,))
    assert game.winner == 0


@pytest.mark.parametrize(
    ("total", "outcome", "loser"), [(8, "false", 0), (6, "true", 1), (7, "spot-on", 1)]
)
def test_l10_the_three_outcomes_apply_to_the_sum(total: int, outcome: str, loser: int) -> None:
    """L10. Seed: "If two players are left and have one die each, wagers instead are based
    on the sum of the dice, where the sum must increase on progressive wagers." "One of
    three things will be the case:"
    """
    game = dealt([[3], [4]], rules=ONE_DIE)  # two players, one die each from the start
    assert game.sum_wagers
    game.wager(SumWager(total), 0)
    reveal = game.accuse(1)
    assert (reveal.count, reveal.outcome, reveal.losers) == (7, outcome, (loser,))
    assert game.winner == 1 - loser


def test_l10_sum_endgame_needs_one_die_each_and_can_be_switched_off() -> None:
    """L10. Seed: "If two players are left and have one die each, wagers instead are based
    on the sum of the dice, where the sum must increase on progressive wagers."
    """
    assert dealt([[2], [3], [4]], rules=ONE_DIE).sum_wagers is False  # three players
    plain = dealt([[3], [4]], rules=LiarsDiceRules(dice_per_player=1, sum_endgame=False))
    assert not plain.sum_wagers
    assert plain.legal_wagers()[:3] == [Wager(1, 1), Wager(1, 2), Wager(1, 3)]
    with pytest.raises(IllegalActionError, match="only for two players with one die each"):
        plain.wager(SumWager(7), 0)


# --------------------------------------------------------------------------- L11 secret rolls


def test_l11_each_round_every_player_in_the_game_rolls_secretly() -> None:
    """L11. Seed: "All players roll their dice in Secret, making note of the results of
    their roll."
    """
    game = dealt([[2], [3], [4]], rules=ONE_DIE)
    game.wager(Wager(1, 6), 0)
    game.accuse(1)  # seat 0 is out
    request = game.chance_request()
    assert request is not None
    assert [(s.seat, s.count, s.purpose, s.secret) for s in request] == [
        (1, 1, "round", True), (2, 1, "round", True),
    ]
    game.roll([[5], [1]])
    assert game.hands == ((), (5,), (1,))
    rolled = events_of(game, DiceRolled)[-1]
    assert (rolled.purpose, rolled.seats, rolled.dice, rolled.secret) == (
        "round", (1, 2), ((5,), (1,)), True,
    )
    assert game.view(1).own_dice == (5,)
    masked = [e for e in game.view(1).log if isinstance(e, DiceRolled)][-1]
    assert masked.dice == ((5,), (None,))


# --------------------------------------------------------------------------- illegal actions


def test_illegal_actions_raise_helpful_errors_and_change_nothing() -> None:
    """L7. Seed: "The player that follows them to the left must now raise the wager."
    "Once this wager has been made, another player can accuse the wager-maker of lying."
    """
    game = dealt([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    game.wager(Wager(3, 2), 0)
    before = game.to_log()
    attempts: list[tuple[type[TavernError], str, Callable[[], object]]] = [
        (NotYourTurnError, "it is P2's turn to wager, not P3's",
         lambda: game.wager(Wager(5, 5), 2)),
        (NotYourTurnError, "it is P2's turn", lambda: game.wager(Wager(5, 5), 0)),
        (IllegalActionError, r"2 twos does not raise 3 twos under the 'either' raise rule; "
         r"legal: 1 three, 1 four", lambda: game.wager(Wager(2, 2), 1)),
        (IllegalActionError, "P1 made the wager and cannot accuse it; accusers: ", lambda:
         game.accuse(0)),
        (IllegalActionError, "no dice are to be rolled now", lambda: game.roll([[1]] * 3)),
    ]
    for kind, message, attempt in attempts:
        with pytest.raises(kind, match=message):
            attempt()
        assert game.to_log() == before
    assert (game.turn, game.current_wager, game.wager_maker) == (1, Wager(3, 2), 0)


def test_malformed_dice_are_refused_and_change_nothing() -> None:
    """L11. Seed: "All players roll their dice in Secret, making note of the results of
    their roll."
    """
    game = LiarsDiceGame(2, rules=TWO_DICE, auto_roll=False)
    game.roll([[6, 6], [1, 1]])
    before = game.to_log()
    for faces, kind, message in [
        ([[1, 2], [3, 7]], InvalidDiceError, "a d6 shows a whole number from 1 to 6, not 7"),
        ([[1, 2], [3]], InvalidDiceError, "expected 2 d6 for round, got 1 values"),
        ([[1, 2]], IllegalActionError, r"expected faces for 2 rollers \(seats \[0, 1\]\)"),
        ([[1, 2], [0, 3]], InvalidDiceError, "not 0"),
        ([[1, 2], [2.5, 3]], InvalidDiceError, "not 2.5"),
        ([5, 6], InvalidDiceError, "expected a list of 2 d6 faces for round, not 5"),
    ]:
        with pytest.raises(kind, match=message):
            game.roll(faces)  # type: ignore[arg-type]
        assert game.to_log() == before
    with pytest.raises(InvalidDiceError, match="no roll left"):
        LiarsDiceGame(2, dice=ScriptedDice([(6, 6, 6, 6, 6)]))


# --------------------------------------------------------------------------- logs and views


def played_game() -> LiarsDiceGame:
    """A seeded 3-player game played to its end with simple fixed choices."""
    game = LiarsDiceGame(["Ann", "Bo", "Cy"], rules=TWO_DICE, dice=SeededDice(11))
    while not game.is_over:
        if game.current_wager is None:
            game.wager(game.legal_wagers()[3])
        else:
            assert game.turn is not None
            game.accuse(game.turn)
    return game


def test_log_round_trips_through_json() -> None:
    """L11. Seed: "All players roll their dice in Secret, making note of the results of
    their roll."
    """
    game = played_game()
    text = json.dumps(game.to_log())
    replayed = LiarsDiceGame.from_log(json.loads(text))
    assert replayed.to_log() == game.to_log()
    assert (replayed.winner, replayed.dice_counts) == (game.winner, game.dice_counts)
    steps = list(game.replay_steps())
    assert [event for event, _ in steps] == game.log
    assert steps[-1][1].winner == game.winner


@pytest.mark.parametrize(
    "tamper",
    [
        "derived outcome", "input wager", "input face", "masked dice", "unknown event",
        "missing rules", "not a log",
    ],
)
def test_a_tampered_log_raises_log_error(tamper: str) -> None:
    """L8. Seed: "If a player accuses the wager-maker of lying, all dice are revealed."
    """
    log = json.loads(json.dumps(played_game().to_log()))
    events = log["events"]
    first_reveal = next(e for e in events if e["type"] == "revealed")
    first_wager = next(e for e in events if e["type"] == "wager_made")
    first_round = next(e for e in events if e["type"] == "dice_rolled" and e["secret"])
    if tamper == "derived outcome":
        first_reveal["losers"] = [9]
    elif tamper == "input wager":
        first_wager["quantity"] = 99
    elif tamper == "input face":
        first_round["dice"][0][0] = 7
    elif tamper == "masked dice":
        first_round["dice"][1] = [None, None]
    elif tamper == "unknown event":
        events.insert(3, {"type": "bribe", "amount": 5})
    elif tamper == "missing rules":
        del log["rules"]
    else:
        log = {"game": "chess"}
    with pytest.raises(LogError):
        LiarsDiceGame.from_log(log)


def test_a_view_never_holds_another_players_unrevealed_dice() -> None:
    """L11. Seed: "All players roll their dice in Secret, making note of the results of
    their roll."
    """
    game = dealt([[1, 2], [3, 4], [5, 6]], rules=TWO_DICE)
    game.wager(Wager(1, 1), 0)
    for seat in (None, 0, 1, 2):
        view = game.view(seat)
        assert view.own_dice == (() if seat is None else game.hands[seat])
        for event in view.log:
            if isinstance(event, DiceRolled) and event.secret:
                for roller, faces in zip(event.seats, event.dice, strict=True):
                    hidden = all(face is None for face in faces)
                    assert hidden == (roller != seat), (seat, roller, faces)
    # The same events, once revealed, show every hand to everyone.
    game.accuse(1)
    assert game.view(2).last_reveal is not None
    assert game.view(2).last_reveal.hands == ((1, 2), (3, 4), (5, 6))


def test_l9_a_player_out_cannot_accuse_and_is_told_who_may() -> None:
    """L9. Seed: "If a player loses all of their dice, they are out of the game."
    """
    game = LiarsDiceGame(3, rules=TWO_DICE, auto_roll=False, starting_dice=[1, 2, 2])
    game.roll([[6, 6], [1, 1], [1, 1]])  # seat 0 wins the roll-off
    game.roll([[3], [4, 4], [5, 5]])
    game.wager(Wager(2, 3), 0)  # one three on the table: false, seat 0 loses its last die
    game.accuse(1)
    assert game.dice_counts == (0, 2, 2)
    game.roll([[2, 2], [6, 6]])
    game.wager(Wager(1, 2), 1)
    before = game.to_log()
    with pytest.raises(IllegalActionError, match=r"P1 is out of the game; accusers: \['P3'\]"):
        game.accuse(0)
    assert game.to_log() == before


def test_l8_dice_losers_refuses_an_unknown_outcome_as_a_tavern_error() -> None:
    """L8. Seed: "One of three things will be the case"."""
    from tavern_dice.liars_dice.adjudication import dice_losers

    with pytest.raises(TavernError, match="one of 'false', 'true', 'spot-on'"):
        dice_losers("maybe", wager_maker=0, accuser=1, in_game=(0, 1))
