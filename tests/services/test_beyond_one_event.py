"""Beyond one event, through the services on a real database (SQLite, and PostgreSQL when
installed): copies and weekly repeats, calling an event off, handles, the entry import,
series, player records, ratings, reminders and the live page's reads. Each write is one
transaction; every change says who made it."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.services import Services
from bot.services.live import LivePage
from bot.services.registration import MemberDirectory
from bot.store.actions import list_actions
from bot.store.backend import Database
from bot.store.verify import verify_all
from domain.engine.state import Phase
from domain.errors import IllegalTransition, InvalidInput, NotFound, PermissionDenied
from domain.tournament.log import Action
from domain.tournament.model import Tournament
from domain.tournament.operations import Repeat
from domain.tournament.views import export_record
from tests.services.conftest import (
    GUILD,
    JUDGE_ROLE,
    ORGANIZER_ROLE,
    OTHER_GUILD,
    admin,
    judge,
    organizer,
    player,
)

START = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # 21:00 in Japan, a Saturday


class Now:
    """A clock the test moves."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def now() -> Now:
    return Now(datetime(2026, 12, 1, 4, 0, tzinfo=UTC))


@pytest.fixture
async def services(database: Database, now: Now) -> Services:
    built = Services(database, clock=now, seeds=lambda: 424242)
    await built.guilds.configure(
        admin(), organizer_role_id=ORGANIZER_ROLE, judge_role_id=JUDGE_ROLE, locale="ja"
    )
    return built


async def log_of(services: Services, tournament_id: int | None = None) -> list[Action]:
    async with services.store.database.read() as connection:
        found = await list_actions(connection, guild_id=GUILD, tournament_id=tournament_id)
    if tournament_id is None:
        return [action for action in found if action.tournament_id is None]
    return found


async def outbox(services: Services, tournament_id: int) -> list[dict[str, Any]]:
    async with services.store.database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT say, places, user_id, dedupe_key FROM outbox WHERE tournament_id = ?"
            " ORDER BY id",
            (tournament_id,),
        )
    return [
        {
            "say": r["say"],
            "places": json.loads(r["places"]),
            "user": r["user_id"],
            "key": r["dedupe_key"],
        }
        for r in rows
    ]


async def weekly(
    services: Services,
    name: str = "第13回 交流会",
    *,
    max_players: int | None = None,
    **settings: Any,
) -> Tournament:
    """A weekly event of one round starting at START, without decklists."""
    created = await services.tournaments.create(
        organizer(),
        name=name,
        format="swiss",
        regulation="single",
        rounds=1,
        event_date="2026/12/05",
        max_players=max_players,
    )
    values: dict[str, Any] = {
        "decklist_required": False,
        "repeat": "weekly",
        "starts_at": "2026/12/05 21:00",
    }
    values.update(settings)
    saved = await services.tournaments.update_settings(
        organizer(), str(created.tournament.id), **values
    )
    return saved.tournament


async def finish(services: Services, tournament: Tournament, players: int = 2) -> Any:
    """Registered (if nobody is), played in one round won by the lower ids, finished."""
    reference = str(tournament.id)
    tournament = (await services.tournaments.info(organizer(), reference)).tournament
    if not tournament.players:
        for number in range(1, players + 1):
            await services.registration.register(player(number), reference)
    await services.lifecycle.start(organizer(), reference)
    await services.rounds.pair(organizer(), reference)
    await services.rounds.start_clock(organizer(), reference)
    _, current = await services.rounds.status(organizer(), reference)
    for match in current.matches:
        if len(match.players) == 2:
            await services.rounds.set_result(
                judge(), reference, table=match.table, choice="win", player=min(match.players)
            )
    return await services.rounds.finish(organizer(), reference)


# -- copies and repeats ------------------------------------------------------------------------


async def test_a_copy_proposes_the_next_number_and_keeps_every_setting(services: Services) -> None:
    source = await weekly(services, checkin_minutes=30, noshow_minutes=15)
    copied = await services.tournaments.create(organizer(), copy=str(source.id))
    made = copied.tournament
    assert made.name == "第14回 交流会"
    assert copied.copied_from is not None
    assert copied.copied_from.id == source.id
    # A week later at the same time of day (the source repeats weekly), every setting kept.
    assert made.event_date.isoformat() == "2026-12-12"
    assert made.starts_at == START + timedelta(weeks=1)
    assert made.settings == replace(source.settings, starts_at=START + timedelta(weeks=1))
    assert made.config.rounds == 1
    logged = await log_of(services, made.id)
    assert [a.kind for a in logged] == ["create_tournament", "change_settings"]
    assert logged[0].payload["copied_from"] == source.id
    assert logged[0].payload["repeated"] is False
    assert logged[0].actor_id == organizer().user_id
    # Another copy counts on past the name now taken; options given replace the copied ones.
    again = await services.tournaments.create(
        organizer(), copy=source.name, rounds=3, event_date="2026/12/24"
    )
    assert again.tournament.name == "第15回 交流会"
    assert again.tournament.config.rounds == 3
    assert again.tournament.event_date.isoformat() == "2026-12-24"
    assert again.tournament.starts_at == START + timedelta(days=19)  # 12/24 at 21:00


async def test_a_create_without_a_copy_needs_its_name_format_and_regulation(
    services: Services,
) -> None:
    with pytest.raises(InvalidInput) as refused:
        await services.tournaments.create(organizer(), name="Cup")
    assert refused.value.key == "tournament.create_needs"
    assert refused.value.params["options"] == ("format", "regulation")
    with pytest.raises(PermissionDenied):
        await services.tournaments.create(player(1), copy="1")


async def test_the_finish_of_a_weekly_event_creates_the_next_in_its_transaction(
    services: Services,
) -> None:
    source = await weekly(services)
    final = await finish(services, source)
    assert final.tournament.phase is Phase.FINISHED
    upcoming = final.next_event
    assert upcoming is not None
    assert upcoming.name == "第14回 交流会"
    assert upcoming.starts_at == START + timedelta(weeks=1)
    assert upcoming.settings.repeat is Repeat.WEEKLY  # and so on, week after week
    assert upcoming.players == {}  # players, decks and results are never copied
    logged = await log_of(services, upcoming.id)
    assert logged[0].kind == "create_tournament"
    assert logged[0].payload["copied_from"] == source.id
    assert logged[0].payload["repeated"] is True
    assert logged[0].actor_id == organizer().user_id  # who finished it
    finish_row = [a for a in await log_of(services, source.id) if a.kind == "finish_tournament"]
    assert finish_row[0].created_at == logged[0].created_at
    told = [n["say"] for n in await outbox(services, upcoming.id)]
    assert {"registration_post", "panel", "calendar"} <= set(told)
    assert (await verify_all_ok(services)) == 2


async def verify_all_ok(services: Services) -> int:
    async with services.store.database.read() as connection:
        verdicts = await verify_all(connection)
    assert all(v.agrees for v in verdicts), [v for v in verdicts if not v.agrees]
    return len(verdicts)


async def test_a_repeat_the_rules_refuse_leaves_the_finish_standing(services: Services) -> None:
    source = await weekly(services, name="あ" * 62 + " 9")  # the longest a name may be
    assert len(source.name) == 64  # its next, 「… 10」, would be one character too long
    final = await finish(services, source)
    assert final.tournament.phase is Phase.FINISHED
    assert final.next_event is None
    assert final.next_refused is not None
    assert final.next_refused.key == "event.name_too_long"
    assert [t.name for t in await services.tournaments.overview(admin())] == [source.name]


# -- 中止 ----------------------------------------------------------------------------------------


async def test_calling_an_event_off_tells_its_players_and_the_calendar(services: Services) -> None:
    event = await weekly(services)
    for number in (1, 2):
        await services.registration.register(player(number), str(event.id))
    with pytest.raises(PermissionDenied):
        await services.tournaments.cancel(player(1), str(event.id))
    cancelled = await services.tournaments.cancel(organizer(), str(event.id))
    assert cancelled.phase is Phase.CANCELLED
    told = (await outbox(services, event.id))[-6:]
    assert [n["say"] for n in told] == [
        "cancelled",
        "registration_refresh",
        "calendar",
        "cancelled_to_player",
        "cancelled_to_player",
        "panel_refresh",
    ]
    assert [n["user"] for n in told if n["say"] == "cancelled_to_player"] == [101, 102]
    assert [n["places"] for n in told if n["say"] == "cancelled_to_player"] == [["player"]] * 2
    assert await services.tournaments.overview(admin(), include_finished=False) == []
    with pytest.raises(IllegalTransition):
        await services.registration.register(player(3), str(event.id))
    with pytest.raises(IllegalTransition):
        await services.lifecycle.start(organizer(), str(event.id))
    assert (await log_of(services, event.id))[-1].kind == "cancel_tournament"


# -- handles ---------------------------------------------------------------------------------


async def test_a_handle_is_the_name_in_events_not_over_and_in_their_exports(
    services: Services,
) -> None:
    done = await finish(services, await weekly(services))  # played as "Player 1"
    upcoming = done.next_event
    assert upcoming is not None
    await services.registration.register(player(1), str(upcoming.id))
    change = await services.profiles.set_handle(player(1), "ゆい")
    assert change.profile.handle == "ゆい"
    assert [t.id for t in change.renamed] == [upcoming.id]
    info = await services.tournaments.info(player(1), str(upcoming.id))
    assert info.tournament.players[101].display_name == "ゆい"
    past = await services.tournaments.info(player(1), str(done.tournament.id))
    assert past.tournament.players[101].display_name == "Player 1"  # played under that name
    assert [a.kind for a in await log_of(services, upcoming.id)][-1] == "set_handle"
    guild_rows = [a for a in await log_of(services) if a.kind == "guild.handle"]
    assert guild_rows[-1].payload == {"player": 101, "handle": "ゆい"}
    assert guild_rows[-1].actor_id == 101
    # Nobody else may take a name that reads as hers; she may set it again.
    with pytest.raises(InvalidInput) as taken:
        await services.profiles.set_handle(player(2), "ゆ い")  # spaces are not read
    assert taken.value.key == "handle.taken"
    # A handle given at registration is saved, and used by the next event too.
    await services.registration.register(player(2), str(upcoming.id), handle="あずにゃん")
    final = await finish(services, upcoming)
    names = set(export_record(final.tournament).to_json()["players"])
    assert names == {"ゆい", "あずにゃん"}
    assert final.next_event is not None
    joined = await services.registration.register(player(2), str(final.next_event.id))
    assert joined.player.display_name == "あずにゃん"
    # Cleared: the Discord name again, in the events not over.
    cleared = await services.profiles.set_handle(player(2), None)
    assert cleared.profile.handle is None
    again = await services.tournaments.info(player(2), str(final.next_event.id))
    assert again.tournament.players[102].display_name == "Player 2"
    assert await verify_all_ok(services) == 3


# -- the entry import ------------------------------------------------------------------------


def directory(*numbers: int) -> MemberDirectory:
    """Members `player(n)` with snowflake-sized ids: 10**17 + n."""
    shown = {10**17 + n: f"Member {n}" for n in numbers}
    return MemberDirectory(shown, {name: frozenset({user}) for user, name in shown.items()})


async def test_an_import_with_bad_rows_registers_nobody_and_names_each_row(
    services: Services,
) -> None:
    event = await weekly(services)
    members = directory(1, 2, 3)
    bad = (
        "Discord ID,ハンドルネーム\n"
        f"{10**17 + 1},ゆい\n"
        "12345,\n"
        f"{10**17 + 2},\n"
        f"{10**17 + 9},\n"
        f"{10**17 + 3},ゆい\n"
    ).encode()
    with pytest.raises(PermissionDenied):
        await services.registration.import_entries(judge(), str(event.id), bad, members)
    report = await services.registration.import_entries(organizer(), str(event.id), bad, members)
    assert not report.plan.accepted
    assert [(p.line, p.key) for p in report.plan.refused] == [
        (3, "entry_import.row.bad_id"),
        (5, "entry_import.row.not_a_member"),
        (6, "entry_import.row.duplicate_handle"),
    ]
    info = await services.tournaments.info(organizer(), str(event.id))
    assert info.tournament.players == {}
    assert (await services.profiles.own(member(1))).handle is None  # nothing was written


def member(number: int) -> Any:
    from bot.services.actors import Actor

    return Actor(10**17 + number, GUILD, f"Member {number}")


async def test_an_accepted_import_registers_every_row_under_its_handle(services: Services) -> None:
    event = await weekly(services)
    await services.registration.register(member(3), str(event.id))  # entered already: skipped
    good = f"{10**17 + 1},ゆい\n{10**17 + 2},\nMember 3,\n".encode()
    report = await services.registration.import_entries(
        organizer(), str(event.id), good, directory(1, 2, 3)
    )
    assert report.plan.accepted
    assert [(p.line, p.key) for p in report.plan.skipped] == [
        (3, "entry_import.row.already_entered")
    ]
    assert [entry.display_name for entry in report.registered] == ["ゆい", "Member 2"]
    profile = await services.profiles.own(member(1))
    assert profile.handle == "ゆい"
    assert profile.updated_by == organizer().user_id  # the organizer set it, by the import
    registers = [a for a in await log_of(services, event.id) if a.kind == "register"]
    assert [(a.actor_id, a.payload["player_id"]) for a in registers[-2:]] == [
        (organizer().user_id, 10**17 + 1),
        (organizer().user_id, 10**17 + 2),
    ]
    assert await verify_all_ok(services) == 1


# -- series ----------------------------------------------------------------------------------


async def test_a_series_counts_its_finished_events_by_its_table(services: Services) -> None:
    first = await finish(services, await weekly(services), players=4)
    second_event = first.next_event
    assert second_event is not None
    second = await finish(services, second_event, players=3)
    created = await services.series.create(organizer(), "冬リーグ")
    with pytest.raises(InvalidInput):
        await services.series.create(organizer(), "冬リーグ")
    with pytest.raises(PermissionDenied):
        await services.series.add(player(1), "冬リーグ", str(first.tournament.id))
    for final in (first, second):
        await services.series.add(organizer(), "冬リーグ", str(final.tournament.id))
    assert second.next_event is not None
    await services.series.add(organizer(), None, str(second.next_event.id))  # not played yet
    view = await services.series.standings(GUILD, "冬リーグ")
    assert [e.id for e in view.counted] == [first.tournament.id, second.tournament.id]
    # By hand, the default table (優勝 10, 準優勝 7, ベスト4 5, ベスト8 3, 参加 1):
    places = {
        name: {line.user_id: line.rank for line in final.views.final[0]}
        for name, final in (("first", first), ("second", second))
    }
    expected = {
        user: sum({1: 10, 2: 7, 3: 5, 4: 5}[p[user]] + 1 for p in places.values() if user in p)
        for user in (101, 102, 103, 104)
    }
    assert {s.player_id: s.points for s in view.standings} == expected
    # The organizer's own table, then taking an event out.
    await services.series.set_points(organizer(), str(created.id), "優勝 = 3\n参加 = 1\n")
    await services.series.remove(organizer(), "冬リーグ", str(second.tournament.id))
    view = await services.series.standings(GUILD, "冬リーグ")
    assert {s.player_id: s.points for s in view.standings} == {
        user: (3 if rank == 1 else 0) + 1 for user, rank in places["first"].items()
    }
    kinds = [
        (a.kind, a.actor_id) for a in await log_of(services) if a.kind.startswith("guild.series")
    ]
    assert kinds == [
        ("guild.series_create", 2),
        ("guild.series_add", 2),
        ("guild.series_add", 2),
        ("guild.series_add", 2),
        ("guild.series_points", 2),
        ("guild.series_remove", 2),
    ]
    # Another server sees no series, and cannot add this server's tournament to its own.
    with pytest.raises(NotFound):
        await services.series.standings(OTHER_GUILD, "冬リーグ")
    await services.guilds.configure(admin(OTHER_GUILD), locale="en")
    from bot.services.actors import Actor

    other = Actor(5, OTHER_GUILD, "Other", manages_guild=True)
    await services.series.create(other, "Theirs")
    with pytest.raises(NotFound):
        await services.series.add(other, "Theirs", str(first.tournament.id))


async def test_a_bad_points_table_changes_nothing(services: Services) -> None:
    series = await services.series.create(organizer(), "リーグ")
    with pytest.raises(InvalidInput) as refused:
        await services.series.set_points(organizer(), "リーグ", "優勝 = 5\nベスト4 = 9\n")
    assert refused.value.key == "series.points.worse_place_more_points"
    view = await services.series.standings(GUILD, str(series.id))
    assert view.series.table == series.table
    # A file as Excel in Japan saves it (Shift_JIS) is read like the form's text.
    saved = await services.series.set_points(
        organizer(), "リーグ", "優勝 = 4\n参加 = 2\n".encode("shift_jis")
    )
    assert saved.table.to_text() == "優勝 = 4\n参加 = 2\n"


# -- player records and ratings --------------------------------------------------------------


async def test_a_profile_shows_the_record_penalties_to_staff_and_ratings_when_on(
    services: Services,
) -> None:
    final = await finish(services, await weekly(services), players=2)
    mine = await services.profiles.show(player(1), None, "Player 1")
    assert mine.record.events_played == 1
    assert mine.record.event_wins == 1
    assert str(mine.record.swiss) == "1-0-0"
    assert mine.penalties is None  # a player never sees penalties, not even their own here
    assert mine.rating is None  # ratings are off until the server turns them on
    staff = await services.profiles.show(judge(), 102, "Player 2")
    assert staff.penalties == ()
    assert staff.record.events[0].tournament_id == final.tournament.id
    await services.guilds.configure(admin(), ratings="profile")
    rated = await services.profiles.show(player(2), 101, "Player 1")
    assert rated.rating is not None
    assert rated.rating.rank == 1
    assert rated.rating.rated == 2
    with pytest.raises(InvalidInput):
        await services.guilds.configure(admin(), ratings="loud")


async def test_the_ratings_are_kept_until_another_event_finishes(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.services.ratings

    folds: list[int] = []
    fold = bot.services.ratings.server_ratings

    def counted(tournaments: Any) -> Any:
        folds.append(len(tournaments))
        return fold(tournaments)

    monkeypatch.setattr(bot.services.ratings, "server_ratings", counted)
    await services.guilds.configure(admin(), ratings="series")
    first = await finish(services, await weekly(services), players=2)
    await services.series.create(organizer(), "リーグ")
    await services.series.add(organizer(), "リーグ", str(first.tournament.id))
    shown = await services.profiles.show(player(1), None, "P")
    await services.profiles.show(player(2), None, "P")
    view = await services.series.standings(GUILD, "リーグ")
    assert folds == [1]  # one fold for every reader while nothing finished changes
    assert shown.rating is not None
    assert view.ratings is not None
    assert view.ratings[101] == shown.rating.rating
    assert first.next_event is not None
    await finish(services, first.next_event, players=2)
    after = await services.profiles.show(player(1), None, "P")
    assert folds == [1, 2]
    assert after.rating is not None
    assert after.rating.rating.matches == 2  # the second event's match counts now


# -- reminders -------------------------------------------------------------------------------


async def test_each_registered_player_is_reminded_once_before_the_start(
    services: Services, now: Now
) -> None:
    event = await weekly(services, max_players=2)
    for number in (1, 2, 3):  # player 3 waits: not reminded
        await services.registration.register(player(number), str(event.id))
    now.at = START - timedelta(hours=23)
    assert await services.reminders.tick() == 2
    assert await services.reminders.tick() == 0  # planned once, however often it looks
    now.at = START - timedelta(minutes=30)
    assert await services.reminders.tick() == 2
    reminders = [n for n in await outbox(services, event.id) if n["say"] == "entry_reminder"]
    assert [(n["user"], n["places"]) for n in reminders] == [
        (101, ["player"]),
        (102, ["player"]),
        (101, ["player"]),
        (102, ["player"]),
    ]
    stamp = int(START.timestamp())
    assert reminders[0]["key"] == f"entry_reminder:{event.id}:{stamp}:24:101"
    # Turned off: nothing more, even when the start moves.
    await services.tournaments.update_settings(
        organizer(), str(event.id), reminders=False, starts_at="2026/12/05 22:00"
    )
    assert await services.reminders.tick() == 0


# -- the live page ---------------------------------------------------------------------------


async def test_the_live_page_shows_the_series_and_only_the_records_shown_by_choice(
    services: Services,
) -> None:
    final = await finish(services, await weekly(services), players=2)
    await services.series.create(organizer(), "リーグ")
    await services.series.add(organizer(), "リーグ", str(final.tournament.id))
    switched = await services.tournaments.set_page(organizer(), str(final.tournament.id), True)
    page = await services.live.open(str(switched.tournament.page_slug))
    assert isinstance(page, LivePage)
    (series,) = await services.live.series_of(page)
    assert series.name == "リーグ"
    assert [(row.rank, row.name, row.points) for row in series.standings] == [
        (1, "Player 1", 11),
        (2, "Player 2", 8),
    ]
    assert series.tiebreaks[0] == "points"
    assert await services.live.profiles_of(page) == []  # nobody chose to show theirs
    await services.profiles.set_public(player(2), True)
    (shown,) = await services.live.profiles_of(page)
    assert shown.name == "Player 2"
    assert shown.events_played == 1
    assert shown.swiss == (0, 1, 0)
    assert "101" not in repr(shown)  # no user id
    assert "102" not in repr(shown)
