"""Importing the engines, the game registry and records stays light: no NumPy, no bot.

A script that only replays a log or plays the rules should not pay for NumPy and the bots'
solvers (about 0.7 s). Bots load when a game asks for one by name (the registry's lazy
factories), and ``tavern --help`` / ``--version`` load no command's machinery. Each check
runs in a fresh interpreter, since this test process has long since imported everything.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

LIGHT = ("tavern_dice", "tavern_dice.games", "tavern_dice.record", "tavern_dice.liars_dice",
         "tavern_dice.blackjack")

_REPORT = (
    "import sys\n"
    "heavy = sorted(name for name in sys.modules if name.split('.')[0] in ('numpy', 'scipy')"
    " or name.startswith(('tavern_dice.bots.liars_', 'tavern_dice.bots.blackjack_',"
    " 'tavern_dice.strategy.liars_dice.solver')))\n"
    "print('HEAVY', heavy, file=sys.stderr)\n"
)


def _heavy_after(code: str, *argv: str) -> str:
    done = subprocess.run([sys.executable, "-c", code + _REPORT, *argv], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr.rpartition("HEAVY ")[2].strip()


def test_the_engines_registry_and_records_import_no_numpy_and_no_bot() -> None:
    assert _heavy_after("import " + ", ".join(LIGHT) + "\n") == "[]"


def test_a_bot_loads_when_asked_for_by_name() -> None:
    code = ("import tavern_dice.games as g\n"
            "g.game('liars-dice').make_bot('probabilistic', seed=1)\n")
    assert "tavern_dice.bots.liars_probabilistic" in _heavy_after(code)


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_tavern_help_and_version_import_no_numpy(flag: str) -> None:
    code = (
        "import sys\n"
        "from tavern_dice.cli import main\n"
        "sys.argv = ['tavern', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
    )
    assert _heavy_after(code, flag) == "[]"


def test_the_cli_spells_the_solver_algorithms_as_the_solver_does() -> None:
    # `tavern solve` lists them in its help without importing the solver (and NumPy).
    from tavern_dice.cli.solve import ALGORITHM_NAMES
    from tavern_dice.strategy.liars_dice.solver.core.regret import ALGORITHMS

    assert ALGORITHM_NAMES == ALGORITHMS
