// Liar's Dice at the table: seats round the felt with their dice counts, the standing
// wager in the middle, your own dice in your tray, a picker that offers only the legal
// wagers (the lowest legal raise preselected), the "Liar!" button, and the last reveal
// with every hand shown, the matching dice highlighted and the commitments checked.
// With physical dice (dice_mode "manual") each player types the faces in their cup, and
// answers at each reveal whether their cup shows what was revealed for them.

import {h, nameEl, plural} from "./util.js";
import {die, diceRow, facePlural} from "./dice.js";
import {claimWords, namesText, parseWager, wagerWords, wagerCodeOf} from "./eventlog.js";
import {presenceBadge, seatPositions, shortDigest, thinkingMark, timerChip, verifyBadge, verifyDetails} from "./board.js";
import {hashEngine} from "./verify.js";
import {diceModeNote} from "./dicemode.js";
import {standingsPanel} from "./standings.js";

/** Where the page is one column (as in tavern.css). */
const NARROW = "(max-width: 700px)";

/** The main column for a Liar's Dice game. */
export function renderLiars(app) {
  const g = app.state.game;
  const v = g.view;
  const me = app.state.you.seat;
  // A fresh reveal (no wager yet in the new round) goes right under the table, where
  // everyone is looking; once bidding has moved on it stays below, for reference. On a
  // phone it is always below your move (still on the first screen): moving it there and
  // back would move your dice and your move each time.
  const fresh = v.last_reveal && !v.wager && v.phase !== "over" && !matchMedia(NARROW).matches;
  const reveal = revealPanel(app, g, v);
  return [
    h("div", {class: "board board-liars"}, felt(app, g, v, me)),
    standingsPanel(app, g),
    fresh ? reveal : null,
    tray(app, v, me),
    actions(app, g, v, me),
    fresh ? null : reveal,
  ];
}

function felt(app, g, v, me) {
  const n = g.seats.length;
  const positions = seatPositions(n, me, "full");
  const seats = g.seats.map((seat, i) => seatCard(app, g, v, i, positions[i], me));
  return h("div", {class: "felt felt-oval"}, seats, centre(app, g, v));
}

function seatCard(app, g, v, i, pos, me) {
  const seat = g.seats[i];
  const count = v.dice_counts[i];
  const out = count === 0 && v.phase !== "roll-off";
  const classes = ["seat"];
  if (v.turn === i && v.phase === "bidding") classes.push("seat-turn");
  if (i === me) classes.push("seat-me");
  if (out) classes.push("seat-out");
  if (v.winner === i) classes.push("seat-winner");
  if (v.wager_maker === i) classes.push("seat-wagered");
  const thinking = app.isThinking(i);
  if (thinking) classes.push("seat-thinking");
  const sides = v.rules.sides;
  const dice = i === me && v.own_dice.length
    ? diceRow(v.own_dice, {sides, size: 22, label: `your dice: ${v.own_dice.join(", ")}`})
    : diceRow(Array(count).fill(null), {sides, size: 20});
  const left = app.timerLeft(i);
  // After the last reveal the winner's dice are never rolled again: no hidden dice then.
  const over = v.phase === "over" || g.status === "over" || g.status === "ended";
  return h("div", {
    class: classes.join(" "), style: `left:${pos.left.toFixed(2)}%;top:${pos.top.toFixed(2)}%`,
    "data-seat": i, "data-key": `seat-${i}`, "data-dice": count, "aria-busy": thinking ? "true" : null,
  },
  h("div", {class: "seat-head"},
    h("span", {class: "seat-name", title: seat.name}, seat.name, i === me ? h("span", {class: "you-tag"}, " (you)") : null),
    presenceBadge(seat.presence)),
  out || over ? h("div", {class: "seat-status"}, v.winner === i ? "★ winner" : out ? "out" : plural(count, "die", "dice") + " left")
    : h("div", {class: "seat-dice", title: plural(count, "die", "dice")}, dice),
  h("div", {class: "seat-foot"},
    v.winner === i ? h("span", {class: "tag tag-win"}, "★ winner") : null,
    v.turn === i && v.phase === "bidding" ? h("span", {class: "tag tag-turn"}, "to act") : null,
    v.wager_maker === i && v.wager ? h("span", {class: "tag tag-wager"}, wagerShort(v.wager)) : null,
    serverRolled(g, i, v.round) && !over ? h("span", {class: "tag", "data-rolled": "server"}, "server's dice") : null,
    timerChip(left)),
  thinkingMark(thinking));
}

function wagerShort(code) {
  const w = parseWager(code);
  if (!w) return code;
  return w.total !== undefined ? `sum ≥ ${w.total}` : `${w.quantity} × ${w.face}`;
}

function centre(app, g, v) {
  const names = g.seats.map((s) => s.name);
  const sides = v.rules.sides;
  let body;
  if (v.phase === "over") {
    body = [h("div", {class: "centre-title", "aria-hidden": "true"}, "★"),
      h("div", {class: "centre-big"}, nameEl(app.nameOf(v.winner)), ` ${v.winner === app.state.you.seat ? "win" : "wins"}!`),
      h("div", {class: "centre-sub"}, g.status === "ended" ? "The DM ended the game." : "Last player with dice.")];
  } else if (g.status === "ended") {
    body = [h("div", {class: "centre-big"}, "Game ended"), h("div", {class: "centre-sub"}, "The DM ended this game.")];
  } else if (v.wager) {
    const w = parseWager(v.wager);
    // The picture repeats the words under it: hidden from screen readers.
    const pic = w.total !== undefined
      ? h("div", {class: "wager-pic", "aria-hidden": "true"}, die(null, {sides, size: 46, decorative: true}), h("span", {class: "wager-plus"}, "+"),
        die(null, {sides, size: 46, decorative: true}), h("span", {class: "wager-x"}, `≥ ${w.total}`))
      : h("div", {class: "wager-pic", "aria-hidden": "true"}, h("span", {class: "wager-q"}, String(w.quantity)), h("span", {class: "wager-x"}, "×"),
        die(w.face, {sides, size: 54, decorative: true}));
    body = [h("div", {class: "centre-label"}, v.sum_wagers ? "Standing wager — sum of both dice" : "Standing wager"),
      pic,
      h("div", {class: "centre-sub", id: "wager-text"}, `${claimWords(v.wager)} — by `, nameEl(names[v.wager_maker]))];
  } else {
    const starter = v.turn ?? v.starter;
    const typing = typingRound(g);
    body = [h("div", {class: "centre-label"}, `Round ${v.round}`),
      h("div", {class: "centre-big"}, typing ? (typing.waiting.includes(app.state.you.seat)
        ? "Roll your dice in your cup" : "The players roll their dice in their cups") : starter === null ? "Rolling…" : [nameEl(app.nameOf(starter)), ` ${starter === app.state.you.seat ? "open" : "opens"} the bidding`]),
      v.sum_wagers ? h("div", {class: "centre-sub endgame"}, "Endgame: two dice left — wager on their sum") : null];
  }
  // The words are keyed by what they say: a new wager is new words, not the old ones
  // moved (a centred line moves with every name's width).
  const key = v.phase === "over" ? "over" : g.status === "ended" ? "ended" : v.wager ? `wager-${v.round}-${v.wager}-${v.wager_maker}`
    : `round-${v.round}-${v.turn ?? v.starter}-${typingRound(g) ? "typing" : ""}`;
  return h("div", {class: "felt-centre"}, h("div", {class: "centre-body", "data-key": key}, body),
    h("div", {class: "centre-foot"}, `Round ${v.round} · ${plural(v.dice_in_play, "die", "dice")} in play`,
      v.sum_wagers ? h("span", {class: "tag tag-endgame"}, "sum endgame") : null));
}

function tray(app, v, me) {
  if (me === null || me === undefined || v.phase === "over") return null;
  const faces = v.own_dice;
  const typing = typingRound(app.state.game);
  if (typing && !faces.length && typing.entered.includes(me)) {
    // What this browser typed (the server never sends a hand back before the roll).
    const typed = app.ui.typedRound === typing.round ? app.ui.typedFaces : null;
    return h("div", {class: "tray", "data-key": "tray"}, h("span", {class: "tray-label"}, "Your dice"),
      typed ? diceRow(typed, {sides: v.rules.sides, size: 52, rowCls: "own-dice", label: `your dice: ${typed.join(", ")}`}) : null,
      h("span", {class: "tray-note", id: "dice-sealed"}, "sealed ✓"));
  }
  if (faces.length && serverRolled(app.state.game, me, v.round)) {
    // Not her cup's dice: she was away when the round was rolled, and the server rolled.
    return h("div", {class: "tray tray-server", id: "server-rolled", "data-key": "tray"},
      h("span", {class: "tray-label"}, "The server's dice for you"),
      diceRow(faces, {sides: v.rules.sides, size: 52, rowCls: "own-dice", label: `the server's dice for you: ${faces.join(", ")}`}),
      h("span", {class: "tray-note"}, `${capital(serverRollText(serverRolled(app.state.game, me, v.round), null))}: these are not your cup's dice.`));
  }
  return h("div", {class: "tray", "data-key": "tray"},
    h("span", {class: "tray-label"}, "Your dice"),
    faces.length ? diceRow(faces, {sides: v.rules.sides, size: 52, rowCls: "own-dice", label: `your dice: ${faces.join(", ")}`})
      : h("span", {class: "muted"}, v.dice_counts[me] === 0 ? "You are out of this game — watch the rest." : "…"),
    v.sum_wagers && faces.length ? h("span", {class: "tray-note"}, `your die: ${faces[0]}`) : null);
}

/** The legal wagers as {quantity, face} (or {total}) objects, in the engine's order. */
function legalSet(v) {
  return v.legal_wagers.map((code) => ({code, ...parseWager(code)}));
}

function actions(app, g, v, me) {
  const paused = g.status === "paused";
  if (g.status === "over" || g.status === "ended" || v.phase === "over") return null;
  const myTurn = me !== null && me !== undefined && v.turn === me && v.phase === "bidding";
  const parts = [];
  if (paused) parts.push(h("p", {class: "action-note"}, "‖ The DM has paused the game."));
  const typing = typingRound(g);
  if (typing) {
    if (typing.waiting.includes(me)) parts.push(diceForm(app, v, me, typing, paused));
    if (app.mode === "host" && typing.waiting.length) {
      // A player who never types would hold the table: the DM has the server roll for them.
      parts.push(h("p", {class: "action-note", id: "roll-for"}, "Still to type: ",
        typing.waiting.map((s) => h("button", {class: "btn btn-small", "data-seat": s, disabled: paused,
          onclick: () => app.act({type: "roll_for", seat: s}, {focus: "#actions"})}, `Roll for ${app.nameOf(s)}`))));
    }
    if (typing.waiting.length && !(typing.waiting.length === 1 && typing.waiting[0] === me)) {
      const others = typing.waiting.filter((s) => s !== me);
      parts.push(h("p", {class: "action-note", id: "dice-waiting"}, h("span", {}, "Waiting for ",
        others.map((s, k) => [k ? ", " : "", nameEl(app.nameOf(s))]), " to type their dice…")));
    }
  } else if (myTurn && v.legal_wagers.length) {
    parts.push(picker(app, v, paused));
  } else if (myTurn) {
    // Nothing tops the wager standing (the highest there is): the call is the only move.
    parts.push(h("p", {class: "action-note", id: "no-raise"}, "No wager tops this one: call Liar."));
  } else if (me !== null && me !== undefined && v.dice_counts[me] > 0 && v.phase === "bidding") {
    parts.push(h("p", {class: "action-note", "data-key": `turn-${v.turn}`}, h("span", {}, "Waiting for ", nameEl(app.nameOf(v.turn)), ` to ${v.wager ? "raise or call" : "open the bidding"}…`)));
  } else if (me === null || me === undefined) {
    parts.push(h("p", {class: "action-note", "data-key": `turn-${v.turn}`}, v.phase === "bidding" ? h("span", {}, nameEl(app.nameOf(v.turn)), " to act.") : "Rolling…"));
  } else if (v.dice_counts[me] === 0) {
    parts.push(h("p", {class: "action-note"}, h("span", {}, "You are out of this game. ", nameEl(app.nameOf(v.turn)), " to act.")));
  }
  if (v.may_accuse) {
    // The call names the wager it is for: a call that arrives after another player's
    // (or after a raise) is refused with the reason instead of landing on a new wager.
    parts.push(h("div", {class: "accuse-row"},
      h("span", {}, nameEl(app.nameOf(v.wager_maker)), ` ${v.wager_maker === me ? "say" : "says"} ${claimWords(v.wager)}.`),
      h("button", {class: "btn btn-liar", id: "liar-btn", disabled: paused,
        onclick: () => app.act({type: "accuse", round: v.round, wager: v.wager}, {focus: "#reveal-heading"})}, "Liar!")));
  }
  const left = myTurn ? app.timerLeft(me) : null;
  if (left !== null) parts.unshift(h("p", {class: "action-note"}, timerChip(left), h("span", {}, "left to act, or a stand-in plays this move for you.")));
  // The actions area keeps the keyboard's place while its buttons come and go.
  // A player in the round: the area is as tall on others' turns as on theirs (CSS).
  const playing = me !== null && me !== undefined && v.dice_counts[me] > 0;
  return h("section", {class: "actions" + (playing ? " actions-playing" : ""), id: "actions", "data-key": "actions",
    tabindex: "-1", "aria-label": "Your move"}, parts);
}

/** The round whose physical dice are being typed in, or null. */
function typingRound(g) {
  const p = g && g.pending_roll;
  return p && p.purpose === "round" ? p : null;
}

/** Type the faces in your cup: one box per die, sealed when sent. */
function diceForm(app, v, me, typing, paused) {
  const ui = app.ui;
  const n = v.dice_counts[me];
  const sides = typing.sides;
  if (ui.diceRound !== typing.round) { ui.diceRound = typing.round; ui.dice = []; }
  const faces = Array.from({length: n}, (_, k) => Number(ui.dice[k]));
  const ok = faces.every((f, k) => ui.dice[k] !== undefined && ui.dice[k] !== "" && Number.isInteger(f) && f >= 1 && f <= sides);
  const send = () => app.act({type: "dice", faces}, {focus: "#actions"}).then(() => {
    ui.typedRound = typing.round; ui.typedFaces = faces; ui.dice = []; app.render();
  }, () => {});
  // A box holding something no d{sides} shows says so, next to it (not just a grey button).
  const bad = Array.from({length: n}, (_, k) => {
    const raw = ui.dice[k];
    return raw !== undefined && raw !== "" && !(Number.isInteger(Number(raw)) && Number(raw) >= 1 && Number(raw) <= sides);
  });
  const problem = bad.some(Boolean)
    ? `A d${sides} shows a whole number from 1 to ${sides}: check die ${bad.map((b, k) => (b ? k + 1 : 0)).filter(Boolean).join(" and ")}.`
    : null;
  return h("div", {class: "manual-form", id: "dice-form"},
    h("p", {class: "action-note"}, `Roll your ${plural(n, "die", "dice")} in your cup, then type the faces. Nobody else sees them until the reveal.`),
    Array.from({length: n}, (_, k) => h("label", {}, `Die ${k + 1} (d${sides})`,
      h("input", {id: `dice-input-${k}`, type: "number", min: 1, max: sides, value: ui.dice[k] ?? "",
        "aria-invalid": bad[k] ? "true" : "false", "aria-describedby": bad[k] ? "dice-error" : null,
        oninput: (e) => { ui.dice[k] = e.target.value; app.render(); }}))),
    problem ? h("p", {class: "field-error", id: "dice-error", role: "alert"}, problem) : null,
    h("button", {class: "btn btn-primary", id: "dice-btn", disabled: !ok || paused, onclick: send}, "Seal my dice"));
}

/** Why the server rolled ``seat``'s hand in ``round`` at a physical-dice table ("away",
 * "time", "dm"), or null if it did not. */
export function serverRolled(g, seat, round) {
  const rolled = g && g.server_rolled && g.server_rolled[String(round)];
  return (rolled && rolled[String(seat)]) || null;
}

/** What the server rolling a hand means, for its owner ("you") or for everyone else. */
export function serverRollText(why, name) {
  const you = name === null;
  if (why === "time") return you ? "your time to type your dice ran out, so the server rolled for you" : `${name}'s time to type their dice ran out: the server rolled for them`;
  if (why === "dm") return you ? "the DM had the server roll for you" : `the DM had the server roll for ${name}`;
  return you ? "the server rolled for you while you were away" : `the server rolled for ${name}, who was away`;
}

/** At a reveal with physical dice: does your cup show the faces revealed for you? */
function cupCheck(app, g, reveal, round) {
  const checks = g.dice_checks;
  if (!checks || checks.round !== round) return null;
  const me = app.state.you.seat;
  const mine = me !== null && me !== undefined && reveal.hands[me] && reveal.hands[me].length;
  const answered = checks.items.find((c) => c.seat === me);
  const answer = (match) => app.act({type: "confirm_dice", round, match}, {focus: "#reveal-heading"});
  const parts = [];
  if (mine && serverRolled(g, me, round)) {
    parts.push(h("p", {}, `${capital(serverRollText(serverRolled(g, me, round), null))} this round: nothing to confirm.`));
  } else if (mine && !answered) {
    parts.push(h("p", {}, "Does your cup show ", h("strong", {}, reveal.hands[me].join(" ")), "?"),
      h("button", {class: "btn btn-small", id: "cup-yes", onclick: () => answer(true)}, "Yes, my cup shows these"),
      " ", h("button", {class: "btn btn-small", id: "cup-no", onclick: () => answer(false)}, "No, it shows something else"));
  }
  return h("div", {class: "cup-check", id: "cup-check"}, parts);
}

function cupTag(g, seat, round) {
  if (serverRolled(g, seat, round)) return h("span", {class: "tag", "data-cup": "server"}, "server's dice");
  const checks = g.dice_checks;
  const c = checks && checks.round === round ? checks.items.find((i) => i.seat === seat) : null;
  if (!c) return null;
  return c.match ? h("span", {class: "tag tag-win", "data-cup": "match"}, "cup ✓")
    : h("span", {class: "tag tag-lose", "data-cup": "differs"}, "cup differs ✗");
}

function picker(app, v, paused) {
  const legal = legalSet(v);
  const ui = app.ui;
  // A selection survives re-renders while it is still legal; else the lowest legal raise.
  const key = v.legal_wagers.join(",");
  if (ui.wagerKey !== key || !legal.some((w) => w.code === ui.wagerCode)) {
    ui.wagerKey = key;
    ui.wagerCode = legal[0].code;
  }
  const chosen = legal.find((w) => w.code === ui.wagerCode);
  const send = () => app.act({type: "wager", wager: ui.wagerCode}, {focus: "#actions"});
  const sides = v.rules.sides;
  if (chosen.total !== undefined) {
    const totals = legal.map((w) => w.total);
    const mine = v.own_dice.length ? v.own_dice[0] : null;
    return h("div", {class: "picker picker-sum"},
      h("span", {class: "sum-pic", "aria-hidden": "true"}, die(mine, {sides, size: 34}), " + ", die(null, {sides, size: 34}), " ≥"),
      h("label", {for: "wager-sum"}, "Sum of both dice at least"),
      stepper(app, "wager-sum", totals, chosen.total, (t) => { ui.wagerCode = `sum ${t}`; }, ["lower total", "higher total"]),
      h("button", {class: "btn btn-primary", id: "wager-btn", disabled: paused, onclick: send}, `Wager sum ≥ ${chosen.total}`));
  }
  const quantities = [...new Set(legal.map((w) => w.quantity))].sort((a, b) => a - b);
  const facesFor = new Set(legal.filter((w) => w.quantity === chosen.quantity).map((w) => w.face));
  const faceButtons = [];
  for (let f = 1; f <= sides; f++) {
    const ok = facesFor.has(f);
    faceButtons.push(h("button", {
      class: "face-btn" + (f === chosen.face ? " face-chosen" : ""), disabled: !ok || paused,
      "aria-pressed": f === chosen.face ? "true" : "false", "aria-label": facePlural(f), "data-face": f,
      onclick: () => { ui.wagerCode = `${chosen.quantity}x${f}`; app.render(); },
    }, die(f, {sides, size: 34, decorative: true})));
  }
  return h("div", {class: "picker"},
    h("div", {class: "picker-row"},
      h("label", {for: "wager-qty"}, "Quantity"),
      stepper(app, "wager-qty", quantities, chosen.quantity, (q) => {
        const faces = legal.filter((w) => w.quantity === q).map((w) => w.face);
        const face = faces.includes(chosen.face) ? chosen.face : faces[0];
        ui.wagerCode = `${q}x${face}`;
      }, ["fewer dice", "more dice"])),
    h("div", {class: "picker-row"}, h("span", {class: "picker-label", id: "face-label"}, "Face"),
      h("div", {class: "faces", role: "group", "aria-labelledby": "face-label"}, faceButtons)),
    h("button", {class: "btn btn-primary", id: "wager-btn", disabled: paused, onclick: send},
      `Wager ${wagerWords(chosen.code)}`));
}

/** − [select] + over a sorted list of allowed values; `names` are the buttons' names. */
function stepper(app, id, values, current, onPick, [down, up] = ["lower", "higher"]) {
  const at = values.indexOf(current);
  const pick = (value) => { onPick(value); app.render(); };
  return h("span", {class: "stepper"},
    h("button", {class: "btn btn-step", "aria-label": down, "data-step": "down", disabled: at <= 0, onclick: () => pick(values[at - 1])}, "−"),
    h("select", {id, value: String(current), onchange: (e) => pick(Number(e.target.value))},
      values.map((q) => h("option", {value: String(q), selected: q === current}, String(q)))),
    h("button", {class: "btn btn-step", "aria-label": up, "data-step": "up", disabled: at >= values.length - 1, onclick: () => pick(values[at + 1])}, "+"));
}

/** What the log says about the latest reveal: the wager, who accused whom, who went out. */
function revealContext(events) {
  let at = -1;
  for (let i = events.length - 1; i >= 0; i--) if (events[i].type === "revealed") { at = i; break; }
  if (at < 0) return null;
  const ctx = {accuser: null, maker: null, wager: null, round: null, out: []};
  for (let i = at - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === "accused" && ctx.accuser === null) { ctx.accuser = ev.accuser; ctx.maker = ev.wager_maker; }
    if (ev.type === "wager_made" && ctx.wager === null) ctx.wager = wagerCodeOf(ev);
    if (ev.type === "round_started") { ctx.round = ev.round; break; }
  }
  for (let i = at + 1; i < events.length && events[i].type === "player_out"; i++) ctx.out.push(events[i].seat);
  return ctx;
}

/** Which revealed dice count toward the wager: the engine says so die by die
 * (reveal.counted: the face, wild dice under L6, every die of a sum), so no rule is
 * written here. (seat, i) -> the die's class. */
function matcher(reveal) {
  const counted = reveal.counted;
  if (!counted) return () => "";
  return (seat, i) => (counted[seat][i] ? "die-match" : "die-dim");
}

function revealPanel(app, g, v) {
  const reveal = v.last_reveal;
  if (!reveal) return null;
  const ctx = revealContext(app.events) || {};
  const names = g.seats.map((s) => s.name);
  const who = (s) => app.nameOf(s);
  const cls = matcher(reveal);
  const w = parseWager(ctx.wager);
  const countText = !w ? `Count: ${reveal.count}`
    : w.total !== undefined ? `The dice sum to ${reveal.count}.`
      : `There ${reveal.count === 1 ? "is" : "are"} ${reveal.count} ${facePlural(w.face, reveal.count)}${v.rules.wild_face ? ` (${facePlural(v.rules.wild_face)} wild)` : ""}.`;
  const me = app.state.you.seat;
  // After "The wager was true — ": mid-sentence, so "you", never "You".
  const losers = namesText(reveal.losers, (s) => names[s], me, true);
  const single = reveal.losers.length === 1 && reveal.losers[0] !== me;
  // "you" mid-sentence, never "You": "Everyone but you", "Cid called your wager".
  const whom = (s) => (s === me ? "you" : names[s]);
  const verdict = reveal.outcome === "false"
    ? `The wager was false — ${losers} ${single ? "loses" : "lose"} a die.`
    : reveal.outcome === "spot-on"
      ? `Spot-on! Everyone but ${whom(ctx.maker)} loses a die.`
      : `The wager was true — ${losers} ${single ? "loses" : "lose"} a die for the false accusation.`;
  const verdictCls = {false: "verdict-false", true: "verdict-true", "spot-on": "verdict-spot"}[reveal.outcome];
  // The proofs belong to this reveal when their round is the reveal's round.
  const proofs = g.proofs && (ctx.round === null || ctx.round === undefined || g.proofs.round === ctx.round) ? g.proofs : null;
  let check = null;
  if (proofs) {
    const expected = {};
    reveal.hands.forEach((hand, seat) => { if (hand.length) expected[String(seat)] = hand; });
    check = app.book.check(g.game_id, proofs, expected, () => app.render());
  }
  const rows = reveal.hands.map((hand, seat) => (hand.length ? h("div", {class: "reveal-row", "data-seat": seat},
    h("span", {class: "reveal-name", title: names[seat]}, names[seat], seat === me ? " (you)" : ""),
    diceRow(hand, {sides: v.rules.sides, size: 34, clsFor: (f, i) => cls(seat, i), label: `${names[seat]}: ${hand.join(", ")}`}),
    reveal.losers.includes(seat) ? h("span", {class: "tag tag-lose"}, "−1 die") : null,
    check ? itemBadge(check, seat) : null,
    proofs ? cupTag(g, seat, proofs.round) : null) : null));
  // Not a live region: the page's announcer says the reveal once (see app.js).
  return h("section", {class: "reveal", id: "reveal", "data-key": "reveal", "data-round": ctx.round ?? ""},
    h("header", {class: "reveal-head"},
      h("h2", {id: "reveal-heading", tabindex: "-1"}, `Reveal${ctx.round ? ` — round ${ctx.round}` : ""}`),
      proofs ? verifyBadge(check, hashEngine()) : h("span", {class: "verify-badge badge-na"}, "no commitments")),
    ctx.accuser !== null && ctx.accuser !== undefined
      ? h("p", {class: "reveal-call", id: "reveal-call"}, h("strong", {}, nameEl(who(ctx.accuser))),
        " called “Liar!” on ", ctx.maker === me ? "your" : [nameEl(names[ctx.maker]), "'s"], " wager: ",
        h("strong", {}, claimWords(ctx.wager)), ".")
      : null,
    h("div", {class: "reveal-hands"}, rows),
    h("p", {class: "reveal-count"}, countText),
    h("p", {class: `reveal-verdict ${verdictCls}`}, verdict),
    ctx.out && ctx.out.length ? h("p", {class: "reveal-out"}, `${namesText(ctx.out, (s) => names[s], me)} ${ctx.out.length === 1 && ctx.out[0] !== me ? "is" : "are"} out of the game.`) : null,
    proofs ? cupCheck(app, g, reveal, proofs.round) : null,
    proofs ? verifyDetails(check, (seat) => names[Number(seat)] ?? seat) : null);
}

function itemBadge(check, seat) {
  const item = check.items.find((i) => i.seat === String(seat));
  if (!item) return null;
  return h("span", {class: `mini-badge mini-${item.status}`, title: item.why}, item.status === "verified" ? "✓" : item.status === "mismatch" ? "✗" : "?");
}

/** Side panel: the current round's commitments (published before anyone acts). */
export function liarsFairness(app) {
  const g = app.state.game;
  if (!g) return null;
  const c = g.commitments;
  return h("section", {class: "panel fairness"},
    h("h2", {}, "Dice anyone can verify"),
    h("p", {class: "muted small"}, diceModeNote("liars-dice", app.state.table.options.dice_mode)),
    c ? h("ul", {class: "commit-list"}, c.items.map((item) => h("li", {},
      nameEl(app.nameOf(Number(item.seat))), " ", h("code", {title: item.digest}, shortDigest(item.digest)))))
      : h("p", {class: "muted small"}, "No sealed dice right now."),
    c ? h("p", {class: "muted small"}, `Round ${c.round} sealed.`) : null);
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
