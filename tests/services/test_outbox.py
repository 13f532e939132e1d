"""The outbox on real SQLite: what must be told about an operation is written in the same
transaction as the operation; a refusal writes nothing; the clock's notices are planned
once; and every commit is published on the one subscription point."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from bot.notify.payloads import Dispute, Nothing, RoomsRefused, Unreadable
from bot.notify.plan import Say
from bot.services import Services
from bot.store.backend import Database
from bot.store.commits import Committed
from bot.store.outbox import FAILED, SENT, SKIPPED, OutboxStore, PostState
from domain.engine.results import MatchResult
from domain.errors import PermissionDenied
from domain.tournament.operations import Actor as TournamentActor
from tests.services.conftest import GUILD, LEGAL_DECK, NOW, admin, organizer, player

ORGANIZER_ACTOR = TournamentActor(2)

CHANNEL = 555


async def outbox(database: Database) -> list[dict[str, Any]]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT o.say, o.places, o.user_id, o.payload, o.state, a.kind AS operation"
            " FROM outbox o LEFT JOIN action_log a ON a.id = o.action_id ORDER BY o.id"
        )
    return [
        {
            "say": row["say"],
            "places": json.loads(row["places"]),
            "user": row["user_id"],
            "data": json.loads(row["payload"]),
            "state": row["state"],
            "operation": row["operation"],
        }
        for row in rows
    ]


@pytest.fixture
async def event(configured: Services) -> Services:
    await configured.tournaments.create(
        replace(organizer(), channel_id=CHANNEL),
        name="Told Cup",
        format="swiss",
        regulation="single",
    )
    for number in range(1, 5):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await configured.lifecycle.start(organizer(), None)
    return configured


async def test_each_operation_writes_its_notices_with_it(event: Services) -> None:
    told = [n for n in await outbox(event.store.database) if n["say"] != "panel_refresh"]
    assert [(n["operation"], n["say"]) for n in told] == [
        ("create_tournament", "registration_post"),
        ("create_tournament", "panel"),
        ("start_tournament", "started"),
        ("start_tournament", "registration_refresh"),  # the registration post closes
    ]
    # The command's channel rides along for a place that falls back to it.
    assert told[0]["places"] == ["announcements", "origin"]
    assert told[0]["data"] == {"origin": CHANNEL}
    assert told[2]["data"]["players"] == 4

    await event.rounds.pair(organizer(), None)
    mine = await event.rounds.my_match(player(1), None)
    await event.rounds.report(player(1), None, "win")
    told = [n for n in await outbox(event.store.database) if n["say"] != "panel_refresh"]
    assert [(n["operation"], n["say"]) for n in told[4:]] == [
        ("pair_round", "pairings"),
        ("report_result", "ask_opponent"),
    ]
    ask = told[-1]
    assert ask["user"] == mine.match.opponent_of(player(1).user_id)
    assert ask["data"] == {"round": 1, "table": mine.match.table, "reporter": player(1).user_id}
    assert {n["state"] for n in told} == {"pending"}


async def test_a_refusal_writes_no_notice(event: Services) -> None:
    before = await outbox(event.store.database)
    with pytest.raises(PermissionDenied):
        await event.rounds.pair(player(1), None)
    assert await outbox(event.store.database) == before


async def test_the_clock_plans_each_notice_once_even_when_asked_twice(event: Services) -> None:
    await event.rounds.pair(organizer(), None)
    await event.rounds.start_clock(organizer(), None)
    clock = event.round_clock
    clock.clock = lambda: NOW + timedelta(minutes=30, seconds=5)
    due = await clock.due()
    assert [d.notice.minutes_left for d in due] == [10]
    assert await clock.claim(due[0]) is True
    assert await clock.claim(due[0]) is False  # a second process, or a second look
    assert await clock.tick() == 0
    reminders = [n for n in await outbox(event.store.database) if n["say"] == "reminder"]
    assert len(reminders) == 1
    # The round's channel, else #pairings, else the announcements (where a channel refuses).
    assert reminders[0]["places"] == ["round_channel", "pairings", "announcements"]


async def test_every_commit_is_published_once_committed(event: Services) -> None:
    heard: list[Committed] = []
    event.store.commits.subscribe(heard.append)
    await event.rounds.pair(organizer(), None)
    with pytest.raises(PermissionDenied):
        await event.rounds.pair(player(2), None)  # refused: nothing committed, nothing heard
    (committed,) = heard
    assert committed.kinds == ("pair_round",)
    assert committed.notices == 2  # the pairings post, and the panel brought up to date
    assert committed.version is not None
    assert [type(e).__name__ for e in committed.events] == ["RoundPaired"]


async def test_the_language_of_a_notice_is_the_servers(database: Database) -> None:
    services = Services(database, clock=lambda: NOW, default_locale="en")
    await services.guilds.configure(admin(), locale="ja")
    await services.tournaments.create(admin(), name="JA", format="swiss", regulation="single")
    async with database.read() as connection:
        rows = await connection.execute_fetchall("SELECT lang FROM outbox")
    assert {row[0] for row in rows} == {"ja"}


async def test_a_timed_job_telling_about_an_older_copy_never_stales_the_cache(
    event: Services,
) -> None:
    """The clock's jobs read a tournament, then write a notice about it; a change committed
    in between must survive (a stale copy once went back into the cache under the new
    version: a deck accepted a moment before was missing at the start's preview)."""
    await event.rounds.pair(organizer(), None)
    await event.rounds.start_clock(organizer(), None)
    clock = event.round_clock
    clock.clock = lambda: NOW + timedelta(minutes=30, seconds=5)
    (due,) = await clock.due()  # read now …
    await event.rounds.report(player(1), None, "win")  # … changed meanwhile …
    assert await clock.claim(due)  # … and told about the copy read before
    async with event.store.read(GUILD, NOW, lambda _: ORGANIZER_ACTOR) as tx:
        fresh = await tx.tournament(None)
    assert any(m.reports for m in fresh.rounds[0].matches)


async def test_the_organizer_is_told_posted_only_once_it_is(event: Services) -> None:
    """Where a round's pairings post stands, as the answer to /round pair says it: waiting
    its turn (nothing failed), waiting for Discord (it, or a notice of the tournament before
    it, failed), posted once sent, and not posted when it was skipped (nowhere to post it)
    or given up: a skipped or failed post is never "posted"."""
    store = event.store
    paired = await event.rounds.pair(organizer(), None)
    tournament = paired.tournament.id
    (post,) = [n for n in await store.outbox.pending() if n.say is Say.PAIRINGS]

    async def state() -> PostState:
        return await store.outbox.post_state(tournament, Say.PAIRINGS, 1, within=0)

    assert paired.posted is PostState.WAITING  # no delivery here: it waits its turn
    assert await state() is PostState.WAITING
    others = [n for n in await store.outbox.pending() if n.id != post.id]
    await store.outbox.failed_attempt(others[0].id, "Discord 503")
    assert await state() is PostState.FAILING  # the tournament's notices meet Discord failing
    await store.outbox.finish(others[0].id, SENT, NOW)
    await store.outbox.failed_attempt(post.id, "Discord 503")
    assert await state() is PostState.FAILING
    for done, expected in ((SKIPPED, PostState.NOT_POSTED), (FAILED, PostState.NOT_POSTED)):
        await store.outbox.finish(post.id, done, NOW)
        assert await state() is expected, done
    await store.outbox.finish(post.id, SENT, NOW)
    assert await state() is PostState.POSTED


async def test_notices_written_before_an_upgrade_read_as_their_kinds_payload(
    database: Database,
) -> None:
    """Rows the bot wrote before: a dispute from two reports that disagree (no one disputed),
    the rooms refused before it counted the tables left waiting, a key no payload knows.
    Each reads as its kind's payload; one whose data does not read fails alone (its
    renderer), and the outbox still reads the rest."""
    win = {"kind": "win", "player": "101", "point_zone": None}
    rows = [
        ("dispute", ["judges"], {"round": 1, "table": 2, "claims": [[101, win]]}),
        ("rooms_refused", ["staff"], {"round_of": 1, "reason": "server_full", "missing": []}),
        ("ask_opponent", ["round_thread", "player"], {"round": 1}),
        ("panel", ["origin"], {"origin": CHANNEL, "someday": True}),
    ]
    async with database.write() as connection:
        for say, places, payload in rows:
            await connection.execute(
                "INSERT INTO outbox (guild_id, say, places, payload, lang, created_at)"
                " VALUES (?, ?, ?, ?, 'ja', ?)",
                (GUILD, say, json.dumps(places), json.dumps(payload), NOW.isoformat()),
            )
    dispute, refused, unreadable, panel = await OutboxStore(database).pending()
    assert dispute.data == Dispute(1, 2, ((101, MatchResult.win("101")),))
    assert refused.data == RoomsRefused(1, "server_full", (), waiting=0)
    assert isinstance(unreadable.data, Unreadable)
    assert unreadable.data.about_round is None
    assert panel.data == Nothing(origin=CHANNEL)
