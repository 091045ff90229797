"""`tavern odds`: exact odds and strategy for the tavern games.

Each game is one command on :data:`odds_app`; its rendering lives in a helper
module (``odds_blackjack``) so that this file stays a list of commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.cli.app import command_group
from tavern_dice.cli.options import (
    ExactPayout,
    HouseExactBeatsPlayerExact,
    HouseNeedsUnder,
    LiarsPreset,
    MaxAddedBonus,
    SpotOn,
    WildFace,
    blackjack_rules,
    liars_rules,
)
from tavern_dice.cli.outputs import check_plot

odds_app = command_group("odds", "Exact odds and best play: house edges, strategy charts.")


@odds_app.command("blackjack")
def blackjack(
    proficiency: Annotated[
        int | None,
        typer.Option(
            "--proficiency",
            "-p",
            min=2,
            max=BLACKJACK_TAVERN.max_proficiency_bonus,
            help="Proficiency bonus for the strategy chart (default: not proficient).",
        ),
    ] = None,
    house_needs_under: HouseNeedsUnder = None,
    house_exact_beats_player_exact: HouseExactBeatsPlayerExact = None,
    fractions: Annotated[
        bool,
        typer.Option("--fractions", help="Show the exact house edges as fractions (default: "
                     "decimals)."),
    ] = False,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", metavar="CHART.png",
                     help="Also draw the strategy chart as a heat map here."),
    ] = None,
    exact_payout: ExactPayout = None,
    max_added_bonus: MaxAddedBonus = None,
    edge: Annotated[
        str | None,
        typer.Option(
            "--edge", metavar="EDGE",
            help="The DM's dial: find the table rules whose house edge against a perfect "
            "player is closest to EDGE (e.g. 2%), trying the exact-hit payout, house wins "
            "ties, house die under the target and a bonus cap.",
        ),
    ] = None,
    bonuses: Annotated[
        str,
        typer.Option(
            "--bonuses", metavar="+B,...",
            help="With --edge: the bonuses the table's players add on standing (+0 not "
            "proficient, +1 for PB 2, +2 for PB 3-4, +3 for PB 5-6).",
        ),
    ] = "0,1,2,3",
) -> None:
    """Dice Blackjack: house edge by proficiency and play, and the best-play chart.

    With --edge, the DM's dial instead: tavern odds blackjack --edge 2%
    """
    from tavern_dice.cli import odds_blackjack as render

    if plot is not None:
        check_plot(plot)
    console = Console()
    if edge is not None:
        _edge_dial(console, edge, bonuses, changed={
            "--house-needs-under": house_needs_under is not None,
            "--house-exact-beats-player-exact": house_exact_beats_player_exact is not None,
            "--exact-payout": exact_payout is not None,
            "--max-added-bonus": max_added_bonus is not None,
        })
        return
    rules = blackjack_rules(
        BLACKJACK_TAVERN, house_needs_under=house_needs_under,
        house_exact_beats_player_exact=house_exact_beats_player_exact,
        min_bet=None, max_bet=None, exact_payout=exact_payout, max_added_bonus=max_added_bonus,
    )
    console.print(render.edge_table(rules))
    console.print(render.exact_edge_table(rules, fractions=fractions))
    console.print(render.chart_table(rules, proficiency))
    if plot is not None:
        render.plot_chart(rules, proficiency, plot)
        console.print(f"chart written to {plot}")


def _edge_dial(console: Console, edge: str, bonuses: str, changed: dict[str, bool]) -> None:
    """``--edge``: choose table rules for a house edge (the dial picks the options itself)."""
    from tavern_dice.cli import odds_blackjack as render
    from tavern_dice.errors import TavernError
    from tavern_dice.strategy.blackjack.dial import dial, parse_edge

    given = [flag for flag, was_given in changed.items() if was_given]
    if given:
        raise typer.BadParameter(
            f"--edge chooses the payout, the tie rule, the house's 'under' reading and the "
            f"bonus cap itself; drop {', '.join(given)}",
            param_hint="--edge",
        )
    try:
        target = parse_edge(edge)
    except TavernError as error:
        raise typer.BadParameter(str(error), param_hint="--edge") from None
    try:
        table_bonuses = render.parse_bonuses(bonuses)
        with console.status("Solving every candidate exactly..."):
            result = dial(target, table_bonuses)
    except TavernError as error:
        raise typer.BadParameter(str(error), param_hint="--bonuses") from None
    console.print(render.dial_table(result))
    for line in render.dial_lines(result):
        console.print(line, highlight=False, soft_wrap=line.startswith("  tavern "))


@odds_app.command("liars-dice")
def liars_dice(
    dice_in_play: Annotated[
        int,
        typer.Option("--dice-in-play", "-d", min=1, help="All dice on the table, yours included."),
    ],
    wager: Annotated[
        str,
        typer.Option("--wager", "-w", help="The wager: '4x2', '4 twos', or 'sum 7' in the "
                     "two-player, one-die endgame."),
    ],
    mine: Annotated[
        str,
        typer.Option("--mine", "-m", help="Your own dice, e.g. 2,2,5,6,6 (default: none seen)."),
    ] = "",
    players: Annotated[
        int | None,
        typer.Option("--players", "-n",
                     help="Players still in the game (who else loses on a spot-on)."),
    ] = None,
    preset: LiarsPreset = "tavern",
    wild_face: WildFace = None,
    spot_on: SpotOn = None,
) -> None:
    """Liar's Dice: the chance a wager is false, true or exact, and who pays for each.

    \b
    Example:
      tavern odds liars-dice --dice-in-play 12 --mine 2,2,5,6,6 --wager 4x2
    """
    from tavern_dice.cli import odds_liars as render
    from tavern_dice.cli.render_liars import rules_summary
    from tavern_dice.errors import TavernError
    from tavern_dice.liars_dice.wager import SumWager, check_wager_range, parse_wager
    from tavern_dice.strategy.liars_dice.odds import wager_odds

    rules = liars_rules(
        preset, raise_rule=None, wild_face=wild_face, spot_on=spot_on, sum_endgame=None,
        dice_per_player=None,
    )
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(
            f"Liar's Dice takes {rules.min_players}-{rules.max_players} players, not "
            f"{players}", param_hint="--players",
        )
    try:
        own = render.parse_dice(mine)
    except TavernError as error:
        raise typer.BadParameter(str(error), param_hint="--mine") from None
    try:
        claim = parse_wager(wager)
    except TavernError as error:
        raise typer.BadParameter(str(error), param_hint="--wager") from None
    if players is not None and dice_in_play < players:
        raise typer.BadParameter(
            f"{players} players in the game hold at least {players} dice, not {dice_in_play}",
            param_hint="--dice-in-play",
        )
    try:
        odds = wager_odds(claim, own, dice_in_play, rules)
    except TavernError as error:
        raise typer.BadParameter(str(error)) from None
    try:
        # No table could hear this wager (13 twos with 12 dice in play): the engine's L4.
        check_wager_range(claim, dice_in_play, rules.sides)
    except TavernError as error:
        raise typer.BadParameter(str(error), param_hint="--wager") from None
    table_size = players or (2 if isinstance(claim, SumWager) else render.DEFAULT_TABLE)
    costs = render.table_costs(table_size, rules)
    console = Console()
    yours = " ".join(str(d) for d in own) if own else "none seen"
    console.print(
        f"[bold]Liar's Dice odds[/] · {rules_summary(rules)} · {dice_in_play} dice in play · "
        f"your dice: {yours}"
    )
    console.print(render.needed_line(claim, own, dice_in_play, rules))
    if isinstance(claim, SumWager) and (dice_in_play != 2 or players not in (None, 2)):
        console.print(
            "[yellow]note:[/] sum wagers are made only when two players have one die each (L10)."
        )
    console.print(render.odds_table(claim, odds, costs))
    if players is None:
        console.print(f"(Costs shown for {table_size} players; give --players for your table.)")
    console.print(render.expected_loss_line(odds, costs))
