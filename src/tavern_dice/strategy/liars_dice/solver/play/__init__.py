"""The solver's play-time side: what a bot loads and asks at decision time. Imports
:mod:`..core`, never :mod:`..build`.

Modules, one job each:

* :mod:`.tables` - the shipped heads-up tables and their lookup;
* :mod:`.round_table` - one round's solved policy, its queries and exact measurements;
* :mod:`.table_rows` - how a table's probabilities are stored and decoded;
* :mod:`.table_store` - tables and blueprints on disk: folders, files, metadata;
* :mod:`.blueprint` - approximate policies for rounds no table covers (7-10 dice);
* :mod:`.search` - depth-2 decision-time search for rounds with no table;
* :mod:`.subgame` - the search's subgame: its raises, answers, leaves and products;
* :mod:`.leaves` - the search's leaf values: the blueprint played out, factored;
* :mod:`.leaf_cache` - built leaf values kept in the user's cache folder;
* :mod:`.leaf_set` - how a search reads its subgame's leaves;
* :mod:`.store` - what a bot asks: :func:`equilibrium_action_probabilities`,
  :func:`match_win_probability`.
"""
