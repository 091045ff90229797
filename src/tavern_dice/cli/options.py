"""Shared option handling for ``tavern play``, ``simulate`` and ``odds``: seats, bots,
rulesets, gold, dice and seeds.

Nothing here is a rule. Rulesets are built with the engines' own ruleset classes
(which validate themselves), amounts are read with :func:`tavern_dice.money.parse_cp`,
and bot kinds are looked up in :mod:`tavern_dice.bots.registry`. Every failure is a
:class:`typer.BadParameter` naming the option, so the user sees a usage error (exit
code 2) that says what was wrong and what would be accepted.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import inspect
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import typer

from tavern_dice.blackjack.rules import BlackjackRules, parse_payout
from tavern_dice.dice import (  # TableDice: re-exported, it began here
    DiceSource,
    ManualDice,
    RollSpec,
    SecureDice,
    SeededDice,
    TableDice,
)
from tavern_dice.errors import InvalidDiceError, TavernError
from tavern_dice.liars_dice.rules import PRESETS as LIARS_PRESETS
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule
from tavern_dice.money import format_cp, parse_cp

BOT_NAMES = ("Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu")
"""Tavern names given to bot seats, in seat order (skipping any a person has taken)."""

PERSON_NAME = "Player"
"""Default name of the one person at the table (``Player 1``, ``Player 2``... in hot seat)."""


LiarsPreset = Annotated[
    str, typer.Option("--preset", help=f"Starting ruleset: {', '.join(LIARS_PRESETS)}.")
]
"""``--preset``: the Liar's Dice ruleset the other ruleset options change (see
:func:`liars_rules`); these option types keep every command's flags and help alike."""
RaiseRuleOption = Annotated[
    str | None,
    typer.Option("--raise-rule", metavar="|".join(r.value for r in RaiseRule),
                 help="How a wager must raise the last (L5)."),
]
WildFace = Annotated[
    int | None,
    typer.Option("--wild-face", min=0, help="A face that counts as any face (0: none)."),
]
SpotOn = Annotated[
    bool | None,
    typer.Option("--spot-on/--no-spot-on", help="An exact wager costs everyone else a die."),
]
SumEndgame = Annotated[
    bool | None,
    typer.Option("--sum-endgame/--no-sum-endgame",
                 help="Two players with one die each wager on the sum."),
]
RepeatWagers = Annotated[
    bool | None,
    typer.Option("--repeat-wagers/--no-repeat-wagers",
                 help="L5b: a wager already made this round may be made again."),
]
DicePerPlayer = Annotated[
    int | None,
    typer.Option("--dice-per-player", min=1, max=20, help="Starting dice (= lives)."),
]
HouseNeedsUnder = Annotated[
    bool | None,
    typer.Option("--house-needs-under/--house-may-equal",
                 help="B5: a house d20 must be strictly under the target to count."),
]
"""``--house-needs-under/--house-may-equal``: changes the Dice Blackjack ruleset (see
:func:`blackjack_rules`)."""
HouseExactBeatsPlayerExact = Annotated[
    bool | None,
    typer.Option("--house-exact-beats-player-exact/--player-exact-wins",
                 help="B8: a house roll on the target beats a player's exact hit."),
]
ExactPayout = Annotated[
    str | None,
    typer.Option("--exact-payout", metavar="N:D",
                 help="B8: what an exact hit pays, as odds (the seed's 3:2; e.g. 6:5, 1:1)."),
]
MaxAddedBonus = Annotated[
    int | None,
    typer.Option("--max-added-bonus", min=0,
                 help="B7: the most any player may add on standing (default: half the "
                 "proficiency bonus, rounded up)."),
]


def parse_dice_pair(text: str, hint: str) -> tuple[int, int]:
    """Read a heads-up round's dice: two counts ``A,B`` (the first bidder's first), or
    one count for both.

    >>> parse_dice_pair("5,4", "--round"), parse_dice_pair("3", "--round")
    ((5, 4), (3, 3))

    Raises:
        typer.BadParameter: anything else (the message shows what is wanted).
    """
    try:
        parts = tuple(int(p) for p in text.split(","))
    except ValueError:
        parts = ()
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or min(parts) < 1:
        raise typer.BadParameter(
            f"want two counts like 2,1 (first bidder first) or one count for both, "
            f"not {text!r}",
            param_hint=hint,
        )
    return (parts[0], parts[1])


def parse_raise_rule(text: str | RaiseRule) -> RaiseRule:
    """Read ``--raise-rule``, saying which rules exist if the text names none.

    >>> parse_raise_rule(" Standard ")
    <RaiseRule.STANDARD: 'standard'>

    Raises:
        typer.BadParameter: an unknown rule.
    """
    if isinstance(text, RaiseRule):
        return text
    try:
        return RaiseRule(text.strip().lower())
    except ValueError:
        known = ", ".join(r.value for r in RaiseRule)
        raise typer.BadParameter(
            f"unknown raise rule {text!r}; known: {known}", param_hint="--raise-rule"
        ) from None


class DiceMode(enum.Enum):
    """Where the dice come from (``--dice``)."""

    AUTO = "auto"
    """Seeded with ``--seed``; otherwise the OS's secure RNG when a person plays, and a
    fresh, printed seed for an all-bot game (so that it can be run again)."""
    MANUAL = "manual"
    """Physical dice: every roll is typed in (a DM refereeing a real table)."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One ``--bots`` entry: a bot kind, and for Dice Blackjack an optional proficiency
    bonus written ``kind:PB`` (e.g. ``bold:4``)."""

    kind: str
    proficiency: int | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at the table: a person (``bot is None``) or a bot."""

    name: str
    bot: BotSpec | None

    @property
    def is_person(self) -> bool:
        """Whether a person plays this seat at the terminal."""
        return self.bot is None

    @property
    def label(self) -> str:
        """The name with the bot's kind, e.g. ``'Bo (probabilistic)'``, or a rated
        level's, e.g. ``'Mags (level 4)'``."""
        if self.bot is None:
            return self.name
        from tavern_dice.bots.levels import persona_of

        found = persona_of(self.bot.kind)
        return f"{self.name} ({self.bot.kind if found is None else f'level {found.level}'})"


def parse_bots(
    text: str | None, known: Mapping[str, object], *, allow_proficiency: bool = False
) -> list[BotSpec] | None:
    """Read ``--bots kind,kind,...`` (``kind:PB`` too when ``allow_proficiency``).

    Returns ``None`` if the option was not given; ``none`` (or an empty text) gives no
    bots: a table of people only.

    Raises:
        typer.BadParameter: an unknown kind (the message lists the known kinds) or a
            proficiency bonus that is not a whole number.
    """
    if text is None:
        return None
    if text.strip().lower() in NO_BOTS:
        return []
    specs: list[BotSpec] = []
    for raw in text.split(","):
        item = raw.strip().lower()
        if not item:
            continue
        kind, sep, pb_text = item.partition(":")
        proficiency: int | None = None
        if sep:
            if not allow_proficiency:
                raise typer.BadParameter(
                    f"{raw.strip()!r}: only Dice Blackjack bots take a proficiency bonus",
                    param_hint="--bots",
                )
            if not pb_text.isdigit():
                raise typer.BadParameter(
                    f"{raw.strip()!r}: write KIND:PB with a whole proficiency bonus, e.g. bold:4",
                    param_hint="--bots",
                )
            proficiency = int(pb_text)
        if kind not in known:
            raise typer.BadParameter(
                f"unknown bot {kind!r}; known: {', '.join(sorted(known))}", param_hint="--bots"
            )
        specs.append(BotSpec(kind, proficiency))
    return specs


def plan_seats(
    players: int | None,
    bots: list[BotSpec] | None,
    names: Sequence[str] | None,
    *,
    default_bots: Callable[[int | None, int], list[BotSpec]],
) -> list[Seat]:
    """Decide who sits where: people first (in ``--name`` order), then the bots.

    * no ``--bots``: one person per ``--name`` (at least one), and
      ``default_bots(players, people)`` (the game's default bots filling the table);
    * ``--bots`` without ``--players``: the bots only (an unattended game), plus one
      person per ``--name`` given;
    * ``--players N --bots ...``: the bots, and ``N - len(bots)`` people (``--bots none``:
      a table of people only).

    Raises:
        typer.BadParameter: more bots than players, or more names than people.
    """
    given_names = [n.strip() for n in names or () if n.strip()]
    if bots is None:
        people = max(1, len(given_names))
        if players is not None:
            people = min(people, max(players, 0))
        bots = default_bots(players, people)
        if players is not None:
            people = players - len(bots)
    elif players is None:
        people = len(given_names)
    else:
        people = players - len(bots)
    if people < 0:
        raise typer.BadParameter(
            f"{len(bots)} bots do not fit at a table of {players}; give at most {players} "
            "bots, or more players",
            param_hint="--bots",
        )
    if len(given_names) > people:
        raise typer.BadParameter(
            f"{len(given_names)} names for {people} people at the table "
            f"({len(bots)} of the {people + len(bots)} seats are bots)",
            param_hint="--name",
        )
    lowered = [n.lower() for n in given_names]
    if len(set(lowered)) != len(lowered):
        raise typer.BadParameter("each person needs a different name", param_hint="--name")
    person_names = list(given_names)
    for i in range(len(given_names), people):
        person_names.append(PERSON_NAME if people == 1 else f"{PERSON_NAME} {i + 1}")
    seats = [Seat(n, None) for n in person_names]
    seats += [Seat(n, spec) for n, spec in zip(bot_names(bots, person_names), bots, strict=True)]
    return seats


def bot_names(bots: Sequence[BotSpec], taken: Sequence[str]) -> list[str]:
    """The bots' seat names: a rated level sits under its persona's name (``Mags``; the
    second of one level ``Mags 2``), any other bot under a free tavern name (``Bo``)."""
    from tavern_dice.bots.levels import persona_of

    used = {n.lower() for n in taken}
    names: list[str] = []
    for spec in bots:
        found = persona_of(spec.kind)
        if found is not None:
            name, n = found.name, 1
            while name.lower() in used:
                n += 1
                name = f"{found.name} {n}"
            names.append(name)
            used.add(name.lower())
    free = [n for n in BOT_NAMES if n.lower() not in used]
    free += [f"Bot {i + 1}" for i in range(len(bots))]
    return [names.pop(0) if persona_of(spec.kind) is not None else free.pop(0) for spec in bots]


NO_BOTS = frozenset({"", "none"})
"""``--bots`` values that seat no bot: a table of people only."""


def derive_seed(seed: int, index: int) -> int:
    """A seed for the ``index``-th bot, distinct from the dice's and the other bots',
    and the same for the same ``seed`` on every run and platform (SHA-256, not ``hash``)."""
    digest = hashlib.sha256(f"tavern-dice:{seed}:bot:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def liars_rules(
    preset: str,
    *,
    raise_rule: str | RaiseRule | None,
    wild_face: int | None,
    spot_on: bool | None,
    sum_endgame: bool | None,
    dice_per_player: int | None,
    repeat_wagers: bool | None = None,
) -> LiarsDiceRules:
    """The Liar's Dice ruleset: ``preset`` with the options that were given changed.

    ``wild_face=0`` clears a preset's wild face.

    Raises:
        typer.BadParameter: an unknown preset, or options the ruleset rejects.
    """
    base = LIARS_PRESETS.get(preset)
    if base is None:
        raise typer.BadParameter(
            f"unknown preset {preset!r}; known: {', '.join(sorted(LIARS_PRESETS))}",
            param_hint="--preset",
        )
    changes: dict[str, Any] = {}
    if raise_rule is not None:
        changes["raise_rule"] = parse_raise_rule(raise_rule)
    if wild_face is not None:
        changes["wild_face"] = wild_face or None
    if spot_on is not None:
        changes["spot_on"] = spot_on
    if sum_endgame is not None:
        changes["sum_endgame"] = sum_endgame
    if dice_per_player is not None:
        changes["dice_per_player"] = dice_per_player
    if repeat_wagers is not None:
        changes["repeat_wagers"] = repeat_wagers
    try:
        return base.replace(**changes)
    except TavernError as error:
        raise ruleset_error(error, changes) from None


_LIARS_RULESET_OPTIONS: tuple[tuple[str, object, object], ...] = (
    ("preset", LiarsPreset, "tavern"),
    ("raise_rule", RaiseRuleOption, None),
    ("wild_face", WildFace, None),
    ("spot_on", SpotOn, None),
    ("sum_endgame", SumEndgame, None),
    ("repeat_wagers", RepeatWagers, None),
    ("dice_per_player", DicePerPlayer, None),
)
"""The Liar's Dice ruleset options of :func:`with_liars_rules`: name, type, default."""

_Result = TypeVar("_Result")


def with_liars_rules(command: Callable[..., _Result]) -> Callable[..., _Result]:
    """Give a command every Liar's Dice ruleset option, declared here once: ``--preset``,
    ``--raise-rule``, ``--wild-face``, ``--spot-on/--no-spot-on``,
    ``--sum-endgame/--no-sum-endgame``, ``--repeat-wagers/--no-repeat-wagers`` and
    ``--dice-per-player``.

    ``command`` takes the ruleset they make (:func:`liars_rules`) as its last parameter,
    ``rules: LiarsDiceRules``; the command line shows the options in its place, in that
    order. Put it under the ``@app.command`` decorator. A preset or option the ruleset
    rejects is a usage error before ``command`` runs.

    Raises:
        TypeError: ``command``'s last parameter is not ``rules``.
    """
    signature = inspect.signature(command, eval_str=True)
    parameters = list(signature.parameters.values())
    if not parameters or parameters[-1].name != "rules":
        raise TypeError(f"{command.__name__} must take the ruleset as its last parameter, rules")
    options = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
        for name, kind, default in _LIARS_RULESET_OPTIONS
    ]

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> _Result:
        given = {name: kwargs.pop(name, default) for name, _, default in _LIARS_RULESET_OPTIONS}
        return command(*args, **kwargs, rules=liars_rules(**given))

    shown = signature.replace(parameters=[*parameters[:-1], *options])
    run.__signature__ = shown  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in shown.parameters.values()}
    return run


_RULESET_FLAGS = {
    "raise_rule": "--raise-rule",
    "wild_face": "--wild-face",
    "spot_on": "--spot-on",
    "sum_endgame": "--sum-endgame",
    "repeat_wagers": "--repeat-wagers",
    "dice_per_player": "--dice-per-player",
    "house_needs_under": "--house-needs-under",
    "house_exact_beats_player_exact": "--house-exact-beats-player-exact",
    "min_bet_cp": "--min-bet",
    "max_bet_cp": "--max-bet",
    "exact_numerator": "--exact-payout",
    "exact_denominator": "--exact-payout",
    "max_added_bonus": "--max-added-bonus",
}


_CP_FIELD = re.compile(r"\((\w+_cp) (\d+)\)")


def ruleset_error(error: TavernError, changes: Mapping[str, object]) -> typer.BadParameter:
    """The engine's refusal of a ruleset as a usage error that names the option(s) given
    (the engine speaks of fields such as ``wild_face`` and ``max_bet_cp``; the user typed
    ``--wild-face`` and ``--max-bet 1 gp``).

    >>> print(ruleset_error(TavernError("the table maximum bet (max_bet_cp 100) is below "
    ...     "the table minimum (min_bet_cp 500); amounts are in cp"), {"max_bet_cp": 100}))
    the table maximum bet (--max-bet 1 gp) is below the table minimum (--min-bet 5 gp)
    """
    message = str(error)
    named = [f for f in changes if f in message] or list(changes)
    hint = " / ".join(_RULESET_FLAGS.get(f, f) for f in named) or None
    message = _CP_FIELD.sub(
        lambda m: f"({_RULESET_FLAGS.get(m.group(1), m.group(1))} {format_cp(int(m.group(2)))})",
        message,
    ).replace("; amounts are in cp", "")
    if "wild_face" in named:
        message += " (--wild-face 0: no wild face)"
    return typer.BadParameter(message, param_hint=hint)


def blackjack_rules(
    base: BlackjackRules,
    *,
    house_needs_under: bool | None,
    house_exact_beats_player_exact: bool | None,
    min_bet: str | None,
    max_bet: str | None,
    exact_payout: str | None = None,
    max_added_bonus: int | None = None,
) -> BlackjackRules:
    """The Dice Blackjack ruleset: ``base`` with the options that were given changed.

    Raises:
        typer.BadParameter: an amount or payout that cannot be read, or limits the ruleset
            rejects.
    """
    changes: dict[str, Any] = {}
    if exact_payout is not None:
        try:
            changes["exact_numerator"], changes["exact_denominator"] = parse_payout(exact_payout)
        except TavernError as error:
            raise typer.BadParameter(str(error), param_hint="--exact-payout") from None
    if max_added_bonus is not None:
        changes["max_added_bonus"] = max_added_bonus
    if house_needs_under is not None:
        changes["house_needs_under"] = house_needs_under
    if house_exact_beats_player_exact is not None:
        changes["house_exact_beats_player_exact"] = house_exact_beats_player_exact
    if min_bet is not None:
        changes["min_bet_cp"] = amount(min_bet, "--min-bet")
    if max_bet is not None:
        changes["max_bet_cp"] = amount(max_bet, "--max-bet")
    try:
        return base.replace(**changes)
    except TavernError as error:
        raise ruleset_error(error, changes) from None


def amount(text: str, option: str) -> int:
    """Read an amount of gold given as an option (``'10 gp'``, ``'2 gp 5 sp'``, ``'250'``
    cp) as integer cp.

    Raises:
        typer.BadParameter: the text is not an amount.
    """
    try:
        return parse_cp(text)
    except TavernError as error:
        raise typer.BadParameter(str(error), param_hint=option) from None


_FACES_SPLIT = re.compile(r"[\s,;/+]+")


def read_faces(text: str, spec: RollSpec) -> list[int]:
    """Read faces typed from physical dice: ``'3 1 4 6 6'``, ``'3,1,4'`` or, for dice
    with fewer than 10 sides, run together as ``'31466'``.

    Only the reading happens here; :meth:`RollSpec.check` judges the count and range.

    Raises:
        InvalidDiceError: text that is not whole numbers.
    """
    tokens = [t for t in _FACES_SPLIT.split(text.strip()) if t]
    if len(tokens) == 1 and spec.count > 1 and spec.sides < 10 and tokens[0].isdigit():
        tokens = list(tokens[0])
    if not tokens or not all(t.isdigit() for t in tokens):
        raise InvalidDiceError(
            f"type the {spec.count} d{spec.sides} as whole numbers, e.g. "
            f"{' '.join(str(min(i + 1, spec.sides)) for i in range(spec.count))}"
        )
    return [int(t) for t in tokens]


@dataclass(frozen=True, slots=True)
class DiceChoice:
    """The dice source for a game and the seed it was built from (``None``: unseeded)."""

    source: DiceSource
    seed: int | None
    generated: bool
    """Whether the seed was drawn here (an all-bot game without ``--seed``), so it
    should be printed for the game to be run again."""


def choose_dice(
    mode: DiceMode,
    seed: int | None,
    *,
    has_person: bool,
    ask_roll: Callable[[RollSpec, str | None], Sequence[int]],
    people: Sequence[int] | None = None,
) -> DiceChoice:
    """Pick the dice: typed in (``manual``: the ``people``'s seats and the house; bots'
    dice seeded by ``seed`` or from the OS), seeded by ``seed``, the OS's secure RNG when
    a person plays, or a freshly drawn seed for an all-bot game."""
    if mode is DiceMode.MANUAL:
        typed = ManualDice(ask_roll)
        if people is None:
            return DiceChoice(typed, seed, False)
        computer: DiceSource = SeededDice(seed) if seed is not None else SecureDice()
        return DiceChoice(TableDice(typed, computer, people), seed, False)
    if seed is not None:
        return DiceChoice(SeededDice(seed), seed, False)
    if has_person:
        return DiceChoice(SecureDice(), None, False)
    drawn = secrets.randbelow(1_000_000)
    return DiceChoice(SeededDice(drawn), drawn, True)
