"""A JSON or TOML text that does not parse is told by a place and a code the catalogs name,
never by the parser's English ("Expecting value", "Invalid statement")."""

from __future__ import annotations

import json
import tomllib

import pytest

from bot.i18n import catalog, t
from domain.syntax import SYNTAX_PROBLEMS, SyntaxProblem, json_problem, toml_problem


def json_of(text: str) -> SyntaxProblem:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    return json_problem(caught.value)


def toml_of(text: str) -> SyntaxProblem:
    with pytest.raises(tomllib.TOMLDecodeError) as caught:
        tomllib.loads(text)
    return toml_problem(caught.value)


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("bad", "value", 1, 1),
        ('{"rounds": 3,\n', "property_name", 2, 1),
        ('{"rounds" 3}', "colon", 1, 11),
        ('{"rounds": 3 "players": []}', "comma", 1, 14),
        ('{"rounds": "3', "unterminated_string", 1, 12),
        ('{"a": "x\ny"}', "control_character", 1, 9),
        ('{"a": "\\q"}', "escape", 1, 8),
        ("{} {}", "extra_data", 1, 4),
    ],
)
def test_json_problems(text: str, code: str, line: int, column: int) -> None:
    assert json_of(text) == SyntaxProblem(code, line, column)


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("foo = \n", "value", 1, 7),
        ("x\n", "equals", 1, 2),
        ("x", "equals", None, None),
        ("a = 1 b = 2\n", "newline", 1, 7),
        ("= 1\n", "statement", 1, 1),
        ("a = [1, 2\n", "unclosed_array", None, None),
        ("a = {b = 1\n", "unclosed_table", 1, 11),
        ('a = "x\n', "control_character", 1, 7),
        ('a = "x', "unterminated_string", None, None),
        ("a = 1\na = 2\n", "twice", 2, 6),
        ("[[limit]\n", "table_header", 1, 8),
        ('a = "\\q"\n', "escape", 1, 8),
        ("a = 2014-02-30\n", "date", 1, 5),
    ],
)
def test_toml_problems(text: str, code: str, line: int | None, column: int | None) -> None:
    assert toml_of(text) == SyntaxProblem(code, line, column)


def test_every_problem_is_named_in_both_languages() -> None:
    for code in SYNTAX_PROBLEMS:
        for lang in ("ja", "en"):
            assert f"syntax.{code}" in catalog(lang), (code, lang)
    assert t("syntax.value", "ja") != t("syntax.value", "en")
