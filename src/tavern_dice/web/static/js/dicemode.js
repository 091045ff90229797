// The table option dice_mode in words, one text per game, so that the two games' physical
// dice read alike everywhere: on the create page, in the DM's options and at the table.

export const DICE_MODES = {
  "liars-dice": {
    digital: "digital — the server rolls (every hand sealed before the bidding)",
    manual: "manual — each player rolls real dice in their cup and types them in",
  },
  blackjack: {
    digital: "digital — the server rolls (house dice sealed in advance)",
    manual: "manual — the DM rolls real dice and types them in",
  },
};

/** The sentence under "Dice anyone can verify" for a table's dice mode. */
export function diceModeNote(game, mode) {
  if (game === "liars-dice") {
    return mode === "manual"
      ? "Manual dice: each player rolls real dice in their cup and types them in; each hand is sealed with a SHA-256 commitment as soon as it is typed, and at the reveal this browser re-hashes the dice and compares."
      : "Digital dice: each hand is sealed with a SHA-256 commitment before anyone wagers; at the reveal this browser re-hashes the dice and compares.";
  }
  return mode === "manual"
    ? "Manual dice: the DM rolls real dice at the table and types them in; nothing is sealed."
    : "Digital dice: the house's target and d20s are rolled and sealed with a SHA-256 commitment before anyone bets; when the house rolls, this browser re-hashes them and compares.";
}
