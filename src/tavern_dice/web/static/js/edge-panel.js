// The DM's house-edge dial on the create page (Dice Blackjack): pick the edge the house
// should keep and the table's bonuses; the server's dial (GET /api/house-edge, the same
// computation as `tavern odds blackjack --edge`) lists every candidate rule set with its
// exact edges, and the closest one is put into the rules the table is created with.

import {h, api} from "./util.js";

/** The rule fields the dial sets. */
export const DIAL_RULES = ["exact_numerator", "exact_denominator", "house_exact_beats_player_exact",
  "house_needs_under", "max_added_bonus"];
const BONUSES = [0, 1, 2, 3];

const pct = (x) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(3)} %`;
const yes = (b) => (b ? "yes" : "no");

/** The panel's own state, kept by the page between renders. */
export function newEdgeState() {
  return {target: "2", bonuses: [true, true, true, true], busy: false, result: null, error: null, started: 0};
}

async function find(edge, applyRules, render) {
  const bonuses = BONUSES.filter((b) => edge.bonuses[b]);
  if (!bonuses.length) { edge.error = "Tick at least one bonus: +0 is a player without proficiency."; render(); return; }
  edge.busy = true;
  edge.error = null;
  // The first request on a fresh server solves every candidate (seconds): count them.
  edge.started = Date.now();
  const ticking = setInterval(render, 1000);
  render();
  try {
    const query = new URLSearchParams({edge: `${edge.target.trim()}%`, bonuses: bonuses.join(",")});
    edge.result = await api(`/api/house-edge?${query}`);
    const chosen = edge.result.chosen;
    applyRules(Object.fromEntries(DIAL_RULES.map((key) => [key, chosen[key]])));
  } catch (error) {
    // The result stays: the form's rules are still the ones it chose. The refusal is
    // said next to the box it is about, once, not as one more toast each try.
    edge.error = error.message;
    render();
    document.getElementById("edge-target")?.focus();
  } finally {
    clearInterval(ticking);
    edge.busy = false;
    render();
  }
  // The chosen row may sit far down the list: bring it into the list's view.
  document.getElementById("edge-chosen")?.scrollIntoView({block: "nearest"});
}

function describe(c) {
  const parts = [`exact hit pays ${c.payout}`];
  if (c.house_exact_beats_player_exact) parts.push("the house wins ties on the target");
  if (c.house_needs_under) parts.push("house dice must be under the target");
  if (c.max_added_bonus !== null) parts.push(`bonus capped at +${c.max_added_bonus}`);
  return parts.join(", ");
}

function resultTable(result) {
  const bonuses = result.bonuses;
  return h("div", {class: "edge-scroll", tabindex: "0", "aria-label": "Candidate rules by house edge"},
    h("table", {class: "edge-table", id: "edge-table"},
      h("caption", {}, "Every candidate, lowest house edge first (against perfect players; negative favours the players)"),
      h("thead", {}, h("tr", {}, ["Payout", "House wins ties", "Under, not equal", "Bonus cap",
        ...bonuses.map((b) => `Edge +${b}`), "Table edge"].map((t) => h("th", {scope: "col"}, t)))),
      h("tbody", {}, result.candidates.map((c) => h("tr", {class: c.chosen ? "edge-chosen" : "", id: c.chosen ? "edge-chosen" : null},
        h("td", {}, c.payout), h("td", {}, yes(c.house_exact_beats_player_exact)), h("td", {}, yes(c.house_needs_under)),
        h("td", {}, c.max_added_bonus === null ? "none" : `+${c.max_added_bonus}`),
        c.edges.map((e, k) => h("td", {title: c.edges_exact[k]}, pct(e))),
        h("td", {title: c.table_edge_exact}, h("strong", {}, pct(c.table_edge))))))));
}

/** The "House edge" fieldset; `applyRules(rules)` puts the chosen rules into the form. */
export function edgePanel(edge, applyRules, render) {
  const result = edge.result;
  const chosen = result && result.chosen;
  return h("fieldset", {class: "edge-panel", id: "edge-panel"}, h("legend", {}, "House edge"),
    h("p", {class: "muted small"}, "Under the rules as written a perfect player beats the house. Choose the edge the house should keep: every exact-hit payout, tie rule, strict “under” and bonus cap is tried against perfect players with the table's bonuses, and the closest is used for this table."),
    h("div", {class: "grid-2"},
      h("label", {}, "Target house edge (%)", h("input", {id: "edge-target", type: "number", step: "0.1", value: edge.target,
        "aria-invalid": edge.error ? "true" : "false", "aria-describedby": edge.error ? "edge-error" : null,
        oninput: (e) => { edge.target = e.target.value; }})),
      h("fieldset", {class: "edge-bonuses"}, h("legend", {}, "Bonuses added at this table"),
        BONUSES.map((b) => h("label", {class: "check"}, h("input", {id: `edge-bonus-${b}`, type: "checkbox", checked: edge.bonuses[b],
          onchange: (e) => { edge.bonuses[b] = e.target.checked; }}), ` +${b}${b === 0 ? " (not proficient)" : ` (PB ${2 * b - 1 > 1 ? `${2 * b - 1}-${2 * b}` : "2"})`}`)))),
    h("button", {class: "btn", id: "edge-find", type: "button", disabled: edge.busy,
      onclick: () => find(edge, applyRules, render)}, edge.busy ? "Working out the edges…" : "Find the rules"),
    edge.error ? h("p", {class: "field-error", id: "edge-error", role: "alert"}, edge.error) : null,
    edge.busy ? h("p", {class: "muted small", id: "edge-progress", role: "status"},
      `Working out the exact edge of every candidate rule set… ${Math.round((Date.now() - edge.started) / 1000)} s `
      + "(the first time on a new server takes several seconds).") : null,
    // The exact fractions can run to dozens of digits: they sit in titles, not in the text.
    chosen ? h("p", {class: "edge-summary", id: "edge-summary", role: "status", "data-exact": chosen.table_edge_exact},
      h("strong", {}, "Chosen: "), describe(chosen), " — table edge ",
      h("span", {title: `exactly ${chosen.table_edge_exact} per gp bet`}, pct(chosen.table_edge)), " (",
      result.bonuses.map((b, k) => `${k ? ", " : ""}+${b}: ${pct(chosen.edges[k])}`), "). The rules above now play these options.") : null,
    result ? resultTable(result) : null);
}
