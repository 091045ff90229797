"""Running a table: seating agents (bots, people) and stepping an engine with their answers.

Nothing here is a rule: the engines adjudicate; the runner only asks each seat in turn.

* :mod:`.runner` - one game (Liar's Dice) or one round (Dice Blackjack) with seated agents;
* :mod:`.simulate` - many seeded games between bots, with win rates and their intervals;
* :mod:`.exploit` - the exploiter suite: each counter-strategy against copies of a bot.
"""
