"""The house's dice at a Dice Blackjack table: the server's own, drawn through a
commitment, and the DM's commands that roll them.

**Digital dice.** The house's d20s for a round (the target and the house dice) must be
fixed before anyone bets, and provably so: :class:`HouseDice` is the engine's dice source
at a digital table, and at each round's opening :meth:`HouseDice.seal` rolls them from
the server's dice and returns their commitment, which is published at once and opened
at the reveal. When the engine later resolves the target and house chance nodes from its
dice source (the DM's "roll", or at once with the table option ``auto_house``) it gets
exactly the sealed faces; the players' d12s come straight from the server's dice.

**Manual dice.** The DM rolls real dice and types the faces (:func:`dm_roll`,
:func:`dm_d12`); the engine checks them against its chance node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.state import Phase as BlackjackPhase
from tavern_dice.dice import DiceSource, RollSpec, SecureDice
from tavern_dice.errors import TavernError
from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError
from tavern_dice.web.commitments import HOUSE_SEAT, Commitment

HOUSE_PURPOSES = ("target", "house")
"""The chance nodes that are the house's (the DM's) to roll."""


class HouseDice:
    """A committing dice source for a digital Blackjack table (see the module doc).

    Args:
        rules: the table's ruleset (how many d20s the house rolls, and their sides).
        source: where every face comes from (default: the OS's dice).
    """

    def __init__(self, rules: BlackjackRules, source: DiceSource | None = None) -> None:
        self.rules = rules
        self.source: DiceSource = source if source is not None else SecureDice()
        self.sealed: tuple[int, ...] | None = None
        """The faces sealed for the round being played, target first (``None``: none)."""

    def seal(self, game_id: str, round_: int) -> Commitment:
        """Roll the house's dice for ``round_`` now, before any bet, and return their
        commitment (only its digest is published until the reveal)."""
        rules = self.rules
        target = self.source.roll(RollSpec(None, 1, rules.target_sides, "target"))
        house = self.source.roll(RollSpec(None, rules.house_dice, rules.house_sides, "house"))
        sealed = Commitment.make(game_id, round_, HOUSE_SEAT, (*target, *house))
        self.sealed = sealed.faces
        return sealed

    def resume(self, sealed: Commitment) -> None:
        """After a restart: the house's commitment of the latest round, as stored."""
        self.sealed = sealed.faces

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        if self.sealed is not None and spec.purpose in HOUSE_PURPOSES:
            faces = self.sealed[:1] if spec.purpose == "target" else self.sealed[1:]
            return spec.check(faces)
        # A round opened before its dice were sealed (none at a table started here) and
        # every d12 are rolled as they come.
        return self.source.roll(spec)


def house_pending(engine: BlackjackGame) -> bool:
    """Whether the engine waits for the house's dice (the target or the house d20s)."""
    specs = engine.chance_request()
    return specs is not None and specs[0].purpose in HOUSE_PURPOSES


def pending_roll(engine: BlackjackGame) -> dict[str, Any] | None:
    """The ``pending_roll`` of a Blackjack table: the chance node the engine waits on."""
    specs = engine.chance_request()
    if not specs:
        return None
    spec = specs[0]
    return {"purpose": spec.purpose, "seat": spec.seat, "count": spec.count,
            "sides": spec.sides}


def dm_roll(engine: BlackjackGame, frame: p.HouseRoll, manual: bool,
            reload: Callable[[dict[str, Any]], object]) -> None:
    """The DM's ``house_roll``: the target (and the house's d20s) typed in from real dice,
    or, with digital dice, rolled by the engine from its (committing) dice source. After
    a refusal nothing is changed: a roll that got half way (the target but not the house
    dice) is undone by ``reload``, which puts the game back as its log was.

    Raises:
        ActionError: ``illegal``: faces sent with digital dice or none with manual dice,
            the house not rolling now, or faces the engine refuses.
    """
    if manual and frame.target is None and frame.house is None:
        raise ActionError("illegal", "manual dice: send the target and the house's faces")
    if not manual and (frame.target is not None or frame.house is not None):
        raise ActionError("illegal", "digital dice: the server rolls; send no faces")
    if not house_pending(engine):
        raise ActionError("illegal", f"the house does not roll now (phase "
                          f"{engine.phase.value})")
    snapshot = engine.to_log()
    try:
        if manual:
            _typed_house_roll(engine, frame)
        else:
            engine.roll()
            if engine.phase is BlackjackPhase.HOUSE_ROLL:
                engine.roll()
    except TavernError as error:
        reload(snapshot)
        if isinstance(error, ActionError):
            raise
        raise ActionError("illegal", str(error)) from None


def _typed_house_roll(engine: BlackjackGame, frame: p.HouseRoll) -> None:
    specs = engine.chance_request()
    if specs and specs[0].purpose == "target":
        if frame.target is None:
            raise ActionError("illegal", "the target d20 comes first")
        engine.roll([[frame.target]])
    if frame.house is not None:
        if engine.phase is not BlackjackPhase.HOUSE_ROLL:
            raise ActionError("illegal", "the house's dice are not rolled now")
        engine.roll([frame.house])


def dm_d12(engine: BlackjackGame, face: int, manual: bool) -> None:
    """The DM types the face of the d12 the player to act rolled (manual dice only).

    Raises:
        ActionError: ``illegal``: digital dice, no d12 due, or a face the engine refuses.
    """
    if not manual:
        raise ActionError("illegal", "digital dice: the server rolls the d12s")
    specs = engine.chance_request()
    if not specs or specs[0].purpose != "d12":
        raise ActionError("illegal", "no d12 is to be rolled now")
    try:
        engine.roll([[face]])
    except TavernError as error:
        raise ActionError("illegal", str(error)) from None


def roll_house_now(engine: BlackjackGame) -> bool:
    """Digital dice with ``auto_house``: roll the house's dice the moment they are due (the
    engine's dice source gives the sealed faces); return whether it rolled."""
    rolled = False
    while house_pending(engine):
        engine.roll()
        rolled = True
    return rolled
