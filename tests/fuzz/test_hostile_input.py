"""Hostile input for every parser behind `python -m bot`: decklists (uploaded and
stored), titles files, restricted lists, card databases and replay/export records.

Whatever the bytes, a parser returns a value or raises its typed, keyed error (a
`DomainError` subclass: `DecklistError`, `DataFileError`, `InvalidInput`), never another
exception: a user's file must never become a traceback.

Inputs are random text and bytes, and mutations of the real example files (lines dropped,
repeated, swapped, cut, or spliced with random text), which reach deeper than noise does.

CI runs a few hundred cases per parser; the dedicated run is
    FUZZ_EXAMPLES=10000 .venv/bin/python -m pytest tests/fuzz -q
(README, "Development").
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.decks.carddb import load_card_database
from domain.decks.errors import DataFileError, DecklistError
from domain.decks.parsing import parse_decklist
from domain.decks.restricted import load_restricted_list
from domain.decks.stored import read_stored_decklist
from domain.decks.titles import load_titles
from domain.engine.record import read_record
from domain.errors import DomainError, InvalidInput
from tests.conftest import REPO_ROOT

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,  # a long run should not grow the shared example database
)

DATA = REPO_ROOT / "data"
DECK_CSV = (DATA / "examples" / "keion.csv").read_text(encoding="utf-8")
DECK_TXT = (DATA / "examples" / "keion.txt").read_text(encoding="utf-8")
DECK_MIX = (DATA / "examples" / "mix-two.txt").read_text(encoding="utf-8")
TITLES = (DATA / "titles.toml").read_text(encoding="utf-8")
RESTRICTED = (DATA / "restricted" / "example.toml").read_text(encoding="utf-8")
CARD_DB = (
    "title,number,name,type,release_date,product\n"
    "けいおん！,01-001,平沢 唯,キャラクター,2010-05-01,ブースター\n"
    "けいおん！,01-001a,平沢 唯,キャラクター,2010/5/1,パラレル\n"
    "ゆるゆり,01-046,歳納京子,イベント,2012-03-03,\n"
)
RECORD = json.dumps(
    {
        "rounds": 2,
        "players": ["A", "B", "C"],
        "drops": [{"player": "C", "after_round": 2}],
        "matches": [
            {"round": 1, "players": ["A", "B"], "result": "A"},
            {"round": 1, "players": ["C"], "result": "bye"},
            {"round": 2, "players": ["A", "B"], "result": "draw"},
        ],
    },
    ensure_ascii=False,
)

# Characters that break naive parsers: separators, quotes, brackets of TOML and JSON,
# full-width forms, BOMs, line and paragraph separators, surrogates' neighbours, NUL.
NASTY = st.sampled_from(
    [
        *",\t\"'=[]{}#:;\\\n\r\x00\x0b\x0c\x1c\x85\u2028\u2029\ufeff\ufffd",
        *["１", "，", "：", "＃", "【", "】", "×", "x", "枚", "-", "01-", "9" * 30, "-0", "1e999"],
        *["[[title]]", "[[limit]]", "[[group]]", "name =", "aliases = [", '"""', "'''"],
        *["count,title,number,name", "合計", "NaN", "true", "null", "{}", "[]", "\\u0000"],
    ]
)
NOISE = st.lists(
    st.one_of(st.characters(codec="utf-8", exclude_categories=("Cs",)), NASTY), max_size=30
).map("".join)


@st.composite
def mutated(draw: st.DrawFn, sample: str) -> str:
    """A real file with a few lines dropped, repeated, swapped, cut or spliced with noise."""
    lines = sample.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            lines = [draw(NOISE)]
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(("drop", "repeat", "swap", "cut", "splice", "replace")))
        if action == "drop":
            del lines[index]
        elif action == "repeat":
            lines[index:index] = [lines[index]] * draw(st.integers(1, 3))
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        elif action == "cut":
            line = lines[index]
            lines[index] = line[: draw(st.integers(0, len(line)))]
        elif action == "splice":
            line = lines[index]
            at = draw(st.integers(0, len(line)))
            lines[index] = line[:at] + draw(NOISE) + line[at:]
        else:
            lines[index] = draw(NOISE) + "\n"
    return "".join(lines)


def hostile(*samples: str) -> st.SearchStrategy[str | bytes]:
    """Text or bytes: noise, or a mutated real file, or its bytes in another encoding."""
    texts = st.one_of(NOISE, st.text(max_size=200), *(mutated(s) for s in samples))
    encoded = texts.flatmap(
        lambda text: st.sampled_from(
            [
                text.encode("utf-8", "surrogatepass"),
                ("\ufeff" + text).encode("utf-8"),
                text.encode("cp932", "ignore"),
                text.encode("utf-16", "surrogatepass"),
            ]
        )
    )
    return st.one_of(texts, encoded, st.binary(max_size=200))


def as_text(data: str | bytes) -> str:
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def only_typed(parse: Callable[[], object], allowed: type[DomainError]) -> None:
    """`parse` returns, or raises `allowed` carrying a message key; nothing else."""
    key = "parsed"
    try:
        parse()
    except allowed as error:
        key = error.key
    # Any other exception propagates and fails the test with its traceback.
    assert "." in key or key == "parsed", key


@FUZZ
@given(hostile(DECK_CSV, DECK_TXT, DECK_MIX), st.sampled_from([None, "deck.csv", "d.tsv", "d.txt"]))
def test_parse_decklist_raises_only_decklist_errors(
    data: str | bytes, filename: str | None
) -> None:
    only_typed(lambda: parse_decklist(data, filename=filename), DecklistError)


@FUZZ
@given(hostile(DECK_TXT).map(as_text) | mutated(parse_decklist(DECK_CSV).canonical_csv()))
def test_read_stored_decklist_raises_only_decklist_errors(text: str) -> None:
    only_typed(lambda: read_stored_decklist(text), DecklistError)


@FUZZ
@given(hostile(TITLES))
def test_load_titles_raises_only_data_file_errors(data: str | bytes) -> None:
    only_typed(lambda: load_titles(data), DataFileError)


@FUZZ
@given(hostile(RESTRICTED))
def test_load_restricted_list_raises_only_data_file_errors(data: str | bytes) -> None:
    only_typed(lambda: load_restricted_list(data), DataFileError)


@FUZZ
@given(hostile(CARD_DB))
def test_load_card_database_raises_only_data_file_errors(data: str | bytes) -> None:
    only_typed(lambda: load_card_database(data), DataFileError)


@st.composite
def json_values(draw: st.DrawFn) -> object:
    """Well-formed JSON of the wrong shape, where a text mutation would stop at the syntax."""
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), NOISE)
    base = json.loads(RECORD)
    tree = st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NOISE, inner, max_size=4),
    )
    key = draw(st.sampled_from(["rounds", "players", "drops", "matches", "extra"]))
    if draw(st.booleans()):
        matches = base["matches"]
        index = draw(st.integers(0, len(matches) - 1))
        field = draw(st.sampled_from(["round", "players", "result", "table", "x"]))
        matches[index][field] = draw(tree | st.sampled_from(["A", "B", "C", "bye", "draw"]))
    else:
        base[key] = draw(tree)
    return base


@FUZZ
@given(
    hostile(RECORD).map(as_text)
    | json_values().map(lambda value: json.dumps(value, ensure_ascii=False, allow_nan=True))
    | st.integers(1, 5000).map(lambda depth: "[" * depth + "]" * depth)
)
def test_read_record_raises_only_invalid_input(text: str) -> None:
    only_typed(lambda: read_record(text), InvalidInput)


@pytest.mark.parametrize(
    ("parse", "sample"),
    [
        (parse_decklist, DECK_CSV),
        (load_titles, TITLES),
        (load_restricted_list, RESTRICTED),
        (load_card_database, CARD_DB),
        (read_record, RECORD),
    ],
)
def test_the_unmutated_samples_parse(parse: Callable[[str], object], sample: str) -> None:
    # Otherwise the mutations would start from a file that already fails on line one.
    assert parse(sample) is not None
