"""A game restored from its log continues exactly as the uninterrupted game (issue 8).

Hypothesis plays a random game of each kind with seeded dice (sometimes typing a roll
in by hand instead), recording every decision. The same game is then saved at a random
point, restored with ``from_log`` (through JSON), and continued with the recorded
decisions: the dice it rolls from its seed after the restore, and so the whole log, must
equal the uninterrupted game's, event for event and die for die.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.blackjack import Phase as BlackjackPhase
from tavern_dice.dice import SeededDice
from tavern_dice.errors import LogError
from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules, RaiseRule, Wager

Decision = tuple[str, Any]


def liars_decision(game: LiarsDiceGame, rng: random.Random, typed: float) -> Decision:
    """A random legal decision: a roll (typed in or from the seed), an accusation or a
    wager."""
    request = game.chance_request()
    if request is not None:
        if rng.random() < typed:
            return "typed", [[rng.randint(1, s.sides) for _ in range(s.count)] for s in request]
        return "roll", None
    others = [s for s in game.accusers() if s != game.turn]
    if others and rng.random() < 0.1:
        return "accuse", rng.choice(others)
    wagers = game.legal_wagers()
    if not wagers or (game.can_accuse(game.turn or 0) and rng.random() < 0.3):
        return "accuse", game.turn
    return "wager", (rng.choice(wagers), game.turn)


def apply_liars(game: LiarsDiceGame, decision: Decision) -> None:
    kind, arg = decision
    if kind == "typed":
        game.roll(arg)
    elif kind == "roll":
        game.roll()
    elif kind == "accuse":
        game.accuse(arg)
    else:
        game.wager(*arg)


def blackjack_decision(game: BlackjackGame, rng: random.Random, typed: float) -> Decision:
    """A random legal decision of a Blackjack session."""
    request = game.chance_request()
    if request is not None:
        if rng.random() < typed:
            return "typed", [[rng.randint(1, s.sides) for _ in range(s.count)] for s in request]
        return "roll", None
    if game.phase is BlackjackPhase.ROUND_OVER:
        return "new_round", None
    if game.phase is BlackjackPhase.BETTING:
        seat = next(s for s in game.eligible if "bet" in game.action_kinds(s))
        low, high = game.bet_limits(seat)
        if rng.random() < 0.15:
            return "sit_out", seat
        return "bet", (seat, rng.randint(low, high))
    actor = game.turn
    assert actor is not None
    if rng.random() < 0.5:
        return "roll_again", actor
    return "stand", (actor, rng.choice(game.legal_bonuses(actor)))


def apply_blackjack(game: BlackjackGame, decision: Decision) -> None:
    kind, arg = decision
    if kind == "typed":
        game.roll(arg)
    elif kind == "roll":
        game.roll()
    elif kind == "new_round":
        game.new_round()
    elif kind == "sit_out":
        game.sit_out(arg)
    elif kind == "bet":
        game.place_bet(*arg)
    elif kind == "roll_again":
        game.roll_again(arg)
    else:
        game.stand(*arg)


def continues_identically(
    make: Callable[[], Any],
    decide: Callable[[Any, random.Random, float], Decision],
    apply: Callable[[Any, Decision], None],
    done: Callable[[Any], bool],
    choice_seed: int,
    typed: float,
    cut: float,
) -> None:
    rng = random.Random(choice_seed)
    whole = make()
    decisions: list[Decision] = []
    while not done(whole) and len(decisions) < 3_000:
        decision = decide(whole, rng, typed)
        decisions.append(decision)
        apply(whole, decision)
    k = int(cut * len(decisions))
    part = make()
    for decision in decisions[:k]:
        apply(part, decision)
    restored = type(part).from_log(json.loads(json.dumps(part.to_log())))
    for decision in decisions[k:]:
        apply(restored, decision)
    assert restored.to_log() == whole.to_log()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from(range(2, 7)),
    dice=st.sampled_from(range(1, 6)),
    raise_rule=st.sampled_from(RaiseRule),
    seed=st.integers(0, 2**32 - 1),
    choice_seed=st.integers(0, 2**32 - 1),
    typed=st.sampled_from([0.0, 0.0, 0.2]),
    cut=st.floats(0.0, 1.0),
)
def test_a_restored_liars_dice_game_continues_die_for_die(
    players: int, dice: int, raise_rule: RaiseRule, seed: int, choice_seed: int,
    typed: float, cut: float,
) -> None:
    rules = LiarsDiceRules(dice_per_player=dice, raise_rule=raise_rule)
    continues_identically(
        lambda: LiarsDiceGame(players, rules=rules, dice=SeededDice(seed), auto_roll=False),
        liars_decision, apply_liars, lambda g: g.is_over, choice_seed, typed, cut,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from(range(1, 5)),
    seed=st.integers(0, 2**32 - 1),
    choice_seed=st.integers(0, 2**32 - 1),
    typed=st.sampled_from([0.0, 0.0, 0.2]),
    cut=st.floats(0.0, 1.0),
    rounds=st.sampled_from(range(1, 12)),
)
def test_a_restored_blackjack_session_continues_die_for_die(
    players: int, seed: int, choice_seed: int, typed: float, cut: float, rounds: int,
) -> None:
    def done(game: BlackjackGame) -> bool:
        return game.is_over or (game.round >= rounds and game.phase is BlackjackPhase.ROUND_OVER)

    continues_identically(
        lambda: BlackjackGame(players, dice=SeededDice(seed), balances=2_000, auto_roll=False),
        blackjack_decision, apply_blackjack, done, choice_seed, typed, cut,
    )


def test_a_seeded_game_restored_does_not_deal_its_roll_off_again() -> None:
    """The issue's case: seed 11, saved after round 1; round 2's dice are the seed's next
    ones, not the roll-off's faces again."""
    game = LiarsDiceGame(3, dice=SeededDice(11))
    game.wager(Wager(1, 1), game.turn)
    saved = game.to_log()
    game.accuse(game.turn)
    restored = LiarsDiceGame.from_log(json.loads(json.dumps(saved)), auto_roll=True)
    restored.accuse(restored.turn)
    assert restored.hands == game.hands
    assert restored.to_log() == game.to_log()


def test_a_log_whose_dice_the_seed_did_not_roll_is_refused() -> None:
    game = LiarsDiceGame(2, dice=SeededDice(5))
    data = json.loads(json.dumps(game.to_log()))
    rolled = next(e for e in data["events"] if e["type"] == "dice_rolled" and e["secret"])
    rolled["dice"][0][0] = rolled["dice"][0][0] % 6 + 1
    with pytest.raises(LogError, match="is not what seed 5 rolls"):
        LiarsDiceGame.from_log(data)
    data["version"] = 99
    with pytest.raises(LogError, match="version 99"):
        LiarsDiceGame.from_log(data)


def test_a_restored_game_keeps_the_chance_policy_it_was_made_with() -> None:
    """A game that rolls its own dice, restored without saying otherwise, rolls the next
    round's dice itself (it used to stop at the chance node); a typed-in game still waits,
    and the caller may still choose."""
    game = LiarsDiceGame(3, dice=SeededDice(11))
    game.wager(Wager(1, 1), game.turn)
    saved = json.loads(json.dumps(game.to_log()))
    game.accuse(game.turn)
    restored = LiarsDiceGame.from_log(saved)
    restored.accuse(restored.turn)
    assert restored.chance_request() is None
    assert restored.to_log() == game.to_log()

    assert LiarsDiceGame.from_log(saved, auto_roll=False).auto_roll is False
    typed = LiarsDiceGame(2, dice=SeededDice(3), auto_roll={"roll-off"})
    assert LiarsDiceGame.from_log(typed.to_log()).auto_roll == frozenset({"roll-off"})
    blackjack = BlackjackGame(2, dice=SeededDice(4), balances=2_000)
    assert BlackjackGame.from_log(json.loads(json.dumps(blackjack.to_log()))).auto_roll is True


def test_an_older_record_without_a_policy_still_restores_rolling_nothing() -> None:
    data = json.loads(json.dumps(LiarsDiceGame(2, dice=SeededDice(5)).to_log()))
    del data["auto_roll"]
    assert LiarsDiceGame.from_log(data).auto_roll is False
    data["auto_roll"] = "sometimes"
    with pytest.raises(LogError, match="auto_roll must be true, false or a list"):
        LiarsDiceGame.from_log(data)
