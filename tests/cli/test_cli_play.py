"""``tavern play`` and ``tavern replay`` through Typer's CliRunner: all-bot games, saved
logs, and bad options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.cli import app
from tavern_dice.liars_dice.state import LiarsDiceGame

LIARS_BOTS = ["play", "liars-dice", "--players", "4", "--bots",
              "probabilistic,probabilistic,random,random", "--seed", "7"]
BLACKJACK_BOTS = ["play", "blackjack", "--bots", "cautious,bold", "--rounds", "20", "--seed", "3"]


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), input=input)
    return result.exit_code, result.output


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def test_all_bot_liars_dice_runs_to_a_winner_and_repeats_exactly() -> None:
    code, first = run(*LIARS_BOTS)
    assert code == 0, first
    code, second = run(*LIARS_BOTS)
    assert second == first
    winner = re.search(r"^Winner: (\w+) after (\d+) rounds?\.$", first, re.MULTILINE)
    assert winner is not None, first[-500:]
    assert winner.group(1) in {"Bo", "Cy", "Di", "Ed"}
    assert f"★ {winner.group(1)} wins the game!" in first
    # An unattended game shows every hand as it is rolled, and every reveal.
    assert first.count("Everyone rolls in secret:") == int(winner.group(2))
    assert first.count("All dice are revealed:") == int(winner.group(2))
    assert "Dice seeded with --seed 7." in first


def test_a_different_seed_plays_a_different_game() -> None:
    _, seven = run(*LIARS_BOTS)
    _, eight = run(*LIARS_BOTS[:-1], "8")
    assert seven.splitlines()[3:] != eight.splitlines()[3:]


def test_all_bot_blackjack_ends_with_every_balance_and_repeats_exactly() -> None:
    code, first = run(*BLACKJACK_BOTS)
    assert code == 0, first
    assert run(*BLACKJACK_BOTS)[1] == first
    rounds = re.findall(r"^Round (\d+) ", first, re.MULTILINE)
    last = int(rounds[-1])
    assert rounds == [str(n) for n in range(1, last + 1)]  # each round shown once, in order
    assert 1 <= last <= 20
    balances = re.search(r"^Balances: Bo (.+) \(.+\), Cy (.+) \(.+\)$", first, re.MULTILINE)
    assert balances is not None, first[-500:]
    # The last settlement row of each bot shows the balance that the summary repeats.
    for bot, balance in (("Bo", balances.group(1)), ("Cy", balances.group(2))):
        rows = [line for line in first.splitlines() if line.startswith(f"  {bot}  ")]
        assert rows, bot
        assert re.split(r"\s{2,}", rows[-1].strip())[-1] == balance


def test_saved_game_replays_the_same_story(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, played = run(*LIARS_BOTS, "--save", str(save))
    assert code == 0
    log = json.loads(save.read_text())
    assert log["game"] == "liars-dice"
    game = LiarsDiceGame.from_log(log)
    assert game.is_over
    code, replayed = run("replay", str(save))
    assert code == 0, replayed
    # The replay tells the same game: every line after the header, bar the winner summary.
    lines = played.splitlines()
    story = lines[3 : next(i for i, line in enumerate(lines) if line.startswith("Winner:"))]
    assert replayed.splitlines()[2:] == story


def test_replay_as_one_player_hides_the_others_dice(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run(*LIARS_BOTS, "--save", str(save))
    code, text = run("replay", str(save), "--as", "Di")
    assert code == 0, text
    assert "Shown as Di saw it." in text
    assert "Everyone rolls in secret:" not in text
    mine = re.findall(r"Everyone rolls in secret\. Your dice: (.+)$", text, re.MULTILINE)
    assert mine, text[:800]
    code, by_number = run("replay", str(save), "--as", "2")
    assert code == 0 and by_number == text


def test_replay_steps_wait_for_enter(tmp_path: Path) -> None:
    save = tmp_path / "bj.json"
    run("play", "blackjack", "--bots", "bold", "--rounds", "1", "--seed", "1", "--save", str(save))
    assert BlackjackGame.from_log(json.loads(save.read_text())).round == 1
    code, text = run("replay", str(save), "--step", input="\n" * 3)
    assert code == 0
    # Three Enters: the fourth shown event is followed by the end of input, which stops it.
    assert text.count("⏎") == 4
    code, whole = run("replay", str(save))
    assert "Balances: Bo" in whole


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not JSON"),
        ('{"game": "chess"}', "its 'game' is 'chess'"),
        ('{"game": "liars-dice", "players": ["A"]}', "has version None"),
        ('{"game": "liars-dice", "version": 99}', "has version 99; this version of "
         "tavern-dice reads versions 1 and 2"),
    ],
)
def test_replay_of_a_bad_log_says_why(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, text = run("replay", str(path))
    assert code == 2
    assert message in flat(text)
    assert "Traceback" not in text


def test_replay_of_a_missing_file() -> None:
    code, text = run("replay", "/nonexistent/game.json")
    assert code == 2
    assert "cannot read /nonexistent/game.json" in flat(text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["liars-dice", "--bots", "random,clever"],
         "unknown bot 'clever'; known: aldous, bess, bluffer, careless, equilibrium"),
        (["liars-dice", "--players", "2", "--bots", "random,random,random"],
         "3 bots do not fit at a table of 2"),
        (["liars-dice", "--bots", "random"], "Liar's Dice takes 2-10 players, not 1"),
        (["liars-dice", "--wild-face", "9"], "wild_face must be a face 1-6"),
        (["liars-dice", "--raise-rule", "sideways"], "sideways"),
        (["liars-dice", "--preset", "casino"], "unknown preset 'casino'; known: openspiel, tavern"),
        (["liars-dice", "--bots", "random:3"], "only Dice Blackjack bots take a proficiency"),
        (["blackjack", "--gold", "lots"], "cannot read 'lots' as an amount"),
        (["blackjack", "--bots", "bold:9"], "a proficiency bonus is 2-6"),
        (["blackjack", "--min-bet", "5 gp", "--max-bet", "1 gp"], "is below the table minimum"),
        (["blackjack", "--players", "1", "--name", "Ann", "--name", "Bo"],
         "2 names for 1 people"),
    ],
)
def test_bad_options_give_a_usage_error(args: list[str], message: str) -> None:
    code, text = run("play", *args)
    assert code == 2, text
    assert message in flat(text)
    assert "Traceback" not in text


def test_end_of_input_says_goodbye_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "left.json"
    code, text = run("play", "liars-dice", "--seed", "4", "--save", str(save), input="")
    assert code == 0
    assert "Goodbye! Input ended before the game did." in text
    game = LiarsDiceGame.from_log(json.loads(save.read_text()))
    assert not game.is_over and game.round == 1


def test_typing_quit_leaves_cleanly_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    code, text = run("play", "blackjack", "--seed", "4", "--save", str(save), input="quit\n")
    assert code == 0
    assert "Goodbye!" in text and "Traceback" not in text
    assert json.loads(save.read_text())["game"] == "blackjack"


def test_a_person_plays_blackjack_through_the_runner() -> None:
    code, text = run(
        "play", "blackjack", "--name", "Ann", "--seed", "4", "--gold", "5 gp",
        input="2 gp\ns\nn\n",
    )
    assert code == 0, text
    assert "Ann bets 2 gp." in text
    assert re.search(r"^Balances: Ann \d", text, re.MULTILINE)
    assert "After 1 round." in text
