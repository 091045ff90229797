"""Whether a seat may bet, sit out, roll or stand, from what every player sees (B2, B6, B7).

Nothing in Dice Blackjack is secret, and these checks read only what a player's view
shows, so the engine (:class:`~tavern_dice.blackjack.state.BlackjackGame`) and a view
(:class:`~tavern_dice.blackjack.view.BlackjackView`) check an action with the same
functions and the same messages: a player's interface needs no referee's game.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.errors import IllegalActionError, InsufficientFundsError, NotYourTurnError
from tavern_dice.money import format_cp

BETTING = "betting"
PLAYING = "playing"
"""The phases (``Phase.BETTING.value``, ``Phase.PLAYING.value``) in which players act."""


def bet_limits_of(rules: BlackjackRules, balance: int) -> tuple[int, int]:
    """The smallest and largest bet a player with ``balance`` cp may place, in cp (B2)."""
    high = balance
    if rules.max_bet_cp is not None:
        high = min(high, rules.max_bet_cp)
    return rules.min_bet_cp, high


def check_betting_seat(seat: int, *, players: Sequence[str], rules: BlackjackRules,
                       phase: str, eligible: bool, decided: bool, balance: int) -> None:
    """Raise if ``seat`` may not bet or sit out now.

    Raises:
        IllegalActionError: no such seat, not the betting phase, or already decided.
        InsufficientFundsError: the seat has not the table minimum (B1).
    """
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        raise IllegalActionError(f"no seat {seat!r}; seats are 0-{len(players) - 1}")
    if phase != BETTING:
        raise IllegalActionError(f"bets are placed before any die is rolled, not now "
                                 f"(phase {phase})")
    if not eligible:
        raise InsufficientFundsError(
            f"{players[seat]} has {format_cp(balance)}, below the table "
            f"minimum of {format_cp(rules.min_bet_cp)}"
        )
    if decided:
        raise IllegalActionError(f"{players[seat]} has already bet or sat out")


def check_amount(seat: int, amount: int, *, players: Sequence[str], rules: BlackjackRules,
                 balance: int) -> None:
    """Raise if ``amount`` is no bet ``seat`` may place (once they may bet at all).

    Raises:
        InsufficientFundsError: outside the table limits or the balance (B2).
    """
    low, high = bet_limits_of(rules, balance)
    if isinstance(amount, bool) or not isinstance(amount, int) or not low <= amount <= high:
        whole = isinstance(amount, int) and not isinstance(amount, bool)
        shown = format_cp(amount) if whole else repr(amount)
        raise InsufficientFundsError(
            f"{players[seat]} may bet {format_cp(low)} to {format_cp(high)} "
            f"(balance {format_cp(balance)}), not {shown}"
        )


def check_acting(seat: int, *, players: Sequence[str], phase: str, turn: int | None,
                 d12_pending: bool) -> None:
    """Raise if ``seat`` may not roll or stand now (B6).

    Raises:
        IllegalActionError: nobody plays now, or the turn's d12 is still to be rolled.
        NotYourTurnError: not ``seat``'s turn.
    """
    if phase != PLAYING:
        raise IllegalActionError(f"no player rolls now (phase {phase})")
    if d12_pending:
        raise IllegalActionError(f"{players[turn or 0]}'s d12 must be rolled first")
    if seat != turn:
        whose = "nobody's" if turn is None else f"{players[turn]}'s"
        raise NotYourTurnError(f"it is {whose} turn to roll, not seat {seat}'s")


def check_bonus(seat: int, bonus: int, *, players: Sequence[str], rules: BlackjackRules,
                legal: Sequence[int], proficiency: int | None, total: int,
                target: int | None) -> None:
    """Raise if ``bonus`` is not one of the ``legal`` bonuses for ``seat`` to stand with
    (B7: "add (not subtract) up to half of their proficiency bonus"), saying why.

    Raises:
        IllegalActionError: a bonus below 0, above ceil(PB/2) or the table's cap, or
            taking the total over the target.
    """
    if not isinstance(bonus, bool) and isinstance(bonus, int) and bonus in legal:
        return
    cap = rules.bonus_cap(proficiency)
    half = TAVERN.bonus_cap(proficiency)  # the seed's ceil(PB/2), before any table cap
    why = (
        "a bonus is added, never subtracted" if isinstance(bonus, int) and bonus < 0
        else f"{players[seat]} is not proficient" if not proficiency
        else f"it would take {total} past the target {target}"
        if isinstance(bonus, int) and bonus <= cap
        else f"this table caps the bonus at {cap} (max_added_bonus)" if cap < half
        else f"half of proficiency bonus {proficiency}, rounded up, is {cap}"
    )
    raise IllegalActionError(
        f"cannot add {bonus!r}: {why}; legal bonuses: "
        + (f"0 to {legal[-1]}" if len(legal) > 1 else "0 only")
    )
