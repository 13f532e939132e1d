"""Importing entries from a CSV: every row checked, each refusal named with its
line, all or nothing; UTF-8 (with or without a BOM) and Shift_JIS."""

from __future__ import annotations

import codecs
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.players import PlayerStatus
from domain.entry_import import (
    MAX_IMPORT_BYTES,
    MAX_IMPORT_ROWS,
    ImportedEntry,
    plan_import,
    plan_tournament_import,
)
from domain.errors import IllegalTransition, InvalidInput
from domain.tournament.model import Entry
from tests.domain.tournament.support import T0, new_tournament

YUI, MIO, RITSU, MUGI, AZUSA = (
    100000000000000001,
    100000000000000002,
    100000000000000003,
    100000000000000004,
    100000000000000005,
)
MEMBERS = {YUI, MIO, RITSU, MUGI, AZUSA}
NAMES = {
    "yui": [YUI],
    "平沢唯": [YUI],
    "mio": [MIO],
    "ritsu": [RITSU],
    "mugi": [MUGI, AZUSA],  # two members share this name
    "azusa": [AZUSA],
}

FORM = f"""タイムスタンプ,Discord ID,Discordの名前,ハンドルネーム,使用デッキ
2026/12/01 10:00:00,{YUI},yui,ゆい,けいおん！
2026/12/01 10:05:00,,mio,澪,けいおん！
2026/12/01 10:07:00,<@{RITSU}>,,,けいおん！
"""


def plan(data: bytes | str, **options: object):  # type: ignore[no-untyped-def]
    values: dict[str, object] = {"names": NAMES, "members": MEMBERS}
    values.update(options)
    return plan_import(data, **values)  # type: ignore[arg-type]


def reasons(data: bytes | str, **options: object) -> list[tuple[int, str]]:
    return [(problem.line, problem.key) for problem in plan(data, **options).refused]


def test_a_google_forms_export_is_read_by_its_header() -> None:
    result = plan(FORM)
    assert result.accepted
    assert result.entries == (
        ImportedEntry(2, YUI, "ゆい"),
        ImportedEntry(3, MIO, "澪"),
        ImportedEntry(4, RITSU, None),
    )
    assert result.require_accepted() == result.entries


@pytest.mark.parametrize(
    "encoded",
    [
        FORM.encode("utf-8"),
        codecs.BOM_UTF8 + FORM.encode("utf-8"),
        FORM.encode("cp932"),  # Excel in Japan
        FORM.replace("\n", "\r\n").encode("cp932"),
    ],
    ids=["utf-8", "utf-8-bom", "shift_jis", "shift_jis-crlf"],
)
def test_every_encoding_reads_the_same(encoded: bytes) -> None:
    assert plan(encoded) == plan(FORM)


def test_without_a_header_the_columns_are_player_then_handle() -> None:
    result = plan(f"yui,ゆい\n{MIO}\n平沢唯,\n")
    assert [(e.line, e.player_id, e.handle) for e in result.entries] == [
        (1, YUI, "ゆい"),
        (2, MIO, None),
    ]
    assert [(p.line, p.key) for p in result.refused] == [(3, "entry_import.row.duplicate")]
    assert result.refused[0].params == {"first": 1}


def test_a_first_row_naming_a_member_is_not_taken_for_a_header() -> None:
    names = {**NAMES, "Discord太郎": [AZUSA]}
    result = plan("Discord太郎\nyui\n", names=names)
    assert [e.player_id for e in result.entries] == [AZUSA, YUI]


def test_each_refused_row_is_named_with_its_line_and_reason() -> None:
    text = (
        "Discord ID,名前,ハンドルネーム\n"  # 1
        ",,\n"  # 2: empty, skipped silently
        ",,ゆい\n"  # 3
        "12345,,\n"  # 4
        f"{999999999999999999},,\n"  # 5
        ",nobody,\n"  # 6
        ",mugi,\n"  # 7
        ",yui,ゆい\n"  # 8
        ",YUI,\n"  # 9: the same member as line 8 (names compare as people read them)
        ',mio,"あずにゃん\u202e"\n'  # 10
        ",ritsu,ゆい\n"  # 11: the handle of line 8
        ',"ri\x07tsu",\n'  # 12
        f",{'x' * 40},\n"  # 13
    )
    assert reasons(text) == [
        (3, "entry_import.row.missing_player"),
        (4, "entry_import.row.bad_id"),
        (5, "entry_import.row.not_a_member"),
        (6, "entry_import.row.unknown_name"),
        (7, "entry_import.row.ambiguous_name"),
        (9, "entry_import.row.duplicate"),
        (10, "event.name_hidden_characters"),
        (11, "entry_import.row.duplicate_handle"),
        (12, "event.name_control_characters"),
        (13, "event.name_too_long"),
    ]
    refused = plan(text)
    assert not refused.accepted
    with pytest.raises(InvalidInput) as stopped:
        refused.require_accepted()
    assert stopped.value.key == "entry_import.refused"
    assert stopped.value.params["lines"] == [3, 4, 5, 6, 7, 9, 10, 11, 12, 13]
    ambiguous = next(p for p in refused.refused if p.line == 7)
    assert ambiguous.params == {"name": "mugi", "count": 2}


def test_a_quoted_cell_over_two_lines_keeps_the_line_numbers_right() -> None:
    text = f'ID,handle\n{YUI},"ゆ\nい"\n12,x\n'
    # The handle folds its line break to a space; the bad id is on line 4 of the file.
    result = plan(text)
    assert result.entries == (ImportedEntry(2, YUI, "ゆ い"),)
    assert [(p.line, p.key) for p in result.refused] == [(4, "entry_import.row.bad_id")]


def test_a_handle_another_player_has_is_refused() -> None:
    assert reasons(f"{MIO},ゆい\n", handles={YUI: "ゆい"}) == [(1, "handle.taken")]
    assert plan(f"{YUI},ゆい\n", handles={YUI: "ゆい"}).accepted


def test_players_already_entered_are_skipped_not_refused() -> None:
    result = plan(FORM, entered={YUI})
    assert result.accepted
    assert [e.player_id for e in result.entries] == [MIO, RITSU]
    assert [(p.line, p.key) for p in result.skipped] == [(2, "entry_import.row.already_entered")]
    assert [p.line for p in result.problems()] == [2]


def test_rows_past_the_capacity_are_refused() -> None:
    assert reasons(FORM, capacity=2) == [(4, "entry_import.row.over_capacity")]
    assert plan(FORM, capacity=2).refused[0].params == {"limit": 2}
    assert plan(FORM, capacity=3).accepted


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"\x81 \xff", "entry_import.unreadable"),  # neither UTF-8 nor Shift_JIS
        (b"x" * (MAX_IMPORT_BYTES + 1), "entry_import.too_large"),
        ("\n".join(str(YUI) for _ in range(MAX_IMPORT_ROWS + 2)), "entry_import.too_many_rows"),
        ("\n , \n", "entry_import.empty"),
        ("Discord ID,ハンドルネーム\n", "entry_import.empty"),
        ("タイムスタンプ,ハンドルネーム\n2026/12/01,ゆい\n", "entry_import.no_player_column"),
        (f"{YUI}\n{'x' * 140_000}\n", "entry_import.bad_csv"),  # past the csv field limit
    ],
    ids=["unreadable", "too-large", "too-many-rows", "empty", "header-only", "no-player", "field"],
)
def test_a_file_that_cannot_be_read_is_refused_whole(data: bytes | str, key: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        plan(data)
    assert refused.value.key == key


def test_a_tournament_gives_its_entries_capacity_and_rules() -> None:
    tournament = new_tournament(max_players=3)
    players = {
        YUI: Entry(YUI, "yui", PlayerStatus.REGISTERED, 1, T0),
        MIO: Entry(MIO, "mio", PlayerStatus.DISQUALIFIED, 2, T0),
        RITSU: Entry(RITSU, "ritsu", PlayerStatus.DROPPED, 3, T0),  # unregistered: may return
    }
    tournament = replace(tournament, players=players)
    result = plan_tournament_import(FORM, tournament, names=NAMES, members=MEMBERS)
    assert [(p.line, p.key) for p in result.skipped] == [(2, "entry_import.row.already_entered")]
    assert [(p.line, p.key) for p in result.refused] == [(3, "registration.disqualified")]
    assert [e.player_id for e in result.entries] == [RITSU]
    full = replace(tournament, config=replace(tournament.config, max_players=1))
    refused = plan_tournament_import(FORM, full, names=NAMES, members=MEMBERS).refused
    assert [(p.line, p.key, p.params.get("limit")) for p in refused][-1] == (
        4,
        "entry_import.row.over_capacity",
        0,
    )


def test_a_started_tournament_takes_no_import() -> None:
    from domain.engine.state import Phase

    started = new_tournament()
    started = replace(started, state=replace(started.state, phase=Phase.RUNNING))
    with pytest.raises(IllegalTransition) as closed:
        plan_tournament_import(FORM, started, names=NAMES, members=MEMBERS)
    assert closed.value.key == "registration.closed"


ROW = st.one_of(
    st.sampled_from([str(member) for member in sorted(MEMBERS)]),
    st.sampled_from(sorted(NAMES)),
    st.sampled_from(["nobody", "123", "", "x" * 40]),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(ROW, st.sampled_from(["", "ゆい", "澪", "りっちゃん"])), max_size=12),
    st.sampled_from([None, 0, 2, 5]),
    st.sets(st.sampled_from(sorted(MEMBERS)), max_size=2),
)
def test_every_row_is_accounted_for_once(
    rows: list[tuple[str, str]], capacity: int | None, entered: set[int]
) -> None:
    text = "".join(f"{player},{handle}\n" for player, handle in rows)
    if not any(player or handle for player, handle in rows):
        with pytest.raises(InvalidInput, match=r"entry_import\.empty"):
            plan(text, capacity=capacity, entered=entered)
        return
    result = plan(text, capacity=capacity, entered=entered)
    lines = [e.line for e in result.entries] + [p.line for p in result.problems()]
    # A row whose first cell names a member may be taken as a header: never a player lost.
    body = [n for n, (player, handle) in enumerate(rows, start=1) if player or handle]
    assert sorted(lines) == body
    players = [e.player_id for e in result.entries]
    assert len(players) == len(set(players))
    assert not set(players) & entered
    assert capacity is None or len(players) <= capacity
    assert plan(text.encode("cp932"), capacity=capacity, entered=entered) == result
