"""The package's shape: every module imports in a fresh interpreter, the import graph has
no cycle (between modules, nor between the packages at any level), and no module or
function is long.

The graph is read from the source with :mod:`ast`, not from ``sys.modules``: every
``import`` and ``from ... import`` counts, at module level and inside functions alike (a
deferred import is still a dependency; deferring it only hides a cycle). Imports under
``if TYPE_CHECKING:`` are left out: they never run, and annotations may name a class of a
module that depends on theirs (``liars_dice.view`` names ``LiarsDiceGame`` that way).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "tavern_dice"
MAX_LINES = 600
# Alembic's environment script reads the context Alembic sets up before running it; it is
# a script Alembic runs (the migration suite tests it), not a module to import.
NOT_IMPORTABLE_ALONE = {"tavern_dice.web.migrations.env"}

Graph = dict[str, set[str]]


def module_files() -> dict[str, Path]:
    """Every module under ``src/tavern_dice`` by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted((SRC / ROOT).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import under ``node``, skipping the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _imports_in(other)
            continue
        yield from _imports_in(child)


def _imports_in(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _imports(node)


def import_graph(modules: Mapping[str, Path]) -> Graph:
    """``module -> the project modules it imports`` (``from pkg import name`` is an import
    of ``pkg.name`` where that is a module, else of ``pkg``)."""

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            for target in targets:
                if target == ROOT or target.startswith(ROOT + "."):
                    found = known(target)
                    if found is not None and found != name:
                        graph[name].add(found)
    return graph


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or ``None`` if it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def package_graph(graph: Graph, package: str) -> Graph:
    """The graph between the direct children of ``package`` (subpackages and modules): an
    edge wherever a module under one imports a module under another."""

    def child(module: str) -> str | None:
        if not module.startswith(package + "."):
            return None
        return package + "." + module[len(package) + 1:].split(".")[0]

    out: Graph = {}
    for source, targets in graph.items():
        a = child(source)
        if a is None:
            continue
        out.setdefault(a, set())
        for target in targets:
            b = child(target)
            if b is not None and b != a:
                out[a].add(b)
    return out


MODULES = module_files()
GRAPH = import_graph(MODULES)


def test_the_graph_sees_deferred_imports_and_skips_type_checking_ones() -> None:
    # review.evaluate imports the strong bot inside a function; liars_dice.view names the
    # game only under TYPE_CHECKING.
    assert "tavern_dice.bots.liars_strong" in GRAPH["tavern_dice.review.evaluate"]
    assert "tavern_dice.liars_dice.state" not in GRAPH["tavern_dice.liars_dice.view"]
    assert "tavern_dice.liars_dice.view" in GRAPH["tavern_dice.liars_dice.state"]
    assert "tavern_dice.strategy.liars_dice.odds" in GRAPH["tavern_dice.bots.liars_probabilistic"]


def test_find_cycle_finds_one_and_only_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_every_module_imports_in_a_fresh_interpreter() -> None:
    names = [name for name in MODULES if name not in NOT_IMPORTABLE_ALONE]
    script = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    importlib.import_module(name)\n"
        "print(len(sys.argv) - 1)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-1] == str(len(names))
    assert len(names) > 100


def test_no_import_cycle_between_modules() -> None:
    assert find_cycle(GRAPH) is None


def test_no_import_cycle_between_packages_at_any_level() -> None:
    packages = [name for name, path in MODULES.items() if path.name == "__init__.py"]
    assert {"tavern_dice", "tavern_dice.strategy", "tavern_dice.bots"} <= set(packages)
    for package in packages:
        assert find_cycle(package_graph(GRAPH, package)) is None, package


def test_the_layers_point_one_way() -> None:
    top = package_graph(GRAPH, ROOT)
    # Strategy answers the bots; the runner seats the bots; the shells sit on top.
    assert "tavern_dice.strategy" in top["tavern_dice.bots"]
    assert "tavern_dice.bots" in top["tavern_dice.play"]
    for low in ("tavern_dice.liars_dice", "tavern_dice.blackjack", "tavern_dice.strategy"):
        assert not top[low] & {"tavern_dice.bots", "tavern_dice.play", "tavern_dice.measure",
                               "tavern_dice.cli", "tavern_dice.web"}, low
    # Measuring a strategy drives the runner; the runner never asks for a measurement.
    assert "tavern_dice.play" in top["tavern_dice.measure"]
    assert "tavern_dice.measure" not in top["tavern_dice.play"]


SOLVER = "tavern_dice.strategy.liars_dice.solver"


def test_the_solver_builds_on_its_play_side_and_plays_without_its_builders() -> None:
    # build -> play -> core: what a bot loads at decision time never imports a builder,
    # and the shared core imports neither side.
    sides = package_graph(GRAPH, SOLVER)
    core, build, play = (f"{SOLVER}.{side}" for side in ("core", "build", "play"))
    assert sides[core] == set()
    assert sides[play] == {core}
    assert sides[build] == {core, play}
    outside = {name for name in GRAPH if not name.startswith(SOLVER + ".")}
    for name in outside:
        if name.startswith(("tavern_dice.bots.", "tavern_dice.review.")):
            assert not {t for t in GRAPH[name] if t.startswith(build + ".")}, name


MAPPED_PACKAGES = (f"{SOLVER}.core", f"{SOLVER}.build", f"{SOLVER}.play",
                   "tavern_dice.measure", "tavern_dice.play")


def test_each_solver_side_maps_every_module_it_holds() -> None:
    # Each package's docstring lists its modules, one line each (":mod:`.name`").
    for package in MAPPED_PACKAGES:
        doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8"))) or ""
        held = {name.rpartition(".")[2] for name in MODULES
                if name.rpartition(".")[0] == package}
        listed = {line.split("`")[1].lstrip(".") for line in doc.splitlines()
                  if line.startswith("* :mod:`.")}
        assert held, package
        assert listed == held, package


def test_no_module_is_over_600_lines() -> None:
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in MODULES.items()
    }
    long = {name: n for name, n in lengths.items() if n > MAX_LINES}
    assert long == {}
    assert max(lengths.values()) > 0


MAX_FUNCTION_LINES = 100


def function_lengths() -> dict[str, int]:
    """Every function and method (nested ones too) by dotted name: its lines, decorators
    left out, docstring and comments counted."""
    out: dict[str, int] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}.{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    out[name] = child.end_lineno - child.lineno + 1
                walk(child, name)
            else:
                walk(child, prefix)

    for module, path in MODULES.items():
        walk(ast.parse(path.read_text(encoding="utf-8")), module)
    return out


def test_no_function_is_over_100_lines() -> None:
    lengths = function_lengths()
    assert lengths["tavern_dice.games.game"] > 1  # the walk sees module-level functions
    long = {name: n for name, n in lengths.items() if n > MAX_FUNCTION_LINES}
    assert long == {}, f"over {MAX_FUNCTION_LINES} lines: {long}"


MAX_CREATE_APP_LINES = 60


def test_create_app_only_assembles_the_routers() -> None:
    # The routes live in web/routes, one router a job; create_app wires them together.
    lengths = function_lengths()
    assert 10 < lengths["tavern_dice.web.app.create_app"] <= MAX_CREATE_APP_LINES
    assert not [name for name in lengths if name.startswith("tavern_dice.web.app.create_app.")]
