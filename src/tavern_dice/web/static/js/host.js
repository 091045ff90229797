// The DM console's own panels: the join link and QR code, the seat list (add bots,
// reorder, remove), the table options, gold grants, and start / pause / resume / end.

import {h, fmtCp, toast} from "./util.js";
import {presenceBadge} from "./board.js";

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

const BOT_KINDS = {"liars-dice": ["probabilistic", "random"], blackjack: ["cautious", "bold"]};

/** Start / pause / resume / end, above the board. */
export function hostGameControls(app) {
  const s = app.state;
  const g = s.game;
  const running = g && (g.status === "playing" || g.status === "paused");
  const t = s.table;
  const need = t.game === "liars-dice" ? t.rules.min_players : 1;
  const canStart = !running && t.seats.length >= need;
  return h("div", {class: "dm-bar", id: "dm-bar"},
    h("span", {class: "dm-label"}, "DM"),
    running ? null : h("button", {class: "btn btn-primary", id: "start-btn", disabled: !canStart,
      title: canStart ? "Start a game with the seated players, in seat order" : `Seat at least ${need} players first`,
      onclick: () => app.act({type: "start"})}, g ? "▶ Start a new game" : "▶ Start the game"),
    running && g.status === "playing" ? h("button", {class: "btn", id: "pause-btn", onclick: () => app.act({type: "pause"})}, "‖ Pause") : null,
    running && g.status === "paused" ? h("button", {class: "btn btn-primary", id: "resume-btn", onclick: () => app.act({type: "resume"})}, "▶ Resume") : null,
    running ? h("button", {class: "btn btn-danger", id: "end-btn", onclick: () => {
      if (confirm("End the game now? It cannot be resumed.")) app.act({type: "end"});
    }}, "■ End game") : null,
    !running && !canStart ? h("span", {class: "muted small"}, `Seat at least ${need} ${need === 1 ? "player" : "players"} to start.`) : null);
}

/** The side column of the DM console. */
export function hostSide(app) {
  return [joinCard(app), seatsPanel(app), optionsPanel(app)];
}

function joinCard(app) {
  const t = app.state.table;
  const url = `${location.origin}/t/${encodeURIComponent(t.table_id)}`;
  return h("section", {class: "panel join-card"},
    h("h2", {}, "Invite players"),
    h("div", {class: "join-row"},
      h("img", {class: "qr", src: `/api/tables/${encodeURIComponent(t.table_id)}/qr.svg`, alt: "QR code of the join link", width: 132, height: 132}),
      h("div", {class: "join-text"},
        h("p", {class: "small"}, "Players scan the code or open the link, give a name and sit down."),
        h("input", {class: "join-url", id: "join-url", readonly: true, value: url, onfocus: (e) => e.target.select()}),
        h("div", {class: "btn-row"},
          h("button", {class: "btn btn-small", onclick: async () => {
            try { await navigator.clipboard.writeText(url); toast("Join link copied.", "info"); } catch { toast("Select the link and copy it.", "info"); }
          }}, "Copy link"),
          h("a", {class: "btn btn-small btn-ghost", href: url, target: "_blank", rel: "noopener"}, "Open player page")))),
    LOOPBACK.test(location.hostname) ? h("p", {class: "small warn"},
      "Other devices cannot reach this address (it is this computer's own). Start the server with ",
      h("code", {}, "tavern serve --host 0.0.0.0"), " and open this console by the computer's network address, so the link and code work for everyone.") : null,
    h("p", {class: "muted small"}, "This console's address is private to you: it holds the DM key (this browser remembers it)."));
}

function seatsPanel(app) {
  const s = app.state;
  const t = s.table;
  const g = s.game;
  const running = g && (g.status === "playing" || g.status === "paused");
  const ui = app.ui;
  const kinds = BOT_KINDS[t.game] || [];
  if (!ui.botKind || !kinds.includes(ui.botKind)) ui.botKind = kinds[0];
  const rows = t.seats.map((seat, i) => h("li", {class: "seat-row", "data-key": seat.player_id},
    h("span", {class: "seat-num"}, String(i + 1)),
    h("span", {class: "seat-name"}, seat.name),
    presenceBadge(seat.presence, seat.bot_kind),
    h("span", {class: "muted small gold"}, fmtCp(t.balances[seat.player_id] ?? 0)),
    running ? null : h("span", {class: "row-btns"},
      h("button", {class: "btn btn-icon", title: "Move up", "aria-label": `move ${seat.name} up`, disabled: i === 0,
        onclick: () => app.act({type: "move", player_id: seat.player_id, to: i - 1})}, "↑"),
      h("button", {class: "btn btn-icon", title: "Move down", "aria-label": `move ${seat.name} down`, disabled: i === t.seats.length - 1,
        onclick: () => app.act({type: "move", player_id: seat.player_id, to: i + 1})}, "↓"),
      h("button", {class: "btn btn-icon btn-danger", title: "Remove from the seat list", "aria-label": `remove ${seat.name}`,
        onclick: () => app.act({type: "remove", player_id: seat.player_id})}, "✕"))));
  const grant = !(running && t.game === "blackjack") && t.seats.length ? h("details", {class: "grant"},
    h("summary", {}, "Give or take gold"),
    h("div", {class: "grant-form"},
      h("select", {id: "grant-who", value: ui.grantWho || "", onchange: (e) => { ui.grantWho = e.target.value; }},
        h("option", {value: ""}, "— player —"),
        t.seats.map((seat) => h("option", {value: seat.player_id, selected: seat.player_id === ui.grantWho}, seat.name))),
      h("input", {id: "grant-cp", type: "number", step: 1, placeholder: "cp (negative takes)", value: ui.grantCp || "",
        oninput: (e) => { ui.grantCp = e.target.value; }}),
      h("button", {class: "btn btn-small", onclick: () => {
        const amount = Number(ui.grantCp);
        if (!ui.grantWho || !Number.isInteger(amount) || amount === 0) { toast("Choose a player and a whole amount of cp."); return; }
        app.act({type: "grant", player_id: ui.grantWho, amount_cp: amount}).then(() => { ui.grantCp = ""; app.render(); }, () => {});
      }}, "Grant"))) : null;
  return h("section", {class: "panel seats-panel"},
    h("h2", {}, "Seats"),
    rows.length ? h("ol", {class: "seat-list", id: "seat-list"}, rows) : h("p", {class: "muted small"}, "Nobody yet. Share the link, or add bots."),
    running ? h("p", {class: "muted small"}, "People who join now sit down at the next game.") : h("div", {class: "add-bot"},
      h("select", {id: "bot-kind", "aria-label": "bot kind", value: ui.botKind, onchange: (e) => { ui.botKind = e.target.value; }},
        kinds.map((k) => h("option", {value: k, selected: k === ui.botKind}, `${k} bot`))),
      h("input", {id: "bot-name", maxlength: 32, placeholder: "name (optional)", value: ui.botName || "", oninput: (e) => { ui.botName = e.target.value; }}),
      h("button", {class: "btn btn-small", id: "add-bot-btn", onclick: () => {
        const frame = {type: "add_bot", kind: ui.botKind};
        if ((ui.botName || "").trim()) frame.name = ui.botName.trim();
        app.act(frame).then(() => { ui.botName = ""; app.render(); }, () => {});
      }}, "Add bot")),
    grant);
}

const OPTION_FIELDS = [
  ["turn_timer_s", "Turn timer (s, 0 = none)", "number", null],
  ["grace_s", "Away grace before a stand-in (s)", "number", null],
  ["bot_delay_ms", "Bot pause (ms)", "number", null],
  ["stake_cp", "Stake per player (cp)", "number", "liars-dice"],
  ["dice_mode", "Dice", "select:digital,manual", "blackjack"],
  ["auto_house", "Roll the house at once when bets close", "checkbox", "blackjack"],
];

function optionsPanel(app) {
  const t = app.state.table;
  const ui = app.ui;
  const running = app.state.game && (app.state.game.status === "playing" || app.state.game.status === "paused");
  ui.opts = ui.opts || {};
  const fields = OPTION_FIELDS.filter(([, , , game]) => !game || game === t.game).map(([key, label, type]) => {
    const current = key in ui.opts ? ui.opts[key] : t.options[key];
    const id = `opt-${key}`;
    if (type === "checkbox") {
      return h("label", {class: "check"}, h("input", {id, type: "checkbox", checked: !!current,
        onchange: (e) => { ui.opts[key] = e.target.checked; app.render(); }}), " ", label);
    }
    if (type.startsWith("select:")) {
      return h("label", {}, label, h("select", {id, value: String(current), disabled: key === "dice_mode" && running,
        onchange: (e) => { ui.opts[key] = e.target.value; app.render(); }},
      type.slice(7).split(",").map((o) => h("option", {value: o, selected: o === String(current)}, o))));
    }
    return h("label", {}, label, h("input", {id, type: "number", min: 0, step: 1, value: String(current),
      oninput: (e) => { ui.opts[key] = e.target.value; }}));
  });
  const save = () => {
    const changes = {};
    for (const [key, value] of Object.entries(ui.opts)) {
      changes[key] = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
    }
    if (!Object.keys(changes).length) return;
    app.act({type: "set_options", options: changes}).then(() => { ui.opts = {}; app.render(); toast("Options saved.", "info"); }, () => {});
  };
  return h("details", {class: "panel options-panel"},
    h("summary", {}, h("h2", {class: "inline"}, "Table options")),
    h("div", {class: "options-form"}, fields,
      h("button", {class: "btn btn-small", id: "save-options", onclick: save}, "Save options")));
}
