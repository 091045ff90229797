"""Dice Blackjack: one or more tests per rule B1-B9 (issue 2), each quoting its seed line.

The dice come from :class:`~tavern_dice.dice.ScriptedDice` (in the order the
engine rolls them: the target d20, the house's two d20s, then each player's
d12s in seat order) or are typed in with ``auto_roll=False``. Amounts are
copper pieces (cp). ``tests/rules/test_rules_doc.py`` checks the quotes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

from tavern_dice.blackjack import TAVERN, BlackjackGame, BlackjackRules, Phase
from tavern_dice.blackjack.events import (
    HouseRolled,
    RoundClosed,
    RoundOpened,
    SatOut,
    Settled,
    TargetSet,
    TotalChanged,
    TurnStarted,
)
from tavern_dice.blackjack.rules import parse_payout
from tavern_dice.dice import RollSpec, ScriptedDice, SeededDice
from tavern_dice.errors import (
    IllegalActionError,
    InsufficientFundsError,
    InvalidDiceError,
    LogError,
    NotYourTurnError,
    RulesetError,
    TavernError,
)
from tavern_dice.events import DiceRolled
from tavern_dice.money import format_cp, gp, parse_cp


def table(
    rolls: Sequence[Sequence[int]],
    players: int | Sequence[str] = 1,
    *,
    balances: int | Sequence[int] = gp(10),
    proficiency: Sequence[int | None] | None = None,
    rules: BlackjackRules = TAVERN,
) -> BlackjackGame:
    """A session whose dice are ``rolls``, in order: target, house pair, then d12s."""
    return BlackjackGame(
        players, rules=rules, dice=ScriptedDice(rolls), balances=balances,
        proficiency=proficiency,
    )


def outcomes(game: BlackjackGame) -> list[tuple[int, str, int, int]]:
    """``(seat, outcome, delta, balance)`` of each settlement of the latest round."""
    return [(s.seat, s.outcome, s.delta, s.balance) for s in game.settlements()]


def purposes(game: BlackjackGame) -> list[str]:
    return [e.purpose for e in game.log if isinstance(e, DiceRolled)]


# --------------------------------------------------------------------------- B1 money


def test_b1_gold_is_whole_copper_pieces_shown_as_gp_sp_cp() -> None:
    """B1. Seed: "If a player’s final roll is closer to the target number than the house’s
    roll, that player wins gold equal to their wager."
    """
    assert (gp(1), parse_cp("1 gp"), parse_cp("10 sp"), parse_cp("100")) == (100, 100, 100, 100)
    assert format_cp(1234) == "12 gp 3 sp 4 cp"
    game = table([(14,), (9, 17), (12,)], balances=1234)
    game.place_bet(0, 101)
    game.stand(0)  # 12 beats the house's 9
    assert outcomes(game) == [(0, "win", 101, 1335)]
    assert format_cp(game.balances[0]) == "13 gp 3 sp 5 cp"
    assert game.house_net == -101
    with pytest.raises(RulesetError, match="whole, non-negative cp"):
        BlackjackGame(1, balances=-5)


def test_b1_a_player_with_no_gold_cannot_bet() -> None:
    """B1. Seed: "Players may continue playing as long as they’d like, assuming they have
    gold to wager."
    """
    game = table([], ["Ann", "Bo"], balances=[0, 50])
    assert game.eligible == (1,)
    assert game.action_kinds(0) == [] and game.action_kinds(1) == ["bet", "sit-out"]
    assert game.view(0).bet_limits is None
    before = game.to_log()
    with pytest.raises(InsufficientFundsError, match="Ann has 0 cp, below the table minimum"):
        game.place_bet(0, 1)
    assert game.to_log() == before


# --------------------------------------------------------------------------- B2 bets


def test_b2_every_player_bets_before_any_die_is_rolled() -> None:
    """B2. Seed: "Before any dice are rolled, whoever wants to play places their bet in front
    of them."
    """
    dice = ScriptedDice([(14,), (9, 17), (3,), (4,)])
    game = BlackjackGame(2, dice=dice)
    game.place_bet(0, 100)
    assert (game.phase, game.target, dice.remaining, purposes(game)) == (
        Phase.BETTING, None, 4, [],
    )
    game.place_bet(1, 50)
    assert game.target == 14 and game.phase is Phase.PLAYING
    assert game.bets == {0: 100, 1: 50}


def test_b2_a_bet_is_one_copper_up_to_the_balance() -> None:
    """B2. Seed: "This game is played like blackjack, where a bet is required for every
    round."
    """
    game = table([(14,), (9, 17), (3,)], balances=1000)
    assert game.bet_limits(0) == (1, 1000)
    before = game.to_log()
    for amount in (0, 1001, -5, True, 2.5):
        with pytest.raises(
            InsufficientFundsError, match=r"P1 may bet 1 cp to 10 gp \(balance 10 gp\), not"
        ):
            game.place_bet(0, amount)  # type: ignore[arg-type]
        assert game.to_log() == before
    assert [game.can_bet(0, 1), game.can_bet(0, 1000)] == [True, True]
    game.place_bet(0, 1000)  # all in
    assert game.bets == {0: 1000}


def test_b2_table_minimum_and_maximum_options() -> None:
    """B2. Seed: "This game is played like blackjack, where a bet is required for every
    round."
    """
    rules = BlackjackRules(min_bet_cp=10, max_bet_cp=500)
    game = table([], 3, balances=[1000, 300, 9], rules=rules)
    assert game.eligible == (0, 1)
    assert (game.bet_limits(0), game.bet_limits(1)) == ((10, 500), (10, 300))
    for seat, amount in [(0, 9), (0, 501), (1, 301)]:
        assert not game.can_bet(seat, amount)
    with pytest.raises(InsufficientFundsError, match="P1 may bet 1 sp to 5 gp"):
        game.place_bet(0, 501)
    with pytest.raises(InsufficientFundsError, match="below the table minimum of 1 sp"):
        game.place_bet(2, 9)
    limits = r"maximum bet \(max_bet_cp 5\) is below the table minimum \(min_bet_cp 10\)"
    with pytest.raises(RulesetError, match=limits):
        BlackjackRules(min_bet_cp=10, max_bet_cp=5)


def test_b2_whoever_wants_to_play_bets_the_others_sit_out() -> None:
    """B2. Seed: "Before any dice are rolled, whoever wants to play places their bet in front
    of them."
    """
    game = table([(14,), (9, 17), (10,)], 2)
    game.sit_out(1)
    game.place_bet(0, 40)
    assert game.bets == {0: 40} and SatOut(1) in game.log
    assert game.turn == 0
    game.stand(0)
    assert outcomes(game) == [(0, "win", 40, 1040)]
    nobody = table([], 2)
    nobody.sit_out(0)
    nobody.sit_out(1)
    assert nobody.phase is Phase.ROUND_OVER and purposes(nobody) == []
    assert isinstance(nobody.log[-1], RoundClosed)


# --------------------------------------------------------------------------- B3 target


def test_b3_the_house_rolls_the_large_d20_for_the_target_number() -> None:
    """B3. Seed: "Once bets are made, the house/DM rolls their large d20." "The number they
    roll becomes the target number."
    """
    game = BlackjackGame(1, auto_roll=False)
    game.place_bet(0, 100)
    assert game.chance_request() == (RollSpec(None, 1, 20, "target"),)
    game.roll([[17]])
    assert game.target == 17 and TargetSet(17) in game.log
    assert game.chance_request() == (RollSpec(None, 2, 20, "house"),)


# --------------------------------------------------------------------------- B4 target 1


def test_b4_target_one_collects_every_bet_and_nothing_else_is_rolled() -> None:
    """B4. Seed: "If the house rolls a 1 for their target number, all bets are collected
    immediately and a new round can begin."
    """
    dice = ScriptedDice([(1,)])
    game = BlackjackGame(["Ann", "Bo", "Cy"], dice=dice, balances=[500, 500, 500])
    game.place_bet(0, 100)
    game.sit_out(1)
    game.place_bet(2, 37)
    assert dice.remaining == 0 and purposes(game) == ["target"]
    assert outcomes(game) == [(0, "collected", -100, 400), (2, "collected", -37, 463)]
    assert game.balances == (400, 500, 463) and game.house_net == 137
    assert not any(isinstance(e, HouseRolled | TurnStarted) for e in game.log)
    assert game.phase is Phase.ROUND_OVER
    assert game.new_round() == RoundOpened(2, (0, 1, 2), (400, 500, 463))


def test_b4_target_one_option_off_plays_the_round() -> None:
    """B4. Seed: "If the house rolls a 1 for their target number, all bets are collected
    immediately and a new round can begin."
    """
    game = table([(1,), (1, 5), (1,)], rules=BlackjackRules(target_one_collects=False))
    game.place_bet(0, 10)
    assert purposes(game) == ["target", "house", "d12"]
    assert game.house_roll == 1
    game.stand(0)
    assert outcomes(game) == [(0, "exact", 15, 1015)]


# --------------------------------------------------------------------------- B5 house roll


@pytest.mark.parametrize(
    ("target", "house_dice", "house"),
    [(14, (9, 13), 13), (14, (9, 17), 9), (14, (15, 18), None), (12, (12, 15), 12),
     (12, (15, 12), 12), (12, (11, 12), 12)],
)
def test_b5_the_house_keeps_the_higher_die_not_over_the_target(
    target: int, house_dice: tuple[int, int], house: int | None
) -> None:
    """B5. Seed: "The house then rolls their other two d20’s." "Whichever of these is closer
    to the target number without going over becomes the house’s roll."
    """
    game = table([(target,), house_dice, (2,)])
    game.place_bet(0, 100)
    assert (game.house_dice, game.house_roll, game.house_bust) == (
        house_dice, house, house is None,
    )
    assert HouseRolled(house_dice, house) in game.log


def test_b5_house_needs_under_option_refuses_a_die_equal_to_the_target() -> None:
    """B5. Seed: "If neither of the house’s rolls are under the target number, the house
    busts."
    """
    strict = BlackjackRules(house_needs_under=True)
    game = table([(12,), (12, 15), (5,)], rules=strict)
    game.place_bet(0, 100)
    assert (game.house_roll, game.house_bust) == (None, True)
    game.stand(0)
    assert outcomes(game) == [(0, "house-bust", 100, 1100)]
    game = table([(12,), (11, 12), (5,)], rules=strict)
    game.place_bet(0, 100)
    assert game.house_roll == 11


def test_b5_target_and_house_roll_are_shown_before_the_players_roll() -> None:
    """B5. Seed: "In this case, all a player needs to do is not bust in order to win."
    "Players are trying to roll d12’s to get closer to the target number than the house’s
    roll, without going over."
    """
    game = BlackjackGame(2, dice=ScriptedDice([(14,), (9, 17), (3,)]))
    game.place_bet(0, 10)
    game.place_bet(1, 10)
    kinds = [type(e).__name__ for e in game.log]
    assert kinds.index("HouseRolled") < kinds.index("TurnStarted")
    for seat in (None, 0, 1):
        view = game.view(seat)
        assert (view.target, view.house_roll, view.house_dice) == (14, 9, (9, 17))


# --------------------------------------------------------------------------- B6 d12s


def test_b6_players_add_d12s_until_they_stand_or_bust() -> None:
    """B6. Seed: "They start by rolling a single d12." "If they have not ‘busted’ (gone over
    the target roll), they can roll another d12 and add their number to it." "They can keep
    rolling d12’s and adding their number until they are satisfied, or until they bust."
    """
    game = table([(14,), (9, 17), (5,), (6,), (8,), (7,)], ["Ann", "Bo"])
    game.place_bet(0, 100)
    game.place_bet(1, 100)
    assert (game.turn, game.totals) == (0, {0: 5})  # the first d12 needs no asking
    assert game.action_kinds(0) == ["roll", "stand"] and game.action_kinds(1) == []
    game.roll_again(0)
    assert game.totals[0] == 11
    game.roll_again(0)  # 19: over 14, a bust that ends Ann's turn
    assert [e for e in game.log if isinstance(e, TotalChanged)] == [
        TotalChanged(0, 5, False), TotalChanged(0, 11, False), TotalChanged(0, 19, True),
        TotalChanged(1, 7, False),
    ]
    assert game.finals == {0: None} and game.turn == 1
    with pytest.raises(NotYourTurnError, match="it is Bo's turn to roll, not seat 0's"):
        game.roll_again(0)
    game.stand(1)
    assert outcomes(game) == [(0, "bust", -100, 900), (1, "lose", -100, 900)]


# --------------------------------------------------------------------------- B7 proficiency


def test_b7_proficient_players_may_add_up_to_half_their_bonus_rounded_up() -> None:
    """B7. Seed: "If a player is proficient, they may add (not subtract) up to half of their
    proficiency bonus for performance deception or thievery rounded up to their final roll."
    """
    assert [BlackjackRules().bonus_cap(pb) for pb in (None, 2, 3, 4, 5, 6)] == [0, 1, 2, 2, 3, 3]
    rolls = [(20,), (3, 9)] + [(2,)] * 6
    game = table(rolls, 6, proficiency=[None, 2, 3, 4, 5, 6])
    for seat in range(6):
        game.place_bet(seat, 10)
    caps = []
    for seat in range(6):
        caps.append(game.legal_bonuses(seat)[-1])
        game.stand(seat, caps[-1])
    assert caps == [0, 1, 2, 2, 3, 3]
    assert [s.final for s in game.settlements()] == [2, 3, 4, 4, 5, 5]
    with pytest.raises(RulesetError, match="a proficiency bonus is 2-6, or none; not 7"):
        BlackjackGame(1, proficiency=[7])


def test_b7_a_bonus_past_the_target_is_refused_and_changes_nothing() -> None:
    """B7. Seed: "If a player is proficient, they may add (not subtract) up to half of their
    proficiency bonus for performance deception or thievery rounded up to their final roll."
    """
    game = table([(14,), (9, 17), (8,), (5,)], ["Ann"], proficiency=[4])
    game.place_bet(0, 100)
    game.roll_again(0)  # 13
    assert game.legal_bonuses(0) == (0, 1)
    before = game.to_log()
    for bonus, message in [
        (2, r"cannot add 2: it would take 13 past the target 14; legal bonuses: 0 to 1"),
        (3, "half of proficiency bonus 4, rounded up, is 2"),
        (-1, "a bonus is added, never subtracted"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            game.stand(0, bonus)
        assert game.to_log() == before
    game.stand(0, 1)
    assert outcomes(game) == [(0, "exact", 150, 1150)]


def test_b7_no_bonus_without_proficiency_or_after_a_bust() -> None:
    """B7. Seed: "If a player is proficient, they may add (not subtract) up to half of their
    proficiency bonus for performance deception or thievery rounded up to their final roll."
    """
    game = table([(14,), (9, 17), (8,), (9,), (4,)], ["Ann", "Bo"], proficiency=[6, None])
    game.place_bet(0, 100)
    game.place_bet(1, 100)
    game.roll_again(0)  # 17: bust
    assert game.legal_bonuses(0) == ()
    with pytest.raises(NotYourTurnError):
        game.stand(0, 1)
    assert game.legal_bonuses(1) == (0,)
    with pytest.raises(IllegalActionError, match="Bo is not proficient"):
        game.stand(1, 1)


def test_b7_a_table_may_cap_the_bonus_added() -> None:
    """B7. Seed: "If a player is proficient, they may add (not subtract) up to half of their
    proficiency bonus for performance deception or thievery rounded up to their final roll."

    The table option ``max_added_bonus`` (the DM's dial, ``--max-added-bonus``) caps it.
    """
    rules = TAVERN.replace(max_added_bonus=1)
    assert [rules.bonus_cap(pb) for pb in (None, 2, 4, 6)] == [0, 1, 1, 1]
    game = table([(20,), (3, 9), (2,), (2,)], 2, proficiency=[6, None], rules=rules)
    game.place_bet(0, 10)
    game.place_bet(1, 10)
    assert game.legal_bonuses(0) == (0, 1)
    before = game.to_log()
    with pytest.raises(IllegalActionError, match=r"this table caps the bonus at 1 "
                       r"\(max_added_bonus\); legal bonuses: 0 to 1"):
        game.stand(0, 3)
    assert game.to_log() == before
    game.stand(0, 1)
    game.stand(1)
    assert [s.final for s in game.settlements()] == [3, 2]
    off = table([(20,), (3, 9), (2,)], proficiency=[4], rules=TAVERN.replace(max_added_bonus=0))
    off.place_bet(0, 10)
    with pytest.raises(IllegalActionError, match="caps the bonus at 0"):
        off.stand(0, 1)
    with pytest.raises(RulesetError, match="max_added_bonus is a cap of 0 or more"):
        TAVERN.replace(max_added_bonus=-1)
    with pytest.raises(RulesetError, match="max_added_bonus must be a whole number or None"):
        BlackjackRules.from_dict({"max_added_bonus": 1.5})


# --------------------------------------------------------------------------- B8 settlement


def test_b8_exact_hit_pays_one_and_a_half_rounded_down_to_the_copper() -> None:
    """B8. Seed: "If a player hits the target number exactly, they win gold equal to 1.5x
    their wager."
    """
    game = table([(14,), (9, 17), (8,), (6,)], balances=1000)
    game.place_bet(0, 301)
    game.roll_again(0)
    game.stand(0)
    assert outcomes(game) == [(0, "exact", 451, 1451)]
    assert [TAVERN.exact_payout(bet) for bet in (1, 2, 3, 5, 301)] == [1, 3, 4, 7, 451]


@pytest.mark.parametrize(
    ("house_dice", "rules", "expected"),
    [
        ((15, 18), TAVERN, ("exact", 16)),  # the house busts: still 1.5x (16.5 rounded down)
        ((12, 3), TAVERN, ("exact", 16)),  # the house also on the target: still 1.5x
        ((12, 3), BlackjackRules(house_exact_beats_player_exact=True), ("lose", -11)),
    ],
)
def test_b8_exact_hit_against_a_house_bust_or_a_house_exact_hit(
    house_dice: tuple[int, int], rules: BlackjackRules, expected: tuple[str, int]
) -> None:
    """B8. Seed: "If a player hits the target number exactly, they win gold equal to 1.5x
    their wager."
    """
    game = table([(12,), house_dice, (12,)], rules=rules)
    game.place_bet(0, 11)
    game.stand(0)
    assert [(s.outcome, s.delta) for s in game.settlements()] == [expected]


@pytest.mark.parametrize(("payout", "win"), [("3:2", 150), ("6:5", 120), ("5:4", 125),
                                            ("1:1", 100)])
def test_b8_a_table_may_pay_an_exact_hit_less(payout: str, win: int) -> None:
    """B8. Seed: "If a player hits the target number exactly, they win gold equal to 1.5x
    their wager."

    The table option ``exact_numerator:exact_denominator`` (``--exact-payout``) changes it.
    """
    numerator, denominator = parse_payout(payout)
    rules = TAVERN.replace(exact_numerator=numerator, exact_denominator=denominator)
    assert rules.payout_text() == payout
    game = table([(14,), (9, 17), (8,), (6,)], rules=rules)
    game.place_bet(0, 100)
    game.roll_again(0)
    game.stand(0)
    assert outcomes(game) == [(0, "exact", win, 1000 + win)]
    with pytest.raises(RulesetError, match="written as odds such as 3:2"):
        parse_payout("1.5x")


def test_b8_closer_wins_even_money_and_not_closer_loses() -> None:
    """B8. Seed: "If a player’s final roll is closer to the target number than the house’s
    roll, that player wins gold equal to their wager." "If a player busts, they lose their
    wager." "If a player is NOT closer to the target number than the house’s roll, they lose
    their wager."
    """
    game = table([(18,), (10, 20), (11,), (10,), (9,), (12,), (7,)], 4)
    for seat, bet in enumerate((100, 200, 300, 7)):
        game.place_bet(seat, bet)
    game.stand(0)  # 11 > 10
    game.stand(1)  # 10 = 10: not closer
    game.stand(2)  # 9 < 10
    game.roll_again(3)  # 12 + 7 = 19 > 18: bust
    assert outcomes(game) == [
        (0, "win", 100, 1100), (1, "lose", -200, 800), (2, "lose", -300, 700),
        (3, "bust", -7, 993),
    ]
    assert game.house_net == -100 + 200 + 300 + 7


def test_b8_a_house_bust_pays_every_player_who_did_not_bust() -> None:
    """B8. Seed: "In this case, all a player needs to do is not bust in order to win."
    """
    game = table([(10,), (15, 18), (2,), (9,), (4,)], 2)
    game.place_bet(0, 50)
    game.place_bet(1, 50)
    game.stand(0)
    game.roll_again(1)  # 13 > 10: bust
    assert outcomes(game) == [(0, "house-bust", 50, 1050), (1, "bust", -50, 950)]
    assert isinstance(game.log[-1], RoundClosed) and game.log[-1].house_net == 0


# --------------------------------------------------------------------------- B9 more rounds


def test_b9_rounds_go_on_while_a_player_wants_to_and_has_gold() -> None:
    """B9. Seed: "Players may continue playing as long as they’d like, assuming they have
    gold to wager."
    """
    dice = ScriptedDice([(14,), (9, 17), (12,), (5,), (12,), (14,), (9, 17), (12,)])
    game = BlackjackGame(["Ann", "Bo"], dice=dice, balances=[30, 200])
    with pytest.raises(IllegalActionError, match="the round is still going"):
        game.new_round()
    game.place_bet(0, 30)
    game.place_bet(1, 20)
    game.roll_again(0)  # 17: Ann busts and has no gold left
    game.stand(1)
    assert game.balances == (0, 220)
    assert game.new_round() == RoundOpened(2, (1,), (0, 220))
    game.place_bet(1, 220)
    game.stand(1)
    assert game.balances == (0, 440) and not game.is_over
    broke = table([(1,)], balances=5)
    broke.place_bet(0, 5)
    assert broke.is_over
    with pytest.raises(IllegalActionError, match="no player has the table minimum of 1 cp"):
        broke.new_round()


# --------------------------------------------------------------------------- illegal actions


def test_illegal_actions_raise_helpful_errors_and_change_nothing() -> None:
    """B2. Seed: "Before any dice are rolled, whoever wants to play places their bet in front
    of them."
    """
    game = table([(14,), (9, 17), (4,), (6,)], ["Ann", "Bo"], balances=[100, 100])
    game.place_bet(0, 60)
    while_betting: list[tuple[type[TavernError], str, Callable[[], object]]] = [
        (IllegalActionError, "Ann has already bet or sat out", lambda: game.place_bet(0, 10)),
        (InsufficientFundsError, r"Bo may bet 1 cp to 1 gp \(balance 1 gp\), not 1 gp 1 cp",
         lambda: game.place_bet(1, 101)),
        (IllegalActionError, "no seat 2; seats are 0-1", lambda: game.place_bet(2, 10)),
        (IllegalActionError, r"no player rolls now \(phase betting\)", lambda: game.stand(0)),
        (IllegalActionError, "no dice are to be rolled now", lambda: game.roll([[3]])),
    ]
    while_playing: list[tuple[type[TavernError], str, Callable[[], object]]] = [
        (IllegalActionError, r"bets are placed before any die is rolled, not now "
         r"\(phase playing\)", lambda: game.place_bet(1, 10)),
        (NotYourTurnError, "it is Ann's turn to roll, not seat 1's", lambda: game.roll_again(1)),
        (IllegalActionError, "the round is still going", game.new_round),
        (IllegalActionError, "no dice are to be rolled now", lambda: game.roll([[3]])),
    ]
    for attempts, then in [(while_betting, lambda: game.place_bet(1, 50)), (while_playing, None)]:
        before = game.to_log()
        for kind, message, attempt in attempts:
            with pytest.raises(kind, match=message):
                attempt()
            assert game.to_log() == before
        if then is not None:
            then()
    assert game.bets == {0: 60, 1: 50} and game.turn == 0


def test_malformed_dice_are_refused_and_change_nothing() -> None:
    """B3. Seed: "The DM will need three d20s (ideally with one of them being larger than the
    other)."
    """
    game = BlackjackGame(1, auto_roll=False)
    game.place_bet(0, 10)
    before = game.to_log()
    for faces, kind, message in [
        ([[21]], InvalidDiceError, "a d20 shows a whole number from 1 to 20, not 21"),
        ([[0]], InvalidDiceError, "not 0"),
        ([[3, 4]], InvalidDiceError, "expected 1 d20 for target, got 2 values"),
        ([[3], [4]], IllegalActionError, r"expected one roll \(target\), got 2"),
    ]:
        with pytest.raises(kind, match=message):
            game.roll(faces)
        assert game.to_log() == before
    game.roll([[14]])
    with pytest.raises(InvalidDiceError, match="expected 2 d20 for house"):
        game.roll([[9]])
    game.roll([[9, 17]])
    with pytest.raises(InvalidDiceError, match="a d12 shows a whole number from 1 to 12, not 13"):
        game.roll([[13]])
    assert game.chance_request() == (RollSpec(0, 1, 12, "d12"),)  # still waiting for it
    assert game.totals == {0: 0}


# --------------------------------------------------------------------------- logs and views


def played_session() -> BlackjackGame:
    """Three seeded rounds with fixed choices: roll while under 9, then stand with the
    largest bonus."""
    game = BlackjackGame(
        ["Ann", "Bo", "Cy"], dice=SeededDice(5), balances=[500, 80, 3], proficiency=[3, None, 6]
    )
    for _ in range(3):
        if game.phase is Phase.ROUND_OVER:
            game.new_round()
        for seat in game.eligible:
            game.place_bet(seat, min(25, game.balances[seat]))
        while game.phase is Phase.PLAYING:
            actor = game.turn
            assert actor is not None
            if game.totals[actor] < 9:
                game.roll_again(actor)
            else:
                game.stand(actor, game.legal_bonuses(actor)[-1])
    return game


def test_log_round_trips_through_json_and_conserves_gold() -> None:
    """B9. Seed: "Players may continue playing as long as they’d like, assuming they have
    gold to wager."
    """
    game = played_session()
    assert game.round == 3 and any(isinstance(e, Settled) for e in game.log)
    replayed = BlackjackGame.from_log(json.loads(json.dumps(game.to_log())))
    assert replayed.to_log() == game.to_log()
    assert replayed.balances == game.balances
    assert sum(game.balances) + game.house_net == 500 + 80 + 3
    assert [event for event, _ in game.replay_steps()] == game.log


@pytest.mark.parametrize("tamper", ["derived payout", "bet above balance", "d12 face", "rules"])
def test_a_tampered_log_raises_log_error(tamper: str) -> None:
    """B8. Seed: "If a player hits the target number exactly, they win gold equal to 1.5x
    their wager."
    """
    log = json.loads(json.dumps(played_session().to_log()))
    events = log["events"]
    if tamper == "derived payout":
        next(e for e in events if e["type"] == "settled")["delta"] += 1
    elif tamper == "bet above balance":
        next(e for e in events if e["type"] == "bet_placed" and e["seat"] == 2)["amount"] = 999
    elif tamper == "d12 face":
        next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "d12")[
            "dice"] = [[13]]
    else:
        log["rules"]["max_proficiency_bonus"] = 1  # Ann's bonus of 3 no longer fits
    with pytest.raises(LogError):
        BlackjackGame.from_log(log)


def test_views_show_the_public_table() -> None:
    """B5. Seed: "Whichever of these is closer to the target number without going over
    becomes the house’s roll."
    """
    game = table([(14,), (9, 17), (6,)], ["Ann", "Bo"], proficiency=[2, None])
    game.place_bet(0, 30)
    game.sit_out(1)
    ann, bo = game.view(0), game.view(1)
    assert (ann.legal_actions, ann.legal_bonuses, ann.totals) == (("roll", "stand"), (0, 1), {0: 6})
    assert (bo.legal_actions, bo.legal_bonuses, bo.bets) == ((), (), {0: 30})
    assert game.view(None).log == tuple(game.log)  # nothing in this game is secret
    assert json.loads(json.dumps(ann.to_dict()))["house_roll"] == 9


@pytest.mark.parametrize("bonus", [2.5, True, "4"])
def test_b7_a_proficiency_bonus_is_a_whole_number(bonus: object) -> None:
    """B7. Seed: "they may add (not subtract) up to half of their proficiency bonus for
    performance deception or thievery rounded up to their final roll."
    """
    with pytest.raises(RulesetError, match="a proficiency bonus is 2-6, or none; not"):
        BlackjackGame(1, proficiency=[bonus])  # type: ignore[list-item]


def test_b9_a_view_log_is_a_snapshot_of_the_session_so_far() -> None:
    """B9. Seed: "Players may continue playing as long as they’d like, assuming they have
    gold to wager."
    """
    game = table([(14,), (9, 17), (8,)])
    game.place_bet(0, 100)
    view = game.view(0)
    assert view.log == game.masked_log(0) == tuple(game.log)
    game.stand(0)
    assert view.log == tuple(game.log[: len(view.log)])
    assert [type(e).__name__ for e in game.log[len(view.log):]] == [
        "Stood", "Settled", "RoundClosed"
    ]
    assert isinstance(game.view(None).log[-1], RoundClosed)
