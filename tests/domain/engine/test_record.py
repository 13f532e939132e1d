"""Tournament records (the `replay` input): parsing, errors naming the entry, and a replay
of a simulated event reproducing its standings (R-FMT-4, R-FMT-7, R-MATCH-2..4, R-PEN-3)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine import (
    MatchResult,
    ResultKind,
    TournamentRecord,
    parse_record,
    parse_result,
    result_token,
    simulate,
)
from domain.engine.record import read_record
from domain.errors import InvalidInput

GOOD: dict[str, Any] = {
    "rounds": 5,
    "players": ["alice", "bob", "carol"],
    "matches": [
        {"round": 1, "players": ["alice", "bob"], "result": "alice"},
        {"round": 1, "players": ["carol"], "result": "bye"},
        {"round": 2, "players": ["carol", "alice"], "result": "judge:carol"},
        {"round": 2, "players": ["bob"], "result": "bye"},
        {"round": 3, "players": ["bob", "carol"], "result": "draw"},
        {"round": 3, "players": ["alice"], "result": "bye"},
    ],
    "drops": [{"player": "bob", "after_round": 3}],
}


def test_the_example_record_replays() -> None:
    # R-FMT-4: 7.5 per bye in a 5-round event; R-FMT-7: bob dropped, still listed.
    standings = parse_record(GOOD).standings()
    rows = {row.player: row for row in standings}
    assert rows["carol"].points == 3 + 2 + 1
    assert rows["alice"].points == 3 + 0 + 3
    assert rows["bob"].points == 0 + 3 + 1
    assert rows["bob"].dropped
    assert float(rows["carol"].opponents_points) == 7.5 + rows["alice"].points + rows["bob"].points
    assert [row.rank for row in standings] == [1, 1, 3]


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        ("alice", ResultKind.WIN),
        ("judge:bob", ResultKind.JUDGEMENT),  # R-MATCH-2
        ("draw", ResultKind.TIME_DRAW),  # R-MATCH-2 / R-MATCH-3: only a time draw
        ("double_loss", ResultKind.DOUBLE_LOSS),  # R-PEN-3
        ("concede:alice", ResultKind.CONCESSION),  # R-MATCH-4
    ],
)
def test_result_tokens_round_trip(token: str, kind: ResultKind) -> None:
    result = parse_result(token, ("alice", "bob"))
    assert result.kind is kind
    assert result_token(result, ("alice", "bob")) == token


def test_a_no_show_keeps_its_own_token_and_an_old_export_reads_as_a_win() -> None:
    # R-MATCH-6 with R-FMT-4: the no-show tiebreak setting needs to know which wins were
    # against an absent player, so the token says so.
    assert result_token(MatchResult.no_show("bob"), ("alice", "bob")) == "no_show:bob"
    assert parse_result("no_show:bob", ("alice", "bob")) == MatchResult.no_show("bob")
    # Exports written before wrote the other player's win: they still read (as a win).
    assert parse_result("alice", ("alice", "bob")) == MatchResult.win("alice")


def broken(path: str, value: object) -> dict[str, Any]:
    record = copy.deepcopy(GOOD)
    target: Any = record
    *parents, last = path.split(".")
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    return record


@pytest.mark.parametrize(
    ("record", "key", "params"),
    [
        (
            broken("matches.2.players", ["carol", "zed"]),
            "engine.record.unknown_player",
            {"index": 2, "round": 2, "player": "zed"},
        ),
        (
            broken("matches.3.players", ["alice"]),
            "engine.record.player_twice",
            {"index": 3, "round": 2, "player": "alice"},
        ),
        (
            broken("matches.4.result", "agreed_draw"),  # R-MATCH-3: no agreed draw
            "engine.record.unknown_result",
            {"index": 4, "round": 3, "result": "agreed_draw"},
        ),
        (
            broken("matches.4.result", "judge:alice"),
            "engine.record.bad_result",
            {"index": 4, "round": 3, "result": "judge:alice"},
        ),
        (
            broken("matches.1.result", "carol"),
            "engine.record.bad_result",
            {"index": 1, "round": 1, "result": "carol"},
        ),
        (
            broken("matches.0.round", 6),
            "engine.record.bad_round",
            {"index": 0, "round": "6"},
        ),
        (
            broken("drops.0.after_round", 1),  # R-FMT-7: a dropped player is not paired again
            "engine.record.dropped_player",
            {"index": 3, "round": 2, "player": "bob"},
        ),
        (broken("matches.5", "x"), "engine.record.bad_match", {"index": 5, "round": "?"}),
        (broken("players", ["a", "a"]), "engine.record.duplicate_player", {"player": "a"}),
        (broken("rounds", 0), "engine.record.bad_rounds", {"value": "0"}),
        (
            broken("drops.0.player", "zed"),
            "engine.record.unknown_drop",
            {"index": 0, "player": "zed"},
        ),
    ],
)
def test_bad_entries_are_named(record: dict[str, Any], key: str, params: dict[str, object]) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_record(record)
    assert caught.value.key == key
    assert dict(caught.value.params) == params


def test_a_missing_round_count_is_named_and_a_bad_one_shown_as_json_writes_it() -> None:
    with pytest.raises(InvalidInput) as missing:
        parse_record({})
    assert missing.value.key == "engine.record.missing_rounds"
    for value, shown in ((None, "null"), ("3", '"3"'), (True, "true")):
        with pytest.raises(InvalidInput) as bad:
            parse_record({"rounds": value})
        assert bad.value.params == {"value": shown}


def test_not_an_object() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_record([1, 2])
    assert caught.value.key == "engine.record.not_an_object"


@pytest.mark.parametrize(("players", "rounds", "seed"), [(9, 4, 1), (64, 6, 2), (33, None, 3)])
def test_replaying_a_simulated_event_reproduces_its_standings(
    players: int, rounds: int | None, seed: int
) -> None:
    # R-FMT-4 / R-FMT-5: the record alone rebuilds the same standings.
    event = simulate(players, rounds, seed=seed)
    replayed = parse_record(event.record.to_json())
    assert isinstance(replayed, TournamentRecord)
    assert replayed.standings() == event.standings()


# --- reading a record from JSON text ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[" * 100_000, "engine.record.too_deep"),
        ('{"a": ' * 100_000, "engine.record.too_deep"),
        ('{"rounds": ' + "9" * 5000 + "}", "engine.record.number_too_long"),
        ('{"rounds": 3,', "engine.record.bad_json"),
        ("", "engine.record.bad_json"),
    ],
    ids=["nested arrays", "nested objects", "long integer", "cut short", "empty"],
)
def test_unreadable_json_is_a_typed_error(text: str, key: str) -> None:
    # The json module raises RecursionError and ValueError for these: both were tracebacks.
    with pytest.raises(InvalidInput) as caught:
        read_record(text)
    assert caught.value.key == key


def test_read_record_reads_the_example_record() -> None:
    assert read_record(json.dumps(GOOD)) == parse_record(GOOD)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
_record_like = st.fixed_dictionaries(
    {},
    optional={
        "rounds": st.integers(-2, 6) | _json,
        "players": st.lists(st.sampled_from(["alice", "bob", "carol", ""]), max_size=4) | _json,
        "matches": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "round": st.integers(0, 6) | _json,
                    "players": st.lists(st.sampled_from(["alice", "bob", "zed"]), max_size=3),
                    "result": st.sampled_from(
                        ["alice", "bob", "draw", "bye", "double_loss", "judge:bob", "concede:x"]
                    )
                    | _json,
                },
            ),
            max_size=6,
        )
        | _json,
        "drops": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "player": st.sampled_from(["alice", "zed"]) | _json,
                    "after_round": _json,
                },
            ),
            max_size=2,
        )
        | _json,
    },
)


@settings(max_examples=300, deadline=None)
@given(_record_like | _json)
def test_any_json_is_a_record_or_a_typed_error(data: object) -> None:
    # Every failure of the replay reader is InvalidInput with a message key.
    try:
        read_record(json.dumps(data))
    except InvalidInput as error:
        assert error.key.startswith("engine.")  # noqa: PT017


def test_replay_of_deeply_nested_json_exits_2_in_both_languages(tmp_path: Path) -> None:
    # Hostile input: `python -m bot replay` on 100,000 nested [ printed a traceback.
    from tests.domain.engine.test_cli import run_cli

    record = tmp_path / "deep.json"
    record.write_text("[" * 100_000, encoding="utf-8")
    result = run_cli("replay", str(record), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert "入れ子が深すぎます" in result.stderr
    assert "nested too deeply" in result.stderr


# --- the top cut, the no-show tiebreak and disqualifications (R-FMT-1, R-MATCH-6) --------

TOP_CUT: dict[str, Any] = {
    "rounds": 2,
    "players": ["alice", "bob", "carol", "dave"],
    "matches": [
        {"round": 1, "players": ["alice", "bob"], "result": "alice"},
        {"round": 1, "players": ["carol", "dave"], "result": "no_show:dave"},
        {"round": 2, "players": ["alice", "carol"], "result": "alice"},
        {"round": 2, "players": ["bob", "dave"], "result": "bob"},
    ],
    "drops": [{"player": "dave", "after_round": 3, "disqualified": True}],
    "noshow_tiebreak": "bye_value",
    "top_cut": [
        {
            "round": 3,
            "matches": [
                {"players": ["alice", "dave"], "result": "draw", "advancing": "dave"},
                {"players": ["bob", "carol"], "result": "carol"},
            ],
        },
        {"round": 4, "matches": [{"players": ["carol"], "result": "bye"}]},
    ],
    "finished": True,
}


def test_a_finished_top_cut_replays_to_its_final_placings_r_fmt_1() -> None:
    # dave went on from a drawn semifinal (the judge's choice, R-FMT-1), then was
    # disqualified (R-PEN-4): carol won the final with a bye, dave is the runner-up.
    record = parse_record(TOP_CUT)
    placed = [(p.player, p.rank, p.top_cut.best if p.top_cut else None) for p in record.placings()]
    assert placed == [("carol", 1, 1), ("dave", 2, 2), ("alice", 3, 4), ("bob", 3, 4)]
    rows = {row.player: row for row in record.standings()}
    assert rows["dave"].status.value == "disqualified"
    # R-MATCH-6 with R-FMT-4, `bye_value`: carol's absent opponent counts 3 × 2 ÷ 2.
    assert rows["carol"].opponents_points == 3 + rows["alice"].points
    assert parse_record(record.to_json()).placings() == record.placings()


@pytest.mark.parametrize(
    ("path", "value", "key"),
    [
        ("noshow_tiebreak", "half", "engine.record.bad_noshow_tiebreak"),
        ("finished", "yes", "engine.record.bad_finished"),
        ("top_cut", {}, "engine.record.bad_top_cut"),
        ("top_cut.1.round", 3, "engine.record.top_cut_out_of_order"),
        ("top_cut.0.round", 2, "engine.record.top_cut_before_swiss"),
        (
            "top_cut.1.matches",
            [{"players": []}, {"players": []}],
            "engine.record.top_cut_not_a_bracket",
        ),
        ("top_cut.1.matches.0.players", ["alice"], "engine.record.top_cut_not_advanced"),
        ("top_cut.0.matches.1.advancing", "bob", "engine.record.bad_top_cut_advancing"),
        ("top_cut.0.matches.1.players", ["bob", "zed"], "engine.record.unknown_top_cut_player"),
        ("top_cut.0.matches.1.players", ["alice", "carol"], "engine.record.top_cut_player_twice"),
        ("top_cut.0.matches.1.result", "dave", "engine.record.bad_top_cut_result"),
        ("top_cut.1.matches.0", {"players": ["dave", "carol"]}, "engine.record.top_cut_unfinished"),
        ("drops.0.disqualified", "yes", "engine.record.bad_drop"),
    ],
)
def test_bad_top_cut_entries_are_named(path: str, value: object, key: str) -> None:
    record = copy.deepcopy(TOP_CUT)
    target: Any = record
    *parents, last = path.split(".")
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[int(last) if last.isdigit() else last] = value
    with pytest.raises(InvalidInput) as caught:
        parse_record(record)
    assert caught.value.key == key


_top_cut_like = st.fixed_dictionaries(
    {"rounds": st.just(2), "players": st.just(["alice", "bob", "carol", "dave"])},
    optional={
        "noshow_tiebreak": st.sampled_from(["real_points", "bye_value", "x"]) | _json,
        "finished": st.booleans() | _json,
        "top_cut": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "round": st.integers(0, 5) | _json,
                    "matches": st.lists(
                        st.fixed_dictionaries(
                            {},
                            optional={
                                "players": st.lists(
                                    st.sampled_from(["alice", "bob", "carol", "zed"]), max_size=3
                                )
                                | _json,
                                "result": st.sampled_from(
                                    ["alice", "draw", "bye", "double_loss", "no_show:bob"]
                                )
                                | _json,
                                "advancing": st.sampled_from(["alice", "bob"]) | _json,
                            },
                        ),
                        max_size=4,
                    )
                    | _json,
                },
            ),
            max_size=3,
        )
        | _json,
    },
)


@settings(max_examples=300, deadline=None)
@given(_top_cut_like.map(lambda d: {**d, "matches": []}))
def test_any_top_cut_is_a_record_or_a_typed_error(data: object) -> None:
    try:
        parse_record(data).placings()
    except InvalidInput as error:
        assert error.key.startswith("engine.")  # noqa: PT017
