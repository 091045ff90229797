"""Rated opponents a player can choose by feel: tavern personas made from the bots.

Each level is a :class:`Persona`: a name, a one-line manner, the bot it plays (a registry
kind with options, and for the weaker Liar's Dice levels a chance of a careless, random
decision: :mod:`tavern_dice.bots.liars_careless`) and a few lines of table talk
(:mod:`tavern_dice.bots.table_talk`, which hears only public events). Every persona is
registered under its kind (``pip``, ``mags``...), so it sits wherever a bot does:
``tavern play liars-dice --bots tobb,mags``, ``tavern simulate``, the web table's bot
list and :func:`~tavern_dice.bots.registry.make_liars_dice_bot`.

The Liar's Dice levels, weakest first (their ratings are measured, not guessed:
``benchmarks/levels.py``, shipped in ``data/level_ratings.json``,
:mod:`tavern_dice.play.ratings`):

>>> [p.kind for p in LIARS_LEVELS]
['pip', 'tobb', 'bess', 'mags', 'aldous', 'vell']
>>> MAGS.level, MAGS.base, persona("Mags") is MAGS
(4, 'probabilistic', True)
>>> from tavern_dice.bots.registry import make_liars_dice_bot
>>> type(make_liars_dice_bot("tobb", seed=1)).__name__
'CarelessLiarsDiceBot'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

LIARS = "liars-dice"
BLACKJACK = "blackjack"


@dataclass(frozen=True)
class Persona:
    """One rated opponent: who it is at the table and which bot plays it.

    Calling it is the registry's factory: ``persona(name=..., seed=..., **options)``
    (and ``bet_cp=...`` for Dice Blackjack) seats its bot; ``options`` given there are
    added to the base bot's.

    Attributes:
        kind: the registry name a person types (``mags``).
        name: the name it sits under (``Mags``).
        title: how the tavern knows it (``the tally-keeper``).
        manner: one line on how it plays.
        game: ``'liars-dice'`` or ``'blackjack'``.
        level: 1 (weakest) upward, within its game.
        base: the registry kind of the bot it plays.
        options: that bot's options.
        slip: the chance of a careless, random decision (Liar's Dice only).
        slip_at: that chance at a table of a given size (the players the game started
            with), where it differs from ``slip``: the ladder's order is measured at 2, 4
            and 6 players, and some levels play closer to the next one up at one size.
        talk: its table talk: lines by occasion (see :mod:`tavern_dice.bots.table_talk`).
    """

    kind: str
    name: str
    title: str
    manner: str
    game: str
    level: int
    base: str
    options: Mapping[str, Any] = field(default_factory=dict)
    slip: float = 0.0
    talk: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    slip_at: Mapping[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "slip_at", MappingProxyType(dict(self.slip_at)))
        object.__setattr__(self, "talk", MappingProxyType(dict(self.talk)))

    def __call__(self, **kwargs: Any) -> Any:
        # Imported here: the registry imports this module lazily, and this module needs it.
        from tavern_dice.bots import registry

        options = {**self.options, **{k: v for k, v in kwargs.items()
                                      if k not in ("name", "seed", "bet_cp")}}
        name = kwargs.get("name") or self.name
        seed = kwargs.get("seed")
        if self.game == BLACKJACK:
            bet = kwargs.get("bet_cp", registry.DEFAULT_BET_CP)
            return registry.make_blackjack_bot(self.base, name, seed, bet, **options)
        if self.slip or self.slip_at:
            return registry.make_liars_dice_bot(
                "careless", name, seed, base=self.base, slip=self.slip, base_options=options,
                slip_at=dict(self.slip_at))
        return registry.make_liars_dice_bot(self.base, name, seed, **options)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Pickled by kind, so a process pool ships a name, not the lines.
        return (persona, (self.kind,))


PIP = Persona(
    "pip", "Pip", "the potboy",
    "Learned the game last week: bids whatever comes into his head and shouts 'Liar!' on a "
    "whim.",
    LIARS, 1, "random",
    talk={
        "open": ("Um. {wager}? Is that allowed?", "{wager}! I think.", "Ooh, {wager}!"),
        "raise": ("{wager}! No, wait... yes, {wager}.", "Is it my go? {wager}, then."),
        "call": ("Liar! Er, probably.", "I say liar! What happens now?"),
        "called": ("Me? A liar? I don't even know what I said.",),
        "lose": ("Oh no, not again.", "Is it bad that I lost one?"),
        "won": ("I was right? I was right!",),
        "out": ("Back to the kitchen, then. Good game, all!",),
        "win": ("I won? Can someone tell me how?",),
    },
)
TOBB = Persona(
    "tobb", "Tobb", "three ales in",
    "Knows the odds of his own dice and uses them now and then; more often the ale decides.",
    LIARS, 2, "probabilistic", slip=0.6, slip_at={2: 0.7},
    talk={
        "open": ("{wager}. *hic*", "Let's say... {wager}. Where's my mug?"),
        "raise": ("{wager}, and another round for the table!",
                  "{wager}. Or was it... no, {wager}."),
        "call": ("Liar! I can smell it on you.", "Pfft. Liar."),
        "called": ("You wound me, {them}.",),
        "lose": ("Who moved my dice?", "That one was the ale's fault."),
        "won": ("Never doubt old Tobb!",),
        "out": ("I'll just... rest my eyes.",),
        "win": ("Drinks are on... well, not on me.",),
    },
)
BESS = Persona(
    "bess", "Bess", "the barmaid",
    "Opens on faces she holds none of and calls whoever takes the bait; busy with the "
    "tables, she slips now and then.",
    LIARS, 3, "bluffer", slip=0.25, slip_at={2: 0.45},
    talk={
        "open": ("{wager}, love.", "I'll start us off: {wager}.", "{wager}. Trust me."),
        "raise": ("{wager}, and mind your elbows.", "Fine, {wager}."),
        "call": ("Oh, I don't think so, {them}.", "Liar, sweetheart."),
        "called": ("Would I lie to you, {them}?", "Brave of you."),
        "lose": ("Well, that's the tips gone.",),
        "won": ("Told you to trust me.", "Never follow a barmaid's lead, {them}."),
        "out": ("Back to work for me.",),
        "win": ("The house always wins, and tonight I'm the house.",),
    },
)
MAGS = Persona(
    "mags", "Mags", "the tally-keeper",
    "Counts her own dice and plays the exact odds, though she loses count now and then; "
    "never bluffs, and never reads your bids either.",
    LIARS, 4, "probabilistic", slip=0.1, slip_at={2: 0.3},
    talk={
        "open": ("{wager}.", "{wager}. The numbers say so."),
        "raise": ("{wager}. That's the sum of it.", "{wager}."),
        "call": ("The odds are against you, {them}.", "Liar. I've done the tally."),
        "called": ("Count them, then.",),
        "lose": ("Unlikely. Not impossible.", "The tally was off by one."),
        "won": ("As the numbers said.",),
        "out": ("A fair reckoning. I'm done.",),
        "win": ("Tally's settled.",),
    },
)
ALDOUS = Persona(
    "aldous", "Aldous", "the friar",
    "Reads every bid at the table as an honest one and weighs every outcome, when his mind "
    "is not on his prayers; a bold bluff fools him.",
    LIARS, 5, "trusting", slip=0.08, slip_at={2: 0.2},
    talk={
        "open": ("{wager}, and bless the dice.", "Let us begin with {wager}."),
        "raise": ("{wager}, if I read you right, {them}.", "{wager}, in good faith."),
        "call": ("Forgive me, {them}, but no.", "I cannot believe that, {them}."),
        "called": ("I spoke in good faith.",),
        "lose": ("A lesson in humility.", "I believed you, {them}."),
        "won": ("Honesty rewarded.",),
        "out": ("I shall pray for better dice.",),
        "win": ("Peace be with you all. And thank you for the dice.",),
    },
)
VELL = Persona(
    "vell", "Vell", "the stranger in the corner",
    "Learns how you bluff from every reveal, mixes his play so that you cannot read him, and "
    "plays solved odds heads-up: the hardest opponent in the house.",
    LIARS, 6, "strong",
    talk={
        "open": ("{wager}.", "...{wager}."),
        "raise": ("{wager}.", "Hm. {wager}."),
        "call": ("No.", "Show me, {them}."),
        "called": ("As you like.",),
        "lose": ("Noted.",),
        "won": ("I was watching, {them}.",),
        "out": ("Another night.",),
        "win": ("Good game.",),
    },
)

NELL = Persona(
    "nell", "Nell", "the nervous clerk",
    "Stands the moment she is within 7 of the target; a bust frightens her more than a loss.",
    BLACKJACK, 1, "cautious",
    talk={
        "stand": ("That's enough for me.", "I'll stop here, thank you."),
        "roll": ("Just one more. Oh dear.",),
        "bust": ("I knew I shouldn't have!",),
        "win": ("Oh! Oh, lovely.",),
        "exact": ("Exactly? Me?",),
        "lose": ("I'll be more careful.",),
    },
)
BRANNOC = Persona(
    "brannoc", "Brannoc", "the sellsword",
    "Rolls on until he is within 2 of the target: all nerve, little arithmetic.",
    BLACKJACK, 2, "bold",
    talk={
        "stand": ("Close enough to spit on.",),
        "roll": ("Again!", "Roll it. Fortune favours the bold."),
        "bust": ("Worth it.", "Bah!"),
        "win": ("Pay the man.",),
        "exact": ("Right on the nose!",),
        "lose": ("Next round, house.",),
    },
)
SABINE = Persona(
    "sabine", "Sabine", "the card sharp",
    "Plays the exact best move at every total, proficiency bonus included: the house's "
    "least favourite guest.",
    BLACKJACK, 3, "optimal",
    talk={
        "stand": ("I'll stand.", "Standing. The odds agree."),
        "roll": ("Another, please.",),
        "bust": ("It happens.",),
        "win": ("Thank you, house.",),
        "exact": ("Exactly as planned.",),
        "lose": ("Within expectations.",),
    },
)

LIARS_LEVELS: tuple[Persona, ...] = (PIP, TOBB, BESS, MAGS, ALDOUS, VELL)
"""The Liar's Dice levels, weakest first."""
BLACKJACK_LEVELS: tuple[Persona, ...] = (NELL, BRANNOC, SABINE)
"""The Dice Blackjack players, least skilled first."""
PERSONAS: Mapping[str, Persona] = MappingProxyType(
    {p.kind: p for p in LIARS_LEVELS + BLACKJACK_LEVELS})
"""Every persona by kind."""

MIDDLE_LIARS_LEVEL = MAGS
"""The level ``tavern play liars-dice`` seats when no ``--bots`` are given."""


def persona(kind: str) -> Persona:
    """The persona of ``kind`` (a kind or a persona's name, any case).

    Raises:
        KeyError: no such persona.
    """
    return PERSONAS[kind.strip().lower()]


def persona_of(kind: str | None) -> Persona | None:
    """The persona of a bot ``kind``, or ``None`` for a bot that is not a level."""
    return None if kind is None else PERSONAS.get(kind.strip().lower())


def levels(game: str) -> tuple[Persona, ...]:
    """The levels of ``game`` (``'liars-dice'`` or ``'blackjack'``), weakest first."""
    return LIARS_LEVELS if game == LIARS else BLACKJACK_LEVELS


__all__ = [
    "BLACKJACK_LEVELS", "LIARS_LEVELS", "MIDDLE_LIARS_LEVEL", "PERSONAS", "Persona",
    "levels", "persona", "persona_of",
]
