"""Rendering for ``tavern simulate``: result tables (Rich) and bar charts (Matplotlib, Agg).

The numbers all come from :mod:`tavern_dice.play.simulate`; this module only lays
them out.
"""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from tavern_dice.cli.outputs import save_figure
from tavern_dice.play.simulate import BlackjackSimulation, LiarsDiceSimulation


def percent(x: float) -> str:
    """A proportion as a percentage with one decimal: ``'41.3 %'``."""
    return f"{x * 100:.1f} %"


def liars_table(result: LiarsDiceSimulation) -> Table:
    """One row per bot: wins, games, win rate and its Wilson 95 % interval."""
    table = Table(
        title=f"Liar's Dice: {result.games} games, seed {result.seed}, seats rotated each game",
        caption=f"even share {percent(result.even_share)} · "
        f"{result.rounds / result.games:.1f} rounds a game · 95 % Wilson intervals",
    )
    table.add_column("bot", no_wrap=True)
    table.add_column("wins", justify="right")
    table.add_column("games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95 % interval", justify="right", no_wrap=True)
    for bot in result.bots:
        table.add_row(
            bot.label, str(bot.wins), str(bot.games), percent(bot.win_rate),
            f"{percent(bot.low)} – {percent(bot.high)}",
        )
    return table


def signed(x: float) -> str:
    """A payout per unit bet with its sign and four decimals: ``'+0.0094'``."""
    return f"{x:+.4f}"


def blackjack_table(result: BlackjackSimulation) -> Table:
    """One row per bot: rounds, mean payout per 1 gp bet, its 95 % interval, and the
    solver's exact expectation where known."""
    table = Table(
        title=f"Dice Blackjack: {result.rounds} rounds, seed {result.seed}, "
        f"each bot bets {result.bet_cp // 100 if result.bet_cp % 100 == 0 else result.bet_cp}"
        f"{' gp' if result.bet_cp % 100 == 0 else ' cp'} a round",
        caption="payout per unit bet (gp won per gp bet; an exact hit pays +1.5) · "
        "95 % normal intervals of the mean",
    )
    table.add_column("bot", no_wrap=True)
    table.add_column("rounds", justify="right")
    table.add_column("mean payout", justify="right")
    table.add_column("95 % interval", justify="right", no_wrap=True)
    table.add_column("exact (solver)", justify="right")
    for bot in result.bots:
        table.add_row(
            bot.label, str(bot.rounds), signed(bot.mean),
            f"{signed(bot.low)} – {signed(bot.high)}",
            "" if bot.exact is None else signed(float(bot.exact)),
        )
    return table


def _bar_chart(
    path: Path, labels: list[str], values: list[float], lows: list[float], highs: list[float],
    *, title: str, ylabel: str, reference: float, reference_label: str,
    exact: list[float | None] | None = None,
) -> Path:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(6.0, 1.6 + 1.3 * len(labels)), 4.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(len(labels)))
    # max(0, ...): an interval's end may sit a rounding error inside its estimate.
    errors = [[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
              [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]]
    ax.bar(xs, values, yerr=errors, capsize=6, color="#4c72b0", label="estimate, 95 % interval")
    ax.axhline(reference, color="grey", linestyle="--", linewidth=1, label=reference_label)
    if exact is not None:
        points = [(x, e) for x, e in zip(xs, exact, strict=True) if e is not None]
        if points:
            ax.scatter([p[0] for p in points], [p[1] for p in points], marker="D",
                       color="#dd8452", zorder=3, label="exact (solver)")
    ax.set_xticks(xs, labels, rotation=15)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    return path


def plot_liars(result: LiarsDiceSimulation, path: Path) -> Path:
    """Bar chart of win rates with their Wilson intervals and the even share."""
    return _bar_chart(
        path, [b.label for b in result.bots], [b.win_rate for b in result.bots],
        [b.low for b in result.bots], [b.high for b in result.bots],
        title=f"Liar's Dice win rates ({result.games} games)", ylabel="win rate",
        reference=result.even_share, reference_label="even share",
    )


def plot_blackjack(result: BlackjackSimulation, path: Path) -> Path:
    """Bar chart of mean payouts per unit bet with their intervals (and the exact values)."""
    return _bar_chart(
        path, [b.label for b in result.bots], [b.mean for b in result.bots],
        [b.low for b in result.bots], [b.high for b in result.bots],
        title=f"Dice Blackjack payout per 1 gp bet ({result.rounds} rounds)",
        ylabel="mean payout per unit bet", reference=0.0, reference_label="break even",
        exact=[None if b.exact is None else float(b.exact) for b in result.bots],
    )
