"""The web table's stored rows: the SQLAlchemy models of its tables, and the plain records
a game step writes and a load reads (:mod:`.store` reads and writes them).

Each model is one table of the schema (Alembic, :mod:`.migrate`, creates and upgrades
it); the dataclasses are what the rest of the server handles, so that nothing outside
:mod:`.store` holds a database session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tavern_dice.web.commitments import Commitment


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(64))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PlayerRow(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    bot_kind: Mapped[str | None] = mapped_column(String(32), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    proficiency: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    game: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    seats: Mapped[list[str]] = mapped_column(JSON)
    header: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class EventRow(Base):
    __tablename__ = "events"
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class CommitmentRow(Base):
    __tablename__ = "commitments"
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(8), primary_key=True)
    faces: Mapped[list[int]] = mapped_column(JSON)
    salt: Mapped[str] = mapped_column(String(32))
    digest: Mapped[str] = mapped_column(String(64))
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)


class TableOwnerRow(Base):
    """Which server process holds a table's engine now (PostgreSQL with several
    processes): its node id and the address other processes forward to. The row is a
    signpost; the table's advisory lock is what makes the owner the only one."""

    __tablename__ = "table_owners"
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    node_id: Mapped[str] = mapped_column(String(32), index=True)
    address: Mapped[str] = mapped_column(String(200))
    since_ms: Mapped[int] = mapped_column(BigInteger)


class DiceCheckRow(Base):
    __tablename__ = "dice_checks"
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    match: Mapped[bool] = mapped_column(Boolean)
    at_ms: Mapped[int] = mapped_column(BigInteger)


class RatingRow(Base):
    """A person's table rating before and after one rated Liar's Dice game (table option
    ``rated``): written with the game's last step, never changed. A person's rating at
    the table is their latest row's ``mu``/``sigma``."""

    __tablename__ = "ratings"
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at_ms: Mapped[int] = mapped_column(BigInteger)


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """One person's rating change in one rated game: their ``place`` (1 = the winner) and
    their rating before and after (``mu``, ``sigma``)."""

    game_id: str
    player_id: str
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class DiceCheck:
    """A player's answer at a reveal with physical dice: ``match`` is whether the faces
    their cup shows are the ones revealed for their seat in ``round``."""

    round: int
    seat: int
    match: bool


class LedgerRow(Base):
    __tablename__ = "ledger"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    amount_cp: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(32))
    at_ms: Mapped[int] = mapped_column(BigInteger)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One gold movement to be written: ``amount_cp`` (positive: to the player)."""

    player_id: str
    amount_cp: int
    reason: str
    game_id: str | None = None
    round: int | None = None


@dataclass(slots=True)
class Step:
    """What one game step writes: new events from log index ``first_seq``, commitments made
    or revealed, ledger rows, and status changes."""

    game_id: str | None = None
    first_seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    new_commitments: list[Commitment] = field(default_factory=list)
    revealed: list[tuple[int, str]] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    dice_checks: list[DiceCheck] = field(default_factory=list)
    ratings: list[RatingEntry] = field(default_factory=list)
    game_status: str | None = None
    table_status: str | None = None
    table_game_id: str | None = None
    clear_table_game: bool = False

    def empty(self) -> bool:
        return not (self.events or self.new_commitments or self.revealed or self.ledger
                    or self.dice_checks or self.ratings or self.game_status
                    or self.table_status or self.clear_table_game)


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """What a process reads to hold a table: its row, players, balances, the running
    game (with the antes it took) if there is one, and its rated games' rating changes."""

    row: TableRow
    players: list[PlayerRow]
    balances: dict[str, int]
    game: StoredGame | None
    antes: dict[str, int]
    ratings: list[RatingEntry] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: its row, the engine log (header plus events) and commitments."""

    id: str
    table_id: str
    game: str
    status: str
    seats: list[str]
    log: dict[str, Any]
    commitments: list[Commitment]
    created_ms: int
    finished_ms: int | None
    dice_checks: list[DiceCheck] = field(default_factory=list)
