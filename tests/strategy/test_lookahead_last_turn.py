"""The lookahead exploiters' last turn, all of the bot's answers at once, against the same
turn weighed answer by answer (:meth:`LookaheadExploiter._last_turn`, one product each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.actions import Accuse, LiarsDiceAction
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.play.runner import liars_dice_step


class _AnswerByAnswer(LookaheadExploiter):
    """The last turn as the scalar search writes it: one answer at a time."""

    def _last_turns(self, d: Any, extra: tuple[tuple[int, AnyWager], ...],
                    actions: Sequence[LiarsDiceAction], branches: Any) -> float:
        mine = extra[-1][1]
        total = 0.0
        for j, action in enumerate(actions):
            branch = branches[j]
            if not branch.any():
                continue
            if isinstance(action, Accuse):
                total += self._called_value(d, mine, branch)
            else:
                total += self._last_turn(d, (*extra, (d.opp, action)), branch)
        return total


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
