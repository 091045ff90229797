"""The bots by name: one table per game, and factories that seat a bot by its kind.

Each table maps a bot's kind (the name a person types: ``tavern play --bot
probabilistic``) to a factory. The built-in factories are named by
``'module:attribute'`` and imported only when first used, so importing this
module stays cheap and a bot that needs a heavy solver loads it only when
seated. Adding a bot is one line in :data:`_LIARS_DICE_PATHS` or
:data:`_BLACKJACK_PATHS`; a bot defined elsewhere can also be added at run
time with :func:`register_liars_dice_bot` / :func:`register_blackjack_bot`.

Factories are called with keywords only: ``factory(name=..., seed=..., **options)``
for Liar's Dice and ``factory(name=..., seed=..., bet_cp=..., **options)`` for
Dice Blackjack. Every bot is picklable (simulations run them in a process pool).

>>> bot = make_liars_dice_bot("probabilistic", seed=3)
>>> bot.name, type(bot).__name__
('probabilistic', 'ProbabilisticLiarsDiceBot')
>>> make_blackjack_bot("cautious", name="Bram", bet_cp=250).bet_cp
250
>>> make_liars_dice_bot("sharp")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavern_dice.bots.registry.UnknownBotError: unknown ... 'sharp'; known: aldous, ..., vell
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent
from tavern_dice.errors import TavernError
from tavern_dice.money import gp


class BotError(TavernError):
    """A bot that cannot be seated: bad options, or a factory that builds no agent."""


class UnknownBotError(BotError):
    """A bot kind that no table names; the message lists the known kinds."""


def check_number(name: str, value: float, low: float, high: float | None = None) -> float:
    """A bot's numeric option, checked: a real number (not a bool) from ``low`` (to
    ``high``).

    Raises:
        BotError: naming the option and its range.
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= low:
        raise BotError(f"{name} is a number of at least {low}, not {value!r}")
    if high is not None and value > high:
        raise BotError(f"{name} is a number from {low} to {high}, not {value!r}")
    return float(value)


LiarsDiceBotFactory = Callable[..., LiarsDiceAgent]
"""``factory(name=str, seed=int | None, **options) -> LiarsDiceAgent``."""

BlackjackBotFactory = Callable[..., BlackjackAgent]
"""``factory(name=str, seed=int | None, bet_cp=int, **options) -> BlackjackAgent``."""


class LazyFactory:
    """A factory named by ``'package.module:attribute'``, imported on first call.

    Picklable (it holds only the path), and its ``repr`` shows where the bot lives.
    """

    def __init__(self, path: str) -> None:
        module, sep, attribute = path.partition(":")
        if not sep or not module or not attribute:
            raise BotError(f"a factory path is 'package.module:attribute', not {path!r}")
        self.path = path

    def load(self) -> Callable[..., Any]:
        """Import and return the named factory."""
        module, _, attribute = self.path.partition(":")
        found: Callable[..., Any] = getattr(importlib.import_module(module), attribute)
        return found

    def __call__(self, **kwargs: Any) -> Any:
        return self.load()(**kwargs)

    def __repr__(self) -> str:
        return f"LazyFactory({self.path!r})"


_LIARS_DICE_PATHS: dict[str, str] = {
    "random": "tavern_dice.bots.liars_random:RandomLiarsDiceBot",
    "probabilistic": "tavern_dice.bots.liars_probabilistic:ProbabilisticLiarsDiceBot",
    "trusting": "tavern_dice.bots.liars_trusting:TrustingLiarsDiceBot",
    "strong": "tavern_dice.bots.liars_strong:StrongLiarsDiceBot",
    "bluffer": "tavern_dice.bots.liars_exploit.bluffers:BluffingBot",
    "equilibrium": "tavern_dice.bots.liars_equilibrium:EquilibriumLiarsDiceBot",
    "careless": "tavern_dice.bots.liars_careless:CarelessLiarsDiceBot",
    # The rated levels (tavern personas made from the bots above): tavern_dice.bots.levels.
    "pip": "tavern_dice.bots.levels:PIP",
    "tobb": "tavern_dice.bots.levels:TOBB",
    "bess": "tavern_dice.bots.levels:BESS",
    "mags": "tavern_dice.bots.levels:MAGS",
    "aldous": "tavern_dice.bots.levels:ALDOUS",
    "vell": "tavern_dice.bots.levels:VELL",
}
"""Built-in Liar's Dice bots: kind -> ``'module:factory'``."""

_BLACKJACK_PATHS: dict[str, str] = {
    "cautious": "tavern_dice.bots.blackjack_simple:CautiousBlackjackBot",
    "bold": "tavern_dice.bots.blackjack_simple:BoldBlackjackBot",
    "optimal": "tavern_dice.bots.blackjack_optimal:OptimalBlackjackBot",
    "nell": "tavern_dice.bots.levels:NELL",
    "brannoc": "tavern_dice.bots.levels:BRANNOC",
    "sabine": "tavern_dice.bots.levels:SABINE",
}
"""Built-in Dice Blackjack bots: kind -> ``'module:factory'``."""

LIARS_DICE_BOTS: dict[str, LiarsDiceBotFactory] = {
    kind: LazyFactory(path) for kind, path in _LIARS_DICE_PATHS.items()
}
"""Liar's Dice bot factories by kind (``sorted(LIARS_DICE_BOTS)`` lists the kinds)."""

BLACKJACK_BOTS: dict[str, BlackjackBotFactory] = {
    kind: LazyFactory(path) for kind, path in _BLACKJACK_PATHS.items()
}
"""Dice Blackjack bot factories by kind."""

DEFAULT_BET_CP = gp(1)
"""The simple Blackjack bots' default bet: 1 gp (100 cp)."""


def _check_kind(kind: str) -> str:
    if not isinstance(kind, str) or not kind.strip():
        raise BotError(f"a bot kind is a non-empty name, not {kind!r}")
    return kind.strip().lower()


def _register(table: dict[str, Any], game: str, kind: str, factory: Any, replace: bool) -> None:
    key = _check_kind(kind)
    if not callable(factory) and not isinstance(factory, str):
        raise BotError(f"a {game} bot factory is a callable or a 'module:attribute' path")
    if key in table and not replace:
        raise BotError(f"a {game} bot {key!r} is already registered; pass replace=True")
    table[key] = LazyFactory(factory) if isinstance(factory, str) else factory


def register_liars_dice_bot(
    kind: str, factory: LiarsDiceBotFactory | str, *, replace: bool = False
) -> None:
    """Add a Liar's Dice bot under ``kind`` (lower-cased).

    Args:
        factory: a callable ``factory(name=..., seed=..., **options)``, or its
            ``'module:attribute'`` path (imported when first used).
        replace: allow replacing a kind that is already registered.

    Raises:
        BotError: an empty kind, a kind already taken, or a factory that is neither.
    """
    _register(LIARS_DICE_BOTS, "Liar's Dice", kind, factory, replace)


def register_blackjack_bot(
    kind: str, factory: BlackjackBotFactory | str, *, replace: bool = False
) -> None:
    """Add a Dice Blackjack bot under ``kind``; as :func:`register_liars_dice_bot`, with
    factories called as ``factory(name=..., seed=..., bet_cp=..., **options)``."""
    _register(BLACKJACK_BOTS, "Dice Blackjack", kind, factory, replace)


def _lookup(table: dict[str, Any], game: str, kind: str) -> Any:
    key = _check_kind(kind)
    factory = table.get(key)
    if factory is None:
        raise UnknownBotError(
            f"unknown {game} bot {kind!r}; known: {', '.join(sorted(table))}"
        )
    return factory


def _build(factory: Any, kind: str, options: dict[str, Any], **fixed: Any) -> Any:
    try:
        return factory(**fixed, **options)
    except TypeError as error:
        if not options:
            raise
        # An option the factory does not take is the caller's mistake, not a bot bug.
        raise BotError(
            f"the {kind!r} bot does not take options {sorted(options)}: {error}"
        ) from None


def make_liars_dice_bot(
    kind: str, name: str | None = None, seed: int | None = None, **options: Any
) -> LiarsDiceAgent:
    """Seat a Liar's Dice bot of ``kind`` (see :data:`LIARS_DICE_BOTS`).

    Args:
        kind: e.g. ``'random'`` or ``'probabilistic'`` (case-insensitive).
        name: the seat's name (default: the kind).
        seed: seed of the bot's own ``random.Random`` (same seed, same choices).
        options: passed to the factory (e.g. ``threshold=0.4`` for ``probabilistic``).

    Raises:
        UnknownBotError: no such kind; the message lists the known kinds.
        BotError: options the bot rejects, or a factory that returns no agent.
    """
    factory = _lookup(LIARS_DICE_BOTS, "Liar's Dice", kind)
    agent = _build(factory, kind, options, name=name or _check_kind(kind), seed=seed)
    if not isinstance(agent, LiarsDiceAgent):
        raise BotError(f"the factory for {kind!r} built {agent!r}, not a Liar's Dice agent")
    return agent


def make_blackjack_bot(
    kind: str,
    name: str | None = None,
    seed: int | None = None,
    bet_cp: int = DEFAULT_BET_CP,
    **options: Any,
) -> BlackjackAgent:
    """Seat a Dice Blackjack bot of ``kind`` (see :data:`BLACKJACK_BOTS`).

    Args:
        kind: e.g. ``'cautious'`` or ``'bold'`` (case-insensitive).
        name: the seat's name (default: the kind).
        seed: seed of the bot's own ``random.Random``.
        bet_cp: the bet it places each round, in cp (capped by the table's limits).
        options: passed to the factory.

    Raises:
        UnknownBotError: no such kind; the message lists the known kinds.
        BotError: a bet below 1 cp, other options the bot rejects, or no agent built.
    """
    factory = _lookup(BLACKJACK_BOTS, "Dice Blackjack", kind)
    agent = _build(
        factory, kind, options, name=name or _check_kind(kind), seed=seed, bet_cp=bet_cp
    )
    if not isinstance(agent, BlackjackAgent):
        raise BotError(f"the factory for {kind!r} built {agent!r}, not a Dice Blackjack agent")
    return agent


__all__ = [
    "BLACKJACK_BOTS",
    "DEFAULT_BET_CP",
    "LIARS_DICE_BOTS",
    "BlackjackBotFactory",
    "BotError",
    "LazyFactory",
    "LiarsDiceBotFactory",
    "UnknownBotError",
    "check_number",
    "make_blackjack_bot",
    "make_liars_dice_bot",
    "register_blackjack_bot",
    "register_liars_dice_bot",
]
