"""Imports every subcommand module so that each registers itself on :data:`app`."""

from __future__ import annotations

import importlib

_MODULES = ("play", "replay", "review", "odds", "solve", "simulate", "exploit", "serve",
            "rating")

for _name in _MODULES:
    importlib.import_module(f"tavern_dice.cli.{_name}")
