// Dice drawn as SVG: a d6 shows its pips, other dice show their number inside the
// die's outline (d12 a pentagon, d20 a triangle), and a hidden die shows a "?".

import {h} from "./util.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[26, 26], [50, 50], [74, 74]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[26, 26], [74, 26], [50, 50], [26, 74], [74, 74]],
  6: [[28, 24], [72, 24], [28, 50], [72, 50], [28, 76], [72, 76]],
};

const FACE_NAMES = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"};

/** Spoken name of a face: "one"... for a d6, the number otherwise. */
export function faceName(face) {
  return FACE_NAMES[face] || String(face);
}

/** Plural name of a face as the engine words it: "ones", "twos", ..., "sixes". */
export function facePlural(face, quantity = 2) {
  const name = FACE_NAMES[face];
  if (!name) return `${face}s`;
  if (quantity === 1) return name;
  return name === "six" ? "sixes" : name + "s";
}

function outline(sides) {
  if (sides === 20) return h("polygon", {class: "die-body", points: "50,4 96,88 4,88"});
  if (sides === 12) return h("polygon", {class: "die-body", points: "50,4 96,38 78,94 22,94 4,38"});
  if (sides === 8) return h("polygon", {class: "die-body", points: "50,3 97,50 50,97 3,50"});
  if (sides === 4) return h("polygon", {class: "die-body", points: "50,6 95,90 5,90"});
  if (sides === 10) return h("polygon", {class: "die-body", points: "50,3 95,45 50,97 5,45"});
  return h("rect", {class: "die-body", x: 4, y: 4, width: 92, height: 92, rx: 18, ry: 18});
}

/**
 * One die as an <svg>. `face` null draws a hidden die.
 * opts: {sides, size (px), cls (extra classes), label (accessible name), decorative (no
 * name of its own: the row or the text beside it says what it shows)}.
 */
export function die(face, opts = {}) {
  const sides = opts.sides || 6;
  const hidden = face === null || face === undefined;
  const classes = ["die", `d${sides}`, hidden ? "die-hidden" : `face-${face}`];
  if (opts.cls) classes.push(opts.cls);
  const label = opts.label || (hidden ? "hidden die" : `a ${faceName(face)}`);
  const parts = opts.decorative ? [outline(sides)] : [h("title", {}, label), outline(sides)];
  if (hidden) {
    parts.push(h("text", {class: "die-num", x: 50, y: sides === 20 ? 72 : 66, "text-anchor": "middle"}, "?"));
  } else if (sides === 6 && PIPS[face]) {
    for (const [cx, cy] of PIPS[face]) parts.push(h("circle", {class: "pip", cx, cy, r: 9}));
  } else {
    const y = sides === 20 || sides === 4 ? 72 : 64;
    const small = face >= 10 ? " die-num-small" : "";
    parts.push(h("text", {class: "die-num" + small, x: 50, y, "text-anchor": "middle"}, String(face)));
  }
  const size = opts.size || 40;
  const named = opts.decorative ? {"aria-hidden": "true"} : {role: "img", "aria-label": label};
  return h("svg", {
    class: classes.join(" "), viewBox: "0 0 100 100", width: size, height: size,
    ...named, "data-face": hidden ? "" : String(face),
  }, parts);
}

/** What a row of dice shows, in words: "5 hidden dice", "dice showing 3, 1, 6". */
export function diceWords(faces) {
  const hidden = faces.filter((f) => f === null || f === undefined).length;
  if (hidden === faces.length) return `${hidden} hidden ${hidden === 1 ? "die" : "dice"}`;
  const shown = faces.filter((f) => f !== null && f !== undefined);
  return `${shown.length === 1 ? "a die showing" : "dice showing"} ${shown.join(", ")}`;
}

/**
 * A row of dice, read by a screen reader once, as a whole ("5 hidden dice"), not die by
 * die. opts as for die(), plus label (the row's accessible name) and clsFor(face, i).
 */
export function diceRow(faces, opts = {}) {
  const label = opts.label || diceWords(faces);
  return h("span", {class: "dice-row " + (opts.rowCls || ""), role: "img", "aria-label": label},
    faces.map((f, i) => die(f, {...opts, label: undefined, decorative: true,
      cls: opts.clsFor ? opts.clsFor(f, i) : opts.cls})));
}
