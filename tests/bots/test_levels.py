"""The rated levels (issue 51): every level is a legal bot that finishes games in both
games, usable wherever a bot is, and its table talk depends only on public events."""

from __future__ import annotations

import pickle
import random

import pytest

from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.bots.levels import BLACKJACK_LEVELS, LIARS_LEVELS, PERSONAS, persona
from tavern_dice.bots.registry import BotError, make_blackjack_bot, make_liars_dice_bot
from tavern_dice.bots.table_talk import TableTalk
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.events import DiceRolled, Event
from tavern_dice.games import game as game_definition
from tavern_dice.liars_dice import Accuse, Wager
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice
from tavern_dice.play.simulate import simulate_liars_dice

CHEAP = [p.kind for p in LIARS_LEVELS if p.base != "strong"]


def test_six_liars_levels_and_three_blackjack_players_each_a_persona() -> None:
    assert [p.level for p in LIARS_LEVELS] == [1, 2, 3, 4, 5, 6]
    assert LIARS_LEVELS[-1].base == "strong" and LIARS_LEVELS[0].base == "random"
    assert [p.base for p in BLACKJACK_LEVELS] == ["cautious", "bold", "optimal"]
    for found in PERSONAS.values():
        assert found.name and found.title and found.manner.endswith(".")
        assert persona(found.name.upper()) is found
        # Every line formats with the two fields a line may use.
        for lines in found.talk.values():
            for line in lines:
                assert line.format(wager="3 fours", them="Ann")


def test_every_liars_level_finishes_games_at_six_and_heads_up() -> None:
    kinds = [p.kind for p in LIARS_LEVELS]
    game = LiarsDiceGame(kinds, dice=SeededDice(5))
    bots = [make_liars_dice_bot(k, name=k, seed=i) for i, k in enumerate(kinds)]
    assert play_liars_dice(game, bots) in range(6)
    # Heads-up with 2 dice each (every round has a solved table: cheap for the top level).
    small = TAVERN.replace(dice_per_player=2)
    for i, kind in enumerate(kinds):
        other = kinds[(i + 1) % len(kinds)]
        duel = LiarsDiceGame([kind, other], rules=small, dice=SeededDice(i))
        pair = [make_liars_dice_bot(kind, seed=i), make_liars_dice_bot(other, seed=i + 9)]
        assert play_liars_dice(duel, pair) in (0, 1)


def test_every_blackjack_player_finishes_rounds() -> None:
    kinds = [p.kind for p in BLACKJACK_LEVELS]
    game = BlackjackGame(kinds, dice=SeededDice(2), balances=5000, proficiency=[2, 3, 4])
    bots = [make_blackjack_bot(k, seed=i) for i, k in enumerate(kinds)]
    for _ in range(20):
        play_blackjack_round(game, bots)
    assert sum(1 for e in game.log if e.type == "settled") == 60
    assert game.balances != game.starting_balances


def test_levels_sit_wherever_a_bot_does() -> None:
    liars = game_definition("liars-dice")
    assert {p.kind for p in LIARS_LEVELS} <= set(liars.bots)
    assert {p.kind for p in BLACKJACK_LEVELS} <= set(game_definition("blackjack").bots)
    bot = liars.make_bot("bess", name="Bess", seed=3)
    assert bot.name == "Bess"
    assert pickle.loads(pickle.dumps(bot)).name == "Bess"
    # The options a level is built with go to its base bot; a caller's are added.
    assert make_liars_dice_bot("mags", threshold=0.3).base.threshold == 0.3  # type: ignore[attr-defined]
    assert make_blackjack_bot("sabine", bet_cp=300).bet_cp == 300  # type: ignore[attr-defined]
    # The technical names still seat the bots they always did.
    assert type(make_liars_dice_bot("probabilistic")).__name__ == "ProbabilisticLiarsDiceBot"
    result = simulate_liars_dice(["pip", "mags"], games=6, seed=1, workers=1)
    assert [r.games for r in result.bots] == [6, 6]


def _decisions(bot: object, players: int) -> list[object]:
    """``bot``'s first answers, on turn and out of turn, to the opening view of a game of
    ``players`` (the same view each time: only the bot's own draws differ)."""
    game = LiarsDiceGame(players, dice=SeededDice(7))
    opening = game.view(game.turn)
    game.wager(opening.legal_wagers[-1])  # the highest wager: worth calling
    answer = game.view(game.turn)
    return [(bot.choose_action(opening), bot.wants_to_accuse(answer))  # type: ignore[attr-defined]
            for _ in range(30)]


def test_a_careless_slip_for_one_table_size_is_used_at_that_size_only() -> None:
    from tavern_dice.bots.liars_careless import CarelessLiarsDiceBot

    def bot(slip: float, slip_at: dict[int, float] | None = None) -> CarelessLiarsDiceBot:
        return CarelessLiarsDiceBot(seed=3, base="probabilistic", slip=slip, slip_at=slip_at)

    # Never careless but heads-up, where always: heads-up it answers as the always-careless
    # bot with the same seed, at three players as the never-careless one.
    heads_up_only = bot(0.0, {2: 1.0})
    assert heads_up_only.slip_for(2) == 1.0 and heads_up_only.slip_for(3) == 0.0
    assert _decisions(heads_up_only, 2) == _decisions(bot(1.0), 2)
    assert _decisions(bot(0.0, {2: 1.0}), 3) == _decisions(bot(0.0), 3)
    assert _decisions(bot(1.0), 2) != _decisions(bot(0.0), 2)  # the test can tell them apart
    for wrong in ({1: 0.5}, {2: 1.5}, {True: 0.5}):
        with pytest.raises(BotError, match="slip_at"):
            bot(0.1, wrong)


def test_the_levels_slip_more_heads_up_where_they_say_so() -> None:
    # The heads-up ladder is measured on its own (benchmarks/levels.py): the careless
    # levels slip more there, and as before at four and six players.
    for level in LIARS_LEVELS:
        seated = make_liars_dice_bot(level.kind, seed=1)
        if not level.slip_at:
            continue
        assert level.slip_at[2] > level.slip
        assert seated.slip_for(2) == level.slip_at[2]  # type: ignore[attr-defined]
        assert seated.slip_for(4) == seated.slip_for(6) == level.slip  # type: ignore[attr-defined]
    assert {p.kind for p in LIARS_LEVELS if p.slip_at} == {"tobb", "bess", "mags", "aldous"}


# ----------------------------------------------------------------------- table talk


def _talk(log: list[Event], seats: dict[int, str], names: list[str]) -> list[tuple[int, int, str]]:
    talk = TableTalk(seats, names)
    return [(i, seat, line) for i, event in enumerate(log) for seat, line in talk.hear(event)]


def _other_hidden_dice(log: list[Event], seed: int) -> list[Event]:
    """The same log with every secret roll's faces replaced: the public history is the
    same (reveals included), the dice under the cups are not."""
    rng = random.Random(seed)
    out: list[Event] = []
    for event in log:
        if isinstance(event, DiceRolled) and event.secret:
            dice = tuple(tuple(rng.randint(1, 6) for _ in faces) for faces in event.dice)
            event = DiceRolled(event.purpose, event.seats, dice, event.secret)
        out.append(event)
    return out


@pytest.mark.parametrize("kinds", [CHEAP, ["pip", "bess", "aldous"]])
def test_table_talk_is_the_same_whatever_the_hidden_dice(kinds: list[str]) -> None:
    game = LiarsDiceGame(kinds, dice=SeededDice(11))
    play_liars_dice(game, [make_liars_dice_bot(k, seed=i) for i, k in enumerate(kinds)])
    seats = dict(enumerate(kinds))
    names = [persona(k).name for k in kinds]
    lines = _talk(list(game.log), seats, names)
    assert len(lines) > 10  # the personas do talk
    assert any("call" in persona(k).talk for k in kinds)
    for seed in range(3):
        assert _talk(_other_hidden_dice(list(game.log), seed), seats, names) == lines


def test_table_talk_in_a_replayed_round_with_other_dice_is_the_same() -> None:
    # Two real games, the same wagers and call, different hidden hands (the same counts of
    # fours, so the same reveal outcome): everything said before the reveal is the same.
    def play(hands: list[tuple[int, ...]]) -> list[tuple[int, int, str]]:
        dice = ScriptedDice([(6, 6, 6), (1, 1, 1), *hands, (1, 2), (3, 5, 6)])
        game = LiarsDiceGame(["Bess", "Mags"], rules=TAVERN.replace(dice_per_player=3),
                             dice=dice)
        game.apply(0, Wager(2, 4))
        game.apply(1, Wager(3, 4))
        game.apply(0, Accuse())
        return _talk(list(game.log), {0: "bess", 1: "mags"}, ["Bess", "Mags"])

    first = play([(4, 2, 2), (4, 4, 1)])
    assert first  # something was said
    second = play([(6, 5, 4), (3, 4, 4)])
    assert first == second


# ----------------------------------------------------------------------- the round-robin


def test_the_round_robin_goes_through_every_table_and_honours_a_cap() -> None:
    from itertools import combinations

    from tavern_dice.play.round_robin import schedule

    kinds = [p.kind for p in LIARS_LEVELS]
    tables = schedule(kinds, 4, 30, seed=1)
    assert sorted(tables[:15]) == sorted(combinations(sorted(kinds), 4))
    assert sorted(tables[15:]) == sorted(tables[:15])
    capped = schedule(kinds, 2, 60, seed=1, limits={"vell": 3})
    assert sum("vell" in t for t in capped) == 3 and len(capped) == 60


def test_adjacent_levels_must_be_apart() -> None:
    from tavern_dice.play.ratings import LevelRating, Rating
    from tavern_dice.play.round_robin import separated

    def rated(mu: float, sigma: float) -> LevelRating:
        return LevelRating("x", Rating(mu, sigma), 100)

    assert separated(["a", "b"], {"a": rated(1000, 50), "b": rated(1300, 50)}) == []
    [overlap] = separated(["a", "b"], {"a": rated(1000, 50), "b": rated(1150, 50)})
    assert "overlaps" in overlap
    [order] = separated(["a", "b"], {"a": rated(1000, 50), "b": rated(900, 5)})
    assert "is not above" in order
