// The table page's controller, shared by the player/spectator page (/t/ID) and the
// DM console (/host/ID): holds the latest state frame and the event log, renders the
// page from them, and sends the user's actions.

import {h, patch, store, seatTokenKey, hostTokenKey, tableIdFromPath, api, toast, fmtCp, plural, nameEl, announce} from "./util.js";
import {TableSocket} from "./conn.js";
import {CommitmentBook} from "./verify.js";
import {describeEvents} from "./eventlog.js";
import {renderLiars, liarsFairness, serverRollText} from "./liars.js";
import {renderBlackjack, blackjackFairness} from "./blackjack.js";
import {announcements} from "./announce.js";
import {presenceBadge} from "./board.js";
import {hostSide, hostGameControls} from "./host.js";
import {changeText, ratingText} from "./standings.js";

const GAME_NAMES = {"liars-dice": "Liar's Dice", blackjack: "Dice Blackjack"};

/** Whether the table's seat list is full (no join form then). */
const tableFull = (t) => t.seats.length >= (t.game === "liars-dice" ? t.rules.max_players : 10);

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
    this.pendingFocus = null;
    this.said = new Set();
    this.catalog = null;
    this.thinking = new Set(); // seats whose bot is taking its time (the "thinking" frame)
  }

  // ------------------------------------------------------------------ start-up

  start() {
    if (!this.tableId) { this.fatal = "No table in this address."; this.render(); return; }
    let token = null;
    if (this.mode === "host") {
      const fromHash = location.hash.replace(/^#/, "");
      if (fromHash) {
        // The DM key stays out of the address bar (and out of screenshots and shared links).
        history.replaceState(null, "", location.pathname);
        // Opening the DM link moves the console here: the link's key is traded for a new
        // one, and the console that held it closes (so a link seen by someone else dies).
        api(`/api/tables/${encodeURIComponent(this.tableId)}/host-key`, {host_token: fromHash}).then((made) => {
          store.set(hostTokenKey(this.tableId), made.host_token);
          this.start();
        }, (error) => {
          this.fatal = error.status === 403
            ? "This DM link no longer opens the table: the console has moved to another device, or the DM replaced "
              + "its key. Ask the DM for the current link (the console's “Open the console on another device”)."
            : `The DM link could not be opened: ${error.message}`;
          this.render();
        });
        return;
      }
      token = store.get(hostTokenKey(this.tableId));
      if (!token) {
        this.fatal = "This is the DM console, but this browser has no DM key for the table. "
          + "Open the DM link (or scan its QR code) that the console showed when the table was created, "
          + "or open the console on the device that has it and choose “Open the console on another device”.";
        this.render();
        return;
      }
      this.hostToken = token;
      // The bots a DM may seat: every bot of the server's registry.
      api("/api/catalog").then((catalog) => { this.catalog = catalog; this.render(); }, () => {});
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
      onThinking: (seats) => { this.thinking = new Set(seats); this.render(); },
      onError: (frame) => {
        // A refused seat token is explained once the socket closes (onBadToken).
        if (frame.code === "bad-token") this.badTokenMessage = frame.message;
        else toast(frame.message || frame.code);
      },
      onStatus: (status) => { this.connStatus = status; this.render(); },
      onBadToken: () => {
        if (this.mode === "host") {
          if (this.ui.replacingKey) return;  // this console asked for the new key itself
          const why = this.badTokenMessage || "the DM key stored in this browser does not open this table";
          this.fatal = why.charAt(0).toUpperCase() + why.slice(1) + ".";
          this.render();
        } else {
          // The seat is gone (e.g. another database): forget it and watch as a spectator.
          store.remove(seatTokenKey(this.tableId));
          const why = this.badTokenMessage || "your saved seat no longer exists at this table; join again";
          toast(why.charAt(0).toUpperCase() + why.slice(1) + ".");
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
    this.thinking = new Set(); // a new state: the move the bot thought about has landed
    this.events = events;
    const g = frame.game;
    const started = Boolean(g && before && (!before.game || before.game.game_id !== g.game_id)
      && frame.you.seat !== null && frame.you.seat !== undefined);
    if (g && g.commitments) this.book.record(g.game_id, g.commitments);
    this.noteChanges(before, frame);
    this.render();
    // A game you play in has started: to the table (on a phone you had scrolled down to
    // the seat form to join).
    if (started) queueMicrotask(() => window.scrollTo(0, 0));
    // Say what is new for this player (their turn, a reveal), once each, politely.
    const fresh = announcements(this, frame).filter(([key]) => !this.said.has(key));
    for (const [key] of fresh) this.said.add(key);
    const words = fresh.map(([, text]) => text).filter(Boolean);
    if (words.length && before) announce(words.join(" "));
  }

  /** Physical dice: say in the log whose hand the server rolled (they were away). */
  noteServerRolls(before, now) {
    const ng = now.game;
    if (!ng || !ng.server_rolled) return;
    const og = before && before.game && before.game.game_id === ng.game_id ? before.game : null;
    const me = now.you.seat;
    for (const [round, seats] of Object.entries(ng.server_rolled)) {
      const had = og && og.server_rolled ? og.server_rolled[round] || {} : {};
      for (const [key, why] of Object.entries(seats)) {
        const seat = Number(key);
        if (had[key] || this.notes.some((n) => n.rolled === `${ng.game_id}/${round}/${seat}`)) continue;
        const text = serverRollText(why, seat === me ? null : ng.seats[seat].name);
        this.notes.push({text: `Round ${round}: ${text}.`, kind: "table", at: this.events.length, game: ng.game_id,
          rolled: `${ng.game_id}/${round}/${seat}`});
      }
    }
  }

  /** Table happenings that are not game events: joins, presence, start/pause/end. */
  noteChanges(before, now) {
    this.seenOnline = this.seenOnline || new Set();
    const seen = this.seenOnline;
    const wasSeen = new Set(seen);
    for (const seat of now.table.seats) if (seat.presence === "online") seen.add(seat.player_id);
    this.noteServerRolls(before, now);
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

  /** Whether `seat`'s bot has been deciding for a while (the server said so). */
  isThinking(seat) {
    const g = this.state && this.state.game;
    return Boolean(g && g.status === "playing" && this.thinking.has(seat));
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

  /**
   * Send an action; errors are shown by the socket's error handler. `focus`: where the
   * keyboard goes if the control that sent it goes away (the player's next action).
   */
  act(frame, {focus = null} = {}) {
    if (!this.socket) return Promise.reject(new Error("not connected"));
    this.pendingFocus = focus;
    const sent = this.socket.send(frame);
    // The state the action caused came (and was rendered) before its ack.
    sent.then(() => { this.pendingFocus = null; }, (error) => {
      this.pendingFocus = null;
      if (!error.code) toast(error.message);
    });
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
    const active = document.activeElement;
    const inside = active && active !== document.body && this.root.contains(active);
    // Where the keyboard was: its region (an id'd element with tabindex -1) and stepper.
    const zone = inside ? active.closest("[tabindex='-1'][id]") : null;
    const zoneId = zone ? zone.id : null;
    const stepper = inside ? active.closest(".stepper") : null;
    patch(this.root, h("div", {}, this.page()));
    const fresh = this.root.querySelector(".log-lines");
    if (fresh && stick) fresh.scrollTop = fresh.scrollHeight;
    this.keepFocus(active, inside, zoneId, stepper);
    this.markRoot();
  }

  /**
   * After a re-render: if the focused control went away (a Wager button once wagered) or
   * was disabled (a stepper at its end), put the keyboard where the next action is (the
   * place the action asked for, else the region it was in), never on the page body.
   */
  keepFocus(active, inside, zoneId, stepper) {
    const lost = inside && (!this.root.contains(active) || active.disabled);
    const dropped = !inside && active === document.body;
    if (!lost && !(dropped && this.pendingFocus)) return;
    const pick = (selector) => (selector ? this.root.querySelector(selector) : null);
    // Last resorts when the whole region went (the game ended): the reveal, the game.
    const target = pick(this.pendingFocus)
      || (lost && stepper && this.root.contains(stepper) ? stepper.querySelector("select:not(:disabled)") : null)
      || (lost && zoneId ? pick(`#${zoneId}`) : null)
      || (lost ? pick("#reveal-heading") || pick("#game-heading") : null);
    if (target) {
      target.focus();
      this.pendingFocus = null;
    }
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
        h("section", {class: "panel fatal", "data-key": "fatal"}, h("h2", {}, "Can't open this table"), h("p", {}, this.fatal),
          h("p", {}, h("a", {href: "/"}, "Create a new table")) ))];
    }
    const s = this.state;
    if (!s) {
      // Keyed: the table's columns replace this panel; they are not this panel moved.
      return [this.topbar(null), h("main", {class: "layout layout-single"},
        h("section", {class: "panel", "data-key": "connecting"}, h("p", {class: "muted"}, this.connStatus === "offline" ? "Can't reach the table; retrying…" : "Connecting to the table…")))];
    }
    // On a phone the table fills the first screen, and the side panels start below it:
    // so a game's regions growing and shrinking never move what is on the screen. The
    // DM's lobby is the exception (the seating and options are its work there).
    const fill = Boolean(s.game) || this.mode !== "host";
    return [this.topbar(s), this.banner(s),
      h("main", {class: "layout" + (fill ? " layout-fill" : "")},
        h("section", {class: "main-col"}, this.mainColumn(s)),
        h("aside", {class: "side-col"}, this.sideColumn(s)))];
  }

  topbar(s) {
    const t = s ? s.table : null;
    const mine = s && s.you.player_id ? s.table.seats.find((x) => x.player_id === s.you.player_id) : null;
    const role = !s ? "" : s.you.role === "host" ? "DM" : mine ? mine.name : "spectator";
    // The page's one top-level heading: the table's name (and the page: DM console or table).
    const page = this.mode === "host" ? "DM console" : "table";
    return h("header", {class: "topbar"},
      h("a", {class: "brand", href: "/", title: "Tavern Dice — new table"}, h("span", {class: "brand-die", "aria-hidden": "true"}, "⚄"), " Tavern Dice"),
      h("div", {class: "table-title"}, h("h1", {class: "table-name", title: t ? t.name : ""}, t ? t.name : `Tavern Dice ${page}`,
        h("span", {class: "visually-hidden"}, t ? ` — ${page}` : "")),
      t ? h("span", {class: "game-name"}, GAME_NAMES[t.game] || t.game) : null),
      h("div", {class: "top-right"},
        t ? h("span", {class: `pill pill-${t.status}`}, t.status) : null,
        s ? h("span", {class: "who name", title: `You are ${role}`}, role) : null,
        // A page that cannot open its table is not reconnecting: no connection badge then.
        this.fatal ? null : h("span", {class: `conn conn-${this.connStatus}`, title: `connection: ${this.connStatus}`},
          this.connStatus === "online" ? "● live" : this.connStatus === "connecting" ? "◌ connecting" : "○ reconnecting")));
  }

  banner(s) {
    const g = s.game;
    if (g && g.status === "paused") {
      return h("div", {class: "banner banner-paused", id: "paused-banner"}, g.notice ? g.notice : "‖ Game paused by the DM",
        g.notice && this.mode === "host" ? h("span", {class: "banner-sub"}, " End the game, or resume if the players will end the round themselves.") : null);
    }
    if (this.connStatus === "offline") return h("div", {class: "banner banner-offline"}, "Connection lost — reconnecting…");
    return null;
  }

  mainColumn(s) {
    const g = s.game;
    const parts = [];
    if (this.mode === "host") parts.push(hostGameControls(this));
    if (g) {
      // Where the keyboard goes when a game starts: a heading, not the Pause button.
      const v = g.view;
      parts.push(h("h2", {class: "board-title", id: "game-heading", tabindex: "-1", "data-key": "game-heading"},
        `${GAME_NAMES[g.game] || g.game} · round ${v.round || 1}`,
        g.status === "playing" ? "" : ` · ${g.status}`));
    }
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
    const text = g.status === "ended" ? "The DM ended this game." : winner
      ? ["Game over — ", nameEl(winner), ` ${v.winner === this.you.seat ? "win" : "wins"}!`] : "Game over.";
    const mine = g.ratings && g.ratings.rated ? g.ratings.standings.find((r) => r.seat === this.you.seat && r.change !== null) : null;
    return h("div", {class: "banner banner-over", id: "game-over"}, text,
      mine ? h("span", {id: "my-rating"}, ` Your rating: ${ratingText(mine)}.`) : null,
      this.mode === "host" ? " Start another game when everyone is ready." : " Waiting for the DM to start another game.",
      this.reviewLink(s));
  }

  /** After a game: its review, of the player's own seat (the DM's: every seat). */
  reviewLink(s) {
    const g = s.game;
    const seated = s.you.seat !== null && s.you.seat !== undefined;
    if (this.mode !== "host" && !seated) return null;
    const query = `game_id=${encodeURIComponent(g.game_id)}${this.mode === "host" ? "&dm=1" : ""}`;
    return [" ", h("a", {class: "btn btn-small", id: "review-link", href: `/review/${encodeURIComponent(this.tableId)}?${query}`},
      this.mode === "host" ? "Review every seat" : "Review your game")];
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
        h("div", {class: "lobby-wait"}, this.mode === "host" ? "Seat players and bots, then start the game." : "Waiting for the DM to start the game…"),
        // On a phone the join form is below the table: a way there from the top.
        s.you.role === "spectator" && !tableFull(t) ? h("button", {class: "btn btn-primary narrow-only", id: "to-join-btn", onclick: () => {
          const box = document.getElementById("join-name");
          if (box) box.focus();
        }}, "Take a seat ↓") : null,
        // Last, so that seats joining add rows below and move nothing above them.
        h("div", {class: "lobby-seats"}, t.seats.map((seat) => h("div", {class: "lobby-seat", "data-key": seat.player_id},
          h("span", {class: "seat-name", title: seat.name}, seat.name, seat.player_id === s.you.player_id ? " (you)" : ""),
          presenceBadge(seat.presence, seat.bot_kind),
          t.game === "blackjack" ? h("span", {class: "muted small"}, fmtCp(t.balances[seat.player_id] ?? 0)) : null,
          tableRating(t, seat))))),
      h("p", {class: "rules-line muted small"}, "Rules: ", rulesText.filter(Boolean).join(" · ")));
  }

  sideColumn(s) {
    const parts = [];
    if (this.mode === "host") parts.push(...hostSide(this));
    else parts.push(this.seatPanel(s));
    if (s.game && s.game.game === "liars-dice") parts.push(liarsFairness(this));
    if (s.game && s.game.game === "blackjack") parts.push(blackjackFairness(this));
    parts.push(this.logPanel(s));
    return parts;
  }

  seatPanel(s) {
    const t = s.table;
    if (s.you.role === "player") {
      const mine = t.seats.find((x) => x.player_id === s.you.player_id);
      return h("section", {class: "panel you-panel"},
        h("h2", {}, "Your seat"),
        h("p", {}, "You are ", h("strong", {id: "my-name", class: "name", title: mine ? mine.name : ""}, mine ? mine.name : "seated"),
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
    const full = tableFull(t);
    const submit = async (e) => {
      e.preventDefault();
      const name = (ui.joinName || "").trim();
      if (!name) { ui.joinError = "Give a name to sit down."; this.render(); return; }
      const pb = t.game === "blackjack" && ui.joinPb ? Number(ui.joinPb) : null;
      ui.joinError = null;
      this.render();
      try {
        await this.join(name, pb);
        ui.joinError = null;
      } catch (error) {
        // Said next to the box (and the box keeps the keyboard), not only in a toast.
        ui.joinError = error.message;
        this.render();
        const box = document.getElementById(error.field === "proficiency" ? "join-pb" : "join-name");
        if (box) box.focus();
      }
    };
    return h("section", {class: "panel join-panel"},
      h("h2", {}, "Take a seat"),
      full ? h("p", {class: "muted"}, "The table is full; you can watch.") : h("form", {id: "join-form", onsubmit: submit},
        h("label", {for: "join-name"}, "Your name"),
        h("input", {id: "join-name", maxlength: 32, autocomplete: "nickname", placeholder: "e.g. Brenna Tealeaf", value: ui.joinName || "",
          "aria-invalid": ui.joinError ? "true" : "false", "aria-describedby": ui.joinError ? "join-error" : null,
          oninput: (e) => { ui.joinName = e.target.value; }}),
        ui.joinError ? h("p", {class: "field-error", id: "join-error", role: "alert"}, ui.joinError) : null,
        t.game === "blackjack" ? [h("label", {for: "join-pb"}, "Proficiency bonus (Performance, Deception or thieves' tools)"),
          h("select", {id: "join-pb", value: ui.joinPb || "", onchange: (e) => { ui.joinPb = e.target.value; }},
            h("option", {value: ""}, "not proficient"),
            [2, 3, 4, 5, 6].slice(0, t.rules.max_proficiency_bonus - 1).map((pb) => h("option", {value: String(pb), selected: String(pb) === ui.joinPb}, `+${pb}`)))] : null,
        h("button", {class: "btn btn-primary", id: "join-btn", type: "submit"}, s.game && s.game.status === "playing" ? "Join for the next game" : "Sit down")),
      h("p", {class: "muted small"}, "Spectators see only what is public: nobody's secret dice."));
  }

  /** The game's log in words (cached until the log, the game or the viewer changes). */
  logLines() {
    const s = this.state;
    const g = s && s.game;
    const names = g ? g.seats.map((x) => x.name) : [];
    const you = s ? s.you.seat : null;
    if (this.logCache.length !== this.events.length || this.logCache.gameId !== (g && g.game_id) || this.logCache.you !== you) {
      this.logCache = {length: this.events.length, gameId: g && g.game_id, you,
        lines: describeEvents(this.events, names, you)};
    }
    return this.logCache.lines;
  }

  logPanel(s) {
    const g = s.game;
    this.logLines();
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
    // Not a live region (it would re-read every line at each change): the announcer says
    // what matters as it happens. Focusable, so that a keyboard can scroll it.
    return h("section", {class: "panel log-panel", "aria-labelledby": "log-heading"},
      h("h2", {id: "log-heading"}, "Table log"),
      h("ol", {class: "log-lines", id: "log", tabindex: "0", "aria-labelledby": "log-heading"},
        shown.length ? shown.map((line) => h("li", {class: `log-${line.kind || "plain"}`}, line.text))
          : h("li", {class: "muted"}, "Nothing has happened yet.")));
  }
}

/** A person's table rating in the lobby's seat list, at a rated table that has rated them. */
function tableRating(t, seat) {
  const r = t.ratings ? t.ratings[seat.player_id] : null;
  if (!r) return null;
  return h("span", {class: "muted small table-rating", "data-rating": r.rating,
    title: `table rating after ${plural(r.games, "rated game")}; last change ${changeText(r.change)}`}, `rated ${r.rating}`);
}
