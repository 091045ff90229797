"""Pure Liar's Dice adjudication: which dice count toward a wager, and who loses a die.

These are the rules the engine applies at a reveal; strategy code and interfaces call
them too, so each rule is written once.

>>> from tavern_dice.liars_dice.rules import TAVERN
>>> die_counts(1, face=3, rules=TAVERN.replace(wild_face=1))   # L6: a wild die counts
True
>>> reveal_outcome(6, claimed=5, rules=TAVERN)                  # L8: true but not exact
'true'
>>> dice_losers("spot-on", wager_maker=0, accuser=2, in_game=(0, 1, 2))
(1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import chain

from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.wager import AnyWager, SumWager


def die_counts(die: int, face: int, rules: LiarsDiceRules) -> bool:
    """Whether one die showing ``die`` counts toward a wager on ``face`` (L4, L6): it shows
    ``face``, or it shows the wild face and ``face`` is not the wild face."""
    wild = rules.wild_face
    return die == face or (die == wild and face != wild)


def count_matching(dice: Iterable[int], wager: AnyWager, rules: LiarsDiceRules) -> int:
    """The count a reveal compares with the wager: dice counting toward its face (L4, L6),
    or for a :class:`SumWager` the sum of the dice (L10: "wagers instead are based on the
    sum of the dice")."""
    if isinstance(wager, SumWager):
        return sum(dice)
    return sum(1 for die in dice if die_counts(die, wager.face, rules))


def counted_dice(
    hands: Sequence[Sequence[int]], wager: AnyWager, rules: LiarsDiceRules
) -> tuple[tuple[bool, ...], ...]:
    """Die by die, whether each die of ``hands`` counts toward ``wager`` (L4, L6): what a
    reveal highlights. Every die counts toward a :class:`SumWager` (L10).

    >>> from tavern_dice.liars_dice.rules import TAVERN
    >>> from tavern_dice.liars_dice.wager import Wager
    >>> counted_dice([(1, 3), (3, 5)], Wager(2, 3), TAVERN.replace(wild_face=1))
    ((True, True), (True, False))
    """
    if isinstance(wager, SumWager):
        return tuple([(True,) * len(hand) for hand in hands])
    face = wager.face
    wild = rules.wild_face
    if type(face) is int and {*map(type, chain.from_iterable(hands))} <= {int}:
        # The engine's case, whole-number dice: die_counts die by die as a C-level test (a
        # die counts if it shows the face or, for another face, the wild face).
        test: Callable[[int], bool] = (
            face.__eq__ if wild is None or wild == face else (face, wild).__contains__
        )
        return tuple([tuple(map(test, hand)) for hand in hands])
    return tuple(tuple(die_counts(die, face, rules) for die in hand) for hand in hands)


def tally(hands: Sequence[tuple[int, ...]], wager: AnyWager, rules: LiarsDiceRules
          ) -> tuple[int, tuple[tuple[bool, ...], ...]]:
    """:func:`count_matching` and :func:`counted_dice` of a reveal at once, for hands of
    whole-number dice (the engine's, checked when they were rolled): ``(count, counted)``.

    >>> from tavern_dice.liars_dice.rules import TAVERN
    >>> from tavern_dice.liars_dice.wager import Wager
    >>> tally(((1, 3), (3, 5)), Wager(2, 3), TAVERN.replace(wild_face=1))
    (3, ((True, True), (True, False)))
    """
    if isinstance(wager, SumWager):
        return sum(map(sum, hands)), tuple([(True,) * len(hand) for hand in hands])
    face = wager.face
    wild = rules.wild_face
    test: Callable[[int], bool] = (
        face.__eq__ if wild is None or wild == face else (face, wild).__contains__
    )
    counted = tuple([tuple(map(test, hand)) for hand in hands])
    return sum(map(sum, counted)), counted


def count_in_hands(hands: Sequence[tuple[int, ...]], wager: AnyWager,
                   rules: LiarsDiceRules) -> int:
    """:func:`count_matching` over the dice of ``hands`` (tuples of faces), counted hand by
    hand with ``tuple.count``: dice showing the face, plus wild dice for any other face
    (L6); for a :class:`SumWager` the sum of all dice (L10)."""
    if isinstance(wager, SumWager):
        return sum([sum(hand) for hand in hands])
    face = wager.face
    count = sum([hand.count(face) for hand in hands])
    wild = rules.wild_face
    if wild is not None and wild != face:
        count += sum([hand.count(wild) for hand in hands])
    return count


def reveal_outcome(count: int, claimed: int, rules: LiarsDiceRules) -> str:
    """``'false'``, ``'true'`` or ``'spot-on'`` for a revealed ``count`` against the wager's
    quantity (or sum) ``claimed`` (L8). Without ``rules.spot_on`` an exact count is true.

    Seed: "The wager was false / The wager was true, but not exact ... / The wager was
    spot-on".
    """
    if count < claimed:
        return "false"
    if count > claimed or not rules.spot_on:
        return "true"
    return "spot-on"


def dice_losers(
    outcome: str, wager_maker: int, accuser: int, in_game: Sequence[int]
) -> tuple[int, ...]:
    """Seats that lose a die for ``outcome`` (L8). Seed: "The wager-maker loses a dice
    moving forward / The accuser loses a dice moving forward / Everyone but the
    wager-maker loses a dice moving forward".

    Raises:
        TavernError: for an ``outcome`` other than those three.
    """
    if outcome == "false":
        return (wager_maker,)
    if outcome == "true":
        return (accuser,)
    if outcome == "spot-on":
        return tuple(s for s in in_game if s != wager_maker)
    raise TavernError(f"unknown outcome {outcome!r}; one of 'false', 'true', 'spot-on'")
