"""Rendering for ``tavern odds blackjack``: the house-edge table, the strategy chart, its plot.

The numbers all come from :mod:`tavern_dice.strategy.blackjack.solver`; this module
only lays them out (Rich tables, a Matplotlib heat map drawn on the Agg backend).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from rich import box
from rich.table import Table

from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.cli.outputs import save_figure
from tavern_dice.errors import TavernError
from tavern_dice.strategy.blackjack.dial import DialResult, proficiency_for_bonus
from tavern_dice.strategy.blackjack.solver import (
    HouseResult,
    house_distribution,
    house_edges,
    solve,
)

POLICY_COLUMNS = ("optimal", "cautious", "bold")
"""The house-edge table's columns, in order."""


def proficiency_label(proficiency_bonus: int | None, rules: BlackjackRules = TAVERN) -> str:
    """``'none'`` or ``'PB 4 (+2)'``: the bonus and the most it adds under ``rules`` (B7)."""
    if proficiency_bonus is None:
        return "none"
    return f"PB {proficiency_bonus} (+{rules.bonus_cap(proficiency_bonus)})"


def format_edge(edge: Fraction) -> str:
    """A house edge as a signed percentage with three decimals, e.g. ``'+4.354 %'``."""
    return f"{float(edge) * 100:+.3f} %"


def proficiency_range(rules: BlackjackRules) -> list[int | None]:
    """The proficiency bonuses tabulated: ``None`` then 2..max_proficiency_bonus."""
    return [None, *range(2, rules.max_proficiency_bonus + 1)]


def edge_table(rules: BlackjackRules) -> Table:
    """House edge (player's expected loss per unit bet) as percentages.

    Rows: proficiency none, 2..max; columns: optimal, cautious, bold.
    """
    table = Table(
        title="Dice Blackjack house edge\n(player's expected loss per 1 gp bet; "
        "negative favours the player)",
    )
    table.add_column("proficiency", no_wrap=True)
    for name in POLICY_COLUMNS:
        table.add_column(name, justify="right", no_wrap=True)
    for pb in proficiency_range(rules):
        edges = house_edges(rules, pb)
        cells = (format_edge(edges[n]) for n in POLICY_COLUMNS)
        table.add_row(proficiency_label(pb, rules), *cells)
    return table


def exact_decimal(edge: Fraction, places: int = 12) -> str:
    """An exact edge as a signed decimal rounded to ``places`` places.

    >>> exact_decimal(Fraction(-1, 3))
    '-0.333333333333'
    """
    return f"{float(edge):+.{places}f}"


def exact_edge_table(rules: BlackjackRules, *, fractions: bool = False) -> Table:
    """The same house edges per unit bet, one row per (proficiency, play): as decimals to 12
    places, or with ``fractions`` as the exact fractions the solver found."""
    title = "Exact house edges (per unit bet" + (", as fractions)" if fractions else ")")
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("proficiency", no_wrap=True)
    table.add_column("play", no_wrap=True)
    table.add_column("house edge", justify="right", overflow="fold")
    for pb in proficiency_range(rules):
        edges = house_edges(rules, pb)
        for i, name in enumerate(POLICY_COLUMNS):
            label = proficiency_label(pb, rules) if i == 0 else ""
            shown = str(edges[name]) if fractions else exact_decimal(edges[name])
            table.add_row(label, name, shown, end_section=i == len(POLICY_COLUMNS) - 1)
    return table


def chart_houses(rules: BlackjackRules) -> list[HouseResult]:
    """The chart's columns: every house roll that can occur, then ``None`` (house bust)."""
    top = min(rules.house_sides, rules.target_sides)
    return [*range(1, top + 1), None]


def chart_targets(rules: BlackjackRules) -> list[int]:
    """The chart's rows: targets 2..target_sides (1 too when it is played, not collected)."""
    first = 2 if rules.target_one_collects else 1
    return list(range(first, rules.target_sides + 1))


def stand_at_grid(rules: BlackjackRules, proficiency_bonus: int | None) -> list[list[int | None]]:
    """``grid[i][j]``: the stand-at total for ``chart_targets[i]`` and ``chart_houses[j]``,
    ``None`` where that house result cannot happen for that target."""
    solution = solve(rules, proficiency_bonus)
    grid: list[list[int | None]] = []
    for target in chart_targets(rules):
        possible = house_distribution(rules, target)
        grid.append(
            [solution.stand_at(target, h) if h in possible else None for h in chart_houses(rules)]
        )
    return grid


def chart_table(rules: BlackjackRules, proficiency_bonus: int | None) -> Table:
    """The basic-strategy card: rows target, columns house roll and bust.

    Each cell is the smallest total at which to stand (roll below it, stand from it
    on). Red marks "go for the exact target" (stand only where the total, with the
    bonus, hits it), dim marks "stand on anything". A ``*`` would mark a cell where
    the best play is not a plain threshold (none occur under the seed's rules).
    """
    solution = solve(rules, proficiency_bonus)
    caption = (
        "Roll below the number, stand from it (then add the best bonus). "
        "Rows = target, columns = house roll (bust = the house busted), "
        "· = cannot happen, red = go for the exact target, dim = stand on anything"
    )
    table = Table(
        title=f"Stand at, proficiency {proficiency_label(proficiency_bonus, rules)}",
        box=box.SIMPLE_HEAD,
        padding=(0, 0),
        pad_edge=False,
    )
    table.add_column("T", justify="right", style="bold", min_width=2, no_wrap=True)
    for house in chart_houses(rules):
        header = "bust" if house is None else str(house)
        table.add_column(header, justify="right", min_width=2, no_wrap=True)
    grid = stand_at_grid(rules, proficiency_bonus)
    irregular = False
    for target, row in zip(chart_targets(rules), grid, strict=True):
        cells: list[str] = []
        for house, stand in zip(chart_houses(rules), row, strict=True):
            if stand is None:
                cells.append("[dim]·[/dim]")
                continue
            text = str(stand)
            if not solution.is_threshold(target, house):
                text += "*"
                irregular = True
            if stand + solution.bonus(target, house, stand) == target:
                text = f"[bold red]{text}[/bold red]"
            elif stand == 1:
                text = f"[dim]{text}[/dim]"
            cells.append(text)
        table.add_row(str(target), *cells)
    if irregular:
        caption += ", * = stands here but rolls again at some higher total"
    table.caption = caption
    return table


def plot_chart(rules: BlackjackRules, proficiency_bonus: int | None, path: Path) -> Path:
    """Draw the strategy chart as a heat map PNG at ``path`` (Matplotlib, Agg backend).

    Colour: how far below the target the player stops (``target - stand_at``; 0 means
    roll for the exact target); each cell is labelled with the stand-at total.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    targets = chart_targets(rules)
    houses = chart_houses(rules)
    grid = stand_at_grid(rules, proficiency_bonus)
    margin = [
        [math.nan if s is None else float(t - s) for s in row]
        for t, row in zip(targets, grid, strict=True)
    ]
    fig = Figure(figsize=(1.0 + 0.45 * len(houses), 1.0 + 0.4 * len(targets)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    image = ax.imshow(margin, cmap="viridis", aspect="auto")
    top = max((m for row in margin for m in row if not math.isnan(m)), default=0.0)
    for i, row in enumerate(grid):
        for j, stand in enumerate(row):
            if stand is not None:
                colour = "black" if margin[i][j] > top / 2 else "white"
                ax.text(j, i, str(stand), ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(houses)), ["bust" if h is None else str(h) for h in houses])
    ax.set_yticks(range(len(targets)), [str(t) for t in targets])
    ax.set_xlabel("house roll")
    ax.set_ylabel("target")
    label = proficiency_label(proficiency_bonus, rules)
    ax.set_title(f"Dice Blackjack: stand-at total (proficiency {label})")
    fig.colorbar(image, ax=ax, label="target − stand-at total")
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    return path


# --------------------------------------------------------------------------- the edge dial


def parse_bonuses(text: str) -> tuple[int, ...]:
    """Read the table's bonuses added on standing: ``'0,1,2,3'`` or ``'+1, +3'``.

    Raises:
        TavernError: text that is not whole numbers separated by commas.
    """
    parts = [p.strip().removeprefix("+") for p in text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        raise TavernError(
            f"bonuses are whole numbers separated by commas, such as 0,1,2,3 or +1,+3; "
            f"not {text!r}"
        )
    return tuple(int(p) for p in parts)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _percent(edge: Fraction) -> str:
    """A short signed percentage for the dial's table, e.g. ``'+1.83%'``."""
    return f"{float(edge) * 100:+.2f}%"


def dial_table(result: DialResult) -> Table:
    """Every candidate of the dial with its exact edges as percentages, lowest edge first;
    the chosen one is marked."""
    bonuses = result.chosen.bonuses
    table = Table(
        title="Table rules by house edge against a perfect player\n(per gp bet; negative "
        f"favours the players; target {format_edge(result.target).strip()})",
        caption="pays: an exact hit pays; ties: the house wins a tie on the target (B8); "
        "under: a house die must be under the target (B5); cap: the most a player may add "
        "(B7); table: the mean over the bonuses",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,  # ten columns fit an 80-column terminal
        pad_edge=False,
    )
    for header in ("", "pays", "ties", "under", "cap"):
        table.add_column(header, justify="right", no_wrap=True)
    for bonus in bonuses:
        table.add_column(f"+{bonus}", justify="right", no_wrap=True)
    table.add_column("table", justify="right", no_wrap=True, style="bold")
    for cand in sorted(result.candidates, key=lambda c: (c.table_edge, c.changes)):
        rules = cand.rules
        chosen = cand is result.chosen
        cap = "none" if rules.max_added_bonus is None else f"+{rules.max_added_bonus}"
        table.add_row(
            "→" if chosen else "", rules.payout_text(), _yes(rules.house_exact_beats_player_exact),
            _yes(rules.house_needs_under), cap, *(_percent(e) for e in cand.edges),
            _percent(cand.table_edge), style="bold green" if chosen else None,
        )
    return table


def dial_lines(result: DialResult) -> list[str]:
    """The chosen rules, their exact edges (fractions per unit bet) and the commands that
    play them."""
    chosen = result.chosen
    rules = chosen.rules
    bonuses = ", ".join(f"+{b}" for b in chosen.bonuses)
    described = [f"an exact hit pays {rules.payout_text()}"]
    if rules.house_exact_beats_player_exact:
        described.append("the house wins a tie on the target")
    if rules.house_needs_under:
        described.append("a house die must be under the target")
    if rules.max_added_bonus is not None:
        described.append(f"players add at most +{rules.max_added_bonus}")
    flags = " ".join(chosen.flags())
    lines = [
        f"[bold]Chosen[/] for a house edge of {format_edge(result.target).strip()} with "
        f"bonuses {bonuses}: {', '.join(described)}.",
        f"Table edge (mean over the bonuses): {format_edge(chosen.table_edge).strip()} = "
        f"{chosen.table_edge} per gp bet.",
    ]
    for bonus, edge in zip(chosen.bonuses, chosen.edges, strict=True):
        lines.append(f"  +{bonus}: house edge {edge} = {format_edge(edge).strip()}")
    bots = ",".join(
        "optimal" if b == 0 else f"optimal:{proficiency_for_bonus(b, rules)}"
        for b in chosen.bonuses
    )
    if flags:
        lines += [
            "Play these rules (and check them against perfect players):",
            f"  tavern play blackjack {flags}",
            f"  tavern simulate blackjack --bots {bots} {flags}",
        ]
    else:
        lines.append("These are the seed's rules: no flags needed.")
    return lines
