"""Play 100 seeded bot games of both games and print a digest of their event logs.

A change that should not change play (a refactor of how bots answer, say) is checked by
running this script on the commit before and on the change and comparing the digests:
the same seeds give the same dice and the same bot choices, so equal digests mean every
event of every game came out the same.

Run it from the repository root (``.venv/bin/python benchmarks/seeded_logs.py``); to
check an older commit, point ``PYTHONPATH`` at a ``git worktree`` of it::

    git worktree add /tmp/old <commit>
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/seeded_logs.py

It uses only the public API both before and after (the registry, the engines,
``tavern_dice.games.step``), so the same script runs on either side.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.bots.registry import make_blackjack_bot, make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.games import step
from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules

LIARS_TABLES: tuple[tuple[tuple[str, ...], int], ...] = (
    # (bots, dice each): strong and equilibrium only with few dice, where they answer
    # at once.
    (("random", "probabilistic", "trusting"), 3),
    (("bluffer", "careless", "pip", "tobb"), 3),
    (("bess", "mags", "aldous"), 2),
    (("probabilistic", "trusting", "bluffer", "random", "careless"), 2),
    (("strong", "probabilistic"), 2),
    (("equilibrium", "trusting"), 2),
    (("strong", "equilibrium"), 1),
    (("vell", "aldous"), 1),
    (("strong", "probabilistic", "trusting"), 2),
    (("strong", "trusting"), 3),
    (("vell", "mags", "random"), 2),
)
BLACKJACK_TABLES: tuple[tuple[str, ...], ...] = (
    ("cautious", "bold", "optimal"),
    ("nell", "brannoc", "sabine"),
    ("optimal", "sabine", "cautious", "bold"),
)
GAMES = 100
LIARS_GAMES = 64
BLACKJACK_ROUNDS = 6
MAX_STEPS = 5000


def _play(engine: Any, agents: list[Any], done: Any) -> None:
    for _ in range(MAX_STEPS):
        if done():
            return
        if step(engine, agents) is None and not done():
            raise RuntimeError("a seeded game waits on nobody before its end")
    raise RuntimeError("a seeded game did not end")


def liars_game(index: int) -> dict[str, Any]:
    """Seeded Liar's Dice game ``index``: its table cycles through :data:`LIARS_TABLES`."""
    kinds, dice = LIARS_TABLES[index % len(LIARS_TABLES)]
    names = [f"{kind}-{seat}" for seat, kind in enumerate(kinds)]
    agents = [make_liars_dice_bot(kind, name=name, seed=1000 * index + seat)
              for seat, (kind, name) in enumerate(zip(kinds, names, strict=True))]
    game = LiarsDiceGame(names, rules=LiarsDiceRules(dice_per_player=dice),
                         dice=SeededDice(index))
    _play(game, agents, lambda: game.is_over)
    return game.to_log()


def blackjack_game(index: int) -> dict[str, Any]:
    """Seeded Dice Blackjack session ``index``: :data:`BLACKJACK_ROUNDS` rounds."""
    kinds = BLACKJACK_TABLES[index % len(BLACKJACK_TABLES)]
    names = [f"{kind}-{seat}" for seat, kind in enumerate(kinds)]
    agents = [make_blackjack_bot(kind, name=name, seed=1000 * index + seat, bet_cp=100 + seat)
              for seat, (kind, name) in enumerate(zip(kinds, names, strict=True))]
    game = BlackjackGame(names, balances=2000, proficiency=[2 + seat for seat in
                                                            range(len(kinds))],
                         dice=SeededDice(index))
    for round_number in range(BLACKJACK_ROUNDS):
        if game.is_over:
            break
        if round_number:
            game.new_round()
        _play(game, agents, lambda: game.phase.name == "ROUND_OVER")
    return game.to_log()


def main() -> None:
    """Play the games; print each game's digest line count and the digest of them all."""
    started = time.perf_counter()
    whole = hashlib.sha256()
    for index in range(GAMES):
        log = liars_game(index) if index < LIARS_GAMES else blackjack_game(index)
        text = json.dumps(log, sort_keys=True, separators=(",", ":"))
        whole.update(text.encode())
        if "-v" in sys.argv:
            print(index, log["game"], len(log["events"]),
                  hashlib.sha256(text.encode()).hexdigest()[:16])
    print(f"{GAMES} seeded games ({LIARS_GAMES} Liar's Dice, {GAMES - LIARS_GAMES} Dice "
          f"Blackjack sessions of {BLACKJACK_ROUNDS} rounds) in "
          f"{time.perf_counter() - started:.1f} s")
    print(f"digest of their event logs: {whole.hexdigest()}")


if __name__ == "__main__":
    main()
