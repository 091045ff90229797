"""Showing a post-game review (:mod:`tavern_dice.review`) in a terminal, and drawing it.

Each decision is one block: what the seat knew, what it did and what was best, with
their values, the cost and the mark (``?!`` inaccuracy, ``?`` mistake, ``??`` blunder).
Out-of-turn passes that earned no mark are counted, not listed (a table of four has
two of them after every wager). The chart (``--plot``) shows, per reviewed seat, how it
stood over the game (dice held in Liar's Dice, gold in Dice Blackjack) above the cost of
each decision, with the thresholds drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from tavern_dice.cli.outputs import save_figure
from tavern_dice.cli.render_liars import dice_text
from tavern_dice.money import format_cp
from tavern_dice.review import (
    PASS_OUT_OF_TURN,
    SYMBOLS,
    BlackjackKnown,
    Decision,
    GameReview,
    LiarsKnown,
    Odds,
    SeatReview,
)

MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
MARK_COLOURS = {None: "#8c8c8c", "inaccuracy": "#e6b400", "mistake": "#f28e2b",
                "blunder": "#d62728"}
"""Chart colours of the marks (grey: no mark)."""


def percent(p: float) -> str:
    """A chance in words: ``'0 %'`` and ``'100 %'`` only when exact, else one decimal.

    >>> percent(0.0), percent(1.0), percent(0.99961), percent(0.25)
    ('0 %', '100 %', '99.96 %', '25.0 %')
    """
    if p in (0, 1):
        return f"{p:.0%}".replace("%", " %")
    text = f"{100 * p:.1f}"
    if text in ("0.0", "100.0"):  # not certain: say so with one more digit
        text = f"{100 * p:.2f}"
    return f"{text} %"


def show_review(console: Console, review: GameReview, *, sides: int = 6,
                spot_on: bool = True) -> None:
    """Print ``review``: how to read it, then each seat's decisions and summary."""
    console.print(f"[bold]Values:[/] {escape(review.values)}.")
    console.print(f"[bold]Marks[/] by cost (the best action's value minus the chosen one's): "
                  f"{escape(review.thresholds.describe())}.")
    for seat_review in review.seats:
        console.print()
        _seat(console, review, seat_review, sides, spot_on)


def _seat(console: Console, review: GameReview, seat: SeatReview, sides: int,
          spot_on: bool) -> None:
    players = review.players
    console.print(f"[bold]{escape(seat.name)}[/] (seat {seat.seat}) — {escape(seat.result)}")
    quiet = 0
    for decision in seat.decisions:
        if decision.kind == PASS_OUT_OF_TURN and decision.mark is None:
            quiet += 1
            continue
        if isinstance(decision.known, LiarsKnown):
            _liars_known(console, decision, decision.known, players, seat.seat, sides, spot_on)
        else:
            _blackjack_known(console, decision, decision.known)
        console.print(_verdict(decision, review.thresholds.unit))
        if decision.note:
            console.print(f"    [bold red]{escape(decision.note)}[/]")
    if not seat.decisions:
        console.print("  No decisions to review.")
    console.print(summary_line(review, seat, quiet))


def summary_line(review: GameReview, seat: SeatReview, quiet: int = 0) -> str:
    """``'Ann: 12 decisions: 1 inaccuracy, 0 mistakes, 1 blunder; cost 1.80 dice in all,
    0.150 a decision.'``"""
    counts = seat.counts()
    marks = ", ".join(
        f"{n} {mark}" + ("" if n == 1 else ("ies" if mark == "inaccuracy" else "s"))
        for mark, n in counts.items()
    ).replace("inaccuracyies", "inaccuracies")
    unit = review.thresholds.unit
    passes = (f" ({quiet} out-of-turn {'pass' if quiet == 1 else 'passes'} with no mark "
              "not listed)" if quiet else "")
    n = len(seat.decisions)
    return (f"{seat.name}: {n} {'decision' if n == 1 else 'decisions'}{passes}: {marks}; "
            f"cost {seat.total_cost:.2f} {unit} in all, {seat.mean_cost:.3f} a decision.")


def _heading(decision: Decision) -> str:
    kind = "your turn" if decision.kind == "turn" else decision.kind
    return f" [bold]#{decision.number}[/] round {decision.round} · {kind}"


def _odds(odds: Odds, spot_on: bool) -> str:
    """``'true 26.3 % (spot-on 20.1 %), false 73.7 %'``: spot-on is part of true."""
    exact = f" (spot-on {percent(float(odds.exact))})" if spot_on else ""
    return f"true {percent(float(odds.true))}{exact}, false {percent(float(odds.false))}"


def _liars_known(console: Console, decision: Decision, known: LiarsKnown,
                 players: Sequence[str], me: int, sides: int, spot_on: bool) -> None:
    counts = ", ".join(f"{escape(players[s])} {c}" for s, c in enumerate(known.dice_counts)
                       if c > 0)
    line = Text.from_markup(_heading(decision) + " · your dice ")
    line.append_text(dice_text(known.own_dice, sides))
    line.append(f" · {known.dice_in_play} dice in play ({counts})")
    console.print(line)
    if known.wagers:
        said = " → ".join(f"{escape(players[s])} {escape(w)}" for s, w in known.wagers)
        console.print(f"    wagers this round: {said}")
    if known.standing is not None and known.standing_odds is not None:
        console.print(f"    standing wager {escape(known.standing)}: "
                      f"{_odds(known.standing_odds, spot_on)}")
    if known.chosen_odds is not None:
        console.print(f"    your wager {escape(decision.chosen.text)}: "
                      f"{_odds(known.chosen_odds, spot_on)}")


def _blackjack_known(console: Console, decision: Decision, known: BlackjackKnown) -> None:
    house = "the house busted" if known.house is None else f"house roll {known.house}"
    bonus = f"; bonus up to +{known.bonus_cap}" if known.bonus_cap else ""
    console.print(
        f"{_heading(decision)} · target {known.target}, {house} · your total {known.total} "
        f"(bet {format_cp(known.bet_cp)}{bonus}) · next d12 busts "
        f"{percent(float(known.bust_chance))}"
    )


def _verdict(decision: Decision, unit: str) -> str:
    digits = 3 if unit == "per unit bet" else 2
    chosen, best = decision.chosen, decision.best
    you = f"    you: {escape(chosen.text)} ({chosen.value:+.{digits}f})"
    if decision.forced:
        return you + " — the only legal action"
    if decision.cost <= 0:
        return you + " — [green]best[/]"
    text = (f"{you}   best: {escape(best.text)} ({best.value:+.{digits}f})   "
            f"cost {decision.cost:.{digits}f} {unit}")
    if isinstance(decision.known, BlackjackKnown) and decision.known.bet_cp:
        lost = decision.cost * decision.known.bet_cp
        text += f" (about {format_cp(round(lost))} on your {format_cp(decision.known.bet_cp)} bet)"
    if decision.mark is not None:
        style = MARK_STYLES[decision.mark]
        text += f"  [{style}]{SYMBOLS[decision.mark]} {decision.mark}[/]"
    return text


# ---------------------------------------------------------------------- the chart


def plot_review(review: GameReview, path: Path) -> Path:
    """Draw each reviewed seat's standing over its decisions (dice held, or gold) above
    the cost of each decision, coloured by mark, with the thresholds as dashed lines."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    seats = review.seats
    fig = Figure(figsize=(max(6.5, 4.5 * len(seats)), 6.2))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, len(seats), squeeze=False, sharex="col")
    thresholds = review.thresholds
    for column, seat in enumerate(seats):
        top, bottom = axes[0][column], axes[1][column]
        xs = [d.number for d in seat.decisions]
        if review.game == "liars-dice":
            _liars_standing(top, seat)
        else:
            gold = [d.known.balance_cp / 100 for d in seat.decisions
                    if isinstance(d.known, BlackjackKnown)]
            top.step(xs, gold, where="post", color="#4c72b0", label="gold (gp)")
            top.set_ylabel("gold before the round settles (gp)")
        top.set_title(f"{seat.name} (seat {seat.seat}) — {seat.result}", fontsize=9)
        top.legend(fontsize=8)
        costs = [d.cost for d in seat.decisions]
        bottom.bar(xs, costs, color=[MARK_COLOURS[d.mark] for d in seat.decisions])
        for mark in SYMBOLS:
            bottom.axhline(getattr(thresholds, mark), color=MARK_COLOURS[mark],
                           linestyle="--", linewidth=1, label=f"{mark} {SYMBOLS[mark]}")
        bottom.set_xlabel("decision")
        bottom.set_ylabel(f"cost ({thresholds.unit})")
        bottom.legend(fontsize=7)
    title = "Liar's Dice" if review.game == "liars-dice" else "Dice Blackjack"
    fig.suptitle(f"{title}: review", fontsize=11)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    return path


def _liars_standing(ax: Any, seat: SeatReview) -> None:
    xs, mine, others = [], [], []
    for d in seat.decisions:
        if not isinstance(d.known, LiarsKnown):
            continue
        rivals = [c for s, c in enumerate(d.known.dice_counts) if s != seat.seat and c > 0]
        xs.append(d.number)
        mine.append(d.known.dice_counts[seat.seat])
        others.append(sum(rivals) / len(rivals) if rivals else 0.0)
    ax.step(xs, mine, where="post", color="#4c72b0", label="dice held")
    ax.step(xs, others, where="post", color="#8c8c8c", label="an opponent's dice (mean)")
    ax.set_ylabel("dice")
    ax.set_ylim(bottom=0)
