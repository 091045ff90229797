"""The source distribution holds what a clone holds for reading and testing: the docs the
README links (with the seed rules text), the whole test suite and its data."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_sdist_holds_the_docs_and_every_test(tmp_path: Path) -> None:
    # Built from a copy without the checkout's egg-info: setuptools would otherwise take
    # the file list of an earlier build's SOURCES.txt, whatever MANIFEST.in says.
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "build",
        "dist", "artifacts"))
    build = (
        "import sys\nfrom setuptools import build_meta\n"
        "print(build_meta.build_sdist(sys.argv[1]))\n"
    )
    done = subprocess.run([sys.executable, "-c", build, str(tmp_path)], cwd=source,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    archive = tmp_path / done.stdout.strip().splitlines()[-1]
    with tarfile.open(archive) as tar:
        top, *_ = tar.getnames()[0].split("/")
        names = {name.partition("/")[2] for name in tar.getnames()}
    wanted = {"README.md", "docs/rules.md", "docs/web-protocol.md", "docs/tavern-games.txt",
              "Makefile", "requirements.lock", "conftest.py", "tests/web/data/tavern-v0.sql"}
    wanted |= {
        str(path.relative_to(REPO)) for path in (REPO / "tests").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert not wanted - names, f"{top} lacks {sorted(wanted - names)}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


@pytest.mark.slow
def test_the_wheel_is_small_enough_to_publish(tmp_path: Path) -> None:
    """PyPI refuses files over 100 MB by default; the shipped strategy data keeps the wheel
    at most 25 MB, with every shipped round's table in it."""
    from tavern_dice.strategy.liars_dice.solver.play.tables import SHIPPED_ROUNDS

    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "build",
        "dist", "artifacts", "tests", "docs", "benchmarks"))
    build = (
        "import sys\nfrom setuptools import build_meta\n"
        "print(build_meta.build_wheel(sys.argv[1]))\n"
    )
    done = subprocess.run([sys.executable, "-c", build, str(tmp_path)], cwd=source,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = tmp_path / done.stdout.strip().splitlines()[-1]
    assert wheel.stat().st_size <= 25 * 2**20, f"{wheel.stat().st_size / 2**20:.1f} MiB"
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for rules, rounds in SHIPPED_ROUNDS.items():
        for a, b in rounds:
            name = f"tavern_dice/data/liars_dice_heads_up_{rules}/r{a}_{b}.npz"
            assert name in names, f"the wheel lacks {name}"
