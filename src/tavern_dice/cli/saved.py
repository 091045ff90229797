"""Reading a game saved by ``tavern play --save`` (for ``tavern replay`` and ``tavern
review``): the JSON file, then its engine's ``from_log``, which checks every input.
Both commands take the file as :data:`GamePath` and open it with :func:`open_saved`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from tavern_dice.errors import LogError, TavernError
from tavern_dice.record import GameRecord

GamePath = Annotated[
    Path, typer.Argument(metavar="GAME.json", help="A log written by tavern play --save.")
]
"""The ``GAME.json`` argument of ``tavern replay`` and ``tavern review``."""


def read_log(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``.

    Raises:
        LogError: the file cannot be read, is not JSON, or holds no JSON object.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise LogError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise LogError(f"{path} is not a text file (a game log is JSON)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LogError(f"{path} is not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict):
        raise LogError(f"{path} holds no game log (expected a JSON object)")
    return data


def load_record(path: Path) -> tuple[dict[str, Any], GameRecord]:
    """The log in ``path`` and its :class:`~tavern_dice.record.GameRecord`, replayed through
    its game's engine (:mod:`tavern_dice.games` finds it by the log's ``"game"``).

    Raises:
        LogError: a file that cannot be read, is no game log, or does not replay; the
            message names the file and what is wrong.
    """
    data = read_log(path)
    try:
        record = GameRecord.load(data)
    except TavernError as error:
        # The message says what is wrong (no game named, an unknown game, a malformed
        # entry, an illegal wager, impossible dice, an unknown version); the file is added.
        raise LogError(f"{path}: {error}") from None
    return data, record


def open_saved(path: Path, command: str) -> tuple[dict[str, Any], GameRecord]:
    """:func:`load_record` for ``tavern COMMAND``: a file it refuses ends the command with
    ``tavern COMMAND: `` and the reason on standard error, and exit code 2.

    Raises:
        typer.Exit: the file cannot be read, is no game log, or does not replay.
    """
    try:
        return load_record(path)
    except LogError as error:
        Console(stderr=True, highlight=False).print(
            f"[bold red]tavern {command}:[/] {escape(str(error))}"
        )
        raise typer.Exit(2) from None


def parse_seat(text: str, players: Sequence[str], option: str = "--as") -> int:
    """A seat given on the command line: its number from 0, or its player's name (any case).

    Raises:
        typer.BadParameter: no such seat; the message lists the seats.
    """
    if text.isdigit() and int(text) < len(players):
        return int(text)
    lowered = [p.lower() for p in players]
    if text.lower() in lowered:
        return lowered.index(text.lower())
    seats = ", ".join(f"{i} {p}" for i, p in enumerate(players))
    raise typer.BadParameter(
        f"no seat {text!r}; give a seat number or a name: {seats}", param_hint=option
    )
