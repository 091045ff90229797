"""``tavern simulate`` through Typer's CliRunner (issue 3): the table, ``--json`` that
parses and agrees with the library, ``--plot``, ruleset options and bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.cli import app
from tavern_dice.play.simulate import simulate_liars_dice


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.output


def test_liars_dice_json_parses_and_matches_the_library() -> None:
    code, out, _ = invoke("simulate", "liars-dice", "--bots", "probabilistic,random,random",
                          "--games", "12", "--seed", "4", "--workers", "1", "--json")
    assert code == 0, out
    data = json.loads(out)
    expected = simulate_liars_dice(["probabilistic", "random", "random"], 12, 4, workers=1)
    assert data == json.loads(json.dumps(expected.to_dict()))
    assert [r["label"] for r in data["results"]] == ["probabilistic", "random 1", "random 2"]
    assert sum(r["wins"] for r in data["results"]) == 12
    low, high = data["results"][0]["ci95"]
    assert low <= data["results"][0]["win_rate"] <= high
    assert data["even_share"] == 1 / 3


def test_liars_dice_table_ruleset_options_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "results.png"
    code, out, output = invoke(
        "simulate", "liars-dice", "--bots", "strong,random", "--games", "6", "--seed", "2",
        "--workers", "1", "--dice-per-player", "2", "--wild-face", "1", "--no-spot-on",
        "--raise-rule", "standard", "--plot", str(plot),
    )
    assert code == 0, output
    assert "Liar's Dice: 6 games, seed 2" in out and "strong" in out and "random" in out
    assert "even share 50.0 %" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, _ = invoke(
        "simulate", "liars-dice", "--bots", "random,random", "--games", "3", "--workers", "1",
        "--dice-per-player", "2", "--wild-face", "1", "--no-spot-on", "--json",
    )
    rules = json.loads(out)["rules"]
    assert (rules["dice_per_player"], rules["wild_face"], rules["spot_on"]) == (2, 1, False)


def test_blackjack_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "bj.png"
    code, out, output = invoke("simulate", "blackjack", "--bots", "optimal,cautious:4",
                               "--rounds", "150", "--workers", "1", "--json",
                               "--plot", str(plot))
    assert code == 0, output
    data = json.loads(out)
    assert [r["label"] for r in data["results"]] == ["optimal", "cautious:4"]
    assert [r["rounds"] for r in data["results"]] == [150, 150]
    assert data["results"][0]["exact"] == pytest.approx(0.0093739, abs=1e-7)
    assert plot.exists() and plot.stat().st_size > 1000
    code, out, _ = invoke("simulate", "blackjack", "--bots", "optimal", "--rounds", "120",
                          "--workers", "1")
    assert code == 0 and "mean payout" in out and "+0.0094" in out


def test_bad_options_are_usage_errors() -> None:
    code, _, output = invoke("simulate", "liars-dice", "--bots", "strong,sharp", "--games", "2")
    assert code == 2 and "unknown bot 'sharp'" in output
    code, _, output = invoke("simulate", "liars-dice", "--bots", "strong", "--games", "2",
                             "--workers", "1")
    assert code == 2 and "2-10 bots" in output
    code, _, output = invoke("simulate", "blackjack", "--bots", "optimal:9", "--rounds", "5",
                             "--workers", "1")
    assert code == 2 and "proficiency" in output
