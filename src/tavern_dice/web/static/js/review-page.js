// The post-game review page (/review/{table_id}?game_id=G[&seat=N][&dm=1]): asks the
// server for the review with this browser's seat token (or, with dm=1, its DM key) and
// shows each decision: what the seat knew, what it did, what was best, the cost and the
// mark. The server decides who may see which seat; this page only shows the answer.

import {h, patch, store, seatTokenKey, hostTokenKey, tableIdFromPath, fmtCp, nameEl} from "./util.js";
import {diceRow} from "./dice.js";

const GAME_NAMES = {"liars-dice": "Liar's Dice", blackjack: "Dice Blackjack"};
const SYMBOLS = {inaccuracy: "?!", mistake: "?", blunder: "??"};

const root = document.getElementById("app");
const tableId = tableIdFromPath();
const params = new URLSearchParams(location.search);
const asDm = params.get("dm") === "1";

function show(...parts) {
  patch(root, h("div", {}, topbar(), h("main", {class: "review-main", id: "review"}, parts)));
}

function topbar() {
  return h("header", {class: "topbar"},
    h("a", {class: "brand", href: "/", title: "Tavern Dice — new table"}, h("span", {class: "brand-die", "aria-hidden": "true"}, "⚄"), " Tavern Dice"),
    h("div", {class: "table-title"}, h("h1", {class: "table-name"}, "Game review")),
    tableId ? h("a", {class: "btn btn-small", href: asDm ? `/host/${encodeURIComponent(tableId)}` : `/t/${encodeURIComponent(tableId)}`}, "Back to the table") : null);
}

function fail(message) {
  show(h("section", {class: "panel fatal", id: "review-error"}, h("h2", {}, "No review to show"), h("p", {}, message)));
}

const num = (x, digits) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(digits);
// A chance: "0 %" and "100 %" only when certain (then one more digit), as the terminal.
function pct(p) {
  if (p === 0 || p === 1) return `${p * 100} %`;
  const text = (p * 100).toFixed(1);
  return `${text === "0.0" || text === "100.0" ? (p * 100).toFixed(2) : text} %`;
}

// Spot-on (exactly the number claimed) is one way of being true.
function oddsText(odds, spotOn) {
  const exact = spotOn ? ` (spot-on ${pct(odds.exact)})` : "";
  return `true ${pct(odds.true)}${exact}, false ${pct(odds.false)}`;
}

function knownLiars(d, review) {
  const k = d.known;
  const names = review.players;
  const counts = k.dice_counts.map((c, s) => (c > 0 ? `${names[s]} ${c}` : null)).filter(Boolean).join(", ");
  const rules = review.rules || {};
  const lines = [h("p", {}, "Your dice ", diceRow(k.own_dice, {size: 22, sides: rules.sides || 6}), ` · ${k.dice_in_play} dice in play (${counts})`)];
  if (k.wagers.length) lines.push(h("p", {}, "Wagers this round: ", k.wagers.map((w) => `${names[w.seat]} ${w.wager}`).join(" → ")));
  const spotOn = rules.spot_on !== false;
  if (k.standing) lines.push(h("p", {}, `Standing wager ${k.standing}: ${oddsText(k.standing_odds, spotOn)}`));
  if (k.chosen_odds) lines.push(h("p", {}, `Your wager ${d.chosen.text}: ${oddsText(k.chosen_odds, spotOn)}`));
  return lines;
}

function knownBlackjack(d) {
  const k = d.known;
  const house = k.house_bust ? "the house busted" : `house roll ${k.house}`;
  return [h("p", {}, `Target ${k.target}, ${house} · your total ${k.total} (bet ${fmtCp(k.bet_cp)}`
    + (k.bonus_cap ? `; bonus up to +${k.bonus_cap}` : "") + `) · the next d12 busts ${pct(k.bust_chance)}`)];
}

function decisionCard(d, review, seat) {
  const unit = review.thresholds.unit;
  const digits = review.game === "blackjack" ? 3 : 2;
  const kind = d.kind === "turn" ? "your turn" : d.kind;
  const verdict = [h("span", {}, "You: ", h("strong", {}, d.chosen.text), ` (${num(d.chosen.value, digits)})`)];
  if (d.forced) verdict.push(h("span", {class: "muted"}, "the only legal action"));
  else if (d.cost <= 0) verdict.push(h("span", {class: "best-tag"}, "✓ best"));
  else {
    verdict.push(h("span", {}, "Best: ", h("strong", {}, d.best.text), ` (${num(d.best.value, digits)})`));
    verdict.push(h("span", {class: "decision-cost"}, `cost ${d.cost.toFixed(digits)} ${unit}`));
  }
  if (d.mark) verdict.push(h("span", {class: `mark mark-${d.mark}`}, `${SYMBOLS[d.mark]} ${d.mark}`));
  return h("li", {class: `decision${d.mark ? " decision-" + d.mark : ""}`, "data-mark": d.mark || "", "data-key": `d${seat.seat}-${d.number}`},
    h("h3", {}, `#${d.number} · round ${d.round} · ${kind}`),
    review.game === "liars-dice" ? knownLiars(d, review) : knownBlackjack(d),
    h("p", {class: "decision-verdict"}, verdict),
    d.note ? h("p", {class: "decision-note"}, d.note) : null);
}

function seatPanel(seat, review) {
  const s = seat.summary;
  const marks = ["inaccuracy", "mistake", "blunder"].map((m) => `${s[m]} ${m === "inaccuracy" ? (s[m] === 1 ? "inaccuracy" : "inaccuracies") : m + (s[m] === 1 ? "" : "s")}`).join(", ");
  // Out-of-turn passes with no mark are counted, not listed: after every wager each
  // player but the next one could have called it.
  const quiet = seat.decisions.filter((d) => d.kind === "out-of-turn pass" && !d.mark);
  const shown = seat.decisions.filter((d) => !(d.kind === "out-of-turn pass" && !d.mark));
  return h("section", {class: "panel review-seat", id: `seat-${seat.seat}`, "aria-labelledby": `seat-${seat.seat}-heading`, "data-seat": seat.seat},
    h("h2", {id: `seat-${seat.seat}-heading`}, nameEl(seat.name), ` — seat ${seat.seat + 1}`),
    h("p", {class: "muted"}, seat.result),
    h("p", {class: "review-summary"}, `${s.decisions} ${s.decisions === 1 ? "decision" : "decisions"}: ${marks}; cost ${s.total_cost.toFixed(2)} ${review.thresholds.unit} in all.`),
    quiet.length ? h("p", {class: "muted small"}, `${quiet.length} out-of-turn ${quiet.length === 1 ? "pass" : "passes"} with no mark not listed.`) : null,
    shown.length ? h("ol", {class: "review-list"}, shown.map((d) => decisionCard(d, review, seat))) : h("p", {class: "muted"}, "No decisions to review."));
}

function render(review) {
  const t = review.thresholds;
  const marks = ["inaccuracy", "mistake", "blunder"].map((m) => `${m} ${SYMBOLS[m]} from ${t[m].toFixed(2)}`).join(", ");
  show(
    h("section", {class: "panel review-how"},
      h("h2", {}, `${GAME_NAMES[review.game] || review.game} · ${review.rounds} ${review.rounds === 1 ? "round" : "rounds"}`),
      h("p", {}, h("strong", {}, "Values: "), review.values, "."),
      h("p", {id: "review-thresholds"}, h("strong", {}, "Marks "), `by cost (the best action's value minus the chosen one's): ${marks} ${t.unit}.`),
      review.role === "host" && review.seats.length > 1 ? h("nav", {class: "review-seat-nav", "aria-label": "Seats"},
        review.seats.map((s) => h("a", {class: "btn btn-small", href: `#seat-${s.seat}`}, s.name))) : null),
    review.seats.map((seat) => seatPanel(seat, review)));
  root.dataset.ready = "1";
  root.dataset.seats = review.seats.map((s) => s.seat).join(",");
}

async function start() {
  if (!tableId) { fail("No table in this address."); return; }
  const token = store.get(asDm ? hostTokenKey(tableId) : seatTokenKey(tableId));
  if (!token) {
    fail(asDm ? "This browser has no DM key for the table: open the review from the DM console."
      : "This browser has no seat at this table: a review shows your own dice, so open it from the device you played on.");
    return;
  }
  const query = new URLSearchParams();
  for (const key of ["game_id", "seat"]) if (params.get(key)) query.set(key, params.get(key));
  show(h("section", {class: "panel"}, h("p", {class: "muted", role: "status"}, "Going through every decision…")));
  let response;
  try {
    response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/review?${query}`,
      {headers: {Authorization: `Bearer ${token}`}});
  } catch {
    fail("Can't reach the table's server.");
    return;
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    fail(data && typeof data.detail === "string" ? data.detail : `${response.status} ${response.statusText}`);
    return;
  }
  render(data);
}

start();
