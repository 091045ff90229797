"""Tables and their games: the lifecycle of a table, its lock, persistence and gold.

The server is a thin shell round the rules engines. A :class:`Table` holds the seating
(:mod:`.seating`), the running game (a :class:`~.journal.GameSession`), and the
connections watching it. Every action a connection sends is handed to the engine, which
adjudicates it (a refused action raises and changes nothing); then the new events are
written to the store in one transaction (events, commitments, ledger rows), and each
connection is sent a ``state`` frame built from the engine's view for *its* seat
(:mod:`.frames`). Nothing here decides a rule, and nothing here names a game: what the
two games do differently is their adapter's (:mod:`.adapters`), chosen by the table's
game name; the house's dice are :mod:`.house`'s, the pot :mod:`tavern_dice.stakes`'s.

Concurrency: one ``asyncio.Lock`` per table serialises every change, so the engine
sees one action at a time; bots and turn timers (:mod:`.schedule`) run as tasks that
take the same lock and check, with a version number, that the state they decided on
still stands. Database calls go to the store thread (:mod:`.dbthread`) and are awaited
under the table's lock: other tables go on meanwhile, and no frame about a step is sent
before the step is durable. Only the process that owns a table (:mod:`.coordinator`)
holds a ``Table`` for it, so its bots and timers run exactly once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from tavern_dice.errors import NotYourTurnError, TavernError
from tavern_dice.stakes import Pot
from tavern_dice.web import physical
from tavern_dice.web import protocol as p
from tavern_dice.web.adapters import GameAdapter, adapter_for
from tavern_dice.web.catalog import (
    ActionError,
    Rules,
    bot_kinds,
    build_rules,
    clean_name,
    new_id,
)
from tavern_dice.web.commitments import HOUSE_SEAT, Commitment
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.frames import Frames, Listener, shared_game
from tavern_dice.web.journal import GameSession, collect_step, engine_header, round_in_log
from tavern_dice.web.options import changed_options
from tavern_dice.web.schedule import Scheduler
from tavern_dice.web.seating import REMOVED, Occupant, Seating
from tavern_dice.web.standings import TableRatings
from tavern_dice.web.store import (
    DiceCheck,
    FenceError,
    GameRow,
    LedgerEntry,
    PlayerRow,
    RatingEntry,
    Step,
    Store,
    StoredGame,
    TableRow,
    now_ms,
    token_hash,
)

__all__ = ["Listener", "Occupant", "Table"]

log = logging.getLogger("tavern_dice.web")

HOST_MOVED = ("the DM console was opened on another device, or its DM key was replaced; "
              "this one no longer runs the table (open the new DM link to take it back)")


class Table:
    """One table: its seating, options, running game, connections, bots and timers."""

    def __init__(self, db: StoreThread, row: TableRow, players: list[PlayerRow],
                 balances: dict[str, int], ratings: list[RatingEntry] | None = None) -> None:
        self.db = db
        self.id = row.id
        self.game = row.game
        self.name = row.name
        self.adapter: GameAdapter = adapter_for(row.game)
        self.rules: Rules = build_rules(row.game, "tavern", dict(row.rules))
        self.options = p.TableOptions.model_validate(row.options)
        self.host_hash = row.host_token_hash
        self.status = row.status
        self.seating = Seating(row.seats, players)
        self.balances = dict(balances)
        self.ratings = TableRatings(ratings or [])
        self.session: GameSession | None = None
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.closed = False
        self.last_active = 0.0
        """When someone last used the table (the manager's clock), to put it away idle."""
        self.on_lost: Callable[[], None] | None = None
        """Called when a write finds that this process no longer owns the table."""
        self.scheduler = Scheduler(self)
        self.frames = Frames(self.summary, self._shared_game)

    @property
    def store(self) -> Store:
        return self.db.store

    @property
    def seat_list(self) -> list[str]:
        """Player ids in seat order for the next game."""
        return self.seating.seat_list

    @property
    def occupants(self) -> dict[str, Occupant]:
        return self.seating.occupants

    @property
    def agents(self) -> dict[tuple[str, str], Any]:
        """The bot agents by ``(player_id, kind)`` (:attr:`.schedule.Scheduler.agents`)."""
        return self.scheduler.agents

    # ------------------------------------------------------------------ loading

    async def load_game(self, game_id: str) -> None:
        """Rebuild the running game from its stored log (after a failed step)."""
        stored = await self.db.call(self.store.game, game_id)
        if stored is None:
            raise ActionError("conflict", f"game {game_id} is not in the database")
        self.restore_game(stored, await self.db.call(self.store.antes, self.id, game_id))

    def restore_game(self, stored: StoredGame, antes: dict[str, int]) -> None:
        """Rebuild the game from its stored log, commitments, dice checks and antes."""
        engine, house = self.adapter.reopen_game(stored.log, self.rules, self.options)
        session = GameSession(stored.id, stored.game, engine, stored.seats, stored.status,
                              persisted=len(engine.log), pot=Pot(dict(antes)), house=house)
        session.add_commitments(stored.commitments)
        session.add_dice_checks(stored.dice_checks)
        session.log_round = round_in_log(engine.log)
        self.session = session

    def _reload(self, log_data: dict[str, Any]) -> None:
        """Put the running game back as ``log_data`` has it (a change that got half way)."""
        s = self.session
        assert s is not None
        s.engine, s.house = self.adapter.reopen_game(log_data, self.rules, self.options)
        sealed = s.commitments.get(s.engine.round, {}).get(HOUSE_SEAT)
        if s.house is not None and sealed is not None:
            s.house.resume(sealed)

    def start_background(self) -> None:
        """After loading a running game: away timers for everyone, then bots and timers."""
        s = self.session
        if s is not None and s.status in ("playing", "paused"):
            for pid in self.seating.away_people(s.seats):
                self.scheduler.schedule_takeover(pid)
            self.scheduler.reschedule()

    # ------------------------------------------------------------------ summaries

    def max_seats(self) -> int:
        return self.adapter.max_seats(self.rules)

    def summary(self) -> dict[str, Any]:
        """The public table summary (``TableSummary`` in the protocol)."""
        return {
            "table_id": self.id,
            "name": self.name,
            "game": self.game,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "options": self.options.model_dump(),
            "join_url": f"/t/{self.id}",
            "game_id": self.session.id if self.session and self._game_running() else None,
            "seats": [self.seating.occupant_dict(pid) for pid in self.seat_list],
            "balances": dict(self.balances),
            "ratings": self.ratings.summary() if self.options.rated else None,
        }

    def _game_running(self) -> bool:
        return self.session is not None and self.session.status in ("playing", "paused")

    def _playing(self) -> list[str]:
        """The players of the running game (their names stay taken while it runs)."""
        s = self.session
        return list(s.seats) if s is not None and self._game_running() else []

    def _server_rolls(self, s: GameSession) -> Callable[[int], bool]:
        return lambda seat: self.seating.server_plays(s.seats[seat])

    def _shared_game(self, s: GameSession) -> dict[str, Any]:
        """The parts of the ``game`` object every seat sees alike."""
        return shared_game(
            s, self.seating, self.scheduler.timer_dict(),
            self.adapter.pending_roll(s, self.options, self._server_rolls(s)),
            dice_checks=self.adapter.typed_hands(self.options),
            ratings=self.ratings.standings(s, self.occupants))

    def state_text(self, conn: Listener) -> str:
        """The ``state`` frame for one connection (its seat's view only)."""
        return self.frames.state_text(self.session, conn)

    def broadcast(self) -> None:
        """Send every connection its own ``state`` frame (after setting the turn timer
        the new state calls for, so that the frame shows it)."""
        s = self.session
        if self.closed or s is None or s.status != "playing":
            self.scheduler.clear_timer()
        else:
            self.scheduler.arm_timer(s)
        self.frames.changed()
        for conn in list(self.listeners):
            conn.send_text(self.state_text(conn))

    # ------------------------------------------------------------------ connections

    def role_for(self, token: str | None) -> tuple[str, str | None]:
        """``(role, player_id)`` for a token; ``None`` is a spectator.

        Raises:
            ActionError: ``bad-token`` for a token that is neither this table's host's
                nor a player's.
        """
        return self.seating.role_for(token, self.host_hash, self._playing())

    def attach(self, conn: Listener) -> None:
        self.listeners.add(conn)
        pid = conn.player_id
        if conn.role == "player" and pid is not None:
            self.seating.arrive(pid)
            self.scheduler.cancel_takeover(pid)
            self.broadcast()
            self.scheduler.reschedule()
        else:
            conn.send_text(self.state_text(conn))

    def detach(self, conn: Listener) -> None:
        if conn not in self.listeners:
            return
        self.listeners.discard(conn)
        pid = conn.player_id
        if conn.role == "player" and pid is not None and self.seating.leave(pid):
            if self.session is not None and pid in self.session.seats:
                self.scheduler.schedule_takeover(pid)
            if not self.closed:
                self.broadcast()

    async def close(self) -> None:
        self.closed = True
        await self.scheduler.close()

    # ------------------------------------------------------------------ joining

    async def join(self, raw_name: str, proficiency: int | None) -> tuple[str, str]:
        """Seat a person: ``(player_id, seat_token)``. The token is shown once; only its
        hash is stored.

        Raises:
            ActionError: a bad name, a proficiency the ruleset rejects, a full table.
        """
        name = clean_name(raw_name)
        self.adapter.check_join(self.rules, name, proficiency)
        token = secrets.token_urlsafe(24)
        async with self.lock:
            if self.closed:
                raise ActionError("conflict", "the table was just put away; try again")
            self.seating.check_name_free(name, self._playing())
            pid = await self._add_occupant(name, "person", None, proficiency, token)
        return pid, token

    async def _add_occupant(self, name: str, kind: str, bot_kind: str | None,
                            proficiency: int | None, token: str | None) -> str:
        if len(self.seat_list) >= self.max_seats():
            raise ActionError("conflict", f"the table is full ({self.max_seats()} seats)")
        pid = new_id("p")
        digest = token_hash(token) if token is not None else None
        row = PlayerRow(id=pid, table_id=self.id, name=name, kind=kind, bot_kind=bot_kind,
                        token_hash=digest, proficiency=proficiency, created_ms=now_ms())
        gold = self.options.starting_gold_cp
        ledger = [LedgerEntry(pid, gold, "starting-gold")] if gold else []
        await self.db.call(self.store.add_player, row, ledger, [*self.seat_list, pid])
        self.seating.add(Occupant(pid, name, kind, bot_kind, proficiency), digest)
        self.balances[pid] = self.balances.get(pid, 0) + gold
        self.broadcast()
        return pid

    # ------------------------------------------------------------------ frames

    async def handle(self, conn: Listener, frame: Any) -> None:
        """Apply one frame from ``conn`` (already parsed); the seat comes from the
        connection's token, never from the frame.

        Raises:
            ActionError: the frame is refused; nothing changed.
        """
        async with self.lock:
            if self.closed:
                raise ActionError("conflict", "the server is shutting down")
            if isinstance(frame, p.HOST_FRAMES):
                if conn.role != "host":
                    raise ActionError("not-allowed", f"only the host may send {frame.type}")
                await self._host_frame(frame)
            elif isinstance(frame, p.PLAYER_FRAMES):
                if conn.role != "player":
                    raise ActionError("not-allowed", f"only a seated player may {frame.type}")
                await self._player_frame(conn, frame)
            else:
                raise ActionError("bad-message", f"{frame.type} is not an action")

    def _require_game(self, *, playing: bool = True) -> GameSession:
        s = self.session
        if s is None or s.status not in ("playing", "paused"):
            raise ActionError("no-game", "no game is running at this table")
        if playing and s.status == "paused":
            raise ActionError("paused", "the game is paused; wait for the host to resume")
        return s

    async def _player_frame(self, conn: Listener, frame: Any) -> None:
        # The answer at a reveal is also given after the last one, which ends the game.
        answer = isinstance(frame, p.ConfirmDice) and self.session is not None
        s = self.session if answer else self._require_game()
        assert s is not None
        seat = s.seat_of(conn.player_id)
        if seat is None:
            raise ActionError("not-allowed", "you have no seat in this game")
        try:
            if isinstance(frame, p.TypedDice | p.ConfirmDice) and self.adapter.player_dice:
                await self._physical_frame(s, seat, frame)
                return
            self.adapter.player_action(s.engine, seat, frame)
            self.adapter.resolve_chance(s, self.options, self._server_rolls(s))
        except NotYourTurnError as error:
            raise ActionError("not-your-turn", str(error)) from None
        except ActionError:
            raise
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
        await self.after_change()

    async def _physical_frame(self, s: GameSession, seat: int,
                              frame: p.TypedDice | p.ConfirmDice) -> None:
        """A player's own physical dice: their typed hand, or their answer at a reveal."""
        if not self.adapter.typed_hands(self.options):
            raise ActionError("illegal", "this table's dice are digital: the server rolls "
                              "them (the DM chooses physical dice, dice_mode \"manual\", "
                              "between games)")
        if isinstance(frame, p.TypedDice):
            sealed = physical.enter(s, seat, frame.faces)
            self.adapter.resolve_chance(s, self.options, self._server_rolls(s))
            await self.after_change(commitments=[sealed])
        else:
            check = physical.confirm(s, seat, frame.round, frame.match)
            await self.after_change(checks=[check])

    async def _host_frame(self, frame: Any) -> None:
        if isinstance(frame, p.AddBot):
            await self._add_bot(frame)
        elif isinstance(frame, p.Remove):
            self.seating.seated(frame.player_id)
            await self._set_seats([x for x in self.seat_list if x != frame.player_id])
            self._unseat(frame.player_id)
        elif isinstance(frame, p.Move):
            await self._move(frame.player_id, frame.to)
        elif isinstance(frame, p.SetOptions):
            await self._set_options(frame.options)
        elif isinstance(frame, p.Start):
            await self._start()
        elif isinstance(frame, p.Pause | p.Resume):
            await self._pause(isinstance(frame, p.Pause))
        elif isinstance(frame, p.End):
            await self._end()
        elif isinstance(frame, p.HouseRoll | p.D12 | p.NextRound):
            await self._house_frame(frame)
        elif isinstance(frame, p.RollFor):
            await self._roll_for(frame.seat)
        elif isinstance(frame, p.Grant):
            await self._grant(frame.player_id, frame.amount_cp)

    # ------------------------------------------------------------------ host: lobby

    async def _add_bot(self, frame: p.AddBot) -> None:
        kind = frame.kind.strip().lower()
        kinds = bot_kinds(self.game)
        if kind not in kinds:
            raise ActionError("illegal", f"unknown bot {kind!r}; known: {kinds}")
        if frame.name:
            name = clean_name(frame.name)
            self.seating.check_name_free(name, self._playing())
        else:
            name = self.seating.bot_name(kind, self._playing())
        await self._add_occupant(name, "bot", kind, None, None)

    async def new_host_key(self) -> str:
        """Replace the DM key (the DM link was opened on another device, or the DM asked
        for a new key): only its hash is stored, and every console holding the old key is
        told so and closed."""
        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        await self.db.call(self._update_table, {"host_token_hash": digest})
        self.host_hash = digest
        error = json.dumps({"type": "error", "code": "bad-token", "message": HOST_MOVED,
                            "ref": None})
        for conn in [c for c in self.listeners if c.role == "host"]:
            conn.send_text(error)
            conn.close_soon(p.CLOSE_BAD_TOKEN, "moved")
        return token

    def _unseat(self, pid: str) -> None:
        """Close a removed player's pages (unless they play on in the running game): their
        seat token opens nothing now, and the page that forgets it offers to join again."""
        if pid in self._playing():
            return
        error = json.dumps({"type": "error", "code": "bad-token", "message": REMOVED,
                            "ref": None})
        for conn in [c for c in self.listeners if c.player_id == pid]:
            conn.send_text(error)
            conn.close_soon(p.CLOSE_BAD_TOKEN, "removed")

    async def _move(self, pid: str, to: int) -> None:
        self.seating.seated(pid)
        if not 0 <= to < len(self.seat_list):
            raise ActionError("illegal", f"seats are 0-{len(self.seat_list) - 1}, not {to}")
        seats = [x for x in self.seat_list if x != pid]
        seats.insert(to, pid)
        await self._set_seats(seats)

    async def _set_seats(self, seats: list[str]) -> None:
        await self.db.call(self._update_table, {"seats": seats})
        self.seating.seat_list = seats
        self.broadcast()

    def _update_table(self, values: dict[str, Any]) -> None:
        self.store.update_table(self.id, **values)

    async def _set_options(self, changes: dict[str, Any]) -> None:
        options = changed_options(self.game, self.options, changes, self._game_running())
        await self.db.call(self._update_table, {"options": options.model_dump()})
        self.options = options
        self.broadcast()
        self.scheduler.reschedule()

    # ------------------------------------------------------------------ host: game

    async def _start(self) -> None:
        if self._game_running():
            raise ActionError("conflict", "a game is already running; end it first")
        seats = list(self.seat_list)
        game_id = new_id("g")
        pot = self.adapter.pot(self.options.stake_cp, self.balances, seats,
                               {pid: self.occupants[pid].name for pid in seats})
        try:
            engine, house = self.adapter.open_game(
                self.rules, self.options, [self.occupants[pid].name for pid in seats],
                [max(0, self.balances.get(pid, 0)) for pid in seats],
                [self.occupants[pid].proficiency for pid in seats])
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
        session = GameSession(game_id, self.game, engine, seats, "playing", persisted=0,
                              pot=pot, house=house)
        self.adapter.resolve_chance(session, self.options, self._server_rolls(session))
        step = collect_step(session, self.adapter.is_over(engine))
        step.ledger[:0] = [LedgerEntry(pid, -amount, "ante", game_id, 0)
                           for pid, amount in pot.antes.items()]
        step.table_status = "playing"
        step.table_game_id = game_id
        row = GameRow(id=game_id, table_id=self.id, game=self.game, status="playing",
                      seats=seats, header=engine_header(engine), created_ms=now_ms(),
                      finished_ms=None)
        await self.db.call(self.store.add_game, row, step)
        self._apply_ledger(step.ledger)
        session.persisted = len(engine.log)
        self.session = session
        self.status = "playing"
        for pid in self.seating.away_people(seats):
            self.scheduler.schedule_takeover(pid)
        self.broadcast()
        self.scheduler.reschedule()

    async def _pause(self, pause: bool) -> None:
        s = self._require_game(playing=False)
        wanted = "paused" if pause else "playing"
        if s.status == wanted:
            raise ActionError("conflict", f"the game is already {wanted}")
        # Stored first: if the write fails, the game in memory still matches the database.
        await self.db.commit_step(self.id, Step(game_id=s.id, game_status=wanted,
                                                table_status=wanted))
        s.status = wanted
        s.notice = None
        self.status = wanted
        self.scheduler.clear_timer()
        self.broadcast()
        self.scheduler.reschedule()

    async def _end(self) -> None:
        s = self._require_game(playing=False)
        step = Step(game_id=s.id, game_status="ended", table_status="lobby",
                    clear_table_game=True)
        step.ledger = [LedgerEntry(pid, amount, "refund", s.id, s.engine.round)
                       for pid, amount in s.pot.refunds().items()]
        await self.db.commit_step(self.id, step)
        self._apply_ledger(step.ledger)
        s.status = step.game_status or s.status
        self.status = "lobby"
        self.scheduler.clear_timer()
        self.seating.covered.clear()
        self.scheduler.cancel_takeovers()
        self.broadcast()

    async def halt(self, s: GameSession, reason: str) -> None:
        """Pause a game the bots would never end, and tell everyone why: the DM may end
        it (or resume, if the people at the table will end the round themselves)."""
        log.warning("table %s: %s", self.id, reason)
        await self.db.commit_step(self.id, Step(game_id=s.id, game_status="paused",
                                                table_status="paused"))
        s.status = "paused"
        s.notice = f"The server paused the game: {reason}"
        self.status = "paused"
        self.scheduler.clear_timer()
        self.broadcast()

    async def _house_frame(self, frame: p.HouseRoll | p.D12 | p.NextRound) -> None:
        """The DM's dice and rounds at Blackjack (refused by Liar's Dice's adapter)."""
        s = self._require_game()
        if isinstance(frame, p.HouseRoll):
            self.adapter.house_roll(s, frame, self.options, self._reload)
        elif isinstance(frame, p.D12):
            self.adapter.d12(s, frame.face, self.options)
        else:
            self.adapter.next_round(s)
        await self.after_change()

    async def _roll_for(self, seat: int) -> None:
        s = self._require_game()
        if not self.adapter.typed_hands(self.options):
            raise ActionError("illegal", "the server rolls every hand itself at this table")
        physical.roll_for(s, seat, "dm", self._server_rolls(s))
        self.adapter.resolve_chance(s, self.options, self._server_rolls(s))
        await self.after_change()

    async def _grant(self, pid: str, amount: int) -> None:
        self.seating.known(pid)
        refusal = self.adapter.grant_refusal
        if self._game_running() and refusal is not None:
            raise ActionError("conflict", refusal)
        if self.balances.get(pid, 0) + amount < 0:
            raise ActionError("illegal", f"that would leave {self.occupants[pid].name} "
                              f"{self.balances.get(pid, 0) + amount} cp")
        entry = LedgerEntry(pid, amount, "grant")
        await self.db.call(self.store.write_ledger, self.id, [entry])
        self._apply_ledger([entry])
        self.broadcast()

    def _apply_ledger(self, entries: list[LedgerEntry]) -> None:
        for e in entries:
            self.balances[e.player_id] = self.balances.get(e.player_id, 0) + e.amount_cp

    # ------------------------------------------------------------------ after each change

    async def after_change(self, *, commitments: list[Commitment] | None = None,
                           checks: list[DiceCheck] | None = None) -> None:
        """Store the engine's new events (one transaction), with the hands typed and the
        answers given at a reveal that came with them, then tell everyone."""
        s = self.session
        assert s is not None
        step = collect_step(s, self.adapter.is_over(s.engine))
        # A typed hand is sealed before the roll it completes: its commitment goes first.
        step.new_commitments[:0] = commitments or []
        step.dice_checks.extend(checks or [])
        if step.game_status == "over" and self.options.rated:
            step.ratings = self.ratings.rate(s, self.occupants)
        try:
            await self.db.commit_step(self.id, step)
        except FenceError:
            log.error("table %s: another process owns it now; letting it go", self.id,
                      extra={"table": self.id})
            if self.on_lost is not None:
                self.on_lost()
            raise ActionError("server", "this server no longer holds the table; "
                              "reconnect") from None
        except Exception:
            log.exception("table %s: could not store a step; reloading the game", self.id,
                          extra={"table": self.id})
            await self.load_game(s.id)
            self.broadcast()
            raise ActionError("server", "the action could not be saved; nothing changed") from None
        s.persisted = len(s.engine.log)
        self._apply_ledger(step.ledger)
        self.ratings.add(step.ratings)
        if step.game_status is not None:
            s.status = step.game_status
            self.status = "lobby"
            self.scheduler.clear_timer()
            self.seating.covered.clear()
        self.broadcast()
        self.scheduler.reschedule()

