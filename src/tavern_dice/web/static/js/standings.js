// A finished Liar's Dice game's final standings at a rated table (the table option
// "rated"): the finishing order, each person's table rating after the game with its
// change ("1532 (+32)"), and each rated level's rating; or why the game was not rated.

import {h, nameEl} from "./util.js";

/** "+32", "−8", "±0": a rating's change as chess sites show it. */
export function changeText(change) {
  return change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
}

/** "1532 (+32)". */
export function ratingText(row) {
  return `${row.rating} (${changeText(row.change)})`;
}

/** The final standings panel, or null (the table is not rated, or the game is not over). */
export function standingsPanel(app, g) {
  const r = g.ratings;
  if (!r) return null;
  if (!r.rated) {
    return h("section", {class: "standings", id: "standings", "data-key": "standings"},
      h("h2", {}, "Final standings"), h("p", {class: "muted", id: "not-rated"}, `This game was ${r.why}.`));
  }
  const me = app.state.you.seat;
  const rows = r.standings.map((row) => h("li", {class: "standings-row" + (row.seat === me ? " standings-me" : ""),
    "data-seat": row.seat, "data-place": row.place},
  h("span", {class: "standings-place"}, `${row.place}.`),
  nameEl(app.nameOf(row.seat), "standings-name"),
  row.change === null
    ? h("span", {class: "standings-rating muted", title: `${row.level}: a rated level, its rating held fixed`}, row.rating === null ? "" : `level ${row.rating}`)
    : h("span", {class: `standings-rating ${row.change > 0 ? "up" : row.change < 0 ? "down" : ""}`.trim(),
      "data-rating": row.rating, "data-change": row.change, title: `table rating: was ${row.rating_before}`}, ratingText(row))));
  return h("section", {class: "standings", id: "standings", "data-key": "standings"},
    h("h2", {}, "Final standings"),
    h("ol", {class: "standings-list"}, rows),
    h("p", {class: "muted small"}, "Ratings for this table's games: everyone starts at 1500; the levels' ratings stay as measured."));
}
