"""Liar's Dice strategy, one job per module:

* :mod:`.odds` - the exact odds of a wager, as one player sees the table;
* :mod:`.belief` - beliefs about the opponents' hidden dice, updated from their wagers;
* :mod:`.tendencies` - what each opponent tends to do, learnt from the reveals;
* :mod:`.values` - the expected values of accusing and raising, from those beliefs;
* :mod:`.solver` - the equilibrium solver for heads-up rounds and matches, and the
  shipped tables the ``equilibrium`` and ``strong`` bots read.
"""
