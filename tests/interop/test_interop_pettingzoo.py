"""The tavern games as PettingZoo environments (issue 11, item 2).

PettingZoo's own ``api_test`` passes on the Liar's Dice AEC environment and
``parallel_api_test`` on the Dice Blackjack parallel one; random agents that follow the
action masks play whole games for 2 to 6 players.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.errors import IllegalActionError, RulesetError
from tavern_dice.interop.pettingzoo import blackjack, liars_dice
from tavern_dice.interop.pettingzoo import env as liars_env
from tavern_dice.liars_dice import LiarsDiceRules, RaiseRule, Wager


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # PettingZoo's tests warn that dict observations (observation + action mask, the
    # convention of its own classic games) are not plain arrays.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("players", [2, 3, 6])
def test_pettingzoo_api_test_passes_on_liars_dice(players: int) -> None:
    api_test(liars_env(players=players), num_cycles=200)


def test_pettingzoo_api_test_passes_on_other_rulesets() -> None:
    rules = LiarsDiceRules(dice_per_player=2, raise_rule=RaiseRule.FACE_MAJOR, wild_face=1,
                           spot_on=False)
    api_test(liars_env(players=4, rules=rules), num_cycles=200)
    api_test(liars_env(players=3, single_round=True), num_cycles=50)


def play_masked(env: Any, seed: int) -> tuple[dict[str, float], int]:
    """A random agent per seat, following the action masks, to the end of the episode."""
    env.reset(seed=seed)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.any()
        env.step(env.action_space(agent).sample(mask))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_agents_with_masks_play_a_whole_game(players: int) -> None:
    env = liars_env(players=players, rules=LiarsDiceRules(dice_per_player=3))
    totals, steps = play_masked(env, seed=players)
    assert sorted(totals.values()) == pytest.approx(
        [-1 / (players - 1)] * (players - 1) + [1.0]
    )
    assert env.agents == [] and steps > players
    winner = max(totals, key=lambda a: totals[a])
    assert env.unwrapped.table.engine.winner == env.possible_agents.index(winner)


def test_the_same_seed_plays_the_same_game() -> None:
    runs = []
    for _ in range(2):
        env = liars_env(players=3, rules=LiarsDiceRules(dice_per_player=2))
        for space in env.unwrapped.action_spaces.values():
            space.seed(5)
        play_masked(env, seed=11)
        runs.append(env.unwrapped.table.engine.to_log())
    assert runs[0] == runs[1]


def test_the_accusation_window_and_hidden_dice_in_the_environment() -> None:
    """L7 and L11: the others may call after a wager; nobody sees another's dice."""
    env = liars_dice.raw_env(players=3, rules=LiarsDiceRules(dice_per_player=2),
                             single_round=True)
    env.reset(seed=3)
    table = env.table
    assert env.agent_selection == "player_0"
    before = {a: env.observe(a)["observation"].copy() for a in env.agents}
    env.step(table.actions.encode(Wager(1, 2)))
    assert env.agent_selection == "player_2"  # out of turn, before player_1's turn
    mask = env.observe("player_2")["action_mask"]
    assert [table.label(a) for a in np.flatnonzero(mask)] == ["accuse", "pass"]
    assert not env.observe("player_1")["action_mask"].any()
    with pytest.raises(IllegalActionError, match="legal: \\['accuse', 'pass'\\]"):
        env.step(table.actions.encode(Wager(2, 2)))
    # the observation holds the player's own dice and not the others'
    hands = table.engine.hands
    enc = env.encoder
    for seat, agent in enumerate(env.possible_agents):
        mine = enc.views(before[agent])["my_dice"]
        assert mine.sum() == 2 and all(mine[f - 1] >= 1 for f in hands[seat])
        assert "dice" not in enc.views(before[agent])
    env.step(table.actions.pass_)
    assert env.agent_selection == "player_1"
    env.step(table.actions.accuse)
    assert all(env.terminations.values())
    assert sum(env.final_rewards.values()) == pytest.approx(0.0)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "rounds": 5},
        {"players": 4, "rounds": 6, "bet": None, "proficiency": [None, 2, 4, 6]},
        {"players": 1, "rounds": 3, "rules": BLACKJACK_TAVERN.replace(
            house_exact_beats_player_exact=True)},
    ],
)
def test_pettingzoo_parallel_api_test_passes_on_blackjack(options: dict[str, Any]) -> None:
    parallel_api_test(blackjack.parallel_env(**options), num_cycles=300)


def test_pettingzoo_api_test_passes_on_blackjack_as_aec() -> None:
    api_test(blackjack.env(players=2, rounds=4, bet=None), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_blackjack_players_with_masks_play_a_session(players: int) -> None:
    env = blackjack.parallel_env(players=players, rounds=20, bet=None,
                                 proficiency=[2 * (s % 4) or None for s in range(players)])
    observations, _ = env.reset(seed=players)
    earned = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        actions = {a: env.action_space(a).sample(observations[a]["action_mask"])
                   for a in env.agents}
        observations, rewards, *_ = env.step(actions)
        for agent, reward in rewards.items():
            earned[agent] += reward
        steps += 1
    game = env.game
    assert (game.round == 20 or game.is_over) and steps >= game.round  # ends, or all broke
    for seat, agent in enumerate(env.possible_agents):  # rewards are the gold won, in gp
        assert earned[agent] == pytest.approx((game.balances[seat] - 1000) / 100)
    assert sum(game.balances) + game.house_net == players * 1000  # B1


def test_blackjack_turns_run_side_by_side_and_the_table_settles_them() -> None:
    env = blackjack.parallel_env(players=3, rounds=1, proficiency=6)
    observations, _ = env.reset(seed=2)
    while env.game.target == 1:  # B4 collects at once: shown for one step, then a new round
        observations, *_ = env.step(dict.fromkeys(env.agents, env.actions.wait))
    acts = env.actions
    for agent in env.agents:
        vector = observations[agent]["observation"]
        assert vector[1] == 1.0 and vector[3] == env.game.target  # all decide at once
        assert observations[agent]["action_mask"][acts.roll] == 1
    # everyone stands on their first d12 with the largest bonus they may add
    actions = {}
    for agent in env.agents:
        mask = observations[agent]["action_mask"]
        actions[agent] = max(a for a in np.flatnonzero(mask) if a >= acts.stand(0))
    _, rewards, terminations, *_ = env.step(actions)
    assert all(terminations.values()) and env.agents == []
    settled = {s.seat: s for s in env.game.settlements()}
    assert sorted(settled) == [0, 1, 2]
    for seat, agent in enumerate(env.possible_agents):
        assert rewards[agent] == settled[seat].delta / 100


def test_blackjack_illegal_actions_and_settings_are_refused() -> None:
    env = blackjack.parallel_env(players=2, bet=None)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="cannot 'roll' now; legal: \\['bet 1 gp'"):
        env.step(dict.fromkeys(env.agents, env.actions.roll))
    with pytest.raises(IllegalActionError, match="must act"):
        env.step({})
    with pytest.raises(RulesetError, match="rounds"):
        blackjack.parallel_env(rounds=0)
    with pytest.raises(RulesetError, match="proficiency bonus"):
        blackjack.parallel_env(players=1, proficiency=9)
