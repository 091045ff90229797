"""``tavern play liars-dice`` and ``tavern play blackjack``: a game at the terminal.

People and bots take seats; :mod:`tavern_dice.play.runner` drives the engine and
reports every event to a narrator that prints it (masked for the person, when
one plays). With no person seated the game runs unattended and prints every
move; with ``--seed`` the output is the same on every run.

Ctrl-C or the end of input leaves with a goodbye line (exit code 130 or 0),
saving the game first when ``--save`` was given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent
from tavern_dice.bots.levels import MIDDLE_LIARS_LEVEL
from tavern_dice.bots.registry import (
    BLACKJACK_BOTS,
    DEFAULT_BET_CP,
    LIARS_DICE_BOTS,
    make_blackjack_bot,
    make_liars_dice_bot,
)
from tavern_dice.cli import render_blackjack, render_liars
from tavern_dice.cli.app import command_group
from tavern_dice.cli.human import HumanBlackjack, HumanLiarsDice, ask_play_on
from tavern_dice.cli.levels import opponents_note, rate_game, talking
from tavern_dice.cli.options import (
    BotSpec,
    DiceChoice,
    DiceMode,
    ExactPayout,
    HouseExactBeatsPlayerExact,
    HouseNeedsUnder,
    MaxAddedBonus,
    Seat,
    amount,
    blackjack_rules,
    choose_dice,
    derive_seed,
    parse_bots,
    plan_seats,
    read_faces,
    with_liars_rules,
)
from tavern_dice.cli.outputs import check_writable
from tavern_dice.cli.terminal import LogFollower, QuitGame, Terminal
from tavern_dice.cli.thinking import ThinkingSeat
from tavern_dice.dice import RollSpec
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.money import format_cp
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice

play_app = command_group(
    "play",
    "Play at the terminal: against bots, with friends at one keyboard (hot seat), or watch "
    "bots play.",
)

DEFAULT_LIARS_BOT = MIDDLE_LIARS_LEVEL.kind
"""The bot in the seats nobody names: a middle rated level, for someone alone at the
terminal who wants a fair game (``--bots`` seats any other level or bot; ``tavern levels``
lists them)."""
DEFAULT_LIARS_TABLE = 4
DEFAULT_BOT_ROUNDS = 10
"""Rounds of an all-bot Dice Blackjack session when ``--rounds`` is not given."""

Players = Annotated[
    int | None,
    typer.Option(
        "--players", "-n",
        help="Seats at the table. Seats not taken by --bots are people (hot seat for more "
        "than one; --bots none: people only). Default: you (or each --name) plus the "
        "default bots, or just the --bots if given.",
    ),
]
Bots = Annotated[
    str | None,
    typer.Option(
        "--bots", "-b", metavar="KIND,KIND,...",
        help="Bots to seat, by kind ('none': people only). As many bots as --players: an "
        "all-bot game that runs unattended.",
    ),
]
Names = Annotated[
    list[str] | None,
    typer.Option("--name", help="A person's name; repeat it to seat more people at this "
                 "keyboard (hot seat): --name Ann --name Bea."),
]
Seed = Annotated[
    int | None,
    typer.Option(
        "--seed", min=0, help="Seed the dice (and the bots): the same seed plays the same game "
        "(0 or more). "
        "Default: the OS's secure RNG when a person plays.",
    ),
]
Dice = Annotated[
    DiceMode,
    typer.Option(
        "--dice", case_sensitive=False,
        help="auto: computer dice; manual: the people type in the faces of their physical "
        "dice (and the house's); bots roll their own in secret.",
    ),
]
Save = Annotated[
    Path | None,
    typer.Option(
        "--save", dir_okay=False, metavar="GAME.json",
        help="Write the game's log here at the end (or when you quit); `tavern replay` shows it. "
        "An existing file is kept unless --overwrite is given.",
    ),
]
Overwrite = Annotated[
    bool,
    typer.Option("--overwrite", help="Let --save replace a file that already exists."),
]
Hints = Annotated[
    bool,
    typer.Option(
        "--hints", help="Before each of your choices, show the odds and expected payouts "
        "worked out from what you can see (dim lines marked 'hint:').",
    ),
]


# ---------------------------------------------------------------------- shared session code


def _manual_roller(
    terminal: Terminal, names: Sequence[str], before: list[Callable[[], None]]
) -> Callable[[RollSpec, str | None], Sequence[int]]:
    """The ``ManualDice`` callback: says whose dice, how many and which kind, and reads them.

    ``before`` holds hooks run first (showing the events logged since the last report).
    """
    purposes = {
        "roll-off": " for the roll-off (in public)",
        "round": " in secret",
        "target": " (the large d20: the target number)",
        "house": " (the house roll)",
    }

    def ask(spec: RollSpec, problem: str | None) -> Sequence[int]:
        for hook in before:
            hook()
        if problem:
            terminal.console.print(f"  [bold red]✗[/] {escape(problem)}")
        who = "The house" if spec.seat is None else names[spec.seat]
        if spec.secret and spec.seat is not None:
            terminal.hand_to(names[spec.seat])
        dice = f"a d{spec.sides}" if spec.count == 1 else f"{spec.count}d{spec.sides}"
        prompt = (
            f"  [bold]{escape(who)}[/]: roll {dice}{purposes.get(spec.purpose, '')} "
            "and type the faces:"
        )
        return read_faces(terminal.ask(prompt), spec)

    return ask


def _dice_line(choice: DiceChoice, mode: DiceMode) -> str:
    if mode is DiceMode.MANUAL:
        return "Dice: physical, typed in by hand."
    if choice.generated:
        return f"Dice seed {choice.seed} (run again with --seed {choice.seed} for the same game)."
    if choice.seed is not None:
        return f"Dice seeded with --seed {choice.seed}."
    return "Dice: the operating system's secure random numbers."


def _bot_seed(choice: DiceChoice, seat: int) -> int | None:
    return None if choice.seed is None else derive_seed(choice.seed, seat)


def _run(
    terminal: Terminal, body: Callable[[], None], save: Path | None,
    log: Callable[[], dict[str, Any] | None],
    on_leave: Callable[[], None] | None = None,
) -> None:
    """Run a session; on ``quit``, Ctrl-C or end of input say goodbye (after ``on_leave``,
    e.g. the final balances); save if asked; set the exit code."""
    code = 0
    console = terminal.console
    try:
        body()
    except KeyboardInterrupt:
        console.print("\n[bold]Goodbye![/] The game was left unfinished.")
        code = 130
    except QuitGame:
        if on_leave is not None:
            on_leave()
        console.print("[bold]Goodbye![/] You left the game.")
    except EOFError:
        if on_leave is not None:
            on_leave()
        console.print("\n[bold]Goodbye![/] Input ended before the game did.")
    except TavernError as error:
        # An engine refusal that no prompt caught: a bot bug, or dice typed wrong too often.
        console.print(f"[bold red]error:[/] {escape(str(error))}")
        code = 1
    if save is not None:
        data = log()
        if data is not None:
            try:
                save.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            except OSError as error:
                console.print(f"[bold red]error:[/] cannot save to {escape(str(save))}: "
                              f"{escape(error.strerror or str(error))}")
                code = code or 1
            else:
                console.print(f"Saved the game to {escape(str(save))}; "
                              f"see it again with: tavern replay {escape(str(save))}")
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------- Liar's Dice


def _default_liars_bots(players: int | None, people: int) -> list[BotSpec]:
    seats = DEFAULT_LIARS_TABLE if players is None else players
    return [BotSpec(DEFAULT_LIARS_BOT)] * max(0, seats - people)


def _with_people(log: dict[str, Any], people: Sequence[int]) -> dict[str, Any]:
    """The log to save, with the seats people played (``"people"``): ``tavern review``
    reviews theirs by default. Engines replaying the log ignore the entry."""
    return {**log, "people": list(people)}


def _check_save(save: Path | None, overwrite: bool) -> None:
    """Refuse a ``--save`` file that could not be written, or that exists (unless
    ``--overwrite``), before the game, not after it."""
    if save is not None:
        check_writable(save, "--save", overwrite=overwrite)


@play_app.command("liars-dice")
@with_liars_rules
def liars_dice(
    players: Players = None,
    bots: Bots = None,
    name: Names = None,
    seed: Seed = None,
    dice: Dice = DiceMode.AUTO,
    save: Save = None,
    overwrite: Overwrite = False,
    hints: Hints = False,
    *,
    rules: LiarsDiceRules,
) -> None:
    """Liar's Dice: by default you against three opponents of a middle level (Mags).

    Levels, weakest first: pip, tobb, bess, mags, aldous, vell (`tavern levels`); bots:
    random, probabilistic, bluffer, trusting, equilibrium, strong, careless.

    \b
    An all-bot game:
      tavern play liars-dice --players 4 --seed 7 \\
        --bots probabilistic,probabilistic,random,random
    """
    _check_save(save, overwrite)
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise typer.BadParameter(
            f"Liar's Dice takes {rules.min_players}-{rules.max_players} players, not "
            f"{players}", param_hint="--players",
        )
    specs = parse_bots(bots, LIARS_DICE_BOTS)
    seats = plan_seats(players, specs, name, default_bots=_default_liars_bots)
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise typer.BadParameter(
            f"Liar's Dice takes {rules.min_players}-{rules.max_players} players, not "
            f"{len(seats)}", param_hint="--players",
        )
    people = [i for i, s in enumerate(seats) if s.is_person]
    terminal = Terminal()
    terminal.people = len(people)
    names = [s.name for s in seats]
    hooks: list[Callable[[], None]] = []
    choice = choose_dice(
        dice, seed, has_person=bool(people), ask_roll=_manual_roller(terminal, names, hooks),
        people=people,
    )
    console = terminal.console
    console.print(f"[bold]Liar's Dice[/] · {render_liars.rules_summary(rules)} · "
                  f"{rules.dice_per_player} {'die' if rules.dice_per_player == 1 else 'dice'} each")
    console.print("Players: " + ", ".join(escape(_label(s, people)) for s in seats))
    if specs is None and people:
        console.print(opponents_note(len(seats) - len(people)))
    console.print(_dice_line(choice, dice))
    holder: list[LiarsDiceGame] = []

    def body() -> None:
        # Chance nodes are resolved here, not in the constructor, so that typed-in dice are
        # asked for after the events before them have been shown.
        game = LiarsDiceGame(names, rules=rules, dice=choice.source, auto_roll=False)
        holder.append(game)
        narrator = render_liars.LiarsNarrator(
            console, names, rules, viewer=people[0] if len(people) == 1 else None,
            reveal_all=not people,
        )
        follow = LogFollower(game.log, talking(console, seats, narrator))
        hooks.append(follow.catch_up)
        # The game rolls nothing itself (its chance policy, fixed here): the runner asks
        # its dice source at each chance node, after the events before it are shown.
        labels = [s.label for s in seats]
        agents: list[LiarsDiceAgent] = []
        for i, s in enumerate(seats):
            if s.bot is None:
                agents.append(HumanLiarsDice(s.name, i, None, terminal, labels, hints=hints))
            else:
                agents.append(ThinkingSeat(
                    make_liars_dice_bot(s.bot.kind, name=s.name, seed=_bot_seed(choice, i)),
                    console,
                ))
        winner = play_liars_dice(game, agents, observer=follow)
        console.print(f"Winner: [bold]{escape(names[winner])}[/] after {_rounds(game.round)}.")
        rate_game(console, game, seats)

    _run(terminal, body, save,
         lambda: _with_people(holder[0].to_log(), people) if holder else None)


def _rounds(count: int) -> str:
    return f"{count} round" + ("" if count == 1 else "s")


def _label(seat: Seat, people: Sequence[int]) -> str:
    return seat.label + (" (you)" if seat.is_person and len(people) == 1 else "")


# ---------------------------------------------------------------------- Dice Blackjack

BlackjackBots = Annotated[
    str | None,
    typer.Option(
        "--bots", "-b", metavar="KIND[:PB],...",
        help="Bots (nell, brannoc, sabine; cautious, bold, optimal), each optionally with "
        "a proficiency bonus: bold:4. As many bots as --players: an all-bot session.",
    ),
]
Gold = Annotated[
    str, typer.Option("--gold", help="Everyone's starting gold, e.g. '10 gp' or '250' cp.")
]
Proficiency = Annotated[
    int | None,
    typer.Option(
        "--proficiency", "-p", min=2, max=BLACKJACK_TAVERN.max_proficiency_bonus,
        help="The people's proficiency bonus (Performance, Deception or thieves' tools).",
    ),
]
Rounds = Annotated[
    int | None,
    typer.Option(
        "--rounds", min=1,
        help=f"Rounds to play (all-bot default {DEFAULT_BOT_ROUNDS}); a person is also "
        "asked after each round whether to play on.",
    ),
]
BotBet = Annotated[
    str | None,
    typer.Option(
        "--bot-bet", help=f"What each bot bets a round (default {format_cp(DEFAULT_BET_CP)})."
    ),
]
MinBet = Annotated[str | None, typer.Option("--min-bet", help="Table minimum bet.")]
MaxBet = Annotated[str | None, typer.Option("--max-bet", help="Table maximum bet.")]


@play_app.command("blackjack")
def blackjack(
    players: Players = None,
    bots: BlackjackBots = None,
    name: Names = None,
    seed: Seed = None,
    dice: Dice = DiceMode.AUTO,
    save: Save = None,
    overwrite: Overwrite = False,
    hints: Hints = False,
    gold: Gold = "10 gp",
    proficiency: Proficiency = None,
    rounds: Rounds = None,
    bot_bet: BotBet = None,
    house_needs_under: HouseNeedsUnder = None,
    house_exact_beats_player_exact: HouseExactBeatsPlayerExact = None,
    min_bet: MinBet = None,
    max_bet: MaxBet = None,
    exact_payout: ExactPayout = None,
    max_added_bonus: MaxAddedBonus = None,
) -> None:
    """Dice Blackjack: you against the house (the DM), bots optional.

    Bots: nell, brannoc, sabine (least skilled first); cautious, bold, optimal.

    \b
    An all-bot session:
      tavern play blackjack --bots cautious,bold --rounds 20 --seed 3
    """
    rules = blackjack_rules(
        BLACKJACK_TAVERN, house_needs_under=house_needs_under,
        house_exact_beats_player_exact=house_exact_beats_player_exact,
        min_bet=min_bet, max_bet=max_bet, exact_payout=exact_payout,
        max_added_bonus=max_added_bonus,
    )
    start_cp = amount(gold, "--gold")
    bet_cp = DEFAULT_BET_CP if bot_bet is None else amount(bot_bet, "--bot-bet")
    _check_save(save, overwrite)
    specs = parse_bots(bots, BLACKJACK_BOTS, allow_proficiency=True)
    seats = plan_seats(players, specs, name, default_bots=lambda n, people: [])
    if not seats:
        raise typer.BadParameter(
            "nobody at the table: give --players or --bots", param_hint="--players"
        )
    people = [i for i, s in enumerate(seats) if s.is_person]
    profs = [proficiency if s.bot is None else s.bot.proficiency for s in seats]
    terminal = Terminal()
    names = [s.name for s in seats]
    hooks: list[Callable[[], None]] = []
    choice = choose_dice(
        dice, seed, has_person=bool(people), ask_roll=_manual_roller(terminal, names, hooks),
        people=people,
    )
    limit = rounds if rounds is not None or people else DEFAULT_BOT_ROUNDS
    console = terminal.console
    try:
        game = BlackjackGame(
            names, rules=rules, dice=choice.source, balances=start_cp, proficiency=profs,
        )
    except TavernError as error:
        # The engine's refusal of the table (seats, gold, proficiency) names what is legal.
        raise typer.BadParameter(str(error), param_hint="--players / --bots") from None
    console.print(f"[bold]Dice Blackjack[/] · {render_blackjack.rules_summary(rules)} · "
                  f"starting gold {format_cp(start_cp)}")
    console.print("Players: " + ", ".join(
        escape(_label(s, people)) + (f" PB {p}" if p else "")
        for s, p in zip(seats, profs, strict=True)
    ))
    console.print(_dice_line(choice, dice))
    agents = _blackjack_agents(seats, terminal, choice, bet_cp, hints=hints)
    narrator = render_blackjack.BlackjackNarrator(
        console, names, viewer=people[0] if len(people) == 1 else None
    )
    follow = LogFollower(game.log, talking(console, seats, narrator))
    hooks.append(follow.catch_up)
    session = _BlackjackSession(game, names, agents, follow, terminal, people, limit)
    _run(terminal, session.play, save, lambda: _with_people(game.to_log(), people),
         on_leave=session.summary)


def _blackjack_agents(seats: Sequence[Seat], terminal: Terminal, choice: DiceChoice,
                      bet_cp: int, *, hints: bool) -> list[BlackjackAgent | None]:
    """Who plays each seat: a person at this keyboard, or a bot seeded from the dice."""
    agents: list[BlackjackAgent | None] = []
    for i, s in enumerate(seats):
        if s.bot is None:
            agents.append(HumanBlackjack(s.name, i, None, terminal, hints=hints))
        else:
            agents.append(make_blackjack_bot(
                s.bot.kind, name=s.name, seed=_bot_seed(choice, i), bet_cp=bet_cp
            ))
    return agents


@dataclass
class _BlackjackSession:
    """Rounds of Dice Blackjack until the table's gold, the round limit or the people
    end them; then the balances."""

    game: BlackjackGame
    names: Sequence[str]
    agents: list[BlackjackAgent | None]
    follow: LogFollower
    terminal: Terminal
    people: Sequence[int]
    limit: int | None

    def play(self) -> None:
        game, people, rules = self.game, self.people, self.game.rules
        console = self.terminal.console
        played = 0
        while True:
            play_blackjack_round(game, self.agents, observer=self.follow)
            played += 1
            if game.is_over:
                console.print(
                    f"Nobody has the table minimum of {format_cp(rules.min_bet_cp)} left."
                )
                break
            if people and all(game.balances[s] < rules.min_bet_cp for s in people):
                console.print("[bold]You are out of gold.[/] The house thanks you.")
                break
            if self.limit is not None and played >= self.limit:
                break
            if people and not ask_play_on(self.terminal):
                break
        self.summary()

    def summary(self) -> None:
        game = self.game
        console = self.terminal.console
        console.print()
        console.print(f"[bold]After {_rounds(game.round)}.[/]")
        console.print(
            render_blackjack.balances_line(self.names, game.starting_balances,
                                           game.balances),
            markup=False,
        )
        console.print(f"House net: {render_blackjack.signed_cp(game.house_net)}")
