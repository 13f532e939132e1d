"""The fake Discord against discord.py itself, for the flows the bot does not have yet.

An in-process `discord.Client` with probe commands (nested groups, every option type,
autocomplete, a modal, a select menu and a button, channel posts with files, threads,
DMs, member and role fetches) connects to the fake, so the harness's payloads are checked
by the same library the bot uses; the client also drives the server's calendar (scheduled
events) directly. The bot's own flows are tested in the other modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import math
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
import yarl
from discord import app_commands

from tests.e2e.fake_discord import FakeDiscord, Upload
from tests.e2e.fake_discord.gateway import shard_of
from tests.e2e.fake_discord.permissions import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CONNECT,
    CREATE_EVENTS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EVERYONE_PERMISSIONS,
    MANAGE_CHANNELS,
    MANAGE_EVENTS,
    MANAGE_ROLES,
    MEMBER,
    ROLE,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SPEAK,
    STREAM,
    USE_VAD,
    VIEW_CHANNEL,
    base_permissions,
    effective_permissions,
    overwrite,
)
from tests.e2e.fake_discord.state import (
    CATEGORY_CHANNEL_LIMIT,
    GUILD_CHANNEL_LIMIT,
    GUILD_TEXT,
    GUILD_VOICE,
    PUBLIC_THREAD,
    Channel,
    RecordedRequest,
    RequestHook,
    World,
)

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


class DeckModal(discord.ui.Modal, title="Deck"):
    deck: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Deck", style=discord.TextStyle.paragraph, custom_id="deck"
    )
    note: discord.ui.Label[Any] = discord.ui.Label(
        text="Note", component=discord.ui.TextInput(custom_id="note", required=False)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        note = self.note.component
        assert isinstance(note, discord.ui.TextInput)
        text = f"deck={self.deck.value!r} note={note.value!r} lang={interaction.locale.value}"
        await interaction.response.send_message(text, ephemeral=True)


class EntriesModal(discord.ui.Modal, title="Entries"):
    """Files in a modal: a file upload inside a label, as Discord requires."""

    entries: discord.ui.Label[Any] = discord.ui.Label(
        text="CSV", component=discord.ui.FileUpload(custom_id="entries", max_values=2)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        upload = self.entries.component
        assert isinstance(upload, discord.ui.FileUpload)
        read = [f"{a.filename}:{(await a.read()).decode()}" for a in upload.values]
        await interaction.response.send_message("|".join(read), ephemeral=True)


class Menu(discord.ui.View):
    @discord.ui.select(
        custom_id="menu:pick",
        placeholder="Pick one",
        options=[
            discord.SelectOption(label="A", value="a"),
            discord.SelectOption(label="B", value="b"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {select.values}")

    @discord.ui.button(label="Confirm", custom_id="menu:confirm")
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()
        await interaction.followup.send(f"confirmed by {interaction.user.name}", ephemeral=True)


class Probe(discord.Client):
    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        probe = app_commands.Group(name="probe", description="probe")
        deep = app_commands.Group(name="deep", description="deep", parent=probe)

        @deep.command(name="echo", description="every option type")
        async def echo(
            interaction: discord.Interaction,
            text: str,
            count: int,
            flag: bool,
            ratio: float,
            who: discord.Member,
            where: discord.TextChannel,
            role: discord.Role,
            file: discord.Attachment,
        ) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            body = (await file.read()).decode()
            await interaction.followup.send(
                f"{text}|{count + 1}|{flag}|{ratio * 2}|{who.name}|{where.name}|{role.name}|"
                f"{file.filename}:{body}|{interaction.user.name}|{interaction.locale.value}",
            )

        @probe.command(name="pick", description="autocomplete")
        async def pick(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.send_message(f"chose {name}")

        @pick.autocomplete("name")
        async def pick_names(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ("alpha", "beta", "gamma")
            return [app_commands.Choice(name=n, value=n) for n in names if current in n]

        @probe.command(name="slow", description="answers after Discord's 3 s")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(3.3)
            with contextlib.suppress(discord.NotFound):  # 10062, as Discord answers
                await interaction.response.send_message("too late")

        @probe.command(name="form", description="a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(DeckModal())

        @probe.command(name="upload", description="a modal with a file upload")
        async def upload(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(EntriesModal())

        @probe.command(name="loose", description="a file upload outside a label")
        async def loose(interaction: discord.Interaction) -> None:
            modal = discord.ui.Modal(title="Loose")
            modal.add_item(discord.ui.FileUpload(custom_id="file"))
            with contextlib.suppress(discord.HTTPException):  # 400, as Discord answers
                await interaction.response.send_modal(modal)

        @probe.command(name="menu", description="a select and a button")
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=Menu(timeout=None))

        @probe.command(name="post", description="channels, files, threads, DMs, fetches")
        async def post(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.defer(ephemeral=True)
            guild = interaction.guild
            assert guild is not None
            channel = discord.utils.get(guild.text_channels, name="announcements")
            assert channel is not None
            file = discord.File(io.BytesIO(b"main deck"), "deck.txt")
            message = await channel.send("hello", file=file)
            thread = await message.create_thread(name="round 1")
            await thread.send("in the thread")
            private = await channel.create_thread(
                name="judge call", type=discord.ChannelType.private_thread
            )
            await private.add_user(who)
            await who.send("a direct message")
            await message.edit(content="hello, edited")
            member = await guild.fetch_member(who.id)
            roles = await guild.fetch_roles()
            channels = await guild.fetch_channels()
            await (await channel.send("temporary")).delete()
            await interaction.edit_original_response(
                content=f"posted for {member.name}: {len(roles)} roles {len(channels)} channels"
            )

        @probe.command(name="twice", description="the same post and thread, asked for twice")
        async def twice(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            first = await channel.send("once", nonce="7.0")
            again = await channel.send("once", nonce="7.0")  # enforced: the same message
            other = await channel.send("once", nonce="7.1")
            await channel.get_partial_message(first.id).create_thread(name="reports")
            try:
                await channel.get_partial_message(first.id).create_thread(name="reports")
                code = 0
            except discord.HTTPException as error:
                code = error.code
            same = first.id == again.id != other.id
            await interaction.response.send_message(f"{same}|{code}", ephemeral=True)

        self.tree.add_command(probe, guild=discord.Object(self.guild_id))


@dataclass
class Probed:
    """The fake and the in-process client connected to it."""

    fake: FakeDiscord
    client: Probe

    @property
    def guild(self) -> discord.Guild:
        guild = self.client.get_guild(self.fake.guild.id)
        assert guild is not None
        return guild


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def probed() -> AsyncIterator[Probed]:
    fake = FakeDiscord().start()
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway.url)
    client = Probe(fake.guild.id)
    task: asyncio.Task[None] | None = None
    try:
        await client.login(fake.token)
        await client.tree.sync(guild=discord.Object(fake.guild.id))
        task = asyncio.create_task(client.connect())
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield Probed(fake, client)
        fake.assert_no_unknown_routes()
    finally:
        await client.close()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
        fake.close()


@pytest.fixture
def probe_fake(probed: Probed) -> FakeDiscord:
    return probed.fake


async def test_nested_subcommand_with_every_option_type(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    reply = await fake.slash(
        "probe deep echo",
        user="judge",
        locale="ja",
        options={
            "text": "hi",
            "count": 2,
            "flag": True,
            "ratio": 1.5,
            "who": "bob",
            "where": "pairings",
            "role": "Judge",
            "file": Upload("deck.txt", "メインデッキ".encode()),
        },
    )
    assert reply.type == 5  # deferred, then the first follow-up replaced "thinking…"
    assert reply.ephemeral
    assert reply.content == "hi|3|True|3.0|bob|pairings|Judge|deck.txt:メインデッキ|judge|ja"
    assert reply.followups == []


async def test_harness_refuses_what_discord_would_refuse(probe_fake: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="required option 'count' is missing"):
        await probe_fake.slash("probe deep echo", options={"text": "x"})
    with pytest.raises(ValueError, match="no option"):
        await probe_fake.slash("probe pick", options={"nom": "x"})
    with pytest.raises(ValueError, match="no subcommand"):
        await probe_fake.slash("probe nothing")


async def test_autocomplete(probe_fake: FakeDiscord) -> None:
    reply = await probe_fake.autocomplete("probe pick", focused="name", value="a")
    assert reply.type == 8
    assert [c["value"] for c in reply.choices] == ["alpha", "beta", "gamma"]
    reply = await probe_fake.autocomplete("probe pick", focused="name", value="gam")
    assert [c["value"] for c in reply.choices] == ["gamma"]


async def test_autocomplete_without_waiting(probe_fake: FakeDiscord) -> None:
    # Hundreds at once, as bench/autocomplete.py sends them: each one answered.
    replies = await asyncio.gather(
        *(
            probe_fake.autocomplete("probe pick", focused="name", value="be", wait=False)
            for _ in range(300)
        )
    )
    for _ in range(500):
        if all(reply.type for reply in replies):
            break
        await asyncio.sleep(0.02)
    assert {tuple(c["value"] for c in reply.choices) for reply in replies} == {("beta",)}


async def test_the_three_seconds_run_from_sending(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    # Built, then held back 3.2 s before the fake sends it (a busy fake): still answerable.
    data = fake._command_data("probe pick", {"name": "al"}, fake.guild, focused="name")
    record = fake._interaction(4, data, "alice", fake.guild, "general", "en-US", None)
    await asyncio.sleep(3.2)
    await fake._server.call(fake._send_interaction(record))
    for _ in range(500):
        if record.callbacks:
            break
        await asyncio.sleep(0.01)
    assert [c.type for c in record.callbacks] == [8]
    # An answer later than 3 s after sending is refused, as Discord refuses it.
    late = await fake.slash("probe slow", expect_response=False)
    for _ in range(600):
        if fake.requests_to("POST", f"/interactions/{late.id}/"):
            break
        await asyncio.sleep(0.01)
    assert [r.status for r in fake.requests_to("POST", f"/interactions/{late.id}/")] == [404]
    assert late.type is None


async def test_modal_round_trip(probe_fake: FakeDiscord) -> None:
    opened = await probe_fake.slash("probe form", user="carol")
    assert opened.type == 9
    assert opened.modal["title"] == "Deck"
    submitted = await probe_fake.submit_modal(
        opened, {"deck": "4 x Card", "note": "hello"}, user="carol", locale="ja"
    )
    assert submitted.type == 4
    assert submitted.content == "deck='4 x Card' note='hello' lang=ja"
    with pytest.raises(ValueError, match="required field 'deck'"):
        await probe_fake.submit_modal(opened, {}, user="carol")


async def test_select_and_button(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    reply = await fake.slash("probe menu", user="alice")
    assert not reply.ephemeral
    assert fake.messages("general")[-1]["content"] == "choose"
    picked = await fake.click(reply, "Pick one", values=["b"], user="alice")
    assert picked.type == 7
    assert reply.content == "picked ['b']"
    confirmed = await fake.click(reply, "Confirm", user="bob")
    assert confirmed.type == 6
    assert [m["content"] for m in confirmed.followups] == ["confirmed by bob"]
    assert confirmed.followups[0]["flags"] & 64


async def test_a_modals_files_are_resolved_and_downloadable(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    opened = await fake.slash("probe upload", user="carol")
    upload = opened.modal["components"][0]
    assert upload["type"] == 18
    assert upload["component"]["type"] == 19
    files = [Upload("a.csv", b"alice"), Upload("b.csv", "ボブ".encode())]
    submitted = await fake.submit_modal(opened, {"entries": files}, user="carol")
    assert submitted.content == "a.csv:alice|b.csv:ボブ"
    sent = submitted.interaction["data"]
    (answer,) = sent["components"]
    ids = answer["component"]["values"]
    assert answer["component"]["custom_id"] == "entries"
    assert sorted(sent["resolved"]["attachments"]) == sorted(ids)
    assert [sent["resolved"]["attachments"][i]["filename"] for i in ids] == ["a.csv", "b.csv"]
    # Discord's client sends no fewer files than required, nor more than allowed.
    with pytest.raises(ValueError, match="takes 1–2 files"):
        await fake.submit_modal(opened, {}, user="carol")
    with pytest.raises(ValueError, match="takes 1–2 files"):
        await fake.submit_modal(opened, {"entries": files * 2}, user="carol")
    # A form by its custom id alone carries its files the same way.
    by_id = await fake.submit_modal(
        "other:form", {"file": Upload("c.csv", b"x"), "note": "y"}, expect_response=False
    )
    (label, row) = by_id.interaction["data"]["components"]
    (file_id,) = label["component"]["values"]
    assert by_id.interaction["data"]["resolved"]["attachments"][file_id]["filename"] == "c.csv"
    assert row["components"][0] == {"type": 4, "custom_id": "note", "value": "y"}


async def test_a_file_upload_outside_a_label_is_refused(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    refused = await fake.slash("probe loose", user="carol", expect_response=False)
    path = f"/interactions/{refused.interaction['id']}/"
    (callback,) = await fake.wait_for(lambda: fake.requests_to("POST", path), "the modal sent")
    assert callback.status == 400
    assert refused.type is None


async def test_a_select_offers_only_its_options(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    reply = await fake.slash("probe menu", user="alice")
    with pytest.raises(ValueError, match="offers"):
        await fake.click(reply, "Pick one", values=["c"], user="alice")
    with pytest.raises(ValueError, match="choices"):
        await fake.click(reply, "Pick one", values=["a", "b"], user="alice")
    # An old message's select, with options the bot would not offer today.
    planted = fake.plant_select("general", "menu:pick", ["z"])
    assert planted["components"][0]["components"][0]["options"] == [{"label": "z", "value": "z"}]
    picked = await fake.click_custom_id(
        planted, "menu:pick", component_type=3, values=["z"], expect_response=False
    )
    assert picked.interaction["data"] == {
        "custom_id": "menu:pick",
        "component_type": 3,
        "values": ["z"],
    }
    with pytest.raises(ValueError, match="offers"):
        await fake.click_custom_id(planted, "menu:pick", component_type=3, values=["a"])


async def test_channels_files_threads_and_dms(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    reply = await fake.slash("probe post", user="organizer", options={"who": "dave"})
    assert reply.content == "posted for dave: 5 roles 7 channels"
    posted = fake.messages("announcements")
    assert [m["content"] for m in posted] == ["hello, edited"]
    assert fake.file_bytes(posted[0]["attachments"][0]) == b"main deck"
    threads = {t.name: t for t in fake.threads("announcements")}
    assert set(threads) == {"round 1", "judge call"}
    assert threads["round 1"].id == int(posted[0]["id"])
    assert [m["content"] for m in fake.messages("round 1")] == ["in the thread"]
    assert fake.member("dave").id in threads["judge call"].member_ids
    assert [m["content"] for m in fake.dms("dave")] == ["a direct message"]


async def test_a_repeated_nonce_and_a_second_thread_are_refused_as_discord_does(
    probe_fake: FakeDiscord,
) -> None:
    """What the bot's outbox relies on to never post twice after a crash: a message sent
    again with the same enforced nonce is the one already made, and a post has one thread."""
    before = len(probe_fake.messages("general"))
    reply = await probe_fake.slash("probe twice", user="alice")
    assert reply.content == "True|160004"
    assert [m["content"] for m in probe_fake.messages("general")[before:]] == ["once", "once"]


async def test_a_dm_to_a_member_with_closed_dms_fails_with_50007(probed: Probed) -> None:
    fake = probed.fake
    shy = await fake.add_member("shy", accepts_dms=False)
    user = await probed.client.fetch_user(shy.id)
    with pytest.raises(discord.Forbidden) as refused:
        await user.send("hello")
    assert refused.value.code == 50007
    assert refused.value.status == 403
    assert fake.dms("shy") == []


async def test_a_thread_needs_the_bots_thread_permission(probed: Probed) -> None:
    """Without Create Public Threads (a server that took it from the bot's role), opening a
    thread on a post fails with 403 50013, as on Discord."""
    fake = probed.fake
    channel = probed.guild.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("a post")
    with fake.bot_without(CREATE_PUBLIC_THREADS), pytest.raises(discord.Forbidden) as refused:
        await message.create_thread(name="reports")
    assert refused.value.code == 50013
    assert message.id not in [thread.id for thread in fake.threads("general")]
    opened = await message.create_thread(name="reports")
    assert opened.id == message.id


# -- scheduled events (the server's calendar) ----------------------------------------------


@contextmanager
def bot_permissions(fake: FakeDiscord, granted: int, *, taken: int = 0) -> Iterator[None]:
    """The bot's role with `granted` added and `taken` removed for the block (the README's
    invite gives Create Events, not Manage Events)."""
    role = fake.role("PM Bot")
    before = role.permissions
    with fake.world.lock:
        role.permissions = (before | granted) & ~taken
    try:
        yield
    finally:
        with fake.world.lock:
            role.permissions = before


def soon(hours: float = 24) -> Any:
    return discord.utils.utcnow() + timedelta(hours=hours)


async def create_external(probed: Probed, name: str = "第14回 交流会", **options: Any) -> Any:
    values: dict[str, Any] = {
        "name": name,
        "start_time": soon(),
        "end_time": soon(27),
        "entity_type": discord.EntityType.external,
        "privacy_level": discord.PrivacyLevel.guild_only,
        "location": "Discord #pairings",
        "description": "スイスドロー 3 回戦",
    }
    values.update(options)
    return await probed.guild.create_scheduled_event(**values)


async def wait_for_cache(probed: Probed, event_id: int, status: discord.EventStatus) -> None:
    """The client's own cache follows the gateway events the fake sends."""

    def seen() -> bool:
        cached = probed.guild.get_scheduled_event(event_id)
        return cached is not None and cached.status is status

    await probed.fake.wait_for(seen, f"the client to see event {event_id} as {status}")


async def test_an_external_event_is_created_listed_and_fetched(probed: Probed) -> None:
    fake = probed.fake
    with bot_permissions(fake, CREATE_EVENTS):
        start, end = soon(48), soon(51)
        event = await create_external(probed, start_time=start, end_time=end)
    assert event.name == "第14回 交流会"
    assert event.entity_type is discord.EntityType.external
    assert event.location == "Discord #pairings"
    assert event.status is discord.EventStatus.scheduled
    assert probed.client.user is not None
    assert event.creator_id == probed.client.user.id
    assert abs(event.start_time - start) < timedelta(seconds=1)
    assert event.end_time is not None
    stored = fake.scheduled_event(event.id)
    assert stored is not None
    assert stored["privacy_level"] == 2
    assert stored["entity_metadata"] == {"location": "Discord #pairings"}
    assert stored["channel_id"] is None
    await wait_for_cache(probed, event.id, discord.EventStatus.scheduled)
    listed = await probed.guild.fetch_scheduled_events(with_counts=True)
    assert event.id in [e.id for e in listed]
    one = await probed.guild.fetch_scheduled_event(event.id)
    assert (one.name, one.description, one.user_count) == (event.name, event.description, 0)


async def test_an_event_is_edited_started_and_ended(probed: Probed) -> None:
    fake = probed.fake
    with bot_permissions(fake, CREATE_EVENTS):
        event = await create_external(probed, name="第15回 交流会")
        edited = await event.edit(
            name="第15回 交流会（延期）", start_time=soon(72), end_time=soon(75)
        )
        assert edited.name == "第15回 交流会（延期）"
        assert edited.location == "Discord #pairings"  # kept: edit sends no metadata
        moved = await edited.edit(location="Discord #standings")
        assert moved.location == "Discord #standings"
        started = await moved.start()
        assert started.status is discord.EventStatus.active
        ended = await started.end()
        assert ended.status is discord.EventStatus.completed
        await wait_for_cache(probed, event.id, discord.EventStatus.completed)
        # Once completed, nothing changes any more.
        with pytest.raises(discord.HTTPException) as finished:
            await ended.edit(name="again")
    assert finished.value.code == 180000
    assert fake.scheduled_event_history(event.id) == [1, 2, 3]


async def test_an_event_is_cancelled_and_deleted(probed: Probed) -> None:
    fake = probed.fake
    with bot_permissions(fake, CREATE_EVENTS):
        event = await create_external(probed, name="第16回 交流会")
        cancelled = await event.cancel()
        assert cancelled.status is discord.EventStatus.cancelled
        await cancelled.delete()
        with pytest.raises(discord.NotFound) as gone:
            await probed.guild.fetch_scheduled_event(event.id)
    assert gone.value.code == 10070
    assert fake.scheduled_event(event.id) is None
    deleted = [e for e in fake.scheduled_events(include_deleted=True) if e["id"] == str(event.id)]
    assert [e["status"] for e in deleted] == [4]
    await fake.wait_for(
        lambda: probed.guild.get_scheduled_event(event.id) is None,
        f"the client to drop event {event.id} from its cache",
    )
    assert probed.guild.get_scheduled_event(event.id) is None


async def test_discord_moves_an_external_event_by_itself(probed: Probed) -> None:
    fake = probed.fake
    with bot_permissions(fake, CREATE_EVENTS):
        event = await create_external(probed, name="自動", start_time=soon(1), end_time=soon(2))
    assert await fake.run_scheduled_event_automation(soon(0.5)) == []
    (active,) = await fake.run_scheduled_event_automation(soon(1.5))
    assert (active["id"], active["status"]) == (str(event.id), 2)
    await wait_for_cache(probed, event.id, discord.EventStatus.active)
    (completed,) = await fake.run_scheduled_event_automation(soon(3))
    assert completed["status"] == 3
    await wait_for_cache(probed, event.id, discord.EventStatus.completed)


async def test_what_discord_refuses_the_fake_refuses(probed: Probed) -> None:
    fake = probed.fake
    guild = probed.guild
    with bot_permissions(fake, CREATE_EVENTS):
        # discord.py sends neither entity_type nor privacy_level unless told: Discord says
        # both are required, so the bot must pass them.
        with pytest.raises(discord.HTTPException) as bare:
            await guild.create_scheduled_event(
                name="x", start_time=soon(), end_time=soon(2), location="Discord"
            )
        assert bare.value.status == 400
        assert bare.value.code == 50035
        assert "privacy_level" in bare.value.text
        assert "entity_type" in bare.value.text
        for options, field in (
            ({"start_time": soon(-1)}, "scheduled_start_time"),  # in the past
            ({"end_time": soon(20)}, "scheduled_end_time"),  # ends before it starts
            ({"location": "x" * 101}, "entity_metadata.location"),
            ({"name": "x" * 101}, "name"),
        ):
            with pytest.raises(discord.HTTPException) as refused:
                await create_external(probed, **options)
            assert refused.value.code == 50035
            assert field in refused.value.text
        event = await create_external(probed, name="遷移")
        with pytest.raises(discord.HTTPException) as jump:
            await event.edit(status=discord.EventStatus.completed)  # SCHEDULED → COMPLETED
        assert jump.value.code == 50035
        assert "status" in jump.value.text
        # A field Discord would ignore is refused, so a typo in the bot shows.
        route = discord.http.Route(
            "PATCH",
            "/guilds/{guild_id}/scheduled-events/{event_id}",
            guild_id=guild.id,
            event_id=event.id,
        )
        with pytest.raises(discord.HTTPException) as unknown:
            await probed.client.http.request(route, json={"nmae": "typo"})
        assert "nmae" in unknown.value.text
        with pytest.raises(discord.HTTPException) as private:
            await probed.client.http.request(route, json={"privacy_level": 1})
        assert "privacy_level" in private.value.text
    assert fake.scheduled_event(event.id) is not None
    assert fake.scheduled_event_history(event.id) == [1]


async def test_the_bot_needs_the_event_permissions(probed: Probed) -> None:
    fake = probed.fake
    with bot_permissions(fake, 0, taken=CREATE_EVENTS), pytest.raises(discord.Forbidden) as missing:
        await create_external(probed, name="権限なし")
    assert missing.value.code == 50013
    with bot_permissions(fake, CREATE_EVENTS):
        own = await create_external(probed, name="自分の")
    # The bot's own event: CREATE_EVENTS or MANAGE_EVENTS lets it change it.
    with bot_permissions(fake, 0, taken=CREATE_EVENTS), pytest.raises(discord.Forbidden):
        await own.edit(name="権限なし")
    with bot_permissions(fake, MANAGE_EVENTS):
        renamed = await own.edit(name="管理できる")
    assert renamed.name == "管理できる"


async def test_the_3_second_deadline_counts_from_when_the_interaction_was_sent() -> None:
    """Like Discord, the fake refuses an acknowledgement more than 3 s after it sent
    INTERACTION_CREATE; the time a busy test took to build the payload is not the bot's."""
    with FakeDiscord() as fake:

        def interaction(created_ago: float, sent_ago: float) -> Any:
            record = fake._interaction(
                2, {"name": "help", "type": 1}, "alice", fake.guild, "general", "ja", None
            )
            now = time.monotonic()
            record.created, record.sent_at = now - created_ago, now - sent_ago
            return record

        async def acknowledge(record: Any) -> tuple[int, Any]:
            url = f"{fake.api_url}/interactions/{record.id}/{record.token}/callback"
            async with (
                aiohttp.ClientSession() as http,
                http.post(url, json={"type": 4, "data": {"content": "ok"}}) as response,
            ):
                body = await response.json() if response.status >= 400 else None
                return response.status, body

        built_slowly = interaction(created_ago=5.0, sent_ago=0.5)
        status, _ = await acknowledge(built_slowly)
        assert status < 300
        assert [callback.type for callback in built_slowly.callbacks] == [4]
        late = interaction(created_ago=3.6, sent_ago=3.5)
        status, body = await acknowledge(late)
        assert (status, body["code"]) == (404, 10062)  # Unknown interaction
        assert not late.callbacks


async def test_a_guild_can_be_made_on_a_chosen_shard() -> None:
    """A benchmark of several processes gives each the same number of guilds: ids made
    in the same millisecond would otherwise all land on one shard."""
    world = World(token="t")
    guilds = [world.add_guild(f"Server {n}", shard=(n % 4, 4)) for n in range(40)]
    assert [shard_of(guild.id, 4) for guild in guilds] == [n % 4 for n in range(40)]
    assert len({guild.id for guild in guilds}) == 40


# -- Discord's rate limits ------------------------------------------------------------------

POSTS = "/channels/{channel_id}/messages"


def fresh_channels(fake: FakeDiscord, count: int, prefix: str) -> list[Channel]:
    """Text channels no request has touched yet (their buckets are full), made as a
    server's owner makes them: the client addresses them by id."""
    made = []
    with fake.world.lock:
        for n in range(count):
            channel = Channel(fake.world.ids.next(), f"{prefix}-{n}", GUILD_TEXT, fake.guild.id)
            fake.guild.channels[channel.id] = channel
            made.append(channel)
    return made


def posts_since(fake: FakeDiscord, before: int) -> list[RecordedRequest]:
    return [r for r in fake.requests[before:] if (r.method, r.route) == ("POST", POSTS)]


async def test_a_burst_of_12_posts_into_one_channel_is_paced_by_the_headers(
    probed: Probed,
) -> None:
    """About 5 posts per 5 s per channel: discord.py reads the headers and spreads 12 posts
    over two waits (5 + 5 + 2), and Discord never has to answer 429."""
    fake = probed.fake
    (channel,) = fresh_channels(fake, 1, "burst")
    target = probed.client.get_partial_messageable(channel.id)
    before = len(fake.requests)
    started = time.monotonic()
    await asyncio.gather(*(target.send(f"post {n}") for n in range(12)))
    elapsed = time.monotonic() - started
    posts = posts_since(fake, before)
    assert [r.status for r in posts] == [200] * 12
    assert 9.5 <= elapsed <= 14, elapsed
    assert fake.traffic(before).messages == {"#burst-0": 12}
    assert fake.traffic(before).longest_wait == pytest.approx(5.0, abs=0.5)
    assert {r.wait > 4 for r in posts[4::5]} == {True}  # the 5th and 10th emptied the bucket


async def test_two_channels_do_not_wait_for_each_other(probed: Probed) -> None:
    """4 posts into each of two channels, the channels side by side: 8 in one bucket would
    wait 5 s. (One after another in each: discord.py sleeps out the window in a post that
    leaves its bucket with no token to spare, as concurrent posts into one channel do.)"""
    fake = probed.fake
    targets = [probed.client.get_partial_messageable(c.id) for c in fresh_channels(fake, 2, "two")]

    async def four_posts(target: discord.PartialMessageable) -> None:
        for n in range(4):
            await target.send(f"post {n}")

    before = len(fake.requests)
    started = time.monotonic()
    await asyncio.gather(*(four_posts(target) for target in targets))
    assert time.monotonic() - started < 3.0
    assert [r.status for r in posts_since(fake, before)] == [200] * 8


def most_in_one_second(times: list[float]) -> int:
    times = sorted(times)
    return max((sum(1 for t in times[i:] if t - start < 1.0) for i, start in enumerate(times)))


async def test_the_global_limit_holds_across_60_channels(probed: Probed) -> None:
    """50 requests a second in all, whatever the buckets: one post into each of 60 channels
    at once gets global 429s for what is over, which discord.py waits out and sends again."""
    fake = probed.fake
    channels = fresh_channels(fake, 60, "wide")
    await asyncio.sleep(1.0)  # the last second's requests of the tests before
    before = len(fake.requests)
    await asyncio.gather(
        *(probed.client.get_partial_messageable(c.id).send("hello") for c in channels)
    )
    posts = posts_since(fake, before)
    refused = [r for r in posts if r.status == 429]
    assert refused, "60 posts at once passed the global limit of 50 a second"
    assert {r.scope for r in refused} == {"global"}
    assert sum(1 for r in posts if r.status == 200) == 60  # every one made it in the end
    passed = [r.at for r in fake.requests[before:] if r.status != 429]
    assert most_in_one_second(passed) <= 50
    assert fake.traffic(before).rate_limited == {"global": len(refused)}


async def raw(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: bool = True
) -> tuple[int, Any, Any]:
    """One request as a client that ignores the rate-limit headers sends it."""
    headers = {"Authorization": f"Bot {fake.token}"} if token else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.api_url + path, json=body, headers=headers) as response,
    ):
        text = await response.text()
        return response.status, response.headers, json.loads(text) if text else None


async def test_a_client_ignoring_the_headers_gets_429s_counted_as_invalid(
    probed: Probed,
) -> None:
    fake = probed.fake
    (channel,) = fresh_channels(fake, 1, "rude")
    invalid = fake.invalid_requests()
    answers = [
        await raw(fake, "POST", f"/channels/{channel.id}/messages", {"content": "x"})
        for _ in range(6)
    ]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    _, first, _ = answers[0]
    _, headers, body = answers[5]
    assert body == {
        "message": "You are being rate limited.",
        "retry_after": body["retry_after"],
        "global": False,
        "code": 0,
    }
    assert isinstance(body["retry_after"], float)
    assert 0 < body["retry_after"] <= 5
    assert headers["Content-Type"] == "application/json"
    assert int(headers["Retry-After"]) == math.ceil(body["retry_after"])
    assert headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in headers
    assert (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("5", "0")
    assert headers["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
    assert [first["X-RateLimit-Remaining"]] == ["4"]
    assert float(first["X-RateLimit-Reset-After"]) == pytest.approx(5.0, abs=0.1)
    assert float(first["X-RateLimit-Reset"]) == pytest.approx(time.time() + 5.0, abs=1.0)
    assert len(fake.messages(channel.id)) == 5
    assert fake.invalid_requests() == invalid + 1
    assert (fake.invalid_history()[-1].status, fake.invalid_history()[-1].scope) == (429, "user")


async def test_a_trap_after_discord_waits_for_a_request_discord_carried_out(
    probed: Probed,
) -> None:
    """A test's trap that springs once Discord made the post (`kill_on(after=True)`) lets a
    429 go by: Discord made nothing then, and the bot's retry is the post it waits for."""
    fake = probed.fake
    (channel,) = fresh_channels(fake, 1, "trapped")
    sprung: list[int] = []
    path = f"/channels/{channel.id}/messages"
    for _ in range(5):
        await raw(fake, "POST", path, {"content": "x"})
    hook = RequestHook("POST", path, lambda: sprung.append(len(fake.messages(channel.id))), True)
    with fake.world.lock:
        fake.world.request_hooks.append(hook)
    status, _, body = await raw(fake, "POST", path, {"content": "x"})
    assert (status, sprung) == (429, [])
    await asyncio.sleep(body["retry_after"])
    status, _, _ = await raw(fake, "POST", path, {"content": "x"})
    assert (status, sprung) == (200, [6])


async def test_a_burst_past_50_a_second_gets_a_global_429(probed: Probed) -> None:
    fake = probed.fake
    channels = fresh_channels(fake, 60, "look")
    await asyncio.sleep(1.0)
    answers = await asyncio.gather(*(raw(fake, "GET", f"/channels/{c.id}") for c in channels))
    refused = [(headers, body) for status, headers, body in answers if status == 429]
    assert len(refused) == 10
    headers, body = refused[0]
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert body["global"] is True
    assert body["message"] == "You are being rate limited."
    await asyncio.sleep(1.0)  # the global second spent, for the tests after


async def test_a_shared_429_is_not_counted_against_the_bot(probed: Probed) -> None:
    fake = probed.fake
    (channel,) = fresh_channels(fake, 1, "busy")
    fake.hold_shared(channel.id, 2.0)
    invalid = fake.invalid_requests()
    status, headers, body = await raw(
        fake, "POST", f"/channels/{channel.id}/messages", {"content": "x"}
    )
    assert (status, headers["X-RateLimit-Scope"]) == (429, "shared")
    assert body["message"] == "The resource is being rate limited."
    assert fake.invalid_requests() == invalid
    assert fake.messages(channel.id) == []


async def test_the_interaction_endpoints_are_exempt_from_the_global_limit(
    probed: Probed,
) -> None:
    fake = probed.fake
    channels = fresh_channels(fake, 50, "full")
    await asyncio.sleep(1.0)
    await asyncio.gather(*(raw(fake, "GET", f"/channels/{c.id}") for c in channels))
    # The bot's 50 of this second are spent; a user's command is still answered.
    reply = await fake.slash("probe pick", options={"name": "alpha"})
    assert reply.content == "chose alpha"
    (status, _, _) = await raw(fake, "GET", f"/channels/{channels[0].id}")
    assert status == 429
    await asyncio.sleep(1.0)  # the global second spent, for the tests after


async def test_an_interaction_token_expires_after_15_minutes(probed: Probed) -> None:
    fake = probed.fake
    reply = await fake.slash("probe pick", options={"name": "beta"})
    token = reply.interaction["token"]
    original = f"/webhooks/{fake.world.app_id}/{token}/messages/@original"
    fake.age_interaction(reply, minutes=14.5)
    status, _, _ = await raw(fake, "PATCH", original, {"content": "still mine"}, token=False)
    assert status == 200
    fake.age_interaction(reply, minutes=0.6)
    invalid = fake.invalid_requests()
    for method, path, body in (
        ("PATCH", original, {"content": "too late"}),
        ("POST", f"/webhooks/{fake.world.app_id}/{token}", {"content": "too late"}),
    ):
        status, _, answer = await raw(fake, method, path, body, token=False)
        assert (status, answer) == (401, {"message": "Invalid Webhook Token", "code": 50027})
    assert reply.content == "still mine"
    assert fake.invalid_requests() == invalid + 2
    # An answer to an interaction whose token has expired: the same.
    data = fake._command_data("probe pick", {"name": "al"}, fake.guild, focused="name")
    record = fake._interaction(4, data, "alice", fake.guild, "general", "en-US", None)
    fake.age_interaction(record, minutes=16)
    status, _, answer = await raw(
        fake, "POST", f"/interactions/{record.id}/{record.token}/callback", {"type": 8}
    )
    assert (status, answer["code"]) == (401, 50027)


async def test_a_nonce_is_kept_a_few_minutes(probed: Probed) -> None:
    fake = probed.fake
    (channel,) = fresh_channels(fake, 1, "nonce")
    path = f"/channels/{channel.id}/messages"
    repeats = fake.traffic().nonce_repeats
    body = {"content": "once", "nonce": "42.0", "enforce_nonce": True}
    (_, _, first), (_, _, again) = [await raw(fake, "POST", path, body) for _ in range(2)]
    assert first["id"] == again["id"]
    assert fake.traffic().nonce_repeats == repeats + 1
    fake.age_nonces(minutes=3)  # past what Discord keeps
    _, _, later = await raw(fake, "POST", path, body)
    assert later["id"] != first["id"]
    assert [m["content"] for m in fake.messages(channel.id)] == ["once", "once"]


async def test_the_limits_can_be_turned_off_for_a_bench_of_the_bot_alone() -> None:
    with FakeDiscord(rate_limits=False) as fake:  # the switch itself is under test
        (channel,) = fresh_channels(fake, 1, "open")
        answers = [
            await raw(fake, "POST", f"/channels/{channel.id}/messages", {"content": "x"})
            for _ in range(12)
        ]
        assert [status for status, _, _ in answers] == [200] * 12
        assert {headers["X-RateLimit-Reset-After"] for _, headers, _ in answers} == {"0.000"}


# -- faults on command ----------------------------------------------------------------------


async def test_discord_failing_for_a_time_spares_callbacks_when_told(probed: Probed) -> None:
    fake = probed.fake
    (channel,) = fresh_channels(fake, 1, "outage")
    path = f"/channels/{channel.id}/messages"
    fault = fake.fail_discord(502, spare_callbacks=True)
    status, headers, _ = await raw(fake, "POST", path, {"content": "lost"})
    assert status == 502
    assert "X-RateLimit-Bucket" not in headers
    reply = await fake.slash("probe pick", options={"name": "gamma"})
    assert reply.content == "chose gamma"  # the callback went through
    fault.end()
    assert (await raw(fake, "POST", path, {"content": "back"}))[0] == 200
    timed = fake.fail_discord(500, seconds=0.3, method="POST", path=path)
    assert (await raw(fake, "POST", path, {"content": "lost"}))[0] == 500
    assert (await raw(fake, "GET", f"/channels/{channel.id}"))[0] == 200  # only POSTs there
    await asyncio.sleep(0.35)
    assert (await raw(fake, "POST", path, {"content": "back again"}))[0] == 200
    assert [m["content"] for m in fake.messages(channel.id)] == ["back", "back again"]
    assert (fault.hits, timed.hits) == (1, 1)


async def test_refused_callbacks_fail_the_interaction(probe_fake: FakeDiscord) -> None:
    fake = probe_fake
    fault = fake.refuse_callbacks()
    failed = await fake.slash("probe pick", options={"name": "alpha"}, expect_response=False)
    path = f"/interactions/{failed.id}/"
    (first, *_) = await fake.wait_for(lambda: fake.requests_to("POST", path), "the callback")
    assert first.status == 503
    assert failed.type is None
    fault.end()
    assert (await fake.slash("probe pick", options={"name": "alpha"})).type == 4


async def test_a_channel_refuses_the_bot_through_its_overwrites(probed: Probed) -> None:
    fake = probed.fake
    with fake.bot_with(MANAGE_CHANNELS):  # Discord: making a channel takes Manage Channels
        channel = await probed.guild.create_text_channel("closed")
    made = fake.channel(channel.id)
    thread_post = await channel.send("a post with a thread")
    thread = await thread_post.create_thread(name="reports")
    in_thread = probed.client.get_partial_messageable(thread.id)
    try:
        await fake.set_overwrite(made.id, "bot", deny=SEND_MESSAGES)
        with pytest.raises(discord.Forbidden) as refused:
            await channel.send("refused")
        assert refused.value.code == 50013
        await in_thread.send("a thread takes Send Messages in Threads, not Send Messages")
        await fake.set_overwrite(made.id, "PM Bot", deny=SEND_MESSAGES_IN_THREADS)
        with pytest.raises(discord.Forbidden) as in_threads:
            await in_thread.send("refused")
        assert in_threads.value.code == 50013
        # Hidden from @everyone, the bot's role included, until its role may see it.
        await fake.set_overwrite(made.id, "bot")
        await fake.set_overwrite(made.id, "PM Bot")
        await fake.set_overwrite(made.id, "@everyone", deny=VIEW_CHANNEL)
        for target in (channel, in_thread):
            with pytest.raises(discord.Forbidden) as unseen:
                await target.send("unseen")
            assert unseen.value.code == 50001
        await fake.set_overwrite(made.id, "PM Bot", allow=VIEW_CHANNEL)
        await channel.send("seen again")
    finally:
        made.permission_overwrites = []
    assert [m["content"] for m in fake.messages(made.id)] == ["a post with a thread", "seen again"]


async def test_a_deleted_channel_takes_its_threads_with_it(probed: Probed) -> None:
    fake = probed.fake
    guild = probed.guild
    with fake.bot_with(MANAGE_CHANNELS):
        made = await guild.create_text_channel("doomed")
    post = await made.send("before")
    thread = await post.create_thread(name="round 1")
    await fake.wait_for(lambda: guild.get_thread(thread.id), "the client to see the thread")
    await fake.delete_channel("doomed")
    await fake.wait_for(lambda: guild.get_channel(made.id) is None, "the CHANNEL_DELETE")
    assert guild.get_thread(thread.id) is None
    for send in (made.send, thread.send, post.edit):
        with pytest.raises(discord.NotFound) as gone:
            await send(content="after")
        assert gone.value.code == 10003
    assert fake.message(post.id) is not None  # what was said stays readable by id


async def test_dm_attempts_are_counted_per_user(probed: Probed) -> None:
    fake = probed.fake
    closed = await fake.add_member("closed", accepts_dms=False)
    user = await probed.client.fetch_user(closed.id)
    for _ in range(2):
        with pytest.raises(discord.Forbidden):
            await user.send("hello")
    assert fake.dm_attempts("closed") == 2
    assert fake.traffic().dm_attempts["closed"] == 2


# -- the permission arithmetic --------------------------------------------------------------


async def test_permissions_follow_discords_order_of_overwrites() -> None:
    world = World(token="t")
    guild = world.add_guild("Perms")
    member = world.add_member(guild, "ann", ("Judge",))
    judge = guild.role("Judge")
    channel = guild.channel("pairings")
    base = base_permissions(guild, member)
    assert base == EVERYONE_PERMISSIONS
    assert effective_permissions(guild, member, channel) == base
    # @everyone's deny, then a role's allow: the role wins.
    channel.permission_overwrites = [
        overwrite(guild.id, ROLE, deny=SEND_MESSAGES),
        overwrite(judge.id, ROLE, allow=SEND_MESSAGES),
    ]
    assert effective_permissions(guild, member, channel) & SEND_MESSAGES
    # Among roles, allow beats deny; the member's own overwrite beats every role.
    moderator = guild.role("Moderator")
    member.role_ids.append(moderator.id)
    channel.permission_overwrites.append(overwrite(moderator.id, ROLE, deny=SEND_MESSAGES))
    assert effective_permissions(guild, member, channel) & SEND_MESSAGES
    channel.permission_overwrites.append(overwrite(member.id, MEMBER, deny=SEND_MESSAGES))
    sending = effective_permissions(guild, member, channel)
    assert not sending & SEND_MESSAGES
    assert not sending & (ATTACH_FILES | EMBED_LINKS)  # implicitly denied with sending
    # A thread inherits its parent's overwrites, but not Send Messages.
    thread = Channel(world.ids.next(), "t", PUBLIC_THREAD, guild.id, channel.id)
    guild.channels[thread.id] = thread
    assert effective_permissions(guild, member, thread) & SEND_MESSAGES_IN_THREADS
    assert effective_permissions(guild, member, thread) & ATTACH_FILES  # sending there works
    channel.permission_overwrites[-1] = overwrite(member.id, MEMBER, deny=VIEW_CHANNEL)
    assert effective_permissions(guild, member, channel) == 0  # unseen: nothing counts
    assert effective_permissions(guild, member, thread) == 0
    # The owner and administrators are above overwrites.
    owner = guild.members[guild.owner_id]
    channel.permission_overwrites.append(overwrite(owner.id, MEMBER, deny=VIEW_CHANNEL))
    assert effective_permissions(guild, owner, channel) == ALL_PERMISSIONS
    admin = world.add_member(guild, "root")
    guild.roles[moderator.id].permissions |= ADMINISTRATOR
    admin.role_ids.append(moderator.id)
    assert effective_permissions(guild, admin, channel) == ALL_PERMISSIONS


async def test_without_connect_a_voice_channel_gives_no_voice_at_all() -> None:
    """The docs' implicit permissions: in a voice channel, without Connect, speaking, video
    and voice activity go too (what a match room's spectators are denied rests on it);
    in a text channel Connect means nothing."""
    world = World(token="t")
    guild = world.add_guild("Voice")
    member = world.add_member(guild, "ann")
    room = Channel(world.ids.next(), "卓1", GUILD_VOICE, guild.id)
    guild.channels[room.id] = room
    voice = SPEAK | STREAM | USE_VAD
    assert effective_permissions(guild, member, room) & (CONNECT | voice) == CONNECT | voice
    room.permission_overwrites = [overwrite(guild.id, ROLE, deny=CONNECT)]
    seen = effective_permissions(guild, member, room)
    assert seen & VIEW_CHANNEL
    assert not seen & (CONNECT | voice)
    # The member's own allow of Speak does not bring it back without Connect.
    room.permission_overwrites.append(overwrite(member.id, MEMBER, allow=SPEAK))
    assert not effective_permissions(guild, member, room) & SPEAK
    text = guild.channel("pairings")
    text.permission_overwrites = [overwrite(guild.id, ROLE, deny=CONNECT)]
    assert effective_permissions(guild, member, text) & SEND_MESSAGES


# -- voice channels and categories (the match rooms) ------------------------------------------


async def test_a_voice_channel_has_its_own_chat_and_a_category_none(probed: Probed) -> None:
    """A voice channel takes posts in its chat, held to the same permission checks as a
    text channel; a category answers 400 50008."""
    fake = probed.fake
    with fake.bot_with(MANAGE_CHANNELS):
        category = await probed.guild.create_category("chat rooms")
        room = await probed.guild.create_voice_channel("卓1", category=category)
    chat = probed.client.get_partial_messageable(room.id)
    await chat.send("残り 10 分です")
    assert [m["content"] for m in fake.messages(room.id)] == ["残り 10 分です"]
    with pytest.raises(discord.HTTPException) as no_chat:
        await probed.client.get_partial_messageable(category.id).send("nowhere")
    assert no_chat.value.code == 50008
    await fake.set_overwrite(room.id, "bot", deny=SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as refused:
        await chat.send("refused")
    assert refused.value.code == 50013
    await fake.set_overwrite(room.id, "bot", deny=VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as unseen:
        await chat.send("unseen")
    assert unseen.value.code == 50001


async def test_making_and_deleting_channels_takes_manage_channels(probed: Probed) -> None:
    fake = probed.fake
    with pytest.raises(discord.Forbidden) as refused:
        await probed.guild.create_voice_channel("卓2")
    assert refused.value.code == 50013
    with fake.bot_with(MANAGE_CHANNELS):
        room = await probed.guild.create_voice_channel("卓2")
    with pytest.raises(discord.Forbidden) as kept:
        await room.delete()
    assert kept.value.code == 50013
    with fake.bot_with(MANAGE_CHANNELS):
        await room.delete()
    assert room.id in fake.world.deleted_channels


async def test_overwrites_take_manage_roles_and_only_the_bits_the_bot_has(probed: Probed) -> None:
    """Discord's rule for writing overwrites (on a new channel or an old one): Manage Roles,
    and no bit the bot does not have itself."""
    fake = probed.fake
    everyone = probed.guild.default_role
    listen_only = {everyone: discord.PermissionOverwrite(speak=False, stream=False)}
    with fake.bot_with(MANAGE_CHANNELS):
        with pytest.raises(discord.Forbidden) as without_roles:
            await probed.guild.create_voice_channel("卓3", overwrites=listen_only)
        assert without_roles.value.code == 50013
        with fake.bot_with(MANAGE_ROLES):
            room = await probed.guild.create_voice_channel("卓3", overwrites=listen_only)
            made = fake.channel(room.id)
            assert [int(o["deny"]) for o in made.permission_overwrites] == [SPEAK | STREAM]
            muting = {everyone: discord.PermissionOverwrite(mute_members=True)}
            with pytest.raises(discord.Forbidden) as beyond:  # the bot cannot mute anyone
                await room.edit(overwrites=muting)
            assert beyond.value.code == 50013
        with pytest.raises(discord.Forbidden) as lost:  # Manage Roles taken away
            await room.edit(overwrites={})
        assert lost.value.code == 50013
    assert [int(o["deny"]) for o in made.permission_overwrites] == [SPEAK | STREAM]


async def test_a_category_holds_50_channels_and_a_server_500(probed: Probed) -> None:
    fake = probed.fake
    with fake.bot_with(MANAGE_CHANNELS):
        category = await probed.guild.create_category("full rooms")
        seats = await fake.add_channels(
            CATEGORY_CHANNEL_LIMIT, prefix="seat", kind=GUILD_VOICE, parent=category.id
        )
        with pytest.raises(discord.HTTPException) as full_category:
            await probed.guild.create_voice_channel("卓51", category=category)
        assert full_category.value.code == 50035
        assert "Maximum number of channels in category" in str(full_category.value)
        fillers = await fake.add_channels(
            GUILD_CHANNEL_LIMIT - fake.guild.channel_count, prefix="filler", tell_bot=False
        )
        try:
            assert fake.guild.channel_count == GUILD_CHANNEL_LIMIT
            with pytest.raises(discord.HTTPException) as full_server:
                await probed.guild.create_voice_channel("one too many")
            assert full_server.value.code == 30013
        finally:
            with fake.world.lock:
                for channel in [*seats, *fillers]:
                    del fake.guild.channels[channel.id]
        await probed.guild.create_voice_channel("fits again", category=category)
