// Shared pieces of the table board: where seats sit round the felt, the presence badge,
// the turn timer and the verification badge.

import {h} from "./util.js";

/**
 * Seat positions (percent of the felt) round an ellipse, the viewer's seat at the bottom.
 * `arc`: "full" (Liar's Dice, everyone round the table) or "lower" (Blackjack: the house
 * sits at the top, players along the near side).
 */
export function seatPositions(n, mySeat, arc = "full") {
  const out = [];
  for (let i = 0; i < n; i++) {
    let deg;
    if (arc === "full") {
      const rel = ((i - (mySeat ?? 0)) % n + n) % n;
      deg = 90 + rel * (360 / n);
    } else {
      // Few players sit near the middle of the near side; more spread out to the ends.
      const span = n === 1 ? 0 : Math.min(150, 56 * (n - 1));
      deg = n === 1 ? 90 : 90 + span / 2 - i * (span / (n - 1));
    }
    const rad = (deg * Math.PI) / 180;
    const rx = arc === "full" ? 41 : 44;
    const ry = arc === "full" ? 39 : 36;
    out.push({left: 50 + rx * Math.cos(rad), top: (arc === "full" ? 50 : 46) + ry * Math.sin(rad)});
  }
  return out;
}

const PRESENCE = {
  online: ["online", "Online"],
  away: ["away", "Away — disconnected"],
  covered: ["covered", "Away — a stand-in bot is playing"],
  bot: ["bot", "Bot"],
};

/** A small badge saying whether a seat's person is here. */
export function presenceBadge(presence, botKind) {
  const [cls, title] = PRESENCE[presence] || ["away", presence];
  const text = presence === "bot" ? (botKind ? `bot · ${botKind}` : "bot")
    : presence === "covered" ? "away · bot covering" : presence;
  return h("span", {class: `presence presence-${cls}`, title, "data-presence": presence}, text);
}

/**
 * The mark on a seat whose bot is taking its time: drawn over the card's top edge, so
 * that it moves nothing when it comes and goes (the seat card says aria-busy too).
 */
export function thinkingMark(thinking) {
  if (!thinking) return null;
  return h("span", {class: "thinking-mark", "data-thinking": "true"},
    h("span", {class: "thinking-dots", "aria-hidden": "true"}, h("span", {}), h("span", {}), h("span", {})),
    "thinking…");
}

/** "◷ 12 s" for a running turn timer. */
export function timerChip(seconds) {
  if (seconds === null || seconds === undefined) return null;
  return h("span", {class: "timer-chip" + (seconds <= 5 ? " timer-low" : ""), role: "timer"}, `◷ ${seconds} s`);
}

const BADGE = {
  verified: ["verified ✓", "badge-ok"],
  mismatch: ["mismatch ✗", "badge-bad"],
  unverifiable: ["not verifiable", "badge-na"],
};

/** The commitment check's badge; `result` null while the hashes are being computed. */
export function verifyBadge(result, engine) {
  if (!result) return h("span", {class: "verify-badge badge-wait"}, "checking…");
  const [text, cls] = BADGE[result.status];
  const title = result.status === "verified"
    ? `Every revealed hand hashes (SHA-256, ${engine}) to the commitment published before the round.`
    : result.items.filter((i) => i.status !== "verified").map((i) => `seat ${i.seat}: ${i.why}`).join("; ");
  return h("span", {class: `verify-badge ${cls}`, title, "data-verify": result.status}, text);
}

/** The details under a badge: each canonical string and its digests. */
export function verifyDetails(result, nameOf) {
  if (!result) return null;
  return h("details", {class: "verify-details"},
    h("summary", {}, "How this was checked"),
    h("p", {}, "Before the dice were rolled into play, the server published a SHA-256 digest of each hand. "
      + "Now it revealed the faces and a random salt; this browser hashed them itself:"),
    h("ul", {}, result.items.map((item) => h("li", {class: `proof proof-${item.status}`},
      h("strong", {}, nameOf(item.seat)), " ",
      h("code", {class: "canon"}, item.canonical),
      h("br"),
      "published ", h("code", {}, item.committed ? item.committed.slice(0, 16) + "…" : "never seen"),
      " · computed ", h("code", {}, item.computed ? item.computed.slice(0, 16) + "…" : "—"),
      " ", item.status === "verified" ? "✓" : "✗"))));
}

/** Short form of a digest for display. */
export const shortDigest = (digest) => (digest ? `${digest.slice(0, 10)}…` : "");
