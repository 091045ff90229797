"""Dice Blackjack bots ``cautious`` and ``bold`` (issue 3): legal moves, the policies they
follow, bonuses, bets within limits, reproducibility."""

from __future__ import annotations

import pickle

import pytest

from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.events import Settled, Stood
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.base import BlackjackAgent
from tavern_dice.bots.blackjack_simple import BoldBlackjackBot, CautiousBlackjackBot
from tavern_dice.bots.registry import BotError, make_blackjack_bot
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.play.runner import play_blackjack_round
from tavern_dice.strategy.blackjack.solver import bold_policy, cautious_policy


class Referee:
    """Wraps a bot; checks each answer against the view and records its decisions."""

    def __init__(self, agent: BlackjackAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.moves: list[tuple[int, int | None, int, str, int]] = []
        self.bets = 0

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        bet = self.agent.choose_bet(view)
        assert view.bet_limits is not None and isinstance(bet, Bet)
        low, high = view.bet_limits
        assert low <= bet.amount <= high
        self.bets += 1
        return bet

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        answer = self.agent.choose_move(view)
        assert isinstance(answer, Roll | Stand) and answer.kind in view.legal_actions
        assert view.seat is not None and view.target is not None
        bonus = answer.bonus if isinstance(answer, Stand) else 0
        if isinstance(answer, Stand):
            assert bonus in view.legal_bonuses
        house = None if view.house_bust else view.house_roll
        self.moves.append((view.target, house, view.totals[view.seat], answer.kind, bonus))
        return answer


@pytest.mark.parametrize("proficiency", [None, 2, 5])
def test_bots_play_legal_moves_that_follow_their_policy(proficiency: int | None) -> None:
    cap = TAVERN.bonus_cap(proficiency)
    refs = [Referee(CautiousBlackjackBot(seed=1)), Referee(BoldBlackjackBot(seed=2))]
    game = BlackjackGame(2, balances=100_000, proficiency=[proficiency] * 2, dice=SeededDice(7))
    for _ in range(150):
        play_blackjack_round(game, refs)
    for ref, policy in zip(refs, (cautious_policy, bold_policy), strict=True):
        assert ref.bets == 150
        assert len(ref.moves) > 50
        for target, house, total, move, bonus in ref.moves:
            assert move == policy(total, target, house, cap).kind
            if move == "stand":
                best = min(cap, target - total)
                helps = (total + best == target) or (
                    house is not None and total <= house < total + best
                )
                assert bonus == (best if helps else 0), (target, house, total, bonus)


def test_cautious_stands_earlier_than_bold() -> None:
    def stands(bot: BlackjackAgent) -> list[int]:
        ref = Referee(bot)
        game = BlackjackGame(1, balances=100_000, dice=SeededDice(3))
        for _ in range(200):
            play_blackjack_round(game, [ref])
        return [t for _, _, t, move, _ in ref.moves if move == "stand"]

    cautious, bold = stands(CautiousBlackjackBot()), stands(BoldBlackjackBot())
    assert sum(cautious) / len(cautious) < sum(bold) / len(bold)


def test_keeps_rolling_when_standing_cannot_beat_the_house() -> None:
    # Target 18, house dice 15 and 20 (house roll 15); d12s 12, 2, 3.
    dice = ScriptedDice([(18,), (15, 20), (12,), (2,), (3,)])
    game = BlackjackGame(1, dice=dice, balances=1000)
    play_blackjack_round(game, [CautiousBlackjackBot()])
    # 12 and 14 are within the cautious margin, but cannot beat 15: it rolled on to 17.
    assert dice.remaining == 0
    assert [(e.outcome, e.final) for e in game.settlements()] == [("win", 17)]


def test_house_bust_cautious_stands_bold_rolls() -> None:
    rolls = [(18,), (19, 20), (12,), (5,)]  # target 18, house busts; d12 12, then 5
    cautious = BlackjackGame(1, dice=ScriptedDice(rolls), balances=1000)
    play_blackjack_round(cautious, [CautiousBlackjackBot()])
    assert [(e.outcome, e.final) for e in cautious.settlements()] == [("house-bust", 12)]
    bold = BlackjackGame(1, dice=ScriptedDice(rolls), balances=1000)
    play_blackjack_round(bold, [BoldBlackjackBot()])
    assert [(e.outcome, e.final) for e in bold.settlements()] == [("house-bust", 17)]


def stand_with(rolls: list[tuple[int, ...]], proficiency: int) -> tuple[list[int], list[str]]:
    game = BlackjackGame(1, dice=ScriptedDice(rolls), balances=1000, proficiency=[proficiency])
    play_blackjack_round(game, [CautiousBlackjackBot()])
    bonuses = [e.bonus for e in game.log if isinstance(e, Stood)]
    return bonuses, [e.outcome for e in game.settlements()]


def test_standing_adds_the_largest_bonus_only_when_it_helps() -> None:
    # Target 20; d12s 10 then 5: the cautious bot stands on 15, with PB 6 (bonus up to 3).
    # House roll 16: 15 loses, 15 + 3 wins, so it adds the largest bonus, 3.
    assert stand_with([(20,), (16, 3), (10,), (5,)], 6) == ([3], ["win"])
    # House roll 12: 15 wins already; no bonus does better, so it adds none.
    assert stand_with([(20,), (12, 3), (10,), (5,)], 6) == ([0], ["win"])
    # Target 17, house roll 12, total 15: +2 is an exact hit (1.5x); 3 would pass the
    # target and is not legal.
    assert stand_with([(17,), (12, 3), (10,), (5,)], 6) == ([2], ["exact"])


def test_bets_are_fixed_and_capped_by_the_limits() -> None:
    game = BlackjackGame(3, balances=[1000, 60, 1000], rules=TAVERN.replace(max_bet_cp=300),
                         dice=SeededDice(4))
    bots: list[BlackjackAgent | None] = [CautiousBlackjackBot(), BoldBlackjackBot(),
                                         CautiousBlackjackBot(bet_cp=500)]
    play_blackjack_round(game, bots)
    bets = {e.seat: e.bet for e in game.log if isinstance(e, Settled)}
    assert bets == {0: 100, 1: 60, 2: 300}  # default 1 gp; the balance; the table maximum
    low_min = BlackjackGame(1, balances=1000, rules=TAVERN.replace(min_bet_cp=150),
                            dice=SeededDice(4))
    play_blackjack_round(low_min, [CautiousBlackjackBot()])
    assert [e.bet for e in low_min.log if isinstance(e, Settled)] == [150]  # raised to the min


def test_bad_bet_is_rejected() -> None:
    with pytest.raises(BotError, match="at least 1"):
        CautiousBlackjackBot(bet_cp=0)
    with pytest.raises(BotError, match="at least 1"):
        make_blackjack_bot("bold", bet_cp=-5)


def test_sessions_repeat_and_bots_pickle() -> None:
    def session(bots: list[BlackjackAgent | None]) -> dict[str, object]:
        game = BlackjackGame(2, balances=2000, proficiency=[3, None], dice=SeededDice(11))
        for _ in range(25):
            if game.is_over:
                break
            play_blackjack_round(game, bots)
        return game.to_log()

    bots: list[BlackjackAgent | None] = [make_blackjack_bot("cautious", seed=1),
                                         make_blackjack_bot("bold", seed=2)]
    first = session(bots)
    assert first == session(pickle.loads(pickle.dumps(bots)))
    assert first == session([make_blackjack_bot("cautious", seed=1),
                             make_blackjack_bot("bold", seed=2)])


def test_rules_variants_still_legal() -> None:
    rules: BlackjackRules = TAVERN.replace(house_needs_under=True, player_sides=8,
                                           house_exact_beats_player_exact=True)
    refs = [Referee(CautiousBlackjackBot()), Referee(BoldBlackjackBot())]
    game = BlackjackGame(2, rules=rules, balances=50_000, proficiency=[4, 6], dice=SeededDice(9))
    for _ in range(60):
        play_blackjack_round(game, refs)
    assert all(r.bets == 60 for r in refs)
