"""Every notice the plan makes can be said: an event played through the rules, planned, and
rendered in both languages, gives messages that name what happened. A renderer that reads a
field its plan row does not write fails here, not in a running bot."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from bot.notify.payloads import CallReping, Dispute, OfCall, OfRound, OfTables, TableInRound
from bot.notify.plan import (
    Context,
    Notice,
    Place,
    Say,
    notice_dropped,
    notice_nowhere,
    place_refused,
    plan,
    plan_clock,
    plan_reminder,
    refusals_warning,
    rooms_refused,
    tables_by_dm,
)
from bot.ui.notices import RENDERERS, Message, Telling
from domain.engine.results import MatchResult
from domain.event import EventFormat
from domain.tournament import events as ev
from domain.tournament.clock import call_notices, clock_notices
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    CallJudge,
    CancelTournament,
    ChangeSettings,
    CheckIn,
    ConfirmResult,
    DisputeResult,
    Drop,
    ExtendRound,
    ExtendTable,
    FinishTournament,
    GivePenalty,
    PublishDecks,
    Register,
    ReportResult,
    RevokePenalty,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
    Unregister,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.play import propose_round
from domain.tournament.reminders import due_reminders
from domain.tournament.rounds import Claim
from tests.domain.tournament.support import (
    JUDGE,
    ORGANIZER,
    Clock,
    new_tournament,
    player,
    submit,
)


def text_of(messages: list[Message]) -> str:
    parts = []
    for message in messages:
        parts.append(message.content or "")
        for embed in message.embeds:
            parts += [embed.title or "", embed.description or ""]
            parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def told(clock: Clock, before: Tournament | None, kind: str) -> list[Notice]:
    return plan(clock.events, Context(before, clock.tournament, kind, 1, "Staff Name"))


def whole_event() -> tuple[list[tuple[Notice, Tournament]], Clock]:
    """Every kind of notice, each with the tournament as it was right after it was planned."""
    clock = Clock(new_tournament(max_players=5))
    said: list[tuple[Notice, Tournament]] = []

    def step(operation: object, actor: object = ORGANIZER) -> None:
        before = clock.tournament
        clock.apply(operation, actor)
        kind = operation.kind  # type: ignore[attr-defined]
        said.extend((notice, clock.tournament) for notice in told(clock, before, kind))

    said.extend(
        (n, clock.tournament)
        for n in plan(
            (ev.TournamentCreated(clock.tournament.id),),
            Context(None, clock.tournament, "create_tournament", 1, "Staff Name"),
        )
    )
    for number in range(1, 7):
        step(Register(player(number).user_id, f"Player {number}"), player(number))
        if number < 6:  # player 6 never submits a deck: the start removes them
            step(submit(player(number).user_id), player(number))
    step(Unregister(player(1).user_id), player(1))  # player 6 is promoted from the waitlist
    step(ChangeSettings(SettingsChange(noshow_minutes=5, rooms=True)))
    step(StartTournament(seed=3))
    step(PublishDecks())
    step(propose_round(clock.tournament, 4).operation())
    step(StartRound(1))
    first, second = clock.tournament.rounds[0].matches[0].players
    third, fourth = clock.tournament.rounds[0].matches[1].players
    step(ReportResult(first, 1, Claim.WIN), player(first - 100))
    step(ConfirmResult(second, 1, 1), player(second - 100))
    step(ReportResult(third, 1, Claim.WIN), player(third - 100))
    step(ReportResult(fourth, 1, Claim.WIN), player(fourth - 100))  # they disagree
    step(CallJudge(third, "we disagree"), player(third - 100))
    step(ExtendTable(1, 2, 5), JUDGE)
    step(ExtendRound(1, 3), JUDGE)  # 全体延長: table 2 still plays, table 1 is confirmed
    step(SetResult(1, 2, MatchResult.win(str(third))), JUDGE)  # completes round 1
    step(GivePenalty(fourth, PenaltyType.WARNING, Infraction.STALLING, "slow"), JUDGE)
    step(RevokePenalty(1))
    step(Drop(fourth), player(fourth - 100))
    step(propose_round(clock.tournament, 5).operation())
    last = clock.tournament.rounds[-1]
    for match in last.matches:
        if len(match.players) == 2:
            step(SetResult(last.number, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    step(FinishTournament())
    undone = ev.Undone(9, "drop", fourth, {"player_id": fourth})
    said.extend(
        (n, clock.tournament)
        for n in plan((undone,), Context(clock.tournament, clock.tournament, "undo", 1, "Org"))
    )
    return said, clock


def clock_said() -> list[tuple[Notice, Tournament]]:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 5):
        clock.apply(Register(player(number).user_id, f"P{number}"), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(propose_round(clock.tournament, 2).operation())
    clock.apply(StartRound(1))
    first = clock.tournament.rounds[0].matches[0].players[0]
    clock.apply(ReportResult(first, 1, Claim.WIN), player(first - 100))
    clock.apply(CallJudge(first, "help"), player(first - 100))
    current = clock.tournament.rounds[0]
    notices = clock_notices(current, unconfirmed_after=timedelta(minutes=10))
    notices += call_notices(clock.tournament.calls)
    return [(plan_clock(n, clock.tournament, 10), clock.tournament) for n in notices]


def called_off_said() -> list[tuple[Notice, Tournament]]:
    """Before an event: a start time (the calendar), the players' reminders, and
    the event called off (中止)."""
    clock = Clock(new_tournament())
    said: list[tuple[Notice, Tournament]] = []

    def step(operation: object, actor: object = ORGANIZER) -> None:
        before = clock.tournament
        clock.apply(operation, actor)
        kind = operation.kind  # type: ignore[attr-defined]
        said.extend((notice, clock.tournament) for notice in told(clock, before, kind))

    for number in range(1, 4):
        step(Register(player(number).user_id, f"Player {number}"), player(number))
    start = clock.at + timedelta(hours=30)
    step(ChangeSettings(SettingsChange(starts_at=start, checkin_minutes=30)))
    due = due_reminders(clock.tournament, start - timedelta(hours=24))
    said.extend((plan_reminder(reminder), clock.tournament) for reminder in due)
    step(CancelTournament())
    return said


def delivery_said(tournament: Tournament) -> list[tuple[Notice, Tournament]]:
    """What the delivery says of Discord itself, mid-event: a channel that refuses (a
    permission taken away, a channel deleted), a notice given up, many refused requests,
    and each player's table by DM when the pairings could be posted nowhere."""
    played = tournament.rounds[0]
    players = [player for match in played.matches for player in match.players]
    notices = [
        place_refused(900, Place.PAIRINGS, "missing_permissions", ["send_messages"], CLOCK.at),
        place_refused(901, Place.PAIRINGS, "missing_permissions", [], CLOCK.at),
        place_refused(902, Place.ANNOUNCEMENTS, "unknown_channel", [], CLOCK.at),
        place_refused(903, Place.ROUND_THREAD, "unknown_channel", [], CLOCK.at),
        notice_dropped(12, Say.PAIRINGS, "Discord 503"),
        notice_nowhere(tournament.id, Say.STANDINGS, Place.STANDINGS),
        refusals_warning(1000, 1, tournament.guild_id),
        *tables_by_dm(played.number, players, tournament.id),
        rooms_refused(tournament.id, played.number, "server_full", [], 2),
        rooms_refused(tournament.id, played.number, "missing_permissions", ["manage_roles"], 0),
        rooms_refused(tournament.id, played.number, "missing_permissions", [], 1),
        rooms_refused(tournament.id, played.number, "category_full", [], 1),
        rooms_refused(tournament.id, played.number, "refused", [], 1),
    ]
    return [(notice, tournament) for notice in notices]


SAID, CLOCK = whole_event()
EVERYTHING = SAID + clock_said() + called_off_said() + delivery_said(clock_said()[0][1])


def test_the_story_makes_every_kind_of_notice() -> None:
    assert {notice.say for notice, _ in EVERYTHING} == set(Say)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("say", list(Say), ids=lambda say: say.value)
def test_each_notice_renders_in_both_languages(say: Say, lang: str) -> None:
    now = CLOCK.at + timedelta(hours=1)
    for notice, tournament in [(n, t) for n, t in EVERYTHING if n.say is say]:
        said = RENDERERS[say](Telling(tournament, notice.data, notice.user, lang, now))
        if said.calendar is not None:  # the calendar's entry: its texts, not a message
            text = "\n".join((said.calendar.name, said.calendar.description))
            assert said.calendar.marker[0 if lang == "ja" else 1] in text
            assert "{" not in text, text
            continue
        if said.rooms is not None:  # the match rooms' names, not a message
            names = [said.rooms.category(1), said.rooms.category(2), said.rooms.room(3)]
            assert all(names), names
            assert "{" not in "".join(names), names
            assert ("卓3" if lang == "ja" else "Table 3") in names
            continue
        assert said.messages, (say, notice)
        text = text_of(said.messages)
        assert text.strip() or any(m.files for m in said.messages), say
        assert "{" not in text.replace("{{", ""), text  # no template left unfilled


def test_a_notice_of_something_since_taken_back_says_nothing() -> None:
    (pairings, tournament) = next((n, t) for n, t in SAID if n.say is Say.PAIRINGS)
    unpaired = replace(tournament, rounds=())
    now = CLOCK.at
    assert RENDERERS[Say.PAIRINGS](Telling(unpaired, pairings.data, None, "ja", now)).messages == []
    ask, at = next((n, t) for n, t in SAID if n.say is Say.ASK_OPPONENT)
    # Once the match is confirmed, the opponent is not asked any more.
    assert (
        RENDERERS[Say.ASK_OPPONENT](
            Telling(CLOCK.tournament, ask.data, ask.user, "ja", now)
        ).messages
        == []
    )
    assert RENDERERS[Say.ASK_OPPONENT](Telling(at, ask.data, ask.user, "ja", now)).messages


def disputed_table() -> tuple[Clock, Notice, int, int]:
    """Table 1 of round 1: 唯 reports a win, ムギ disputes it, claiming the win."""
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    names = {1: "唯", 2: "ムギ", 3: "律", 4: "澪"}
    for number, name in names.items():
        clock.apply(Register(player(number).user_id, name), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(propose_round(clock.tournament, 2).operation())
    first, second = clock.tournament.rounds[0].matches[0].players
    clock.apply(ReportResult(first, 1, Claim.WIN), player(first - 100))
    before = clock.tournament
    clock.apply(
        DisputeResult(second, 1, 1, "最後のターンで勝った", Claim.WIN), player(second - 100)
    )
    (notice,) = [n for n in told(clock, before, DisputeResult.kind) if n.say is Say.DISPUTE]
    return clock, notice, first, second


def test_the_judges_see_both_claims_and_a_button_for_each_decision() -> None:
    clock, notice, first, second = disputed_table()
    tournament = clock.tournament
    a, b = (tournament.players[user].display_name for user in (first, second))
    said = RENDERERS[Say.DISPUTE](Telling(tournament, notice.data, None, "ja", clock.at))
    (message,) = said.messages
    assert f"・{a}の報告: {a}の勝ち" in (message.content or "")
    assert f"・{b}の異議: {b}の勝ち" in (message.content or "")
    assert f"・{b}の補足: 最後のターンで勝った" in (message.content or "")
    assert message.view is not None
    buttons = [(item.label, item.custom_id) for item in message.view.children]  # type: ignore[attr-defined]
    t = tournament.id
    assert buttons == [
        (f"{a}の勝ち", f"jv:{t}:1:1:{first}"),
        (f"{b}の勝ち", f"jv:{t}:1:1:{second}"),
        ("両者敗北", f"jl:{t}:1:1"),
        ("時間切れ判定…", f"jt:{t}:1:1"),
    ]
    english = RENDERERS[Say.DISPUTE](Telling(tournament, notice.data, None, "en", clock.at))
    assert f"- {b} disputes it, claiming: {b} wins" in (english.messages[0].content or "")
    labels = [item.label for item in english.messages[0].view.children]  # type: ignore[union-attr]
    assert labels == [f"{a} wins", f"{b} wins", "Double loss", "Time (counts)…"]
    # Once a judge decided, a notice still to be sent offers no decision any more.
    clock.apply(SetResult(1, 1, MatchResult.win(str(second))), JUDGE)
    late = RENDERERS[Say.DISPUTE](Telling(clock.tournament, notice.data, None, "ja", clock.at))
    assert late.messages[0].view is None


def test_a_dispute_noticed_before_claims_were_asked_for_still_reads() -> None:
    clock, notice, first, _ = disputed_table()
    stored = notice.data.to_json()
    # As the outbox held it before: the table and the first report, no one disputing.
    old = {key: stored[key] for key in ("round", "table")}
    old["claims"] = [claim for claim in stored["claims"] if claim[0] == first]
    data = Dispute.from_json(old)
    said = RENDERERS[Say.DISPUTE](Telling(clock.tournament, data, None, "ja", clock.at))
    text = said.messages[0].content or ""
    assert "の報告: " in text
    assert "異議: " not in text


def test_both_players_hear_the_judges_press_and_who_made_it() -> None:
    # The decision of a judge's button is /result set's: its players' notice says it.
    clock, _, first, second = disputed_table()
    before = clock.tournament
    clock.apply(SetResult(1, 1, MatchResult.win(str(second))), JUDGE)
    notices = plan(clock.events, Context(before, clock.tournament, "set_result", 2, "花子"))
    decided = [n for n in notices if n.say is Say.RESULT_DECIDED]
    assert sorted(n.user for n in decided if n.user is not None) == sorted((first, second))
    b = clock.tournament.players[second].display_name
    telling = Telling(clock.tournament, decided[0].data, decided[0].user, "ja", clock.at)
    (message,) = RENDERERS[Say.RESULT_DECIDED](telling).messages
    assert message.content == (
        f"⚖️ <@{first}> <@{second}> 第 1 回戦 テーブル 1 の結果は、"
        f"ジャッジ（花子）の判断で「{b}の勝ち」に決まりました。"
    )
    assert sorted(message.pings) == sorted((first, second))


def test_the_panel_says_when_the_rounds_results_are_all_in() -> None:
    clock, _, _, second = disputed_table()

    def shown() -> tuple[str | None, dict[str, bool]]:
        said = RENDERERS[Say.PANEL_REFRESH](Telling(clock.tournament, {}, None, "ja", clock.at))
        (message,) = said.messages
        assert message.view is not None
        enabled = {
            str(item.label): not item.disabled  # type: ignore[attr-defined]
            for item in message.view.children
        }
        return message.embeds[0].description, enabled

    description, enabled = shown()
    assert description is None
    assert not enabled["次の回戦"]
    clock.apply(SetResult(1, 1, MatchResult.win(str(second))), JUDGE)
    other = clock.tournament.rounds[0].matches[1]
    clock.apply(SetResult(1, 2, MatchResult.win(str(other.players[0]))), JUDGE)
    description, enabled = shown()
    assert description == "✅ 第 1 回戦の結果がすべて揃いました。"
    assert enabled["次の回戦"]


def panel_fields(tournament: Tournament, at: datetime) -> dict[str, str]:
    said = RENDERERS[Say.PANEL_REFRESH](Telling(tournament, {}, None, "ja", at))
    (message,) = said.messages
    return {str(f.name): str(f.value) for f in message.embeds[0].fields}


def test_the_panel_shows_the_round_results_disputes_calls_and_time_left() -> None:
    clock, _, _, _ = disputed_table()
    tournament = clock.tournament
    assert panel_fields(tournament, clock.at) == {
        "状態": "開催中",
        "プレイ中の参加者": "4",
        "回戦": "第 1 回戦",
        "結果": "0 / 2",
        "異議": "1",
        "ジャッジコール": "0",
        "残り時間": "時計はまだ動いていません",
    }
    third, fourth = tournament.rounds[0].matches[1].players
    clock.apply(CallJudge(third, "裁定をお願いします"), player(third - 100))
    clock.apply(StartRound(1))
    clock.apply(ReportResult(third, 1, Claim.WIN), player(third - 100))
    clock.apply(ConfirmResult(fourth, 1, 2), player(fourth - 100))
    shown = panel_fields(clock.tournament, clock.at)
    end = clock.tournament.rounds[0].ends_at
    assert end is not None
    assert (shown["結果"], shown["異議"], shown["ジャッジコール"]) == ("1 / 2", "1", "1")
    assert shown["残り時間"] == f"<t:{int(end.timestamp())}:R>（終了 <t:{int(end.timestamp())}:t>）"


def test_the_panel_before_the_start_counts_entries_lists_and_check_ins() -> None:
    clock = Clock(new_tournament())
    starts = clock.at + timedelta(minutes=30)
    clock.apply(ChangeSettings(SettingsChange(starts_at=starts, checkin_minutes=60)))
    for number in (1, 2, 3):
        clock.apply(Register(player(number).user_id, f"P{number}"), player(number))
    clock.apply(submit(player(1).user_id), player(1))
    clock.apply(CheckIn(player(1).user_id), player(1))
    clock.apply(CheckIn(player(2).user_id), player(2))
    assert panel_fields(clock.tournament, clock.at) == {
        "状態": "参加受付中",
        "参加者": "3 人",
        "デッキ提出": "1 / 3",
        "チェックイン": "2 / 3",
    }


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_rounds_standings_told_late_are_as_they_were_after_that_round(lang: str) -> None:
    """Round 1's standings, sent only once the event went on (Discord was away while round
    2 was paired and played, and the event finished): the same as right after round 1 (a
    player who dropped since is marked so), not the final standings under round 1's name."""
    ((notice, after_round_1),) = [
        (n, t) for n, t in SAID if n.say is Say.STANDINGS and n.data == OfRound(1)
    ]
    now = CLOCK.at + timedelta(hours=1)

    def rendered(tournament: Tournament) -> list[tuple[str | None, str | None]]:
        said = RENDERERS[Say.STANDINGS](Telling(tournament, notice.data, None, lang, now))
        return [(e.title, unmarked(e.description)) for m in said.messages for e in m.embeds]

    def unmarked(table: str | None) -> str:
        """Each row's rank, points, opponents' points and record (a name may be cut short
        to make room for a drop marker)."""
        rows = [
            re.match(r"\s*(\d+) .* (\d+) +([\d.]+) +(\d+-\d+-\d+)$", row)
            for row in (table or "").splitlines()
        ]
        return "\n".join(" ".join(row.groups()) for row in rows if row)

    late = rendered(CLOCK.tournament)
    assert late == rendered(after_round_1)
    assert ("第 1 回戦終了時点" if lang == "ja" else "after round 1") in str(late[0][0])
    newest = OfRound(CLOCK.tournament.current_round)
    said = RENDERERS[Say.STANDINGS](Telling(CLOCK.tournament, newest, None, lang, now))
    assert [(e.title, unmarked(e.description)) for m in said.messages for e in m.embeds] != late


# What every notice to (or about) one table says of it: its match room, one tap away.
TO_A_TABLE = {
    Say.ASK_OPPONENT,
    Say.RESULT_CONFIRMED,
    Say.RESULT_DECIDED,
    Say.TABLE_EXTENDED,
    Say.DISPUTE,
    Say.UNCONFIRMED,
    Say.REMINDER,
    Say.TIME_UP,
    Say.JUDGE_CALL,
    Say.CALL_REPING,
    Say.TABLE_BY_DM,
}


def table_of_notice(notice: Notice, tournament: Tournament) -> int | None:
    data = notice.data
    if data.about_table is not None:
        return data.about_table
    if isinstance(data, OfCall | CallReping):
        return next(c.table for c in tournament.calls if c.id == data.call)
    if isinstance(data, TableInRound):
        played = tournament.round(data.of_round)
        match = played.match_of(notice.user) if played and notice.user else None
        return match.table if match else None
    return None


def one_table(notice: Notice) -> Notice:
    """A clock notice as each table's room hears it (`plan_clock_rooms`): its first table."""
    tables = notice.data.about_tables
    if notice.say in (Say.REMINDER, Say.TIME_UP) and tables:
        return replace(notice, data=replace(notice.data.as_(OfTables), tables=tables[:1]))
    return notice


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("say", sorted(TO_A_TABLE), ids=lambda say: say.value)
def test_every_notice_to_a_table_names_its_room(say: Say, lang: str) -> None:
    now = CLOCK.at + timedelta(hours=1)
    checked = 0
    for notice, tournament in [(one_table(n), t) for n, t in EVERYTHING if n.say is say]:
        table = table_of_notice(notice, tournament)
        if table is None:
            continue
        rooms = {number: 7000 + number for number in range(1, 20)}
        telling = Telling(tournament, notice.data, notice.user, lang, now, rooms=rooms)
        said = RENDERERS[say](telling)
        if not said.messages:  # nothing left to say (the match decided since)
            continue
        label = "対戦部屋" if lang == "ja" else "Room"
        assert f"{label}: <#{7000 + table}>" in text_of(said.messages), (say, notice)
        checked += 1
        without = RENDERERS[say](replace(telling, rooms={}))
        assert "<#" not in text_of(without.messages)  # no room, no line
    assert checked, say


def extended_round(config: dict[str, object], players: int) -> tuple[Clock, Notice]:
    """Round 1 started, table 1 finished, then every table still playing extended by 5."""
    clock = Clock(new_tournament(**config))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, players + 1):
        clock.apply(Register(player(number).user_id, f"P{number}"), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(propose_round(clock.tournament, 2).operation())
    clock.apply(StartRound(1))
    winner = clock.tournament.rounds[0].matches[0].players[0]
    clock.apply(SetResult(1, 1, MatchResult.win(str(winner))), JUDGE)
    before = clock.tournament
    clock.apply(ExtendRound(1, 5), JUDGE)
    (notice,) = [n for n in told(clock, before, ExtendRound.kind) if n.say is Say.ROUND_EXTENDED]
    return clock, notice


def test_a_round_extension_says_the_round_the_minutes_the_tables_and_the_end_r_match_7() -> None:
    clock, notice = extended_round({}, 8)
    ends = clock.tournament.rounds[0].ends_at
    assert ends is not None
    end = int((ends + timedelta(minutes=5)).timestamp())

    def said(tournament: Tournament, lang: str) -> str:
        telling = Telling(tournament, notice.data, None, lang, clock.at)
        return text_of(RENDERERS[Say.ROUND_EXTENDED](telling).messages)

    assert said(clock.tournament, "ja") == (
        "⏱ 第 1 回戦の対戦時間を 5 分延長しました（対戦中の 3 テーブルすべて）。"
        f"これまで延長のなかったテーブルの終了は <t:{end}:t>（<t:{end}:R>）です。"
        "すでに延長されていたテーブルは、それぞれの終了時刻が 5 分遅くなります。"
    )
    assert said(clock.tournament, "en") == (
        "⏱ Round 1: every table still playing (3 tables) has 5 more minutes. A table with no"
        f" earlier extension now ends <t:{end}:t> (<t:{end}:R>); a table already extended"
        " gets them on top of its own end."
    )
    # Its round taken back before it was sent: nothing is said of a round that is gone.
    assert said(replace(clock.tournament, rounds=()), "ja") == ""


def test_a_top_cut_rounds_extension_names_its_stage() -> None:
    clock, notice = extended_round({"format": EventFormat.ELIMINATION}, 4)
    for lang, stage in (
        ("ja", "⏱ 準決勝の対戦時間を 5 分延長しました（対戦中の 1 テーブル"),
        ("en", "⏱ Semifinals: every table still playing (1 table) has 5 more"),
    ):
        telling = Telling(clock.tournament, notice.data, None, lang, clock.at)
        assert text_of(RENDERERS[Say.ROUND_EXTENDED](telling).messages).startswith(stage)
