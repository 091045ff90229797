"""Seating, option parsing and the renderers' helpers for ``tavern play``."""

from __future__ import annotations

import hashlib
import inspect

import pytest
import typer
from rich.console import Console

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK
from tavern_dice.cli.options import (
    BotSpec,
    DiceMode,
    Seat,
    blackjack_rules,
    choose_dice,
    derive_seed,
    liars_rules,
    parse_bots,
    plan_seats,
    read_faces,
    with_liars_rules,
)
from tavern_dice.cli.render_liars import LiarsNarrator, legal_summary, lowest_raises
from tavern_dice.cli.terminal import LogFollower
from tavern_dice.dice import ManualDice, RollSpec, SecureDice, SeededDice
from tavern_dice.errors import InvalidDiceError
from tavern_dice.events import Event
from tavern_dice.liars_dice.events import Revealed, WagerMade
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import SumWager, Wager

KNOWN = {"random": object(), "probabilistic": object()}


def three(players: int | None, people: int) -> list[BotSpec]:
    """The default bots: enough to fill a table of four (or of ``players``)."""
    return [BotSpec("probabilistic")] * max(0, (4 if players is None else players) - people)


def people(seats: list[Seat]) -> list[str]:
    return [s.name for s in seats if s.is_person]


def test_default_table_is_one_person_and_three_bots() -> None:
    seats = plan_seats(None, None, None, default_bots=three)
    assert [s.label for s in seats] == [
        "Player", "Bo (probabilistic)", "Cy (probabilistic)", "Di (probabilistic)"
    ]


def test_bots_alone_make_an_unattended_table_and_a_name_adds_a_person() -> None:
    bots = parse_bots("random, Probabilistic", KNOWN)
    assert bots == [BotSpec("random"), BotSpec("probabilistic")]
    assert people(plan_seats(None, bots, None, default_bots=three)) == []
    assert people(plan_seats(None, bots, ["Ann"], default_bots=three)) == ["Ann"]


def test_fewer_bots_than_players_seats_people_and_bot_names_avoid_theirs() -> None:
    seats = plan_seats(4, [BotSpec("random")] * 2, ["Bo"], default_bots=three)
    assert [s.name for s in seats] == ["Bo", "Player 2", "Cy", "Di"]
    assert people(seats) == ["Bo", "Player 2"]


def test_two_names_seat_two_people_with_the_default_bots() -> None:
    seats = plan_seats(None, None, ["Ann", "Bea"], default_bots=three)
    assert [s.label for s in seats] == ["Ann", "Bea", "Bo (probabilistic)", "Cy (probabilistic)"]
    assert people(plan_seats(3, None, ["Ann", "Bea"], default_bots=three)) == ["Ann", "Bea"]
    assert len(plan_seats(3, None, ["Ann", "Bea"], default_bots=three)) == 3


def test_bots_none_seats_only_people() -> None:
    assert parse_bots("none", KNOWN) == [] and parse_bots(" None ", KNOWN) == []
    seats = plan_seats(3, parse_bots("none", KNOWN), ["Ann"], default_bots=three)
    assert [s.name for s in seats] == ["Ann", "Player 2", "Player 3"]


def test_seating_mistakes_are_usage_errors() -> None:
    with pytest.raises(typer.BadParameter, match="3 bots do not fit at a table of 2"):
        plan_seats(2, [BotSpec("random")] * 3, None, default_bots=three)
    with pytest.raises(typer.BadParameter, match="each person needs a different name"):
        plan_seats(3, [BotSpec("random")], ["Ann", "ann"], default_bots=three)
    with pytest.raises(typer.BadParameter, match="unknown bot 'sharp'; known: probabilistic"):
        parse_bots("sharp", KNOWN)
    with pytest.raises(typer.BadParameter, match="KIND:PB"):
        parse_bots("bold:x", {"bold": 1}, allow_proficiency=True)
    assert parse_bots("bold:4", {"bold": 1}, allow_proficiency=True) == [BotSpec("bold", 4)]


def test_bot_seeds_are_stable_and_distinct() -> None:
    seeds = [derive_seed(7, seat) for seat in range(10)]
    assert len(set(seeds)) == 10
    assert seeds == [derive_seed(7, seat) for seat in range(10)]
    assert derive_seed(8, 0) != seeds[0]
    assert seeds[0] == int.from_bytes(
        hashlib.sha256(b"tavern-dice:7:bot:0").digest()[:8], "big"
    )


def test_rulesets_start_from_a_preset_and_change_only_what_is_given() -> None:
    assert liars_rules("tavern", raise_rule=None, wild_face=None, spot_on=None,
                       sum_endgame=None, dice_per_player=None) == TAVERN
    rules = liars_rules("openspiel", raise_rule=RaiseRule.EITHER, wild_face=0, spot_on=None,
                        sum_endgame=None, dice_per_player=3)
    assert rules == OPENSPIEL.replace(raise_rule=RaiseRule.EITHER, wild_face=None,
                                      dice_per_player=3)
    bj = blackjack_rules(BLACKJACK, house_needs_under=True, house_exact_beats_player_exact=None,
                         min_bet="5 sp", max_bet="2 gp")
    assert (bj.house_needs_under, bj.min_bet_cp, bj.max_bet_cp) == (True, 50, 200)



def test_ruleset_options_are_declared_once_and_reach_the_command_as_rules() -> None:
    @with_liars_rules
    def command(seed: int = 1, *, rules: LiarsDiceRules) -> tuple[int, LiarsDiceRules]:
        return seed, rules

    shown = list(inspect.signature(command).parameters)
    assert shown == ["seed", "preset", "raise_rule", "wild_face", "spot_on", "sum_endgame",
                     "repeat_wagers", "dice_per_player"]
    assert command() == (1, TAVERN)
    assert command(2, preset="openspiel", dice_per_player=3) == (
        2, OPENSPIEL.replace(dice_per_player=3))
    with pytest.raises(typer.BadParameter, match="unknown preset"):
        command(preset="nope")

    def no_rules(seed: int = 1) -> None: ...

    with pytest.raises(TypeError, match="rules"):
        with_liars_rules(no_rules)

def test_typed_faces() -> None:
    five = RollSpec(0, 5, 6, "round", secret=True)
    assert read_faces("3 1 4 6 6", five) == [3, 1, 4, 6, 6]
    assert read_faces("31466", five) == [3, 1, 4, 6, 6]
    assert read_faces("3,1, 4", five) == [3, 1, 4]  # the count is checked by RollSpec
    assert read_faces("17", RollSpec(None, 1, 20, "target")) == [17]
    with pytest.raises(InvalidDiceError, match="whole numbers"):
        read_faces("three", five)


def test_dice_source_follows_seed_person_and_mode() -> None:
    def ask(spec: RollSpec, problem: str | None) -> list[int]:
        return [1] * spec.count

    assert isinstance(choose_dice(DiceMode.MANUAL, 3, has_person=True, ask_roll=ask).source,
                      ManualDice)
    seeded = choose_dice(DiceMode.AUTO, 3, has_person=True, ask_roll=ask)
    assert isinstance(seeded.source, SeededDice) and (seeded.seed, seeded.generated) == (3, False)
    secure = choose_dice(DiceMode.AUTO, None, has_person=True, ask_roll=ask)
    assert isinstance(secure.source, SecureDice) and secure.seed is None
    drawn = choose_dice(DiceMode.AUTO, None, has_person=False, ask_roll=ask)
    assert isinstance(drawn.source, SeededDice) and drawn.generated and drawn.seed is not None


def test_lowest_raises_under_each_raise_rule() -> None:
    for rule, expected in [
        (RaiseRule.EITHER, [Wager(1, 5), Wager(4, 1)]),
        (RaiseRule.STANDARD, [Wager(3, 5), Wager(4, 1)]),
        (RaiseRule.FACE_MAJOR, [Wager(4, 4), Wager(1, 5)]),
    ]:
        game = LiarsDiceGame(3, rules=TAVERN.replace(raise_rule=rule), dice=SeededDice(1))
        game.wager(Wager(3, 4))
        assert sorted(lowest_raises(game.legal_wagers())) == sorted(expected), rule
    assert lowest_raises([SumWager(9), SumWager(8)]) == [SumWager(8)]


def test_legal_summary_groups_quantities() -> None:
    game = LiarsDiceGame(3, dice=SeededDice(1))
    game.wager(Wager(3, 4))
    assert legal_summary(game.legal_wagers(), 6) == "1-3 fives or sixes; 4-15 of any face"
    assert legal_summary([SumWager(t) for t in range(2, 13)], 6) == "a sum of 2 to 12"


def test_follower_shows_each_event_once_even_when_sent_again() -> None:
    game = LiarsDiceGame(2, dice=SeededDice(5))
    game.wager(Wager(1, 1))
    shown: list[Event] = []
    follow = LogFollower(game.log, shown.append)
    for event in game.log:
        follow(event)
    for event in game.log:  # a round runner that starts its feed from the top again
        follow(event)
    assert shown == game.log and all(a is b for a, b in zip(shown, game.log, strict=True))
    game.accuse(1)
    follow.catch_up()
    assert len(shown) == len(game.log)


def test_reveal_highlights_only_matching_dice_and_trusts_the_engines_count() -> None:
    console = Console(record=True, width=100, color_system="truecolor")
    narrator = LiarsNarrator(console, ["Ann", "Bo"], TAVERN.replace(wild_face=1))
    narrator.show(WagerMade(0, 3, 5, None))
    narrator.show(Revealed(((1, 5, 2), (5, 3)), 3, "spot-on", (1,), (3, 1)))
    text = console.export_text()
    assert "Ann  ⚀1 ⚁2 ⚄5  → 2" in text and "Bo   ⚂3 ⚄5     → 1" in text
    assert "There are exactly 3 fives (counting wild ones): 3 fives is spot-on!" in text
    assert "Everyone but Ann loses a die: Bo (1 left)." in text
    # A count that disagrees with the highlight (not what this engine would say) is shown
    # as the engine's, without per-hand counts.
    console = Console(record=True, width=100, color_system=None)
    narrator = LiarsNarrator(console, ["Ann", "Bo"], TAVERN)
    narrator.show(WagerMade(0, 3, 5, None))
    narrator.show(Revealed(((1, 5, 2), (5, 3)), 4, "true", (1,), (3, 1)))
    text = console.export_text()
    assert "→" not in text and "There are 4 fives: 3 fives holds." in text
