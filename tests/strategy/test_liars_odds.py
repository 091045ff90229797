"""Liar's Dice odds checked against independent computations (issue 2 "Odds").

The references here enumerate every outcome of the unseen dice one by one
(itertools.product), or build distributions die by die, re-reading the seed's
rules (L4 count wagers, L6 wild face, L8 outcomes, L10 sum wagers) from scratch;
they share no code with :mod:`tavern_dice.strategy.liars_dice.odds`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.errors import InvalidDiceError, TavernError
from tavern_dice.liars_dice.events import Accused, Revealed, RoundStarted, WagerMade
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN, LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.strategy.liars_dice.odds import (
    OddsError,
    WagerOdds,
    count_distribution,
    expected_count,
    expected_dice_lost,
    matching_dice,
    outcome_costs,
    success_probability,
    sum_distribution,
    true_probability,
    view_odds,
    wager_odds,
    wager_odds_float,
)

# --------------------------------------------------------------------------- references


def brute_odds(
    wager: AnyWager, own: Sequence[int], dice_in_play: int, sides: int, wild: int | None
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(false), P(true, not exact), P(exact)) by listing every unseen outcome."""
    unseen = dice_in_play - len(own)
    tally = [0, 0, 0]
    outcomes = 0
    for rest in itertools.product(range(1, sides + 1), repeat=unseen):
        table = list(own) + list(rest)
        if isinstance(wager, SumWager):
            value, claim = sum(table), wager.total
        else:
            # L6: a wild die stands for any other face; a wager on the wild face counts
            # only dice showing it.
            value = sum(
                1 for d in table
                if d == wager.face or (wild is not None and d == wild and wager.face != wild)
            )
            claim = wager.quantity
        tally[0 if value < claim else 2 if value == claim else 1] += 1
        outcomes += 1
    return (
        Fraction(tally[0], outcomes), Fraction(tally[1], outcomes), Fraction(tally[2], outcomes)
    )


def die_by_die(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes in n trials), built one die at a time (no binomial coefficients)."""
    dist = [Fraction(1)]
    for _ in range(n):
        nxt = [Fraction(0)] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def as_tuple(odds: WagerOdds) -> tuple[Fraction, Fraction, Fraction]:
    return odds.false, odds.true_not_exact, odds.exact


# --------------------------------------------------------------------------- count wagers

SMALL_CASES = [
    # (sides, wild, own dice, dice in play)
    (6, None, (), 3),
    (6, None, (2, 2), 5),
    (6, None, (1, 5, 6), 6),
    (6, 6, (6, 3), 5),
    (6, 6, (), 4),
    (6, 1, (1, 1, 4), 6),
    (4, 2, (2, 3), 5),
    (3, None, (3,), 5),
]


@pytest.mark.parametrize(("sides", "wild", "own", "in_play"), SMALL_CASES)
def test_count_wager_odds_match_enumeration(
    sides: int, wild: int | None, own: tuple[int, ...], in_play: int
) -> None:
    rules = LiarsDiceRules(sides=sides, wild_face=wild)
    for face in range(1, sides + 1):
        for quantity in range(1, in_play + 2):  # one past the dice in play: always false
            wager = Wager(quantity, face)
            got = wager_odds(wager, own, in_play, rules)
            assert as_tuple(got) == brute_odds(wager, own, in_play, sides, wild), wager
            assert got.false + got.true_not_exact + got.exact == 1
            assert got.true == got.true_not_exact + got.exact


def test_wild_face_doubles_the_chance_except_for_the_wild_face_itself() -> None:
    rules = TAVERN.replace(wild_face=1)
    assert success_probability(4, rules) == Fraction(2, 6)
    assert success_probability(1, rules) == Fraction(1, 6)
    assert success_probability(4, TAVERN) == Fraction(1, 6)
    # Own ones count toward fours, own fours do not count toward ones.
    assert matching_dice((1, 1, 4, 5), 4, rules) == 3
    assert matching_dice((1, 1, 4, 5), 1, rules) == 2
    # Two unseen dice, wager "1 four": false only if neither shows 1 or 4.
    assert wager_odds(Wager(1, 4), (), 2, rules).false == Fraction(4, 6) ** 2
    assert wager_odds(Wager(1, 1), (), 2, rules).false == Fraction(5, 6) ** 2


def test_count_distribution_matches_a_die_by_die_build_for_many_dice() -> None:
    for n, face, rules in [(40, 3, TAVERN), (25, 2, OPENSPIEL), (30, 6, OPENSPIEL)]:
        p = Fraction(2 if rules.wild_face and face != rules.wild_face else 1, rules.sides)
        assert list(count_distribution(n, face, rules)) == die_by_die(n, p)


def test_large_table_odds_match_a_die_by_die_build() -> None:
    own = (3, 3, 1, 6, 2)
    rules = TAVERN
    ref = die_by_die(45, Fraction(1, 6))  # 50 dice in play, 45 unseen
    for quantity in (1, 2, 9, 10, 15, 47, 50, 51):
        got = wager_odds(Wager(quantity, 3), own, 50, rules)
        need = quantity - 2
        assert got.false == sum(ref[: max(need, 0)], Fraction(0))
        assert got.exact == (ref[need] if 0 <= need <= 45 else 0)
        assert got.false + got.true_not_exact + got.exact == 1


def test_wagers_the_player_already_holds_are_sure() -> None:
    odds = wager_odds(Wager(2, 5), (5, 5, 2), 9, TAVERN)
    assert odds.false == 0
    assert odds.exact == Fraction(5, 6) ** 6  # exact only if no unseen five
    assert wager_odds(Wager(4, 5), (5, 5, 2), 3, TAVERN) == WagerOdds(
        Fraction(1), Fraction(0), Fraction(0)
    )


def test_spectator_odds_count_every_die_as_unseen() -> None:
    assert as_tuple(wager_odds(Wager(2, 3), (), 3, TAVERN)) == brute_odds(
        Wager(2, 3), (), 3, 6, None
    )


# --------------------------------------------------------------------------- sum wagers


@pytest.mark.parametrize(
    ("sides", "own", "in_play"),
    [(6, (), 2), (6, (4,), 2), (6, (1,), 2), (6, (2,), 3), (4, (), 3), (8, (8,), 2)],
)
def test_sum_wager_odds_match_enumeration(
    sides: int, own: tuple[int, ...], in_play: int
) -> None:
    rules = LiarsDiceRules(sides=sides)
    for total in range(1, in_play * sides + 3):
        wager = SumWager(total)
        got = wager_odds(wager, own, in_play, rules)
        assert as_tuple(got) == brute_odds(wager, own, in_play, sides, None), total
        assert got.false + got.true_not_exact + got.exact == 1


def test_sum_distribution_matches_enumeration() -> None:
    for dice, sides in [(1, 6), (2, 6), (3, 6), (3, 4)]:
        counts: dict[int, int] = {}
        for roll in itertools.product(range(1, sides + 1), repeat=dice):
            counts[sum(roll)] = counts.get(sum(roll), 0) + 1
        expected = {s: Fraction(c, sides**dice) for s, c in counts.items()}
        assert sum_distribution(dice, sides) == expected


def test_sum_wager_ignores_the_wild_face() -> None:
    # L10 wagers are on the sum of the faces; a wild face changes nothing there.
    wild = TAVERN.replace(wild_face=6)
    assert wager_odds(SumWager(9), (5,), 2, wild) == wager_odds(SumWager(9), (5,), 2, TAVERN)
    assert wager_odds(SumWager(9), (5,), 2, TAVERN).true == Fraction(3, 6)


# --------------------------------------------------------------------------- floats


def test_float_odds_agree_with_the_exact_ones() -> None:
    rng = random.Random(11)
    for _ in range(300):
        rules = rng.choice([TAVERN, OPENSPIEL, TAVERN.replace(wild_face=1, sides=8)])
        in_play = rng.randint(1, 30)
        own = tuple(rng.randint(1, rules.sides) for _ in range(rng.randint(0, min(5, in_play))))
        wager: AnyWager
        if rng.random() < 0.2:
            wager = SumWager(rng.randint(1, in_play * rules.sides + 1))
        else:
            wager = Wager(rng.randint(1, in_play + 1), rng.randint(1, rules.sides))
        exact = wager_odds(wager, own, in_play, rules)
        fast = wager_odds_float(wager, own, in_play, rules)
        for a, b in zip(as_tuple(exact), (fast.false, fast.true_not_exact, fast.exact),
                        strict=True):
            assert b == pytest.approx(float(a), abs=1e-15)
        assert true_probability(wager, own, in_play, rules) == pytest.approx(
            float(exact.true), abs=1e-15
        )
        assert exact.as_floats().false == float(exact.false)


def test_expected_count() -> None:
    assert expected_count(4, (4, 1, 2), 12, TAVERN) == 1 + Fraction(9, 6)
    assert expected_count(4, (4, 6, 2), 12, OPENSPIEL) == 2 + Fraction(9 * 2, 6)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("wager", "own", "in_play", "error", "words"),
    [
        (Wager(2, 7), (1,), 4, OddsError, "1-6"),
        (Wager(2, 0), (1,), 4, OddsError, "1-6"),
        (Wager(0, 3), (1,), 4, OddsError, "at least 1"),
        (SumWager(0), (1,), 2, OddsError, "positive"),
        (Wager(2, 3), (1, 7), 4, InvalidDiceError, "1 to 6"),
        (Wager(2, 3), (1, 2, 3), 2, OddsError, "at least 3"),
    ],
)
def test_bad_input_raises_a_tavern_error_naming_the_legal_range(
    wager: AnyWager, own: tuple[int, ...], in_play: int, error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=words) as caught:
        wager_odds(wager, own, in_play, TAVERN)
    assert isinstance(caught.value, TavernError)


def test_view_odds_needs_a_wager() -> None:
    game = LiarsDiceGame(2, dice=SeededDice(4))
    with pytest.raises(OddsError, match="no wager"):
        view_odds(game.view(0))


# --------------------------------------------------------------------------- costs


def test_outcome_costs_follow_l8() -> None:
    costs = outcome_costs(2, 0, (0, 2, 3, 5), TAVERN)
    assert (costs.false, costs.true_not_exact, costs.exact) == ((2,), (0,), (0, 3, 5))
    assert costs.losers("spot-on") == (0, 3, 5) and costs.losers("true") == (0,)
    no_spot = outcome_costs(2, 0, (0, 2, 3, 5), OPENSPIEL)
    assert no_spot.exact == (0,) and no_spot.exact_outcome == "true"
    with pytest.raises(OddsError, match="unknown outcome"):
        no_spot.losers("spot-on")
    with pytest.raises(OddsError, match="cannot accuse"):
        outcome_costs(1, 1, (0, 1), TAVERN)
    with pytest.raises(OddsError, match="in the game"):
        outcome_costs(1, 4, (0, 1), TAVERN)


def test_expected_dice_lost_adds_up_the_outcomes() -> None:
    odds = wager_odds(Wager(3, 5), (5, 2), 8, TAVERN)
    lost = expected_dice_lost(odds, outcome_costs(0, 1, (0, 1, 2, 3), TAVERN))
    assert lost[0] == odds.false
    assert lost[1] == odds.true
    assert lost[2] == lost[3] == odds.exact
    # Every outcome costs somebody at least one die.
    assert sum(lost.values()) >= 1


@pytest.mark.parametrize("rules", [TAVERN, OPENSPIEL, TAVERN.replace(wild_face=2)])
def test_costs_and_counts_agree_with_the_engine_on_every_reveal(rules: LiarsDiceRules) -> None:
    checked = 0
    outcomes: set[str] = set()
    for seed in range(12):
        players = 2 + seed % 4
        game = LiarsDiceGame(players, rules=rules, dice=SeededDice(seed))
        bots = [RandomLiarsDiceBot(seed=100 * seed + s) for s in range(players)]
        play_liars_dice(game, bots)
        counts: tuple[int, ...] = ()
        accused: Accused | None = None
        wager: AnyWager | None = None
        for event in game.log:
            if isinstance(event, RoundStarted):
                counts = event.dice_counts
            elif isinstance(event, Accused):
                accused = event
            elif isinstance(event, Revealed):
                assert accused is not None and wager is not None
                table = [f for hand in event.hands for f in hand]
                if isinstance(wager, SumWager):
                    value, claim = sum(table), wager.total
                else:
                    value, claim = matching_dice(table, wager.face, rules), wager.quantity
                assert value == event.count
                in_game = tuple(s for s, c in enumerate(counts) if c > 0)
                costs = outcome_costs(accused.wager_maker, accused.accuser, in_game, rules)
                category = "false" if value < claim else "exact" if value == claim else "true"
                expected_losers = costs.losers("true_not_exact" if category == "true" else
                                               category)
                assert event.losers == expected_losers
                assert event.losers == costs.losers(event.outcome)
                outcomes.add(event.outcome)
                checked += 1
            elif isinstance(event, WagerMade):
                wager = event.wager
    assert checked >= 20
    assert outcomes == ({"false", "true", "spot-on"} if rules.spot_on else {"false", "true"})


def test_view_odds_use_the_seats_own_dice() -> None:
    # 2 players, 2 dice each; roll-off (6,6) vs (1,1); hands (5,5) and (2,3).
    dice = ScriptedDice([(6, 6), (1, 1), (5, 5), (2, 3)])
    game = LiarsDiceGame(2, rules=TAVERN.replace(dice_per_player=2), dice=dice)
    game.wager(Wager(3, 5))
    assert view_odds(game.view(0)) == wager_odds(Wager(3, 5), (5, 5), 4, TAVERN)
    assert view_odds(game.view(0)).false == Fraction(5, 6) ** 2  # needs 1 five of 2 unseen
    assert view_odds(game.view(1)).false == 1  # needs 3 fives of 2 unseen
    assert view_odds(game.view(1), Wager(1, 2)).false == 0
