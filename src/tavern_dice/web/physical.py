"""Players' physical dice at a Liar's Dice table (the table option ``dice_mode: "manual"``).

A group in one room rolls real dice in real cups, and each player types their own
faces on their own device. The engine decides nothing differently: its round roll is
the same chance node (:meth:`~tavern_dice.liars_dice.state.LiarsDiceGame.chance_request`),
resolved once every hand is in with the faces handed to the engine's
:meth:`~tavern_dice.liars_dice.state.LiarsDiceGame.roll` (the people's seats typed, the
others' from the server's dice). The faces are checked by the engine's own
:meth:`~tavern_dice.dice.RollSpec.check` against that chance node.

What the web table adds is the waiting: hands arrive one at a time. Each typed hand is
sealed at once with the same SHA-256 commitment as a digital hand
(:class:`~tavern_dice.web.commitments.Commitment`), and that commitment is the record of
the entry: it is stored with the faces server-side, published (digest only) to every
connection, and opened at the reveal. So a restarted server finds the hands typed so
far among the round's unrevealed commitments, and no frame ever carries typed faces
before the reveal.

Bots, and people covered by a stand-in (away past the grace period), have no cup at the
table: the server rolls for them, as it would digitally. The roll-off that decides who
opens is public and is rolled by the server too (only the secret hands are typed).

At each reveal, each player with dice in it answers whether their cup shows the faces
revealed for them (a :class:`~tavern_dice.web.store.DiceCheck`), for everyone to see: a
player who mistyped, or a "No", is settled by the table and its DM, not by the server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from tavern_dice.dice import RollSpec
from tavern_dice.errors import InvalidDiceError
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.state import Phase as LiarsPhase
from tavern_dice.web.catalog import ActionError
from tavern_dice.web.commitments import Commitment
from tavern_dice.web.journal import GameSession
from tavern_dice.web.store import DiceCheck

ROUND = "round"
"""The purpose of the engine's secret round roll (the only dice players type)."""


def _game(s: GameSession) -> LiarsDiceGame:
    """The session's game: hands are typed at Liar's Dice tables only (their adapter,
    :mod:`.adapters.liars`, is the only caller here)."""
    return cast(LiarsDiceGame, s.engine)


def round_specs(s: GameSession) -> tuple[RollSpec, ...] | None:
    """The engine's pending secret round roll (one spec per seat with dice), or ``None``."""
    engine = _game(s)
    if engine.phase is not LiarsPhase.ROUND_ROLL:
        return None
    return engine.chance_request()


def entries(s: GameSession) -> dict[int, tuple[int, ...]]:
    """The hands typed so far for the round being rolled, by seat.

    Until the round roll resolves, the round's only commitments are typed hands (the
    server's own hands are committed when the roll resolves), so they are the record.
    """
    if round_specs(s) is None:
        return {}
    # The engine's round, not the session's: right after a reveal the session has not yet
    # read the new round's events (that happens when the step is stored).
    return {int(seat): c.faces for seat, c in s.commitments.get(s.engine.round, {}).items()
            if not c.revealed}


def enter(s: GameSession, seat: int, faces: Any) -> Commitment:
    """Seal ``seat``'s typed hand for the round being rolled.

    Raises:
        ActionError: ``illegal`` when no round is being rolled, the seat has no dice in
            it, or the faces do not fit the engine's chance node (naming what would);
            ``conflict`` when the seat already typed its hand. Nothing changes then.
    """
    specs = round_specs(s)
    round_ = s.engine.round
    if specs is None:
        raise ActionError("illegal", "no dice are typed in now: the round's dice are already "
                          "in (they are typed between a reveal and the next round's bidding)")
    spec = next((x for x in specs if x.seat == seat), None)
    if spec is None:
        raise ActionError("illegal", f"you have no dice in round {round_}")
    if seat in entries(s):
        raise ActionError("conflict", f"you already typed your dice for round {round_}; "
                          "they stay sealed until the reveal")
    wanted = (f"type the {spec.count} {'face' if spec.count == 1 else 'faces'} your cup "
              f"shows, each a whole number from 1 to {spec.sides}")
    if not isinstance(faces, list):
        raise ActionError("illegal", f"round {round_}: {wanted}, as a list such as "
                          f"{list(range(1, spec.count + 1))}; not {faces!r}")
    try:
        checked = spec.check(faces)
    except InvalidDiceError as error:
        raise ActionError("illegal", f"round {round_}: {wanted} ({error})") from None
    sealed = Commitment.make(s.id, round_, seat, checked)
    s.add_commitments([sealed])
    return sealed


def roll_when_ready(s: GameSession, server_rolls: Callable[[int], bool]) -> bool:
    """Resolve the chance nodes the table need not wait for; return whether any was.

    The roll-off is rolled by the engine's own (server) dice. The round roll resolves
    once every seat has typed its hand or is one ``server_rolls`` (a bot, a covered
    person), with the faces given to the engine: typed faces for the seats that typed,
    the engine's (server) dice source rolling the rest, seat by seat in the engine's
    order.
    """
    engine = _game(s)
    rolled = False
    while (specs := engine.chance_request()) is not None:
        if specs[0].purpose != ROUND:
            engine.roll()
            rolled = True
            continue
        typed = entries(s)
        reasons = s.server_hands.setdefault(engine.round, {})
        if any(_seat(x) not in typed and _seat(x) not in reasons and not server_rolls(_seat(x))
               for x in specs):
            return rolled
        for x in specs:
            if _seat(x) not in typed:
                reasons.setdefault(_seat(x), "away")
        engine.roll([typed[_seat(spec)] if _seat(spec) in typed else engine.dice.roll(spec)
                     for spec in specs])
        rolled = True
    return rolled


def waiting_for(s: GameSession, server_rolls: Callable[[int], bool]) -> dict[str, Any] | None:
    """The ``pending_roll`` of a Liar's Dice table with physical dice: the round being
    typed, who has typed (never what) and who is still to (not the seats the server
    rolls for)."""
    specs = round_specs(s)
    if specs is None:
        return None
    typed = entries(s)
    forced = s.server_hands.get(s.engine.round, {})
    return {"purpose": ROUND, "seat": None, "count": None, "sides": specs[0].sides,
            "round": s.engine.round, "entered": sorted(typed),
            "waiting": [_seat(x) for x in specs if x.seat not in typed
                        and _seat(x) not in forced and not server_rolls(_seat(x))]}


def roll_for(s: GameSession, seat: int, reason: str,
             server_rolls: Callable[[int], bool]) -> None:
    """Have the server roll ``seat``'s hand this round (``reason``: ``"time"``, the turn
    timer ran out; ``"dm"``, the DM asked), said publicly with :func:`server_rolled`.

    Raises:
        ActionError: ``illegal`` when no hands are being typed, or ``seat`` is not among
            the seats still to type (naming those).
    """
    pending = waiting_for(s, server_rolls)
    if pending is None:
        raise ActionError("illegal", "no hands are being typed now: the server rolls for a "
                          "seat only while the table waits for its hand")
    waiting = pending["waiting"]
    if seat not in waiting:
        still = (f"waiting for seats {' and '.join(str(x) for x in waiting)}" if waiting
                 else "no seat is still to type")
        raise ActionError("illegal", f"seat {seat} is not waiting to type its hand in round "
                          f"{pending['round']} ({still})")
    s.server_hands.setdefault(pending["round"], {})[seat] = reason


def confirm(s: GameSession, seat: int, round_: int, match: bool) -> DiceCheck:
    """Record ``seat``'s answer at the latest reveal: does their cup show its faces.

    Raises:
        ActionError: ``illegal`` for a round other than the latest reveal's, or a seat
            with no dice in it; ``conflict`` for a second answer.
    """
    latest = s.proof_round
    if latest is None or round_ != latest:
        shown = "no reveal yet" if latest is None else f"the latest is round {latest}"
        raise ActionError("illegal", f"only the latest reveal can be confirmed ({shown}), "
                          f"not round {round_}")
    sealed = s.commitments.get(latest, {}).get(str(seat))
    if sealed is None or not sealed.revealed:
        raise ActionError("illegal", f"you had no dice in round {latest}")
    if seat in s.server_hands.get(latest, {}):
        raise ActionError("illegal", f"the server rolled your dice in round {latest} while "
                          "you were away: they were never in your cup, so there is nothing "
                          "to confirm")
    if (latest, seat) in s.dice_checks:
        raise ActionError("conflict", f"you already answered for round {latest}")
    check = DiceCheck(latest, seat, match)
    s.dice_checks[(latest, seat)] = check
    return check


def checks_public(s: GameSession) -> dict[str, Any] | None:
    """The answers at the latest reveal, for everyone: ``{"round", "items"}``."""
    latest = s.proof_round
    if latest is None:
        return None
    items = [{"seat": c.seat, "match": c.match}
             for (round_, _), c in sorted(s.dice_checks.items()) if round_ == latest]
    return {"round": latest, "items": items}


def server_rolled(s: GameSession, people: Callable[[int], bool]) -> dict[str, dict[str, str]]:
    """The people's seats whose hand the server rolled, by round, with why (``"away"``,
    ``"time"``, ``"dm"``), for everyone to see: their pages, the seats, the log and the
    reveal say so. A round still being typed is left out until its roll."""
    rolling = s.engine.round if round_specs(s) is not None else None
    return {str(round_): {str(x): why for x, why in sorted(seats.items()) if people(x)}
            for round_, seats in sorted(s.server_hands.items())
            if round_ != rolling and any(people(x) for x in seats)}


def _seat(spec: RollSpec) -> int:
    assert spec.seat is not None  # Liar's Dice rollers are seats, never the house
    return spec.seat
