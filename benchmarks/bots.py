"""Decision times of the ``strong`` Liar's Dice bot (issue 3: under 50 ms at the 99th
percentile with 10 players of 5 dice).

Plays seeded games of one ``strong`` bot against ``probabilistic`` bots at 4 and 10
players and times every answer the strong bot gives (``choose_action`` on its turn and
``wants_to_accuse`` out of turn), not the building of the views it is given. Prints the
median, 99th percentile and maximum per table size, separately for on-turn and
out-of-turn answers.

    .venv/bin/python benchmarks/bots.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tavern_dice.bots.base import LiarsAction, LiarsDiceAgent
from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot as StrongLiarsDiceBot
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.play.runner import play_liars_dice


class Timed:
    """Wraps an agent and records how long each of its answers takes (seconds)."""

    def __init__(self, agent: LiarsDiceAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.on_turn: list[float] = []
        self.out_of_turn: list[float] = []

    def choose_action(self, view: LiarsDiceView) -> LiarsAction:
        start = time.perf_counter()
        action = self.agent.choose_action(view)
        self.on_turn.append(time.perf_counter() - start)
        return action

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        start = time.perf_counter()
        wants = self.agent.wants_to_accuse(view)
        self.out_of_turn.append(time.perf_counter() - start)
        return wants


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q * len(ordered) + 0.5)))
    return ordered[rank - 1]


def measure(players: int, games: int, seed: int) -> Timed:
    timed = Timed(StrongLiarsDiceBot("strong"))
    for g in range(games):
        seat = g % players  # the strong bot moves round the table
        agents: list[LiarsDiceAgent] = [
            ProbabilisticLiarsDiceBot(f"p{i}") for i in range(players)
        ]
        agents[seat] = timed
        play_liars_dice(LiarsDiceGame(players, seed=seed + g), agents)
    return timed


def report(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"  {label:<12} n={len(ms):>6}  p50 {statistics.median(ms):7.3f} ms  "
        f"p99 {percentile(ms, 0.99):7.3f} ms  max {max(ms):7.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per table size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (4, 10):
        timed = measure(players, args.games, args.seed)
        print(f"strong bot, {players} players x 5 dice, {args.games} games:")
        print(report("all answers", timed.on_turn + timed.out_of_turn))
        print(report("on turn", timed.on_turn))
        print(report("out of turn", timed.out_of_turn))


if __name__ == "__main__":
    main()
