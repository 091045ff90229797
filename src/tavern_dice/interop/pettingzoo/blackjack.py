"""Dice Blackjack's player decisions as a PettingZoo parallel environment.

Agents ``player_0`` ... sit against the house (the environment, which rolls every die,
seeded by ``reset(seed=...)``). Each step, every agent still in the session acts at
once:

* **betting** (only when ``bet=None``): bet one of ``bet_choices`` (up to the balance and
  the table limits, B2) or sit the round out. With a fixed ``bet`` (the default, 1 gp)
  every agent bets it (or all its gold, if less) and this step is skipped.
* **playing**: the target and the house roll are known (B3-B5); each agent who bet and is
  still playing rolls another d12 or stands, adding a bonus of 0 up to its cap (B6, B7);
  the others wait.

A player's turn does not depend on anyone else's (B6: each plays against the house), so
the agents' turns run side by side: each is played on a one-seat copy of the table
with the round's target and house dice, then replayed into the table in seat order,
whose engine settles every bet (B8). Rules and settlement are the engine's.

* **Actions**: ``Discrete(n)``: ``0`` wait, ``1`` roll, ``2 + b`` stand adding bonus ``b``,
  then (when betting) ``bet_choices`` and sitting out; see :class:`BlackjackActions`.
  An illegal action raises :class:`~tavern_dice.errors.IllegalActionError`; use the mask.
* **Observations**: ``{"observation": vector, "action_mask": mask}``; the vector is
  ``[betting, playing, waiting, target, house roll, house bust, total, bonus cap,
  balance (gp), bet (gp)]``, everything the seat sees (nothing in this game is hidden).
* **Rewards**: each agent's gain in gold pieces when a round is settled.
* **End**: after ``rounds`` rounds everyone is terminated; an agent without the table
  minimum is terminated earlier. A round settled without any decision (a target of 1
  collects every bet, B4, or everyone sat out) is shown for one step in which everyone
  waits.

>>> from tavern_dice.interop.pettingzoo.blackjack import parallel_env
>>> table = parallel_env(players=2, proficiency=[None, 4], rounds=3)
>>> observations, infos = table.reset(seed=1)
>>> while table.agents:
...     actions = {a: table.action_space(a).sample(observations[a]["action_mask"])
...                for a in table.agents}
...     observations, rewards, terminations, truncations, infos = table.step(actions)
>>> table.game.round, sum(table.game.balances) + table.game.house_net == 2 * 1000
(3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import ParallelEnv
from pettingzoo.utils import parallel_to_aec

from tavern_dice.blackjack.actions import Bet, BlackjackAction, Roll, SitOut, Stand
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.blackjack.state import BlackjackGame, Phase
from tavern_dice.dice import ScriptedDice
from tavern_dice.errors import IllegalActionError, RulesetError
from tavern_dice.money import format_cp, gp

Observation = dict[str, npt.NDArray[Any]]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""


@dataclass(frozen=True, slots=True)
class BlackjackActions:
    """The action numbering: wait, roll, stand with each bonus, then each bet and sitting
    out (only when the agents choose their bets).

    >>> acts = BlackjackActions(max_bonus=3, bet_choices=(100, 500))
    >>> acts.wait, acts.roll, acts.stand(2), acts.bet(1), acts.sit_out, acts.num_actions
    (0, 1, 4, 7, 8, 9)
    >>> [acts.label(a) for a in range(acts.num_actions)][5:]
    ['stand +3', 'bet 1 gp', 'bet 5 gp', 'sit out']
    >>> [acts.decode(a) for a in (acts.wait, acts.roll, acts.stand(2), acts.bet(1))]
    [None, Roll(), Stand(bonus=2), Bet(amount=500)]
    """

    max_bonus: int
    bet_choices: tuple[int, ...] = ()

    wait = 0
    roll = 1

    def stand(self, bonus: int) -> int:
        """Stand, adding ``bonus`` (0..max_bonus)."""
        return 2 + bonus

    def bet(self, index: int) -> int:
        """Bet ``bet_choices[index]``."""
        return 3 + self.max_bonus + index

    @property
    def sit_out(self) -> int:
        """Sit the round out (only with bet choices)."""
        return 3 + self.max_bonus + len(self.bet_choices)

    @property
    def num_actions(self) -> int:
        """How many action numbers there are."""
        return self.sit_out + 1 if self.bet_choices else 3 + self.max_bonus

    def decode(self, action: int) -> BlackjackAction | None:
        """The engine action that number ``action`` stands for; ``None`` for waiting."""
        if action == self.wait:
            return None
        if action == self.roll:
            return Roll()
        if action < self.bet(0):
            return Stand(action - self.stand(0))
        if self.bet_choices and action == self.sit_out:
            return SitOut()
        return Bet(self.bet_choices[action - self.bet(0)])

    def label(self, action: int) -> str:
        """A short name: ``'wait'``, ``'roll'``, ``'stand +2'``, ``'bet 5 gp'``, ``'sit out'``."""
        if action == self.wait:
            return "wait"
        if action == self.roll:
            return "roll"
        if action < self.bet(0):
            return f"stand +{action - 2}"
        if self.bet_choices and action == self.sit_out:
            return "sit out"
        return f"bet {format_cp(self.bet_choices[action - self.bet(0)])}"


class BlackjackParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo has no types
    """The parallel environment (build it with :func:`parallel_env`).

    Args:
        players: seats, 1-10.
        rules: the ruleset (default: the seed's).
        proficiency: each seat's proficiency bonus (2-6) or ``None``; one value for all.
        gold: each seat's starting gold in cp (default 10 gp).
        bet: the bet every agent makes each round, in cp (default 1 gp; capped at the
            agent's gold and the table limits), or ``None`` to let agents choose.
        bet_choices: the bets agents choose from when ``bet`` is ``None`` (cp).
        rounds: rounds in a session (an episode).
        render_mode: ``None``, ``"ansi"`` or ``"human"``.

    Raises:
        RulesetError: settings the table refuses (the engine checks seats, gold, bonuses).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tavern_blackjack_v0", "render_modes": ["ansi", "human"],
    }

    def __init__(
        self,
        players: int = 3,
        rules: BlackjackRules = TAVERN,
        *,
        proficiency: Sequence[int | None] | int | None = None,
        gold: int = gp(10),
        bet: int | None = gp(1),
        bet_choices: Sequence[int] = (gp(1), gp(2), gp(5)),
        rounds: int = 1,
        render_mode: str | None = None,
    ) -> None:
        if type(rounds) is not int or rounds < 1:
            raise RulesetError(f"rounds must be a whole number of at least 1, not {rounds!r}")
        if bet is None and (not bet_choices or any(type(b) is not int or b < 1
                                                   for b in bet_choices)):
            raise RulesetError(
                f"bet_choices must be bets of at least 1 cp, not {list(bet_choices)}"
            )
        if bet is not None and (type(bet) is not int or bet < 1):
            raise RulesetError(f"bet is a whole number of cp, at least 1, or None; not {bet!r}")
        self.rules = rules
        self.profs = (
            list(proficiency) if isinstance(proficiency, Sequence)
            else [proficiency] * players
        )
        self.gold = gold
        self.fixed_bet = bet
        self.rounds = rounds
        self.render_mode = render_mode
        self.game = self._new_game(players)  # checks the settings
        max_bonus = rules.bonus_cap(rules.max_proficiency_bonus)
        self.actions = BlackjackActions(max_bonus, () if bet is not None else tuple(bet_choices))
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        big = float(np.finfo(np.float32).max)  # gold has no ceiling, but must be finite
        top = float(rules.target_sides + rules.player_sides)
        high = np.array(
            [1, 1, 1, rules.target_sides, rules.house_sides, 1, top, max_bonus, big, big],
            np.float32,
        )
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(np.zeros_like(high), high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(
                    0, 1, (self.actions.num_actions,), np.int8
                ),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.actions.num_actions) for a in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self.agents: list[str] = []

    def _new_game(self, players: int) -> BlackjackGame:
        return BlackjackGame(
            players, self.rules, ScriptedDice(()), balances=self.gold, proficiency=self.profs,
            auto_roll=False,
        )

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The agent's observation space (a ``Dict`` of observation and action mask)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(num_actions)``, the same for every agent."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Start a session; ``seed`` seeds its dice."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = self._new_game(len(self.possible_agents))
        self.agents = list(self.possible_agents)
        self._shadows: dict[int, BlackjackGame] = {}
        self._d12s: dict[int, list[int]] = {}
        self._moves: dict[int, list[BlackjackAction]] = {}
        self._paused = False
        self._pending = dict.fromkeys(self.agents, 0.0)
        self._start_round()
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[
        dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Every live agent acts at once.

        Raises:
            IllegalActionError: an agent's action is not legal now (see its mask), or a
                live agent has no action.
        """
        live = list(self.agents)
        chosen: dict[str, int] = {}
        for agent in live:
            if agent not in actions:
                raise IllegalActionError(f"{agent} is in the session and must act (or wait)")
            action = int(actions[agent])
            mask = self._mask(agent)
            if not 0 <= action < len(mask) or not mask[action]:
                legal = [self.actions.label(int(a)) for a in np.flatnonzero(mask)]
                name = self.actions.label(action) if 0 <= action < len(mask) else action
                raise IllegalActionError(f"{agent} cannot {name!r} now; legal: {legal}")
            chosen[agent] = action
        terminations = dict.fromkeys(live, False)
        if self._paused:
            self._paused = False
            self._next_round(terminations)
        elif self.game.phase is Phase.BETTING:
            self._place_bets(chosen)
            self._after_bets()
        else:
            self._play(chosen, terminations)
        # Rewards: the gold won in rounds settled since the last step (this one, or one
        # a target of 1 settled at once).
        rewards = {a: float(self._pending[a]) for a in live}
        self._pending = dict.fromkeys(self.possible_agents, 0.0)
        self.agents = [a for a in live if not terminations[a]]
        observations = {a: self._observe(a) for a in live}
        if self.render_mode == "human":
            print(self.render())
        return (
            observations, rewards, terminations,
            dict.fromkeys(live, False), {a: {} for a in live},
        )

    # ------------------------------------------------------------------ rounds

    def _start_round(self) -> None:
        """Open a round; place the fixed bets and roll the house's dice if there are any."""
        game = self.game
        if game.phase is Phase.ROUND_OVER:  # a new game has opened its first round itself
            game.new_round()
        if self.fixed_bet is None:
            return
        for seat in game.eligible:
            low, high = game.bet_limits(seat)
            game.apply(seat, Bet(max(low, min(self.fixed_bet, high))))
        self._after_bets()

    def _place_bets(self, chosen: dict[str, int]) -> None:
        for agent, action in chosen.items():
            move = self.actions.decode(action)
            if move is not None:
                self.game.apply(self._seat[agent], move)

    def _after_bets(self) -> None:
        """Roll the target and the house dice, and deal each bettor their table copy."""
        game = self.game
        if game.phase is Phase.TARGET_ROLL:
            game.roll([(self._die(self.rules.target_sides),)])
        if game.phase is Phase.HOUSE_ROLL:
            game.roll([tuple(self._die(self.rules.house_sides)
                             for _ in range(self.rules.house_dice))])
        if game.phase is not Phase.PLAYING:  # settled at once (B4), or nobody bet
            self._collect()
            self._paused = True
            return
        self._shadows, self._d12s, self._moves = {}, {}, {}
        for seat in sorted(game.bets):
            shadow = BlackjackGame(
                [game.players[seat]], self.rules, ScriptedDice(()),
                balances=[game.balances[seat]],
                proficiency=[game.proficiency[seat]], auto_roll=False,
            )
            shadow.place_bet(0, game.bets[seat])
            shadow.roll([(game.target or 0,)])
            shadow.roll([game.house_dice])
            self._shadows[seat] = shadow
            self._d12s[seat] = []
            self._moves[seat] = []
            self._deal_d12(seat)

    def _deal_d12(self, seat: int) -> None:
        face = self._die(self.rules.player_sides)
        self._d12s[seat].append(face)
        self._shadows[seat].roll([(face,)])

    def _play(self, chosen: dict[str, int], terminations: dict[str, bool]) -> None:
        for agent, action in chosen.items():
            seat = self._seat[agent]
            move = self.actions.decode(action)
            if move is None:
                continue
            self._shadows[seat].apply(0, move)
            self._moves[seat].append(move)
            if isinstance(move, Roll):
                self._deal_d12(seat)
        if all(s.phase is Phase.ROUND_OVER for s in self._shadows.values()):
            self._replay()
            self._collect()
            self._next_round(terminations)

    def _replay(self) -> None:
        """Play every seat's turn into the table, in seat order: its engine settles."""
        game = self.game
        for seat in sorted(self._shadows):
            faces = iter(self._d12s[seat])
            game.roll([(next(faces),)])
            for move in self._moves[seat]:
                game.apply(seat, move)
                if isinstance(move, Roll):
                    game.roll([(next(faces),)])
        assert game.phase is Phase.ROUND_OVER

    def _collect(self) -> None:
        for settled in self.game.settlements():
            self._pending[self.possible_agents[settled.seat]] += settled.delta / 100

    def _next_round(self, terminations: dict[str, bool]) -> None:
        """Open the next round, or end the session; agents without gold leave."""
        game = self.game
        self._shadows = {}
        if game.round >= self.rounds or game.is_over:
            terminations.update(dict.fromkeys(terminations, True))
            return
        self._start_round()
        for agent in terminations:
            if self._seat[agent] not in game.eligible:
                terminations[agent] = True

    def _die(self, sides: int) -> int:
        return int(self._rng.integers(1, sides + 1))

    # ------------------------------------------------------------------ views

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        acts = self.actions
        mask = np.zeros(acts.num_actions, np.int8)
        seat = self._seat[agent]
        game = self.game
        shadow = self._shadows.get(seat)
        if self._paused or agent not in self.agents:
            mask[acts.wait] = 1
        elif game.phase is Phase.BETTING:
            if seat in game.eligible:
                low, high = game.bet_limits(seat)
                for i, amount in enumerate(acts.bet_choices):
                    mask[acts.bet(i)] = int(low <= amount <= high)
                mask[acts.sit_out] = 1
            else:
                mask[acts.wait] = 1
        elif shadow is not None and shadow.can_roll_again(0):
            mask[acts.roll] = 1
            for bonus in shadow.legal_bonuses(0):
                mask[acts.stand(bonus)] = 1
        else:
            mask[acts.wait] = 1
        return mask

    def _observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        game = self.game
        shadow = self._shadows.get(seat)
        deciding = shadow is not None and shadow.can_roll_again(0)
        betting = game.phase is Phase.BETTING and not self._paused
        target = game.target or 0
        vector = np.array([
            float(betting), float(deciding), float(not (betting or deciding)),
            target, game.house_roll or 0, float(game.house_bust),
            shadow.totals.get(0, 0) if shadow is not None else 0,
            game.bonus_cap(seat), game.balances[seat] / 100, game.bets.get(seat, 0) / 100,
        ], np.float32)
        return {"observation": vector, "action_mask": self._mask(agent)}

    def render(self) -> str | None:
        """The round so far, as the DM sees it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        game = self.game
        totals = {s: sh.totals.get(0, 0) for s, sh in self._shadows.items()}
        return (
            f"round {game.round}: target {game.target}, house {game.house_roll} "
            f"(dice {game.house_dice}), bets {game.bets}, totals {totals}, "
            f"balances {game.balances}"
        )

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(**kwargs: Any) -> BlackjackParallelEnv:
    """The parallel environment (see :class:`BlackjackParallelEnv`)."""
    return BlackjackParallelEnv(**kwargs)


raw_env = parallel_env
"""PettingZoo's name for the unwrapped environment: here the parallel one."""


def env(**kwargs: Any) -> Any:
    """The same game as an AEC environment (PettingZoo's ``parallel_to_aec``)."""
    return parallel_to_aec(parallel_env(**kwargs))
