"""The notifier's plan: every domain event has a row (a test fails when one is added
without), and the rows say who is told what, where."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from datetime import timedelta

from bot.notify.payloads import (
    AskOpponent,
    Decision,
    Extension,
    OfRound,
    OfTables,
    PenaltyGiven,
    Reasons,
    RoundExtension,
)
from bot.notify.plan import (
    PLAN,
    TRAITS,
    Context,
    Notice,
    Place,
    Say,
    missing_rows,
    plan,
    plan_clock,
    plan_clock_rooms,
)
from domain.engine.results import MatchResult
from domain.event import EventFormat
from domain.tournament import codec
from domain.tournament import events as ev
from domain.tournament.clock import NoticeKind, clock_notices
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    CallJudge,
    ChangeSettings,
    ConfirmResult,
    DisputeResult,
    ExtendRound,
    ExtendTable,
    FinishTournament,
    GivePenalty,
    PairRound,
    Register,
    ReportResult,
    ResolveCall,
    RevokePenalty,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.play import propose_round
from domain.tournament.rounds import Claim
from tests.domain.tournament.support import (
    JUDGE,
    ORGANIZER,
    Clock,
    new_tournament,
    player,
    submit,
)


def event_classes() -> list[type[ev.Event]]:
    return [
        member
        for _, member in inspect.getmembers(ev, inspect.isclass)
        if issubclass(member, ev.Event) and member is not ev.Event
    ]


def test_every_event_of_the_domain_has_a_row_in_the_plan() -> None:
    assert len(event_classes()) >= 25
    assert missing_rows(event_classes()) == []
    assert set(PLAN) == set(event_classes())


def test_an_event_added_without_a_row_is_named() -> None:
    @dataclass(frozen=True)
    class SomethingNew(ev.Event):
        pass

    assert missing_rows([*event_classes(), SomethingNew]) == [SomethingNew]


def test_a_row_that_tells_nobody_says_why() -> None:
    silent = [row for row in PLAN.values() if row.__name__ == "told_to_nobody"]
    assert len(silent) >= 5
    assert all(row.__doc__ and len(row.__doc__) > 10 for row in silent)


def running(players: int = 4) -> Clock:
    clock = Clock(new_tournament())
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, players + 1):
        clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))
    clock.apply(StartTournament(seed=5))
    clock.apply(propose_round(clock.tournament, 9).operation())
    return clock


def context(clock: Clock, before: Tournament | None, kind: str, name: str = "Org") -> Context:
    return Context(before, clock.tournament, kind, ORGANIZER.user_id, name)


def told(clock: Clock, context: Context) -> list[Notice]:
    """The operation's own notices (every operation also brings the staff's panel up to
    date: that last notice is checked once, below)."""
    notices = plan(clock.events, context)
    # Each carries the payload its kind declares (`Notice` refuses any other).
    assert all(type(n.data) is TRAITS[n.say].payload for n in notices)
    assert notices[-1].say is Say.PANEL_REFRESH
    assert notices[-1].places == (Place.PANEL,)
    return notices[:-1]


def test_a_pairing_goes_where_players_read() -> None:
    """The pairings channel; when it refuses the bot, the announcements; where the command
    was used only if every member can read it (the delivery checks that)."""
    clock = running()
    (told_,) = told(clock, context(clock, None, PairRound.kind))
    assert told_.say is Say.PAIRINGS
    assert told_.places == (Place.PAIRINGS, Place.ANNOUNCEMENTS, Place.ORIGIN)
    assert told_.data == OfRound(1)
    assert told_.data.to_json() == {"round": 1}  # the outbox's JSON, as ever


def test_a_report_asks_the_opponent_in_the_round_thread_else_by_dm() -> None:
    clock = running()
    match = clock.tournament.rounds[0].matches[0]
    first, second = match.players
    before = clock.tournament
    clock.apply(ReportResult(first, 1, Claim.WIN), player(first - 100))
    (asked,) = told(clock, context(clock, before, ReportResult.kind))
    assert asked.say is Say.ASK_OPPONENT
    assert asked.places == (Place.ROUND_THREAD, Place.PLAYER)
    assert asked.user == second  # the opponent, never the reporter
    assert asked.data == AskOpponent(1, match.table, first)
    assert asked.data.to_json() == {"round": 1, "table": match.table, "reporter": first}


def test_the_result_that_completes_the_round_prompts_the_staff_and_posts_the_standings() -> None:
    clock = running()
    said: list[list[Say]] = []
    for match in clock.tournament.rounds[0].matches:
        first, second = match.players
        clock.apply(ReportResult(first, 1, Claim.WIN), player(first - 100))
        before = clock.tournament
        clock.apply(ConfirmResult(second, 1, match.table), player(second - 100))
        said.append([n.say for n in told(clock, context(clock, before, "confirm"))])
    # Both players hear it (in the thread, named there once; by DM where there is none),
    # and each confirmation marks its table on the pairings post.
    confirmed = [Say.RESULT_CONFIRMED, Say.RESULT_CONFIRMED]
    assert said[:-1] == [[*confirmed, Say.PAIRINGS_REFRESH]] * (len(said) - 1)
    assert said[-1] == [
        *confirmed,
        Say.ROUND_COMPLETE,
        Say.STANDINGS,
        Say.PAIRINGS_REFRESH,
    ]


def test_a_penalty_tells_the_player_privately_and_the_log_who_gave_it() -> None:
    clock = running()
    before = clock.tournament
    given = GivePenalty(101, PenaltyType.WARNING, Infraction.STALLING, "slow play")
    clock.apply(given, JUDGE)
    notices = told(clock, Context(before, clock.tournament, given.kind, JUDGE.user_id, "J"))
    assert [(n.say, n.places, n.user) for n in notices] == [
        (Say.PENALTY_TO_PLAYER, (Place.PLAYER,), 101),
        (Say.PENALTY_GIVEN, (Place.LOG,), None),
    ]
    assert notices[1].data == PenaltyGiven(1, "J")


def test_the_clock_notices_are_keyed_so_each_is_planned_once() -> None:
    clock = running()
    clock.apply(StartRound(1))
    notices = clock_notices(clock.tournament.rounds[0], unconfirmed_after=timedelta(minutes=10))
    planned = [plan_clock(notice, clock.tournament) for notice in notices]
    assert len({p.key for p in planned}) == len(planned) == len(notices)
    assert {p.say for p in planned} == {Say.REMINDER, Say.TIME_UP}
    reminder = next(n for n in notices if n.kind is NoticeKind.REMINDER)
    assert plan_clock(reminder, clock.tournament).key == planned[notices.index(reminder)].key


def test_the_top_cut_does_not_repost_the_swiss_standings() -> None:
    clock = Clock(new_tournament(format=EventFormat.SWISS_TOP_CUT, top_cut=4, rounds=1))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 5):
        clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))
    clock.apply(StartTournament(seed=5))
    for _ in range(2):  # the Swiss round, then the top cut's first round
        clock.apply(propose_round(clock.tournament, 9).operation())
        played = clock.tournament.rounds[-1]
        said: list[Say] = []
        for match in played.matches:
            before = clock.tournament
            result = MatchResult.win(str(match.players[0]))
            clock.apply(SetResult(played.number, match.table, result), JUDGE)
            said += [n.say for n in told(clock, context(clock, before, "set_result"))]
        if played.number == 1:
            assert said.count(Say.STANDINGS) == 1
        else:
            assert Say.ROUND_COMPLETE in said
            assert Say.STANDINGS not in said


def test_a_dispute_shows_the_judges_both_claims_who_disputed_and_why() -> None:
    clock = running()
    match = clock.tournament.rounds[0].matches[0]
    first, second = match.players
    clock.apply(ReportResult(first, 1, Claim.WIN), player(first - 100))
    before = clock.tournament
    clock.apply(DisputeResult(second, 1, match.table, "7 点目", Claim.WIN), player(second - 100))
    (judges,) = told(clock, context(clock, before, DisputeResult.kind))
    assert judges.say is Say.DISPUTE
    assert judges.places == (Place.JUDGES,)
    win = MatchResult.win
    assert judges.data.to_json() == {
        "round": 1,
        "table": match.table,
        "claims": [
            [first, codec.encode(win(str(first)))],
            [second, codec.encode(win(str(second)))],
        ],
        "disputer": second,
        "reason": "7 点目",
    }


def table_told(notices: list[Notice], say: Say) -> list[tuple[tuple[Place, ...], int | None]]:
    return [(n.places, n.user) for n in notices if n.say is say]


def test_a_judges_ruling_is_told_to_both_players_of_the_table_and_the_log() -> None:
    """The table's thread names both players; where the round has no thread,
    each is told by DM (the second player's DM goes only then)."""
    clock = running()
    first, second = clock.tournament.rounds[0].matches[0].players
    before = clock.tournament
    clock.apply(SetResult(1, 1, MatchResult.win(str(second))), JUDGE)
    notices = told(clock, Context(before, clock.tournament, "set_result", JUDGE.user_id, "J"))
    assert table_told(notices, Say.RESULT_DECIDED) == [
        ((Place.ROUND_THREAD, Place.PLAYER), first),
        ((Place.PLAYER_WITHOUT_THREAD,), second),
    ]
    decided = next(n for n in notices if n.say is Say.RESULT_DECIDED).data.as_(Decision)
    assert decided.judge == "J"
    assert decided.new == MatchResult.win(str(second))
    assert [n.say for n in notices if n.places == (Place.LOG,)] == [Say.RESULT_SET]
    assert Say.PAIRINGS_REFRESH in [n.say for n in notices]


def test_a_game_loss_that_decides_a_match_is_told_to_both_players_r_pen_3() -> None:
    """R-PEN-3: the opponent hears that the match is decided, not only the
    penalised player; the revocation is told the same way."""
    clock = running()
    first, second = clock.tournament.rounds[0].matches[0].players
    before = clock.tournament
    given = GivePenalty(first, PenaltyType.GAME_LOSS, Infraction.MARKED_SLEEVES, "marked sleeves")
    clock.apply(given, JUDGE)
    notices = told(clock, Context(before, clock.tournament, given.kind, JUDGE.user_id, "J"))
    assert table_told(notices, Say.RESULT_DECIDED) == [
        ((Place.ROUND_THREAD, Place.PLAYER), first),
        ((Place.PLAYER_WITHOUT_THREAD,), second),
    ]
    decided = next(n for n in notices if n.say is Say.RESULT_DECIDED).data.as_(Decision)
    assert decided.penalty == 1
    assert decided.new is not None
    before = clock.tournament
    clock.apply(RevokePenalty(1))
    revoked = told(clock, context(clock, before, RevokePenalty.kind))
    decisions = [n.data.as_(Decision) for n in revoked if n.say is Say.RESULT_DECIDED]
    assert [(d.revoked, d.penalty) for d in decisions] == [(1, None), (1, None)]


def test_a_warning_decides_nothing_and_tells_only_the_player_and_the_log() -> None:
    clock = running()
    before = clock.tournament
    given = GivePenalty(101, PenaltyType.WARNING, Infraction.STALLING, "slow play")
    clock.apply(given, JUDGE)
    notices = told(clock, context(clock, before, given.kind))
    assert Say.RESULT_DECIDED not in [n.say for n in notices]
    assert Say.PAIRINGS_REFRESH not in [n.say for n in notices]


def test_an_extension_is_told_to_the_tables_players_with_the_minutes_added_r_match_7() -> None:
    clock = running()
    clock.apply(StartRound(1))
    first, second = clock.tournament.rounds[0].matches[1].players
    clock.apply(ExtendTable(1, 2, 3), JUDGE)
    before = clock.tournament
    clock.apply(ExtendTable(1, 2, 4), JUDGE)
    notices = told(clock, context(clock, before, ExtendTable.kind))
    assert table_told(notices, Say.TABLE_EXTENDED) == [
        ((Place.ROUND_THREAD, Place.PLAYER), first),
        ((Place.PLAYER_WITHOUT_THREAD,), second),
    ]
    extension = notices[0].data.as_(Extension)
    assert (extension.added, extension.total) == (4, 7)


def test_a_round_extension_is_announced_once_where_the_round_is_read_r_match_7() -> None:
    """全体延長: one post where the round's clock is told (its channel, else the pairings
    channel, else the announcements), with how many tables and the end of a table not
    extended before; each table still playing hears its own new end, as for /judge extend."""
    clock = running(8)
    clock.apply(StartRound(1))
    current = clock.tournament.rounds[0]
    first, second = current.matches[0].players
    clock.apply(SetResult(1, 1, MatchResult.win(str(first))), JUDGE)  # table 1 is done
    clock.apply(ExtendTable(1, 3, 4), JUDGE)
    before = clock.tournament
    clock.apply(ExtendRound(1, 5), JUDGE)
    notices = told(clock, context(clock, before, ExtendRound.kind))
    (announced,) = [n for n in notices if n.say is Say.ROUND_EXTENDED]
    assert announced.places == (Place.ROUND_CHANNEL, Place.PAIRINGS, Place.ANNOUNCEMENTS)
    assert current.ends_at is not None
    ends = int((current.ends_at + timedelta(minutes=5)).timestamp())
    assert announced.data == RoundExtension(1, 5, tables=3, ends=ends)
    assert announced.data.to_json() == {"round": 1, "minutes": 5, "tables": 3, "ends": ends}
    # Each table still playing (2, 3 and 4), both players, with its own end; not table 1.
    extended = [n.data.as_(Extension) for n in notices if n.say is Say.TABLE_EXTENDED]
    assert sorted({(e.table, e.added, e.total) for e in extended}) == [
        (2, 5, 5),
        (3, 5, 9),
        (4, 5, 5),
    ]
    assert len(extended) == 6
    assert {n.user for n in notices if n.say is Say.TABLE_EXTENDED}.isdisjoint({first, second})


def test_a_judge_call_resolved_with_extra_minutes_tells_the_table_r_match_7() -> None:
    """Any change of a table's end tells that table, whatever caused it: here a judge call
    resolved with 「テーブル 2 を 1 分延長」, which tells #judges and the panel too."""
    clock = running()
    clock.apply(StartRound(1))
    first, second = clock.tournament.rounds[0].matches[1].players
    clock.apply(CallJudge(first, "slow shuffle"), player(first - 100))
    call = clock.tournament.calls[-1].id
    before = clock.tournament
    clock.apply(ResolveCall(call, extension_minutes=1), JUDGE)
    notices = told(clock, context(clock, before, ResolveCall.kind))
    assert table_told(notices, Say.TABLE_EXTENDED) == [
        ((Place.ROUND_THREAD, Place.PLAYER), first),
        ((Place.PLAYER_WITHOUT_THREAD,), second),
    ]
    extended = next(n for n in notices if n.say is Say.TABLE_EXTENDED).data.as_(Extension)
    assert (extended.added, extended.total) == (1, 1)
    assert (extended.round, extended.table) == (1, 2)
    # Resolving without minutes moves no table's time: nobody hears of it.
    clock.apply(CallJudge(first, "again"), player(first - 100))
    before = clock.tournament
    clock.apply(ResolveCall(clock.tournament.calls[-1].id), JUDGE)
    notices = told(clock, context(clock, before, ResolveCall.kind))
    assert Say.TABLE_EXTENDED not in [n.say for n in notices]


def test_players_removed_at_the_start_are_each_told_why_and_the_post_closes() -> None:
    """Removed at the start for no check-in or no legal deck; each removed player hears which."""
    clock = Clock(new_tournament())
    for number in range(1, 6):
        clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))
    for number in range(1, 5):
        clock.apply(submit(player(number).user_id), player(number))
    before = clock.tournament
    clock.apply(StartTournament(seed=5))
    notices = told(clock, context(clock, before, StartTournament.kind))
    removed = [(n.user, n.data) for n in notices if n.say is Say.DROPPED_AT_START]
    assert removed == [(player(5).user_id, Reasons(("no_deck",)))]
    assert all(n.places == (Place.PLAYER,) for n in notices if n.say is Say.DROPPED_AT_START)
    assert Notice(Say.REGISTRATION_REFRESH, (Place.REGISTRATION_POST,)) in notices


def test_the_finish_closes_the_registration_post_after_the_final_standings() -> None:
    clock = Clock(new_tournament(rounds=1))
    clock.apply(ChangeSettings(SettingsChange(decklist_required=False)))
    for number in range(1, 5):
        clock.apply(Register(player(number).user_id, f"Player {number}"), player(number))
    clock.apply(StartTournament(seed=5))
    clock.apply(propose_round(clock.tournament, 9).operation())
    for match in clock.tournament.rounds[0].matches:
        clock.apply(SetResult(1, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    before = clock.tournament
    clock.apply(FinishTournament())
    said = [n.say for n in told(clock, context(clock, before, FinishTournament.kind))]
    assert said.index(Say.FINAL_STANDINGS) < said.index(Say.REGISTRATION_REFRESH)


def with_rooms(clock: Clock) -> None:
    clock.apply(ChangeSettings(SettingsChange(rooms=True)))


def test_what_the_bot_tells_one_table_goes_to_its_room_first_where_there_are_rooms() -> None:
    """A judge's decision and an extension: the table's room's chat, else the round's
    thread, else each player by DM; the other player is told by DM only where neither the
    room nor the thread told them. Without rooms, as ever."""
    for rooms in (False, True):
        clock = running()
        if rooms:
            with_rooms(clock)
        first, second = clock.tournament.rounds[0].matches[0].players
        before = clock.tournament
        ruling = SetResult(1, 1, MatchResult.win(str(first)))
        clock.apply(ruling, JUDGE)
        notices = told(clock, Context(before, clock.tournament, ruling.kind, JUDGE.user_id, "J"))
        decided = [n for n in notices if n.say is Say.RESULT_DECIDED]
        if rooms:
            expected = [
                ((Place.TABLE_ROOM, Place.ROUND_THREAD, Place.PLAYER), first),
                ((Place.PLAYER_WITHOUT_ROOM,), second),
            ]
        else:
            expected = [
                ((Place.ROUND_THREAD, Place.PLAYER), first),
                ((Place.PLAYER_WITHOUT_THREAD,), second),
            ]
        assert [(n.places, n.user) for n in decided] == expected
        extend = ExtendTable(1, 2, 5)
        clock.apply(StartRound(1))
        before = clock.tournament
        clock.apply(extend, JUDGE)
        notices = told(clock, Context(before, clock.tournament, extend.kind, JUDGE.user_id, "J"))
        extended = [n for n in notices if n.say is Say.TABLE_EXTENDED]
        assert extended[0].places[0] is (Place.TABLE_ROOM if rooms else Place.ROUND_THREAD)


def test_the_clock_tells_each_tables_room_too_where_there_are_rooms() -> None:
    """A reminder and the time-up instruction: the round's one post as ever, and a copy in
    each playing table's room (planned once each); nothing more without rooms."""
    clock = running(6)
    clock.apply(StartRound(1))
    notices = clock_notices(clock.tournament.rounds[0], unconfirmed_after=timedelta(minutes=10))
    assert all(plan_clock_rooms(notice, clock.tournament) == [] for notice in notices)
    with_rooms(clock)
    reminder = next(n for n in notices if n.kind is NoticeKind.REMINDER)
    copies = plan_clock_rooms(reminder, clock.tournament)
    assert [(c.places, c.data.as_(OfTables).tables) for c in copies] == [
        ((Place.TABLE_ROOM,), (table,)) for table in reminder.tables
    ]
    keys = {c.key for c in copies} | {plan_clock(reminder, clock.tournament).key}
    assert len(keys) == len(copies) + 1
    assert all(c.say is Say.REMINDER for c in copies)
