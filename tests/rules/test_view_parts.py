"""A view's two parts (``personal_dict``, ``shared_dict``), which the web table encodes
apart, make up its whole ``to_dict`` at every state of whole games of both games, and the
shared part is the same for every viewer; ``wager_codes`` is ``code()`` for any wager."""

from __future__ import annotations

import random
from typing import Any

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.blackjack import Phase as BlackjackPhase
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules
from tavern_dice.liars_dice.wager import SumWager, Wager, legal_raises, wager_codes


def _check_parts(game: Any) -> int:
    """Check every viewer's parts against its whole view; the number of viewers with a
    personal part that differs from a spectator's."""
    shared = None
    differing = 0
    spectator = game.view(None).personal_dict()
    for seat in [None, *range(len(game.players))]:
        view = game.view(seat)
        personal, own_shared = view.personal_dict(), view.shared_dict()
        assert personal.keys().isdisjoint(own_shared.keys())
        assert {**personal, **own_shared} == view.to_dict(include_log=False)
        assert shared is None or own_shared == shared
        shared = own_shared
        differing += {**personal, "seat": None} != spectator
    return differing


def test_a_liars_dice_views_parts_make_up_the_view_at_every_state() -> None:
    differing = 0
    for seed, rules in enumerate([LiarsDiceRules(), LiarsDiceRules(sum_endgame=True,
                                                                   dice_per_player=2)]):
        rng = random.Random(seed)
        game = LiarsDiceGame(["A", "B", "C", "D"], rules=rules, dice=SeededDice(seed))
        while not game.is_over:
            differing += _check_parts(game)
            game.apply(game.turn, rng.choice(game.legal_actions()))
        _check_parts(game)
    assert differing > 100  # own dice and the turn's wagers really are personal


def test_a_blackjack_views_parts_make_up_the_view_at_every_state() -> None:
    rng = random.Random(5)
    game = BlackjackGame(3, dice=SeededDice(5), balances=[300, 200, 100])
    differing = 0
    for _ in range(6):
        if game.is_over:
            break
        if game.phase is BlackjackPhase.ROUND_OVER:
            game.new_round()
        for seat in game.eligible:
            differing += _check_parts(game)
            low, _high = game.bet_limits(seat)
            game.place_bet(seat, low)
        while game.phase is BlackjackPhase.PLAYING:
            differing += _check_parts(game)
            actor = game.turn
            assert actor is not None
            if rng.random() < 0.5:
                game.roll_again(actor)
            else:
                game.stand(actor, 0)
        _check_parts(game)
    assert differing > 10


def test_wager_codes_are_the_wagers_codes() -> None:
    rules = LiarsDiceRules()
    raises = legal_raises(rules, 12, Wager(3, 4), False)
    assert wager_codes(raises, 12, 6) == [w.code() for w in raises]
    assert wager_codes(raises[:3], 12, 6) == ["1x5", "1x6", "2x5"]  # the either rule
    # Wagers not taken from the shared list, out of range, or sums: coded as usual.
    odd = [Wager(2, 3), Wager(13, 2), Wager(1, 7), Wager(0, 1), SumWager(7)]
    assert wager_codes(odd, 12, 6) == ["2x3", "13x2", "1x7", "0x1", "sum 7"]
    assert wager_codes([], 12, 6) == []
