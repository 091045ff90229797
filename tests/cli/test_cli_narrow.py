"""At 80 columns, or piped, nothing the commands print is cut short: ``tavern solve
tables`` keeps every figure whole, and ``--help`` shows every option's full name and
wraps its text as paragraphs. Run through the ``tavern`` console script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from tavern_dice.cli import app

TAVERN = Path(sys.executable).with_name("tavern")


def tavern(*args: str) -> str:
    env = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run([str(TAVERN), *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_solve_tables_keeps_every_figure_whole_at_80_columns() -> None:
    out = tavern("solve", "tables")
    assert "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    # The 2 v 3 round's exploitability, LBR bound, build time and what storing it as uint8
    # cost, whole.
    for figure in ("0.01044", "-0.02945", "7410 s", "< 3e-05 (+0.00216)", "approximate"):
        assert figure in out, figure


def _long_options(*path: str) -> list[str]:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return [o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")]


@pytest.mark.parametrize("path", [("simulate", "liars-dice"), ("simulate", "blackjack"),
                                  ("play", "blackjack")])
def test_help_shows_every_option_name_whole(path: tuple[str, ...]) -> None:
    out = tavern(*path, "--help")
    assert "…" not in out
    words = set(out.replace(",", " ").replace("/", " ").split())
    missing = [o for o in _long_options(*path) if o not in words]
    assert not missing, missing


def test_help_text_wraps_as_paragraphs() -> None:
    out = tavern("simulate", "blackjack", "--help")
    # The docstring's own line break after "100 at" is not kept mid-paragraph.
    assert any("100 at a fresh table" in line for line in out.splitlines())
    assert "tavern simulate blackjack --bots optimal,cautious --rounds 100000" in out
