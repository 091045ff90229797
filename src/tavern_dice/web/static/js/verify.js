// Dice anyone can verify: this browser keeps every SHA-256 commitment the server sends
// *before* a reveal, and at the reveal recomputes each digest from the revealed faces and
// salt (canonical string "{game_id}:{round}:{seat}:{faces}:{salt}", docs/web-protocol.md).
// A digest that first arrives together with its reveal is never trusted.

import {sha256HexSync} from "./sha256.js";
import {store} from "./util.js";

const SALT = /^[0-9a-f]{32}$/;

/** The string whose SHA-256 is a commitment's digest. */
export function canonical(gameId, round, seat, faces, salt) {
  return `${gameId}:${round}:${seat}:${faces.map((f) => String(f)).join(",")}:${salt}`;
}

/** Lowercase hex SHA-256, with Web Crypto where the browser offers it. */
export async function sha256Hex(text) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (subtle) {
    const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return sha256HexSync(text);
}

/** Which hash implementation this browser uses, for the badge's tooltip. */
export const hashEngine = () => (globalThis.crypto && globalThis.crypto.subtle
  ? "Web Crypto (crypto.subtle)" : "built-in SHA-256 (this page is not a secure context)");

/**
 * The commitments this browser has seen, per game and round, kept in localStorage so
 * that a reload between the commitment and the reveal still verifies.
 */
export class CommitmentBook {
  constructor(tableId) {
    this.key = `tavern:${tableId}:commitments`;
    this.data = {};
    try { this.data = JSON.parse(store.get(this.key) || "{}") || {}; } catch { this.data = {}; }
    this.results = new Map();
    this.pending = new Map();
  }

  /** Remember a `commitments` block ({round, items: [{seat, digest}]}) of game `gameId`. */
  record(gameId, block) {
    if (!gameId || !block || !Array.isArray(block.items)) return;
    const games = this.data;
    const rounds = games[gameId] || (games[gameId] = {});
    const seen = rounds[block.round] || (rounds[block.round] = {});
    let changed = false;
    for (const item of block.items) {
      // The first digest seen for a seat is the one it is held to.
      if (!(item.seat in seen)) {
        seen[item.seat] = item.digest;
        changed = true;
      }
    }
    if (changed) this.save(gameId);
  }

  save(gameId) {
    // Keep the current game and at most 40 rounds of it: enough for any reload.
    for (const id of Object.keys(this.data)) if (id !== gameId) delete this.data[id];
    const rounds = Object.keys(this.data[gameId] || {}).map(Number).sort((a, b) => a - b);
    while (rounds.length > 40) delete this.data[gameId][rounds.shift()];
    store.set(this.key, JSON.stringify(this.data));
  }

  committed(gameId, round, seat) {
    const rounds = this.data[gameId];
    return rounds && rounds[round] ? rounds[round][seat] : undefined;
  }

  /**
   * The check of a `proofs` block; `expected` maps a seat ("0", "house") to the faces the
   * game showed at the reveal. Returns the cached result, or null while the check runs
   * (`onDone` is called when it finishes).
   * Result: {status: "verified"|"mismatch"|"unverifiable", items: [...]}.
   */
  check(gameId, proofs, expected, onDone) {
    if (!proofs || !Array.isArray(proofs.items) || !proofs.items.length) return null;
    const key = `${gameId}/${proofs.round}/${JSON.stringify(proofs.items)}/${JSON.stringify(expected)}`;
    if (this.results.has(key)) return this.results.get(key);
    if (!this.pending.has(key)) {
      this.pending.set(key, this.run(gameId, proofs, expected).then((result) => {
        this.results.set(key, result);
        this.pending.delete(key);
        if (onDone) onDone(result);
      }));
    }
    return null;
  }

  async run(gameId, proofs, expected) {
    const items = [];
    for (const proof of proofs.items) {
      const text = canonical(gameId, proofs.round, proof.seat, proof.faces, proof.salt);
      const computed = SALT.test(proof.salt) ? await sha256Hex(text) : null;
      const committed = this.committed(gameId, proofs.round, proof.seat);
      const want = expected ? expected[proof.seat] : undefined;
      const facesMatch = want === undefined || JSON.stringify(want) === JSON.stringify(proof.faces);
      let status;
      let why;
      if (committed === undefined) {
        status = "unverifiable";
        why = "this browser did not see the commitment before the reveal";
      } else if (computed === null) {
        status = "mismatch";
        why = "the salt is not 32 lowercase hex digits";
      } else if (computed !== committed) {
        status = "mismatch";
        why = "the revealed dice do not hash to the digest published before the round";
      } else if (!facesMatch) {
        status = "mismatch";
        why = "the committed dice differ from the dice shown at the reveal";
      } else {
        status = "verified";
        why = "SHA-256 of the revealed dice and salt equals the digest published before the round";
      }
      items.push({seat: proof.seat, faces: proof.faces, salt: proof.salt, canonical: text,
        committed: committed || null, computed, status, why});
    }
    const statuses = new Set(items.map((i) => i.status));
    const status = statuses.has("mismatch") ? "mismatch"
      : statuses.has("unverifiable") ? "unverifiable" : "verified";
    return {round: proofs.round, status, items};
  }
}
