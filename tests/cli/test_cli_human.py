"""The person's seat: typed answers checked by the engine, re-asked with its reason."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rich.console import Console

from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.bots.base import ACCUSE, BlackjackAgent, LiarsDiceAgent
from tavern_dice.cli.human import HumanBlackjack, HumanLiarsDice, ask_play_on
from tavern_dice.cli.terminal import Terminal
from tavern_dice.dice import ScriptedDice
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import Wager


def scripted(*answers: str) -> tuple[Terminal, Console]:
    """A terminal whose person types ``answers`` in order; its screen is recorded."""
    console = Console(record=True, width=120, color_system=None)
    lines: Iterator[str] = iter(answers)

    def read() -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    return Terminal(console, read, echo=True), console


def flat(text: str) -> str:
    """``text`` with every run of whitespace as one space (the console wraps long lines)."""
    return " ".join(text.split())


def engine_reason(call: object, *args: object) -> str:
    """The message the engine gives for an illegal action."""
    with pytest.raises(TavernError) as info:
        call(*args)  # type: ignore[operator]
    return flat(str(info.value))


@pytest.fixture
def liars() -> LiarsDiceGame:
    # Ann (seat 0) wins the roll-off 12 to 5; hands: Ann 2 2, Bo 2 5; Ann opens.
    dice = ScriptedDice([(6, 6), (1, 4), (2, 2), (2, 5)])
    return LiarsDiceGame(["Ann", "Bo"], rules=LiarsDiceRules(dice_per_player=2), dice=dice)


def test_opening_wager_is_reasked_with_the_engines_reasons(liars: LiarsDiceGame) -> None:
    terminal, console = scripted("accuse", "3x9", "three twos", "", "?", "3 twos")
    ann = HumanLiarsDice("Ann", 0, liars, terminal, ["Ann", "Bo (random)"])
    assert isinstance(ann, LiarsDiceAgent)
    action = ann.choose_action(liars.view(0))
    assert action == Wager(3, 2)
    screen = flat(console.export_text())
    assert engine_reason(liars.verify_accuse, 0) in screen
    assert engine_reason(liars.verify_wager, Wager(3, 9), 0) in screen
    assert "cannot read 'three twos' as a wager" in screen
    assert "Legal wagers now: 1-4 of any face." in screen
    assert "⚁2 ⚁2" in screen  # Ann's own dice on the table display
    assert "No wager yet" in screen


def test_a_wager_that_does_not_raise_is_refused_then_accuse(liars: LiarsDiceGame) -> None:
    liars.wager(Wager(3, 2), 0)
    terminal, console = scripted("2 twos", "1x1", "a")
    bo = HumanLiarsDice("Bo", 1, liars, terminal, ["Ann", "Bo"])
    assert bo.choose_action(liars.view(1)) == ACCUSE
    screen = flat(console.export_text())
    assert engine_reason(liars.verify_wager, Wager(2, 2), 1) in screen
    assert "does not raise 3 twos" in screen
    assert "Standing wager: 3 twos by Ann. To beat it: 1 three or 4 ones." in screen


def test_out_of_turn_accusation_asks_yes_or_no(liars: LiarsDiceGame) -> None:
    liars.wager(Wager(1, 5), 0)
    terminal, console = scripted("maybe", "y")
    bo = HumanLiarsDice("Bo", 1, liars, terminal, ["Ann", "Bo"])
    assert bo.wants_to_accuse(liars.view(1)) is True
    screen = flat(console.export_text())
    assert "Accuse Ann of lying? [y/N]" in screen
    assert "answer y or n, not 'maybe'" in screen
    assert "Your dice: ⚁2 ⚄5" in screen
    terminal, _ = scripted("")
    assert HumanLiarsDice("Bo", 1, liars, terminal, ["Ann", "Bo"]).wants_to_accuse(
        liars.view(1)
    ) is False


def test_end_of_input_reaches_the_caller(liars: LiarsDiceGame) -> None:
    terminal, _ = scripted()
    with pytest.raises(EOFError):
        HumanLiarsDice("Ann", 0, liars, terminal, ["Ann", "Bo"]).choose_action(liars.view(0))


@pytest.fixture
def blackjack() -> BlackjackGame:
    # Target 14, house dice 9 and 17 (house roll 9), Ann's d12s 8 then 5.
    dice = ScriptedDice([(14,), (9, 17), (8,), (5,)])
    return BlackjackGame(["Ann"], dice=dice, balances=1000, proficiency=[4])


def test_bet_reads_gold_and_is_checked_by_the_engine(blackjack: BlackjackGame) -> None:
    terminal, console = scripted("lots", "20 gp", "3 gp")
    ann = HumanBlackjack("Ann", 0, blackjack, terminal)
    assert isinstance(ann, BlackjackAgent)
    assert ann.choose_bet(blackjack.view(0)) == Bet(300)
    screen = flat(console.export_text())
    assert "cannot read 'lots' as an amount" in screen
    assert engine_reason(blackjack.verify_bet, 0, 2000) in screen
    assert "you have 10 gp" in screen


def test_enter_bets_the_default_and_sit_sits_out(blackjack: BlackjackGame) -> None:
    terminal, _ = scripted("", "sit")
    ann = HumanBlackjack("Ann", 0, blackjack, terminal)
    assert ann.choose_bet(blackjack.view(0)) == Bet(100)
    assert ann.choose_bet(blackjack.view(0)) == SitOut()


def test_roll_then_stand_with_a_bonus(blackjack: BlackjackGame) -> None:
    blackjack.place_bet(0, 300)
    terminal, console = scripted("x", "r")
    ann = HumanBlackjack("Ann", 0, blackjack, terminal)
    assert ann.choose_move(blackjack.view(0)) == Roll()
    assert "Target 14 · house roll 9 · your total 8" in flat(console.export_text())
    blackjack.roll_again(0)  # 8 + 5 = 13: a bonus of at most 1 keeps it on the target
    terminal, console = scripted("s 5", "s", "")
    ann = HumanBlackjack("Ann", 0, blackjack, terminal)
    assert ann.choose_move(blackjack.view(0)) == Stand(1)
    screen = flat(console.export_text())
    assert engine_reason(blackjack.verify_stand, 0, 5) in screen
    assert "Add how much of your proficiency bonus (0-1)? [1]" in screen


def test_play_on_defaults_to_yes() -> None:
    terminal, _ = scripted("", "nope", "n")
    assert ask_play_on(terminal) is True
    assert ask_play_on(terminal) is False
