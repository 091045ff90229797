"""The Dice Blackjack table options the DM's dial names (issue 11, item 5), on the command
line: ``--exact-payout N:D`` and ``--max-added-bonus N`` for ``play``, ``simulate`` and
``odds``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.cli import app
from tavern_dice.strategy.blackjack.solver import house_edge

RULES = TAVERN.replace(exact_numerator=6, exact_denominator=5, max_added_bonus=1)
FLAGS = ["--exact-payout", "6:5", "--max-added-bonus", "1"]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_play_blackjack_plays_the_table_options(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = invoke("play", "blackjack", "--bots", "optimal:6,bold:4", "--rounds", "4",
                       "--seed", "2", "--save", str(save), *FLAGS)
    assert code == 0, out
    assert "exact numerator 6, exact denominator 5, max added bonus 1" in " ".join(out.split())
    log = json.loads(save.read_text())
    assert BlackjackRules.from_dict(log["rules"]) == RULES
    code, out = invoke("replay", str(save))
    assert code == 0, out


def test_simulate_blackjack_uses_the_table_options() -> None:
    code, out = invoke("simulate", "blackjack", "--bots", "optimal:6", "--rounds", "200",
                       "--seed", "1", "--workers", "1", "--json", *FLAGS)
    assert code == 0, out
    (result,) = json.loads(out)["results"]
    assert Fraction(result["exact_fraction"]) == -house_edge(RULES, 6) == -house_edge(RULES, 2)


def test_odds_blackjack_shows_the_table_options() -> None:
    code, out = invoke("odds", "blackjack", *FLAGS)
    assert code == 0, out
    assert "PB 6 (+1)" in out  # the cap applies to every proficiency
    edge = float(house_edge(RULES, 2)) * 100
    assert f"{edge:+.3f} %" in out


def test_bad_table_options_say_what_would_do() -> None:
    code, out = invoke("play", "blackjack", "--bots", "bold", "--exact-payout", "six to five")
    assert code == 2 and "written as odds such as 3:2" in " ".join(out.replace("│", " ").split())
    code, out = invoke("simulate", "blackjack", "--bots", "bold", "--max-added-bonus", "-1")
    assert code == 2 and "--max-added-bonus" in out
