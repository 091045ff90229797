"""Output files of the commands (``--save``, ``--plot``, ``--output``): refused before
any long computation when they could not be written, and written without a traceback.

A folder's permission bits are not enough to tell: root may "write" anywhere by
``os.access``, yet ``/proc/x.json`` cannot be created. So the file is actually opened (and
a file made only for the check is removed again).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click
import typer


def check_writable(path: Path, option: str, *, overwrite: bool = True) -> None:
    """Refuse an output file that could not be written, before any long computation.

    ``overwrite=False`` also refuses a file that exists (``--save`` replaces a game only
    when asked to).

    Raises:
        typer.BadParameter: ``path`` is a folder, its folder is missing or read-only, the
            file cannot be created or opened for writing, or it exists and may not be
            replaced.
    """
    folder = path.parent
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; give a file name", param_hint=option)
    if not folder.is_dir():
        raise typer.BadParameter(
            f"cannot write {path}: folder {folder} does not exist", param_hint=option
        )
    if not os.access(folder, os.W_OK):
        raise typer.BadParameter(
            f"cannot write {path}: folder {folder} is not writable", param_hint=option
        )
    exists = path.exists()
    if exists and not overwrite:
        raise typer.BadParameter(
            f"{path} already exists; give a new file name, or add --overwrite to replace it",
            param_hint=option,
        )
    try:
        if exists:
            # Opened for writing without truncating: the file is left as it was.
            os.close(os.open(path, os.O_WRONLY))
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            path.unlink()
    except OSError as error:
        raise typer.BadParameter(
            f"cannot write {path}: {error.strerror or error}", param_hint=option
        ) from None


def check_plot(path: Path, option: str = "--plot") -> None:
    """Refuse a chart file that could not be written, or whose extension names no image
    format Matplotlib writes, before any long computation.

    Raises:
        typer.BadParameter: naming the formats that would do.
    """
    from matplotlib.backend_bases import FigureCanvasBase

    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in formats:
        given = f"its extension is .{suffix}" if suffix else "it has no extension"
        raise typer.BadParameter(
            f"cannot draw a chart to {path}: {given}; use one of "
            f"{', '.join('.' + f for f in formats)} (e.g. chart.png)", param_hint=option)
    check_writable(path, option)


def save_figure(fig: Any, path: Path, **options: Any) -> None:
    """``fig.savefig(path, **options)``, failing as a command error (exit 1, one line),
    not a traceback, when the file cannot be written after all (the disk filled up, the
    folder went away while the command ran).

    Raises:
        click.ClickException: the file could not be written.
    """
    try:
        fig.savefig(path, **options)
    except OSError as error:
        raise click.ClickException(
            f"cannot write the chart to {path}: {error.strerror or error}"
        ) from None
