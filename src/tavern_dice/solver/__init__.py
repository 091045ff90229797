"""Equilibrium solver for two-player Liar's Dice rounds and the tavern match.

Modules, one job each:

* :mod:`~tavern_dice.solver.bids` - a round's wagers in raise order (L4, L5, L10);
* :mod:`~tavern_dice.solver.chance` - hands as multisets with multinomial odds (L2);
* :mod:`~tavern_dice.solver.round_game` - :class:`RoundSpec`, truth of wagers, payoffs (L6-L8);
* :mod:`~tavern_dice.solver.public_tree` - exact bid-history tree or last-k-wagers DAG;
* :mod:`~tavern_dice.solver.sweeps` - vectorised reach/value passes, exact best response;
* :mod:`~tavern_dice.solver.cfr` - DCFR / predictive CFR+ / CFR+ and :func:`solve_round`;
* :mod:`~tavern_dice.solver.dag` - CFR on the imperfect-recall DAG for big rounds;
* :mod:`~tavern_dice.solver.abstraction` - lift a DAG policy to the exact tree;
* :mod:`~tavern_dice.solver.lp` - sequence-form LP (independent check);
* :mod:`~tavern_dice.solver.policy` - :class:`RoundPolicy`: query, save, load;
* :mod:`~tavern_dice.solver.match` - backward induction over (dice, dice, starter);
* :mod:`~tavern_dice.solver.oracle_game`, :mod:`~tavern_dice.solver.oracle` - the double
  oracle on the full-recall wager tree (any raise rule, the seed's ``either`` included);
* :mod:`~tavern_dice.solver.best_response` - exact full-recall best responses to a policy;
* :mod:`~tavern_dice.solver.tables` - the shipped heads-up policies and their lookup;
* :mod:`~tavern_dice.solver.store` - what a bot asks them:
  :func:`equilibrium_action_probabilities`, :func:`match_win_probability`;
* :mod:`~tavern_dice.solver.playouts` - fast vectorised random round playouts.
"""

from tavern_dice.solver.cfr import SolveResult, solve_round
from tavern_dice.solver.policy import LIAR, RoundPolicy
from tavern_dice.solver.round_game import RoundGame, RoundSpec
from tavern_dice.solver.store import equilibrium_action_probabilities, match_win_probability

__all__ = [
    "LIAR", "RoundGame", "RoundPolicy", "RoundSpec", "SolveResult",
    "equilibrium_action_probabilities", "match_win_probability", "solve_round",
]
