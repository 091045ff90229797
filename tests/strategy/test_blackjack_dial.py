"""The DM's house-edge dial (issue 11, item 5): ``tavern odds blackjack --edge 2%``.

The dial's candidates carry the solver's exact edges; the rules it picks are then played
two more ways: their optimal policy evaluated exactly with the engine's own adjudication
(``house_roll``, ``settle`` in copper), and a seeded simulation of optimal bots at the
table's bonuses whose 95 % intervals hold the exact figures.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tavern_dice.blackjack.actions import Stand
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules, parse_payout
from tavern_dice.blackjack.settlement import house_roll, settle
from tavern_dice.cli import app
from tavern_dice.cli.options import blackjack_rules
from tavern_dice.errors import RulesetError
from tavern_dice.play.simulate import BlackjackEntry, simulate_blackjack
from tavern_dice.strategy.blackjack.dial import (
    PAYOUTS,
    candidates,
    dial,
    parse_edge,
    proficiency_for_bonus,
)
from tavern_dice.strategy.blackjack.solver import house_edge, solve

ALL = (0, 1, 2, 3)


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def play_exactly(rules: BlackjackRules, bonus: int) -> Fraction:
    """The expected payout per unit bet of the solver's moves, each outcome settled by the
    engine's ``house_roll`` and ``settle`` (in cp; a 20 cp bet makes every payout tried a
    whole number of cp), over every target and every pair of house dice."""
    pb = proficiency_for_bonus(bonus, rules)
    best = solve(rules, pb)
    bet, sides = 20, rules.player_sides
    expected = Fraction(0)
    for target in range(1, rules.target_sides + 1):
        if target == 1 and rules.target_one_collects:  # B4: collected at once
            expected -= Fraction(1, rules.target_sides)
            continue
        faces = range(1, rules.house_sides + 1)
        houses = Counter(house_roll(rules, target, (a, b)) for a in faces for b in faces)
        for house, ways in houses.items():
            memo: dict[int, Fraction] = {}

            def value(total: int, target: int = target, house: int | None = house,
                      memo: dict[int, Fraction] = memo) -> Fraction:
                if total > target:
                    return Fraction(settle(rules, bet, None, target=target, house=house)[1], bet)
                if total not in memo:
                    if total and isinstance(best.action(target, house, total), Stand):
                        add = best.bonus(target, house, total)
                        assert add <= rules.bonus_cap(pb) and total + add <= target  # B7
                        gain = settle(rules, bet, total + add, target=target, house=house)[1]
                        memo[total] = Fraction(gain, bet)
                    else:
                        memo[total] = sum(
                            (value(total + f) for f in range(1, sides + 1)), Fraction(0)
                        ) / sides
                return memo[total]

            expected += Fraction(ways, len(faces) ** 2 * rules.target_sides) * value(0)
    return expected


def test_the_seed_gives_the_players_the_edge_the_readme_quotes() -> None:
    edges = [float(house_edge(TAVERN, proficiency_for_bonus(b))) for b in ALL]
    assert edges == pytest.approx([-0.00937, -0.16732, -0.29932, -0.40861], abs=1e-5)


def test_the_dial_tries_every_combination_with_exact_edges() -> None:
    tried = candidates(ALL)
    assert len(tried) == len(PAYOUTS) * 2 * 2 * 4  # payouts, ties, under, caps none/0/1/2
    assert len({c.rules for c in tried}) == len(tried)
    capped = [c for c in tried if c.rules.max_added_bonus is not None][::5]
    for cand in capped[:3]:  # the cap's shortcut agrees with solving the capped rules
        assert cand.edges == tuple(
            house_edge(cand.rules, proficiency_for_bonus(b)) for b in ALL
        )
    seed = next(c for c in tried if c.changes == 0)
    assert seed.rules == TAVERN and seed.flags() == []


@pytest.mark.parametrize(
    ("target", "bonuses", "flags"),
    [
        ("2%", ALL, ["--exact-payout", "6:5", "--max-added-bonus", "0"]),
        ("5%", (0,), ["--exact-payout", "6:5", "--house-exact-beats-player-exact"]),
        ("-10%", ALL, ["--house-needs-under", "--max-added-bonus", "0"]),
        ("-0.937%", (0,), []),
    ],
)
def test_the_dial_picks_the_closest_rules(target: str, bonuses: tuple[int, ...],
                                          flags: list[str]) -> None:
    result = dial(parse_edge(target), bonuses)
    chosen = result.chosen
    assert chosen.flags() == flags
    distance = abs(chosen.table_edge - result.target)
    assert all(abs(c.table_edge - result.target) >= distance for c in result.candidates)
    assert chosen.table_edge == sum(chosen.edges, Fraction(0)) / len(bonuses)


@pytest.mark.parametrize(("target", "bonuses"), [("2%", ALL), ("5%", (0,)), ("-10%", ALL)])
def test_the_chosen_rules_played_exactly_give_the_edge(
    target: str, bonuses: tuple[int, ...]
) -> None:
    chosen = dial(parse_edge(target), bonuses).chosen
    for bonus, edge in zip(bonuses, chosen.edges, strict=True):
        assert play_exactly(chosen.rules, bonus) == -edge


def test_a_seeded_simulation_of_the_chosen_rules_agrees() -> None:
    """``tavern odds blackjack --edge 2%``'s rules, played by optimal bots at +0..+3."""
    chosen = dial(Fraction(2, 100), ALL).chosen
    rules = blackjack_rules(TAVERN, house_needs_under=None, house_exact_beats_player_exact=None,
                            min_bet=None, max_bet=None, exact_payout="6:5", max_added_bonus=0)
    assert rules == chosen.rules  # the printed flags play exactly these rules
    entries = [BlackjackEntry("optimal", proficiency_for_bonus(b)) for b in ALL]
    result = simulate_blackjack(entries, rounds=6000, seed=1, workers=1, rules=rules)
    for bot, edge in zip(result.bots, chosen.edges, strict=True):
        assert bot.exact == -edge
        assert bot.low <= float(-edge) <= bot.high
    table_mean = sum(bot.mean for bot in result.bots) / len(result.bots)
    assert table_mean == pytest.approx(float(-chosen.table_edge), abs=0.02)


def test_tavern_odds_blackjack_edge_prints_every_candidate_and_the_choice() -> None:
    code, out = invoke("odds", "blackjack", "--edge", "2%")
    assert code == 0, out
    assert "→   6:5    no     no    +0  +1.83%   +1.83%   +1.83%   +1.83%   +1.83%" in out
    assert out.count("%") > 64 * 5  # every candidate's edges
    assert "an exact hit pays 6:5, players add at most +0" in " ".join(out.split())
    assert "+1.833 %" in out and "351401436986328707554073/" in out
    assert "tavern play blackjack --exact-payout 6:5 --max-added-bonus 0" in out
    assert ("tavern simulate blackjack --bots optimal,optimal:2,optimal:4,optimal:6 "
            "--exact-payout 6:5 --max-added-bonus 0") in out


def test_tavern_odds_blackjack_edge_takes_the_tables_bonuses() -> None:
    code, out = invoke("odds", "blackjack", "--edge", "5%", "--bonuses", "+0")
    assert code == 0, out
    assert "--exact-payout 6:5 --house-exact-beats-player-exact" in out
    assert "+0: house edge" in out and "+1: house edge" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edge", "lots"], "a house edge is a percentage such as 2%"),
        (["--edge", "2%", "--bonuses", "0,4"], "a bonus added on standing is +0 to +3, not 4"),
        (["--edge", "2%", "--bonuses", "one"], "bonuses are whole numbers"),
        (["--edge", "2%", "--exact-payout", "6:5"], "drop --exact-payout"),
        (["--exact-payout", "6-5"], "written as odds such as 3:2"),
    ],
)
def test_bad_dial_input_says_what_would_do(args: list[str], message: str) -> None:
    code, out = invoke("odds", "blackjack", *args)
    assert code == 2
    assert message in " ".join(out.replace("│", " ").split())


def test_edges_and_payouts_are_read_exactly() -> None:
    assert parse_edge("2%") == Fraction(1, 50) == parse_edge("0.02")
    assert parse_edge(" -1.5 % ") == Fraction(-3, 200)
    assert parse_payout("6:5") == (6, 5)
    with pytest.raises(RulesetError):
        parse_payout("6:0")
    with pytest.raises(RulesetError, match="give at least one bonus"):
        candidates(())
