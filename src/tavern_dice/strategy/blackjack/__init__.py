"""Dice Blackjack strategy, one job per module:

* :mod:`.solver` - the game solved exactly: the best play and the house edge, in exact
  fractions;
* :mod:`.dial` - the DM's house-edge dial: table rules that give the house a chosen edge.
"""
