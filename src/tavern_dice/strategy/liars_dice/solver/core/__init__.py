"""The solver's shared core: a round as a game, and the solvers both the builders and the
play-time lookup call. Imports nothing from :mod:`..build` or :mod:`..play`.

Modules, one job each:

* :mod:`.bids` - a round's wagers in raise order (L4, L5, L10);
* :mod:`.chance` - hands as multisets with multinomial odds (L2);
* :mod:`.round_game` - :class:`RoundSpec`, truth of wagers, payoffs (L6-L8);
* :mod:`.public_tree` - exact bid-history tree or last-k-wagers DAG;
* :mod:`.sweeps` - vectorised reach/value passes, exact best response;
* :mod:`.regret` - the regrets and strategies both CFR solvers update;
* :mod:`.cfr` - DCFR / predictive CFR+ / CFR+ and :func:`solve_round`;
* :mod:`.dag` - CFR on the imperfect-recall DAG for big rounds (blueprints, leaf values);
* :mod:`.policy` - :class:`RoundPolicy`: query, save, load;
* :mod:`.match` - backward induction over (dice, dice, starter), match win probabilities;
* :mod:`.oracle_game` - a round as the double oracle sees it (any raise rule);
* :mod:`.oracle` - the double oracle on the full-recall wager tree;
* :mod:`.restricted` - the double oracle's restricted game and its CFR solver;
* :mod:`.oracle_response` - the double oracle's exact full-recall best responses;
* :mod:`.lbr` - local best response to a table, valued exactly.
"""
