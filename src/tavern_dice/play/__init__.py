"""Running a table: seating agents (bots, people) and stepping an engine with their answers.

Nothing here is a rule: the engines adjudicate; the runner only asks each seat in turn.
Measuring a strategy (the exploiter suite, round bounds) is :mod:`tavern_dice.measure`.

* :mod:`.runner` - one game (Liar's Dice) or one round (Dice Blackjack) with seated agents;
* :mod:`.simulate` - many seeded games between bots, with win rates and their intervals;
* :mod:`.round_robin` - the levels' round-robin of simulated games, and their ratings;
* :mod:`.ratings` - the levels' measured ratings, and a person's rating after a game.
"""
