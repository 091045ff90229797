"""What a newcomer tripped on at the terminal (issue 8): typed-in dice for bots, output
paths refused only after the work, flags that meant two things, errors in a library's
words, leaving with ``quit``, ``replay --step``, seats for several people, ``--version``
and the odds commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tavern_dice.cli import app
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.strategy.liars_dice.solver.play.tables import metadata


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), input=input)
    return result.exit_code, result.output


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


# ---------------------------------------------------------------------- dice and files


def test_manual_dice_asks_people_only_for_their_own_dice() -> None:
    code, text = run("play", "liars-dice", "--dice", "manual", "--name", "Ann",
                     "--bots", "random,random", "--seed", "4",
                     input="1 2 3 4 5\n" * 3 + "6 6 1 2 3\n" + "quit\n")
    assert code == 0, text
    asked = re.findall(r"^\s*(\w+): roll (\d+d6) ([a-z ()-]+) and type", text, re.MULTILINE)
    assert asked, text
    assert {who for who, _, _ in asked} == {"Ann"}
    assert ("Ann", "5d6", "in secret") in asked
    # The bots rolled for themselves: the roll-off shows their dice, typed by nobody.
    assert re.search(r"^\s+Bo\s+\S", text, re.MULTILINE)
    assert "Goodbye! You left the game." in text


def test_an_all_person_manual_table_types_everyones_dice() -> None:
    code, text = run("play", "liars-dice", "--dice", "manual", "--players", "2",
                     "--bots", "none", input="1 2 3 4 5\n6 6 6 6 6\nquit\n")
    assert code == 0, text
    assert "Player 1: roll 5d6" in text and "Player 2: roll 5d6" in text


def test_the_save_path_is_checked_before_the_game(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "g.json"
    for game in (["liars-dice", "--bots", "random,random", "--seed", "1"],
                 ["blackjack", "--bots", "bold", "--rounds", "1", "--seed", "1"]):
        code, text = run("play", *game, "--save", str(missing))
        assert code == 2, text
        assert "--save" in text and "does not exist" in flat(text)
        assert "Round 1" not in text and "Roll-off" not in text  # nothing was played


PLOTTERS = {
    "odds": ["odds", "blackjack"],
    "solve": ["solve", "liars-dice", "--max-iterations", "3"],
    "simulate-liars": ["simulate", "liars-dice", "--bots", "random,random", "--games", "2",
                       "--workers", "1"],
    "simulate-blackjack": ["simulate", "blackjack", "--bots", "bold", "--rounds", "2",
                           "--workers", "1"],
}


@pytest.mark.parametrize("command", sorted(PLOTTERS))
@pytest.mark.parametrize("plot", ["x.txt", "no-such-folder/x.png", "chart"])
def test_a_bad_plot_path_is_a_clean_error_before_any_work(
        tmp_path: Path, command: str, plot: str) -> None:
    code, text = run(*PLOTTERS[command], "--plot", str(tmp_path / plot))
    assert code == 2, text
    words = flat(text)
    assert "Invalid value for --plot" in words
    assert ("use one of" in words and ".png" in words) or "does not exist" in words
    assert "Traceback" not in text
    assert "iterations" not in words and "house edge" not in words  # no work done first


# ---------------------------------------------------------------------- flags


def test_no_short_flag_means_two_things() -> None:
    code, text = run("simulate", "liars-dice", "--bots", "random,random", "--games", "2",
                     "-w", "1")
    assert code == 2 and "No such option: -w" in flat(text)
    code, text = run("simulate", "liars-dice", "--bots", "random,random", "--games", "2",
                     "-j", "1", "--json")
    assert code == 0, text
    assert json.loads(text)["games"] == 2
    code, text = run("odds", "liars-dice", "-d", "6", "-w", "2x3")
    assert code == 0, text


def test_solve_counts_dice_with_dice_each_not_dice() -> None:
    code, text = run("solve", "liars-dice", "--dice-each", "1,1", "--max-iterations", "3")
    assert code == 0, text
    assert "3 iterations" in text
    code, text = run("solve", "liars-dice", "--dice", "1,1", "--max-iterations", "3")
    assert code == 2 and "No such option: --dice" in flat(text)
    code, text = run("solve", "liars-dice", "--dice-each", "x")
    assert code == 2 and "--dice-each" in flat(text)


def test_odds_blackjack_takes_both_sides_of_the_house_rule() -> None:
    code, under = run("odds", "blackjack", "--house-needs-under")
    assert code == 0, under
    code, equal = run("odds", "blackjack", "--house-may-equal")
    assert code == 0, equal
    code, plain = run("odds", "blackjack")
    assert under != equal and plain in (under, equal)
    code, text = run("odds", "blackjack", "--player-exact-wins")
    assert code == 0, text


def test_simulate_and_play_take_the_same_rounds_and_say_why_two() -> None:
    code, text = run("play", "blackjack", "--bots", "bold", "--rounds", "1", "--seed", "1")
    assert code == 0, text
    code, text = run("simulate", "blackjack", "--bots", "bold", "--rounds", "1")
    assert code == 2
    assert "needs at least 2 rounds, not 1" in flat(text)
    assert "Input should be" not in text


# ---------------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("args", "message", "leak"),
    [
        (["play", "liars-dice", "--players", "11"], "Liar's Dice takes 2-10 players, not 11",
         "Input should be"),
        (["play", "liars-dice", "--players", "1"], "Liar's Dice takes 2-10 players, not 1",
         "Input should be"),
        (["play", "blackjack", "--players", "11"], "Dice Blackjack takes 1-10 players, not 11",
         "Input should be"),
        (["odds", "liars-dice", "-d", "12", "-w", "3x2", "--players", "11"],
         "Liar's Dice takes 2-10 players, not 11", "Input should be"),
        (["play", "liars-dice", "--raise-rule", "bogus"],
         "unknown raise rule 'bogus'; known: either, standard, face-major", "Value error"),
        (["simulate", "liars-dice", "--bots", "random,random", "--raise-rule", "up"],
         "unknown raise rule 'up'", "Value error"),
        (["play", "blackjack", "--min-bet", "5 gp", "--max-bet", "1 gp"],
         "the table maximum bet (--max-bet 1 gp) is below the table minimum (--min-bet 5 gp)",
         "_cp"),
    ],
)
def test_errors_speak_the_users_words(args: list[str], message: str, leak: str) -> None:
    code, text = run(*args)
    assert code == 2, text
    assert message in flat(text)
    assert leak not in text


def test_typing_quit_says_goodbye_and_blackjack_shows_the_balances(tmp_path: Path) -> None:
    code, text = run("play", "liars-dice", "--seed", "4", input="quit\n")
    assert code == 0
    assert "Goodbye! You left the game." in text
    assert "Input ended" not in text
    save = tmp_path / "bj.json"
    code, text = run("play", "blackjack", "--name", "Ann", "--seed", "4", "--gold", "5 gp",
                     "--save", str(save), input="2 gp\ns\nquit\n")
    assert code == 0, text
    assert "Goodbye! You left the game." in text and "Input ended" not in text
    balances = re.search(r"^Balances: Ann (.+) \(", text, re.MULTILINE)
    assert balances is not None, text[-600:]
    assert text.index("Balances:") < text.index("Goodbye!")
    assert json.loads(save.read_text())["game"] == "blackjack"


def test_replay_step_says_how_to_leave_and_q_leaves(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("play", "liars-dice", "--bots", "random,random", "--seed", "2", "--save", str(save))
    code, text = run("replay", str(save), "--step", input="\n\nq\n\n\n")
    assert code == 0, text
    assert "type q and Enter to stop" in text
    assert text.count("⏎") == 3
    assert "Stopped the replay." in text


def test_replay_errors_say_it_once(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("play", "liars-dice", "--bots", "random,random", "--seed", "2", "--save", str(save))
    log = json.loads(save.read_text())
    wager = next(e for e in log["events"] if e["type"] == "wager_made")
    wager["quantity"] = 99
    save.write_text(json.dumps(log))
    code, text = run("replay", str(save))
    assert code == 2
    words = flat(text)
    assert words.count("does not replay") == 1, words
    assert "quantity must be" in words


def test_version() -> None:
    code, text = run("--version")
    assert code == 0
    assert re.fullmatch(r"tavern-dice \d+\.\d+\.\d+\S*\n", text)


# ---------------------------------------------------------------------- seats


def test_two_names_seat_two_people() -> None:
    code, text = run("play", "liars-dice", "--name", "Ann", "--name", "Bea", "--seed", "3",
                     input="quit\n")
    assert code == 0, text
    players = re.search(r"^Players: (.+)$", text, re.MULTILINE)
    assert players is not None
    assert players.group(1) == "Ann, Bea, Mags (level 4), Mags 2 (level 4)"
    code, text = run("play", "blackjack", "--name", "Ann", "--name", "Bea", input="quit\n")
    assert code == 0, text
    assert re.search(r"^Players: Ann, Bea$", text, re.MULTILINE), text


def test_the_default_table_seats_three_of_a_middle_level_and_says_how_to_choose() -> None:
    code, text = run("play", "liars-dice", "--seed", "3", input="quit\n")
    assert code == 0, text
    assert re.search(r"^Players: Player \(you\), Mags \(level 4\), Mags 2 \(level 4\), "
                     r"Mags 3 \(level 4\)$", text, re.MULTILINE), text
    words = flat(text)
    assert "Opponents: 3 × Mags, the tally-keeper: level 4 of 6, rated" in words
    assert "Choose others with --bots (e.g. --bots pip,mags,vell); `tavern levels` lists" in words
    # Chosen bots need no such note.
    code, text = run("play", "liars-dice", "--players", "2", "--bots", "pip", "--seed", "3",
                     input="quit\n")
    assert code == 0 and "Opponents:" not in text


def test_an_all_person_table_is_bots_none(tmp_path: Path) -> None:
    save = tmp_path / "people.json"
    code, text = run("play", "liars-dice", "--players", "3", "--bots", "none",
                     "--name", "Ann", "--save", str(save), input="quit\n")
    assert code == 0, text
    assert re.search(r"^Players: Ann, Player 2, Player 3$", text, re.MULTILINE), text
    assert LiarsDiceGame.from_log(json.loads(save.read_text())).players == (
        "Ann", "Player 2", "Player 3")


# ---------------------------------------------------------------------- odds


def test_odds_blackjack_prints_decimals_and_fractions_on_request() -> None:
    code, text = run("odds", "blackjack")
    assert code == 0
    assert re.search(r"optimal\s+-0\.0093739\d+", text), text[:2000]
    assert not re.search(r"\d{12,}/\d{12,}", text)
    code, text = run("odds", "blackjack", "--fractions")
    assert code == 0
    assert re.search(r"-\d{15,}/\d{15,}", text)


def test_odds_refuses_a_wager_of_more_dice_than_are_in_play() -> None:
    code, text = run("odds", "liars-dice", "--dice-in-play", "12", "--wager", "13x2")
    assert code == 2
    assert "quantity must be 1-12 (dice in play), not 13" in flat(text)
    code, text = run("odds", "liars-dice", "--dice-in-play", "12", "--wager", "12x2")
    assert code == 0, text


def test_solve_tables_lists_the_blueprints_as_approximate() -> None:
    result = CliRunner().invoke(app, ["solve", "tables", "--rules", "tavern"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    # The ten rounds with 7-10 dice in play searched on the standard blueprint.
    assert text.count("approximate (search on the blueprint)") == 10
    assert "5 v 5" in text and "(a stand-in under these rules)" in text
    # Every round up to 6 dice in play has the seed's own table (those above 0.01 marked
    # approximate, with exact figures); a sampled bound on each searched round.
    assert "tavern-standard table" not in text
    above = [r for r in metadata("tavern")["rounds"] if r["exploitability"] > 0.01]
    assert len(above) == 7  # the five 6-dice rounds, 2 v 3 and 4 v 1
    assert text.count("approximate (exact figure)") == len(above)
    assert text.count("] s") == 10 and "Figures marked s are sampled, not exact" in text
    # There the sampled bound is the higher: 5 v 5 gives up far more than its build says.
    assert re.search(r"5 v 5 DAG, 2 wagers >= 0\.[1-9]\d\d s", text), text


def test_solve_tables_names_what_a_partial_build_folder_lacks(tmp_path: Path) -> None:
    # A build folder in TAVERN_TABLES with only the seed's table: the stand-in table and the
    # blueprints are looked for there too, and their absence is said plainly, not a trace.
    from tavern_dice.strategy.liars_dice.solver.play.tables import data_path, forget_loaded

    def tables_from_folder() -> tuple[int, str]:
        forget_loaded()  # the tables read before come from the package data
        try:
            result = CliRunner().invoke(app, ["solve", "tables", "--rules", "tavern"],
                                        env={"COLUMNS": "200", "TAVERN_TABLES": str(tmp_path)})
        finally:
            forget_loaded()
        return result.exit_code, flat(result.output)

    (tmp_path / data_path("tavern").name).symlink_to(data_path("tavern"))
    code, text = tables_from_folder()
    assert code == 2, text
    assert "the tavern-standard table, which stands in for the tavern rounds" in text
    assert "liars_dice_heads_up_tavern-standard" in text and "Traceback" not in text
    # With the stand-in copied in too, the blueprints' absence is a line under the table.
    (tmp_path / data_path("tavern-standard").name).symlink_to(data_path("tavern-standard"))
    code, text = tables_from_folder()
    assert code == 0, text
    assert text.count("Not found: ") == 2 and "recall1_tavern-standard" in text
    assert "approximate (search on the blueprint)" not in text
