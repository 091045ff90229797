// Create a table (/): choose the game, a ruleset (an engine preset with options changed)
// and the table's options; the server answers with the DM console's address, whose
// fragment carries the DM key.

import {h, patch, api, toast, fmtCp, store, hostTokenKey} from "./util.js";
import {DICE_MODES} from "./dicemode.js";
import {edgePanel, newEdgeState} from "./edge-panel.js";

const GAMES = {
  "liars-dice": {
    title: "Liar's Dice",
    blurb: "Secret dice, bold wagers, and one word: Liar! Two to ten players; the last with dice wins.",
    icon: "⚄",
  },
  blackjack: {
    title: "Dice Blackjack",
    blurb: "The DM is the house: a d20 sets the target, players roll d12s to get close without going over.",
    icon: "⚀",
  },
};

// Labels and hints for the engines' ruleset fields; fields not listed keep the preset.
const RULE_FIELDS = {
  "liars-dice": [
    ["dice_per_player", "Dice per player (and lives)", "int", 1, 20],
    ["sides", "Sides per die", "int", 2, 20],
    ["raise_rule", "Raise rule", "select", [["either", "either — higher quantity or higher face (tavern)"], ["standard", "standard — higher quantity, or same quantity and higher face"], ["face-major", "face-major — higher face, or same face and more dice"]]],
    ["wild_face", "Wild face", "wild"],
    ["spot_on", "Spot-on: an exact wager costs everyone else a die", "bool"],
    ["sum_endgame", "Sum endgame: two players with one die each wager on the sum", "bool"],
    ["repeat_wagers", "Repeat wagers: a wager already made this round may be made again", "bool"],
    ["max_players", "Most players", "int", 2, 10],
  ],
  blackjack: [
    ["min_bet_cp", "Smallest bet (cp)", "int", 1, null],
    ["max_bet_cp", "Largest bet (cp, empty for none)", "optint", 1, null],
    ["target_one_collects", "A target of 1 collects every bet", "bool"],
    ["house_needs_under", "House dice must be under the target (not equal)", "bool"],
    ["house_exact_beats_player_exact", "House on the target beats a player on the target", "bool"],
    ["exact_numerator", "Exact hit pays (gp won…)", "int", 1, null],
    ["exact_denominator", "…per gp bet", "int", 1, null],
    ["max_added_bonus", "Cap on the bonus added (empty for none)", "optint", 0, null],
    ["max_proficiency_bonus", "Highest proficiency bonus", "int", 2, 6],
  ],
};

const state = {catalog: null, game: "liars-dice", preset: "tavern", name: "", rules: {}, options: {}, busy: false,
  edge: newEdgeState()};

function presetRules() {
  return state.catalog.games[state.game].presets[state.preset] || {};
}

function ruleValue(key) {
  return key in state.rules ? state.rules[key] : presetRules()[key];
}

function ruleField([key, label, type, a, b]) {
  const value = ruleValue(key);
  const set = (v) => { state.rules[key] = v; render(); };
  const id = `rule-${key}`;
  if (type === "bool") {
    return h("label", {class: "check"}, h("input", {id, type: "checkbox", checked: !!value, onchange: (e) => set(e.target.checked)}), " ", label);
  }
  if (type === "select") {
    return h("label", {}, label, h("select", {id, value, onchange: (e) => set(e.target.value)},
      a.map(([v, text]) => h("option", {value: v, selected: v === value}, text))));
  }
  if (type === "wild") {
    const sides = ruleValue("sides");
    return h("label", {}, label, h("select", {id, value: value === null ? "" : String(value), onchange: (e) => set(e.target.value === "" ? null : Number(e.target.value))},
      h("option", {value: ""}, "none (tavern)"),
      Array.from({length: sides}, (_, i) => h("option", {value: String(i + 1), selected: value === i + 1}, `${i + 1}s are wild`))));
  }
  const attrs = {id, type: "number", step: 1, value: value === null || value === undefined ? "" : String(value),
    oninput: (e) => {
      const text = e.target.value.trim();
      state.rules[key] = text === "" && type === "optint" ? null : Number(text);
    }};
  if (a !== null && a !== undefined) attrs.min = a;
  if (b !== null && b !== undefined) attrs.max = b;
  return h("label", {}, label, h("input", attrs));
}

function optionFields() {
  const o = {...state.catalog.games[state.game].options, ...state.options};
  const num = (key, label, hint) => h("label", {}, label, h("input", {id: `opt-${key}`, type: "number", min: 0, step: 1, value: String(o[key]),
    oninput: (e) => { state.options[key] = Number(e.target.value); }}), hint ? h("small", {}, hint) : null);
  const common = [
    num("turn_timer_s", "Turn timer (seconds, 0 = none)", "When it runs out, a stand-in bot makes that one move."),
    num("grace_s", "Grace for a dropped player (seconds)", "Then a stand-in bot plays until they reconnect."),
    num("bot_delay_ms", "Bots pause before moving (ms)"),
  ];
  // The same option, and the same words, for both games' physical dice.
  const modes = DICE_MODES[state.game];
  const dice = h("label", {}, "Dice", h("select", {id: "opt-dice_mode", value: o.dice_mode, onchange: (e) => { state.options.dice_mode = e.target.value; render(); }},
    ["digital", "manual"].map((m) => h("option", {value: m, selected: o.dice_mode === m}, modes[m]))));
  if (state.game === "liars-dice") {
    return [...common, num("stake_cp", "Stake per player (cp, 0 = none)", "The winner takes the pot."),
      num("starting_gold_cp", "Starting gold per player (cp)", `= ${fmtCp(o.starting_gold_cp)}`), dice,
      h("label", {class: "check"}, h("input", {id: "opt-rated", type: "checkbox", checked: !!o.rated,
        onchange: (e) => { state.options.rated = e.target.checked; }}), " Rated games: each player's rating for this table's games on the final standings")];
  }
  return [...common,
    num("starting_gold_cp", "Starting gold per player (cp)", `= ${fmtCp(o.starting_gold_cp)}`), dice,
    o.dice_mode === "digital" ? h("label", {class: "check"}, h("input", {id: "opt-auto_house", type: "checkbox", checked: !!o.auto_house,
      onchange: (e) => { state.options.auto_house = e.target.checked; }}), " Roll the house's dice as soon as bets close") : null];
}

async function create(e) {
  e.preventDefault();
  if (state.busy) return;
  const preset = presetRules();
  const rules = {};
  for (const [key, value] of Object.entries(state.rules)) if (value !== preset[key]) rules[key] = value;
  for (const [key, value] of Object.entries(rules)) {
    if (typeof value === "number" && !Number.isInteger(value)) { toast(`${key} must be a whole number`); return; }
  }
  state.busy = true;
  render();
  try {
    const made = await api("/api/tables", {game: state.game, name: state.name.trim(), preset: state.preset, rules, options: state.options});
    store.set(hostTokenKey(made.table_id), made.host_token);
    // The key is stored already: the console opens without it in the address (a DM link
    // opened later moves the console, trading its key for a new one).
    location.assign(`/host/${encodeURIComponent(made.table_id)}`);
  } catch (error) {
    toast(error.message);
    state.busy = false;
    render();
    // The server names the field at fault ("rules.sides", "options.grace_s"): go there.
    const [group, key] = (error.field || "").split(".");
    const box = key && document.getElementById(`${group === "rules" ? "rule" : "opt"}-${key}`);
    if (box) box.focus();
  }
}

function page() {
  if (!state.catalog) return h("main", {class: "layout layout-single"}, h("p", {class: "muted"}, "Loading the games…"));
  const presets = Object.keys(state.catalog.games[state.game].presets);
  return [
    h("header", {class: "topbar"}, h("a", {class: "brand", href: "/"}, h("span", {class: "brand-die", "aria-hidden": "true"}, "⚄"), " Tavern Dice"),
      h("div", {class: "table-title"}, h("span", {class: "table-name"}, "Host a table")), h("div", {class: "top-right"})),
    h("main", {class: "layout layout-single"},
      h("form", {class: "panel create", id: "create-form", onsubmit: create},
        h("h1", {}, "Host a table"),
        h("p", {class: "muted"}, "You are the DM. Create the table, share the link or QR code, seat bots if you like, and start."),
        h("fieldset", {class: "game-choice"}, h("legend", {}, "Game"),
          Object.entries(GAMES).map(([key, game]) => h("label", {class: "game-card" + (state.game === key ? " chosen" : "")},
            h("input", {type: "radio", name: "game", value: key, checked: state.game === key,
              onchange: () => { state.game = key; state.preset = "tavern"; state.rules = {}; state.options = {}; render(); }}),
            h("span", {class: "game-icon", "aria-hidden": "true"}, game.icon),
            h("span", {class: "game-title"}, game.title),
            h("span", {class: "game-blurb"}, game.blurb)))),
        h("label", {}, "Table name", h("input", {id: "table-name", maxlength: 64, placeholder: "The Prancing Pony", value: state.name,
          oninput: (e) => { state.name = e.target.value; }})),
        h("fieldset", {}, h("legend", {}, "Rules"),
          h("label", {}, "Preset", h("select", {id: "preset", value: state.preset, onchange: (e) => { state.preset = e.target.value; state.rules = {}; render(); }},
            presets.map((p) => h("option", {value: p, selected: p === state.preset}, p === "tavern" ? "tavern — the rules as written" : p)))),
          h("div", {class: "grid-2"}, RULE_FIELDS[state.game].map(ruleField))),
        state.game === "blackjack" ? edgePanel(state.edge, (rules) => { Object.assign(state.rules, rules); }, render) : null,
        h("fieldset", {}, h("legend", {}, "Table"), h("div", {class: "grid-2"}, optionFields())),
        h("button", {class: "btn btn-primary btn-big", id: "create-btn", type: "submit", disabled: state.busy}, state.busy ? "Creating…" : "Create the table"))),
  ];
}

function render() {
  patch(document.getElementById("app"), h("div", {}, page()));
}

api("/api/catalog").then((catalog) => { state.catalog = catalog; render(); },
  (error) => { toast(`Cannot load the games: ${error.message}`); });
render();
