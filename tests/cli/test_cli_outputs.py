"""Output files (``--save``, ``--plot``) are checked by actually opening them before any
game or analysis runs, an existing ``--save`` file is kept unless ``--overwrite``, a chart
that cannot be written after all is one line and no traceback, and ``--seed`` is 0 or
more. Run through the ``tavern`` console script, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import matplotlib
import pytest

from tavern_dice.cli.outputs import save_figure

TAVERN = Path(sys.executable).with_name("tavern")
# Creating a file in /proc fails even for root, whom os.access lets "write" anywhere.
UNWRITABLE = "/proc/tavern-dice-test"


def tavern(*args: str, cwd: Path | None = None) -> tuple[int, str]:
    done = subprocess.run([str(TAVERN), *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, stdin=subprocess.DEVNULL, check=False)
    return done.returncode, " ".join((done.stdout + done.stderr).replace("│", " ").split())


def test_play_refuses_a_save_file_that_cannot_be_created_before_the_game() -> None:
    code, text = tavern("play", "liars-dice", "--bots", "random,random", "--seed", "3",
                        "--save", f"{UNWRITABLE}.json")
    assert code == 2, text
    assert f"cannot write {UNWRITABLE}.json" in text and "--save" in text
    assert "Players:" not in text and "Traceback" not in text


def test_play_keeps_an_existing_save_file_unless_told_to_overwrite(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.write_text("my other game\n", encoding="utf-8")
    args = ("play", "blackjack", "--bots", "cautious", "--rounds", "1", "--seed", "2",
            "--save", str(save))
    code, text = tavern(*args)
    assert code == 2, text
    assert "already exists" in text and "--overwrite" in text
    assert save.read_text(encoding="utf-8") == "my other game\n"
    code, text = tavern(*args, "--overwrite")
    assert code == 0, text
    assert json.loads(save.read_text(encoding="utf-8"))["game"] == "blackjack"


@pytest.mark.parametrize("command", [
    ("odds", "blackjack"),
    ("simulate", "blackjack", "--bots", "cautious", "--rounds", "2", "--workers", "1"),
    ("simulate", "liars-dice", "--bots", "random,random", "--games", "2", "--workers", "1"),
])
def test_an_unwritable_plot_is_refused_before_the_work(command: tuple[str, ...]) -> None:
    code, text = tavern(*command, "--plot", f"{UNWRITABLE}.png")
    assert code == 2, text
    assert f"cannot write {UNWRITABLE}.png" in text and "--plot" in text
    assert "Traceback" not in text


def test_review_refuses_an_unwritable_plot_before_reviewing(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, text = tavern("play", "liars-dice", "--bots", "random,random", "--seed", "4",
                        "--save", str(save))
    assert code == 0, text
    code, text = tavern("review", str(save), "--plot", f"{UNWRITABLE}.png")
    assert code == 2, text
    assert f"cannot write {UNWRITABLE}.png" in text and "Traceback" not in text


@pytest.mark.parametrize("command", [
    ("play", "liars-dice", "--bots", "random,random"),
    ("simulate", "liars-dice", "--bots", "random,random", "--games", "2"),
])
def test_a_negative_seed_is_refused(command: tuple[str, ...]) -> None:
    code, text = tavern(*command, "--seed", "-1")
    assert code == 2, text
    assert "--seed" in text and "greater than or equal to 0" in text


def test_a_chart_that_cannot_be_written_after_all_is_an_error_line(tmp_path: Path) -> None:
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, _ = plt.subplots()
    with pytest.raises(click.ClickException, match=r"cannot write the chart to .*gone"):
        save_figure(fig, tmp_path / "gone" / "chart.png")
    plt.close(fig)
