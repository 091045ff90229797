"""Whether a seat may wager or accuse, from public facts only (L4, L5, L5b, L7, L10).

Nothing here reads a die: a wager's legality depends on the table (players, their dice
counts, whose turn it is, this round's wagers), never on the dice themselves. So the
engine (:class:`~tavern_dice.liars_dice.state.LiarsDiceGame`) and a player's view
(:class:`~tavern_dice.liars_dice.view.LiarsDiceView`) check an action with the same
functions and the same messages, and a player's interface needs no referee's game.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavern_dice.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.wager import (
    AnyWager,
    SumWager,
    Wager,
    check_wager_range,
    is_raise,
    legal_raises,
    repeats_refused,
)

_STANDARD = RaiseRule.STANDARD  # a module constant: RaiseRule.STANDARD is read through the enum

BIDDING = "bidding"
"""The phase (``Phase.BIDDING.value``) in which players wager and accuse."""

RoundWagers = tuple[tuple[int, AnyWager], ...]


def check_seat(seat: object, players: Sequence[str]) -> None:
    """Refuse a seat that is not a seat number (``"0"``, ``None``, ``1.0``, ``True``).

    Raises:
        InvalidActionError: not a whole number. IllegalActionError: no such seat.
    """
    if type(seat) is not int:
        raise InvalidActionError(f"a seat is a whole number 0-{len(players) - 1}, not {seat!r}")
    if not 0 <= seat < len(players):
        raise IllegalActionError(f"no seat {seat}; seats are 0-{len(players) - 1}")


def seat_name(seat: int | None, players: Sequence[str]) -> str:
    """``seat``'s player, or ``'seat N'`` for a seat that is none."""
    if seat is None or not 0 <= seat < len(players):
        return f"seat {seat}"
    return players[seat]


def accusers_of(maker: int | None, counts: Sequence[int]) -> tuple[int, ...]:
    """Seats that may accuse ``maker``'s wager: every player still in the game but the
    wager-maker, starting to the wager-maker's left (L7)."""
    if maker is None:
        return ()
    n = len(counts)
    return tuple(
        seat for seat in ((maker + step) % n for step in range(1, n)) if counts[seat] > 0
    )


def asked_out_of_turn(maker: int, turn: int, counts: Sequence[int]) -> list[int]:
    """The seats asked whether to accuse ``maker``'s wager out of turn, in asking order:
    everyone :func:`accusers_of` names but the next player, ``turn``, who is asked last and
    answers on their turn (L7)."""
    return [seat for seat in accusers_of(maker, counts) if seat != turn]


def legal_hint(rules: LiarsDiceRules, counts: Sequence[int], standing: AnyWager | None,
               sum_wagers: bool, round_wagers: RoundWagers, limit: int = 6) -> str:
    """The lowest legal wagers, for an error message."""
    legal = legal_raises(rules, sum(counts), standing, sum_wagers, round_wagers)
    if not legal:
        return "no raise is possible, so the player to act must accuse"
    shown = ", ".join(str(w) for w in legal[:limit])
    more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
    return shown + more


def wager_passes(
    wager: object, rules: LiarsDiceRules, dice_in_play: int, standing: AnyWager | None,
    sum_wagers: bool, round_wagers: RoundWagers,
) -> bool:
    """Whether :func:`check_wager` would let the player to act make ``wager``, for the
    engine's fast path: a well-typed wager (exactly a ``Wager``, or a ``SumWager`` in the
    sum endgame) that is in range (L4, L10), raises ``standing`` (L5) and repeats none of
    ``round_wagers`` where L5b refuses repeats. Seat, turn and phase are the caller's to
    check. ``False`` says only "not on the fast path": :func:`check_wager` then decides,
    and raises with its message.
    """
    kind = type(wager)
    if kind is Wager and not sum_wagers:
        face = wager.face  # type: ignore[attr-defined]
        quantity = wager.quantity  # type: ignore[attr-defined]
        if not (1 <= face <= rules.sides and 1 <= quantity <= dice_in_play):
            return False
        if standing is not None:
            if type(standing) is not Wager:
                return False
            rule = rules.raise_rule
            if rule is _STANDARD:
                if (quantity, face) <= (standing.quantity, standing.face):
                    return False
            elif not is_raise(wager, standing, rule):  # type: ignore[arg-type]
                return False
    elif kind is SumWager and sum_wagers:
        total = wager.total  # type: ignore[attr-defined]
        if not dice_in_play <= total <= dice_in_play * rules.sides:
            return False
        if standing is not None and not is_raise(wager, standing, rules.raise_rule):  # type: ignore[arg-type]
            return False
    else:
        return False
    if round_wagers and repeats_refused(rules, sum_wagers):
        for _, made in round_wagers:
            if made == wager:
                return False
    return True


def check_wager(
    wager: AnyWager, seat: int | None, *, players: Sequence[str], rules: LiarsDiceRules,
    phase: str, turn: int | None, standing: AnyWager | None, sum_wagers: bool,
    counts: Sequence[int], round_wagers: RoundWagers,
) -> None:
    """Raise if ``seat`` (``None``: the player to act) may not make ``wager`` now.

    Raises:
        InvalidActionError: ``wager`` is no wager, or ``seat`` no seat number.
        NotYourTurnError: if it is not ``seat``'s turn to wager.
        IllegalActionError: if the wager is out of range or does not raise the standing
            wager; the message names the standing wager and the lowest legal raises.
    """
    if not isinstance(wager, Wager | SumWager):
        raise InvalidActionError(
            f"a wager is a Wager(quantity, face) or, in the sum endgame, a "
            f"SumWager(total), not {wager!r}"
        )
    if seat is not None:
        check_seat(seat, players)
    if phase != BIDDING:
        raise IllegalActionError(f"no wager can be made now (phase {phase})")
    if seat is not None and seat != turn:
        raise NotYourTurnError(
            f"it is {seat_name(turn, players)}'s turn to wager, not {seat_name(seat, players)}'s"
        )

    def hint() -> str:
        return legal_hint(rules, counts, standing, sum_wagers, round_wagers)

    if sum_wagers and not isinstance(wager, SumWager):
        raise IllegalActionError(
            "two players with one die each wager on the sum of the dice (seed: 'wagers "
            f"instead are based on the sum of the dice'); legal: {hint()}"
        )
    if not sum_wagers and not isinstance(wager, Wager):
        raise IllegalActionError(
            f"sum wagers are only for two players with one die each; legal: {hint()}"
        )
    check_wager_range(wager, sum(counts), rules.sides)
    if not is_raise(wager, standing, rules.raise_rule):
        raise IllegalActionError(
            f"{wager} does not raise {standing} under the "
            f"'{rules.raise_rule.value}' raise rule; legal: {hint()}"
        )
    if round_wagers and repeats_refused(rules, sum_wagers):
        for number, (maker, made) in enumerate(round_wagers, start=1):
            if made == wager:
                raise IllegalActionError(
                    f"{wager} was already wagered this round (wager {number} of the "
                    f"round, by {seat_name(maker, players)}), and a wager may not be made "
                    f"twice in a round (L5b; option repeat_wagers); legal: {hint()}"
                )


def check_accuse(seat: int, *, players: Sequence[str], phase: str, wager_maker: int | None,
                 counts: Sequence[int]) -> None:
    """Raise if ``seat`` may not accuse now (L7).

    Raises:
        InvalidActionError: ``seat`` is not a seat number.
        IllegalActionError: no wager stands, the seat is out, or it made the wager.
    """
    check_seat(seat, players)
    if phase != BIDDING:
        raise IllegalActionError(f"nobody can accuse now (phase {phase})")
    if wager_maker is None:
        raise IllegalActionError("no wager stands yet; the first player must wager")
    if counts[seat] == 0 or seat == wager_maker:
        why = "is out of the game" if counts[seat] == 0 else (
            "made the wager and cannot accuse it"
        )
        names = [seat_name(s, players) for s in accusers_of(wager_maker, counts)]
        raise IllegalActionError(f"{seat_name(seat, players)} {why}; accusers: {names}")
