"""The organizer's series and entry import by buttons alone, told as a story through the real
bot: no /series and no /tournament import is typed.

Two events open for entries, in Japanese. From the first one's panel, シリーズ → 新しいシリーズ…
→ a name in the form: the series is made with that event in it. From the second one's panel
(the organizer reads English), its series menu adds it to the same series by the select. The
series standings carry ポイント表: the organizer sets the points table in its form; the series
menu's own ポイント表 opens the same form with the table as saved. The second event is taken
out of the series by the menu's other select. The first event's 参加者の取り込み opens a form
with a file upload: a CSV with a bad row is refused whole, with the same report as /tournament
import; the corrected file registers everyone.

Before each of these steps, a player presses the very same button, chooses the same option
or submits the same form, and is refused privately by the service with nothing stored. (On
Discord a player never sees the organizer's private menu or forms: their ids are pressed as
the organizer's were, as anyone can who copies them; the panel and the standings are public.)

The tests share one bot and run in order.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.store.actions import list_actions
from bot.store.books import load_series
from bot.store.database import read_snapshot
from bot.store.tournaments import load_tournament, tournament_ids
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Reply, Upload, text_of
from tests.e2e.fake_discord.harness import walk_components
from tests.e2e.story import JSON, member_id, setup_server

pytestmark = pytest.mark.e2e

FIRST, SECOND = "ボタン杯", "ボタン杯 第2回"
SERIES = "ボタンリーグ"
PANEL_REFUSAL = (
    "運営パネルのボタンは大会運営とジャッジだけが使えます。運営かジャッジに依頼してください。"
)
ORGANIZERS_ONLY = "この操作は大会運営（オーガナイザーロール）だけができます。"
POINTS = "優勝 = 5\n準優勝 = 3\n参加 = 1\n"

fake = bot_fixture("series_buttons")


@dataclass
class Story:
    """What the story made, for the steps after."""

    series_id: int = 0
    menus: dict[str, JSON] = field(default_factory=dict)  # each event's series menu, as shown


def story(fake: FakeDiscord) -> Story:
    found: Story = fake.__dict__.setdefault("series_buttons_story", Story())
    return found


async def stored(fake: FakeDiscord) -> dict[str, Any]:
    """What a press could change: every tournament (its players), the server's action log
    and its series."""
    async with read_snapshot(fake.database_location, "the bot's database") as snapshot:
        connection = snapshot.connection
        state: dict[str, Any] = {}
        for guild_id, tournament_id in await tournament_ids(connection):
            state[f"tournament {tournament_id}"] = await load_tournament(
                connection, guild_id, tournament_id
            )
        state["log"] = await list_actions(connection, guild_id=fake.guild.id)
        state["series"] = await load_series(connection, fake.guild.id)
    return state


def panel(fake: FakeDiscord, name: str) -> JSON:
    """The event's panel in the staff channel (the log channel here)."""
    title = f"運営パネル: {name}"
    (found,) = [
        m for m in fake.messages("log") if any(e.get("title") == title for e in m["embeds"])
    ]
    return found


def labels(message: JSON) -> list[str]:
    return [str(c.get("label") or c.get("placeholder")) for c in components(message)]


def components(message: JSON) -> list[JSON]:
    return [c for c in walk_components(message.get("components") or []) if c.get("custom_id")]


def options(message: JSON, placeholder: str) -> dict[str, str]:
    """A select's options: label → value."""
    (select,) = [c for c in components(message) if c.get("placeholder") == placeholder]
    return {o["label"]: o["value"] for o in select["options"]}


def assert_refused(reply: Reply, saying: str) -> None:
    # A new private message, no edit: the answer (4, 5), or a private follow-up after the
    # deferred update that a menu's change is acknowledged with before it is written (6).
    assert reply.type in (4, 5, 6), (reply.type, reply.text)
    assert reply.ephemeral, reply.text
    assert saying in reply.content, reply.text


async def refused_to_a_player(fake: FakeDiscord, press: Any, saying: str) -> Reply:
    """`press()` by a player: refused privately, `saying` why, with nothing stored."""
    before = await stored(fake)
    reply: Reply = await press()
    assert_refused(reply, saying)
    await asyncio.sleep(0.2)  # anything wrongly told would be on its way by now
    assert await stored(fake) == before
    return reply


async def test_two_events_open_for_entries_each_with_its_panel(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    for name in (FIRST, SECOND):
        created = await fake.slash(
            "tournament create",
            user="organizer",
            locale="ja",
            options={"name": name, "format": "swiss", "regulation": "single"},
        )
        assert name in created.text
    # Without decklists: the imported players can start the first one at once.
    await fake.slash(
        "tournament settings",
        user="organizer",
        locale="ja",
        options={"tournament": FIRST, "decklist_required": False},
    )
    await fake.settled()
    for name in (FIRST, SECOND):
        shown = panel(fake, name)
        # The step (開始, greyed out until two take part), then the tools on their own row.
        assert labels(shown) == [
            "開始",
            "制限カードリスト",
            "参加者の取り込み",
            "シリーズ",
            "対戦部屋: オフ",
        ]
        *_, tools = shown["components"]
        assert [c["label"] for c in tools["components"]] == [
            "制限カードリスト",
            "参加者の取り込み",
            "シリーズ",
            "対戦部屋: オフ",
        ]


async def test_a_series_made_by_its_form_from_the_first_events_panel(fake: FakeDiscord) -> None:
    shown = panel(fake, FIRST)
    await refused_to_a_player(
        fake, lambda: fake.click(shown, "シリーズ", user="alice", locale="ja"), PANEL_REFUSAL
    )
    # A judge may use the panel, but a series is the organizers'.
    await refused_to_a_player(
        fake, lambda: fake.click(shown, "シリーズ", user="judge", locale="ja"), ORGANIZERS_ONLY
    )
    menu = await fake.click(shown, "シリーズ", user="organizer", locale="ja")
    assert menu.type == 4
    assert menu.ephemeral
    assert menu.embed["title"] == f"シリーズ（✅ は「{FIRST}」が入っているもの）"
    assert "このサーバーにはまだシリーズがありません" in menu.embed["description"]
    assert labels(menu.message or {}) == ["新しいシリーズ…"]  # nothing to add to or leave

    await refused_to_a_player(
        fake,
        lambda: fake.click(menu, "新しいシリーズ…", user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    form = await fake.click(menu, "新しいシリーズ…", user="organizer", locale="ja")
    assert form.type == 9
    assert form.modal["title"] == "新しいシリーズ"
    (name_field,) = form.modal["components"]
    assert name_field["label"] == "シリーズ名"
    assert f"「{FIRST}」を加えます" in name_field["description"]
    await refused_to_a_player(
        fake,
        lambda: fake.submit_modal(form, {"name": SERIES}, user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    made = await fake.submit_modal(form, {"name": SERIES}, user="organizer", locale="ja")
    assert made.type == 6  # acknowledged first, then the menu itself, up to date
    updated = fake.message(menu.message["id"] if menu.message else 0)
    assert updated is not None
    assert updated["content"].startswith(
        f"シリーズ「{SERIES}」を作成し、「{FIRST}」を加えました。ポイント表は既定"
    )
    assert text_of(updated).count(f"✅ {SERIES}（1 大会）") == 1
    assert labels(updated) == ["シリーズから外す…", "新しいシリーズ…", f"ポイント表（{SERIES}）"]
    (series,) = (await stored(fake))["series"]
    assert (series.series.name, len(series.series.event_ids)) == (SERIES, 1)
    story(fake).series_id = series.series.id
    story(fake).menus[FIRST] = updated
    # A second series of the same name is refused as by /series create, nothing made.
    again = await fake.click(updated, "新しいシリーズ…", user="organizer", locale="ja")
    refused = await fake.submit_modal(again, {"name": SERIES}, user="organizer", locale="ja")
    assert_refused(refused, SERIES)
    assert len((await stored(fake))["series"]) == 1


async def test_the_second_event_joins_the_series_by_the_menus_select(fake: FakeDiscord) -> None:
    shown = panel(fake, SECOND)
    menu = await fake.click(shown, "シリーズ", user="organizer", locale="en-US")
    assert menu.embed["title"] == f'Series (✅: "{SECOND}" is in it)'
    assert menu.embed["description"] == f"▫️ {SERIES} (1 tournament)"
    assert labels(menu.message or {}) == ["Add to a series…", "New series…"]
    series_id = str(story(fake).series_id)
    assert options(menu.message or {}, "Add to a series…") == {SERIES: series_id}

    add = "Add to a series…"
    await refused_to_a_player(
        fake,
        lambda: fake.click(menu, add, values=[series_id], user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    added = await fake.click(menu, add, values=[series_id], user="organizer", locale="en-US")
    assert added.type == 6
    updated = fake.message(menu.message["id"] if menu.message else 0)
    assert updated is not None
    assert updated["content"] == f'"{SECOND}" added to the series "{SERIES}" (2 tournaments).'
    assert f"✅ {SERIES} (2 tournaments)" in text_of(updated)
    assert labels(updated) == ["Take out of a series…", "New series…", f"Points table ({SERIES})"]
    story(fake).menus[SECOND] = updated
    log = [a for a in (await stored(fake))["log"] if a.kind.startswith("guild.series")]
    assert [(a.kind, a.actor_id) for a in log] == [
        ("guild.series_create", member_id(fake, "organizer")),
        ("guild.series_add", member_id(fake, "organizer")),
        ("guild.series_add", member_id(fake, "organizer")),
    ]


async def test_the_points_table_from_the_standings_button(fake: FakeDiscord) -> None:
    # Anyone reads the standings; their ポイント表 button is the organizers'.
    standings = await fake.slash(
        "series standings", user="organizer", locale="ja", options={"public": True}
    )
    assert not standings.ephemeral
    assert labels(standings.message or {}) == ["ポイント表"]
    await refused_to_a_player(
        fake,
        lambda: fake.click(standings, "ポイント表", user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    form = await fake.click(standings, "ポイント表", user="organizer", locale="ja")
    assert form.type == 9
    assert form.modal["title"] == "ポイント表"
    await refused_to_a_player(
        fake,
        lambda: fake.submit_modal(form, {"points": POINTS}, user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    saved = await fake.submit_modal(form, {"points": POINTS}, user="organizer", locale="ja")
    assert f"シリーズ「{SERIES}」のポイント表を保存しました。" in saved.text
    (series,) = (await stored(fake))["series"]
    assert series.series.table.to_text() == POINTS

    # The menu's ポイント表 opens the same form, with the table as saved.
    menu = story(fake).menus[FIRST]
    again = await fake.click(menu, f"ポイント表（{SERIES}）", user="organizer", locale="ja")
    (field_,) = again.modal["components"]
    shown = (field_.get("component") or field_["components"][0])["value"]
    assert shown == series.series.table.to_text()


async def test_the_second_event_leaves_the_series_by_the_other_select(fake: FakeDiscord) -> None:
    menu = story(fake).menus[SECOND]
    leave = "Take out of a series…"
    series_id = str(story(fake).series_id)
    await refused_to_a_player(
        fake,
        lambda: fake.click(menu, leave, values=[series_id], user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    removed = await fake.click(menu, leave, values=[series_id], user="organizer", locale="ja")
    assert removed.type == 6
    updated = fake.message(menu["id"])
    assert updated is not None
    assert updated["content"] == f"「{SECOND}」をシリーズ「{SERIES}」から外しました（1 大会）。"
    assert labels(updated) == ["シリーズに加える…", "新しいシリーズ…"]
    (series,) = (await stored(fake))["series"]
    assert len(series.series.event_ids) == 1
    # The same choice again, on a copy of the menu as it was: refused, nothing changed.
    custom_id = next(c["custom_id"] for c in components(menu) if c.get("placeholder") == leave)
    old = fake.plant_select("general", custom_id, [series_id])
    stale = await refused_to_a_player(
        fake,
        lambda: fake.click_custom_id(
            old, custom_id, component_type=3, values=[series_id], user="organizer", locale="ja"
        ),
        f"「{SECOND}」はシリーズ「{SERIES}」に入っていません",
    )
    assert stale.ephemeral


def entries(fake: FakeDiscord, *lines: str) -> Upload:
    rows = "\n".join(lines)
    return Upload("entries.csv", f"Discord ID,Discord名,ハンドルネーム\n{rows}\n".encode())


async def test_the_entries_come_in_by_the_imports_file_form(fake: FakeDiscord) -> None:
    shown = panel(fake, FIRST)
    await refused_to_a_player(
        fake,
        lambda: fake.click(shown, "参加者の取り込み", user="alice", locale="ja"),
        PANEL_REFUSAL,
    )
    form = await fake.click(shown, "参加者の取り込み", user="organizer", locale="ja")
    assert form.type == 9
    assert form.modal["title"] == "参加者の取り込み"
    (upload,) = form.modal["components"]
    assert (upload["type"], upload["label"], upload["component"]["type"]) == (
        18,
        "参加者の CSV",
        19,
    )
    alice, bob = member_id(fake, "alice"), member_id(fake, "bob")
    good = entries(fake, f"{alice},,", f"{bob},,ボブ")
    await refused_to_a_player(
        fake,
        lambda: fake.submit_modal(form, {"file": good}, user="alice", locale="ja"),
        ORGANIZERS_ONLY,
    )
    # A bad row refuses the whole file, saying which and why, as /tournament import does.
    before = await stored(fake)
    bad = entries(fake, f"{alice},,", "12345,,")
    refused = await fake.submit_modal(form, {"file": bad}, user="organizer", locale="ja")
    assert refused.ephemeral
    assert f"「{FIRST}」への取り込みを中止しました。問題のある行が 1 行あります" in refused.text
    assert "3 行目: 「12345」は Discord ID ではありません" in refused.text
    assert await stored(fake) == before
    imported = await fake.submit_modal(form, {"file": good}, user="organizer", locale="ja")
    assert f"「{FIRST}」に 2 人を登録しました。" in imported.text, imported.text
    players = await fake.slash("players", user="dave", locale="ja", options={"tournament": FIRST})
    listed = players.embed["description"]
    assert "Alice" in listed
    assert "ボブ" in listed  # the handle from the file

    # Once the event has started, the form no longer opens.
    preview = await fake.slash(
        "tournament start", user="organizer", locale="ja", options={"tournament": FIRST}
    )
    await fake.click(preview, "開始する", user="organizer", locale="ja")
    await fake.settled()
    # The running panel: no import.
    assert labels(panel(fake, FIRST))[-2:] == ["シリーズ", "対戦部屋: オフ"]
    # The button on a panel left from before: the form no longer opens.
    (old_id,) = [c["custom_id"] for c in components(shown) if c["label"] == "参加者の取り込み"]
    old = fake.plant_buttons("log", [old_id])
    await refused_to_a_player(
        fake,
        lambda: fake.click_custom_id(old, old_id, user="organizer", locale="ja"),
        "参加受付は終了しています",
    )
    fake.assert_no_errors_logged()
