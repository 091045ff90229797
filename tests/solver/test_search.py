"""The decision-time search of heads-up rounds under the seed's ``either`` rule.

Checked against independent computations: the leaf values against the blueprint's own
``EU`` matrices, the accusation scores against the round's truth table, and the solved
subgame against best responses computed densely here (its NashConv shrinks to near zero).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.actions import ACCUSE
from tavern_dice.liars_dice.rules import TAVERN, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import Wager, legal_raises
from tavern_dice.play.runner import liars_dice_step
from tavern_dice.strategy.liars_dice.solver.core.dag import DagCFRSolver
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.play import leaves as leaf_module
from tavern_dice.strategy.liars_dice.solver.play import search
from tavern_dice.strategy.liars_dice.solver.play.leaves import (
    LeafValues,
    build_leaf_values,
    leaf_values,
)
from tavern_dice.strategy.liars_dice.solver.play.search import RoundSearcher, search_policy, solve

KEY = "tavern-standard"
STANDARD = TAVERN.replace(raise_rule=RaiseRule.STANDARD)


@pytest.fixture
def exact(monkeypatch: pytest.MonkeyPatch) -> Iterator[LeafValues]:
    """The 4 v 3 round's leaf values at full rank (the shipped rank is a speed trade)."""
    monkeypatch.setattr(leaf_module, "RANK", 10_000)
    leaf_values.cache_clear()
    yield build_leaf_values(KEY, 4, 3)
    leaf_values.cache_clear()


def test_leaf_factors_reproduce_the_blueprint_values(exact: LeafValues) -> None:
    for actor in (0, 1):
        found = exact.factored(actor)
        u, vt = found.u[0], found.vt[0]
        for node in (0, 7, exact.eu.shape[0] - 1):
            expected = exact.eu[node] if actor == 0 else -exact.eu[node].T
            assert u[node] @ vt[node] == pytest.approx(expected, abs=1e-4)


def test_the_search_keeps_both_actors_factors_and_drops_the_whole_values() -> None:
    """The cached leaf values are slim: both actors' factors as the full set builds them
    (the second actor's read from the first's, the whole matrices shared), and no ``eu``."""
    leaf_values.cache_clear()
    slim = leaf_values(KEY, 4, 3)
    full = build_leaf_values(KEY, 4, 3)
    with pytest.raises(ValueError, match="slim"):
        _ = slim.eu
    wanted = np.flatnonzero(full.factored(0).slot >= 0)
    assert wanted.size > 0
    for actor in (0, 1):
        mine, theirs = slim.factored(actor), full.factored(actor)
        assert np.array_equal(mine.slot, theirs.slot)
        assert mine.u == pytest.approx(theirs.u, abs=1e-6)
        assert mine.vt == pytest.approx(theirs.vt, abs=1e-6)
        slots = mine.slot[wanted]
        assert mine.whole(slots) == pytest.approx(theirs.whole(slots), abs=1e-6)
    assert slim.factored(1).dense is slim.factored(0).dense  # one copy, read both ways
    leaf_values.cache_clear()


def test_every_leaf_is_within_the_residual_the_search_allows() -> None:
    """At the shipped rank the low wagers' value matrices are far from rank 16; those are
    kept whole, so no node's values as the search reads them are off by more than
    DENSE_RESIDUAL of the blueprint's own (Frobenius norm)."""
    leaf_values.cache_clear()
    leaves = build_leaf_values(KEY, 4, 3)
    whole = 0
    for actor in (0, 1):
        values = leaves.factored(actor)
        for node in range(leaves.eu.shape[0]):
            expected = leaves.eu[node] if actor == 0 else -leaves.eu[node].T
            slot = values.slot[node]
            read = (values.whole(np.array([slot]))[0, 0] if slot >= 0
                    else values.u[0, node] @ values.vt[0, node])
            whole += slot >= 0
            error = np.linalg.norm(read - expected) / max(np.linalg.norm(expected), 1e-12)
            assert error <= leaf_module.DENSE_RESIDUAL + 1e-5
    assert whole > 0  # the opening wagers need more than the shipped rank


def test_a_solve_reading_whole_matrices_matches_one_reading_exact_factors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The two ways the search reads leaf values (factors per leaf; whole matrices grouped
    by node) solve the same subgame alike when both are exact."""
    wagers = (Wager(2, 3), Wager(1, 5))
    solved = []
    for rank, residual in ((10_000, 1.0), (1, 0.0)):  # every node factored / every node whole
        monkeypatch.setattr(leaf_module, "RANK", rank)
        monkeypatch.setattr(leaf_module, "DENSE_RESIDUAL", residual)
        leaf_values.cache_clear()
        leaves = build_leaf_values(KEY, 4, 3)
        reach = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
        solved.append(solve(leaves, TAVERN, 0, wagers, reach))
    leaf_values.cache_clear()
    assert solved[0].strategy == pytest.approx(solved[1].strategy, abs=1e-4)
    assert solved[0].answer_strategy == pytest.approx(solved[1].answer_strategy, abs=1e-4)


def test_an_accused_raise_scores_by_the_truth_table() -> None:
    leaves = build_leaf_values(KEY, 4, 3)
    truth = leaves.game.truth
    for actor in (0, 1):
        for wager in (Wager(1, 1), Wager(3, 4), Wager(7, 6)):
            u, vt = leaves.raise_accused(actor, wager)
            true = truth[leaves.game.bids.index(wager)]
            mine = true if actor == 0 else true.T
            # The raise's maker scores +1 when it holds (the accuser pays, L8), else -1.
            assert u @ vt == pytest.approx(np.where(mine, 1.0, -1.0))


def _dense_values(
    leaves: LeafValues, actor: int, wagers: tuple[Wager, ...], solution: search.Solution,
    w_a: np.ndarray, w_b: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Computed densely from the blueprint's ``EU`` and the round's accusation payoffs (not
    the search's factors), both players' hands weighted by ``w_a`` and ``w_b``: A's (the
    actor's) value of each root action against B's average strategy ``(A's hands,
    actions)``, and B's best-response counterfactual value per hand against A's average."""
    a, b = actor, 1 - actor
    game = leaves.game

    def orient(m: np.ndarray) -> np.ndarray:  # the first bidder's scores -> A's, rows A
        return m if a == 0 else -m.T

    pay = game.payoff0
    root, sa = solution.actions, solution.strategy
    values_a = np.zeros((w_a.shape[0], len(root)))
    best_b = np.zeros(w_b.shape[0])
    r = 0
    for i, action in enumerate(root):
        x = w_a * sa[:, i]
        if action == ACCUSE:
            m = orient(pay[b, game.bids.index(wagers[-1])])
            values_a[:, i] = m @ w_b
            best_b -= x @ m
            continue
        answers = solution.answers[r]
        sb = solution.answer_strategy[r]
        assert isinstance(action, Wager)
        mats = [orient(pay[a, game.bids.index(action)])]
        for w in answers[1:]:
            assert isinstance(w, Wager)
            mats.append(orient(leaves.eu[leaves.node(w, a)].astype(np.float64)))
        values_a[:, i] = sum(m @ (w_b * sb[:, j]) for j, m in enumerate(mats))
        # B picks, per hand, the answer worst for A.
        best_b -= np.min(np.stack([x @ m for m in mats]), axis=0)
        r += 1
    return values_a, best_b


def _dense_nashconv(leaves: LeafValues, actor: int, wagers: tuple[Wager, ...],
                    solution: search.Solution) -> float:
    """NashConv of the solved subgame with both players' hands at their chances, each
    side's best response computed densely (:func:`_dense_values`)."""
    w_a, w_b = leaves.game.hands[actor].prob, leaves.game.hands[1 - actor].prob
    values_a, best_b = _dense_values(leaves, actor, wagers, solution, w_a, w_b)
    return float(w_a @ values_a.max(axis=1)) + float(w_b @ best_b)


def test_the_subgame_solve_approaches_an_equilibrium(
    exact: LeafValues, monkeypatch: pytest.MonkeyPatch
) -> None:
    wagers = (Wager(2, 3), Wager(1, 5))  # an either-only raise: a higher face, fewer dice
    reach = (np.ones(exact.game.n_states[0]), np.ones(exact.game.n_states[1]))
    gaps = []
    for iterations in (5, 400):
        gaps.append(_dense_nashconv(exact, 0, wagers, solve(exact, TAVERN, 0, wagers, reach,
                                                             iterations=iterations)))
    assert gaps[1] >= -1e-9
    assert gaps[1] < 0.01 < gaps[0]


def test_every_root_action_is_legal_and_the_strategy_sums_to_one() -> None:
    leaves = build_leaf_values(KEY, 4, 3)
    reach = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
    wagers = (Wager(2, 3), Wager(1, 5), Wager(2, 1))
    made = [(0, w) for w in wagers]
    from tavern_dice.liars_dice.wager import legal_raises

    legal = set(legal_raises(TAVERN, 7, wagers[-1], False, made))
    for every in (False, True):
        found = solve(leaves, TAVERN, 1, wagers, reach, every)
        assert found.actions[0] == ACCUSE
        assert all(w in legal for w in found.actions[1:])
        assert Wager(2, 3) not in found.actions  # a repeat (L5b) is never searched
        assert found.strategy.sum(axis=1) == pytest.approx(1.0)
        if every:
            assert set(found.actions[1:]) == legal


def test_ranges_follow_the_wagers_the_search_would_make() -> None:
    searcher = RoundSearcher(KEY, 4, 3)
    first = (Wager(2, 3),)
    before = searcher.reach(TAVERN, (), 0)
    actions, strategy = searcher.policy(TAVERN, (), 0)
    mine = searcher.reach(TAVERN, first, 0)
    # The viewer's own wager: exactly its chance under the search it played.
    assert mine[0] == pytest.approx(before[0] * strategy[:, actions.index(first[0])])
    assert mine[1] == pytest.approx(before[1])
    # Seen by the other player, the same wager is read with a floor: nothing impossible.
    theirs = searcher.reach(TAVERN, first, 1)
    assert theirs[0].min() > 0
    assert not np.allclose(theirs[0], theirs[0][0])


def test_a_re_solved_turn_reads_only_the_searchers_own_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On its own turn after the opponent's wager the gadget picks the opponent's range,
    so the searcher's own range (read from its own searches alone) is all it needs: the
    same as the whole range's part for it, the same solve as one given the modelled range
    of the opponent too, and with the option no search modelling the opponent's wager
    where its earlier search met that answer."""
    monkeypatch.setattr(search, "OWN_RANGE_ONLY", True)
    # The viewer, the other, the viewer: each a raise the search before it weighed.
    wagers = (Wager(2, 3), Wager(3, 3), Wager(2, 5))
    lazy = RoundSearcher(KEY, 4, 3)
    for k in range(len(wagers) + 1):
        assert lazy.own_reach(TAVERN, wagers[:k], 0) == pytest.approx(
            RoundSearcher(KEY, 4, 3).reach(TAVERN, wagers[:k], 0)[0])
    after = (*wagers, Wager(3, 5))  # the other's answer, one the viewer's search met
    eager = RoundSearcher(KEY, 4, 3)
    expected = eager.solution(TAVERN, after, 0, reach=eager.reach(TAVERN, after, 0))
    modelled: list[tuple[Wager, ...]] = []
    real = search.solve

    def counted(*args: object, **kwargs: object) -> object:
        if not kwargs.get("choose", True):  # a search modelling the opponent's wager
            modelled.append(args[3])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "solve", counted)
    found = RoundSearcher(KEY, 4, 3).solution(TAVERN, after, 0)
    assert found.actions == expected.actions
    assert found.strategy == pytest.approx(expected.strategy, abs=1e-12)
    assert modelled == []


def test_strong_searches_heads_up_under_the_seed_rules_only() -> None:
    # Seat 1 bids first here: the round is 3 v 5 (every round of 7 dice in play has the
    # seed's own table since 2026-12-06).
    game = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(3), starting_dice=[5, 3])
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    hands = [tuple(view.own_dice)]
    bot = StrongLiarsDiceBot("s", seed=1)
    found = search_policy(view, hands, {})
    assert found is not None
    assert bot.range_policy(view, hands)[1] == pytest.approx(found[1])
    plain = LiarsDiceGame(2, rules=STANDARD, dice=SeededDice(3), starting_dice=[5, 3])
    seat = plain.turn
    assert seat is not None
    assert search_policy(plain.view(seat), hands, {}) is None
    small = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(3), starting_dice=[3, 3])
    seat = small.turn
    assert seat is not None
    assert search_policy(small.view(seat), [(1, 2, 3)], {}) is None


@pytest.mark.parametrize(("starting", "bidder"), [([4, 3], 3), ([2, 5], 5)])
def test_strong_searches_the_seeds_7_dice_rounds(starting: list[int], bidder: int) -> None:
    from tavern_dice.strategy.liars_dice.solver.play.tables import heads_up_policy

    # No table ships for the seed's 7-dice rounds (their files took 9-12 MB each): the
    # search plays them, as it plays the 8-10-dice ones. Seat 1 bids first with seed 3.
    game = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(3), starting_dice=starting)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert view.dice_counts[seat] == bidder
    hands = [tuple(view.own_dice)]
    assert heads_up_policy(view, hands, off_tree="stand-in") is None
    searched = search_policy(view, hands, {})
    assert searched is not None
    played = StrongLiarsDiceBot("s", seed=1).range_policy(view, hands)
    assert played[0] == searched[0]
    assert played[1] == pytest.approx(searched[1])


def test_a_searched_round_replays_from_its_seed() -> None:
    def play() -> list[str]:
        # Seat 0 bids first with seed 11: 3 v 5, a searched round.
        game = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(11), starting_dice=[3, 5])
        bots = [StrongLiarsDiceBot("a", seed=5), StrongLiarsDiceBot("b", seed=6)]
        first = game.round
        while game.round == first and game.winner is None:
            liars_dice_step(game, bots)
        return [type(e).__name__ + str(getattr(e, "quantity", "")) for e in game.log]

    assert play() == play()


def test_the_values_are_the_actors_against_the_others_average(exact: LeafValues) -> None:
    wagers = (Wager(2, 3), Wager(1, 5))
    game = exact.game
    reach = (np.ones(game.n_states[0]), np.linspace(0.2, 1.0, game.n_states[1]))
    solution = solve(exact, TAVERN, 0, wagers, reach)
    w_a, w_b = game.hands[0].prob * reach[0], game.hands[1].prob * reach[1]
    values_a, _ = _dense_values(exact, 0, wagers, solution, w_a, w_b)
    assert solution.values == pytest.approx(values_a, abs=1e-5)
    # The other's value of each answer: minus the actor's score there, its reach weighing.
    raised = len(solution.actions) - len(solution.answers)
    for r in (0, len(solution.answers) - 1):
        raise_ = solution.actions[raised + r]
        assert isinstance(raise_, Wager)
        x = w_a * solution.strategy[:, raised + r]
        accused = game.payoff0[0, game.bids.index(raise_)]
        assert solution.answer_values[r, :, 0] == pytest.approx(-(x @ accused), abs=1e-5)
        for j, answer in enumerate(solution.answers[r][1:], start=1):
            assert isinstance(answer, Wager)
            leaf = exact.eu[exact.node(answer, 0)].astype(np.float64)
            assert solution.answer_values[r, :, j] == pytest.approx(-(x @ leaf), abs=1e-4)


def _gadget_case(leaves: LeafValues) -> tuple[tuple[Wager, ...], np.ndarray]:
    """A history whose last wager is B's, and B's values of it in the search that modelled
    it (B to act after the first wager, every raise at its root)."""
    wagers = (Wager(2, 3), Wager(1, 5))
    ones = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
    before = solve(leaves, TAVERN, 1, wagers[:1], ones, every=True)
    return wagers, before.values[:, before.actions.index(wagers[1])]


def test_the_resolving_gadget_picks_the_others_range_itself(exact: LeafValues) -> None:
    """Given the other's values, its modelled range no longer matters: an exploiter cannot
    steer the search by what its wagers seem to say."""
    wagers, follow = _gadget_case(exact)
    n0, n1 = exact.game.n_states
    plain = (np.ones(n0), np.ones(n1))
    skewed = (np.ones(n0), np.linspace(0.01, 1.0, n1))
    a = solve(exact, TAVERN, 0, wagers, plain, follow=follow)
    b = solve(exact, TAVERN, 0, wagers, skewed, follow=follow)
    assert a.strategy == pytest.approx(b.strategy)
    unsafe = solve(exact, TAVERN, 0, wagers, skewed)
    assert np.abs(unsafe.strategy - b.strategy).max() > 0.05


def test_the_resolving_gadget_holds_the_other_to_its_values(
    exact: LeafValues, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Solved far, the re-solved strategy gives the other's hands (their best responses,
    computed densely) less beyond the values they had when they wagered than a solve
    that takes the range as its chances, and far less than one that trusts a wrong
    model of it. (Not nothing: the values came from a search one wager shallower, and the
    deeper subgame gives the other one more answer to find.)"""
    wagers, follow = _gadget_case(exact)
    game = exact.game
    n0, n1 = game.n_states
    w_a, chance_b = game.hands[0].prob, game.hands[1].prob

    def excess(solution: search.Solution) -> float:
        """The other's best-response gain over its values, in chance-weighted sum."""
        _, best_b = _dense_values(exact, 0, wagers, solution, w_a, chance_b)
        return float(chance_b @ np.maximum(best_b - follow, 0.0))

    ones = (np.ones(n0), np.ones(n1))
    safe = excess(solve(exact, TAVERN, 0, wagers, ones, follow=follow, iterations=400))
    plain = excess(solve(exact, TAVERN, 0, wagers, ones, iterations=400))
    wrong = np.where(np.arange(n1) % 2 == 0, 1.0, 1e-3)  # a model far from the truth
    trusting = excess(solve(exact, TAVERN, 0, wagers, (np.ones(n0), wrong), iterations=400))
    assert safe < 0.8 * plain
    assert safe < 0.5 * trusting


def test_the_searchers_own_turns_are_held_to_its_earlier_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Continual re-solving (an option, off as shipped): after its raise and the opponent's
    answer, the searcher's next search holds the opponent to the values that answer had
    in its own earlier search; at the opening the opponent's wager is bounded by the
    search that modelled it."""
    monkeypatch.setattr(search, "RESOLVE", True)
    searcher = RoundSearcher(KEY, 4, 3)
    mine = searcher.solution(TAVERN, (), 0)
    raise_ = mine.actions[0]
    answer = mine.answers[0][1]
    assert isinstance(raise_, Wager) and isinstance(answer, Wager)
    wagers = (raise_, answer)
    reach = searcher.reach(TAVERN, wagers, 0)
    expected = solve(searcher.leaves, TAVERN, 0, wagers, reach,
                     follow=mine.answer_values[0, :, 1])
    assert searcher.solution(TAVERN, wagers, 0).strategy == pytest.approx(expected.strategy)
    theirs = searcher.solution(TAVERN, (), 1)  # the opening, as seat 1 models seat 0
    opening = theirs.actions[3]
    assert isinstance(opening, Wager)
    reach = searcher.reach(TAVERN, (opening,), 1)
    expected = solve(searcher.leaves, TAVERN, 1, (opening,), reach,
                     follow=theirs.values[:, 3])
    assert searcher.solution(TAVERN, (opening,), 1).strategy == pytest.approx(
        expected.strategy)



def test_only_turns_answering_an_escape_are_resolved_with_that_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RESOLVE_ESCAPES (RESOLVE off): after the opponent's escape (1 six over 2 fives) the
    searcher's solve is the re-solving gadget's, held to the values RESOLVE would hold it to, and
    differs from the plain solve; after a raise in the ``standard`` order (2 sixes) it is
    the plain solve."""
    monkeypatch.setattr(search, "RESOLVE", False)
    monkeypatch.setattr(search, "RESOLVE_ESCAPES", True)
    searcher = RoundSearcher(KEY, 4, 3)
    assert search._escaped((Wager(2, 5), Wager(1, 6)))
    assert not search._escaped((Wager(2, 5), Wager(2, 6)))
    assert not search._escaped((Wager(1, 6),))
    for last, held in ((Wager(1, 6), True), (Wager(2, 6), False)):
        wagers = (Wager(1, 1), Wager(2, 5), last)
        reach = searcher.reach(TAVERN, wagers, 1)
        plain = solve(searcher.leaves, TAVERN, 1, wagers, reach)
        got = searcher.solution(TAVERN, wagers, 1).strategy
        if held:
            follow = searcher._follow(TAVERN, wagers, 1)
            assert follow is not None
            expected = solve(searcher.leaves, TAVERN, 1, wagers, reach, follow=follow)
            assert got == pytest.approx(expected.strategy)
            assert np.abs(got - plain.strategy).max() > 0.01
        else:
            assert got == pytest.approx(plain.strategy)


def _played(wagers: tuple[Wager, ...]) -> LiarsDiceGame:
    """A round of the seed's rules with 5 and 3 dice (seed 3; the 3-dice seat bids first,
    so 3 v 5, a round ``strong`` searches: every 7-dice round has a table) after ``wagers``,
    made in turn."""
    game = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(3), starting_dice=[5, 3])
    for w in wagers:
        game.wager(w)
    return game


@pytest.fixture
def hand_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """The option, off as shipped, that plays the two-wager blueprint until the first
    escape (:data:`search.BLUEPRINT_UNTIL_ESCAPE`)."""
    monkeypatch.setattr(search, "BLUEPRINT_UNTIL_ESCAPE", True)


def test_the_blueprint_hands_over_only_with_the_option() -> None:
    searcher = RoundSearcher(KEY, 4, 3)
    assert searcher.rising_numbers((Wager(2, 3),)) is None
    game = _played(())
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert search_policy(view, [tuple(view.own_dice)], {}) is not None


@pytest.mark.usefixtures("hand_over")
def test_the_blueprint_plays_until_the_first_escape() -> None:
    """With the option, while the wagers rise in the standard order the two-wager blueprint plays
    (``search_policy`` answers ``None`` and ``strong`` plays the blueprint's chances); after
    an escape ("1 five" after "2 threes") the search does."""
    from tavern_dice.strategy.liars_dice.solver.play.blueprint import blueprint_policy

    bot = StrongLiarsDiceBot("s", seed=1)
    for wagers, searched in (((), False), ((Wager(2, 3),), False),
                             ((Wager(2, 3), Wager(3, 2)), False),
                             ((Wager(2, 3), Wager(1, 5)), True)):
        game = _played(wagers)
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        hands = [tuple(view.own_dice)]
        found = search_policy(view, hands, {})
        assert (found is not None) == searched, wagers
        expected = found if found is not None else blueprint_policy(view, hands)
        assert expected is not None
        actions, probs = bot.range_policy(view, hands)
        assert actions == expected[0]
        assert probs == pytest.approx(expected[1])


@pytest.mark.usefixtures("hand_over")
def test_ranges_over_the_rising_wagers_are_the_blueprints() -> None:
    """Before the first escape each wager's chance per hand is the two-wager blueprint's:
    exactly for the viewer's own, with the floor for the opponent's."""
    searcher = RoundSearcher(KEY, 4, 3)
    blueprint = searcher._blueprint
    assert blueprint is not None
    bids = searcher.leaves.game.bids
    first, second = Wager(2, 3), Wager(3, 2)
    n0, n1 = searcher.leaves.game.n_states
    actions, probs = blueprint.policy([], 0, range(n0))
    own = probs[:, actions.index(bids.index(first))]
    assert searcher.reach(TAVERN, (first,), 0)[0] == pytest.approx(own)
    floored = (1 - search.OPPONENT_FLOOR) * own + search.OPPONENT_FLOOR / len(actions)
    assert searcher.reach(TAVERN, (first,), 1)[0] == pytest.approx(floored)
    actions, probs = blueprint.policy([bids.index(first)], 1, range(n1))
    answer = probs[:, actions.index(bids.index(second))]
    mine = searcher.reach(TAVERN, (first, second), 1)
    assert mine[1] == pytest.approx(answer)
    assert mine[0] == pytest.approx(floored)
    # The escape itself is read from the search the blueprint handed over to.
    escape = Wager(1, 5)
    root, avg = searcher.policy(TAVERN, (first,), 0, made=escape)
    after = searcher.reach(TAVERN, (first, escape), 0)
    # The floor spreads over every legal action after the first wager, not the few solved.
    legal = 1 + len(legal_raises(TAVERN, 7, first, False, [(0, first)]))
    assert after[1] == pytest.approx(
        (1 - search.OPPONENT_FLOOR) * avg[:, root.index(escape)]
        + search.OPPONENT_FLOOR / legal)


@pytest.fixture
def two_continuations(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Leaf values with the answering player's blueprint and one biased continuation."""
    monkeypatch.setattr(leaf_module, "CONTINUATIONS", ("blueprint", "accuse"))
    leaf_values.cache_clear()
    yield
    leaf_values.cache_clear()


def _played_out(leaves: LeafValues, player: int, accuse_weight: float,
                memory: int = 0) -> np.ndarray:
    """The first bidder's expected score from every node of a blueprint's DAG (``memory``
    0: the last-wager one), computed node by node from the highest wager down, with
    ``player``'s accusation chances multiplied by ``accuse_weight`` (then renormalised)
    and an accusation scored from the hands' counts (L8: a true wager costs the accuser)."""
    tree, bids = leaves.memories[memory].tree, leaves.game.bids
    strategy = [np.array(s, dtype=np.float64) for s in leaves.memories[memory].strategy]
    n0, n1 = leaves.game.n_states
    eu = np.zeros((tree.n_nodes, n0, n1))
    for node in sorted(range(tree.n_nodes), key=lambda n: -int(tree.node_layer[n])):
        actor, slots = tree.slots_at(node)
        probs = strategy[actor][slots].copy()
        accuse = tree.slot_action[actor][slots] == tree.n_bids
        if actor == player:
            probs[accuse] *= accuse_weight
            probs /= probs.sum(axis=0, keepdims=True)
        total = np.zeros((n0, n1))
        for i, (action, child) in enumerate(zip(tree.slot_action[actor][slots],
                                                tree.slot_child[actor][slots], strict=True)):
            if action == tree.n_bids:
                wager = bids.wager(int(tree.node_layer[node]))
                have = (leaves.counts[0][:, wager.face - 1][:, None]
                        + leaves.counts[1][:, wager.face - 1][None, :])
                accuser = np.where(have >= wager.quantity, -1.0, 1.0)
                value = accuser if actor == 0 else -accuser
            else:
                value = eu[child]
            weight = probs[i][:, None] if actor == 0 else probs[i][None, :]
            total += weight * value
        eu[node] = total
    return eu


@pytest.mark.usefixtures("two_continuations")
def test_a_biased_continuation_is_the_blueprint_biased() -> None:
    leaves = build_leaf_values(KEY, 4, 3)
    # The blueprint's game is cached and shared: another test's sweep may have filled its
    # payoffs. Dropped here, so the last assertion sees only what these play-outs leave.
    vars(leaves.game).pop("payoff0", None)
    for player in (0, 1):
        expected = _played_out(leaves, player, leaf_module.BIAS)
        assert leaves.continued(player, "accuse") == pytest.approx(expected, abs=1e-4)
    assert _played_out(leaves, 1, 1.0) == pytest.approx(leaves.eu, abs=1e-4)
    values = leaves.factored(0)  # the actor's values, the other (player 1) continuing
    assert values.u.shape[0] == 2
    whole = values.slot[0]
    assert whole >= 0  # the opening node is kept whole
    assert values.dense[1, whole] == pytest.approx(
        leaves.continued(1, "accuse")[0], abs=1e-5)
    # Each play-out sweeps a game of its own: the blueprint's cached game gains no payoffs.
    assert "payoff0" not in vars(leaves.game)


@pytest.mark.usefixtures("two_continuations")
def test_a_continuation_no_different_from_the_blueprint_changes_no_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Biased by 1, the second continuation is the blueprint: the leaf choice is then
    indifferent, and the solve is the one-continuation solve."""
    monkeypatch.setattr(leaf_module, "BIAS", 1.0)
    leaves = build_leaf_values(KEY, 4, 3)
    reach = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
    wagers = (Wager(2, 3), Wager(1, 5))
    # The same iterations: the work-bound would give the two-continuation solve fewer.
    with_choice = solve(leaves, TAVERN, 0, wagers, reach, iterations=30)
    without = solve(leaves, TAVERN, 0, wagers, reach, choose=False, iterations=30)
    assert with_choice.strategy == pytest.approx(without.strategy, abs=1e-5)
    assert with_choice.values == pytest.approx(without.values, abs=1e-5)


def test_the_answering_players_choice_of_continuation_costs_the_actor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given its best response to the blueprint as a second way to play on past the
    horizon, the answering player can only gain: solved far, the actor's value of the
    subgame falls (at the opening of 4 v 3 from 0.036 to 0.028)."""
    monkeypatch.setattr(leaf_module, "CONTINUATIONS", ("blueprint", "best"))
    leaf_values.cache_clear()
    leaves = build_leaf_values(KEY, 4, 3)
    reach = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
    w_a = leaves.game.hands[0].prob

    def actor_value(solution: search.Solution) -> float:
        return float(w_a @ (solution.strategy * solution.values).sum(axis=1))

    with_choice = actor_value(solve(leaves, TAVERN, 0, (), reach, iterations=300))
    without = actor_value(solve(leaves, TAVERN, 0, (), reach, choose=False, iterations=300))
    leaf_values.cache_clear()
    assert with_choice < without - 0.005


def test_leaves_remembering_two_wagers_read_the_two_wager_blueprint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With RECALL 2 a leaf whose two wagers rise reads the two-wager blueprint's value
    there (checked against a node-by-node play-out), and one after an escape the
    last-wager blueprint's."""
    monkeypatch.setattr(leaf_module, "RECALL", 2)
    leaf_values.cache_clear()
    leaves = build_leaf_values(KEY, 4, 3)
    assert leaves.memories[1].eu == pytest.approx(_played_out(leaves, 1, 1.0, 1), abs=1e-4)
    values = leaves.factored(1)
    offset = leaves.tree.n_nodes
    rising = leaves.leaf(Wager(2, 3), Wager(2, 5), 1)  # player 1 said 2 threes, then 2 fives
    escape = leaves.leaf(Wager(2, 3), Wager(1, 5), 1)  # 1 five: an either-only raise
    assert rising >= offset
    assert escape == leaves.node(Wager(1, 5), 1)
    node = leaves.memories[1].tree.window_node(
        [leaves.game.bids.index(Wager(2, 3)), leaves.game.bids.index(Wager(2, 5))], 1)
    expected = -leaves.memories[1].eu[node].T  # player 1's score, rows its hands
    slot = values.slot[rising]
    read = values.dense[0, slot] if slot >= 0 else values.u[0, rising] @ values.vt[0, rising]
    assert np.linalg.norm(read - expected) <= 2e-3 * np.linalg.norm(expected)
    leaf_values.cache_clear()


def test_escape_aware_leaves_read_the_escape_blueprint(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ESCAPES the leaves are the escape DAG's values with every escape left; its
    escapes are the engine's either-only raises; with a budget of 0 the same CFR gives the
    last-wager DAG's values exactly."""
    monkeypatch.setattr(leaf_module, "ESCAPES", 1)
    monkeypatch.setattr(leaf_module, "ESCAPE_ITERATIONS", 3)
    leaf_values.cache_clear()
    leaves = build_leaf_values(KEY, 4, 3)
    tree = leaves.tree
    assert tree.escapes == 1
    bids = leaves.game.bids
    escapes = leaf_module.escape_targets(leaves.game)
    assert [str(bids.wager(j)) for j in escapes[bids.index(Wager(3, 4))]] == [
        "1 five", "1 six", "2 fives", "2 sixes"]
    assert leaves.node(Wager(2, 5), 0) == tree.escape_node(bids.index(Wager(2, 5)), 0, 1)
    assert leaves.eu.shape == (tree.n_nodes, *leaves.game.n_states)
    leaf_values.cache_clear()
    none = leaf_module.escape_memory(leaves.game, 0, iterations=3)
    plain = PublicTree.build(bids.n_bids, recall=1)
    solver = DagCFRSolver(leaves.game, plain)
    solver.iterate(3)
    expected = leaf_module._play_out(leaves.game, plain, solver.average(), solver.average())
    assert none.eu == pytest.approx(expected, abs=1e-6)
