"""Bad options to ``tavern solve``, ``simulate``, ``odds`` and ``replay`` end in a usage
error that names the option and what is legal, never a traceback or a hang."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.cli import app
from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundSpec


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, " ".join(result.output.replace("│", " ").split())


def test_solve_names_the_legal_raise_rules() -> None:
    code, text = invoke("solve", "liars-dice", "--raise-rule", "bogus")
    assert code == 2
    assert "unknown raise rule 'bogus'; known: either, standard, face-major" in text
    assert "RaiseRule" not in text


@pytest.mark.parametrize("option", ["--check-every", "--max-iterations"])
def test_solve_refuses_a_zero_budget_or_step(option: str) -> None:
    code, text = invoke("solve", "liars-dice", option, "0")
    assert code == 2
    assert option in text


def test_solve_round_refuses_check_every_zero() -> None:
    with pytest.raises(TavernError, match="check_every must be >= 1"):
        solve_round(RoundSpec((1, 1)), check_every=0, max_iterations=5)


def test_solve_takes_the_shared_ruleset_flags() -> None:
    code, text = invoke("solve", "liars-dice", "--dice-per-player", "1", "--wild-face", "0",
                        "--no-sum-endgame", "--no-spot-on", "--max-iterations", "3")
    assert code == 0, text
    assert "3 iterations" in text


def test_solve_refuses_an_unwritable_output_before_solving(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "p.npz"
    code, text = invoke("solve", "liars-dice", "--output", str(missing))
    assert code == 2
    assert "--output" in text and "does not exist" in text
    assert "iterations" not in text


def test_simulate_refuses_an_unwritable_plot_before_simulating(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "r.png"
    code, text = invoke("simulate", "liars-dice", "--bots", "random,random", "--games", "2",
                        "--workers", "1", "--plot", str(missing))
    assert code == 2
    assert "--plot" in text and "does not exist" in text


def test_a_ruleset_refusal_names_the_flag() -> None:
    code, text = invoke("odds", "liars-dice", "-d", "10", "-w", "3 fives", "--wild-face", "9")
    assert code == 2
    assert "Invalid value for --wild-face" in text
    assert "--wild-face 0: no wild face" in text


def test_replay_of_a_log_without_a_game_says_what_a_log_names(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("{}")
    code, text = invoke("replay", str(path))
    assert code == 2
    assert "names no game" in text and "'liars-dice' or 'blackjack'" in text
    assert "None" not in text
