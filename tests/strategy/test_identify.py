"""Identifying a known bot from its revealed rounds, and ``strong``'s use of it."""

from __future__ import annotations

import numpy as np
import pytest

from tavern_dice.bots.liars_exploit.identify import MIN_DECISIONS, QUESTIONS_PER_TURN, Identifier
from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter
from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_exploit.views import view_as
from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.events import Revealed, RoundStarted
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.play.runner import liars_dice_step, play_liars_dice


def _heads_up(opponent: str, seed: int) -> LiarsDiceGame:
    """A heads-up game of 5 dice each: ``probabilistic`` (seat 0) against ``opponent``.

    The identifier reads only the game's log, so who sits in seat 0 does not matter to
    it; ``probabilistic`` plays a game in well under a second, ``strong``'s search took
    20-57 s a game here (the slowest tests of the suite)."""
    game = LiarsDiceGame(2, dice=SeededDice(seed))
    play_liars_dice(game, [make_liars_dice_bot("probabilistic", "s", seed=seed),
                           make_liars_dice_bot(opponent, "o", seed=seed)])
    return game


def _scored_rounds(game: LiarsDiceGame) -> int:
    """Revealed rounds with more than 6 dice in play (the ones the identifier scores)."""
    big, count = False, 0
    for event in game.log:
        if isinstance(event, RoundStarted):
            big = sum(event.dice_counts) > 6
        elif isinstance(event, Revealed) and big:
            count += 1
    return count


@pytest.mark.parametrize("seed", [2, 3])  # games with at least six scored decisions
def test_a_trusting_opponent_is_named_after_its_revealed_rounds(seed: int) -> None:
    game = _heads_up("trusting", seed)
    assert _scored_rounds(game) >= 3
    identifier = Identifier()
    assert identifier.identify(game.view(0), 1) == "trusting"
    record = identifier._records[1]
    assert record.matched["trusting"] >= MIN_DECISIONS
    assert "trusting" not in record.missed
    # probabilistic raises to its likeliest wager, which trusting does not always do
    assert "probabilistic" in record.missed


@pytest.mark.parametrize("opponent", ["random", "bluffer"])
def test_bots_it_does_not_know_are_not_named(opponent: str) -> None:
    game = _heads_up(opponent, 3)
    identifier = Identifier()
    assert identifier.identify(game.view(0), 1) is None
    assert identifier._records[1].missed == {"trusting", "probabilistic"}


def test_nothing_is_named_before_enough_decisions() -> None:
    game = LiarsDiceGame(2, dice=SeededDice(4))
    agents = [StrongLiarsDiceBot("s", seed=4), TrustingLiarsDiceBot("t")]
    while not any(isinstance(e, Revealed) for e in game.log):
        liars_dice_step(game, agents)
    assert Identifier().identify(game.view(0), 1) is None


def test_strong_plays_the_local_best_response_once_it_has_named_the_bot() -> None:
    """After naming ``trusting``, in rounds no table covers, ``strong`` answers as the
    local best response against ``trusting`` would; with a table, it keeps the table."""
    game = LiarsDiceGame(2, dice=SeededDice(2))  # named while 7 or more dice are still in play
    strong = StrongLiarsDiceBot("s", seed=2)
    agents = [strong, TrustingLiarsDiceBot("t")]
    exploiting = tabled = 0
    while game.winner is None:
        view = game.view(0)
        if game.turn == 0 and Identifier().identify(view, 1) == "trusting":
            best = LookaheadExploiter("s", 1, target="trusting", depth=1)
            if view.dice_in_play > 6:
                assert strong.action_probabilities(view) == {best.choose_action(view): 1.0}
                exploiting += 1
            else:
                assert strong._exploit_rows(view, (view.own_dice,)) is not None
                assert strong._table_rows(view, (view.own_dice,)) is not None
                tabled += 1
        liars_dice_step(game, agents)
    assert exploiting >= 3 and tabled >= 1


@pytest.mark.parametrize("kind", ["trusting", "probabilistic"])
def test_a_known_bot_answers_for_many_hands_as_it_does_for_one(kind: str) -> None:
    game = LiarsDiceGame(2, dice=SeededDice(6))
    bot = make_liars_dice_bot(kind, "t")
    agents = [bot, make_liars_dice_bot(kind, "u")]
    checked = 0
    while game.winner is None and checked < 200:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        if seat == 0:
            hands = hands_of(view.dice_counts[0], view.rules.sides).faces
            actions, probs = bot.range_policy(view, hands)
            assert probs.sum(axis=1).tolist() == [1.0] * len(hands)
            for i in range(0, len(hands), 9):
                alone = make_liars_dice_bot(kind, "x").choose_action(
                    view_as(view, 0, hands[i], (), list(view.log)))
                assert actions[int(probs[i].argmax())] == alone
                checked += 1
        liars_dice_step(game, agents)
    assert checked > 50


def test_a_name_is_withdrawn_when_the_opponent_wagers_what_the_bot_never_would() -> None:
    """Mid-round, before any reveal: a wager the named bot would make with no hand at all
    (``probabilistic`` never opens with 7 sixes) ends the name for good, and ``strong``
    plays its robust policy instead of the best response against that bot."""
    from tavern_dice.liars_dice.wager import Wager

    class Named(Identifier):
        def identify(self, view: LiarsDiceView, seat: int) -> str | None:
            record = self._records.get(seat)
            return None if record and "probabilistic" in record.missed else "probabilistic"

    game = LiarsDiceGame(2, dice=SeededDice(5))
    opener = game.turn
    assert opener is not None
    strong = StrongLiarsDiceBot("s", seed=5)
    strong._identifier = Named()
    me = 1 - opener
    game.wager(Wager(7, 6), opener)
    view = game.view(me)
    assert strong._exploit_rows(view, (view.own_dice,)) is None
    assert strong._identifier.identify(view, opener) is None
    assert LookaheadExploiter("x", 1, target="probabilistic", depth=1).consistent(view) is False


def test_the_alternative_is_a_distribution_over_the_legal_actions() -> None:
    """The strong player a name is tested against (blueprint mixed with a uniform choice)
    gives every legal action a chance, and the chances sum to one."""
    from tavern_dice.bots.liars_exploit.identify import ALTERNATIVE_FLOOR, alternative_probability

    game = LiarsDiceGame(2, dice=SeededDice(7))  # 10 dice in play: a blueprint round
    agents = [make_liars_dice_bot("strong", "a", seed=7), make_liars_dice_bot("strong", "b")]
    checked = 0
    while game.round == 1:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        actions = [*view.legal_wagers, *([Accuse()] if view.may_accuse else [])]
        chances = [alternative_probability(view, a) for a in actions]
        assert sum(chances) == pytest.approx(1.0, abs=1e-6)
        assert min(chances) >= ALTERNATIVE_FLOOR / len(actions) - 1e-12
        checked += 1
        liars_dice_step(game, agents)
    assert checked >= 2


def test_choices_an_exploiter_would_make_too_are_weak_evidence() -> None:
    """With the candidate itself as the alternative's exploiter, every matched decision is
    one the alternative makes half the time at least: the likelihood ratio grows by at
    most log 2 a decision, so ``trusting`` is not named on its six or seven decisions
    (without that exploiter it is)."""
    import math

    from tavern_dice.bots.liars_exploit.identify import MIN_EVIDENCE

    game = _heads_up("trusting", 2)
    assert Identifier().identify(game.view(0), 1) == "trusting"
    doubting = Identifier(exploiter=lambda: TrustingLiarsDiceBot("t"))
    assert doubting.identify(game.view(0), 1) is None
    record = doubting._records[1]
    assert record.matched["trusting"] >= MIN_DECISIONS
    assert record.evidence["trusting"] <= record.matched["trusting"] * math.log(2) + 1e-9
    assert record.evidence["trusting"] < MIN_EVIDENCE


def test_strong_tests_a_name_against_the_local_best_response_against_itself() -> None:
    """``strong``'s identifier weighs each matched choice against the local best response
    against ``strong`` (a copy that names nobody, so the alternative cannot recurse): the
    exploiter that was named ``probabilistic`` in 5 of 300 ``standard`` games by the
    raise-count rule alone (likelihood ratios e**2.2-e**3.2 against this alternative, e**14
    against the blueprint alone once)."""
    strong = StrongLiarsDiceBot("s", seed=3, temperature=0.02)
    exploiter = strong._exploiter_of_me()
    assert isinstance(exploiter, LookaheadExploiter)
    assert exploiter.target == "strong" and exploiter.depth == 1
    copy = exploiter.model.agent
    assert isinstance(copy, StrongLiarsDiceBot)
    assert copy.identify is False and copy.temperature == 0.02
    # Where strong searches, the copy plays the blueprint (a search per answer is too slow
    # for a test run on strong's own turn).
    assert copy.search is False
    assert copy.options == strong.options | {"identify": False, "search": False}


@pytest.mark.parametrize(("dice", "exploited"), [((4, 3), True), ((3, 3), False)])
def test_a_named_bot_meets_its_best_response_only_in_the_big_rounds(
    monkeypatch: pytest.MonkeyPatch, dice: tuple[int, int], exploited: bool,
) -> None:
    """Against a bot it has named, ``strong`` plays the best response in the rounds of more
    than 6 dice in play (where the blueprints would answer) and keeps the table in the
    rounds of at most 6."""
    from tavern_dice.strategy.liars_dice.solver.play.tables import TABLE_RULES

    game = LiarsDiceGame(2, TABLE_RULES["tavern-standard"], dice=SeededDice(3), starting_dice=dice)
    while game.turn != 0 or game.view(0).phase != "bidding":
        liars_dice_step(game, [StrongLiarsDiceBot("s", seed=3), StrongLiarsDiceBot("o", seed=3)])
    strong = StrongLiarsDiceBot("s", seed=3)
    view = game.view(0)
    # A table covers the small round only.
    assert (strong._table_rows(view, (view.own_dice,)) is None) is exploited
    named = ((view.legal_wagers[0],), np.ones((1, 1)))
    monkeypatch.setattr(strong, "_exploit_rows", lambda view, hands: named)
    assert (strong.range_policy(view, (view.own_dice,)) is named) is exploited


def test_questions_are_answered_a_few_a_turn_and_a_rebuilt_identifier_agrees() -> None:
    """A revealed round's alternative hypotheses wait in line, QUESTIONS_PER_TURN worked
    out per turn of the identifying seat; turns are read from the log, so an identifier
    built afresh from the log at any turn (a saved game resumed) holds the same evidence
    as the one that was there all along."""
    game = LiarsDiceGame(2, dice=SeededDice(2))
    agents = [make_liars_dice_bot("probabilistic", "s", seed=2),
              make_liars_dice_bot("trusting", "o", seed=2)]
    live = Identifier()
    asked: list[int] = []
    real = live._alternative

    def counted(view: LiarsDiceView, action: Accuse) -> float:
        asked[-1] += 1
        return real(view, action)

    live._alternative = counted  # type: ignore[method-assign, assignment]
    turns = 0
    while game.winner is None:
        if game.turn == 0:
            view = game.view(0)
            asked.append(0)
            found = live.identify(view, 1)
            again = live.identify(view, 1)  # asked twice on one turn: nothing more
            rebuilt = Identifier()
            assert rebuilt.identify(view, 1) == found == again
            assert rebuilt._records == live._records
            assert list(rebuilt._waiting) == list(live._waiting)
            turns += 1
        liars_dice_step(game, agents)
    assert turns >= 8
    assert 0 < max(asked) <= QUESTIONS_PER_TURN
    # After the game every turn in the log has had its question: the name is given.
    assert live.identify(game.view(0), 1) == Identifier().identify(game.view(0), 1)
    assert live.identify(game.view(0), 1) == "trusting"
