"""``--hints``: the figures are the strategy modules' own, drawn from the person's view
only, and shown end to end in ``tavern play``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.blackjack.actions import Roll, Stand
from tavern_dice.blackjack.rules import TAVERN as BLACKJACK
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.cli import app
from tavern_dice.cli.hints import (
    blackjack_bet_hint,
    blackjack_bet_lines,
    blackjack_move_hint,
    blackjack_move_lines,
    liars_hint,
    liars_lines,
    per_gp,
    percent,
    safest_wagers,
)
from tavern_dice.dice import ScriptedDice
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import SumWager, Wager
from tavern_dice.strategy.blackjack.solver import solve
from tavern_dice.strategy.liars_dice.odds import (
    WagerOdds,
    expected_dice_lost,
    outcome_costs,
    view_odds,
    wager_odds,
)

ONE_DIE = LiarsDiceRules(dice_per_player=1)


def flat(text: str) -> str:
    """``text`` with every run of whitespace as one space (wrapping and padding vary)."""
    return " ".join(text.split())


# ---------------------------------------------------------------------- Dice Blackjack


@pytest.fixture
def blackjack() -> BlackjackGame:
    # Target 14, house dice 9 and 17 (house roll 9), Ann's first d12 an 8; PB 4 (bonus <= 2).
    game = BlackjackGame(
        ["Ann"], dice=ScriptedDice([(14,), (9, 17), (8,)]), balances=1000, proficiency=[4]
    )
    game.place_bet(0, 300)
    return game


def test_move_hint_figures_are_the_solvers(blackjack: BlackjackGame) -> None:
    hint = blackjack_move_hint(blackjack.view(0))
    sol = solve(BLACKJACK, 4)
    assert (hint.target, hint.house, hint.total, hint.bet_cp) == (14, 9, 8, 300)
    # Faces 7-12 take 8 over 14.
    assert hint.bust_chance == sol.bust_chance_next_roll(14, 8) == Fraction(1, 2)
    # 8 + 2 = 10 beats the house's 9: +1; adding 0 or 1 would not.
    assert (hint.stand_value, hint.stand_bonus) == (Fraction(1), 2)
    assert hint.stand_value == sol.stand_value(14, 9, 8)
    assert hint.stand_bonus == sol.bonus(14, 9, 8)
    assert hint.roll_value == sol.roll_value(14, 9, 8)
    assert hint.roll_value < 1
    assert hint.better == sol.action(14, 9, 8) == Stand(2)
    assert hint.stand_cp == 300
    assert hint.roll_cp == round(sol.roll_value(14, 9, 8) * 300)
    stand, roll = blackjack_move_lines(hint)
    assert flat(stand) == "stand +2: expect +1.00/gp bet (≈ +3 gp on your 3 gp) ← better"
    assert flat(roll).startswith(f"roll: expect {per_gp(hint.roll_value)}/gp bet (≈ ")
    assert flat(roll).endswith("· next d12 busts 50%")


def test_move_hint_marks_rolling_when_standing_loses() -> None:
    # Target 20, house roll 15, a first d12 of 3 and no proficiency: standing on 3 loses.
    game = BlackjackGame(["Ann"], dice=ScriptedDice([(20,), (15, 2), (3,)]), balances=500)
    game.place_bet(0, 250)
    hint = blackjack_move_hint(game.view(0))
    sol = solve(BLACKJACK, None)
    assert hint.stand_value == -1 and hint.stand_bonus == 0
    assert hint.bust_chance == 0
    assert hint.roll_value == sol.roll_value(20, 15, 3) > -1
    assert hint.better == Roll()
    stand, roll = blackjack_move_lines(hint)
    assert flat(stand) == "stand: expect -1.00/gp bet (≈ -2 gp 5 sp on your 2 gp 5 sp)"
    assert roll.endswith("next d12 busts 0%  ← better")


@pytest.mark.parametrize(("pb", "shown"), [
    (None, "a round at best play, no PB: expect +0.0094/gp bet (your edge 0.94%)"),
    (4, "a round at best play, PB 4: expect +0.2993/gp bet (your edge 29.93%)"),
])
def test_bet_hint_is_the_rounds_value_under_best_play(pb: int | None, shown: str) -> None:
    game = BlackjackGame(["Ann"], dice=ScriptedDice([]), balances=1000, proficiency=[pb])
    hint = blackjack_bet_hint(game.view(0))
    assert hint.expected_payout == solve(BLACKJACK, pb).expected_payout()
    assert hint.house_edge == solve(BLACKJACK, pb).house_edge()
    assert blackjack_bet_lines(hint) == [shown]


def test_bet_hint_names_the_house_edge_when_the_house_has_it() -> None:
    # When the house wins a tie on the target, best play without proficiency loses 2.36%.
    rules = BLACKJACK.replace(house_exact_beats_player_exact=True)
    game = BlackjackGame(["Ann"], rules=rules, dice=ScriptedDice([]), balances=1000)
    hint = blackjack_bet_hint(game.view(0))
    assert hint.house_edge == solve(rules, None).house_edge() > 0
    assert blackjack_bet_lines(hint) == [
        "a round at best play, no PB: expect -0.0236/gp bet (house edge 2.36%)"
    ]


# ---------------------------------------------------------------------- Liar's Dice


def two_dice_game() -> LiarsDiceGame:
    # Ann (seat 0) wins the roll-off 12 to 5; hands: Ann 2 2, Bo 2 5; Ann opens.
    dice = ScriptedDice([(6, 6), (1, 4), (2, 2), (2, 5)])
    return LiarsDiceGame(["Ann", "Bo"], rules=LiarsDiceRules(dice_per_player=2), dice=dice)


def test_liars_hint_figures_are_the_odds_modules() -> None:
    game = two_dice_game()
    game.wager(Wager(3, 2), 0)
    view = game.view(1)
    hint = liars_hint(view)
    # Bo holds one two; "3 twos" needs both unseen dice to be twos, and then is exact.
    assert hint.odds == view_odds(view) == wager_odds(Wager(3, 2), (2, 5), 4, view.rules)
    assert hint.odds == WagerOdds(Fraction(35, 36), Fraction(0), Fraction(1, 36))
    assert hint.costs == outcome_costs(0, 1, (0, 1), view.rules)
    assert hint.lose_chance == expected_dice_lost(hint.odds, hint.costs)[1] == Fraction(1, 36)
    # 1 five is certain; 2 fives, 1 six, 1 four and 1 three each need one unseen match
    # (11/36): the bolder 2 fives first, then the higher faces.
    assert [(r.wager, r.true) for r in hint.safest] == [
        (Wager(1, 5), Fraction(1)),
        (Wager(2, 5), Fraction(11, 36)),
        (Wager(1, 6), Fraction(11, 36)),
        (Wager(1, 4), Fraction(11, 36)),
    ]
    for r in hint.safest:
        assert r.true == wager_odds(r.wager, (2, 5), 4, view.rules).true
    assert liars_lines(hint, view.players) == [
        "3 twos: false 97% (Ann -1 die) · true, not exact 0% (you -1) · exact 3% (you -1)",
        "accusing costs you a die 3% · safest raises: 1 five 100%, 2 fives 31%, 1 six 31%, "
        "1 four 31%",
    ]


def test_safest_wagers_are_the_most_likely_legal_ones() -> None:
    game = two_dice_game()
    game.wager(Wager(1, 3), 0)
    view = game.view(1)
    chances = {w: wager_odds(w, view.own_dice, 4, view.rules).true for w in view.legal_wagers}
    safest = safest_wagers(view, count=5)
    assert len(safest) == 5
    assert all(r.wager in view.legal_wagers for r in safest)
    # Nothing left out is more likely than the least likely one listed.
    floor = min(r.true for r in safest)
    listed = {r.wager for r in safest}
    assert all(p <= floor for w, p in chances.items() if w not in listed)
    assert [r.true for r in safest] == sorted((r.true for r in safest), reverse=True)


def test_opening_hint_lists_safest_openings_only() -> None:
    view = two_dice_game().view(0)  # Ann holds 2 2 among 4 dice
    hint = liars_hint(view)
    assert hint.odds is None and hint.costs is None and hint.lose_chance is None
    # 2 twos is certain (so 1 two is left out); then one unseen match, 11/36, the bolder
    # first: 3 twos, then 1 of the higher faces.
    assert liars_lines(hint, view.players) == [
        "safest openings: 2 twos 100%, 3 twos 31%, 1 six 31%, 1 five 31%"
    ]


def three_one_die_game(ann: int, cy: int) -> LiarsDiceGame:
    """Ann, Bo and Cy with a die each (Bo's a five); Ann won the roll-off and wagered 2 fives."""
    dice = ScriptedDice([(6,), (1,), (2,), (ann,), (5,), (cy,)])
    game = LiarsDiceGame(["Ann", "Bo", "Cy"], rules=ONE_DIE, dice=dice)
    game.wager(Wager(2, 5), 0)
    return game


def test_spot_on_costs_everyone_but_the_wager_maker() -> None:
    view = three_one_die_game(5, 3).view(1)
    hint = liars_hint(view)
    # Bo's five plus at least one five among 2 unseen dice; exactly one is spot-on.
    assert hint.odds == WagerOdds(Fraction(25, 36), Fraction(1, 36), Fraction(10, 36))
    assert hint.costs is not None and hint.costs.exact == (1, 2)
    assert hint.lose_chance == Fraction(11, 36)
    first, second = liars_lines(hint, view.players)
    assert first == ("2 fives: false 69% (Ann -1 die) · true, not exact 3% (you -1) · "
                     "exact 28% (all but Ann -1)")
    # 3 ones (and 3 of any face but five) cannot hold with one unseen five short: not listed.
    assert second == ("accusing costs you a die 31% · safest raises: 1 six 31%, 3 fives 3%, "
                      "2 sixes 3%")


@pytest.mark.parametrize(("ann", "cy"), [(1, 1), (5, 5), (6, 2), (3, 4)])
def test_hints_never_depend_on_hidden_dice(ann: int, cy: int) -> None:
    # Bo's hint (on his turn) is the same whatever Ann and Cy hold: it reads his view only.
    reference, other = three_one_die_game(5, 3), three_one_die_game(ann, cy)
    mine, theirs = liars_hint(reference.view(1)), liars_hint(other.view(1))
    assert mine == theirs
    assert liars_lines(mine, reference.players) == liars_lines(theirs, other.players)
    # Cy, out of turn, may accuse too: her hint does not change with Ann's die either.
    cy_view = three_one_die_game(ann, cy).view(2)
    assert cy_view.may_accuse
    assert liars_hint(cy_view) == liars_hint(three_one_die_game(7 - ann, cy).view(2))


def test_sum_endgame_hints_use_sum_wagers() -> None:
    # Two players, one die each: Ann 3, Bo 4 (roll-off 6 to 1, Ann opens).
    game = LiarsDiceGame(["Ann", "Bo"], rules=ONE_DIE,
                         dice=ScriptedDice([(6,), (1,), (3,), (4,)]))
    view = game.view(0)
    assert view.sum_wagers
    assert liars_lines(liars_hint(view), view.players) == [
        "safest openings: sum ≥4 100%, sum ≥5 83%, sum ≥6 67%, sum ≥7 50%"
    ]
    game.wager(SumWager(7), 0)
    view = game.view(1)
    hint = liars_hint(view)
    # Bo's 4 needs Ann's die to be 3+ (true), exactly 3 (exact).
    assert hint.odds == wager_odds(SumWager(7), (4,), 2, ONE_DIE)
    assert hint.odds == WagerOdds(Fraction(1, 3), Fraction(1, 2), Fraction(1, 6))
    assert hint.lose_chance == Fraction(2, 3)
    assert liars_lines(hint, view.players) == [
        "sum ≥7: false 33% (Ann -1 die) · true, not exact 50% (you -1) · exact 17% (you -1)",
        "accusing costs you a die 67% · safest raises: sum ≥8 50%, sum ≥9 33%, sum ≥10 17%",
    ]


def test_percent_never_rounds_to_a_false_certainty() -> None:
    assert [percent(Fraction(n, 1000)) for n in (0, 4, 5, 994, 995, 1000)] == [
        "0%", "<1%", "<1%", "99%", ">99%", "100%"
    ]
    assert percent(Fraction(1, 3)) == "33%"


# ---------------------------------------------------------------------- end to end


def run(args: list[str], typed: str) -> str:
    result = CliRunner().invoke(app, args, input=typed)
    assert result.exit_code == 0, result.output
    return result.output


def test_blackjack_hints_end_to_end(tmp_path: Path) -> None:
    save = tmp_path / "bj.json"
    # Bet 2 gp; the input ends at the first move, which leaves the session there.
    out = run(["play", "blackjack", "--name", "Ann", "--seed", "3", "--proficiency", "4",
               "--hints", "--save", str(save)], "2 gp\n")
    game = BlackjackGame.from_log(json.loads(save.read_text()))
    view = game.view(0)
    assert view.turn == 0 and view.bets == {0: 200}
    assert flat("hint: " + blackjack_bet_lines(blackjack_bet_hint(view))[0]) in flat(out)
    stand, roll = blackjack_move_lines(blackjack_move_hint(view))
    assert flat(f"hint: {stand} hint: {roll}") in flat(out)
    # Without --hints nothing of the kind is shown.
    plain = run(["play", "blackjack", "--name", "Ann", "--seed", "3", "--proficiency", "4"],
                "2 gp\n")
    assert "hint:" not in plain


def test_liars_dice_hints_end_to_end(tmp_path: Path) -> None:
    save = tmp_path / "ld.json"
    args = ["play", "liars-dice", "--name", "Ann", "--players", "3", "--dice-per-player", "3",
            "--seed", "5", "--hints", "--save", str(save)]
    # Let the opening stand, raise to 1 six (1x6), let the next wagers stand; input ends later.
    out = run(args, "n\n1x6\nn\nn\nn\n")
    game = LiarsDiceGame.from_log(json.loads(save.read_text()))
    view = game.view(0)
    lines = liars_lines(liars_hint(view), view.players)
    assert lines
    # The last hint shown is the one for the decision the input ended at.
    shown = flat(out)
    expected = flat(" ".join(f"hint: {line}" for line in lines))
    at = shown.rfind(expected)
    assert at >= 0, (expected, shown[-1500:])
    assert at <= shown.rindex("hint:") < at + len(expected)
    assert shown.count("hint:") >= 2
    assert "hint:" not in run(args[:-3], "n\n1x6\nn\nn\nn\n")
