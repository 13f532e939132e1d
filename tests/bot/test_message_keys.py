"""Every message key the code names exists in both catalogs: a missing one would reach a
user as an "unexpected error" instead of the clear message it stands for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.i18n import catalog
from domain.tournament.operations import operation_types
from tests.conftest import REPO_ROOT

KEY = re.compile(r"^[a-z_]+(\.[a-z_0-9]+){1,4}$")


def named_keys() -> set[tuple[str, str]]:
    """(file, key) for each string in the code that looks like a catalog key."""
    namespaces = {key.split(".")[0] for key in catalog("ja")}
    found = set()
    for folder in ("domain", "bot", "cogs"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                text = node.value if isinstance(node, ast.Constant) else None
                if (
                    isinstance(text, str)
                    and KEY.match(text)
                    and text.split(".")[0] in namespaces
                    and not text.endswith(("_", ".png"))  # f-string stems, file names
                ):
                    found.add((str(Path(path).relative_to(REPO_ROOT)), text))
    return found


def test_every_named_key_has_its_japanese_and_english_text() -> None:
    ja, en = catalog("ja"), catalog("en")
    missing = sorted((path, key) for path, key in named_keys() if key not in ja or key not in en)
    assert missing == []


def test_the_scan_finds_keys() -> None:
    keys = {key for _, key in named_keys()}
    assert {"tournament.bad_noshow_tiebreak", "report.time_needs_points"} <= keys


def test_every_operation_has_its_label_in_the_action_log() -> None:
    # The log, /undo's question and its answer name each operation by `ui.log.kind.<kind>`
    # (built from the kind, so the scan above cannot see it); a kind without a label would
    # show as its code, e.g. 「extend_round」.
    kinds = {f"ui.log.kind.{kind}" for kind in operation_types()}
    for lang in ("ja", "en"):
        assert sorted(kinds - set(catalog(lang))) == [], lang
