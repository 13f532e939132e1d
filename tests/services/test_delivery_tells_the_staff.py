"""What the delivery tells the staff of Discord itself, on real SQLite and PostgreSQL, with
Discord replaced by the recorder of test_delivery_lanes:

- many refused requests: the staff of every server with a tournament in play or to come,
  once per warning, in their server's language (not only servers whose channels refuse);
- a notice with no place that works (its channel never chosen, or refusing, and no
  fallback): said in the log and to the staff, once per tournament and place;
- a round's standings fall back to the announcements, so they are never lost."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest

from bot.delivery import Delivery
from bot.notify.payloads import Count, NoticeDropped, Payload
from bot.notify.plan import Say, stored_payload
from bot.services import Services
from bot.services.actors import Actor
from tests.services.conftest import (
    GUILD,
    JUDGE_ROLE,
    LEGAL_DECK,
    NOW,
    ORGANIZER_ROLE,
    OTHER_GUILD,
    admin,
    player,
)
from tests.services.test_delivery_lanes import recording

PAIRINGS, LOG, ANNOUNCEMENTS = 900, 901, 902  # the recorder's #pairings and #log


def organizer_of(guild: int) -> Actor:
    return Actor(2, guild, "Organizer", frozenset({ORGANIZER_ROLE}))


async def event_in(services: Services, guild: int, locale: str, **channels: int) -> None:
    """A server in `locale` with a running 4-player event, round 1 paired."""
    await services.guilds.configure(
        admin(guild),
        organizer_role_id=ORGANIZER_ROLE,
        judge_role_id=JUDGE_ROLE,
        locale=locale,
        **channels,
    )
    await services.tournaments.create(
        organizer_of(guild), name=f"Cup {guild}", format="swiss", regulation="single"
    )
    for number in range(1, 5):
        await services.registration.register(player(number, guild), None)
        await services.decks.submit(player(number, guild), None, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer_of(guild), None)
    await services.rounds.pair(organizer_of(guild), None)


async def play_round(services: Services, guild: int) -> None:
    _, current = await services.rounds.status(organizer_of(guild), None)
    for match in current.matches:
        winner, loser = match.players
        await services.rounds.report(player(winner - 100, guild), None, "win")
        await services.rounds.report(player(loser - 100, guild), None, "lose")


async def told(services: Services, say: Say) -> list[tuple[int, str, Payload]]:
    async with services.store.database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT guild_id, lang, payload FROM outbox WHERE say = ? ORDER BY id", (say.value,)
        )
    return [(int(row[0]), str(row[1]), stored_payload(say, json.loads(row[2]))) for row in rows]


async def test_many_refused_requests_are_told_to_every_server_in_play_once(
    services: Services,
) -> None:
    """No channel refuses in either server (the refusals come from elsewhere: a bug, another
    server): both servers' staff hear it, each in its language, once per warning."""
    await event_in(services, GUILD, "ja", log_channel_id=LOG)
    await event_in(services, OTHER_GUILD, "en", log_channel_id=LOG + 1)
    delivery = Delivery(client=Any, store=services.store, clock=lambda: NOW)  # type: ignore[arg-type]
    for _ in range(delivery.refusals.warning):
        delivery.refusals.note(403)
    await asyncio.gather(*delivery._background)
    warned = await told(services, Say.REFUSALS_WARNING)
    assert sorted((guild, lang) for guild, lang, _ in warned) == [
        (GUILD, "ja"),
        (OTHER_GUILD, "en"),
    ]
    assert all(data == Count(delivery.refusals.warning) for *_, data in warned)
    for _ in range(100):  # the same burst goes on: not told again
        delivery.refusals.note(429)
    delivery._many_refused(delivery.refusals.count())  # even if warned twice in a window
    await asyncio.gather(*delivery._background)
    assert len(await told(services, Say.REFUSALS_WARNING)) == 2


async def test_a_notice_with_nowhere_to_go_is_told_once_per_place(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """Neither a standings channel nor the announcements are chosen: round 1's standings
    are skipped, with a line in the log and one notice to the staff in #log; round 2's
    standings are skipped with a line in the log only. (So are the registration post and
    the start's announcement, told once for the announcements channel.)"""
    await event_in(services, GUILD, "ja", pairings_channel_id=PAIRINGS, log_channel_id=LOG)
    delivery, recorder = recording(services)
    caplog.set_level(logging.WARNING, logger="bot.delivery.loop")
    await play_round(services, GUILD)
    await delivery.drain()
    await delivery.drain()  # what the staff are told of it
    nowhere = [data.as_(NoticeDropped) for *_, data in await told(services, Say.NOTICE_DROPPED)]
    assert [(data.nowhere, data.kind) for data in nowhere] == [
        ("announcements", "registration_post"),
        ("standings", "standings"),
    ]
    assert recorder.said.count((Say.NOTICE_DROPPED, None, None, LOG)) == 2
    assert not any(say is Say.STANDINGS for say, *_ in recorder.said)
    assert len(standings_skipped(caplog)) == 1
    await services.rounds.pair(organizer_of(GUILD), None)
    await play_round(services, GUILD)
    await delivery.drain()
    await delivery.drain()
    assert len(await told(services, Say.NOTICE_DROPPED)) == 2  # once per place
    assert len(standings_skipped(caplog)) == 2


def standings_skipped(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        record
        for record in caplog.records
        if "(standings) of tournament" in record.getMessage()
        and "skipped: none of its places" in record.getMessage()
    ]


async def test_a_rounds_standings_fall_back_to_the_announcements(services: Services) -> None:
    await event_in(
        services, GUILD, "ja", log_channel_id=LOG, announcements_channel_id=ANNOUNCEMENTS
    )
    delivery, recorder = recording(services)
    await play_round(services, GUILD)
    await delivery.drain()
    assert (Say.STANDINGS, 1, None, ANNOUNCEMENTS) in recorder.said
    assert not await told(services, Say.NOTICE_DROPPED)
