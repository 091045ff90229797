"""The tavern rules in OpenSpiel: ``tavern_liars_dice`` and ``tavern_liars_dice_round``.

Importing this module registers two Python games with ``pyspiel`` (install the extra:
``pip install 'tavern-dice[openspiel]'``):

* ``tavern_liars_dice`` - the whole match (L1-L11): roll-off, rounds, lives are dice,
  until one player has dice left. The winner gets +1, everyone else ``-1/(players-1)``.
* ``tavern_liars_dice_round`` - one round, seat 0 wagering first: the loser of a die
  -1 and the other +1 with two players (see
  :meth:`~tavern_dice.interop.liars_table.LiarsDiceTable.returns` for more).

Their parameters are the ruleset's options (``docs/rules.md``), defaulting to the seed:

==================  ========  =====================================================
parameter           default   rule
==================  ========  =====================================================
``players``         2         2-10 seats (L1)
``dice_per_player`` 5         starting dice = lives (L1)
``sides``           6         faces per die
``raise_rule``      either    ``either``, ``standard`` or ``face-major`` (L5)
``wild_face``       0         a wild face, 0 for none (L6)
``spot_on``         true      an exact wager costs everyone else a die (L8)
``sum_endgame``     true      two players with one die each wager on the sum (L10)
``repeat_wagers``   false     a wager may be made twice in a round (L5b)
``starting_dice``   ""        each seat's dice, e.g. ``"2/1"`` (default: all equal)
==================  ========  =====================================================

The game is played by the project's engine; this module only translates. Two things
OpenSpiel needs are made explicit (:mod:`~tavern_dice.interop.liars_table`): every die is
a chance node, and L7's "another player can accuse" is an **accusation window** - after
a wager every player other than the wager-maker and the next player, in turn to the
wager-maker's left, accuses or passes; then the next player raises or accuses. Action numbers are in
:mod:`~tavern_dice.interop.liars_actions`; information states and observations, strings
and tensors, in :mod:`~tavern_dice.interop.liars_encoding`. ``repeat_wagers`` under the
``either`` rule has no finite game tree and is refused.

>>> import pyspiel
>>> game = pyspiel.load_game("tavern_liars_dice_round", {"dice_per_player": 1})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(2, 25, 6)
>>> state = game.new_initial_state()
>>> state.apply_action(4); state.apply_action(1)       # dice: seat 0 a five, seat 1 a two
>>> state.information_state_string(0)
'P0 | r1: P0 starts, dice 1-1, sums; mine 5'
>>> [state.action_to_string(a) for a in state.legal_actions()][:3]   # the sum endgame
['sum 2', 'sum 3', 'sum 4']
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib

from tavern_dice.errors import RulesetError
from tavern_dice.interop.liars_encoding import LiarsEncoder, Private
from tavern_dice.interop.liars_table import LiarsDiceTable, parse_starting_dice
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.wager import SumWager, Wager
from tavern_dice.strategy.liars_dice.solver.core.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundSpec

MATCH = "tavern_liars_dice"
"""Short name of the whole game."""
ROUND = "tavern_liars_dice_round"
"""Short name of the single round."""

PARAMETERS: dict[str, Any] = {
    "players": 2,
    "dice_per_player": TAVERN.dice_per_player,
    "sides": TAVERN.sides,
    "raise_rule": TAVERN.raise_rule.value,
    "wild_face": 0,
    "spot_on": TAVERN.spot_on,
    "sum_endgame": TAVERN.sum_endgame,
    "repeat_wagers": TAVERN.repeat_wagers,
    "starting_dice": "",
}
"""The game parameters and their defaults (the seed)."""


def rules_from_parameters(params: dict[str, Any]) -> LiarsDiceRules:
    """The ruleset named by game parameters (missing ones take the seed's value).

    Raises:
        RulesetError: an unknown parameter or a value the ruleset refuses.
    """
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise RulesetError(f"unknown parameters {unknown}; known: {sorted(PARAMETERS)}")
    values = {**PARAMETERS, **params}
    try:
        raise_rule = RaiseRule(values["raise_rule"])
    except ValueError:
        choices = [r.value for r in RaiseRule]
        raise RulesetError(
            f"raise_rule must be one of {choices}, not {values['raise_rule']!r}"
        ) from None
    return TAVERN.replace(
        dice_per_player=values["dice_per_player"], sides=values["sides"],
        raise_rule=raise_rule, wild_face=values["wild_face"] or None,
        spot_on=values["spot_on"], sum_endgame=values["sum_endgame"],
        repeat_wagers=values["repeat_wagers"],
    )


def table_from_parameters(params: dict[str, Any], *, single_round: bool) -> LiarsDiceTable:
    """A fresh table for game parameters.

    Raises:
        RulesetError: parameters the engine refuses.
    """
    rules = rules_from_parameters(params)
    players = params.get("players", PARAMETERS["players"])
    starting = parse_starting_dice(str(params.get("starting_dice", "")))
    return LiarsDiceTable(players, rules, starting_dice=starting, single_round=single_round)


def _game_type(short_name: str, long_name: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=10,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(PARAMETERS),
    )


class TavernLiarsDiceGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no stubs
    """``tavern_liars_dice``: the whole game under a tavern ruleset."""

    SHORT_NAME = MATCH
    SINGLE_ROUND = False
    GAME_TYPE = _game_type(MATCH, "Tavern Liar's Dice (tavern-dice)")

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        self.table = table_from_parameters(params, single_round=self.SINGLE_ROUND)
        low, high = self.table.utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.actions.num_actions,
            max_chance_outcomes=max(self.table.rules.sides, self.table.num_players),
            num_players=self.table.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=self.table.max_decisions(),
        )
        super().__init__(self.GAME_TYPE, info, params)

    def new_initial_state(self) -> TavernLiarsDiceState:
        """The game before the roll-off (or, for a single round, before the dice)."""
        return TavernLiarsDiceState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TavernLiarsDiceObserver:
        """An observer (information state with ``perfect_recall``, else observation)."""
        if params:
            raise RulesetError(f"the observer takes no parameters, not {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return TavernLiarsDiceObserver(self.table, obs_type)


class TavernLiarsDiceRoundGame(TavernLiarsDiceGame):
    """``tavern_liars_dice_round``: one round, seat 0 first, to the first reveal."""

    SHORT_NAME = ROUND
    SINGLE_ROUND = True
    GAME_TYPE = _game_type(ROUND, "Tavern Liar's Dice, one round (tavern-dice)")


class TavernLiarsDiceState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no stubs
    """A state: the engine's game, the window and the dice being dealt (one table)."""

    def __init__(self, game: TavernLiarsDiceGame) -> None:
        super().__init__(game)
        # OpenSpiel clones a state by deep-copying its attributes: the table copies fast.
        self.table = copy.deepcopy(game.table)

    def current_player(self) -> int:
        """The seat to act, or pyspiel's chance or terminal player."""
        table = self.table
        if table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if table.chance_kind() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        actor = table.actor()
        assert actor is not None
        return actor

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions() if player == self.table.actor() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending roll-off (a seat each) or die (``face - 1`` each), equally likely."""
        return self.table.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.table.chance_kind() is not None:
            self.table.apply_chance(int(action))
        else:
            self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        table = self.table
        if player == pyspiel.PlayerId.CHANCE:
            if table.chance_kind() == "starter":
                return f"P{action} starts"
            seat, _ = table.dealing()
            return f"P{seat} rolls {action + 1}"
        return table.label(int(action))

    def is_terminal(self) -> bool:
        """Whether the game (or round) is over."""
        return self.table.is_over

    def returns(self) -> list[float]:
        """Payoffs (zero until the end); see :meth:`LiarsDiceTable.returns`."""
        return self.table.returns()

    def __str__(self) -> str:
        """A referee's view: every hand, the dice counts, the wagers of this round."""
        table = self.table
        record = table.rounds[-1] if table.rounds else None
        hands = "?" if record is None or record.hands is None else " / ".join(
            " ".join(map(str, h)) or "-" for h in record.hands
        )
        moves = "" if record is None else " ".join(
            f"P{s}:{table.label(a)}" for s, a in record.moves
        )
        dealt = " ".join(map(str, table.pending))
        return f"dice [{hands}] dealt [{dealt}] counts {table.engine.dice_counts} moves [{moves}]"


class TavernLiarsDiceObserver:
    """pyspiel's Python observer protocol over :class:`LiarsEncoder`."""

    def __init__(self, table: LiarsDiceTable, iig_obs_type: Any) -> None:
        private: Private
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            private = "single"
        elif iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            private = "all"
        else:
            private = "none"
        self.encoder = LiarsEncoder(
            table, perfect_recall=bool(iig_obs_type.perfect_recall), private=private,
            public=bool(iig_obs_type.public_info),
        )
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.views(self.tensor)

    def set_from(self, state: TavernLiarsDiceState, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor`."""
        self.encoder.fill(self.dict, state.table, player)

    def string_from(self, state: TavernLiarsDiceState, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        return self.encoder.string(state.table, player)


def round_spec(game: TavernLiarsDiceGame) -> RoundSpec:
    """The project solver's
    :class:`~tavern_dice.strategy.liars_dice.solver.core.round_game.RoundSpec` of a
    two-player ``tavern_liars_dice_round`` (seat 0 is its first bidder).

    Raises:
        RulesetError: another game, or a round the solver cannot take (the ``either``
            raise rule outside the sum endgame has cycles).
    """
    table = game.table
    if not table.single_round or table.num_players != 2:
        raise RulesetError(
            f"the solver takes two-player rounds ({ROUND} with players=2), not {game}"
        )
    first, second = table.engine.starting_dice
    return RoundSpec.from_rules(table.rules, (first, second))


def round_policy_to_tabular(game: TavernLiarsDiceGame, policy: RoundPolicy) -> Any:
    """The project's solved round policy as a ``pyspiel`` ``TabularPolicy`` of ``game``.

    Every information state of the round is one (own dice, wagers so far) query of
    ``policy``, whose actions are the engine's, numbered as the game numbers them. Then OpenSpiel's
    own ``exploitability`` measures the project's policy.

    Raises:
        RulesetError: ``policy`` was solved for another round than ``game``.
    """
    spec = round_spec(game)
    if policy.spec.with_payoffs(spec.payoffs) != spec:
        raise RulesetError(f"the policy is for round {policy.spec.key()}, the game is {spec.key()}")
    tabular = policy_lib.TabularPolicy(game)
    for index, state in enumerate(tabular.states):
        table: LiarsDiceTable = state.table
        actor = state.current_player()
        record = table.rounds[-1]
        assert record.hands is not None
        moves = (table.actions.decode(a) for _, a in record.moves)
        history = [m for m in moves if isinstance(m, Wager | SumWager)]  # two players: no passes
        probs = policy.action_probabilities(record.hands[actor], history)
        row = tabular.action_probability_array[index]
        row[:] = 0.0
        for move, p in probs.items():
            row[table.actions.encode(move)] = p
    return tabular


pyspiel.register_game(TavernLiarsDiceGame.GAME_TYPE, TavernLiarsDiceGame)
pyspiel.register_game(TavernLiarsDiceRoundGame.GAME_TYPE, TavernLiarsDiceRoundGame)
