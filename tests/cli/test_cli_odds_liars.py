"""``tavern odds liars-dice`` (issue 3): the three outcome chances as printed match
:mod:`tavern_dice.strategy.liars_dice.odds`, with who loses a die under the ruleset."""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tavern_dice.cli import app
from tavern_dice.cli.odds_liars import parse_dice
from tavern_dice.errors import InvalidDiceError
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.wager import SumWager, Wager
from tavern_dice.strategy.liars_dice.odds import wager_odds


def odds(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["odds", "liars-dice", *args], env={"COLUMNS": "200"})
    return result.exit_code, result.output


def row(output: str, label: str) -> list[str]:
    """The cells of the table row that starts with ``label``."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if cells and cells[0] == label:
            return cells
    raise AssertionError(f"no row {label!r} in:\n{output}")


def test_the_issue_example_prints_the_exact_odds() -> None:
    code, out = odds("--dice-in-play", "12", "--mine", "2,2,5,6,6", "--wager", "4x2")
    assert code == 0, out
    expected = wager_odds(Wager(4, 2), (2, 2, 5, 6, 6), 12, TAVERN)
    for label, p in (("false", expected.false), ("true, not exact", expected.true_not_exact),
                     ("exact (spot-on)", expected.exact)):
        cells = row(out, label)
        assert Fraction(cells[1]) == p
        assert cells[2] == f"{float(p) * 100:.2f} %"
    # Hand check: 2 more twos needed among 7 unseen dice; P(none or one) = (5/6)^7 + 7(1/6)(5/6)^6.
    assert expected.false == Fraction(5, 6) ** 7 + 7 * Fraction(1, 6) * Fraction(5, 6) ** 6
    assert row(out, "false")[3] == "the wager-maker"
    assert row(out, "true, not exact")[3] == "the accuser"
    assert row(out, "exact (spot-on)")[3] == "the accuser and the other player (2 dice)"
    assert Fraction(row(out, "wager holds")[1]) == expected.true
    assert "You hold 2 that count; 2 more needed among the 7 unseen dice" in out


def test_players_wild_face_and_no_spot_on() -> None:
    code, out = odds("-d", "20", "-m", "1 3 3", "-w", "5 threes", "--players", "4",
                     "--wild-face", "1")
    assert code == 0, out
    rules = TAVERN.replace(wild_face=1)
    expected = wager_odds(Wager(5, 3), (1, 3, 3), 20, rules)
    assert Fraction(row(out, "exact (spot-on)")[1]) == expected.exact
    assert row(out, "exact (spot-on)")[3] == "the accuser and each other player (3 dice)"
    assert "each counting with chance 1/3 (a 3 or the wild 1)" in out
    code, out = odds("-d", "20", "-m", "133", "-w", "5x3", "--no-spot-on", "--players", "4")
    assert code == 0, out
    plain = wager_odds(Wager(5, 3), (1, 3, 3), 20, TAVERN)
    assert Fraction(row(out, "exact (counts as true)")[1]) == plain.exact
    assert row(out, "exact (counts as true)")[3] == "the accuser"


def test_sum_wager_in_the_endgame() -> None:
    code, out = odds("--dice-in-play", "2", "--mine", "3", "--wager", "sum 7")
    assert code == 0, out
    expected = wager_odds(SumWager(7), (3,), 2, TAVERN)
    assert (expected.false, expected.exact) == (Fraction(1, 2), Fraction(1, 6))
    assert Fraction(row(out, "false")[1]) == expected.false
    assert row(out, "exact (spot-on)")[2] == "16.67 %"
    assert row(out, "exact (spot-on)")[3] == "the accuser"  # two players: nobody else
    assert "note:" not in out
    code, out = odds("--dice-in-play", "6", "--mine", "3", "--wager", "sum 12")
    assert code == 0 and "note:" in out


def test_bad_input_is_a_usage_error() -> None:
    for args, message in (
        (["-d", "3", "-m", "3,4,5,6", "-w", "4x2"], "at least 4"),
        (["-d", "6", "-m", "3,9", "-w", "4x2"], "not 9"),
        (["-d", "6", "-m", "3,x", "-w", "4x2"], "cannot read"),
        (["-d", "6", "-w", "four twos"], "cannot read"),
        (["-d", "3", "-w", "2x2", "--players", "4"], "at least 4 dice"),
    ):
        code, out = odds(*args)
        assert code == 2, (args, out)
        assert message in " ".join(out.replace("│", " ").split()), (args, out)


def test_parse_dice() -> None:
    assert parse_dice("6,6, 1") == (6, 6, 1)
    assert parse_dice("") == ()
    with pytest.raises(InvalidDiceError):
        parse_dice("two")
