"""Tables and their games: seats, presence, bots, timers, commitments, gold and persistence.

The server is a thin shell round the rules engines. A :class:`Table` holds the
seat list, the running game (a :class:`LiarsDiceGame` or :class:`BlackjackGame`),
and the connections watching it. Every action a connection sends is handed to
the engine, which adjudicates it (a refused action raises and changes nothing);
then the new events are written to the store in one transaction
(events, commitments, ledger rows), and each connection is sent a ``state``
frame built from the engine's view for *its* seat. Nothing here decides a rule.

Concurrency: one ``asyncio.Lock`` per table serialises every change, so the engine
sees one action at a time; bots and turn timers run as tasks that take the same
lock and check, with a version number, that the state they decided on still stands.
Database calls go to the store thread (:mod:`.dbthread`) and are awaited under the
table's lock: other tables go on meanwhile, and no frame about a step is sent before
the step is durable. Only the process that owns a table (:mod:`.coordinator`) holds a
``Table`` for it, so its bots and timers run exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import ValidationError

from tavern_dice.blackjack.rules import BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.state import Phase as BlackjackPhase
from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent
from tavern_dice.bots.registry import make_blackjack_bot, make_liars_dice_bot
from tavern_dice.dice import SecureDice
from tavern_dice.errors import NotYourTurnError, TavernError
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import parse_wager
from tavern_dice.play.runner import DecisionCapError
from tavern_dice.web import autoplay, physical
from tavern_dice.web import protocol as p
from tavern_dice.web.calls import refused_call, stale_call
from tavern_dice.web.catalog import (
    BLACKJACK,
    BLACKJACK_MAX_SEATS,
    DEFAULT_BOT_BET_CP,
    DEFAULT_STANDIN,
    LIARS_DICE,
    ActionError,
    Engine,
    Rules,
    bot_kinds,
    build_rules,
    clean_name,
    new_id,
    same_name,
    validation_error,
)
from tavern_dice.web.commitments import Commitment
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.journal import (
    GameSession,
    collect_step,
    engine_header,
    load_engine,
    round_in_log,
)
from tavern_dice.web.store import (
    DiceCheck,
    FenceError,
    GameRow,
    LedgerEntry,
    PlayerRow,
    Step,
    Store,
    StoredGame,
    TableRow,
    now_ms,
    token_hash,
)

log = logging.getLogger("tavern_dice.web")

class Listener(Protocol):
    """A connection as a table sees it (implemented by :class:`~tavern_dice.web.ws.Connection`)."""

    role: str
    player_id: str | None
    sent_game: str | None
    sent_events: int

    def send_text(self, text: str) -> None:
        """Queue one frame; never blocks."""
        ...

    def close_soon(self, code: int, reason: str) -> None:
        """Close the connection (the table is leaving this process); never blocks."""
        ...


@dataclasses.dataclass(slots=True)
class Occupant:
    """A person or bot at a table (identity across games: ``player_id``)."""

    player_id: str
    name: str
    kind: str
    bot_kind: str | None
    proficiency: int | None


class Table:
    """One table: its seats, options, running game, connections, bots and timers."""

    def __init__(self, db: StoreThread, row: TableRow, players: list[PlayerRow],
                 balances: dict[str, int]) -> None:
        self.db = db
        self.id = row.id
        self.game = row.game
        self.name = row.name
        self.rules: Rules = build_rules(row.game, "tavern", dict(row.rules))
        self.options = p.TableOptions.model_validate(row.options)
        self.host_hash = row.host_token_hash
        self.seat_list: list[str] = list(row.seats)
        self.status = row.status
        self.occupants: dict[str, Occupant] = {
            r.id: Occupant(r.id, r.name, r.kind, r.bot_kind, r.proficiency) for r in players
        }
        self.token_hashes: dict[str, str] = {
            r.token_hash: r.id for r in players if r.token_hash is not None
        }
        self.balances = dict(balances)
        self.session: GameSession | None = None
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.online: dict[str, int] = {}
        self.covered: set[str] = set()
        self.away_tasks: dict[str, asyncio.Task[None]] = {}
        self.agents: dict[tuple[str, str], LiarsDiceAgent | BlackjackAgent] = {}
        self.version = 0
        self.bot_version = 0
        self.timer_key: tuple[Any, ...] | None = None
        self.timer_deadline_ms: int | None = None
        self.timer_seats: tuple[int, ...] = ()
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False
        self.last_active = 0.0
        """When someone last used the table (the manager's clock), to put it away idle."""
        self._cache_version = -1
        self._table_json = ""
        self._game_json: dict[tuple[int | None, int], str] = {}
        self._shared_json = ""
        self.on_lost: Callable[[], None] | None = None
        """Called when a write finds that this process no longer owns the table."""

    @property
    def store(self) -> Store:
        return self.db.store

    # ------------------------------------------------------------------ loading

    async def load_game(self, game_id: str) -> None:
        """Rebuild the running game from its stored log (after a failed step)."""
        stored = await self.db.call(self.store.game, game_id)
        if stored is None:
            raise ActionError("conflict", f"game {game_id} is not in the database")
        self.restore_game(stored, await self.db.call(self.store.antes, self.id, game_id))

    def restore_game(self, stored: StoredGame, antes: dict[str, int]) -> None:
        """Rebuild the game from its stored log, commitments, dice checks and antes."""
        engine = load_engine(stored.game, stored.log, typed=self._typed_dice())
        session = GameSession(stored.id, stored.game, engine, stored.seats, stored.status,
                              persisted=len(engine.log))
        session.add_commitments(stored.commitments)
        session.add_dice_checks(stored.dice_checks)
        session.log_round = round_in_log(engine.log)
        session.antes = dict(antes)
        self.session = session

    def start_background(self) -> None:
        """After loading a running game: away timers for everyone, then bots and timers."""
        if self.session is not None and self.session.status in ("playing", "paused"):
            for pid in self.session.seats:
                if self.occupants[pid].kind == "person" and not self.online.get(pid):
                    self._schedule_takeover(pid)
            self._reschedule()

    # ------------------------------------------------------------------ summaries

    def max_seats(self) -> int:
        if isinstance(self.rules, LiarsDiceRules):
            return self.rules.max_players
        return BLACKJACK_MAX_SEATS

    def presence(self, pid: str) -> str:
        occupant = self.occupants[pid]
        if occupant.kind == "bot":
            return "bot"
        if self.online.get(pid):
            return "online"
        return "covered" if pid in self.covered else "away"

    def occupant_dict(self, pid: str) -> dict[str, Any]:
        o = self.occupants[pid]
        return {"player_id": pid, "name": o.name, "kind": o.kind, "bot_kind": o.bot_kind,
                "proficiency": o.proficiency, "presence": self.presence(pid)}

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
            "seats": [self.occupant_dict(pid) for pid in self.seat_list],
            "balances": dict(self.balances),
        }

    def _game_running(self) -> bool:
        return self.session is not None and self.session.status in ("playing", "paused")

    def _game_payload(self, seat: int | None, events_from: int) -> str:
        """The ``game`` object of a ``state`` frame for ``seat``, as JSON; the parts every
        seat shares are encoded once per change."""
        key = (seat, events_from)
        cached = self._game_json.get(key)
        if cached is not None:
            return cached
        s = self.session
        assert s is not None
        if not self._shared_json:
            self._shared_json = _dumps({
                "game_id": s.id,
                "game": s.kind,
                "status": s.status,
                "seats": [
                    {"seat": i, "player_id": pid, "name": self.occupants[pid].name,
                     "kind": self.occupants[pid].kind, "presence": self.presence(pid)}
                    for i, pid in enumerate(s.seats)
                ],
                "commitments": self._commitments_public(),
                "proofs": self._proofs(),
                "dice_checks": physical.checks_public(s) if self._typed_dice() else None,
                "timer": self._timer_dict(),
                "pending_roll": self._pending_roll(),
                "notice": s.notice,
            })[1:-1]
        engine = s.engine
        view_dict = _view_without_log(engine.view(seat))
        events = ",".join(self._event_text(s, index, seat)
                          for index in range(events_from, len(engine.log)))
        text = (f'{{{self._shared_json},"view":{_dumps(view_dict)},'
                f'"events_from":{events_from},"events":[{events}]}}')
        self._game_json[key] = text
        return text

    @staticmethod
    def _event_text(s: GameSession, index: int, seat: int | None) -> str:
        """One log entry as ``seat`` may see it, as JSON. Entries that mask to themselves
        (everything but secret rolls) are public, so their text is encoded once."""
        event = s.engine.log[index]
        masked = event.masked_for(seat)
        if masked is not event:
            return _dumps(masked.to_dict())
        text = s.public_events.get(index)
        if text is None:
            text = s.public_events[index] = _dumps(event.to_dict())
        return text

    def _commitments_public(self) -> dict[str, Any] | None:
        s = self.session
        if s is None or s.open_round is None:
            return None
        items = [c.public() for c in s.commitments.get(s.open_round, {}).values()]
        return {"round": s.open_round, "items": items}

    def _proofs(self) -> dict[str, Any] | None:
        s = self.session
        if s is None or s.proof_round is None:
            return None
        items = [c.proof() for c in s.commitments.get(s.proof_round, {}).values()
                 if c.revealed]
        return {"round": s.proof_round, "items": items}

    def _timer_dict(self) -> dict[str, Any] | None:
        if self.timer_key is None or self.timer_deadline_ms is None:
            return None
        return {"seats": list(self.timer_seats), "seat": self.timer_seats[0],
                "deadline_ms": self.timer_deadline_ms, "seconds": self.options.turn_timer_s}

    def _pending_roll(self) -> dict[str, Any] | None:
        s = self.session
        if s is not None and self._typed_dice():
            return physical.waiting_for(s, lambda seat: self._bot_controls(s.seats[seat]))
        if s is None or not isinstance(s.engine, BlackjackGame):
            return None
        specs = s.engine.chance_request()
        if not specs:
            return None
        spec = specs[0]
        return {"purpose": spec.purpose, "seat": spec.seat, "count": spec.count,
                "sides": spec.sides}

    def state_text(self, conn: Listener) -> str:
        """The ``state`` frame for one connection (its seat's view only)."""
        if self._cache_version != self.version:
            self._cache_version = self.version
            self._table_json = _dumps(self.summary())
            self._game_json = {}
            self._shared_json = ""
        s = self.session
        seat = s.seat_of(conn.player_id) if s is not None else None
        you = {"role": conn.role, "player_id": conn.player_id, "seat": seat}
        if s is None:
            game_json = "null"
        else:
            start = conn.sent_events if conn.sent_game == s.id else 0
            start = min(start, len(s.engine.log))
            game_json = self._game_payload(seat, start)
            conn.sent_game = s.id
            conn.sent_events = len(s.engine.log)
        return (f'{{"type":"state","you":{json.dumps(you)},"table":{self._table_json},'
                f'"game":{game_json}}}')

    def broadcast(self) -> None:
        """Send every connection its own ``state`` frame (after setting the turn timer
        the new state calls for, so that the frame shows it)."""
        s = self.session
        if self.closed or s is None or s.status != "playing":
            self._clear_timer()
        else:
            self._arm_timer(s)
        self.version += 1
        for conn in list(self.listeners):
            conn.send_text(self.state_text(conn))

    # ------------------------------------------------------------------ connections

    def role_for(self, token: str | None) -> tuple[str, str | None]:
        """``(role, player_id)`` for a token; ``None`` is a spectator.

        Raises:
            ActionError: ``bad-token`` for a token that is neither this table's host's
                nor a player's.
        """
        if token is None:
            return "spectator", None
        digest = token_hash(token)
        if secrets.compare_digest(digest, self.host_hash):
            return "host", None
        pid = self.token_hashes.get(digest)
        if pid is None:
            raise ActionError("bad-token", "this token belongs to no seat at this table")
        return "player", pid

    def attach(self, conn: Listener) -> None:
        self.listeners.add(conn)
        pid = conn.player_id
        if conn.role == "player" and pid is not None:
            self.online[pid] = self.online.get(pid, 0) + 1
            task = self.away_tasks.pop(pid, None)
            if task is not None:
                task.cancel()
            self.covered.discard(pid)
            self.broadcast()
            self._reschedule()
        else:
            conn.send_text(self.state_text(conn))

    def detach(self, conn: Listener) -> None:
        if conn not in self.listeners:
            return
        self.listeners.discard(conn)
        pid = conn.player_id
        if conn.role == "player" and pid is not None:
            self.online[pid] = max(0, self.online.get(pid, 0) - 1)
            if not self.online[pid]:
                if self.session is not None and pid in self.session.seats:
                    self._schedule_takeover(pid)
                if not self.closed:
                    self.broadcast()

    def _schedule_takeover(self, pid: str) -> None:
        old = self.away_tasks.pop(pid, None)
        if old is not None:
            old.cancel()
        self.away_tasks[pid] = self._spawn(self._takeover_after(pid, self.options.grace_s))

    async def _takeover_after(self, pid: str, grace_s: int) -> None:
        await asyncio.sleep(grace_s)
        async with self.lock:
            self.away_tasks.pop(pid, None)
            if self.online.get(pid) or self.closed:
                return
            self.covered.add(pid)
            self.broadcast()
            self._reschedule()

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: background task failed", self.id, exc_info=task.exception())

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ joining

    async def join(self, raw_name: str, proficiency: int | None) -> tuple[str, str]:
        """Seat a person: ``(player_id, seat_token)``. The token is shown once; only its
        hash is stored.

        Raises:
            ActionError: a bad name, a proficiency the ruleset rejects, a full table.
        """
        name = clean_name(raw_name)
        if self.game == BLACKJACK:
            try:
                BlackjackGame([name], rules=self.rules,  # type: ignore[arg-type]
                              proficiency=[proficiency], dice=SecureDice())
            except TavernError as error:
                raise ActionError("illegal", str(error)) from None
        elif proficiency is not None:
            raise ActionError("illegal", "proficiency bonuses are for Dice Blackjack only")
        token = secrets.token_urlsafe(24)
        async with self.lock:
            if self.closed:
                raise ActionError("conflict", "the table was just put away; try again")
            self._check_name_free(name)
            pid = await self._add_occupant(name, "person", None, proficiency, token)
        return pid, token

    def _names_in_use(self) -> list[str]:
        """Names of everyone on the seat list or playing the running game."""
        pids = set(self.seat_list)
        if self.session is not None and self._game_running():
            pids.update(self.session.seats)
        return [self.occupants[pid].name for pid in pids]

    def _check_name_free(self, name: str) -> None:
        """Refuse a name someone at the table already has: the log and the reveal name
        players, and two Anns could not be told apart.

        Raises:
            ActionError: naming the clash.
        """
        if any(same_name(name, taken) for taken in self._names_in_use()):
            raise ActionError("conflict", f"someone at this table is already called "
                              f"{name!r}; choose another name", "name")

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
        seats = [*self.seat_list, pid]
        await self.db.call(self.store.add_player, row, ledger, seats)
        self.seat_list = seats
        self.occupants[pid] = Occupant(pid, name, kind, bot_kind, proficiency)
        if digest is not None:
            self.token_hashes[digest] = pid
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
        engine = s.engine
        try:
            if isinstance(engine, LiarsDiceGame):
                if isinstance(frame, p.TypedDice | p.ConfirmDice):
                    await self._physical_frame(s, seat, frame)
                    return
                if isinstance(frame, p.Wager):
                    engine.wager(parse_wager(frame.wager), seat)
                elif isinstance(frame, p.Accuse):
                    self._accuse(engine, seat, frame)
                else:
                    raise ActionError("illegal", f"{frame.type} is not a Liar's Dice action")
                self._resolve_chance(s)
            else:
                if isinstance(frame, p.Bet):
                    engine.place_bet(seat, frame.amount_cp)
                elif isinstance(frame, p.SitOut):
                    engine.sit_out(seat)
                elif isinstance(frame, p.Roll):
                    engine.roll_again(seat)
                elif isinstance(frame, p.Stand):
                    engine.stand(seat, frame.bonus)
                else:
                    raise ActionError("illegal", f"{frame.type} is not a Dice Blackjack action")
                self._resolve_chance(s)
        except NotYourTurnError as error:
            raise ActionError("not-your-turn", str(error)) from None
        except ActionError:
            raise
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
        await self._after_change()

    async def _physical_frame(self, s: GameSession, seat: int,
                              frame: p.TypedDice | p.ConfirmDice) -> None:
        """A player's own physical dice: their typed hand, or their answer at a reveal."""
        if not self._typed_dice():
            raise ActionError("illegal", "this table's dice are digital: the server rolls "
                              "them (the DM chooses physical dice, dice_mode \"manual\", "
                              "between games)")
        if isinstance(frame, p.TypedDice):
            sealed = physical.enter(s, seat, frame.faces)
            self._resolve_chance(s)
            await self._after_change(commitments=[sealed])
        else:
            check = physical.confirm(s, seat, frame.round, frame.match)
            await self._after_change(checks=[check])

    @staticmethod
    def _accuse(engine: LiarsDiceGame, seat: int, frame: p.Accuse) -> None:
        stale = stale_call(engine, frame.round, frame.wager)
        if stale is not None:
            raise ActionError("illegal", stale)
        try:
            engine.accuse(seat)
        except NotYourTurnError:
            raise
        except TavernError as error:
            raise ActionError("illegal", refused_call(engine) or str(error)) from None

    async def _host_frame(self, frame: Any) -> None:
        if isinstance(frame, p.AddBot):
            await self._add_bot(frame)
        elif isinstance(frame, p.Remove):
            await self._remove(frame.player_id)
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
        elif isinstance(frame, p.HouseRoll):
            await self._house_roll(frame)
        elif isinstance(frame, p.D12):
            await self._d12(frame.face)
        elif isinstance(frame, p.NextRound):
            await self._next_round()
        elif isinstance(frame, p.Grant):
            await self._grant(frame.player_id, frame.amount_cp)

    # ------------------------------------------------------------------ host: lobby

    async def _add_bot(self, frame: p.AddBot) -> None:
        kind = frame.kind.strip().lower()
        if kind not in bot_kinds(self.game):
            raise ActionError("illegal", f"unknown bot {kind!r}; known: {bot_kinds(self.game)}")
        if frame.name:
            name = clean_name(frame.name)
            self._check_name_free(name)
        else:
            # Unnamed bots are numbered, so that two of a kind can be told apart.
            taken = self._names_in_use()
            base = name = f"{kind.title()} Bot"
            number = 1
            while any(same_name(name, t) for t in taken):
                number += 1
                name = f"{base} {number}"
        await self._add_occupant(name, "bot", kind, None, None)

    def _known(self, pid: str) -> Occupant:
        occupant = self.occupants.get(pid)
        if occupant is None:
            raise ActionError("illegal", f"no player {pid!r} at this table")
        return occupant

    async def _remove(self, pid: str) -> None:
        self._known(pid)
        if pid not in self.seat_list:
            raise ActionError("illegal", "that player has no seat in the seat list")
        seats = [x for x in self.seat_list if x != pid]
        await self.db.call(self._update_table, {"seats": seats})
        self.seat_list = seats
        self.broadcast()

    async def _move(self, pid: str, to: int) -> None:
        self._known(pid)
        if pid not in self.seat_list:
            raise ActionError("illegal", "that player has no seat in the seat list")
        if not 0 <= to < len(self.seat_list):
            raise ActionError("illegal", f"seats are 0-{len(self.seat_list) - 1}, not {to}")
        seats = [x for x in self.seat_list if x != pid]
        seats.insert(to, pid)
        await self.db.call(self._update_table, {"seats": seats})
        self.seat_list = seats
        self.broadcast()

    def _update_table(self, values: dict[str, Any]) -> None:
        self.store.update_table(self.id, **values)

    async def _set_options(self, changes: dict[str, Any]) -> None:
        merged = self.options.model_dump() | changes
        try:
            options = p.TableOptions.model_validate(merged)
        except ValidationError as error:
            raise validation_error(error) from None
        if options.dice_mode != self.options.dice_mode and self._game_running():
            raise ActionError("conflict", "dice_mode changes only between games")
        if options.standin_bot is not None and options.standin_bot not in bot_kinds(self.game):
            raise ActionError(
                "illegal", f"unknown bot {options.standin_bot!r}; known: {bot_kinds(self.game)}"
            )
        await self.db.call(self._update_table, {"options": options.model_dump()})
        self.options = options
        self.broadcast()
        self._reschedule()

    # ------------------------------------------------------------------ host: game

    async def _start(self) -> None:
        if self._game_running():
            raise ActionError("conflict", "a game is already running; end it first")
        seats = list(self.seat_list)
        names = [self.occupants[pid].name for pid in seats]
        engine: Engine
        ledger: list[LedgerEntry] = []
        game_id = new_id("g")
        try:
            if isinstance(self.rules, LiarsDiceRules):
                # Physical dice: the engine waits at each round roll for the typed hands.
                typed = self._typed_dice()
                stake = self.options.stake_cp
                if stake:
                    poor = [self.occupants[pid].name for pid in seats
                            if self.balances.get(pid, 0) < stake]
                    if poor:
                        raise ActionError("illegal", f"the stake is {stake} cp; "
                                          f"{', '.join(poor)} cannot pay it")
                    ledger = [LedgerEntry(pid, -stake, "ante", game_id, 0) for pid in seats]
                engine = LiarsDiceGame(names, rules=self.rules, dice=SecureDice(),
                                       auto_roll=not typed)
            else:
                engine = BlackjackGame(
                    names, rules=self.rules, dice=SecureDice(), auto_roll=False,
                    balances=[max(0, self.balances.get(pid, 0)) for pid in seats],
                    proficiency=[self.occupants[pid].proficiency for pid in seats],
                )
        except ActionError:
            raise
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
        session = GameSession(game_id, self.game, engine, seats, "playing", persisted=0)
        session.antes = {entry.player_id: -entry.amount_cp for entry in ledger}
        self._resolve_chance(session)
        step = collect_step(session, self.rules, self.options.dice_mode)
        step.ledger[:0] = ledger
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
        for pid in seats:
            if self.occupants[pid].kind == "person" and not self.online.get(pid):
                self._schedule_takeover(pid)
        self.broadcast()
        self._reschedule()

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
        self._clear_timer()
        self.broadcast()
        self._reschedule()

    async def _end(self) -> None:
        s = self._require_game(playing=False)
        step = Step(game_id=s.id, game_status="ended", table_status="lobby",
                    clear_table_game=True)
        if isinstance(s.engine, LiarsDiceGame):
            step.ledger = [LedgerEntry(pid, amount, "refund", s.id, s.engine.round)
                           for pid, amount in s.antes.items() if amount]
        await self._finish(s, step)

    async def _finish(self, s: GameSession, step: Step) -> None:
        await self.db.commit_step(self.id, step)
        self._apply_ledger(step.ledger)
        s.status = step.game_status or s.status
        self.status = "lobby"
        self._clear_timer()
        self.covered.clear()
        for task in self.away_tasks.values():
            task.cancel()
        self.away_tasks.clear()
        self.broadcast()

    # ------------------------------------------------------------------ host: blackjack

    def _blackjack(self) -> tuple[GameSession, BlackjackGame]:
        s = self._require_game()
        if not isinstance(s.engine, BlackjackGame):
            raise ActionError("illegal", "this table plays Liar's Dice; the dice roll themselves")
        return s, s.engine

    async def _house_roll(self, frame: p.HouseRoll) -> None:
        s, engine = self._blackjack()
        manual = self.options.dice_mode == "manual"
        if manual and frame.target is None and frame.house is None:
            raise ActionError("illegal", "manual dice: send the target and the house's faces")
        if not manual and (frame.target is not None or frame.house is not None):
            raise ActionError("illegal", "digital dice: the server rolls; send no faces")
        specs = engine.chance_request()
        if not specs or specs[0].purpose not in ("target", "house"):
            raise ActionError("illegal", f"the house does not roll now (phase "
                              f"{engine.phase.value})")
        snapshot = engine.to_log()
        try:
            if manual:
                if specs[0].purpose == "target":
                    if frame.target is None:
                        raise ActionError("illegal", "the target d20 comes first")
                    engine.roll([[frame.target]])
                if frame.house is not None:
                    if engine.phase is not BlackjackPhase.HOUSE_ROLL:
                        raise ActionError("illegal", "the house's dice are not rolled now")
                    engine.roll([frame.house])
            else:
                self._digital_house_roll(s, engine)
            self._resolve_chance(s)
        except TavernError as error:
            # A roll that got half way (the target but not the house dice) is undone.
            s.engine = load_engine(s.kind, snapshot)
            if isinstance(error, ActionError):
                raise
            raise ActionError("illegal", str(error)) from None
        await self._after_change()

    def _digital_house_roll(self, s: GameSession, engine: BlackjackGame) -> None:
        faces = s.house_faces(engine.round)
        if faces is None:
            engine.roll()
            if engine.phase is BlackjackPhase.HOUSE_ROLL:
                engine.roll()
            return
        target, *house = faces
        engine.roll([[target]])
        if engine.phase is BlackjackPhase.HOUSE_ROLL:
            engine.roll([house])

    async def _d12(self, face: int) -> None:
        _, engine = self._blackjack()
        if self.options.dice_mode != "manual":
            raise ActionError("illegal", "digital dice: the server rolls the d12s")
        specs = engine.chance_request()
        if not specs or specs[0].purpose != "d12":
            raise ActionError("illegal", "no d12 is to be rolled now")
        try:
            engine.roll([[face]])
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
        await self._after_change()

    async def _next_round(self) -> None:
        _, engine = self._blackjack()
        try:
            engine.new_round()
        except TavernError as error:
            raise ActionError("illegal", str(error)) from None
        await self._after_change()

    def _typed_dice(self) -> bool:
        """Whether Liar's Dice players type their own physical dice here."""
        return self.game == LIARS_DICE and self.options.dice_mode == "manual"

    def _resolve_chance(self, s: GameSession) -> bool:
        """Roll what the table need not wait for; return whether anything was rolled.

        Liar's Dice with physical dice: the roll-off, and a round once every hand is
        typed or is the server's to roll (:func:`.physical.roll_when_ready`). Digital
        Blackjack: pending d12s at once, and the house's dice if ``auto_house``; manual
        Blackjack waits for the DM."""
        engine = s.engine
        if self._typed_dice():
            return physical.roll_when_ready(s, lambda seat: self._bot_controls(s.seats[seat]))
        if not isinstance(engine, BlackjackGame) or self.options.dice_mode != "digital":
            return False
        rolled = False
        while (specs := engine.chance_request()) is not None:
            if specs[0].purpose == "d12":
                engine.roll()
            elif self.options.auto_house:
                self._digital_house_roll(s, engine)
            else:
                break
            rolled = True
        return rolled

    async def _grant(self, pid: str, amount: int) -> None:
        self._known(pid)
        if self._game_running() and self.game == BLACKJACK:
            raise ActionError("conflict", "gold changes hands between Blackjack sessions "
                              "(the running session tracks the balances)")
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

    async def _after_change(self, *, commitments: list[Commitment] | None = None,
                            checks: list[DiceCheck] | None = None) -> None:
        """Store the engine's new events (one transaction), with the hands typed and the
        answers given at a reveal that came with them, then tell everyone."""
        s = self.session
        assert s is not None
        step = collect_step(s, self.rules, self.options.dice_mode)
        # A typed hand is sealed before the roll it completes: its commitment goes first.
        step.new_commitments[:0] = commitments or []
        step.dice_checks.extend(checks or [])
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
        if step.game_status is not None:
            s.status = step.game_status
            self.status = "lobby"
            self._clear_timer()
            self.covered.clear()
        self.broadcast()
        self._reschedule()

    # ------------------------------------------------------------------ bots and timers

    def _bot_controls(self, pid: str) -> bool:
        return self.occupants[pid].kind == "bot" or pid in self.covered

    def _agent(self, pid: str, standin: bool) -> Any:
        occupant = self.occupants[pid]
        kind = (self.options.standin_bot or DEFAULT_STANDIN[self.game]) if standin or \
            occupant.bot_kind is None else occupant.bot_kind
        key = (pid, kind)
        agent = self.agents.get(key)
        if agent is None:
            if self.game == LIARS_DICE:
                agent = make_liars_dice_bot(kind, name=occupant.name)
            else:
                assert isinstance(self.rules, BlackjackRules)
                bet = max(self.rules.min_bet_cp, DEFAULT_BOT_BET_CP)
                agent = make_blackjack_bot(kind, name=occupant.name, bet_cp=bet)
            self.agents[key] = agent
        return agent

    def _reschedule(self) -> None:
        """After any change: start a bot step (it acts if the new state calls for a bot)."""
        if self.closed:
            return
        s = self.session
        if s is None or s.status != "playing":
            return
        self.bot_version += 1
        self._spawn(self._bot_step(self.bot_version))

    async def _bot_step(self, version: int) -> None:
        delay = self.options.bot_delay_ms / 1000
        if delay:
            await asyncio.sleep(delay)
        async with self.lock:
            if version != self.bot_version or self.closed:
                return
            s = self.session
            if s is None or s.status != "playing":
                return
            if self._typed_dice() and self._resolve_chance(s):
                # A round waiting only on hands the server rolls (a player just covered).
                with contextlib.suppress(ActionError):  # logged there
                    await self._after_change()
                return
            try:
                move = self._bot_move(s)
            except DecisionCapError as error:
                await self._halt(s, str(error))
                return
            if move is None:
                return
            await self._run_move(s, move)

    async def _halt(self, s: GameSession, reason: str) -> None:
        """Pause a game the bots would never end, and tell everyone why: the DM may end
        it (or resume, if the people at the table will end the round themselves)."""
        log.warning("table %s: %s", self.id, reason)
        await self.db.commit_step(self.id, Step(game_id=s.id, game_status="paused",
                                                table_status="paused"))
        s.status = "paused"
        s.notice = f"The server paused the game: {reason}"
        self.status = "paused"
        self._clear_timer()
        self.broadcast()

    async def _run_move(self, s: GameSession, move: autoplay.Move) -> None:
        try:
            move()
            self._resolve_chance(s)
        except TavernError:
            # A bot bug must not stall the table: log it and reload the stored state.
            log.exception("table %s: a bot's move was refused", self.id,
                          extra={"table": self.id})
            await self.load_game(s.id)
            self.broadcast()
            return
        try:
            await self._after_change()
        except ActionError:
            return  # logged there; the table shows the state as stored

    def _bot_move(self, s: GameSession) -> autoplay.Move | None:
        return autoplay.next_bot_move(
            s.engine, lambda seat: self._bot_controls(s.seats[seat]),
            lambda seat: self._agent(s.seats[seat], standin=False), s.asked,
        )

    def _timer_target(self, s: GameSession
                      ) -> tuple[autoplay.TimerKey, tuple[int, ...]] | None:
        return autoplay.timer_target(s.engine,
                                     lambda seat: not self._bot_controls(s.seats[seat]))

    def _arm_timer(self, s: GameSession) -> None:
        seconds = self.options.turn_timer_s
        target = self._timer_target(s) if seconds else None
        if target is None:
            self._clear_timer()
            return
        key, seats = target
        self.timer_seats = seats
        if key == self.timer_key:
            return
        self.timer_key = key
        self.timer_deadline_ms = now_ms() + seconds * 1000
        self._spawn(self._timer_expired(key, seconds))

    def _clear_timer(self) -> None:
        self.timer_key = None
        self.timer_deadline_ms = None
        self.timer_seats = ()

    async def _timer_expired(self, key: tuple[Any, ...], seconds: int) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            s = self.session
            if self.closed or key != self.timer_key or s is None or s.status != "playing":
                return
            self._clear_timer()
            target = self._timer_target(s)
            if target is None:
                return
            engine = s.engine
            for seat in target[1]:
                engine = s.engine
                if not autoplay.must_act(engine, seat):
                    continue
                # The stand-in makes the one move the person ran out of time for.
                agent = self._agent(s.seats[seat], standin=True)
                await self._run_move(s, autoplay.move_for(engine, seat, agent))


def _view_without_log(view: Any) -> dict[str, Any]:
    """``view.to_dict()`` without its ``"log"`` (frames carry the new events instead)."""
    data: dict[str, Any] = view.to_dict(include_log=False)
    return data


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
