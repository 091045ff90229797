"""Equilibrium solver for two-player Liar's Dice rounds and the tavern match.

Modules, one job each:

* :mod:`.bids` - a round's wagers in raise order (L4, L5, L10);
* :mod:`.chance` - hands as multisets with multinomial odds (L2);
* :mod:`.round_game` - :class:`RoundSpec`, truth of wagers, payoffs (L6-L8);
* :mod:`.public_tree` - exact bid-history tree or last-k-wagers DAG;
* :mod:`.sweeps` - vectorised reach/value passes, exact best response;
* :mod:`.regret` - the regrets and strategies both CFR solvers update;
* :mod:`.cfr` - DCFR / predictive CFR+ / CFR+ and :func:`solve_round`;
* :mod:`.dag` - CFR on the imperfect-recall DAG for big rounds;
* :mod:`.abstraction` - lift a DAG policy to the exact tree;
* :mod:`.lp` - sequence-form LP (independent check);
* :mod:`.policy` - :class:`RoundPolicy`: query, save, load;
* :mod:`.match` - backward induction over (dice, dice, starter);
* :mod:`.oracle_game`, :mod:`.oracle` - the double oracle on the full-recall wager tree
  (any raise rule, the seed's ``either`` included): its restricted game and solver
  (:mod:`.restricted`) and its best responses (:mod:`.oracle_response`);
* :mod:`.best_response` - exact full-recall best responses to a policy;
* :mod:`.tables` - the shipped heads-up policies and their lookup;
* :mod:`.store` - what a bot asks them:
  :func:`equilibrium_action_probabilities`, :func:`match_win_probability`;
* :mod:`.playouts` - fast vectorised random round playouts.
"""

from tavern_dice.strategy.liars_dice.solver.cfr import SolveResult, solve_round
from tavern_dice.strategy.liars_dice.solver.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.round_game import RoundGame, RoundSpec
from tavern_dice.strategy.liars_dice.solver.store import (
    equilibrium_action_probabilities,
    match_win_probability,
)

__all__ = [
    "RoundGame", "RoundPolicy", "RoundSpec", "SolveResult",
    "equilibrium_action_probabilities", "match_win_probability", "solve_round",
]
