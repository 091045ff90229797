"""The lookahead exploiters' last turn, all of the bot's answers at once, against the same
turn weighed answer by answer, every raise after each answer weighed (one product each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.actions import LiarsDiceAction
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.play.runner import liars_dice_step


class _AnswerByAnswer(LookaheadExploiter):
    """The last turn weighed as the scalar search weighs a turn: answer by answer, one
    product each, every raise after the answer (not only the lowest of each face)."""

    def _last_turns(self, d: Any, extra: tuple[tuple[int, AnyWager], ...],
                    actions: Sequence[LiarsDiceAction], branches: Any) -> float:
        return self._each_answer(d, extra, actions, branches, 0)

    def _my_turn(self, d: Any, extra: tuple[tuple[int, AnyWager], ...], mass: Any,
                 depth: int) -> float:
        if depth:
            return super()._my_turn(d, extra, mass, depth)
        value = self._accuse_value(d, extra[-1][1], mass)
        raises = self._raises(d, extra)
        if not raises:
            return value
        return max(value, float((2.0 * (mass @ d.truths(raises)) - mass.sum()).max()))


@pytest.mark.parametrize("depth", [1, 2])
def test_the_last_turn_of_every_answer_at_once_is_each_answers(depth: int) -> None:
    values: dict[str, list[float]] = {"together": [], "apart": []}
    bots: dict[str, LookaheadExploiter] = {
        "together": LookaheadExploiter("t", 1, target="trusting", depth=depth),
        "apart": _AnswerByAnswer("a", 1, target="trusting", depth=depth),
    }
    for key, bot in bots.items():
        asked = bot._bot_answers

        def kept(*args: Any, _asked: Any = asked, _key: str = key) -> float:
            value: float = _asked(*args)
            values[_key].append(value)
            return value

        bot._bot_answers = kept  # type: ignore[method-assign, assignment]
    checked = 0
    for seed in (11, 12):
        game = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(seed), starting_dice=[4, 4])
        players = [TrustingLiarsDiceBot("p0", seed=seed), TrustingLiarsDiceBot("p1", seed=seed)]
        rounds = 0
        while game.winner is None and rounds < 2:
            seat = game.turn
            if seat is not None:
                view = game.view(seat)
                chosen = {key: bot.choose_action(view) for key, bot in bots.items()}
                assert chosen["together"] == chosen["apart"]
                checked += 1
            before = game.round
            liars_dice_step(game, players)
            rounds += game.round != before
    assert checked >= 6
    if depth == 1:
        # Every raise of mine weighed, in the same order: the same values, to rounding.
        # (At depth 2 the raises searched deeper are the best few, and values equal but
        # for rounding may sort either way: the choices above are what must agree.)
        assert len(values["together"]) == len(values["apart"]) > 50
        assert values["together"] == pytest.approx(values["apart"], rel=1e-12, abs=1e-12)
