"""Wagers (bids) and the raise order.

A :class:`Wager` claims "at least ``quantity`` dice on the table show
``face``" (rule L4). In the two-player, one-die endgame a :class:`SumWager`
claims "the two dice sum to at least ``total``" (rule L10).

Seed examples (rule L5, raise rule ``either``): after 3 twos,

>>> old = Wager(3, 2)
>>> [is_raise(Wager(q, f), old, RaiseRule.EITHER) for q, f in [(2, 4), (4, 2), (4, 1), (4, 5)]]
[True, True, True, True]
>>> is_raise(Wager(2, 4), old, RaiseRule.STANDARD)
False
>>> parse_wager("3x2"), parse_wager("4 fives"), parse_wager("sum 7")
(Wager(quantity=3, face=2), Wager(quantity=4, face=5), SumWager(total=7))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tavern_dice.errors import IllegalActionError, InvalidActionError
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule

# The raise rules as module constants: reading RaiseRule.EITHER goes through the enum class.
_EITHER = RaiseRule.EITHER
_STANDARD = RaiseRule.STANDARD

FACE_NAMES = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
_FACE_WORDS = {name: face for face, name in FACE_NAMES.items()} | {
    name[:-1]: face for face, name in FACE_NAMES.items()
} | {"sixe": 6, "six": 6}


@dataclass(frozen=True, slots=True, order=True)
class Wager:
    """Claims at least ``quantity`` dice on the table show ``face`` (L4: "at least 3 twos")."""

    quantity: int
    face: int

    def __post_init__(self) -> None:
        # type(), not isinstance(): True is an int to Python but no quantity, and 2.0 or
        # 2.5 would be written to the log as they are.
        if type(self.quantity) is not int or type(self.face) is not int:
            raise InvalidActionError(
                f"a wager is a whole-number quantity and face, such as Wager(3, 2) for "
                f"'3 twos', not Wager({self.quantity!r}, {self.face!r})"
            )

    def __str__(self) -> str:
        name = FACE_NAMES.get(self.face, f"{self.face}s")
        if self.quantity == 1:
            name = name[:-2] if name == "sixes" else name[:-1]
        return f"{self.quantity} {name}"

    def code(self) -> str:
        """Short form ``'QxF'`` that :func:`parse_wager` reads back."""
        return f"{self.quantity}x{self.face}"


@dataclass(frozen=True, slots=True, order=True)
class SumWager:
    """Claims the dice on the table sum to at least ``total`` (L10: "based on the sum")."""

    total: int

    def __post_init__(self) -> None:
        if type(self.total) is not int:
            raise InvalidActionError(
                f"a sum wager names a whole-number total, such as SumWager(7), not "
                f"SumWager({self.total!r})"
            )

    def __str__(self) -> str:
        return f"sum of at least {self.total}"

    def code(self) -> str:
        """Short form ``'sum T'`` that :func:`parse_wager` reads back."""
        return f"sum {self.total}"


AnyWager = Wager | SumWager


def is_raise(new: AnyWager, old: AnyWager | None, rule: RaiseRule) -> bool:
    """Whether ``new`` may follow ``old`` under ``rule`` (L5, L10).

    Any wager may open a round (``old is None``; seed "The first player can make
    any wager that they wish"). Sum wagers follow sum wagers with a higher total
    ("the sum must increase on progressive wagers"). Mixing the two kinds is never a raise.
    """
    if old is None:
        return True
    if isinstance(new, SumWager) or isinstance(old, SumWager):
        return isinstance(new, SumWager) and isinstance(old, SumWager) and new.total > old.total
    if rule is _EITHER:
        return new.quantity > old.quantity or new.face > old.face
    if rule is _STANDARD:
        return (new.quantity, new.face) > (old.quantity, old.face)
    return (new.face, new.quantity) > (old.face, old.quantity)


@lru_cache(maxsize=256)
def _all_wagers(dice_in_play: int, sides: int, sum_wagers: bool) -> tuple[AnyWager, ...]:
    """Every wager of ``dice_in_play`` ``sides``-sided dice, in increasing order: face
    wagers by (quantity, face), so ``Wager(q, f)`` is item ``(q - 1) * sides + f - 1``;
    in the sum endgame the sums. Made once each, and shared by every list of raises."""
    if sum_wagers:
        return tuple(SumWager(t) for t in range(dice_in_play, dice_in_play * sides + 1))
    return tuple(Wager(q, f) for q in range(1, dice_in_play + 1) for f in range(1, sides + 1))


@lru_cache(maxsize=256)
def _face_codes(dice_in_play: int, sides: int) -> tuple[str, ...]:
    """The codes of ``_all_wagers(dice_in_play, sides, False)``, item for item."""
    return tuple(w.code() for w in _all_wagers(dice_in_play, sides, False))


def wager_codes(wagers: Sequence[AnyWager], dice_in_play: int, sides: int) -> list[str]:
    """``[w.code() for w in wagers]``, the codes of the wagers of a table of
    ``dice_in_play`` ``sides``-sided dice.

    A turn's view lists every legal raise (up to ``sides x dice`` of them) and the web
    table sends it at each change: the raises are items of the shared increasing list
    (:func:`_all_wagers`), so their codes are looked up by position, made once per table
    size. Any other wager (a sum, or an equal wager made elsewhere) is coded as usual.
    """
    table = _all_wagers(dice_in_play, sides, False)
    codes = _face_codes(dice_in_play, sides)
    size = len(table)
    return [codes[i] if type(w) is Wager and 0 <= (i := (w.quantity - 1) * sides + w.face - 1)
            < size and table[i] is w else w.code() for w in wagers]


@lru_cache(maxsize=4096)
def _raises(
    dice_in_play: int, sides: int, rule: RaiseRule, current: AnyWager | None, sum_wagers: bool
) -> tuple[AnyWager, ...]:
    """Every wager that may follow ``current``, in increasing order. Cached: the answer
    depends only on these arguments, and bots ask for it at every decision."""
    candidates = _all_wagers(dice_in_play, sides, sum_wagers)
    if current is None:
        return candidates
    if type(current) is Wager and not sum_wagers and 1 <= current.face <= sides:
        # The two usual orders, cut out of the increasing list (what is_raise keeps):
        # standard, everything after (q, f); either, the higher faces of each quantity up
        # to q, then every wager of a higher quantity.
        q, f = current.quantity, current.face
        if rule is _STANDARD:
            return candidates[max(0, min(q - 1, dice_in_play) * sides + f):]
        if rule is _EITHER:
            higher_faces = [candidates[(k - 1) * sides + f:k * sides]
                            for k in range(1, min(q, dice_in_play) + 1)]
            return tuple(w for part in higher_faces for w in part) + candidates[
                max(0, q) * sides:]
    return tuple(w for w in candidates if is_raise(w, current, rule))


@lru_cache(maxsize=4096)
def _raises_of(dice_in_play: int, sides: int, rule: str, sum_wagers: bool, kind: int,
               quantity: int, face: int) -> tuple[AnyWager, ...]:
    """:func:`_raises` of no standing wager (``kind`` 0) or of ``Wager(quantity, face)``
    (``kind`` 1), the raise rule given by its value: a cache keyed by plain numbers and
    text, which hash without running Python code."""
    current = Wager(quantity, face) if kind else None
    return _raises(dice_in_play, sides, RaiseRule(rule), current, sum_wagers)


def repeats_refused(rules: LiarsDiceRules, sum_wagers: bool) -> bool:
    """Whether L5b can refuse a wager: repeats forbidden and a raise order in which a wager
    can come back (only ``either``, and not in the sum endgame, where sums only go up)."""
    return not rules.repeat_wagers and rules.raise_rule is _EITHER and not sum_wagers


def legal_raises(
    rules: LiarsDiceRules,
    dice_in_play: int,
    standing: AnyWager | None,
    sum_wagers: bool,
    round_wagers: Sequence[tuple[int, AnyWager]] = (),
) -> tuple[AnyWager, ...]:
    """The wagers the player to act may make (L4, L5, L5b, L10), smallest first: raises
    of ``standing`` among the wagers of ``dice_in_play`` dice, less those already made
    this round (``round_wagers``, as ``(seat, wager)``) when L5b refuses repeats.

    The engine's :meth:`~tavern_dice.liars_dice.state.LiarsDiceGame.legal_wagers` is this
    function; strategy code calls it to look ahead.

    >>> from tavern_dice.liars_dice.rules import TAVERN
    >>> after = legal_raises(TAVERN, 2, Wager(1, 5), False, [(0, Wager(1, 6)), (1, Wager(1, 5))])
    >>> [str(w) for w in after]
    ['2 ones', '2 twos', '2 threes', '2 fours', '2 fives', '2 sixes']
    """
    kind = type(standing)
    rule = rules.raise_rule
    # Looked up by plain numbers where it can: hashing a Wager or a RaiseRule runs Python.
    if kind is Wager:
        raises = _raises_of(dice_in_play, rules.sides, rule._value_, sum_wagers, 1,
                            standing.quantity, standing.face)  # type: ignore[union-attr]
    elif standing is None:
        raises = _raises_of(dice_in_play, rules.sides, rule._value_, sum_wagers, 0, 0, 0)
    else:
        raises = _raises(dice_in_play, rules.sides, rule, standing, sum_wagers)
    # repeats_refused(rules, sum_wagers), written out: asked at every decision.
    if (round_wagers and rule is _EITHER and not rules.repeat_wagers
            and not sum_wagers):
        # Only a made wager that is a raise of the standing one is among the raises; in
        # the increasing list Wager(q, f) is item (q - 1) * sides + f - 1 (_all_wagers), so
        # those are left out by their positions, without hashing every raise.
        sides = rules.sides
        made = {(w.quantity - 1) * sides + w.face - 1 for _, w in round_wagers
                if type(w) is Wager and 1 <= w.face <= sides
                and 1 <= w.quantity <= dice_in_play and is_raise(w, standing, rule)}
        if made:
            # Face wagers only here (no sum endgame): quantity and face are there.
            raises = tuple([w for w in raises
                            if (w.quantity - 1) * sides + w.face - 1  # type: ignore[union-attr]
                            not in made])
    return raises


def check_wager_range(wager: AnyWager, dice_in_play: int, sides: int) -> None:
    """Refuse a wager no table of ``dice_in_play`` ``sides``-sided dice could make (L4, L10):
    a face outside ``1..sides``, a quantity outside ``1..dice_in_play``, a sum outside
    what the dice can show. Shared by the engine and ``tavern odds``.

    >>> check_wager_range(Wager(13, 2), 12, 6)
    Traceback (most recent call last):
    ...
    tavern_dice.errors.IllegalActionError: quantity must be 1-12 (dice in play), not 13

    Raises:
        IllegalActionError: naming the range that would be legal.
    """
    if isinstance(wager, Wager):
        if not 1 <= wager.face <= sides:
            raise IllegalActionError(f"a face is 1-{sides}, not {wager.face}")
        if not 1 <= wager.quantity <= dice_in_play:
            raise IllegalActionError(
                f"quantity must be 1-{dice_in_play} (dice in play), not {wager.quantity}"
            )
    else:
        low, high = dice_in_play, dice_in_play * sides
        if not low <= wager.total <= high:
            raise IllegalActionError(f"a sum wager names a total {low}-{high}, not {wager.total}")


_QXF = re.compile(r"^\s*(\d+)\s*[x×*]\s*(\d+)\s*$", re.IGNORECASE)
_WORDS = re.compile(r"^\s*(\d+)\s+([a-z]+)\s*$", re.IGNORECASE)
_SUM = re.compile(r"^\s*(?:sum|s)\s*(?:of\s*)?(?:at\s+least\s*)?(\d+)\s*$", re.IGNORECASE)


def parse_wager(text: str) -> AnyWager:
    """Read a wager typed by a person: ``'3x2'``, ``'3 twos'``, ``'1 six'`` or ``'sum 7'``.

    Raises:
        InvalidActionError: if the text is none of those forms.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"a wager to read is text, such as '3x2', not {text!r}")
    if match := _QXF.match(text):
        return Wager(int(match.group(1)), int(match.group(2)))
    if match := _WORDS.match(text):
        face = _FACE_WORDS.get(match.group(2).lower())
        if face is not None:
            return Wager(int(match.group(1)), face)
    if match := _SUM.match(text):
        return SumWager(int(match.group(1)))
    raise InvalidActionError(
        f"cannot read {text!r} as a wager; write QUANTITYxFACE ('3x2'), words ('3 twos') "
        "or, in the sum endgame, 'sum 7'"
    )
