"""Property tests: random legal games of both games keep the engines' invariants (issue 2).

Hypothesis draws the ruleset (every option, and the presets), the table, the
dice seed and the seed of the choices; the choices are then made among the
engine's own ``legal_actions`` / ``accusers`` / ``legal_bonuses`` /
``bet_limits``. Dice come from the engine's seeded source or are typed in.

Liar's Dice: dice only ever decrease (by one die, or by one die per other
player on a spot-on), exactly one winner, no view holds another player's
unrevealed dice, the JSON log replays to the same game.
Dice Blackjack: gold is conserved between the players and the house, bets stay
within balances, no balance goes negative, the JSON log replays to the same
session; illegal attempts raise and change nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavern_dice.blackjack import PRESETS as BLACKJACK_PRESETS
from tavern_dice.blackjack import BlackjackGame, BlackjackRules
from tavern_dice.blackjack import Phase as BlackjackPhase
from tavern_dice.blackjack.events import BetPlaced, RoundOpened, Settled
from tavern_dice.dice import SeededDice
from tavern_dice.errors import IllegalActionError, InsufficientFundsError, TavernError
from tavern_dice.events import DiceRolled, Event
from tavern_dice.liars_dice import PRESETS as LIARS_DICE_PRESETS
from tavern_dice.liars_dice import Accuse, LiarsDiceGame, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.events import GameWon, Revealed

MAX_DECISIONS = 5_000
"""A game that has not ended after this many decisions fails (random play ends far sooner)."""

liars_rules = st.one_of(
    st.builds(
        LiarsDiceRules,
        dice_per_player=st.sampled_from(range(1, 6)),  # sampled: no bias to small games
        raise_rule=st.sampled_from(RaiseRule),
        wild_face=st.none() | st.integers(1, 6),
        spot_on=st.booleans(),
        sum_endgame=st.booleans(),
    ),
    st.sampled_from(sorted(LIARS_DICE_PRESETS.values(), key=repr)),
)

blackjack_rules = st.one_of(
    st.builds(
        BlackjackRules,
        house_needs_under=st.booleans(),
        house_exact_beats_player_exact=st.booleans(),
        target_one_collects=st.booleans(),
        min_bet_cp=st.integers(1, 40),
        max_bet_cp=st.none() | st.integers(40, 2_000),
    ),
    st.sampled_from(sorted(BLACKJACK_PRESETS.values(), key=repr)),
)


def replays_identically(
    log: dict[str, Any], kind: type[LiarsDiceGame] | type[BlackjackGame]
) -> bool:
    return kind.from_log(json.loads(json.dumps(log))).to_log() == log


def typed_faces(game: LiarsDiceGame | BlackjackGame, rng: random.Random) -> list[list[int]]:
    """Faces for the pending chance node, as a person typing in physical dice would."""
    request = game.chance_request()
    assert request is not None
    return [[rng.randint(1, spec.sides) for _ in range(spec.count)] for spec in request]


# --------------------------------------------------------------------------- Liar's Dice


class MaskingChecker:
    """Checks each viewer's log incrementally: what was checked must not change, and new
    events must hide every other player's secret roll."""

    def __init__(self, game: LiarsDiceGame) -> None:
        self.game = game
        self.checked: dict[int | None, tuple[Event, ...]] = {
            seat: () for seat in (None, *range(game.num_players))
        }
        self.hidden_seen = 0

    def check(self) -> None:
        game = self.game
        for seat, before in self.checked.items():
            view = game.view(seat)
            assert view.own_dice == (() if seat is None else game.hands[seat])
            assert view.dice_counts == game.dice_counts
            log = view.log
            assert len(log) == len(game.log) and log[: len(before)] == before
            for mine, full in zip(log[len(before):], game.log[len(before):], strict=True):
                if isinstance(full, DiceRolled) and full.secret:
                    assert isinstance(mine, DiceRolled)
                    for roller, shown, faces in zip(full.seats, mine.dice, full.dice, strict=True):
                        if roller == seat:
                            assert shown == faces
                        else:
                            assert shown == (None,) * len(faces)
                            self.hidden_seen += 1
                else:
                    assert mine == full
            self.checked[seat] = log


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=liars_rules,
    players=st.sampled_from(range(2, 11)),
    dice_seed=st.integers(0, 2**32 - 1),
    choice_seed=st.integers(0, 2**32 - 1),
    typed=st.booleans(),
    eagerness=st.floats(0.05, 0.6),
)
def test_random_legal_liars_dice_games_keep_their_invariants(
    rules: LiarsDiceRules, players: int, dice_seed: int, choice_seed: int, typed: bool,
    eagerness: float,
) -> None:
    rng = random.Random(choice_seed)
    game = LiarsDiceGame(players, rules=rules, dice=SeededDice(dice_seed), auto_roll=not typed)
    masking = MaskingChecker(game)
    replay_at = rng.randrange(40)
    for decision in range(MAX_DECISIONS):
        if game.is_over:
            break
        counts = game.dice_counts
        if game.chance_request() is not None:
            game.roll(typed_faces(game, rng))
        else:
            turn = game.turn
            assert turn is not None and counts[turn] > 0
            others = [s for s in game.accusers() if s != turn]
            assert all(counts[s] > 0 and game.legal_actions(s) == [Accuse()] for s in others)
            eager = [s for s in others if rng.random() < eagerness / 2]
            actions = game.legal_actions()
            assert actions, "the player to act always has a legal action"
            wagers = [a for a in actions if not isinstance(a, Accuse)]
            if eager:
                game.accuse(rng.choice(eager))
            elif not wagers or (Accuse() in actions and rng.random() < eagerness):
                game.apply(Accuse())
            else:
                game.apply(rng.choice(wagers))
        after = game.dice_counts
        assert all(0 <= a <= b for a, b in zip(after, counts, strict=True)), (counts, after)
        lost = sum(counts) - sum(after)
        if lost:
            reveal = next(e for e in reversed(game.log) if isinstance(e, Revealed))
            alive_before = sum(1 for c in counts if c > 0)
            assert lost == (alive_before - 1 if reveal.outcome == "spot-on" else 1)
            assert reveal.dice_counts == after
        masking.check()
        if decision == replay_at:
            assert replays_identically(game.to_log(), LiarsDiceGame)
    assert game.is_over, f"no winner after {MAX_DECISIONS} decisions"
    winner = game.winner
    assert winner is not None
    assert [seat for seat, c in enumerate(game.dice_counts) if c > 0] == [winner]
    assert [e for e in game.log if isinstance(e, GameWon)] == [GameWon(winner)]
    assert game.legal_actions(winner) == [] and game.chance_request() is None
    assert masking.hidden_seen > 0  # the masking check saw hidden dice
    assert replays_identically(game.to_log(), LiarsDiceGame)


# --------------------------------------------------------------------------- Dice Blackjack


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    rules=blackjack_rules,
    dice_seed=st.integers(0, 2**32 - 1),
    choice_seed=st.integers(0, 2**32 - 1),
    typed=st.booleans(),
    rounds=st.sampled_from(range(1, 16)),
)
def test_random_legal_blackjack_sessions_keep_their_invariants(
    data: st.DataObject, rules: BlackjackRules, dice_seed: int, choice_seed: int, typed: bool,
    rounds: int,
) -> None:
    players = data.draw(st.sampled_from(range(1, 7)), "players")
    balances = data.draw(
        st.lists(st.integers(0, 3_000), min_size=players, max_size=players), "balances"
    )
    proficiency = data.draw(
        st.lists(st.none() | st.integers(2, 6), min_size=len(balances), max_size=len(balances)),
        "proficiency",
    )
    if not any(b >= rules.min_bet_cp for b in balances):
        balances[0] = rules.min_bet_cp  # someone must be able to open the first round
    rng = random.Random(choice_seed)
    game = BlackjackGame(
        len(balances), rules=rules, dice=SeededDice(dice_seed), balances=balances,
        proficiency=proficiency,
        auto_roll=not typed,
    )
    start = sum(balances)
    attempts = 0

    def refused(action: Any, kind: type[TavernError]) -> None:
        nonlocal attempts
        before = game.to_log()
        try:
            action()
        except kind:
            attempts += 1
        else:
            raise AssertionError("an illegal action was accepted")
        assert game.to_log() == before

    for _ in range(rounds):
        if game.is_over:
            break
        if game.phase is BlackjackPhase.ROUND_OVER:
            game.new_round()
        for seat in game.eligible:
            low, high = game.bet_limits(seat)
            assert 1 <= low <= high <= game.balances[seat]
            if rng.random() < 0.05:
                refused(lambda s=seat, h=high: game.place_bet(s, h + 1), InsufficientFundsError)
            if rng.random() < 0.15:
                game.sit_out(seat)
            else:
                game.place_bet(seat, rng.choice([low, high, rng.randint(low, high)]))
        while game.chance_request() is not None or game.phase is BlackjackPhase.PLAYING:
            if game.chance_request() is not None:
                game.roll(typed_faces(game, rng))
                continue
            actor = game.turn
            assert actor is not None and game.target is not None
            assert game.action_kinds(actor) == ["roll", "stand"]
            bonuses = game.legal_bonuses(actor)
            total = game.totals[actor]
            assert bonuses == tuple(range(len(bonuses)))
            assert total + bonuses[-1] <= game.target
            assert bonuses[-1] <= game.bonus_cap(actor)
            if rng.random() < 0.05:
                refused(lambda s=actor, b=bonuses[-1]: game.stand(s, b + 1), IllegalActionError)
            if rng.random() < 0.5:
                game.roll_again(actor)
            else:
                game.stand(actor, rng.choice(bonuses))
        assert game.phase is BlackjackPhase.ROUND_OVER
        assert sum(game.balances) + game.house_net == start
        assert all(b >= 0 for b in game.balances)
        for seat in range(len(balances)):
            assert game.view(seat).log == tuple(game.log)  # nothing in this game is secret
    # Bets never exceeded the balance the player had when the round opened.
    opened: tuple[int, ...] = ()
    for event in game.log:
        if isinstance(event, RoundOpened):
            opened = event.balances
        elif isinstance(event, BetPlaced):
            assert rules.min_bet_cp <= event.amount <= opened[event.seat]
            if rules.max_bet_cp is not None:
                assert event.amount <= rules.max_bet_cp
        elif isinstance(event, Settled):
            assert event.balance >= 0 and event.delta >= -event.bet
    assert replays_identically(game.to_log(), BlackjackGame)
