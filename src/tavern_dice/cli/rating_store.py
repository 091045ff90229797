"""A person's rating across games: a small SQLite file in the user's data directory.

The file is ``ratings.sqlite3`` in the directory :mod:`platformdirs` gives for
``tavern-dice`` (``~/.local/share/tavern-dice`` on Linux), or in ``$TAVERN_DICE_DATA_DIR``
when that is set (the tests point it at a temporary directory). Each rated game is one
row: who played (by name), when, at how many seats, against which levels, where they
finished, and their rating before and after (:mod:`tavern_dice.play.ratings`). A person's
current rating is their last row's, or the starting 1500 ± 350.

A file that is not a readable store (damaged, or another program's) is never written
over: :meth:`RatingStore.open` moves it aside (``ratings.sqlite3.corrupt-<time>``), says
so, and starts a fresh store.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from tavern_dice.errors import TavernError
from tavern_dice.play.ratings import MU, SIGMA, Rating

DATA_DIR_ENV = "TAVERN_DICE_DATA_DIR"
"""An environment variable naming the directory to keep the store in instead."""
FILE_NAME = "ratings.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rated_games (
    id INTEGER PRIMARY KEY,
    played_at TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    opponents TEXT NOT NULL,
    place INTEGER NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after REAL NOT NULL,
    sigma_after REAL NOT NULL
);
"""
_INDEX = "CREATE INDEX IF NOT EXISTS rated_games_name ON rated_games (name, id)"
_COLUMNS = ("id", "played_at", "name", "game", "players", "opponents", "place",
            "mu_before", "sigma_before", "mu_after", "sigma_after")


class RatingStoreError(TavernError):
    """The rating store cannot be read or written (its message says which file and why)."""


def default_path() -> Path:
    """Where the store lives: ``$TAVERN_DICE_DATA_DIR`` or the user's data directory."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override) / FILE_NAME
    from platformdirs import user_data_path  # here: only the rating needs it

    return user_data_path("tavern-dice", appauthor=False) / FILE_NAME


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game of one person."""

    played_at: str
    name: str
    game: str
    players: int
    opponents: str
    place: int
    before: Rating
    after: Rating

    @property
    def change(self) -> float:
        """How far the rating moved."""
        return self.after.mu - self.before.mu


class RatingStore:
    """The store at ``path`` (see the module doc). Opening checks it; use :meth:`open` to
    get a fresh store in place of a damaged one.

    Raises:
        RatingStoreError: the file is not a rating store, or cannot be created.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.executescript(_SCHEMA)
                found = [row[1] for row in db.execute("PRAGMA table_info(rated_games)")]
                if tuple(found) != _COLUMNS:
                    raise RatingStoreError(f"{path} is not a tavern-dice rating store "
                                           f"(its table has columns {found})")
                db.execute(_INDEX)
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, SCHEMA_VERSION):
                    raise RatingStoreError(f"{path} is a rating store of a later version "
                                           f"({version}); this tavern-dice reads {SCHEMA_VERSION}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise RatingStoreError(f"{path} is damaged (SQLite's check fails)")
        except sqlite3.DatabaseError as error:
            raise RatingStoreError(f"{path} cannot be read as a rating store: {error}") from None
        except OSError as error:
            raise RatingStoreError(f"cannot create the rating store {path}: "
                                   f"{error.strerror or error}") from None

    @classmethod
    def open(cls, path: Path | None = None,
             warn: Callable[[str], None] | None = None) -> RatingStore:
        """The store at ``path`` (default :func:`default_path`); a file that is not a
        readable store is moved aside, ``warn`` is told so, and a fresh store is made.

        Raises:
            RatingStoreError: not even a fresh store can be made (an unwritable directory).
        """
        where = default_path() if path is None else path
        try:
            return cls(where)
        except RatingStoreError as error:
            if not where.exists():
                raise
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
            kept = where.with_name(f"{where.name}.corrupt-{stamp}")
            where.replace(kept)
            if warn is not None:
                warn(f"{error}. It was kept as {kept}; a fresh rating store was started.")
            return cls(where)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=5.0)) as db, db:
            yield db

    def current(self, name: str) -> Rating:
        """``name``'s rating now: after their last rated game, else the starting one."""
        with self._connect() as db:
            row = db.execute("SELECT mu_after, sigma_after FROM rated_games WHERE name = ? "
                             "ORDER BY id DESC LIMIT 1", (name,)).fetchone()
        return Rating(MU, SIGMA) if row is None else Rating(float(row[0]), float(row[1]))

    def record(self, name: str, game: str, players: int, opponents: str, place: int,
               before: Rating, after: Rating) -> RatedGame:
        """Add one rated game of ``name`` (now) and return it."""
        played_at = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
        entry = RatedGame(played_at, name, game, players, opponents, place, before, after)
        try:
            with self._connect() as db:
                db.execute(
                    "INSERT INTO rated_games (played_at, name, game, players, opponents, "
                    "place, mu_before, sigma_before, mu_after, sigma_after) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (played_at, name, game, players, opponents, place, before.mu,
                     before.sigma, after.mu, after.sigma))
        except sqlite3.Error as error:
            raise RatingStoreError(f"cannot write to the rating store {self.path}: "
                                   f"{error}") from None
        return entry

    def history(self, name: str) -> list[RatedGame]:
        """``name``'s rated games, oldest first."""
        with self._connect() as db:
            rows = db.execute(f"SELECT {', '.join(_COLUMNS[1:])} FROM rated_games "
                              "WHERE name = ? ORDER BY id", (name,)).fetchall()
        return [RatedGame(r[0], r[1], r[2], int(r[3]), r[4], int(r[5]),
                          Rating(r[6], r[7]), Rating(r[8], r[9])) for r in rows]

    def names(self) -> list[str]:
        """Everyone with a rated game, the most recently rated first."""
        with self._connect() as db:
            rows = db.execute("SELECT name FROM rated_games GROUP BY name "
                              "ORDER BY MAX(id) DESC").fetchall()
        return [r[0] for r in rows]


__all__ = ["DATA_DIR_ENV", "RatedGame", "RatingStore", "RatingStoreError", "default_path"]
