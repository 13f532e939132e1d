"""docs/ARCHITECTURE.md stays a true map: every file and folder it names exists, every test it
names is a test of the repository, and its table of floors is the layer test's `FLOORS`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.test_layers import FLOORS

MAP = REPO_ROOT / "docs" / "ARCHITECTURE.md"
CODE = re.compile(r"`([^`]+)`")
A_PATH = re.compile(r"^(?:domain|bot|cogs|migrations|tests|docs|bench)/[\w./{},-]*$")
A_TEST = re.compile(r"^test_\w+$")


def named(text: str, pattern: re.Pattern[str]) -> set[str]:
    prose = re.sub(r"```.*?```", "", text, flags=re.S)  # a fence would pair the wrong ticks
    return {code for code in CODE.findall(prose) if pattern.match(code)}


def expanded(path: str) -> list[str]:
    """`bot/locales/{ja,en}/` names two folders; `migrations/NNNN_name.sql` names a pattern."""
    braces = re.search(r"\{([^}]+)\}", path)
    if braces is None:
        return [path]
    return [
        path[: braces.start()] + choice + path[braces.end() :] for choice in braces[1].split(",")
    ]


def test_every_file_and_folder_named_exists() -> None:
    text = MAP.read_text(encoding="utf-8")
    paths = [one for path in named(text, A_PATH) if "NNNN" not in path for one in expanded(path)]
    assert len(paths) > 40
    missing = sorted(path for path in paths if not (REPO_ROOT / path).exists())
    assert missing == []


def test_every_test_named_is_a_test_of_the_repository() -> None:
    defined: set[str] = set()
    for path in (REPO_ROOT / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined |= {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    tests = named(MAP.read_text(encoding="utf-8"), A_TEST)
    assert len(tests) >= 5
    assert sorted(tests - defined) == []


def test_the_floors_are_the_layer_tests_floors() -> None:
    rows = [
        line.split("|")
        for line in MAP.read_text(encoding="utf-8").splitlines()
        if re.match(r"^\| \d+\. ", line)
    ]
    shown = [
        (
            cells[1].strip().split(". ", 1)[1],
            {Path(code).with_suffix("").as_posix().strip("/") for code in CODE.findall(cells[2])},
        )
        for cells in rows
    ]
    expected = [
        (name, {module.replace(".", "/") for module in modules if module != "bot"})
        for name, modules in FLOORS
    ]
    assert [name for name, _ in shown] == [name for name, _ in expected]
    for (name, files), (_, modules) in zip(shown, expected, strict=True):
        assert files == modules, name
