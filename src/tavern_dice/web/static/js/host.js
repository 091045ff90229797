// The DM console's own panels: the join link and QR code, the seat list (add bots,
// reorder, remove), the table options, gold grants, and start / pause / resume / end.

import {h, api, fmtCp, toast, store, hostTokenKey} from "./util.js";
import {DICE_MODES} from "./dicemode.js";
import {presenceBadge} from "./board.js";

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** The bots the DM may seat: the server's bot registry, from /api/catalog. */
function botKinds(app, game) {
  const entry = app.catalog && app.catalog.games[game];
  return entry ? entry.bot_kinds : [];
}

/** The rated levels among them (persona, level and rating), weakest first. */
function botLevels(app, game) {
  const entry = app.catalog && app.catalog.games[game];
  return entry && entry.bot_levels ? entry.bot_levels : [];
}

/** The seat-a-bot list: the rated levels by name and rating, then the other bots. */
function botOptions(kinds, levels, chosen) {
  const option = (k, label) => h("option", {value: k, selected: k === chosen}, label);
  const leveled = new Set(levels.map((l) => l.kind));
  const rated = levels.filter((l) => kinds.includes(l.kind)).map((l) => option(l.kind,
    `${l.name}, ${l.title} · level ${l.level}` + (l.rating === null ? "" : ` · rated ${l.rating}`)));
  const others = kinds.filter((k) => !leveled.has(k)).map((k) => option(k, `${k} bot`));
  if (!rated.length) return others;
  return [h("optgroup", {label: "Rated opponents, weakest first"}, rated),
          h("optgroup", {label: "Other bots"}, others)];
}

/** Start / pause / resume / end, above the board. */
export function hostGameControls(app) {
  const s = app.state;
  const g = s.game;
  const running = g && (g.status === "playing" || g.status === "paused");
  const t = s.table;
  const need = t.game === "liars-dice" ? t.rules.min_players : 1;
  const canStart = !running && t.seats.length >= need;
  // Each button is keyed, so that a re-render never turns the focused Start button into
  // Pause under the keyboard (a second Enter would pause the game just started).
  return h("section", {class: "dm-bar", id: "dm-bar", tabindex: "-1", "aria-label": "Game controls"},
    h("span", {class: "dm-label"}, "DM"),
    running ? null : h("button", {class: "btn btn-primary", id: "start-btn", "data-key": "start", disabled: !canStart,
      title: canStart ? "Start a game with the seated players, in seat order" : `Seat at least ${need} players first`,
      onclick: () => app.act({type: "start"}, {focus: "#game-heading"})}, g ? "▶ Start a new game" : "▶ Start the game"),
    running && g.status === "playing" ? h("button", {class: "btn", id: "pause-btn", "data-key": "pause",
      onclick: () => app.act({type: "pause"}, {focus: "#resume-btn"})}, "‖ Pause") : null,
    running && g.status === "paused" ? h("button", {class: "btn btn-primary", id: "resume-btn", "data-key": "resume",
      onclick: () => app.act({type: "resume"}, {focus: "#pause-btn"})}, "▶ Resume") : null,
    running ? h("button", {class: "btn btn-danger", id: "end-btn", "data-key": "end", onclick: () => {
      if (confirm("End the game now? It cannot be resumed.")) app.act({type: "end"}, {focus: "#dm-bar"});
    }}, "■ End game") : null,
    !running && !canStart ? h("span", {class: "muted small"}, `Seat at least ${need} ${need === 1 ? "player" : "players"} to start.`) : null);
}

/** The side column of the DM console. */
export function hostSide(app) {
  return [joinCard(app), dmLinkPanel(app), seatsPanel(app), optionsPanel(app)];
}

/**
 * The DM link (the console's address with the DM key), on demand: opening it on another
 * device moves the console there (this one closes). Its QR code is shown only when asked
 * for, and the join QR is hidden meanwhile, so that no player scans the wrong code. The
 * DM may also replace the key, which ends every link and console that had the old one.
 */
function dmLinkPanel(app) {
  const ui = app.ui;
  const link = ui.dmLink;
  if (ui.showDmLink && !link && !ui.dmLinkLoading && app.hostToken) {
    ui.dmLinkLoading = true;
    api(`/api/tables/${encodeURIComponent(app.tableId)}/host-link`, {host_token: app.hostToken}).then((made) => {
      ui.dmLink = made;
      ui.dmLinkLoading = false;
      app.render();
    }, (error) => { ui.dmLinkLoading = false; ui.showDmLink = false; toast(error.message); app.render(); });
  }
  const toggle = h("button", {class: "btn btn-small", id: "dm-link-btn", "aria-expanded": ui.showDmLink ? "true" : "false",
    "aria-controls": "dm-link", onclick: () => { ui.showDmLink = !ui.showDmLink; ui.showDmQr = false; app.render(); }},
  ui.showDmLink ? "Hide the DM link" : "Open the console on another device");
  const replace = h("button", {class: "btn btn-small btn-ghost", id: "new-key-btn", onclick: () => replaceKey(app)},
    "Replace the DM key");
  if (!ui.showDmLink) {
    return h("section", {class: "panel dm-link-panel", "aria-label": "DM link"}, h("div", {class: "btn-row"}, toggle, replace));
  }
  return h("section", {class: "panel dm-link-panel", "aria-labelledby": "dm-link-heading"},
    h("h2", {id: "dm-link-heading"}, "Your DM link"),
    h("p", {class: "small warn"}, "Keep this link private: whoever opens it runs the table. Opening it on another device "
      + "moves the console there: this console closes, and the link opens nothing after that."),
    link ? h("div", {class: "join-row", id: "dm-link"},
      ui.showDmQr ? h("img", {class: "qr", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(link.qr_svg)}`,
        alt: "QR code of the DM link", width: 132, height: 132}) : null,
      h("div", {class: "join-text"},
        h("label", {for: "dm-url"}, "DM link"),
        h("input", {class: "join-url", id: "dm-url", readonly: true, value: link.host_url, onfocus: (e) => e.target.select()}),
        h("div", {class: "btn-row"},
          h("button", {class: "btn btn-small", onclick: async () => {
            try { await navigator.clipboard.writeText(link.host_url); toast("DM link copied.", "info"); } catch { toast("Select the link and copy it.", "info"); }
          }}, "Copy DM link"),
          h("button", {class: "btn btn-small btn-ghost", id: "dm-qr-btn", "aria-expanded": ui.showDmQr ? "true" : "false",
            onclick: () => { ui.showDmQr = !ui.showDmQr; app.render(); }},
          ui.showDmQr ? "Hide its QR code" : "Show its QR code")))) : h("p", {class: "muted small", id: "dm-link"}, "Getting the link…"),
    h("div", {class: "btn-row"}, toggle, replace));
}

/** A new DM key for this console; every other console and DM link stops working. */
async function replaceKey(app) {
  if (!confirm("Replace the DM key? Every DM link given out so far, and any other console, stops working.")) return;
  const ui = app.ui;
  // The server closes this console's own socket too (it holds the old key): not an error.
  ui.replacingKey = true;
  try {
    const made = await api(`/api/tables/${encodeURIComponent(app.tableId)}/host-key`, {host_token: app.hostToken});
    store.set(hostTokenKey(app.tableId), made.host_token);
    app.hostToken = made.host_token;
    ui.dmLink = null;
    ui.showDmQr = false;
    app.connect(made.host_token);
    toast("New DM key: earlier DM links and other consoles no longer open this table.", "info");
  } catch (error) {
    toast(error.message);
  } finally {
    ui.replacingKey = false;
    app.render();
  }
}

function joinCard(app) {
  const t = app.state.table;
  const url = `${location.origin}/t/${encodeURIComponent(t.table_id)}`;
  return h("section", {class: "panel join-card"},
    h("h2", {}, "Invite players"),
    h("div", {class: "join-row"},
      // Never beside the DM link's code: a player could scan the wrong one.
      app.ui.showDmQr ? null : h("img", {class: "qr", src: `/api/tables/${encodeURIComponent(t.table_id)}/qr.svg`, alt: "QR code of the join link", width: 132, height: 132}),
      h("div", {class: "join-text"},
        h("p", {class: "small"}, "Players scan the code or open the link, give a name and sit down."),
        h("label", {for: "join-url"}, "Join link"),
        h("input", {class: "join-url", id: "join-url", readonly: true, value: url, onfocus: (e) => e.target.select()}),
        h("div", {class: "btn-row"},
          h("button", {class: "btn btn-small", onclick: async () => {
            try { await navigator.clipboard.writeText(url); toast("Join link copied.", "info"); } catch { toast("Select the link and copy it.", "info"); }
          }}, "Copy link"),
          h("a", {class: "btn btn-small btn-ghost", href: url, target: "_blank", rel: "noopener"}, "Open player page")))),
    LOOPBACK.test(location.hostname) ? h("p", {class: "small warn"},
      "Other devices cannot reach this address (it is this computer's own). Start the server with ",
      h("code", {}, "tavern serve --host 0.0.0.0"), " and open this console by the computer's network address, so the link and code work for everyone.") : null,
    h("p", {class: "muted small"}, "This browser remembers the DM key; the DM link below moves the console to another device."));
}

function seatsPanel(app) {
  const s = app.state;
  const t = s.table;
  const g = s.game;
  const running = g && (g.status === "playing" || g.status === "paused");
  const ui = app.ui;
  const kinds = botKinds(app, t.game);
  if (!ui.botKind || !kinds.includes(ui.botKind)) {
    // The game's everyday bot (its default stand-in) first, else the registry's first.
    const everyday = app.catalog ? app.catalog.games[t.game].options.standin_bot : null;
    ui.botKind = kinds.includes(everyday) ? everyday : kinds[0];
  }
  const rows = t.seats.map((seat, i) => h("li", {class: "seat-row", "data-key": seat.player_id},
    h("span", {class: "seat-num"}, String(i + 1)),
    h("span", {class: "seat-name", title: seat.name}, seat.name),
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
      h("label", {for: "grant-who"}, "Player",
        h("select", {id: "grant-who", value: ui.grantWho || "", onchange: (e) => { ui.grantWho = e.target.value; }},
          h("option", {value: ""}, "— choose —"),
          t.seats.map((seat) => h("option", {value: seat.player_id, selected: seat.player_id === ui.grantWho}, seat.name)))),
      h("label", {for: "grant-cp"}, "Gold in cp (negative takes)",
        h("input", {id: "grant-cp", type: "number", step: 1, placeholder: "e.g. 500", value: ui.grantCp || "",
          oninput: (e) => { ui.grantCp = e.target.value; }})),
      h("button", {class: "btn btn-small", onclick: () => {
        const amount = Number(ui.grantCp);
        if (!ui.grantWho || !Number.isInteger(amount) || amount === 0) { toast("Choose a player and a whole amount of cp."); return; }
        app.act({type: "grant", player_id: ui.grantWho, amount_cp: amount}).then(() => { ui.grantCp = ""; app.render(); }, () => {});
      }}, "Grant"))) : null;
  return h("section", {class: "panel seats-panel"},
    h("h2", {}, "Seats"),
    rows.length ? h("ol", {class: "seat-list", id: "seat-list"}, rows) : h("p", {class: "muted small"}, "Nobody yet. Share the link, or add bots."),
    running ? h("p", {class: "muted small"}, "People who join now sit down at the next game.") : h("div", {class: "add-bot"},
      h("label", {for: "bot-kind"}, "Bot",
        h("select", {id: "bot-kind", value: ui.botKind, onchange: (e) => { ui.botKind = e.target.value; }},
          botOptions(kinds, botLevels(app, t.game), ui.botKind))),
      h("label", {for: "bot-name"}, "Bot's name (optional)",
        h("input", {id: "bot-name", maxlength: 32, placeholder: "e.g. Old Tom", value: ui.botName || "", oninput: (e) => { ui.botName = e.target.value; }})),
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
  ["dice_mode", "Dice", "select:digital,manual", null],
  ["auto_house", "Roll the house at once when bets close", "checkbox", "blackjack"],
  ["rated", "Rated games (each player's rating on the final standings)", "checkbox", "liars-dice"],
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
      return h("label", {class: "check"}, h("input", {id, type: "checkbox", checked: !!current, disabled: key === "rated" && running,
        onchange: (e) => { ui.opts[key] = e.target.checked; app.render(); }}), " ", label);
    }
    if (type.startsWith("select:")) {
      return h("label", {}, label, h("select", {id, value: String(current), disabled: key === "dice_mode" && running,
        onchange: (e) => { ui.opts[key] = e.target.value; app.render(); }},
      type.slice(7).split(",").map((o) => h("option", {value: o, selected: o === String(current)},
        key === "dice_mode" ? DICE_MODES[t.game][o] : o))));
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
