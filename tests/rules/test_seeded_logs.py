"""The engines' behaviour does not change with their speed: 100 seeded bot games (80 of
Liar's Dice, 20 of Dice Blackjack) write exactly the logs they wrote before the engines
were made faster.

``seeded_logs.sha256`` holds the SHA-256 of each game's log (``to_log()`` as JSON with
sorted keys), made by this file's ``__main__`` from the engines as they were; a change
that alters any event, its order or its fields changes a digest. To write the digests of
another version of the package, run it with that version first on ``PYTHONPATH``:

    PYTHONPATH=OTHER/src .venv/bin/python tests/rules/test_seeded_logs.py > digests.txt
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.bots.registry import make_blackjack_bot, make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice import LiarsDiceGame
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice

DIGESTS = Path(__file__).with_name("seeded_logs.sha256")
LIARS_KINDS = ("random", "probabilistic", "trusting")
BLACKJACK_KINDS = ("cautious", "bold")


def liars_log(k: int) -> dict[str, Any]:
    """Game ``k``: 2-4 seats, the tavern or OpenSpiel's rules; random bots, and in every
    fourth game the two that reason about the dice (slower) with them."""
    players = 2 + k % 3
    rules = OPENSPIEL if k % 4 == 3 else TAVERN
    game = LiarsDiceGame(players, rules=rules, dice=SeededDice(1000 + k))
    kinds = LIARS_KINDS if k % 4 == 0 else ("random",)
    agents = [make_liars_dice_bot(kinds[(k + seat) % len(kinds)], seed=k * 10 + seat)
              for seat in range(players)]
    play_liars_dice(game, agents)
    return game.to_log()


def blackjack_log(k: int) -> dict[str, Any]:
    """Game ``k``: 1-4 seats, three rounds."""
    players = 1 + k % 4
    game = BlackjackGame(players, dice=SeededDice(2000 + k))
    agents = [make_blackjack_bot(BLACKJACK_KINDS[(k + seat) % 2], seed=k * 10 + seat)
              for seat in range(players)]
    for _ in range(3):
        play_blackjack_round(game, agents)
    return game.to_log()


def digests() -> list[str]:
    """Each game's log digest, in order."""
    logs = [liars_log(k) for k in range(80)] + [blackjack_log(k) for k in range(20)]
    return [hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest()
            for log in logs]


def test_100_seeded_bot_games_write_the_logs_they_wrote_before() -> None:
    expected = DIGESTS.read_text().split()
    got = digests()
    assert len(expected) == len(got) == 100
    changed = [k for k, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b]
    assert not changed, f"games whose logs changed: {changed}"


if __name__ == "__main__":
    print("\n".join(digests()))
