"""Bots against bots, many times over, on every core: win rates and payouts with intervals.

Nothing here is a rule: games are driven by :mod:`tavern_dice.play.runner` with bots
from :mod:`tavern_dice.bots.registry`, and only their results are counted.

**Liar's Dice** (:func:`simulate_liars_dice`): ``games`` games with one bot per seat.
Game ``i`` seats the bots in the order given rotated left by ``i`` (so over the
games every bot sits in every position equally often, the first one included), with
dice seeded by :func:`game_seed` ``(seed, i)``. Each bot's win rate comes with a
Wilson 95 % score interval (:func:`wilson_interval`).

**Dice Blackjack** (:func:`simulate_blackjack`): ``rounds`` rounds, every bot at its
own seat of one table against the house, betting ``bet_cp`` (1 gp) each round. The
rounds are played in *sessions* of at most :data:`SESSION_ROUNDS` rounds; session
``i`` is a fresh table (seats rotated by ``i``, dice seeded by ``game_seed(seed, i)``)
where every seat starts with ``bet_cp * SESSION_ROUNDS`` cp, so no bot can go broke
and every bot bets the same amount every round. A bot's result is its mean payout
per unit bet (the settled gain divided by the bet; +1.5 for an exact hit), with a
normal-approximation 95 % interval of the mean.

Work is cut into chunks of games (sessions) that run in a
:class:`~concurrent.futures.ProcessPoolExecutor`. Every game's seed depends only on
``seed`` and its index, and the counts are sums, so the results are the same for any
number of workers.

>>> result = simulate_liars_dice(["probabilistic", "random"], games=20, seed=3, workers=1)
>>> [r.games for r in result.bots], sum(r.wins for r in result.bots)
([20, 20], 20)
>>> simulate_liars_dice(["probabilistic", "random"], 20, 3, workers=2) == result
True
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.bots.base import LiarsDiceAgent
from tavern_dice.bots.registry import (
    DEFAULT_BET_CP,
    make_blackjack_bot,
    make_liars_dice_bot,
)
from tavern_dice.dice import SeededDice
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import TAVERN as LIARS_TAVERN
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice
from tavern_dice.strategy.blackjack.solver import POLICIES, house_edge

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""

SESSION_ROUNDS = 100
"""Dice Blackjack rounds per session (one fresh table); see the module doc."""

Progress = Callable[[int], None]
"""Called with how many games (Liar's Dice) or rounds (Blackjack) just finished."""

_T = TypeVar("_T")


class SimulationError(TavernError):
    """A simulation that cannot run: no bots, too few or too many for the table, a count
    below 1."""


# --------------------------------------------------------------------------- statistics


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion: ``(low, high)``, both in 0..1.

    ``centre = (p + z²/2n) / (1 + z²/n)``, ``half = z √(p(1-p)/n + z²/4n²) / (1 + z²/n)``
    with ``p = successes / trials``. Unlike ``p ± z√(p(1-p)/n)`` it stays inside 0..1
    and is not empty at 0 or ``n`` successes.

    >>> [round(x, 4) for x in wilson_interval(10, 50)]
    [0.1124, 0.3304]

    Raises:
        SimulationError: ``trials < 1`` or ``successes`` outside ``0..trials``.
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise SimulationError(f"need 0 <= successes <= trials and trials >= 1, got "
                              f"{successes}/{trials}")
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # At 0 or n successes one end is exactly 0 or 1; floats may miss it by an ulp.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def mean_interval(
    total: float, total_squares: float, count: int, z: float = Z95
) -> tuple[float, float, float]:
    """Sample mean and its normal-approximation interval from sums: ``(mean, low, high)``,
    ``mean ± z * s / √n`` with ``s`` the sample standard deviation (``n - 1`` divisor).

    >>> [round(x, 4) for x in mean_interval(total=2.0, total_squares=4.0, count=4)]
    [0.5, -0.48, 1.48]

    Raises:
        SimulationError: ``count < 2``.
    """
    if count < 2:
        raise SimulationError(f"an interval of a mean needs at least 2 values, not {count}")
    mean = total / count
    variance = max(0.0, (total_squares - count * mean * mean) / (count - 1))
    half = z * math.sqrt(variance / count)
    return mean, mean - half, mean + half


def game_seed(seed: int, index: int) -> int:
    """The dice seed of game (or session) ``index`` of a simulation seeded with ``seed``:
    64 bits of SHA-256, the same on every run, platform and worker count."""
    digest = hashlib.sha256(f"tavern-dice:simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in game ``index`` (distinct from the dice's)."""
    digest = hashlib.sha256(f"tavern-dice:simulate:{seed}:{index}:bot:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seating(count: int, index: int) -> list[int]:
    """Which entry of the bot list sits at each seat in game ``index``: the list rotated
    left by ``index`` (``seating(3, 1) == [1, 2, 0]``)."""
    return [(seat + index) % count for seat in range(count)]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class BotWins:
    """One entry of the bot list in a Liar's Dice simulation.

    Attributes:
        kind: the bot's kind; label: its name in the report (kind, numbered if repeated).
        wins, games: games won and played; win_rate: ``wins / games``.
        low, high: Wilson 95 % interval of the win rate.
    """

    kind: str
    label: str
    wins: int
    games: int
    win_rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "bot": self.kind, "label": self.label, "wins": self.wins, "games": self.games,
            "win_rate": self.win_rate, "ci95": [self.low, self.high],
        }


@dataclass(frozen=True, slots=True)
class LiarsDiceSimulation:
    """Results of :func:`simulate_liars_dice`.

    Attributes:
        bots: one :class:`BotWins` per entry of the bot list, in the order given.
        games, seed, rules: what was simulated.
        even_share: the win rate of a bot no better than the others, ``1 / len(bots)``.
        rounds: rounds played over all games.
    """

    bots: tuple[BotWins, ...]
    games: int
    seed: int
    rules: LiarsDiceRules
    rounds: int

    @property
    def even_share(self) -> float:
        return 1.0 / len(self.bots)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``--json``)."""
        return {
            "game": "liars-dice", "games": self.games, "seed": self.seed,
            "rules": self.rules.to_dict(), "even_share": self.even_share,
            "mean_rounds": self.rounds / self.games,
            "results": [b.to_dict() for b in self.bots],
        }


@dataclass(frozen=True, slots=True)
class BotPayout:
    """One entry of the bot list in a Dice Blackjack simulation.

    Attributes:
        kind, label, proficiency: the bot, its name in the report, its proficiency bonus.
        rounds: rounds it bet in; mean: mean payout per unit bet; low, high: the normal
            95 % interval of the mean.
        exact: the exact expected payout per unit bet from the solver, for the kinds it
            knows (``optimal``, ``cautious``, ``bold``), else ``None``.
    """

    kind: str
    label: str
    proficiency: int | None
    rounds: int
    mean: float
    low: float
    high: float
    exact: Fraction | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the exact value as a float and as a fraction string)."""
        return {
            "bot": self.kind, "label": self.label, "proficiency": self.proficiency,
            "rounds": self.rounds, "mean_payout_per_unit_bet": self.mean,
            "ci95": [self.low, self.high],
            "exact": None if self.exact is None else float(self.exact),
            "exact_fraction": None if self.exact is None else str(self.exact),
        }


@dataclass(frozen=True, slots=True)
class BlackjackSimulation:
    """Results of :func:`simulate_blackjack`: one :class:`BotPayout` per bot entry."""

    bots: tuple[BotPayout, ...]
    rounds: int
    seed: int
    rules: BlackjackRules
    bet_cp: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``--json``)."""
        return {
            "game": "blackjack", "rounds": self.rounds, "seed": self.seed,
            "rules": self.rules.to_dict(), "bet_cp": self.bet_cp,
            "session_rounds": SESSION_ROUNDS,
            "results": [b.to_dict() for b in self.bots],
        }


def labels(kinds: Sequence[str]) -> list[str]:
    """Report names: the kind, numbered when it appears more than once
    (``['strong', 'probabilistic 1', 'probabilistic 2']``)."""
    out: list[str] = []
    for i, kind in enumerate(kinds):
        if kinds.count(kind) == 1:
            out.append(kind)
        else:
            out.append(f"{kind} {kinds[: i + 1].count(kind)}")
    return out


# --------------------------------------------------------------------------- running


def _chunks(total: int, workers: int) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges covering ``0..total``: several per worker, so that the
    progress bar moves and a slow chunk does not leave the other cores idle."""
    size = max(1, min(200, math.ceil(total / max(1, workers * 8))))
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def _run_chunks(
    work: Callable[..., _T], jobs: Iterable[tuple[Any, ...]], workers: int,
    sizes: Sequence[int], progress: Progress | None,
) -> list[_T]:
    """Run ``work(*job)`` for each job, in this process (``workers == 1``) or a pool,
    reporting each finished job's size; results in job order."""
    job_list = list(jobs)
    results: list[_T] = []
    if workers == 1:
        for job, size in zip(job_list, sizes, strict=True):
            results.append(work(*job))
            if progress is not None:
                progress(size)
        return results
    executor: Executor
    with ProcessPoolExecutor(max_workers=workers) as executor:
        futures = [executor.submit(work, *job) for job in job_list]
        for future, size in zip(futures, sizes, strict=True):
            results.append(future.result())
            if progress is not None:
                progress(size)
    return results


def _check_workers(workers: int | None) -> int:
    chosen = (os.cpu_count() or 1) if workers is None else workers
    if chosen < 1:
        raise SimulationError(f"workers is at least 1, not {chosen}")
    return chosen


@dataclass(frozen=True, slots=True)
class RegistrySeat:
    """A seat played by a registered bot kind (see :mod:`tavern_dice.bots.registry`)."""

    kind: str

    def make(self, name: str, seed: int) -> LiarsDiceAgent:
        return make_liars_dice_bot(self.kind, name=name, seed=seed)


class SeatSpec(Protocol):
    """Who plays a seat in a simulation: a ``kind`` for the report and a picklable
    ``make(name, seed)`` that builds the agent (simulations run in a process pool)."""

    @property
    def kind(self) -> str: ...

    def make(self, name: str, seed: int) -> LiarsDiceAgent: ...


def _liars_chunk(
    seats: tuple[SeatSpec, ...], rules: LiarsDiceRules, seed: int, start: int, stop: int
) -> tuple[list[int], int]:
    """Play games ``start..stop-1``; return wins per bot entry and rounds played."""
    n = len(seats)
    wins = [0] * n
    rounds = 0
    for index in range(start, stop):
        order = seating(n, index)
        names = [f"{seats[entry].kind}-{entry}" for entry in order]
        agents = [
            seats[entry].make(names[seat], bot_seed(seed, index, seat))
            for seat, entry in enumerate(order)
        ]
        game = LiarsDiceGame(names, rules=rules, dice=SeededDice(game_seed(seed, index)))
        winner = play_liars_dice(game, agents)
        wins[order[winner]] += 1
        rounds += game.round
    return wins, rounds


def simulate_liars_dice(
    kinds: Sequence[str | SeatSpec],
    games: int,
    seed: int,
    rules: LiarsDiceRules = LIARS_TAVERN,
    workers: int | None = None,
    progress: Progress | None = None,
) -> LiarsDiceSimulation:
    """Play ``games`` seeded Liar's Dice games among ``kinds`` (one bot per seat).

    Args:
        kinds: bot kinds from :data:`~tavern_dice.bots.registry.LIARS_DICE_BOTS` (or
            :class:`SeatSpec` objects, e.g. an exploiter), one per seat (repeats allowed),
            2..max_players of them.
        games: how many games (>= 1).
        seed: the simulation's seed (see :func:`game_seed`).
        rules: the ruleset.
        workers: processes (default ``os.cpu_count()``; 1 runs here, without a pool).
        progress: called with the number of games each finished chunk played.

    Raises:
        SimulationError: a table size the rules do not allow, or ``games < 1``.
        UnknownBotError: an unknown kind.
    """
    seats = tuple(
        RegistrySeat(k.strip().lower()) if isinstance(k, str) else k for k in kinds
    )
    chosen = tuple(seat.kind for seat in seats)
    if not rules.min_players <= len(chosen) <= rules.max_players:
        raise SimulationError(
            f"Liar's Dice takes {rules.min_players}-{rules.max_players} bots, not {len(chosen)}"
        )
    if games < 1:
        raise SimulationError(f"games is at least 1, not {games}")
    for seat in seats:
        seat.make(seat.kind, 0)  # an unknown kind fails here, before any process starts
    count = _check_workers(workers)
    ranges = _chunks(games, count)
    results = _run_chunks(
        _liars_chunk, ((seats, rules, seed, a, b) for a, b in ranges), count,
        [b - a for a, b in ranges], progress,
    )
    wins = [sum(r[0][i] for r in results) for i in range(len(chosen))]
    rounds = sum(r[1] for r in results)
    bots = tuple(
        BotWins(kind, label, w, games, w / games, *wilson_interval(w, games))
        for kind, label, w in zip(chosen, labels(chosen), wins, strict=True)
    )
    return LiarsDiceSimulation(bots, games, seed, rules, rounds)


@dataclass(frozen=True, slots=True)
class BlackjackEntry:
    """One Dice Blackjack bot to simulate: its kind and proficiency bonus (B7)."""

    kind: str
    proficiency: int | None = None


def _blackjack_chunk(
    entries: tuple[BlackjackEntry, ...], rules: BlackjackRules, seed: int, bet_cp: int,
    rounds: int, start: int, stop: int,
) -> list[tuple[int, int, int]]:
    """Play sessions ``start..stop-1``; per bot entry ``(rounds, Σ gain, Σ gain²)`` with
    gains in cp (integers, so that sums do not depend on how the work was cut)."""
    n = len(entries)
    sums = [[0, 0, 0] for _ in range(n)]
    for index in range(start, stop):
        played = min(SESSION_ROUNDS, rounds - index * SESSION_ROUNDS)
        order = seating(n, index)
        game = BlackjackGame(
            [f"{entries[e].kind}-{e}" for e in order], rules=rules,
            balances=bet_cp * SESSION_ROUNDS,
            proficiency=[entries[e].proficiency for e in order],
            dice=SeededDice(game_seed(seed, index)),
        )
        agents = [
            make_blackjack_bot(entries[e].kind, seed=bot_seed(seed, index, seat), bet_cp=bet_cp)
            for seat, e in enumerate(order)
        ]
        for _ in range(played):
            play_blackjack_round(game, agents)
            for settled in game.settlements():
                if settled.bet != bet_cp:
                    raise SimulationError(
                        f"seat {settled.seat} bet {settled.bet} cp, not the {bet_cp} cp asked"
                    )
                row = sums[order[settled.seat]]
                row[0] += 1
                row[1] += settled.delta
                row[2] += settled.delta * settled.delta
    return [(r[0], r[1], r[2]) for r in sums]


def exact_payout(kind: str, rules: BlackjackRules, proficiency: int | None) -> Fraction | None:
    """The solver's exact expected payout per unit bet for a bot kind it knows
    (``optimal``: the solution; ``cautious``/``bold``: their fixed policies), else ``None``.
    Exact hits count the full 3/2 (with a 1 gp bet the copper payout is exact too)."""
    if kind == "optimal":
        return -house_edge(rules, proficiency)
    policy = POLICIES.get(kind)
    return None if policy is None else -house_edge(rules, proficiency, policy)


def simulate_blackjack(
    entries: Sequence[BlackjackEntry | str],
    rounds: int,
    seed: int,
    rules: BlackjackRules = BLACKJACK_TAVERN,
    workers: int | None = None,
    progress: Progress | None = None,
    bet_cp: int = DEFAULT_BET_CP,
) -> BlackjackSimulation:
    """Play ``rounds`` seeded Dice Blackjack rounds, every bot at its own seat against the
    house (see the module doc for sessions and balances).

    Args:
        entries: bots (kinds, or :class:`BlackjackEntry` with a proficiency bonus), 1..10.
        rounds: rounds to play (>= 2).
        seed: the simulation's seed; rules: the ruleset; workers, progress: as
            :func:`simulate_liars_dice` (progress counts rounds).
        bet_cp: every bot's bet each round, in cp (default 1 gp).

    Raises:
        SimulationError: no bots or more than 10, fewer than 2 rounds, a bet outside the
            table's limits.
        UnknownBotError: an unknown kind.
    """
    chosen = tuple(
        BlackjackEntry(e.strip().lower()) if isinstance(e, str)
        else BlackjackEntry(e.kind.strip().lower(), e.proficiency)
        for e in entries
    )
    if not 1 <= len(chosen) <= 10:
        raise SimulationError(f"Dice Blackjack seats 1-10 bots, not {len(chosen)}")
    if rounds < 2:
        raise SimulationError(f"rounds is at least 2, not {rounds}")
    high = rules.max_bet_cp if rules.max_bet_cp is not None else bet_cp
    if not rules.min_bet_cp <= bet_cp <= high:
        raise SimulationError(f"a bet of {bet_cp} cp is outside the table's limits")
    for entry in set(chosen):
        make_blackjack_bot(entry.kind)
        # The engine checks the proficiency bonus.
        BlackjackGame(1, rules=rules, proficiency=[entry.proficiency], dice=SeededDice(0))
    count = _check_workers(workers)
    sessions = math.ceil(rounds / SESSION_ROUNDS)
    ranges = _chunks(sessions, count)
    sizes = [
        min(b * SESSION_ROUNDS, rounds) - a * SESSION_ROUNDS for a, b in ranges
    ]
    results = _run_chunks(
        _blackjack_chunk,
        ((chosen, rules, seed, bet_cp, rounds, a, b) for a, b in ranges),
        count, sizes, progress,
    )
    names = labels([e.kind if e.proficiency is None else f"{e.kind}:{e.proficiency}"
                    for e in chosen])
    bots: list[BotPayout] = []
    for i, (entry, label) in enumerate(zip(chosen, names, strict=True)):
        played = sum(r[i][0] for r in results)
        gains = sum(r[i][1] for r in results)
        squares = sum(r[i][2] for r in results)
        mean, low, high_ = mean_interval(gains / bet_cp, squares / bet_cp**2, played)
        bots.append(BotPayout(
            entry.kind, label, entry.proficiency, played, mean, low, high_,
            exact_payout(entry.kind, rules, entry.proficiency),
        ))
    return BlackjackSimulation(tuple(bots), rounds, seed, rules, bet_cp)


__all__ = [
    "SESSION_ROUNDS",
    "Z95",
    "BlackjackEntry",
    "BlackjackSimulation",
    "BotPayout",
    "BotWins",
    "LiarsDiceSimulation",
    "SimulationError",
    "bot_seed",
    "exact_payout",
    "game_seed",
    "labels",
    "mean_interval",
    "seating",
    "simulate_blackjack",
    "simulate_liars_dice",
    "wilson_interval",
]
