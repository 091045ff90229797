// Dice Blackjack at the table: the house (the DM) at the top of the felt with the target
// d20 and the house's d20s, players along the near side with their gold, bets and d12s.
// Players bet, roll and stand (adding their proficiency bonus); the DM's console rolls or
// types in the house's dice and the players' d12s. After each round every settlement and
// balance is shown.

import {h, fmtCp, fmtDelta, nameEl} from "./util.js";
import {diceModeNote} from "./dicemode.js";
import {die, diceRow} from "./dice.js";
import {outcomeWords} from "./eventlog.js";
import {presenceBadge, seatPositions, shortDigest, thinkingMark, timerChip, verifyBadge, verifyDetails} from "./board.js";
import {hashEngine} from "./verify.js";

const PHASE_TEXT = {
  betting: "Bets, please",
  "target-roll": "The house rolls the target",
  "house-roll": "The house rolls its dice",
  playing: "Players roll",
  "round-over": "Round over",
};

const SETTLE_COLUMNS = ["Player", "Bet", "Final", "Outcome", "Change", "Balance"];

const SHORT_OUTCOME = {win: "won", lose: "lost", bust: "bust", exact: "exact!", "house-bust": "won", collected: "collected"};

/** The d12s each seat rolled this round, from the log. */
function roundRolls(events) {
  const rolls = {};
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === "round_opened") break;
    if (ev.type === "dice_rolled" && ev.purpose === "d12") (rolls[ev.seats[0]] ||= []).unshift(ev.dice[0][0]);
  }
  return rolls;
}

/** Seats that may still bet or sit out this round, from the log. */
function undecided(events) {
  const decided = new Set();
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === "bet_placed" || ev.type === "sat_out") decided.add(ev.seat);
    if (ev.type === "round_opened") return ev.eligible.filter((s) => !decided.has(s));
  }
  return [];
}

function stoodBonus(events, seat) {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === "round_opened") break;
    if (ev.type === "stood" && ev.seat === seat) return ev.bonus;
  }
  return 0;
}

/** The main column for a Dice Blackjack session; `host` adds the DM's house controls. */
export function renderBlackjack(app, host) {
  const g = app.state.game;
  const v = g.view;
  const me = app.state.you.seat;
  const rolls = roundRolls(app.events);
  return [
    h("div", {class: "board board-blackjack"},
      h("div", {class: "felt felt-half"}, houseArea(app, g, v),
        g.seats.map((seat, i) => seatCard(app, g, v, i, rolls, me)))),
    host ? houseControls(app, g, v) : playerActions(app, g, v, me, rolls),
    v.phase === "round-over" && v.settlements.length ? settlementPanel(app, g, v) : null,
  ];
}

function houseArea(app, g, v) {
  const r = v.rules;
  const target = v.target;
  const houseDice = v.house_dice.length ? v.house_dice : Array(r.house_dice).fill(null);
  const pickCls = (f) => {
    if (!v.house_dice.length || target === null) return "";
    if (v.house_roll !== null && f === v.house_roll) return "die-match";
    return f > target || (r.house_needs_under && f === target) ? "die-dim" : "";
  };
  let line;
  if (target === 1 && r.target_one_collects) line = h("div", {class: "house-line bad"}, "Target 1 — the house collects every bet!");
  else if (v.house_bust) line = h("div", {class: "house-line good"}, "The house busts! Don't bust and you win.");
  else if (v.house_roll !== null) line = h("div", {class: "house-line"}, "House roll ", h("strong", {id: "house-roll"}, String(v.house_roll)));
  else line = h("div", {class: "house-line muted"}, PHASE_TEXT[v.phase] || v.phase);
  return h("div", {class: "house"},
    h("div", {class: "house-label"}, `The house · round ${v.round}`),
    h("div", {class: "house-dice"},
      h("figure", {class: "target"}, die(target, {sides: r.target_sides, size: 74, cls: "die-target", label: target === null ? "target not rolled" : `target ${target}`}),
        h("figcaption", {}, "Target")),
      h("figure", {}, diceRow(houseDice, {sides: r.house_sides, size: 50, clsFor: pickCls}), h("figcaption", {}, "House dice"))),
    line,
    houseCheck(app, g, v) || sealedHouse(g),
    h("div", {class: "house-net small"}, `House this session: ${fmtDelta(v.house_net)}`));
}

/** The house's dice of this round, committed before the bets (digital dice). */
function houseCommitment(g) {
  const c = g.commitments;
  const item = c && c.items.find((i) => i.seat === "house");
  return item ? {round: c.round, digest: item.digest} : null;
}

/** Before the house rolls: its dice are already rolled and sealed; here is the seal. */
function sealedHouse(g) {
  const sealed = houseCommitment(g);
  if (!sealed) return null;
  return h("div", {class: "house-check", id: "house-sealed"}, "Sealed house dice: ",
    h("code", {title: sealed.digest}, shortDigest(sealed.digest)));
}

/** Side panel: the house's sealed dice (what the players bet against), like Liar's Dice's. */
export function blackjackFairness(app) {
  const g = app.state.game;
  if (!g) return null;
  const sealed = houseCommitment(g);
  const manual = app.state.table.options.dice_mode === "manual";
  return h("section", {class: "panel fairness"},
    h("h2", {}, "Dice anyone can verify"),
    h("p", {class: "muted small"}, diceModeNote("blackjack", app.state.table.options.dice_mode)),
    sealed ? h("p", {class: "small"}, `Round ${sealed.round} sealed: `,
      h("code", {id: "house-digest", title: sealed.digest}, shortDigest(sealed.digest)))
      : manual ? null : h("p", {class: "muted small"}, "No sealed dice right now."));
}

function seatState(v, i, rolls, events) {
  const key = String(i);
  const settle = v.settlements.find((s) => s.seat === i);
  if (settle) return {text: `${SHORT_OUTCOME[settle.outcome] || settle.outcome} ${fmtDelta(settle.delta)}`, cls: settle.delta > 0 ? "tag-win" : settle.delta < 0 ? "tag-lose" : ""};
  if (v.phase === "betting") {
    if (key in v.bets) return {text: "bet placed", cls: "tag-wager"};
    return undecided(events).includes(i) ? {text: "betting…", cls: ""} : {text: "sitting out", cls: "muted"};
  }
  if (!(key in v.bets)) return {text: "sitting out", cls: "muted"};
  if (key in v.finals) return v.finals[key] === null ? {text: "bust", cls: "tag-lose"} : {text: `stands on ${v.finals[key]}`, cls: "tag-wager"};
  if (v.turn === i) return {text: "rolling", cls: "tag-turn"};
  if (rolls[i]) return {text: "rolling", cls: "tag-turn"};
  return {text: "waiting", cls: "muted"};
}

function seatCard(app, g, v, i, rolls, me) {
  const seat = g.seats[i];
  const positions = seatPositions(g.seats.length, me, "lower");
  const pos = positions[i];
  const key = String(i);
  const state = seatState(v, i, rolls, app.events);
  const total = v.totals[key];
  const final = v.finals[key];
  const bonus = final !== undefined && final !== null ? stoodBonus(app.events, i) : 0;
  const pb = v.proficiency[i];
  const thinking = app.isThinking(i);
  return h("div", {
    class: "seat seat-bj" + (v.turn === i ? " seat-turn" : "") + (i === me ? " seat-me" : "") + (thinking ? " seat-thinking" : ""),
    style: `left:${pos.left.toFixed(2)}%;top:${pos.top.toFixed(2)}%`, "data-seat": i, "data-key": `bj-seat-${i}`,
    "aria-busy": thinking ? "true" : null,
  },
  h("div", {class: "seat-head"},
    h("span", {class: "seat-name", title: seat.name}, seat.name, i === me ? h("span", {class: "you-tag"}, " (you)") : null),
    presenceBadge(seat.presence)),
  h("div", {class: "seat-gold"}, h("span", {class: "coin"}, "●"), " ", h("span", {class: "balance", "data-balance": v.balances[i]}, fmtCp(v.balances[i])),
    pb ? h("span", {class: "pb", title: `Proficiency bonus +${pb}: may add up to +${Math.ceil(pb / 2)} on standing`}, `PB +${pb}`) : null),
  key in v.bets ? h("div", {class: "seat-bet"}, h("span", {class: "chip"}, fmtCp(v.bets[key])),
    total !== undefined && (total || rolls[i]) ? h("span", {class: "seat-total", "data-total": total}, ` total ${total}`, bonus ? ` +${bonus} = ${final}` : "") : null) : null,
  rolls[i] ? h("div", {class: "seat-dice"}, diceRow(rolls[i], {sides: v.rules.player_sides, size: 24, label: `d${v.rules.player_sides}s rolled: ${rolls[i].join(", ")}`})) : null,
  h("div", {class: "seat-foot"}, h("span", {class: `tag ${state.cls}`}, state.text), timerChip(app.timerLeft(i))),
  thinkingMark(thinking));
}

function playerActions(app, g, v, me, rolls) {
  if (g.status === "over" || g.status === "ended") return null;
  if (me === null || me === undefined) {
    return h("div", {class: "actions", "data-key": "actions"}, h("p", {class: "action-note"}, app.state.you.role === "spectator" ? "You are watching." : "You will be seated at the next game."));
  }
  const paused = g.status === "paused";
  const ui = app.ui;
  const parts = [];
  if (paused) parts.push(h("p", {class: "action-note"}, "‖ The DM has paused the game."));
  const left = app.timerLeft(me);
  if (left !== null && v.legal_actions.length) parts.push(h("p", {class: "action-note"}, timerChip(left), h("span", {}, "left to act, or a stand-in plays this move for you.")));
  if (v.legal_actions.includes("bet")) {
    const [low, high] = v.bet_limits;
    if (ui.betFor !== v.round) {
      ui.betFor = v.round;
      ui.bet = String(Math.min(high, Math.max(low, Number(ui.lastBet) || 100)));
    }
    const amount = Number(ui.bet);
    const valid = Number.isInteger(amount) && amount >= low && amount <= high;
    const chip = (cp, label) => h("button", {class: "btn btn-chip", disabled: cp > high || cp < low || paused,
      onclick: () => { ui.bet = String(cp); app.render(); }}, label);
    parts.push(h("div", {class: "bet-form"},
      h("label", {for: "bet-amount"}, "Your bet (cp)"),
      h("input", {id: "bet-amount", type: "number", min: low, max: high, step: 1, value: ui.bet, inputmode: "numeric",
        oninput: (e) => { ui.bet = e.target.value; app.render(); }}),
      h("span", {class: "bet-shown"}, valid ? `= ${fmtCp(amount)}` : `${fmtCp(low)} to ${fmtCp(high)}`),
      h("div", {class: "chips"}, chip(100, "1 gp"), chip(500, "5 gp"), chip(1000, "10 gp"), chip(high, "all in")),
      h("div", {class: "btn-row"},
        h("button", {class: "btn btn-primary", id: "bet-btn", disabled: !valid || paused, onclick: () => {
          ui.lastBet = amount;
          app.act({type: "bet", amount_cp: amount}, {focus: "#actions"});
        }}, valid ? `Bet ${fmtCp(amount)}` : "Bet"),
        h("button", {class: "btn", id: "sit-out-btn", disabled: paused, onclick: () => app.act({type: "sit_out"}, {focus: "#actions"})}, "Sit out"))));
  } else if (v.legal_actions.includes("roll")) {
    const total = v.totals[String(me)];
    const bonuses = v.legal_bonuses;
    const maxBonus = bonuses[bonuses.length - 1] || 0;
    if (ui.bonusKey !== `${v.round}/${total}` || !bonuses.includes(ui.bonus)) {
      ui.bonusKey = `${v.round}/${total}`;
      ui.bonus = maxBonus;
    }
    parts.push(h("div", {class: "play-form"},
      h("p", {class: "play-total"}, "Your total ", h("strong", {}, String(total)), ` — target ${v.target}`,
        v.house_bust ? ", the house busted" : `, house ${v.house_roll}`),
      h("div", {class: "btn-row"},
        h("button", {class: "btn btn-primary", id: "roll-btn", disabled: paused, onclick: () => app.act({type: "roll"}, {focus: "#actions"})}, `Roll a d${v.rules.player_sides}`),
        bonuses.length > 1 ? h("label", {class: "bonus-pick"}, "add proficiency ",
          h("select", {id: "bonus", value: String(ui.bonus), onchange: (e) => { ui.bonus = Number(e.target.value); app.render(); }},
            bonuses.map((b) => h("option", {value: String(b), selected: b === ui.bonus}, `+${b}`)))) : null,
        h("button", {class: "btn", id: "stand-btn", disabled: paused, onclick: () => app.act({type: "stand", bonus: ui.bonus}, {focus: "#actions"})},
          ui.bonus ? `Stand at ${total + ui.bonus} (${total} + ${ui.bonus})` : `Stand at ${total}`))));
  } else if (g.pending_roll && g.pending_roll.purpose === "d12" && g.pending_roll.seat === me) {
    parts.push(h("p", {class: "action-note"}, "⚄ Roll your d12 — the DM enters it."));
  } else if (v.phase === "betting" && String(me) in v.bets) {
    parts.push(h("p", {class: "action-note"}, `You bet ${fmtCp(v.bets[String(me)])}. Waiting for the other bets…`));
  } else if (v.phase === "round-over") {
    parts.push(h("p", {class: "action-note"}, "Waiting for the DM to open the next round."));
  } else if (v.turn !== null && v.turn !== undefined) {
    parts.push(h("p", {class: "action-note"}, h("span", {}, nameEl(app.nameOf(v.turn)), " is rolling…")));
  } else {
    parts.push(h("p", {class: "action-note"}, PHASE_TEXT[v.phase] || ""));
  }
  // The actions area keeps the keyboard's place while its buttons come and go.
  return h("section", {class: "actions", id: "actions", "data-key": "actions", tabindex: "-1", "aria-label": "Your move"}, parts);
}

function settlementPanel(app, g, v) {
  return h("section", {class: "settlement", id: "settlement"},
    h("header", {class: "reveal-head"}, h("h2", {}, `Round ${v.round} settled`),
      h("span", {class: "muted small"}, `House this session: ${fmtDelta(v.house_net)}`)),
    // On a phone each row becomes a card whose cells carry their column's name (data-label).
    h("table", {class: "settle-table"},
      h("thead", {}, h("tr", {}, SETTLE_COLUMNS.map((c) => h("th", {scope: "col"}, c)))),
      h("tbody", {}, v.settlements.map((s) => h("tr", {"data-seat": s.seat},
        h("th", {scope: "row", class: "settle-name", "data-label": "Player"}, nameEl(g.seats[s.seat].name), s.seat === app.state.you.seat ? " (you)" : ""),
        h("td", {"data-label": "Bet"}, fmtCp(s.bet)),
        h("td", {"data-label": "Final"}, s.final === null ? "—" : String(s.final)),
        h("td", {"data-label": "Outcome"}, outcomeWords(s.outcome)),
        h("td", {"data-label": "Change", class: s.delta > 0 ? "good" : s.delta < 0 ? "bad" : ""}, fmtDelta(s.delta)),
        h("td", {"data-label": "Balance", class: "settle-balance"}, fmtCp(s.balance)))))),
    h("p", {class: "muted small balances-line"}, "Every balance: ",
      g.seats.map((seat, i) => [i ? " · " : "", nameEl(seat.name), ` ${fmtCp(v.balances[i])}`])));
}

/** The badge for the house's committed dice (digital mode), once they are revealed. */
function houseCheck(app, g, v) {
  const proofs = g.proofs;
  if (!proofs || proofs.round !== v.round || v.target === null) return null;
  const expected = {house: [v.target, ...v.house_dice]};
  if (!v.house_dice.length) delete expected.house; // target 1: the house dice were not used
  const check = app.book.check(g.game_id, proofs, Object.keys(expected).length ? expected : null, () => app.render());
  return h("div", {class: "house-check", id: "house-check"}, "Sealed house dice ", verifyBadge(check, hashEngine()),
    verifyDetails(check, () => "House"));
}

/** The DM's controls: roll or type in the house's dice and the players' d12s, next round. */
function houseControls(app, g, v) {
  const ui = app.ui;
  const manual = app.state.table.options.dice_mode === "manual";
  const pending = g.pending_roll;
  const paused = g.status === "paused";
  const parts = [h("h2", {id: "house-controls-heading"}, "House controls"), h("p", {class: "muted small"}, manual
    ? "Manual dice: roll your physical dice and type the faces in."
    : "Digital dice: the server rolls; the house's dice were sealed (committed) before the bets.")];
  if (g.status === "over" || g.status === "ended") return null;
  if (pending && (pending.purpose === "target" || pending.purpose === "house")) {
    if (manual) {
      const n = v.rules.house_dice;
      ui.house = ui.house || [];
      const needTarget = pending.purpose === "target";
      const typed = (text) => text !== undefined && text !== "" && Number.isInteger(Number(text)) && Number(text) > 0;
      const faces = Array.from({length: n}, (_, k) => Number(ui.house[k]));
      const houseTyped = faces.every((_, k) => typed(ui.house[k]));
      const houseEmpty = faces.every((_, k) => ui.house[k] === undefined || ui.house[k] === "");
      // The target may go in alone: the engine then says whether the round needs the
      // house's dice at all (a target of 1 collects every bet and ends the round).
      const ok = needTarget ? typed(ui.target) && (houseTyped || houseEmpty) : houseTyped;
      const label = needTarget && houseEmpty ? "Enter the target" : "Enter the house's roll";
      parts.push(h("div", {class: "manual-form"},
        needTarget ? h("label", {}, `Target d${v.rules.target_sides}`,
          h("input", {id: "target-input", type: "number", min: 1, max: v.rules.target_sides, value: ui.target ?? "",
            oninput: (e) => { ui.target = e.target.value; app.render(); }})) : null,
        Array.from({length: n}, (_, k) => h("label", {}, `House d${v.rules.house_sides} #${k + 1}`,
          h("input", {id: `house-input-${k}`, type: "number", min: 1, max: v.rules.house_sides, value: ui.house[k] ?? "",
            oninput: (e) => { ui.house[k] = e.target.value; app.render(); }}))),
        h("button", {class: "btn btn-primary", id: "house-roll-btn", disabled: !ok || paused, onclick: async () => {
          // The target first, as at the table; the house's dice only if the round still
          // needs them (a target that ends the round, such as a 1, leaves them unused).
          try {
            if (needTarget) {
              await app.act({type: "house_roll", target: Number(ui.target)}, {focus: "#house-controls"});
              ui.target = "";
            }
            const next = app.state.game && app.state.game.pending_roll;
            if (next && next.purpose === "house" && houseTyped) {
              await app.act({type: "house_roll", house: faces}, {focus: "#house-controls"});
              ui.house = [];
            } else if (!next || next.purpose !== "house") {
              ui.house = [];
            }
            app.render();
          } catch { /* shown by the error handler */ }
        }}, label)));
    } else {
      parts.push(h("button", {class: "btn btn-primary", id: "house-roll-btn", disabled: paused, onclick: () => app.act({type: "house_roll"}, {focus: "#house-controls"})},
        "⚄ Roll the house dice"));
    }
  } else if (pending && pending.purpose === "d12") {
    if (manual) {
      const face = Number(ui.d12);
      const ok = Number.isInteger(face) && face >= 1 && face <= pending.sides;
      parts.push(h("div", {class: "manual-form"},
        h("label", {}, nameEl(app.nameOf(pending.seat)), `'s d${pending.sides}`,
          h("input", {id: "d12-input", type: "number", min: 1, max: pending.sides, value: ui.d12 ?? "",
            oninput: (e) => { ui.d12 = e.target.value; app.render(); }})),
        h("button", {class: "btn btn-primary", id: "d12-btn", disabled: !ok || paused, onclick: () => {
          app.act({type: "d12", face}, {focus: "#house-controls"}).then(() => { ui.d12 = ""; app.render(); }, () => {});
        }}, "Enter the d12")));
    } else {
      parts.push(h("p", {class: "action-note"}, "Rolling…"));
    }
  } else if (v.phase === "betting") {
    const waiting = undecided(app.events);
    parts.push(h("p", {class: "action-note"}, h("span", {}, "Waiting for bets",
      waiting.length ? [" from ", waiting.map((i, k) => [k ? ", " : "", nameEl(app.nameOf(i))])] : "", "…")));
  } else if (v.phase === "round-over") {
    parts.push(h("button", {class: "btn btn-primary", id: "next-round-btn", disabled: paused,
      onclick: () => app.act({type: "next_round"}, {focus: "#house-controls"})}, "Open the next round"));
  } else if (v.turn !== null) {
    parts.push(h("p", {class: "action-note"}, h("span", {}, nameEl(app.nameOf(v.turn)), " is deciding: roll again or stand.")));
  }
  return h("section", {class: "actions house-controls", id: "house-controls", "data-key": "house-controls", tabindex: "-1",
    "aria-labelledby": "house-controls-heading"}, parts);
}
