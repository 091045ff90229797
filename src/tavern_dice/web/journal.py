"""A game's server-side record: the engine, its seating, commitments and the step each
change writes to the store.

After every change the table calls :func:`collect_step`, which turns the engine's
new events into one :class:`~tavern_dice.web.store.Step`: the events themselves,
the commitments a secret roll calls for (and the reveals that open them), the
gold that moved (ledger rows) and whether the game is over. Nothing here
adjudicates: every fact comes from an engine event.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from tavern_dice.blackjack.events import HouseRolled, RoundClosed, RoundOpened, Settled
from tavern_dice.events import DiceRolled, Event
from tavern_dice.liars_dice.events import GameWon, Revealed, RoundStarted
from tavern_dice.stakes import Pot
from tavern_dice.web.autoplay import AskMemory
from tavern_dice.web.catalog import Engine
from tavern_dice.web.commitments import HOUSE_SEAT, Commitment
from tavern_dice.web.house import HouseDice
from tavern_dice.web.rows import DiceCheck, LedgerEntry, Step

RUNNING = ("playing", "paused")
"""Game statuses of a game that is not finished."""


@dataclass(slots=True)
class GameSession:
    """The running (or just finished) game of a table, with its server-side extras.

    Attributes:
        seats: the player id at each game seat.
        status: ``'playing'``, ``'paused'``, ``'over'`` or ``'ended'``.
        persisted: how many of the engine's log entries are in the store.
        commitments: by round, then by seat (``'0'``, ``'1'``, ... or ``'house'``).
        open_round / proof_round: the round whose commitments are published but not
            revealed, and the latest round revealed.
        pot: the gold each player staked at the start (Liar's Dice stakes).
        house: the house's committing dice source (digital Blackjack), else ``None``.
        public_events: log entries every viewer sees alike, encoded as JSON, by index.
    """

    id: str
    kind: str
    engine: Engine
    seats: list[str]
    status: str
    persisted: int
    commitments: dict[int, dict[str, Commitment]] = field(default_factory=dict)
    log_round: int = 0
    open_round: int | None = None
    proof_round: int | None = None
    pot: Pot[str] = field(default_factory=Pot)
    house: HouseDice | None = None
    asked: AskMemory = field(default_factory=AskMemory)
    notice: str | None = None
    """Why the server paused the game itself (a round that would never end), for the DM."""
    public_events: dict[int, str] = field(default_factory=dict)
    dice_checks: dict[tuple[int, int], DiceCheck] = field(default_factory=dict)
    """Physical dice: each player's answer at a reveal, by ``(round, seat)``."""
    server_hands: dict[int, dict[int, str]] = field(default_factory=dict)
    """Physical dice: the seats whose hand the server rolls or rolled, by round, with why
    (``"away"``: a bot or a covered person; ``"time"``: the turn timer ran out; ``"dm"``:
    the DM asked): those hands are no cup's. Kept in memory: a restarted server no longer
    marks the rounds rolled before it started."""

    def seat_of(self, player_id: str | None) -> int | None:
        """The game seat of ``player_id``, or ``None`` if they have none in this game."""
        if player_id is None:
            return None
        try:
            return self.seats.index(player_id)
        except ValueError:
            return None

    @property
    def running(self) -> bool:
        return self.status in RUNNING

    def add_commitments(self, items: list[Commitment]) -> None:
        for c in items:
            self.commitments.setdefault(c.round, {})[c.seat] = c
            if c.revealed:
                self.proof_round = max(self.proof_round or 0, c.round)
            else:
                self.open_round = c.round
                if c.seat == HOUSE_SEAT and self.house is not None:
                    self.house.resume(c)

    def add_dice_checks(self, items: list[DiceCheck]) -> None:
        for c in items:
            self.dice_checks[(c.round, c.seat)] = c


def engine_header(engine: Engine) -> dict[str, Any]:
    """The engine's ``to_log()`` without its events (stored once per game)."""
    return engine.log_header()


def round_in_log(events: list[Event]) -> int:
    """The round the latest ``round_started`` / ``round_opened`` event opened."""
    for e in reversed(events):
        if isinstance(e, RoundStarted | RoundOpened):
            return e.round
    return 0


def collect_step(s: GameSession, over: bool) -> Step:
    """The step to store for the engine's new events (updating ``s``'s commitments):
    the events, the commitments they call for (the house's dice are sealed as each
    Blackjack round opens, by ``s.house``), the reveals, ledger rows, and
    ``game_status='over'`` when the engine says the game is ``over``."""
    engine = s.engine
    new = engine.log[s.persisted:]
    step = Step(game_id=s.id, first_seq=s.persisted, events=[e.to_dict() for e in new])
    for event in new:
        if isinstance(event, RoundStarted | RoundOpened):
            s.log_round = event.round
        if isinstance(event, DiceRolled) and event.secret:
            _commit_roll(s, step, event)
        elif isinstance(event, Revealed | HouseRolled | RoundClosed):
            reveal_round(s, step, s.log_round)
        elif isinstance(event, GameWon):
            step.ledger.extend(LedgerEntry(pid, amount, "pot", s.id, s.log_round)
                               for pid, amount in s.pot.payout(s.seats[event.seat]).items())
        elif isinstance(event, Settled) and event.delta:
            step.ledger.append(LedgerEntry(s.seats[event.seat], event.delta,
                                           f"settlement:{event.outcome}", s.id, s.log_round))
        if isinstance(event, RoundOpened) and s.house is not None:
            sealed = s.house.seal(s.id, event.round)
            s.add_commitments([sealed])
            step.new_commitments.append(sealed)
    if over and s.running:
        step.game_status = "over"
        step.table_status = "lobby"
        step.clear_table_game = True
    return step


def _commit_roll(s: GameSession, step: Step, event: DiceRolled) -> None:
    # Hands typed in from physical dice were sealed when they were typed (web.physical);
    # only the server's own hands are sealed here.
    sealed = s.commitments.get(s.log_round, {})
    made = [Commitment.make(s.id, s.log_round, seat, [int(f) for f in faces if f is not None])
            for seat, faces in zip(event.seats, event.dice, strict=True)
            if str(seat) not in sealed]
    s.add_commitments(made)
    step.new_commitments.extend(made)


def reveal_round(s: GameSession, step: Step, round_: int) -> None:
    """Open every unrevealed commitment of ``round_`` (the dice are public now)."""
    by_seat = s.commitments.get(round_, {})
    opened = [seat for seat, c in by_seat.items() if not c.revealed]
    for seat in opened:
        by_seat[seat] = dataclasses.replace(by_seat[seat], revealed=True)
        step.revealed.append((round_, seat))
    if opened:
        s.proof_round = round_
        if s.open_round == round_:
            s.open_round = None
