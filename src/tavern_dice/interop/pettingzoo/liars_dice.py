"""Liar's Dice (tavern rules) as a PettingZoo AEC environment.

Agents ``player_0`` ... take turns one at a time, as in
:mod:`~tavern_dice.interop.liars_table`: after a wager, every player other than the
wager-maker and the next player, in turn to the wager-maker's left, is asked to ``accuse``
or ``pass`` - the seed's out-of-turn accusation (L7) as an explicit window - then the next
player raises or accuses. The environment rolls the dice itself (seeded by ``reset(seed=...)``).

* **Actions**: ``Discrete(n)``, numbered as in :mod:`~tavern_dice.interop.liars_actions`:
  face wagers, sum wagers (L10), ``accuse``, ``pass``. An illegal action raises
  :class:`~tavern_dice.errors.IllegalActionError` naming the legal ones and changes
  nothing; use the mask.
* **Observations**: a dict: ``"observation"`` - the player's view as a ``Box`` vector
  (:class:`~tavern_dice.interop.liars_encoding.LiarsEncoder`, ``perfect_recall=False``):
  their own dice, never anyone else's before a reveal; ``"action_mask"`` - ``1`` for each
  legal action of the agent to act (all ``0`` for the others).
* **Rewards**: the winner +1 at the end; a player who loses their last die gets
  ``-1 / (players - 1)`` then and leaves the game (PettingZoo removes terminated agents).
  With ``single_round=True`` the episode is one round (seat 0 starts) and everyone gets
  :meth:`~tavern_dice.interop.liars_table.LiarsDiceTable.returns` at the reveal.

>>> from tavern_dice.interop.pettingzoo.liars_dice import env
>>> table = env(players=3)
>>> table.reset(seed=7)
>>> for agent in table.agent_iter():
...     observation, reward, terminated, truncated, info = table.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = table.action_space(agent).sample(observation["action_mask"])
...     table.step(action)
>>> sorted(table.unwrapped.final_rewards.values())
[-0.5, -0.5, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from tavern_dice.errors import InvalidActionError
from tavern_dice.interop.liars_encoding import LiarsEncoder
from tavern_dice.interop.liars_table import LiarsDiceTable
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules

Observation = dict[str, npt.NDArray[Any]]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""


class LiarsDiceEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """The AEC environment (build it with :func:`raw_env` or, wrapped, :func:`env`).

    Args:
        players: seats, 2-10.
        rules: the ruleset (default: the seed's).
        starting_dice: each seat's dice at the start (default: the ruleset's).
        single_round: one round per episode instead of the whole game.
        seed: seeds the dice of the first ``reset()`` without a seed.
        render_mode: ``None``, ``"ansi"`` (``render()`` returns text) or ``"human"``
            (prints it).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tavern_liars_dice_v0", "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        rules: LiarsDiceRules = TAVERN,
        *,
        starting_dice: Sequence[int] | None = None,
        single_round: bool = False,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.starting_dice = None if starting_dice is None else tuple(starting_dice)
        self.single_round = single_round
        self.render_mode = render_mode
        self.table = self._new_table(players)
        self.encoder = LiarsEncoder(self.table, perfect_recall=False)
        self._spectator = LiarsEncoder(self.table, perfect_recall=False, private="none")
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        num_actions = self.table.actions.num_actions
        high = float(max(self.table.engine.starting_dice))
        space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(
                0.0, high, (self.encoder.size,), np.float32
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
        })
        # One space object per agent, the same each time (PettingZoo's API test asks).
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(dict(space.spaces)) for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(num_actions) for a in self.possible_agents
        }
        self._rng = np.random.default_rng(seed)
        self.final_rewards: dict[str, float] = {}
        """Each agent's total reward over the episode so far (its return at the end)."""

    def _new_table(self, players: int) -> LiarsDiceTable:
        return LiarsDiceTable(
            players, self.rules, starting_dice=self.starting_dice, single_round=self.single_round
        )

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's observation space (a ``Dict`` of observation and action mask)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_actions)``, the same for every agent."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (or round); ``seed`` seeds its dice."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.table = self._new_table(len(self.possible_agents))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.final_rewards = dict.fromkeys(self.agents, 0.0)
        self._roll_dice()
        self._select()

    def step(self, action: int | None) -> None:
        """The selected agent acts; a terminated agent steps with ``None`` to leave.

        Raises:
            IllegalActionError: an action the agent may not take now (see the mask).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidActionError(
                f"{agent} must act: give an action number (see the action mask)"
            )
        self.table.apply(action)  # first: an illegal action changes nothing
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._roll_dice()
        self._settle()
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            print(self.render())

    def _roll_dice(self) -> None:
        while self.table.chance_kind() is not None:
            outcomes = self.table.chance_outcomes()
            self.table.apply_chance(outcomes[int(self._rng.integers(len(outcomes)))][0])

    def _settle(self) -> None:
        """Give final rewards to agents who are out, or to everyone at the end."""
        table = self.table
        over = table.is_over
        returns = table.returns()
        for agent in self.agents:
            seat = self._seat[agent]
            if self.terminations[agent]:
                continue
            out = table.engine.dice_counts[seat] == 0
            if not (over or out):
                continue
            reward = returns[seat] if over else -1.0 / (table.num_players - 1)
            self.rewards[agent] = reward
            self.final_rewards[agent] += reward
            self.terminations[agent] = True

    def _select(self) -> None:
        actor = self.table.actor()
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]
        elif self.agents:
            self.agent_selection = self.agents[0]
        self._deads_step_first()

    # ------------------------------------------------------------------ views

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """``1`` for each action ``agent`` may take now."""
        mask = np.zeros(self.table.actions.num_actions, np.int8)
        if self.table.actor() == self._seat[agent]:
            mask[self.table.legal_actions()] = 1
        return mask

    def observe(self, agent: str) -> Observation:
        """``agent``'s view: its observation vector and action mask."""
        return {
            "observation": self.encoder.tensor(self.table, self._seat[agent]),
            "action_mask": self.action_mask(agent),
        }

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden dice)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return self._spectator.string(self.table, 0).removeprefix("P0 | ")

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> LiarsDiceEnv:
    """The environment without PettingZoo's wrappers (see :class:`LiarsDiceEnv`)."""
    return LiarsDiceEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual checks: actions within the space, and
    ``reset()`` before ``step()`` (the order-enforcing wrapper)."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)
