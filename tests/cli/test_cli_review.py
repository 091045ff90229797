"""``tavern review``: a saved game's decisions, marked, in words, JSON and a chart; the
known blunder of a game with scripted dice; bad input in the user's words."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "review"))
from review_games import blackjack_bonus_mistake, liars_blunder


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), input=input)
    return result.exit_code, result.output


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.fixture
def blunder_log(tmp_path: Path) -> Path:
    path = tmp_path / "blunder.json"
    path.write_text(json.dumps({**liars_blunder().to_log(), "people": [0]}))
    return path


def test_review_marks_the_known_blunder_with_its_cost(blunder_log: Path) -> None:
    code, text = run("review", str(blunder_log))
    assert code == 0, text
    words = flat(text)
    # The thresholds are stated before any mark.
    assert ("inaccuracy ?! from 0.10, mistake ? from 0.30, blunder ?? from 0.60 dice"
            in words)
    assert "Ann (seat 0) — still in the game with 4 dice when it stopped" in words
    assert "wagers this round: Bo 2 fives" in words
    assert "standing wager 2 fives: true 100 % (spot-on 0 %), false 0 %" in words
    assert "you: Liar! (-1.00) best: " in words
    assert "?? blunder" in words
    assert "known blunder: your own dice already made 2 fives true" in words
    cost = re.search(r"cost (\d+\.\d\d) dice", words)
    assert cost is not None and float(cost.group(1)) >= 0.6
    assert "Ann: 1 decision: 0 inaccuracies, 0 mistakes, 1 blunder" in words
    # Only the person's seat by default: Bo (a bot in that game) is not reviewed.
    assert "Bo (seat 1)" not in words


def test_review_as_json(blunder_log: Path) -> None:
    code, text = run("review", str(blunder_log), "--json", "--as", "Ann", "--as", "1")
    assert code == 0, text
    data = json.loads(text)
    assert data["thresholds"] == {"unit": "dice", "inaccuracy": 0.1, "mistake": 0.3,
                                  "blunder": 0.6}
    ann, bo = data["seats"]
    (decision,) = ann["decisions"]
    assert decision["mark"] == "blunder" and decision["symbol"] == "??"
    assert decision["chosen"]["code"] == "accuse" and decision["cost"] >= 0.6
    assert decision["known"]["own_dice"] == [5, 5, 5, 5, 5]
    assert decision["known"]["standing_odds"]["exact_fractions"]["false"] == "0"
    assert ann["summary"]["blunder"] == 1
    # Bo's review shows his dice, never Ann's.
    assert [d["known"]["own_dice"] for d in bo["decisions"]] == [[1, 2, 3, 4, 6]]


def test_review_draws_a_chart(blunder_log: Path, tmp_path: Path) -> None:
    chart = tmp_path / "review.png"
    code, text = run("review", str(blunder_log), "--plot", str(chart), "--as", "0",
                     "--as", "1")
    assert code == 0, text
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert f"chartwrittento{chart}" in "".join(text.split())  # the path may wrap


def test_the_chart_path_is_checked_before_any_work(tmp_path: Path) -> None:
    # The game file does not exist either: the chart is refused first.
    code, text = run("review", str(tmp_path / "none.json"), "--plot",
                     str(tmp_path / "no-folder" / "r.png"))
    assert code == 2
    assert "--plot" in text and "does not exist" in flat(text)
    code, text = run("review", str(tmp_path / "none.json"), "--plot", str(tmp_path / "r.txt"))
    assert code == 2 and ".png" in text


def test_blackjack_review_costs_per_unit_bet(tmp_path: Path) -> None:
    path = tmp_path / "bj.json"
    path.write_text(json.dumps(blackjack_bonus_mistake().to_log()))
    code, text = run("review", str(path))
    assert code == 0, text
    words = flat(text)
    assert ("inaccuracy ?! from 0.02, mistake ? from 0.10, blunder ?? from 0.25 per unit bet"
            in words)
    assert "target 20, house roll 15 · your total 18 (bet 2 gp; bonus up to +2)" in words
    assert ("you: stand (+1.000) best: stand, add 2 (+1.500) cost 0.500 per unit bet "
            "(about 1 gp on your 2 gp bet) ?? blunder") in words
    assert "you: roll another d12 (" in words and "— best" in words


def test_play_saves_the_people_and_review_takes_them(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, text = run("play", "liars-dice", "--players", "2", "--bots", "random", "--name",
                     "Ann", "--seed", "3", "--save", str(save), input="quit\n")
    assert json.loads(save.read_text())["people"] == [0]
    code, text = run("review", str(save))
    assert code == 0, text
    assert "Ann (seat 0)" in text
    bots = tmp_path / "bots.json"
    run("play", "liars-dice", "--bots", "random,probabilistic,random", "--seed", "4",
        "--save", str(bots))
    assert json.loads(bots.read_text())["people"] == []
    code, text = run("review", str(bots))
    assert code == 0, text
    words = flat(text)
    assert "(seat 0)" in words and "(seat 1)" not in words
    assert "out-of-turn" in words or "your turn" in words


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read"),
    ("{", "is not JSON"),
    ("[]", "holds no game log"),
    ('{"game": "chess"}', "its 'game' is 'chess', expected 'liars-dice' or 'blackjack'"),
])
def test_bad_files_are_refused_in_words(tmp_path: Path, content: str | None,
                                        message: str) -> None:
    path = tmp_path / "g.json"
    if content is not None:
        path.write_text(content)
    code, text = run("review", str(path))
    assert code == 2
    assert text.startswith("tavern review: ")
    assert message in flat(text)
    assert "Traceback" not in text


def test_a_corrupt_log_and_an_unknown_seat_are_refused(tmp_path: Path,
                                                       blunder_log: Path) -> None:
    log = json.loads(blunder_log.read_text())
    roll = next(e for e in log["events"] if e["type"] == "dice_rolled"
                and e["purpose"] == "round")
    roll["dice"][0][0] = 7  # a die showing 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    code, text = run("review", str(bad))
    assert code == 2
    # (Compared without spaces: the terminal may wrap the long path anywhere.)
    expected = (f"tavern review: {bad}: an input event does not replay: a d6 shows a whole "
                "number from 1 to 6, not 7")
    assert "".join(text.split()).startswith("".join(expected.split()))
    code, text = run("review", str(blunder_log), "--as", "Cy")
    assert code == 2
    assert "no seat 'Cy'; give a seat number or a name: 0 Ann, 1 Bo" in flat(text)
