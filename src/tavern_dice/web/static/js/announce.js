// What the page says aloud (in its polite live region) when a state frame arrives: that it
// is your turn, and what a reveal showed. Each item has a key, so it is said once; the
// log itself is not a live region, so nothing is read twice.

import {claimWords} from "./eventlog.js";
import {fmtCp} from "./util.js";

// Log lines worth saying as they happen, by game: the reveal and who lost, who is out,
// who won, and at Liar's Dice every other player's wager (anyone may call "Liar!" out of
// turn, so a raise matters before one's own turn); in Dice Blackjack the house's dice and
// your own settlement.
const SAID = {
  "liars-dice": (line) => ["reveal", "out", "win"].includes(line.kind)
    || (line.kind === "wager" && !/^You\b/.test(line.text)),
  blackjack: (line) => line.kind === "reveal" || /^(You|Your)\b/.test(line.text) && ["win", "out"].includes(line.kind),
};

/** "Your turn" for the viewer's seat, or null. */
function turnText(app, g) {
  const v = g.view;
  const me = app.state.you.seat;
  if (me === null || me === undefined || g.status !== "playing") return null;
  if (g.game === "liars-dice") {
    if (v.phase !== "bidding" || v.turn !== me) return null;
    if (!v.wager) return `Your turn: open the bidding of round ${v.round}.`;
    // The highest wager there is leaves only the call, and that turn is said too.
    if (!v.legal_wagers.length) return `Your turn: ${app.nameOf(v.wager_maker)}'s wager of ${claimWords(v.wager)} cannot be raised; call Liar.`;
    return `Your turn: raise ${app.nameOf(v.wager_maker)}'s wager of ${claimWords(v.wager)}, or call Liar.`;
  }
  if (v.legal_actions.includes("bet")) {
    const [low, high] = v.bet_limits;
    return `Your turn: place your bet, ${fmtCp(low)} to ${fmtCp(high)}, or sit out.`;
  }
  if (v.legal_actions.includes("roll")) {
    return `Your turn: your total is ${v.totals[String(me)]} against a target of ${v.target}. Roll again or stand.`;
  }
  return null;
}

/** [[key, text], ...]: what is new in `frame` for this viewer, oldest first. */
export function announcements(app, frame) {
  const g = frame.game;
  if (!g) return [];
  const said = SAID[g.game] || (() => false);
  const turn = turnText(app, g);
  // On one's own turn the turn's text names the wager to raise: the wager's own line is
  // kept silent (an empty text), yet counted as said, so it is never said late.
  const out = app.logLines().filter(said)
    .map((line) => [`${g.game_id}/line/${line.index}`, turn && line.kind === "wager" ? "" : line.text]);
  if (turn) out.push([`${g.game_id}/turn/${app.events.length}`, turn]);
  return out;
}
