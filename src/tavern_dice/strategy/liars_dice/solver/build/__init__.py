"""The solver's build side: what makes the shipped data, and the offline checks of it.
Imports :mod:`..core` and :mod:`..play`; nothing a bot loads imports it.

Modules, one job each:

* :mod:`.build_tables` - rebuild the shipped heads-up tables (``python -m`` this module);
* :mod:`.build_blueprints` - rebuild the shipped heads-up blueprints (``python -m`` this module);
* :mod:`.lp` - a round's sequence-form linear program, an independent check of CFR;
* :mod:`.best_response` - exact full-recall best responses against a round policy;
* :mod:`.abstraction` - carry a last-k-wagers policy onto the exact tree, to measure it;
* :mod:`.playouts` - vectorised random playouts of single rounds (benchmarks, checks).
"""
