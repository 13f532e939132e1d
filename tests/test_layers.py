"""The layer table of DESIGN.md, enforced: who may import whom.

An AST walk over every module (imports inside functions and TYPE_CHECKING blocks count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

# (folder, import prefixes it must never use)
FORBIDDEN: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("domain", ("bot", "cogs", "discord", "aiosqlite", "asyncpg")),
    ("bot/services", ("discord", "cogs", "bot.ui", "aiosqlite", "asyncpg")),
    ("bot/store", ("discord", "cogs", "bot.services", "bot.ui", "bot.config")),
    ("bot/ui", ("bot.store", "bot.services.base", "aiosqlite", "asyncpg", "cogs")),
    ("cogs", ("bot.store", "aiosqlite", "asyncpg", "sqlite3")),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def violations(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        for module in imported_modules(path):
            if any(module == prefix or module.startswith(prefix + ".") for prefix in forbidden):
                found.append(f"{path.relative_to(REPO_ROOT)} imports {module}")
    return found


@pytest.mark.parametrize(("folder", "forbidden"), FORBIDDEN, ids=[f for f, _ in FORBIDDEN])
def test_layer_imports(folder: str, forbidden: tuple[str, ...]) -> None:
    assert violations(folder, forbidden) == []


def test_the_walk_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.store.tournaments import load_tournament\n"
        "def f():\n    import discord\n",
        encoding="utf-8",
    )
    assert imported_modules(module) >= {"bot.store.tournaments", "discord"}


def import_graph(folder: str) -> dict[str, set[str]]:
    """Module → the modules of `folder` it imports (`from a import b` of a submodule b is
    an import of a.b), at any depth: in functions and TYPE_CHECKING blocks too."""
    paths = sorted((REPO_ROOT / folder).rglob("*.py"))
    modules = {module_name(path) for path in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    # A submodule's package is imported first anyway, as for any import.
                    found.add(submodule if submodule in modules else node.module)
        graph[module_name(path)] = {name for name in found if name in modules}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (or one importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_the_domain_has_no_import_circle() -> None:
    assert import_cycles(import_graph("domain")) == []


def test_the_cycle_finder_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c"], ["e"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []
