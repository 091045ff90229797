"""Dice Blackjack solver checked against independent code (issue 3 "Strategy").

The reference functions here re-read the seed rules from scratch (B3-B8) and
enumerate dice outcomes one by one; they share nothing with the solver.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.blackjack.actions import Roll, Stand
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.cli import app
from tavern_dice.cli.odds_blackjack import format_edge
from tavern_dice.errors import TavernError
from tavern_dice.strategy.blackjack.solver import (
    Policy,
    bold_policy,
    cautious_policy,
    house_distribution,
    house_edge,
    house_edges,
    policy_value,
    solve,
)

EXACT_BEATS = TAVERN.replace(house_exact_beats_player_exact=True)
NEEDS_UNDER = TAVERN.replace(house_needs_under=True)


# --------------------------------------------------------------------------- reference code


def ref_payout(final: int, target: int, house: int | None, exact_beats: bool = False) -> Fraction:
    """B8 straight from the seed: bust -1, exact +3/2, closer than the house +1, else -1."""
    if final > target:
        return Fraction(-1)
    if final == target:
        return Fraction(-1) if exact_beats and house == target else Fraction(3, 2)
    if house is None:  # "all a player needs to do is not bust in order to win"
        return Fraction(1)
    return Fraction(1) if target - final < target - house else Fraction(-1)


def ref_stand(total: int, target: int, house: int | None, cap: int, exact_beats: bool) -> Fraction:
    """Standing with the best of every legal bonus 0..cap that keeps the total <= target."""
    return max(
        ref_payout(total + b, target, house, exact_beats)
        for b in range(cap + 1)
        if total + b <= target
    )


def brute_optimal(
    target: int, house: int | None, cap: int, total: int, exact_beats: bool = False
) -> Fraction:
    """Best expected payout from ``total``, trying every d12 sequence (no memo, no tables)."""
    outcomes = []
    for face in range(1, 13):
        if total + face > target:
            outcomes.append(Fraction(-1))
        else:
            outcomes.append(brute_optimal(target, house, cap, total + face, exact_beats))
    roll = sum(outcomes, Fraction(0)) / 12
    if total == 0:  # the first d12 is mandatory
        return roll
    return max(roll, ref_stand(total, target, house, cap, exact_beats))


def enumerate_policy(
    decide: Callable[[int], Roll | Stand], target: int, house: int | None, cap: int,
    exact_beats: bool,
) -> Fraction:
    """Expected payout of following ``decide(total)``: walks every d12 sequence as a
    list of faces, weighting each finished sequence by 12**-len."""
    expected = Fraction(0)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        seq = stack.pop()
        total = sum(seq)
        if total > target:
            expected += Fraction(-1, 12 ** len(seq))
        elif seq and isinstance(decide(total), Stand):
            expected += ref_stand(total, target, house, cap, exact_beats) / 12 ** len(seq)
        else:
            stack.extend((*seq, face) for face in range(1, 13))
    return expected


def ref_house(d1: int, d2: int, target: int, needs_under: bool) -> int | None:
    """B5: the higher house d20 not over the target (strictly under with the option)."""
    ok = [d for d in (d1, d2) if (d < target if needs_under else d <= target)]
    return max(ok) if ok else None


# --------------------------------------------------------------------------- (a) exact values

CASES = [
    # (rules, target, house, proficiency bonus)
    (TAVERN, 15, None, None),  # house bust
    (TAVERN, 15, 15, None),  # house on the target: only an exact hit wins
    (TAVERN, 14, 9, 2),
    (TAVERN, 13, 12, 4),  # +2 bonus can make the exact hit
    (TAVERN, 12, 1, 6),
    (TAVERN, 11, None, 5),
    (TAVERN, 2, 1, None),
    (EXACT_BEATS, 13, 13, None),  # nothing can win
    (EXACT_BEATS, 14, 12, 3),
]


@pytest.mark.parametrize(("rules", "target", "house", "pb"), CASES)
def test_values_match_brute_force(
    rules: BlackjackRules, target: int, house: int | None, pb: int | None
) -> None:
    solution = solve(rules, pb)
    cap = rules.bonus_cap(pb)
    beats = rules.house_exact_beats_player_exact
    for total in range(target, -1, -1):
        best = brute_optimal(target, house, cap, total, beats)
        assert solution.value(target, house, total) == best, total
        stand = ref_stand(total, target, house, cap, beats)
        assert solution.stand_value(target, house, total) == stand
        b = solution.bonus(target, house, total)
        assert 0 <= b <= cap and total + b <= target
        assert ref_payout(total + b, target, house, beats) == stand
        if total and isinstance(solution.action(target, house, total), Stand):
            assert stand >= solution.roll_value(target, house, total)
        elif total:
            assert solution.roll_value(target, house, total) > stand
    # Following the solver's own actions over every d12 sequence gives its value.
    followed = enumerate_policy(
        lambda t: solution.action(target, house, t), target, house, cap, beats
    )
    assert followed == solution.value(target, house)


def test_followed_policy_at_target_20() -> None:
    solution = solve(TAVERN, 2)
    for house in (1, 4, 9):

        def decide(total: int, house: int = house) -> Roll | Stand:
            return solution.action(20, house, total)

        assert enumerate_policy(decide, 20, house, 1, False) == solution.value(20, house)
    assert solution.stand_at(20, 1) == 9  # from 8 no d12 can bust, and an 11 or 12 hits 20
    assert solution.value(20, 1, 8) == (10 + 2 * Fraction(3, 2)) / 12  # 19 + 1 bonus = 20
    assert solution.bonus(20, 1, 19) == 1 and solve(TAVERN).bonus(20, 1, 19) == 0


@pytest.mark.parametrize(
    ("policy", "target", "house", "pb"),
    [
        (cautious_policy, 15, 6, None),
        (cautious_policy, 16, None, 2),
        (bold_policy, 14, 9, None),
        (bold_policy, 13, None, 6),
        (cautious_policy, 12, 11, 4),
    ],
)
def test_fixed_policy_values_match_enumeration(
    policy: Policy, target: int, house: int | None, pb: int | None
) -> None:
    cap = TAVERN.bonus_cap(pb)
    expected = enumerate_policy(lambda t: policy(t, target, house, cap), target, house, cap, False)
    assert policy_value(TAVERN, pb, policy, target, house) == expected
    assert expected <= solve(TAVERN, pb).value(target, house)


@pytest.mark.parametrize("rules", [TAVERN, NEEDS_UNDER])
def test_house_distribution_matches_all_pairs(rules: BlackjackRules) -> None:
    for target in range(1, 21):
        counts = Counter(
            ref_house(d1, d2, target, rules.house_needs_under)
            for d1, d2 in itertools.product(range(1, 21), repeat=2)
        )
        expected = {h: Fraction(n, 400) for h, n in counts.items()}
        assert house_distribution(rules, target) == expected


def test_exact_edges_and_policy_order() -> None:
    edges = {pb: house_edges(TAVERN, pb) for pb in (None, 2, 3, 4, 5, 6)}
    assert edges[None]["optimal"] == Fraction(-17968676018616568729747, 1916879996223737561088000)
    for pb, e in edges.items():
        assert e["optimal"] < e["cautious"] < e["bold"], pb
    # PB 3 and 4 both add at most +2, PB 5 and 6 at most +3 (B7: half, rounded up).
    assert edges[3] == edges[4] and edges[5] == edges[6]
    assert edges[None]["optimal"] > edges[2]["optimal"] > edges[4]["optimal"] > edges[6]["optimal"]
    # Every optimal cell is a threshold: roll below stand_at, stand from it on.
    solution = solve(TAVERN, None)
    assert all(
        solution.is_threshold(t, h) for t in range(2, 21) for h in house_distribution(TAVERN, t)
    )


def test_bad_situations_raise() -> None:
    solution = solve(TAVERN)
    with pytest.raises(TavernError):
        solution.action(1, 1, 0)  # B4: a target of 1 collects every bet, nothing is played
    with pytest.raises(TavernError):
        solution.value(10, 11, 0)  # house roll over the target
    with pytest.raises(TavernError):
        solution.value(20, None, 0)  # two d20s cannot both be over 20
    with pytest.raises(TavernError):
        solution.value(10, 5, 11)
    with pytest.raises(TavernError):
        solve(TAVERN, 7)
    with pytest.raises(TavernError):
        house_edge(TAVERN, 1, cautious_policy)


# --------------------------------------------------------------------------- (b) Monte Carlo


def test_monte_carlo_house_edge() -> None:
    pb = None
    solution = solve(TAVERN, pb)
    cap = TAVERN.bonus_cap(pb)
    actions = {
        (t, h, total): solution.action(t, h, total)
        for t in range(2, 21)
        for h in house_distribution(TAVERN, t)
        for total in range(1, t + 1)
    }
    bonuses = {key: solution.bonus(*key) for key, a in actions.items() if isinstance(a, Stand)}
    rng = random.Random(20240611)
    rounds = 200_000
    s = s2 = 0.0
    for _ in range(rounds):
        target = rng.randint(1, 20)
        if target == 1:
            pay = -1.0
        else:
            house = ref_house(rng.randint(1, 20), rng.randint(1, 20), target, False)
            total = rng.randint(1, 12)
            while total <= target and isinstance(actions[target, house, total], Roll):
                total += rng.randint(1, 12)
            final = total + bonuses.get((target, house, total), 0) if total <= target else total
            assert final - total <= cap
            pay = float(ref_payout(final, target, house))
        s += pay
        s2 += pay * pay
    mean = s / rounds
    se = math.sqrt((s2 / rounds - mean * mean) / rounds)
    assert abs(-mean - float(house_edge(TAVERN, pb))) < 4 * se
    assert abs(-mean - float(house_edge(TAVERN, pb, cautious_policy))) > 4 * se


# --------------------------------------------------------------------------- (c) options


def test_house_needs_under_weakens_the_house() -> None:
    dist = house_distribution(NEEDS_UNDER, 10)
    assert 10 not in dist and dist[None] == Fraction(11 * 11, 400)
    assert house_distribution(TAVERN, 10)[None] == Fraction(10 * 10, 400)
    assert house_edge(NEEDS_UNDER) < house_edge(TAVERN)
    # The house can never sit on the target, so "house exact beats player exact" is moot.
    both = NEEDS_UNDER.replace(house_exact_beats_player_exact=True)
    assert house_edge(both) == house_edge(NEEDS_UNDER)


def test_house_exact_beats_player_exact_only_touches_house_on_target() -> None:
    plain, beats = solve(TAVERN), solve(EXACT_BEATS)
    assert plain.value(12, 12, 12) == Fraction(3, 2)
    assert beats.value(12, 12, 12) == -1
    assert beats.value(12, 12) == -1  # nothing can win against a house on the target
    assert beats.value(12, 11) == plain.value(12, 11)
    assert beats.value(12, None) == plain.value(12, None)
    assert house_edge(EXACT_BEATS) > house_edge(TAVERN)


def test_target_one_played_when_not_collected() -> None:
    played = TAVERN.replace(target_one_collects=False)
    # d12 first roll: a 1 hits the target (3/2), anything else busts: (3/2 - 11) / 12.
    assert solve(played).target_value(1) == Fraction(-19, 24)
    assert house_edge(TAVERN) - house_edge(played) == Fraction(1, 20) * (1 - Fraction(19, 24))
    assert solve(TAVERN).target_value(1) == -1


def test_exact_payout_option() -> None:
    rich = TAVERN.replace(exact_numerator=2, exact_denominator=1)
    assert solve(rich).stand_value(20, 5, 20) == 2
    assert house_edge(rich) < house_edge(TAVERN)


# --------------------------------------------------------------------------- (d) CLI


def test_cli_prints_edges_and_chart() -> None:
    result = CliRunner().invoke(app, ["odds", "blackjack", "--fractions"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    for name in ("optimal", "cautious", "bold"):
        assert format_edge(house_edges(TAVERN, None)[name]) in result.output
        assert format_edge(house_edges(TAVERN, 6)[name]) in result.output
    assert "-17968676018616568729747/1916879996223737561088000" in result.output
    rows = [line.split() for line in result.output.splitlines()]
    row20 = next(r for r in rows if len(r) == 22 and r[0] == "20")
    assert row20 == ["20", *["9"] * 8, *map(str, range(10, 21)), "20", "·"]


def test_cli_options_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    result = CliRunner().invoke(
        app,
        ["odds", "blackjack", "--house-needs-under", "--proficiency", "4", "--plot", str(png)],
        env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    assert format_edge(house_edge(NEEDS_UNDER, 4)) in result.output
    assert "PB 4 (+2)" in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    bad = CliRunner().invoke(app, ["odds", "blackjack", "--proficiency", "9"])
    assert bad.exit_code != 0
