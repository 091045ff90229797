"""Equilibrium solver for two-player Liar's Dice rounds and the tavern match, split by
when it runs.

Subpackages, each with a module map in its ``__init__``:

* :mod:`.core` - the round as a game and the solvers both sides use (bids, chance,
  round_game, public_tree, CFR, the double oracle, the match);
* :mod:`.build` - offline: rebuilds the shipped tables and blueprints
  (``python -m tavern_dice.strategy.liars_dice.solver.build.build_tables``, ``...build_blueprints``)
  and the independent checks (LP, exact best responses, playouts);
* :mod:`.play` - what a bot loads and asks at decision time: the shipped tables and
  blueprints, the depth-2 search and its leaf values, the store of answers.

Imports point one way: ``build`` may import ``play`` and ``core``; ``play`` imports only
``core``; ``core`` imports neither. The common names are re-exported here.
"""

from tavern_dice.strategy.liars_dice.solver.core.cfr import SolveResult, solve_round
from tavern_dice.strategy.liars_dice.solver.core.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec
from tavern_dice.strategy.liars_dice.solver.play.store import (
    equilibrium_action_probabilities,
    match_win_probability,
)

__all__ = [
    "RoundGame", "RoundPolicy", "RoundSpec", "SolveResult",
    "equilibrium_action_probabilities", "match_win_probability", "solve_round",
]
