"""Rules-engine speed on one core: full Liar's Dice games and Dice Blackjack rounds per second.

Liar's Dice: 4 players with 5 dice each (the ``tavern`` preset), seated with
``random`` bots from the bots registry (``make_liars_dice_bot('random', seed=...)``)
and played to the end by :func:`tavern_dice.play.runner.play_liars_dice`, which
builds a per-player view for every decision, as at a real table. A second
figure plays the same kind of game straight on the engine (random legal
actions, no views) to show what the views cost.

Dice Blackjack: 4 players against the house, each round played by
:func:`tavern_dice.play.runner.play_blackjack_round` with the registry's
``cautious`` and ``bold`` bots, in sessions of 100 rounds.

Every game and session is seeded, so a run plays the same games each time. If
the bots registry cannot be imported, simple seeded random agents stand in.

Usage::

    .venv/bin/python benchmarks/engine.py              # 5 s of CPU time per figure
    .venv/bin/python benchmarks/engine.py --seconds 2  # quicker
    .venv/bin/python benchmarks/engine.py --profile    # cProfile of the Liar's Dice run
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.base import ACCUSE, BlackjackAgent, LiarsDiceAction, LiarsDiceAgent
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice import TAVERN, LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.money import gp
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice

PLAYERS = 4
SESSION_ROUNDS = 100


class SeededRandomLiar:
    """Stand-in for the registry's ``random`` bot: on its turn accuses with probability
    0.3 (always when no raise is legal), else a uniformly random legal wager; out of turn
    accuses with probability 0.05."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        if view.may_accuse and (not view.legal_wagers or self.rng.random() < 0.3):
            return ACCUSE
        return self.rng.choice(view.legal_wagers)

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        return view.may_accuse and self.rng.random() < 0.05


class SeededRandomGambler:
    """Stand-in Blackjack agent: bets 1 gp (within the limits); rolls again while more
    than 6 under the target, then stands with its largest legal bonus."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        assert view.bet_limits is not None
        low, high = view.bet_limits
        return Bet(max(low, min(high, gp(1))))

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        assert view.turn is not None and view.target is not None
        if view.target - view.totals[view.turn] > 6:
            return Roll()
        return Stand(view.legal_bonuses[-1])


def liars_agents(game_number: int) -> tuple[list[LiarsDiceAgent], str]:
    """Four Liar's Dice bots for one game, and where they came from."""
    seeds = [game_number * PLAYERS + seat for seat in range(PLAYERS)]
    try:
        from tavern_dice.bots.registry import make_liars_dice_bot
    except ImportError:
        stand_ins: list[LiarsDiceAgent] = [SeededRandomLiar(f"r{s}", s) for s in seeds]
        return stand_ins, "seeded random stand-ins (no bots registry)"
    bots = [make_liars_dice_bot("random", name=f"random{i}", seed=s) for i, s in enumerate(seeds)]
    return bots, "'random' bots from the registry"


def blackjack_agents(session: int) -> tuple[list[BlackjackAgent], str]:
    """Four Dice Blackjack bots for one session, and where they came from."""
    try:
        from tavern_dice.bots.registry import make_blackjack_bot
    except ImportError:
        stand_ins: list[BlackjackAgent] = [
            SeededRandomGambler(f"g{seat}", session * PLAYERS + seat) for seat in range(PLAYERS)
        ]
        return stand_ins, "seeded stand-ins (no bots registry)"
    kinds = ["cautious", "bold"] * (PLAYERS // 2)
    bots = [
        make_blackjack_bot(kind, name=f"{kind}{seat}", seed=session * PLAYERS + seat)
        for seat, kind in enumerate(kinds)
    ]
    return bots, "'cautious' and 'bold' bots from the registry"


def timed(seconds: float, one: Callable[[int], int]) -> tuple[int, int, float]:
    """Run ``one(i)`` for i = 0, 1, ... until this process has used ``seconds`` of CPU time;
    return the count of runs, the sum of what they returned and the CPU time taken.

    CPU time rather than wall time: the figure is "per second of one core", and other
    processes on a shared machine then slow the clock less than they slow the wall.
    """
    runs = total = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        total += one(runs)
        runs += 1
    return runs, total, elapsed


def liars_game_with_bots(number: int) -> int:
    game = LiarsDiceGame(PLAYERS, rules=TAVERN, dice=SeededDice(number))
    agents, _ = liars_agents(number)
    play_liars_dice(game, agents)
    return sum(1 for e in game.log if type(e).__name__ in ("WagerMade", "Accused"))


def liars_game_engine_only(number: int) -> int:
    """The same kind of game straight on the engine: random legal actions, no views."""
    game = LiarsDiceGame(PLAYERS, rules=TAVERN, dice=SeededDice(number))
    rng = random.Random(number)
    decisions = 0
    while not game.is_over:
        turn = game.turn
        assert turn is not None
        wagers = game.legal_wagers()
        if game.can_accuse(turn) and (not wagers or rng.random() < 0.35):
            game.accuse(turn)
        else:
            game.wager(rng.choice(wagers), turn)
        decisions += 1
    return decisions


class BlackjackSessions:
    """Plays Blackjack rounds, opening a fresh seeded session every ``SESSION_ROUNDS``."""

    def __init__(self) -> None:
        self.game: BlackjackGame | None = None
        self.agents: list[BlackjackAgent] = []
        self.source = ""

    def round(self, number: int) -> int:
        session, played = divmod(number, SESSION_ROUNDS)
        if played == 0 or self.game is None or self.game.is_over:
            self.game = BlackjackGame(
                PLAYERS, dice=SeededDice(session), balances=gp(1000), proficiency=[None, 2, 4, 6]
            )
            self.agents, self.source = blackjack_agents(session)
        play_blackjack_round(self.game, list(self.agents))
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU time per figure (s)")
    parser.add_argument("--profile", action="store_true", help="cProfile the bots' games")
    args = parser.parse_args(argv)

    _, source = liars_agents(0)
    print(f"Python {sys.version.split()[0]}, one process, {args.seconds:g} CPU s per figure")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(timed, args.seconds, liars_game_with_bots)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    games, decisions, elapsed = timed(args.seconds, liars_game_with_bots)
    print(
        f"Liar's Dice, {PLAYERS} players x 5 dice, tavern rules, {source}: "
        f"{games / elapsed:,.0f} full games/s ({games} games in {elapsed:.1f} CPU s, "
        f"{decisions / games:.0f} wagers and accusations per game)"
    )
    games, decisions, elapsed = timed(args.seconds, liars_game_engine_only)
    print(
        f"Liar's Dice, the same kind of game straight on the engine (no views, no bots): "
        f"{games / elapsed:,.0f} full games/s ({decisions / games:.0f} decisions per game)"
    )
    sessions = BlackjackSessions()
    rounds, _, elapsed = timed(args.seconds, sessions.round)
    print(
        f"Dice Blackjack, {PLAYERS} players, tavern rules, {sessions.source}: "
        f"{rounds / elapsed:,.0f} rounds/s ({rounds} rounds in {elapsed:.1f} CPU s, "
        f"sessions of {SESSION_ROUNDS} rounds)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
