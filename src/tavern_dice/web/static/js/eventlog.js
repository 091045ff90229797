// The event log in plain words: each engine event (already masked for this viewer) becomes
// a sentence. Names come from the game's seat list.

import {facePlural} from "./dice.js";
import {fmtCp, fmtDelta, joinNames} from "./util.js";

/** "3 fives", "1 six", "a sum of at least 7" from a wager code ("3x5", "sum 7"). */
export function wagerWords(code) {
  if (!code) return "";
  const sum = /^sum (\d+)$/.exec(code);
  if (sum) return `a sum of at least ${sum[1]}`;
  const m = /^(\d+)x(\d+)$/.exec(code);
  if (!m) return code;
  const q = Number(m[1]);
  return `${q} ${facePlural(Number(m[2]), q)}`;
}

/** What a wager claims, as said aloud: "at least 3 fives", "a sum of at least 7". */
export function claimWords(code) {
  if (!code) return "";
  return /^sum /.test(code) ? wagerWords(code) : `at least ${wagerWords(code)}`;
}

/**
 * Names joined for a sentence, the viewer as "You" first and "you" after: "You and Ann",
 * "Ann and you".
 */
export function namesText(seats, name, you, midSentence = false) {
  return joinNames(seats.map((s, i) => (s === you ? (i === 0 && !midSentence ? "You" : "you") : name(s))));
}

/** Parse a wager code into {quantity, face} or {total}. */
export function parseWager(code) {
  const sum = /^sum (\d+)$/.exec(code || "");
  if (sum) return {total: Number(sum[1])};
  const m = /^(\d+)x(\d+)$/.exec(code || "");
  return m ? {quantity: Number(m[1]), face: Number(m[2])} : null;
}

export const wagerCodeOf = (ev) => (ev.total !== null && ev.total !== undefined
  ? `sum ${ev.total}` : `${ev.quantity}x${ev.face}`);

// Settlement outcomes in words: [third person, second person].
const OUTCOME_BJ = {
  win: ["wins", "win"], lose: ["loses", "lose"], bust: ["busts", "bust"],
  exact: ["hits the target exactly", "hit the target exactly"],
  "house-bust": ["wins (the house busts)", "win (the house busts)"],
  collected: ["loses (target 1: the house collects)", "lose (target 1: the house collects)"],
};

/** A settlement outcome in words ("wins", "hits the target exactly"); `you` for "You ...". */
export function outcomeWords(outcome, you = false) {
  const words = OUTCOME_BJ[outcome];
  return words ? words[you ? 1 : 0] : outcome;
}

/**
 * The log as lines: [{text, kind}], oldest first. `names` by seat; `you` the viewer's seat.
 */
export function describeEvents(events, names, you) {
  const name = (seat) => (seat === you ? "You" : (names[seat] ?? `Seat ${seat + 1}`));
  const lines = [];
  let wager = null;
  events.forEach((ev, index) => {
    const add = (text, kind = "") => lines.push({text, kind, index});
    switch (ev.type) {
      // ---- Liar's Dice
      case "dice_rolled":
        if (ev.purpose === "roll-off") {
          add("Roll-off: " + ev.seats.map((s, i) => `${name(s)} ${ev.dice[i].join("+")}`).join(", ") + ".", "roll");
        } else if (ev.purpose === "round") {
          const mine = ev.seats.indexOf(you);
          add("Everyone rolls in secret." + (mine >= 0 ? ` Your dice: ${ev.dice[mine].join(", ")}.` : ""), "roll");
        } else if (ev.purpose === "d12") {
          add(`${name(ev.seats[0])} ${ev.seats[0] === you ? "roll" : "rolls"} a d12: ${ev.dice[0][0]}.`, "roll");
        }
        break;
      case "roll_off_result": {
        const best = Math.max(...ev.sums);
        if (ev.leaders.length > 1) add(`Tie at ${best} between ${ev.leaders.map(name).join(" and ")}: they roll off again.`, "round");
        else add(`${name(ev.leaders[0])} won the roll-off with ${best}.`, "round");
        break;
      }
      case "round_started": {
        wager = null;
        const dice = ev.dice_counts.reduce((a, b) => a + b, 0);
        let text = `Round ${ev.round}: ${dice} dice on the table; ${ev.starter === you ? "you open" : `${name(ev.starter)} opens`} the bidding.`;
        if (ev.sum_wagers) text += " Two players with one die each: wagers are now on the sum of both dice.";
        add(text, "round");
        break;
      }
      case "wager_made":
        wager = wagerCodeOf(ev);
        add(`${name(ev.seat)} ${ev.seat === you ? "wager" : "wagers"} ${wagerWords(wager)}.`, "wager");
        break;
      case "accused":
        add(`${name(ev.accuser)} ${ev.accuser === you ? "call" : "calls"} ${ev.wager_maker === you ? "you" : name(ev.wager_maker)} a liar!`, "accuse");
        break;
      case "revealed": {
        const counted = wager && wager.startsWith("sum") ? `the dice sum to ${ev.count}`
          : `there ${ev.count === 1 ? "is" : "are"} ${ev.count} ${facePlural(parseWager(wager)?.face, ev.count)}`;
        const losers = namesText(ev.losers, name, you);
        const verdict = ev.outcome === "false" ? "the wager was false"
          : ev.outcome === "spot-on" ? "the wager was spot-on" : "the wager was true";
        add(`Dice revealed: ${counted} — ${verdict}. ${losers} ${ev.losers.length === 1 && ev.losers[0] !== you ? "loses" : "lose"} a die.`, "reveal");
        break;
      }
      case "player_out":
        add(`${name(ev.seat)} ${ev.seat === you ? "are" : "is"} out of the game.`, "out");
        break;
      case "game_won":
        add(`${name(ev.seat)} ${ev.seat === you ? "win" : "wins"} the game!`, "win");
        break;
      // ---- Dice Blackjack
      case "round_opened":
        add(`Round ${ev.round}: place your bets.`, "round");
        break;
      case "bet_placed":
        add(`${name(ev.seat)} ${ev.seat === you ? "bet" : "bets"} ${fmtCp(ev.amount)}.`, "wager");
        break;
      case "sat_out":
        add(`${name(ev.seat)} ${ev.seat === you ? "sit" : "sits"} this round out.`);
        break;
      case "target_set":
        add(ev.target === 1 ? "The house rolls the target: 1! All bets are collected." : `The house rolls the target number: ${ev.target}.`, "round");
        break;
      case "house_rolled":
        add(ev.house_roll === null
          ? `House dice ${ev.dice.join(" and ")}: none within the target — the house busts!`
          : `House dice ${ev.dice.join(" and ")}: the house's roll is ${ev.house_roll}.`, "reveal");
        break;
      case "turn_started":
        add(`${name(ev.seat)} ${ev.seat === you ? "roll" : "rolls"} next.`);
        break;
      case "total_changed":
        add(`${ev.seat === you ? "Your" : `${name(ev.seat)}'s`} total: ${ev.total}${ev.bust ? " — bust!" : "."}`, ev.bust ? "out" : "");
        break;
      case "stood":
        add(`${name(ev.seat)} ${ev.seat === you ? "stand" : "stands"}${ev.bonus ? ` and ${ev.seat === you ? "add" : "adds"} +${ev.bonus} proficiency` : ""}.`, "wager");
        break;
      case "settled":
        add(`${name(ev.seat)} ${outcomeWords(ev.outcome, ev.seat === you)}${ev.final !== null ? ` with ${ev.final}` : ""}: ${fmtDelta(ev.delta)} (balance ${fmtCp(ev.balance)}).`, ev.delta > 0 ? "win" : "out");
        break;
      case "round_closed":
        add(`Round ${ev.round} is over. The house is ${ev.house_net >= 0 ? "up" : "down"} ${fmtCp(Math.abs(ev.house_net))} this session.`, "round");
        break;
      default:
        break;
    }
  });
  return lines;
}
