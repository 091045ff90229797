"""The tavern games registered with OpenSpiel (issue 11, item 1).

OpenSpiel's own checks and algorithms run on ``tavern_liars_dice`` and
``tavern_liars_dice_round``: ``random_sim_test`` (clone, serialise, legal-action masks,
observation and information-state tensors, returns) for 2, 3 and 5 players under several
rulesets; OpenSpiel's ``exploitability`` of the project's solved round policy equals the
project's own NashConv / 2; CFR and Monte Carlo CFR run on the registered games.
"""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    expected_game_score,
    exploitability,
    external_sampling_mccfr,
    outcome_sampling_mccfr,
)

from tavern_dice.errors import RulesetError  # noqa: E402
from tavern_dice.interop import openspiel as tavern_openspiel  # noqa: E402
from tavern_dice.liars_dice.rules import TAVERN, RaiseRule  # noqa: E402
from tavern_dice.strategy.liars_dice.solver import RoundSpec, solve_round  # noqa: E402

RULESETS: list[tuple[str, dict[str, Any]]] = [
    # the seed, whole match, two players with the seed's five dice each
    ("tavern_liars_dice", {"players": 2}),
    # three players, standard raise, ones wild
    ("tavern_liars_dice", {"players": 3, "dice_per_player": 3, "raise_rule": "standard",
                           "wild_face": 1}),
    # five players, face-major, no spot-on, no sum endgame
    ("tavern_liars_dice", {"players": 5, "dice_per_player": 2, "raise_rule": "face-major",
                           "spot_on": False, "sum_endgame": False}),
    # five players under the seed's rules, a handicap table
    ("tavern_liars_dice", {"players": 5, "dice_per_player": 2, "starting_dice": "2/1/2/1/1"}),
    # OpenSpiel's own liars_dice rules, with repeated wagers allowed (finite: standard order)
    ("tavern_liars_dice", {"players": 2, "dice_per_player": 1, "raise_rule": "standard",
                           "wild_face": 6, "spot_on": False, "sum_endgame": False,
                           "repeat_wagers": True}),
    ("tavern_liars_dice_round", {"players": 2, "dice_per_player": 2}),
    ("tavern_liars_dice_round", {"players": 3, "dice_per_player": 2, "sides": 4}),
    ("tavern_liars_dice_round", {"players": 5, "dice_per_player": 1, "raise_rule": "standard"}),
]


@pytest.mark.parametrize(("name", "params"), RULESETS)
def test_openspiel_random_sim_test_passes(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    assert game.num_players() == params["players"]
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_game_string_names_every_rule_option() -> None:
    game = pyspiel.load_game("tavern_liars_dice")
    assert str(game) == (
        "tavern_liars_dice(dice_per_player=5,players=2,raise_rule=either,repeat_wagers=False,"
        "sides=6,spot_on=True,starting_dice=,sum_endgame=True,wild_face=0)"
    )
    assert game.get_type().provides_information_state_tensor
    assert game.max_chance_outcomes() == 6


def test_an_endless_ruleset_is_refused_with_the_reason() -> None:
    with pytest.raises(RulesetError, match="round for ever"):
        pyspiel.load_game("tavern_liars_dice", {"repeat_wagers": True})
    with pytest.raises(RulesetError, match="raise_rule must be one of"):
        pyspiel.load_game("tavern_liars_dice", {"raise_rule": "upwards"})


def test_the_roll_off_is_one_chance_node_of_equal_starters() -> None:
    game = pyspiel.load_game("tavern_liars_dice", {"players": 4, "dice_per_player": 1})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(2)
    assert state.table.engine.starter == 2
    for face in range(4):  # then one chance node per die, seat by seat
        assert state.chance_outcomes() == [(f, 1 / 6) for f in range(6)]
        state.apply_action(face)
    assert state.current_player() == 2


def test_the_accusation_window_is_explicit_in_the_game() -> None:
    """L7: after a wager the others, to the maker's left, accuse or pass; then the next."""
    game = pyspiel.load_game("tavern_liars_dice_round", {"players": 4, "dice_per_player": 1})
    state = game.new_initial_state()
    for _ in range(4):
        state.apply_action(0)
    wager = state.legal_actions()[0]
    assert state.action_to_string(wager) == "1x1"
    state.apply_action(wager)  # seat 0 wagers: seats 2 and 3 may call, then seat 1's turn
    order = []
    while True:
        order.append(state.current_player())
        names = [state.action_to_string(a) for a in state.legal_actions()]
        if names == ["accuse", "pass"]:
            state.apply_action(state.legal_actions()[1])
        else:
            assert "accuse" in names and "1x2" in names
            break
    assert order == [2, 3, 1]
    assert "P2 pass, P3 pass" in state.information_state_string(1)


def test_information_states_hide_the_other_players_dice() -> None:
    game = pyspiel.load_game("tavern_liars_dice_round", {"dice_per_player": 2})
    a, b = game.new_initial_state(), game.new_initial_state()
    for state, faces in ((a, (0, 1, 2, 3)), (b, (0, 1, 4, 5))):
        for face in faces:
            state.apply_action(face)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def _solved(rules_changes: dict[str, Any], dice: tuple[int, int],
            raise_rule: RaiseRule | None = None) -> tuple[Any, Any]:
    rules = TAVERN.replace(**rules_changes)
    result = solve_round(RoundSpec.from_rules(rules, dice, raise_rule=raise_rule),
                         target_exploitability=1e-4)
    params = {"dice_per_player": rules.dice_per_player, "sides": rules.sides,
              "starting_dice": "/".join(map(str, dice))}
    if raise_rule is not None:
        params["raise_rule"] = raise_rule.value
    return pyspiel.load_game("tavern_liars_dice_round", params), result


def test_openspiel_exploitability_of_the_solved_tavern_round_matches_ours() -> None:
    """The seed's round with one d4 each: the sum endgame (L10), spot-on, no wilds."""
    game, result = _solved({"dice_per_player": 1, "sides": 4}, (1, 1))
    assert tavern_openspiel.round_spec(game).sum_wagers
    tabular = tavern_openspiel.round_policy_to_tabular(game, result.policy)
    theirs = exploitability.exploitability(game, tabular)
    assert theirs == pytest.approx(result.exploitability, abs=1e-6)
    assert 0 < result.exploitability <= 1e-4


def test_openspiel_exploitability_matches_ours_on_a_two_to_one_round() -> None:
    """Two dice against one, standard raise (coins, to keep the tree small)."""
    game, result = _solved({"dice_per_player": 2, "sides": 2}, (2, 1), RaiseRule.STANDARD)
    tabular = tavern_openspiel.round_policy_to_tabular(game, result.policy)
    theirs = pyspiel.exploitability(game, pyspiel.TabularPolicy(tabular.to_dict()))
    assert theirs == pytest.approx(result.exploitability, abs=1e-6)


def test_a_policy_for_another_round_is_refused() -> None:
    game, _ = _solved({"dice_per_player": 1, "sides": 4}, (1, 1))
    _, other = _solved({"dice_per_player": 1, "sides": 3}, (1, 1))
    with pytest.raises(RulesetError, match="the policy is for round"):
        tavern_openspiel.round_policy_to_tabular(game, other.policy)
    match = pyspiel.load_game("tavern_liars_dice", {"dice_per_player": 1})
    with pytest.raises(RulesetError, match="two-player rounds"):
        tavern_openspiel.round_spec(match)


def test_openspiel_cfr_solves_a_one_die_round() -> None:
    """OpenSpiel's CFR+ on the seed's round with one d3 each reaches our value."""
    game = pyspiel.load_game("tavern_liars_dice_round", {"dice_per_player": 1, "sides": 3})
    uniform = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    reached = exploitability.exploitability(game, average)
    ours = solve_round(RoundSpec.from_rules(TAVERN.replace(dice_per_player=1, sides=3), (1, 1)),
                       target_exploitability=1e-6)
    value = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    assert reached < min(uniform / 20, 0.02)
    assert value[0] == pytest.approx(ours.value, abs=2 * reached)


def test_openspiel_monte_carlo_cfr_runs_on_the_registered_games() -> None:
    round_game = pyspiel.load_game("tavern_liars_dice_round", {"dice_per_player": 1, "sides": 3})
    uniform = exploitability.exploitability(round_game, policy_lib.UniformRandomPolicy(round_game))
    external = external_sampling_mccfr.ExternalSamplingSolver(round_game)
    for _ in range(300):
        external.iteration()
    assert exploitability.exploitability(round_game, external.average_policy()) < uniform / 2
    match = pyspiel.load_game("tavern_liars_dice", {"players": 3, "dice_per_player": 2})
    outcome = outcome_sampling_mccfr.OutcomeSamplingSolver(match)
    for _ in range(30):
        outcome.iteration()
    state = match.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = outcome.average_policy().action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert set(probs) == set(state.legal_actions())
