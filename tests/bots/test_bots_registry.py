"""The bot registry (issue 3): kinds by name, unknown kinds, registering new bots,
options, pickling."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest

from tavern_dice.blackjack.actions import Bet, SitOut, Stand
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots import registry
from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent
from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot
from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.bots.registry import (
    BLACKJACK_BOTS,
    LIARS_DICE_BOTS,
    BotError,
    LazyFactory,
    UnknownBotError,
    make_blackjack_bot,
    make_liars_dice_bot,
    register_blackjack_bot,
    register_liars_dice_bot,
)
from tavern_dice.dice import SeededDice
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.runner import play_liars_dice


@pytest.fixture(autouse=True)
def _restore_tables() -> Iterator[None]:
    saved = dict(LIARS_DICE_BOTS), dict(BLACKJACK_BOTS)
    yield
    LIARS_DICE_BOTS.clear()
    LIARS_DICE_BOTS.update(saved[0])
    BLACKJACK_BOTS.clear()
    BLACKJACK_BOTS.update(saved[1])


def test_built_in_kinds() -> None:
    assert sorted(LIARS_DICE_BOTS) == [
        "aldous", "bess", "bluffer", "careless", "equilibrium", "mags", "pip", "probabilistic",
        "random", "strong", "tobb", "trusting", "vell",
    ]
    assert sorted(BLACKJACK_BOTS) == [
        "bold", "brannoc", "cautious", "nell", "optimal", "sabine"]
    for kind in LIARS_DICE_BOTS:
        bot = make_liars_dice_bot(kind, seed=1)
        assert isinstance(bot, LiarsDiceAgent) and bot.name == kind
    for kind in BLACKJACK_BOTS:
        bj = make_blackjack_bot(kind, name="Mira", seed=1, bet_cp=250)
        assert isinstance(bj, BlackjackAgent) and bj.name == "Mira"
        assert getattr(bj, "bet_cp") == 250  # noqa: B009  (not on the protocol)
    assert type(make_liars_dice_bot("Random")) is RandomLiarsDiceBot  # case-insensitive
    assert getattr(make_blackjack_bot("bold"), "bet_cp") == 100  # noqa: B009  (1 gp)


def test_unknown_kind_lists_the_known_ones() -> None:
    known = "known: aldous, bess, bluffer, careless, equilibrium, mags, pip, probabilistic"
    with pytest.raises(UnknownBotError, match=known) as caught:
        make_liars_dice_bot("optimal")
    assert isinstance(caught.value, TavernError)
    with pytest.raises(UnknownBotError, match="known: bold, brannoc, cautious"):
        make_blackjack_bot("random")
    with pytest.raises(BotError, match="non-empty"):
        make_liars_dice_bot("  ")


def test_options_reach_the_bot_and_bad_ones_are_refused() -> None:
    bot = make_liars_dice_bot("probabilistic", threshold=0.4)
    assert isinstance(bot, ProbabilisticLiarsDiceBot) and bot.threshold == 0.4
    with pytest.raises(BotError, match="does not take options \\['bet_cp'\\]"):
        make_liars_dice_bot("random", bet_cp=5)
    with pytest.raises(BotError, match="probability"):
        make_liars_dice_bot("random", accuse_probability=3)


class _Stubborn:
    """A minimal Blackjack bot defined outside the registry: always stands."""

    def __init__(self, name: str, seed: int | None, bet_cp: int) -> None:
        self.name, self.seed, self.bet_cp = name, seed, bet_cp

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        return SitOut() if view.bet_limits is None else Bet(view.bet_limits[0])

    def choose_move(self, view: BlackjackView) -> Stand:
        return Stand(0)


def test_register_new_bots_by_callable_or_by_path() -> None:
    register_blackjack_bot("stubborn", _Stubborn)
    bot = make_blackjack_bot("stubborn", seed=3, bet_cp=7)
    assert isinstance(bot, _Stubborn) and (bot.name, bot.seed, bot.bet_cp) == ("stubborn", 3, 7)
    register_liars_dice_bot("careful", "tavern_dice.bots.liars_probabilistic:"
                                       "ProbabilisticLiarsDiceBot")
    assert isinstance(make_liars_dice_bot("careful"), ProbabilisticLiarsDiceBot)
    assert sorted(LIARS_DICE_BOTS) == [
        "aldous", "bess", "bluffer", "careful", "careless", "equilibrium", "mags", "pip",
        "probabilistic", "random", "strong", "tobb", "trusting", "vell",
    ]
    with pytest.raises(BotError, match="already registered"):
        register_liars_dice_bot("random", RandomLiarsDiceBot)
    register_liars_dice_bot("random", ProbabilisticLiarsDiceBot, replace=True)
    assert isinstance(make_liars_dice_bot("random"), ProbabilisticLiarsDiceBot)
    with pytest.raises(BotError, match="module:attribute"):
        register_liars_dice_bot("broken", "no_colon_here")


def test_a_factory_that_builds_no_agent_is_refused() -> None:
    register_liars_dice_bot("nothing", lambda **kw: object())  # type: ignore[arg-type]
    with pytest.raises(BotError, match="not a Liar's Dice agent"):
        make_liars_dice_bot("nothing")


def test_lazy_factories_and_bots_pickle() -> None:
    factory = LIARS_DICE_BOTS["probabilistic"]
    assert isinstance(factory, LazyFactory)
    assert "liars_probabilistic" in repr(factory)
    clone = pickle.loads(pickle.dumps(factory))
    assert type(clone(name="x", seed=1)) is ProbabilisticLiarsDiceBot
    bots = [make_liars_dice_bot(k, seed=i) for i, k in enumerate(["random", "probabilistic"])]
    copies = pickle.loads(pickle.dumps(bots))
    a, b = LiarsDiceGame(2, dice=SeededDice(8)), LiarsDiceGame(2, dice=SeededDice(8))
    assert play_liars_dice(a, bots) == play_liars_dice(b, copies)
    assert a.to_log() == b.to_log()


def test_registry_module_exports() -> None:
    assert set(registry.__all__) >= {
        "LIARS_DICE_BOTS", "BLACKJACK_BOTS", "make_liars_dice_bot", "make_blackjack_bot",
        "register_liars_dice_bot", "register_blackjack_bot", "UnknownBotError",
    }
