"""Where and why a JSON or TOML text does not parse, as a place and a code the catalogs
name (`syntax.<code>`): the parsers' own English ("Expecting value", "Invalid statement")
never reaches a reader."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass

# The parsers' messages (Python 3.11–3.14), by how they begin, each with its code; the
# longer beginning of two that share one comes first.
_JSON_PROBLEMS = (
    ("Expecting value", "value"),
    ("Expecting property name", "property_name"),
    ("Expecting ':'", "colon"),
    ("Expecting ','", "comma"),
    ("Unterminated string", "unterminated_string"),
    ("Invalid control character", "control_character"),
    ("Invalid \\", "escape"),
    ("Extra data", "extra_data"),
    ("Illegal trailing comma", "trailing_comma"),
)
_TOML_PROBLEMS = (
    ("Invalid statement", "statement"),
    ("Expected newline or end of document", "newline"),
    ("Expected '=' after a key", "equals"),
    ("Invalid initial character for a key", "key"),
    ("Invalid value", "value"),
    ("Unclosed array", "unclosed_array"),
    ("Unclosed inline table", "unclosed_table"),
    ("Unterminated string", "unterminated_string"),
    ("Illegal character", "control_character"),
    ("Unescaped '\\'", "escape"),
    ("Invalid hex value", "escape"),
    ("Escaped character", "escape"),
    ("Cannot declare", "twice"),
    ("Cannot overwrite", "twice"),
    ("Cannot mutate", "twice"),
    ("Cannot redefine", "twice"),
    ("Duplicate inline table key", "twice"),
    ("Expected ']]'", "table_header"),
    ("Expected ']'", "table_header"),
    ("Found invalid character", "character"),
    ("Invalid date or datetime", "date"),
)
SYNTAX_PROBLEMS = frozenset(code for _, code in _JSON_PROBLEMS + _TOML_PROBLEMS) | {"other"}
_TOML_PLACE = re.compile(
    r"^(?P<message>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$", re.S
)


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """What is wrong (a code of `SYNTAX_PROBLEMS`) and where: a line and a column counted
    from 1, or None for the end of the text."""

    code: str
    line: int | None
    column: int | None


def _code(message: str, table: tuple[tuple[str, str], ...]) -> str:
    for beginning, code in table:
        if message.startswith(beginning):
            return code
    return "other"


def json_problem(error: json.JSONDecodeError) -> SyntaxProblem:
    return SyntaxProblem(_code(error.msg, _JSON_PROBLEMS), error.lineno, error.colno)


def toml_problem(error: tomllib.TOMLDecodeError) -> SyntaxProblem:
    found = _TOML_PLACE.match(str(error))
    if found is None:
        return SyntaxProblem("other", None, None)
    line = found["line"]
    column = found["column"]
    return SyntaxProblem(
        _code(found["message"], _TOML_PROBLEMS),
        int(line) if line else None,
        int(column) if column else None,
    )
