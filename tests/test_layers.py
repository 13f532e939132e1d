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
    ("domain", ("bot", "cogs", "discord", "aiosqlite")),
    ("bot/services", ("discord", "cogs", "bot.ui")),
    ("bot/store", ("discord", "cogs", "bot.services", "bot.ui")),
    ("bot/ui", ("bot.store", "bot.services.base", "aiosqlite", "cogs")),
    ("cogs", ("bot.store", "aiosqlite", "sqlite3")),
)


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
