"""One action vocabulary (issue 9): ``legal_actions``, ``can``, ``verify`` and ``apply``,
seat first, on both engines; malformed actions apart from illegal ones; the per-action
methods and the older ``apply(action, seat)`` order still work."""

from __future__ import annotations

import pytest

from tavern_dice.blackjack import BlackjackGame, Phase
from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.events import BetPlaced, RolledAgain, SatOut, Stood
from tavern_dice.dice import ScriptedDice
from tavern_dice.errors import (
    IllegalActionError,
    InsufficientFundsError,
    InvalidActionError,
    NotYourTurnError,
)
from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules, SumWager, Wager
from tavern_dice.liars_dice.actions import Accuse, as_action, parse_action
from tavern_dice.liars_dice.events import Revealed, WagerMade


def liars() -> LiarsDiceGame:
    """Ann (seat 0) wins the roll-off 12 to 5; hands: Ann 2 2, Bo 2 5; Ann opens."""
    dice = ScriptedDice([(6, 6), (1, 4), (2, 2), (2, 5), (6, 6), (3,)])
    return LiarsDiceGame(["Ann", "Bo"], rules=LiarsDiceRules(dice_per_player=2), dice=dice)


def blackjack() -> BlackjackGame:
    """Target 14, house dice 9 and 17 (house roll 9), Ann's d12s 8 then 5; PB 4."""
    dice = ScriptedDice([(14,), (9, 17), (8,), (5,)])
    return BlackjackGame(["Ann"], dice=dice, balances=1000, proficiency=[4])


# --------------------------------------------------------------------------- Liar's Dice


def test_liars_legal_actions_are_wagers_then_accuse_and_apply_takes_the_seat_first() -> None:
    game = liars()
    opening = game.legal_actions(0)
    assert len(opening) == 4 * 6 and opening[0] == Wager(1, 1) and opening[-1] == Wager(4, 6)
    assert game.legal_actions(1) == []  # not Bo's turn, and no wager to call yet
    event = game.apply(0, Wager(3, 2))
    assert event == WagerMade(0, 3, 2, None)
    bo = game.legal_actions(1)
    assert bo[-1] == Accuse() and Wager(3, 3) in bo and Wager(3, 2) not in bo
    assert game.can(1, Accuse()) and not game.can(0, Accuse())
    reveal = game.apply(1, Accuse())
    assert isinstance(reveal, Revealed) and reveal.outcome == "spot-on"
    assert game.dice_counts == (2, 1)


def test_accuse_is_one_frozen_value_equal_to_no_text() -> None:
    assert Accuse() == Accuse() and hash(Accuse()) == hash(Accuse())
    assert Accuse() != "accuse" and len({Accuse(), "accuse"}) == 2
    assert as_action(Accuse()) == Accuse()
    with pytest.raises(InvalidActionError, match="'accuse' is no Liar's Dice action"):
        as_action("accuse")
    with pytest.raises(AttributeError):
        Accuse().kind = "call"  # type: ignore[misc]


def test_liar_as_an_action_is_malformed_not_illegal() -> None:
    game = liars()
    game.apply(0, Wager(3, 2))
    before = game.to_log()
    for word in ("liar", "accuse"):
        for call in (game.apply, game.verify):
            with pytest.raises(InvalidActionError, match=f"'{word}' is no Liar's Dice action"
                               ) as info:
                call(1, word)  # type: ignore[operator]
            assert not isinstance(info.value, IllegalActionError)
    assert game.can(1, "liar") is False  # type: ignore[arg-type]
    assert game.to_log() == before
    # Typed by a person, "liar" is read as the accusation.
    assert parse_action("liar") == Accuse() and parse_action(" 3x2 ") == Wager(3, 2)
    with pytest.raises(InvalidActionError, match="cannot read 'maybe' as a wager"):
        parse_action("maybe")


def test_liars_verify_gives_the_primitives_messages() -> None:
    game = liars()
    with pytest.raises(NotYourTurnError) as generic:
        game.verify(1, Wager(1, 1))
    with pytest.raises(NotYourTurnError) as primitive:
        game.verify_wager(Wager(1, 1), 1)
    assert str(generic.value) == str(primitive.value) == "it is Ann's turn to wager, not Bo's"
    with pytest.raises(IllegalActionError, match="sum wagers are only for two players"):
        game.verify(0, SumWager(7))
    with pytest.raises(InvalidActionError, match="a seat is a whole number"):
        game.verify("0", Wager(1, 1))  # type: ignore[arg-type]


def test_the_older_apply_order_still_works() -> None:
    game = liars()
    assert game.apply(Wager(1, 2)) == WagerMade(0, 1, 2, None)  # type: ignore[arg-type]
    reveal = game.apply(Accuse(), 1)  # action first, seat second
    assert isinstance(reveal, Revealed) and reveal.outcome == "true"  # three twos
    assert game.dice_counts == (2, 1)


# --------------------------------------------------------------------------- Dice Blackjack


def test_blackjack_legal_actions_apply_through_one_call_each() -> None:
    game = blackjack()
    assert game.legal_actions(0) == [Bet(1), Bet(1000), SitOut()]
    assert game.action_kinds(0) == ["bet", "sit-out"]
    assert game.apply(0, Bet(300)) == BetPlaced(0, 300)
    assert game.legal_actions(0) == [Roll(), Stand(0), Stand(1), Stand(2)]
    assert game.apply(0, Roll()) == RolledAgain(0)
    assert game.legal_actions(0) == [Roll(), Stand(0), Stand(1)]  # 13: one more is 14
    assert not game.can(0, Stand(2)) and game.can(0, Stand(1)) and not game.can(0, Bet(5))
    assert game.apply(0, Stand(1)) == Stood(0, 1)
    assert game.phase is Phase.ROUND_OVER and game.legal_actions(0) == []
    assert game.settlements()[0].outcome == "exact"


def test_blackjack_sit_out_and_refusals() -> None:
    game = BlackjackGame(["Ann", "Bo"], dice=ScriptedDice([]), balances=[500, 0])
    assert game.legal_actions(1) == [] and not game.can_sit_out(1)
    with pytest.raises(InsufficientFundsError, match="Bo has 0 cp, below the table minimum"):
        game.verify(1, SitOut())
    with pytest.raises(InsufficientFundsError, match="Ann may bet 1 cp to 5 gp"):
        game.verify(0, Bet(501))
    assert game.apply(0, SitOut()) == SatOut(0)
    assert game.phase is Phase.ROUND_OVER  # nobody bet: the round closes


def test_blackjack_malformed_actions() -> None:
    game = blackjack()
    for bad in ("stand", ("stand", 1), Wager(1, 1)):
        with pytest.raises(InvalidActionError, match="is no Dice Blackjack action"):
            game.apply(0, bad)  # type: ignore[arg-type]
        assert game.can(0, bad) is False  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match=r"not Bet\(2.5\)"):
        Bet(2.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match=r"not Stand\(True\)"):
        Stand(True)
    assert game.round == 1 and game.phase is Phase.BETTING  # nothing changed


def test_answers_of_the_old_vocabulary_are_no_actions() -> None:
    game = blackjack()
    before = game.to_log()
    for answer in (("roll", 0), ("stand", 2), 250, None, "sit-out"):
        with pytest.raises(InvalidActionError, match="is no Dice Blackjack action"):
            game.apply(0, answer)  # type: ignore[arg-type]
    assert game.to_log() == before


def test_seat_limits_belong_to_the_rules() -> None:
    game = blackjack()
    assert (game.rules.min_players, game.rules.max_players) == (1, 10)
    with pytest.raises(Exception, match="Dice Blackjack takes 1-10 players, not 11"):
        BlackjackGame(11)


# --------------------------------------------------------------------------- views


def test_views_check_actions_with_the_engines_messages() -> None:
    game = liars()
    game.apply(0, Wager(3, 2))
    view = game.view(1)
    for action in (Wager(2, 2), Wager(9, 2), Accuse(), Wager(3, 3)):
        engine_error = view_error = None
        try:
            game.verify(1, action)
        except IllegalActionError as error:
            engine_error = str(error)
        try:
            view.verify(action)
        except IllegalActionError as error:
            view_error = str(error)
        assert view_error == engine_error
    assert view.can(Accuse()) and not game.view(0).can(Accuse())
    assert "made the wager and cannot accuse it" in _message(game.view(0), Accuse())

    bj = blackjack()
    assert _message(bj.view(0), Bet(2000)) == _engine_message(bj, Bet(2000))
    bj.apply(0, Bet(300))
    bj.apply(0, Roll())
    for action in (Stand(2), Stand(-1), Bet(10)):
        assert _message(bj.view(0), action) == _engine_message(bj, action)
    assert bj.view(0).can(Stand(1)) and bj.view(0).can(Roll())


def _message(view: object, action: object) -> str:
    with pytest.raises(IllegalActionError) as info:
        view.verify(action)  # type: ignore[attr-defined]
    return str(info.value)


def _engine_message(game: BlackjackGame, action: object) -> str:
    with pytest.raises(IllegalActionError) as info:
        game.verify(0, action)  # type: ignore[arg-type]
    return str(info.value)
