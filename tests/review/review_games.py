"""Games with known decisions, built from scripted dice, for the review tests."""

from __future__ import annotations

from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.dice import ScriptedDice
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import Wager


def liars_blunder() -> LiarsDiceGame:
    """Heads-up, 5 dice each: Bo wins the roll-off (12 to 6) and wagers "2 fives"; Ann,
    holding five fives, calls him a liar and loses a die. Then a second round is rolled."""
    dice = ScriptedDice([
        (1, 1, 1, 1, 2), (6, 6, 6, 6, 6),          # roll-off: Bo starts
        (5, 5, 5, 5, 5), (1, 2, 3, 4, 6),          # round 1
        (2, 2, 3, 4), (1, 3, 4, 5, 6),             # round 2 (Ann has 4 dice)
    ])
    game = LiarsDiceGame(["Ann", "Bo"], dice=dice)
    assert game.turn == 1 and game.hands[0] == (5, 5, 5, 5, 5)
    game.wager(Wager(2, 5), 1)
    game.accuse(0)
    return game


def liars_three() -> LiarsDiceGame:
    """Three players, 2 dice each; Ann starts (the roll-off: 12, 2, 2).

    Round 1: Ann (2, 2) wagers "1 two"; Bo, to act, raises to "2 twos" (so Cy let "1 two"
    pass); then, before Cy acts, Ann accuses "2 twos" out of turn although her own two
    twos made it true: three twos, Ann loses a die. Round 2 is rolled.
    """
    dice = ScriptedDice([
        (6, 6), (1, 1), (1, 1),                    # roll-off: Ann starts
        (2, 2), (2, 5), (3, 4),                    # round 1
        (1,), (4, 6), (3, 6),                      # round 2 (Ann has 1 die)
    ])
    game = LiarsDiceGame(["Ann", "Bo", "Cy"], rules=LiarsDiceRules(dice_per_player=2),
                         dice=dice)
    assert game.turn == 0
    game.wager(Wager(1, 2), 0)
    game.wager(Wager(2, 2), 1)
    assert game.turn == 2
    game.accuse(0)
    return game


def blackjack_bonus_mistake() -> BlackjackGame:
    """Ann (proficiency bonus 4: adds up to 2) against target 20 and house roll 15: a 9,
    she rolls on (right) to 18, then stands adding nothing (18 beats 15: +1) where adding
    2 was an exact hit (+3/2)."""
    dice = ScriptedDice([(20,), (15, 3), (9,), (9,)])
    game = BlackjackGame(["Ann"], dice=dice, balances=1000, proficiency=[4])
    game.place_bet(0, 200)
    game.roll_again(0)
    game.stand(0, 0)
    return game
