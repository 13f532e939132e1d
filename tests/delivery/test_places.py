"""Closed DMs remembered (bot/delivery/places.py), on real SQLite and PostgreSQL: a player
whose DM was refused is not tried again for a day (`CLOSED_DMS_FOR`), across a restart,
however often they use the bot meanwhile (at most one refused DM a day: each counts
toward Discord's limit); only a use in their DMs with the bot shows them open. What the
bot had to say is kept for their next use, embeds and all."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.delivery.pace import Pace
from bot.delivery.places import CLOSED_DMS_FOR, Places, Target
from bot.delivery.sending import Sender
from bot.notify.payloads import OfPenalty
from bot.notify.plan import Place, Say, plan
from bot.store.database import open_database
from bot.store.outbox import Outgoing
from bot.store.posts import KeptNotice, take_player_notices
from bot.store.uow import Store
from bot.ui.notices import Message, Said
from domain.guild import GuildConfig

GUILD, USER = 1000, 4242
REFUSED_AT = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)


@pytest.fixture
async def store(database_location: str) -> AsyncIterator[Store]:
    database = await open_database(database_location)
    yield Store(database, plan=plan)
    await database.close()


def places_of(store: Store) -> Places:
    return Places(client=Any, store=store)  # type: ignore[arg-type]


def to_the_player() -> Outgoing:
    data = OfPenalty(1)
    return Outgoing(1, GUILD, 7, Say.PENALTY_TO_PLAYER, (Place.PLAYER,), USER, data, "ja", 0)


async def tried_by_dm(places: Places, at: datetime) -> bool:
    """Whether a notice for the player at `at` would be tried by DM (else kept)."""
    found = await places.resolve(to_the_player(), GuildConfig(GUILD), at)
    assert found is not None
    _, target = found
    assert target.user_id == USER
    return not target.kept


async def test_closed_dms_are_remembered_for_a_day(store: Store) -> None:
    places = places_of(store)
    assert await tried_by_dm(places, REFUSED_AT)
    await places.dm_refused(USER, REFUSED_AT)
    assert not await tried_by_dm(places, REFUSED_AT + timedelta(minutes=1))
    assert not await tried_by_dm(places, REFUSED_AT + CLOSED_DMS_FOR - timedelta(seconds=1))
    assert await tried_by_dm(places, REFUSED_AT + CLOSED_DMS_FOR)


async def test_closed_dms_are_remembered_across_a_restart(store: Store) -> None:
    await places_of(store).dm_refused(USER, REFUSED_AT)
    restarted = places_of(store)
    await restarted.load()
    assert not await tried_by_dm(restarted, REFUSED_AT + timedelta(hours=23))
    assert await tried_by_dm(restarted, REFUSED_AT + CLOSED_DMS_FOR)


async def test_using_the_bot_often_tries_their_dms_at_most_once_a_day(store: Store) -> None:
    """A player with closed DMs uses the bot all day (commands, buttons, forms in the
    server): each use leaves their DMs remembered closed, so none of the day's notices is
    tried by DM. A use in their DMs with the bot shows them open: tried again at once."""
    places = places_of(store)
    await places.dm_refused(USER, REFUSED_AT)  # the one refused DM of the day
    for hour in range(1, 24):
        at = REFUSED_AT + timedelta(hours=hour)
        await places.used_the_bot(USER, in_their_dms=False)
        assert not await tried_by_dm(places, at), hour
    restarted = places_of(store)
    await restarted.load()
    assert not await tried_by_dm(restarted, REFUSED_AT + timedelta(hours=23))
    await restarted.used_the_bot(USER, in_their_dms=True)
    assert await tried_by_dm(restarted, REFUSED_AT + timedelta(hours=23))
    again = places_of(store)
    await again.load()
    assert await tried_by_dm(again, REFUSED_AT + timedelta(hours=23))  # written down too


async def test_a_kept_notice_keeps_its_embeds(store: Store) -> None:
    """A notice with embeds kept for the player's next use keeps them (only its text was
    kept before)."""
    places = places_of(store)
    sender = Sender(
        client=Any,  # type: ignore[arg-type]
        store=store,
        places=places,
        pace=Pace(),
        clock=lambda: REFUSED_AT,
        page_base=None,
        default_lang="ja",
        wrote=lambda: None,
    )
    embed = discord.Embed(title="第 1 回戦終了時点の順位", description="1. alice 3 点")
    said = Said([Message("順位表です", embeds=[embed]), Message(embeds=[discord.Embed(title="2")])])
    target = Target(Place.PLAYER, user_id=USER, kept=True)
    tournament: Any = SimpleNamespace(guild_id=GUILD)
    await sender._keep_for_later(to_the_player(), tournament, target, said)
    async with store.database.write() as connection:
        (kept,) = await take_player_notices(connection, GUILD, USER)
    assert isinstance(kept, KeptNotice)
    assert kept.text == "順位表です"
    assert [e.get("title") for e in kept.embeds] == ["第 1 回戦終了時点の順位", "2"]
    assert discord.Embed.from_dict(kept.embeds[0]).description == "1. alice 3 点"  # type: ignore[arg-type]
