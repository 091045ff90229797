"""One way to seed a game: ``dice=SeededDice(seed)``; ``seed=`` is a deprecated alias.

The log keeps the seed of the dice source (a replay draws the untyped rolls from it), so
a game seeded either way writes the same log.
"""

from __future__ import annotations

import pytest

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.dice import ManualDice, ScriptedDice, SecureDice, SeededDice, TableDice
from tavern_dice.liars_dice import LiarsDiceGame


def test_the_log_keeps_the_seed_of_the_dice_source() -> None:
    assert LiarsDiceGame(3, dice=SeededDice(7)).to_log()["seed"] == 7
    assert BlackjackGame(2, dice=SeededDice(7)).to_log()["seed"] == 7
    table = TableDice(ManualDice(lambda spec, problem: [1] * spec.count), SeededDice(5), [0])
    assert LiarsDiceGame(2, dice=table, auto_roll=False).seed == 5
    assert LiarsDiceGame(2, dice=SecureDice()).seed is None
    assert LiarsDiceGame(2).seed is None


@pytest.mark.parametrize("kind", [LiarsDiceGame, BlackjackGame])
def test_seed_is_a_deprecated_alias_of_seeded_dice(kind: type) -> None:
    with pytest.warns(DeprecationWarning, match=r"dice=SeededDice\(seed\)"):
        old = kind(2, seed=11)
    assert old.to_log() == kind(2, dice=SeededDice(11)).to_log()


def test_seed_with_dice_is_only_what_the_log_records_as_before() -> None:
    dice = ScriptedDice([])
    with pytest.warns(DeprecationWarning):
        game = LiarsDiceGame(2, dice=dice, seed=4, auto_roll=False)
    assert game.seed == 4 and game.dice is dice


def test_a_seeded_log_replays_and_plays_on_as_the_game_would_have() -> None:
    game = LiarsDiceGame(3, dice=SeededDice(21))
    game.apply(game.turn, game.legal_actions(game.turn)[0])
    again = LiarsDiceGame.from_log(game.to_log(), auto_roll=True)
    assert again.to_log() == game.to_log()
    assert isinstance(again.dice, SeededDice) and again.dice.seed == 21
