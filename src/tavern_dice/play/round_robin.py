"""The levels' round-robin: simulated Liar's Dice games among the levels, and their ratings.

An offline builder (``benchmarks/levels.py`` drives it; nothing at play time imports it).
At a table of ``players`` seats, the games go through every set of that many distinct
levels in turn (every pair heads-up, every four of six at four players, all six at six),
in a seeded order, each with its seats shuffled and its dice from
:func:`~tavern_dice.play.simulate.game_seed`. Each game's finishing order (winner first,
then the players in the reverse order they went out) updates the levels' ratings with the
Plackett-Luce model of :mod:`tavern_dice.play.ratings`; the games are rated in a seeded
order, with no uncertainty added between games (a bot does not change), so the intervals
narrow with the games played.

>>> games = play_round_robin(["pip", "mags"], players=2, games=6, seed=1, workers=1)
>>> [g.table for g in games][:2], len(games)
([('mags', 'pip'), ('mags', 'pip')], 6)
>>> fitted = fit(games, seed=1)
>>> fitted["mags"].rating.mu > fitted["pip"].rating.mu, fitted["pip"].games
(True, 6)
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.ratings import LevelRating, Rating, model, placing
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.play.simulate import bot_seed, game_seed


@dataclass(frozen=True, slots=True)
class Played:
    """One game of the round-robin: who sat (kinds, sorted), who finished where (kinds,
    best first), and the CPU seconds it took."""

    table: tuple[str, ...]
    order: tuple[str, ...]
    cpu_s: float


def schedule(kinds: Sequence[str], players: int, games: int, seed: int,
             limits: dict[str, int] | None = None) -> list[tuple[str, ...]]:
    """The tables of ``games`` games: every set of ``players`` distinct ``kinds`` in turn,
    each pass in a seeded order. ``limits`` caps the games a kind plays (a costly bot's
    heads-up games); once a kind reaches its cap its tables are skipped."""
    combos = sorted(itertools.combinations(sorted(kinds), players))
    rng = random.Random(f"tavern-dice:round-robin:{seed}:{players}")
    played = dict.fromkeys(kinds, 0)
    caps = limits or {}
    tables: list[tuple[str, ...]] = []
    while len(tables) < games:
        order = list(combos)
        rng.shuffle(order)
        added = False
        for table in order:
            if len(tables) == games:
                break
            if any(played[k] >= caps.get(k, games) for k in table):
                continue
            tables.append(table)
            added = True
            for k in table:
                played[k] += 1
        if not added:
            break
    return tables


def play_one(table: Sequence[str], seed: int, index: int,
             rules: LiarsDiceRules = TAVERN) -> Played:
    """Play game ``index`` of the round-robin at ``table`` (kinds) to its end."""
    rng = random.Random(game_seed(seed, index))
    seats = list(table)
    rng.shuffle(seats)
    bots = [make_liars_dice_bot(kind, name=f"{kind}-{i}", seed=bot_seed(seed, index, i))
            for i, kind in enumerate(seats)]
    game = LiarsDiceGame([b.name for b in bots], rules=rules,
                         dice=SeededDice(game_seed(seed, index)))
    start = time.process_time()
    play_liars_dice(game, bots)
    cpu = time.process_time() - start
    return Played(tuple(sorted(table)), tuple(seats[s] for s in placing(game.log)), cpu)


def _play(job: tuple[tuple[str, ...], int, int]) -> Played:
    return play_one(*job)


def play_round_robin(kinds: Sequence[str], players: int, games: int, seed: int,
                     workers: int = 1, limits: dict[str, int] | None = None,
                     first_index: int = 0) -> list[Played]:
    """Play the round-robin's games at tables of ``players`` (see :func:`schedule`), on
    ``workers`` processes; game ``i`` is seeded by ``(seed, first_index + i)``."""
    tables = schedule(kinds, players, games, seed, limits)
    jobs = [(t, seed, first_index + i) for i, t in enumerate(tables)]
    if workers <= 1:
        return [_play(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play, jobs, chunksize=1))


def fit(games: Iterable[Played], seed: int) -> dict[str, LevelRating]:
    """Every kind's rating from ``games``, rated one after another in a seeded order from
    the common start, with no uncertainty added between games."""
    rater = model(tau=0.0)
    ordered = list(games)
    random.Random(f"tavern-dice:round-robin-fit:{seed}").shuffle(ordered)
    ratings: dict[str, Any] = {}
    count: dict[str, int] = {}
    for game in ordered:
        teams = [[ratings.setdefault(k, rater.rating(name=k))] for k in game.order]
        new = rater.rate(teams, ranks=list(range(1, len(game.order) + 1)))
        for kind, team in zip(game.order, new, strict=True):
            ratings[kind] = team[0]
            count[kind] = count.get(kind, 0) + 1
    return {k: LevelRating(k, Rating(float(r.mu), float(r.sigma)), count[k])
            for k, r in ratings.items()}


def separated(ladder: Sequence[str], ratings: dict[str, LevelRating]) -> list[str]:
    """What is wrong with ``ladder`` (kinds, weakest first) under ``ratings``: a level rated
    no higher than the one below it, or whose 95 % interval overlaps that one's. Empty when
    every adjacent pair is clearly apart; levels without a rating are skipped."""
    present = [k for k in ladder if k in ratings]
    problems = []
    for low, high in itertools.pairwise(present):
        a, b = ratings[low].rating, ratings[high].rating
        if b.mu <= a.mu:
            problems.append(f"{high} ({b.mu:.0f}) is not above {low} ({a.mu:.0f})")
        elif b.interval[0] <= a.interval[1]:
            problems.append(f"{high}'s interval {b.interval[0]:.0f}-{b.interval[1]:.0f} "
                            f"overlaps {low}'s {a.interval[0]:.0f}-{a.interval[1]:.0f}")
    return problems


__all__ = ["Played", "fit", "play_one", "play_round_robin", "schedule", "separated"]
