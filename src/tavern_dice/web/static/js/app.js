// The table page's controller, shared by the player/spectator page (table.html) and the
// DM console (host.html): holds the latest state frame and the event log, renders the
// page from them, and sends the user's actions.

import {h, patch, store, seatTokenKey, hostTokenKey, tableIdFromPath, api, toast, fmtCp, plural} from "./util.js";
import {TableSocket} from "./conn.js";
import {CommitmentBook} from "./verify.js";
import {describeEvents} from "./eventlog.js";
import {renderLiars, liarsFairness} from "./liars.js";
import {renderBlackjack} from "./blackjack.js";
import {presenceBadge} from "./board.js";
import {hostSide, hostGameControls} from "./host.js";

const GAME_NAMES = {"liars-dice": "Liar's Dice", blackjack: "Dice Blackjack"};

export class TableApp {
  /** mode: "player" (the join link's page) or "host" (the DM console). */
  constructor(mode) {
    this.mode = mode;
    this.tableId = tableIdFromPath();
    this.root = document.getElementById("app");
    this.state = null;
    this.events = [];
    this.ui = {};
    this.notes = [];
    this.connStatus = "connecting";
    this.book = new CommitmentBook(this.tableId);
    this.socket = null;
    this.fatal = null;
    this.logCache = {length: -1, lines: []};
    this.renderQueued = false;
  }

  // ------------------------------------------------------------------ start-up

  start() {
    if (!this.tableId) { this.fatal = "No table in this address."; this.render(); return; }
    let token = null;
    if (this.mode === "host") {
      const fromHash = location.hash.replace(/^#/, "");
      if (fromHash) {
        store.set(hostTokenKey(this.tableId), fromHash);
        // The DM key stays out of the address bar (and out of screenshots and shared links).
        history.replaceState(null, "", location.pathname);
      }
      token = store.get(hostTokenKey(this.tableId));
      if (!token) {
        this.fatal = "This is the DM console, but this browser has no DM key for the table. "
          + "Open the DM link you got when you created the table.";
        this.render();
        return;
      }
    } else {
      token = store.get(seatTokenKey(this.tableId));
    }
    this.connect(token);
    // Turn timers count down between state frames.
    setInterval(() => { if (this.state && this.state.game && this.state.game.timer) this.render(); }, 500);
  }

  connect(token) {
    if (this.socket) this.socket.close();
    this.socket = new TableSocket(this.tableId, token, {
      onState: (frame, events) => this.onState(frame, events),
      onError: (frame) => { if (frame.code !== "bad-token") toast(frame.message || frame.code); },
      onStatus: (status) => { this.connStatus = status; this.render(); },
      onBadToken: () => {
        if (this.mode === "host") {
          this.fatal = "The DM key stored in this browser does not open this table.";
          this.render();
        } else {
          // The seat is gone (e.g. another database): forget it and watch as a spectator.
          store.remove(seatTokenKey(this.tableId));
          toast("Your saved seat no longer exists at this table; join again.");
          this.connect(null);
        }
      },
      onNoTable: () => { this.fatal = "There is no table at this address."; this.render(); },
    });
    this.socket.connect();
  }

  // ------------------------------------------------------------------ state

  onState(frame, events) {
    const before = this.state;
    this.state = frame;
    this.events = events;
    const g = frame.game;
    if (g && g.commitments) this.book.record(g.game_id, g.commitments);
    this.noteChanges(before, frame);
    this.render();
  }

  /** Table happenings that are not game events: joins, presence, start/pause/end. */
  noteChanges(before, now) {
    this.seenOnline = this.seenOnline || new Set();
    const seen = this.seenOnline;
    const wasSeen = new Set(seen);
    for (const seat of now.table.seats) if (seat.presence === "online") seen.add(seat.player_id);
    if (!before) return;
    let at = this.events.length;
    const add = (text, kind = "table") => this.notes.push({text, kind, at, game: now.game ? now.game.game_id : null});
    const og = before.game;
    const ng = now.game;
    if (ng && (!og || og.game_id !== ng.game_id)) {
      at = 0; // before the new game's first event
      add("The DM starts a new game.", "round");
      at = this.events.length;
    }
    const old = new Map(before.table.seats.map((s) => [s.player_id, s]));
    for (const seat of now.table.seats) {
      const prev = old.get(seat.player_id);
      if (!prev) add(`${seat.name} ${seat.kind === "bot" ? "(bot) takes a seat" : "joins the table"}.`);
      else if (prev.presence !== seat.presence && wasSeen.has(seat.player_id)) {
        // Only people who were here can go away or come back (a new seat starts "away").
        if (seat.presence === "away") add(`${seat.name} is away (disconnected).`);
        else if (seat.presence === "covered") add(`A stand-in bot plays for ${seat.name}.`);
        else if (seat.presence === "online") add(`${seat.name} is back.`);
      }
    }
    const ids = new Set(now.table.seats.map((s) => s.player_id));
    for (const [id, seat] of old) if (!ids.has(id)) add(`${seat.name} leaves the seat list.`);
    if (og && ng && og.game_id === ng.game_id && og.status !== ng.status) {
      if (ng.status === "paused") add("The DM pauses the game.");
      else if (ng.status === "playing" && og.status === "paused") add("The DM resumes the game.");
      else if (ng.status === "ended") add("The DM ends the game.");
    }
  }

  get you() { return this.state ? this.state.you : {role: null, seat: null}; }

  nameOf(seat) {
    if (seat === null || seat === undefined) return "nobody";
    const g = this.state && this.state.game;
    const name = g && g.seats[seat] ? g.seats[seat].name : `Seat ${seat + 1}`;
    return seat === this.you.seat ? "You" : name;
  }

  /** Seconds left on `seat`'s turn timer, or null. */
  timerLeft(seat) {
    const g = this.state && this.state.game;
    const t = g && g.timer;
    if (!t || g.status !== "playing") return null;
    const seats = t.seats || [t.seat];
    if (!seats.includes(seat)) return null;
    return Math.max(0, Math.ceil((t.deadline_ms - this.socket.serverNow()) / 1000));
  }

  /** Send an action; errors are shown by the socket's error handler. */
  act(frame) {
    if (!this.socket) return Promise.reject(new Error("not connected"));
    const sent = this.socket.send(frame);
    sent.catch((error) => { if (!error.code) toast(error.message); });
    return sent;
  }

  async join(name, proficiency) {
    const body = {name};
    if (proficiency !== null && proficiency !== undefined) body.proficiency = proficiency;
    const joined = await api(`/api/tables/${encodeURIComponent(this.tableId)}/join`, body);
    store.set(seatTokenKey(this.tableId), joined.seat_token);
    this.connect(joined.seat_token);
  }

  // ------------------------------------------------------------------ rendering

  render() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    queueMicrotask(() => {
      this.renderQueued = false;
      this.renderNow();
    });
  }

  renderNow() {
    const log = this.root.querySelector(".log-lines");
    const stick = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 24;
    patch(this.root, h("div", {}, this.page()));
    const fresh = this.root.querySelector(".log-lines");
    if (fresh && stick) fresh.scrollTop = fresh.scrollHeight;
    this.markRoot();
  }

  /** Data attributes that say where the game stands (for tests and styling). */
  markRoot() {
    const d = this.root.dataset;
    const s = this.state;
    d.conn = this.connStatus;
    if (!s) return;
    const g = s.game;
    const v = g ? g.view : null;
    d.role = s.you.role;
    d.mySeat = s.you.seat ?? "";
    d.tableStatus = s.table.status;
    d.gameStatus = g ? g.status : "";
    d.gameId = g ? g.game_id : "";
    d.phase = v ? v.phase : "";
    d.round = v ? v.round : "";
    d.turn = v && v.turn !== null && v.turn !== undefined ? v.turn : "";
    d.wager = v && v.wager ? v.wager : "";
    d.winner = v && v.winner !== null && v.winner !== undefined ? v.winner : "";
    d.events = this.events.length;
  }

  page() {
    if (this.fatal) {
      return [this.topbar(null), h("main", {class: "layout layout-single"},
        h("section", {class: "panel fatal"}, h("h2", {}, "Can't open this table"), h("p", {}, this.fatal),
          h("p", {}, h("a", {href: "/"}, "Create a new table")) ))];
    }
    const s = this.state;
    if (!s) {
      return [this.topbar(null), h("main", {class: "layout layout-single"},
        h("section", {class: "panel"}, h("p", {class: "muted"}, this.connStatus === "offline" ? "Can't reach the table; retrying…" : "Connecting to the table…")))];
    }
    return [this.topbar(s), this.banner(s),
      h("main", {class: "layout"},
        h("section", {class: "main-col"}, this.mainColumn(s)),
        h("aside", {class: "side-col"}, this.sideColumn(s)))];
  }

  topbar(s) {
    const t = s ? s.table : null;
    const mine = s && s.you.player_id ? s.table.seats.find((x) => x.player_id === s.you.player_id) : null;
    const role = !s ? "" : s.you.role === "host" ? "DM" : mine ? mine.name : "spectator";
    return h("header", {class: "topbar"},
      h("a", {class: "brand", href: "/", title: "Tavern Dice — new table"}, h("span", {class: "brand-die"}, "⚄"), " Tavern Dice"),
      t ? h("div", {class: "table-title"}, h("span", {class: "table-name"}, t.name),
        h("span", {class: "game-name"}, GAME_NAMES[t.game] || t.game)) : h("div", {class: "table-title"}),
      h("div", {class: "top-right"},
        t ? h("span", {class: `pill pill-${t.status}`}, t.status) : null,
        s ? h("span", {class: "who", title: "You are"}, role) : null,
        h("span", {class: `conn conn-${this.connStatus}`, title: `connection: ${this.connStatus}`}, this.connStatus === "online" ? "● live" : this.connStatus === "connecting" ? "◌ connecting" : "○ reconnecting")));
  }

  banner(s) {
    const g = s.game;
    if (g && g.status === "paused") return h("div", {class: "banner banner-paused", role: "status"}, "‖ Game paused by the DM");
    if (this.connStatus === "offline") return h("div", {class: "banner banner-offline", role: "status"}, "Connection lost — reconnecting…");
    return null;
  }

  mainColumn(s) {
    const g = s.game;
    const parts = [];
    if (this.mode === "host") parts.push(hostGameControls(this));
    if (!g) parts.push(this.lobbyBoard(s));
    else if (g.game === "liars-dice") parts.push(...renderLiars(this));
    else parts.push(...renderBlackjack(this, this.mode === "host"));
    if (g && (g.status === "over" || g.status === "ended")) parts.unshift(this.finishedNote(s));
    return parts;
  }

  finishedNote(s) {
    const g = s.game;
    const v = g.view;
    const winner = g.game === "liars-dice" && v.winner !== null && v.winner !== undefined ? this.nameOf(v.winner) : null;
    const text = g.status === "ended" ? "The DM ended this game." : winner ? `Game over — ${winner} ${v.winner === this.you.seat ? "win" : "wins"}!` : "Game over.";
    return h("div", {class: "banner banner-over", id: "game-over"}, text,
      this.mode === "host" ? " Start another game when everyone is ready." : " Waiting for the DM to start another game.");
  }

  lobbyBoard(s) {
    const t = s.table;
    const r = t.rules;
    const rulesText = t.game === "liars-dice"
      ? [`${plural(r.dice_per_player, "d" + r.sides, "d" + r.sides)} each`, `raise rule: ${r.raise_rule}`,
        r.wild_face ? `${r.wild_face}s wild` : "no wild face", r.spot_on ? "spot-on call" : "no spot-on",
        r.sum_endgame ? "sum endgame" : "no sum endgame"]
      : [`target d${r.target_sides}`, `house ${r.house_dice}d${r.house_sides}`, `players d${r.player_sides}`,
        `bets ${fmtCp(r.min_bet_cp)}${r.max_bet_cp ? "–" + fmtCp(r.max_bet_cp) : "+"}`,
        `exact pays ${r.exact_numerator}/${r.exact_denominator}`, r.target_one_collects ? "target 1 collects" : ""];
    return h("div", {class: "board board-lobby"},
      h("div", {class: "felt felt-lobby"},
        h("div", {class: "lobby-title"}, GAME_NAMES[t.game]),
        h("div", {class: "lobby-sub"}, t.seats.length ? `${plural(t.seats.length, "seat")} taken` : "No one is seated yet"),
        h("div", {class: "lobby-seats"}, t.seats.map((seat) => h("div", {class: "lobby-seat", "data-key": seat.player_id},
          h("span", {class: "seat-name"}, seat.name, seat.player_id === s.you.player_id ? " (you)" : ""),
          presenceBadge(seat.presence, seat.bot_kind),
          t.game === "blackjack" ? h("span", {class: "muted small"}, fmtCp(t.balances[seat.player_id] ?? 0)) : null))),
        h("div", {class: "lobby-wait"}, this.mode === "host" ? "Seat players and bots, then start the game." : "Waiting for the DM to start the game…")),
      h("p", {class: "rules-line muted small"}, "Rules: ", rulesText.filter(Boolean).join(" · ")));
  }

  sideColumn(s) {
    const parts = [];
    if (this.mode === "host") parts.push(...hostSide(this));
    else parts.push(this.seatPanel(s));
    if (s.game && s.game.game === "liars-dice") parts.push(liarsFairness(this));
    parts.push(this.logPanel(s));
    return parts;
  }

  seatPanel(s) {
    const t = s.table;
    if (s.you.role === "player") {
      const mine = t.seats.find((x) => x.player_id === s.you.player_id);
      return h("section", {class: "panel you-panel"},
        h("h2", {}, "Your seat"),
        h("p", {}, "You are ", h("strong", {id: "my-name"}, mine ? mine.name : "seated"),
          s.you.seat !== null && s.you.seat !== undefined ? ` — seat ${s.you.seat + 1}` : s.game && s.game.status !== "over" && s.game.status !== "ended" ? " — in the next game" : "", "."),
        h("p", {class: "muted small"}, "This browser remembers your seat: reload or come back with the same link and you sit down again."),
        t.game === "blackjack" ? h("p", {}, "Gold: ", h("strong", {}, fmtCp(t.balances[s.you.player_id] ?? 0))) : null,
        h("button", {class: "btn btn-small btn-ghost", onclick: () => {
          if (!confirm("Forget this seat on this device? You would have to join again.")) return;
          store.remove(seatTokenKey(this.tableId));
          this.connect(null);
        }}, "Forget my seat on this device"));
    }
    const ui = this.ui;
    const full = t.seats.length >= (t.game === "liars-dice" ? t.rules.max_players : 10);
    const submit = async (e) => {
      e.preventDefault();
      const name = (ui.joinName || "").trim();
      if (!name) { toast("Give a name to sit down."); return; }
      const pb = t.game === "blackjack" && ui.joinPb ? Number(ui.joinPb) : null;
      try { await this.join(name, pb); } catch (error) { toast(error.message); }
    };
    return h("section", {class: "panel join-panel"},
      h("h2", {}, "Take a seat"),
      full ? h("p", {class: "muted"}, "The table is full; you can watch.") : h("form", {id: "join-form", onsubmit: submit},
        h("label", {for: "join-name"}, "Your name"),
        h("input", {id: "join-name", maxlength: 32, autocomplete: "nickname", placeholder: "e.g. Brenna Tealeaf", value: ui.joinName || "",
          oninput: (e) => { ui.joinName = e.target.value; }}),
        t.game === "blackjack" ? [h("label", {for: "join-pb"}, "Proficiency bonus (Performance, Deception or thieves' tools)"),
          h("select", {id: "join-pb", value: ui.joinPb || "", onchange: (e) => { ui.joinPb = e.target.value; }},
            h("option", {value: ""}, "not proficient"),
            [2, 3, 4, 5, 6].slice(0, t.rules.max_proficiency_bonus - 1).map((pb) => h("option", {value: String(pb), selected: String(pb) === ui.joinPb}, `+${pb}`)))] : null,
        h("button", {class: "btn btn-primary", id: "join-btn", type: "submit"}, s.game && s.game.status === "playing" ? "Join for the next game" : "Sit down")),
      h("p", {class: "muted small"}, "Spectators see only what is public: nobody's secret dice."));
  }

  logPanel(s) {
    const g = s.game;
    const names = g ? g.seats.map((x) => x.name) : [];
    const you = s.you.seat;
    if (this.logCache.length !== this.events.length || this.logCache.gameId !== (g && g.game_id) || this.logCache.you !== you) {
      this.logCache = {length: this.events.length, gameId: g && g.game_id, you,
        lines: describeEvents(this.events, names, you)};
    }
    const lines = [];
    const currentGame = g ? g.game_id : null;
    const notes = this.notes.filter((n) => n.game === currentGame || n.game === null).slice(-60);
    let n = 0;
    for (const line of this.logCache.lines) {
      while (n < notes.length && notes[n].at <= line.index) lines.push(notes[n++]);
      lines.push(line);
    }
    while (n < notes.length) lines.push(notes[n++]);
    const shown = lines.slice(-250);
    return h("section", {class: "panel log-panel"},
      h("h2", {}, "Table log"),
      h("ol", {class: "log-lines", id: "log", "aria-live": "polite"},
        shown.length ? shown.map((line) => h("li", {class: `log-${line.kind || "plain"}`}, line.text))
          : h("li", {class: "muted"}, "Nothing has happened yet.")));
  }
}
