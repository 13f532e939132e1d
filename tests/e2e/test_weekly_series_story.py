"""A weekly series through the real bot and the fake Discord, in Japanese: three weekly
events of one repeating tournament, each created from the last at its finish, each with a
scheduled event on the server's calendar that follows its time; reminders to the registered
players; the second event's players imported from a CSV after a first file with two bad
rows was refused whole; a handle (ハンドルネーム) in the posts and the exports; a series
across the three with its standings checked by hand; /profile with the right history; the
fourth event, made by the repeat, called off (中止) with its calendar entry; `verify` agrees.

The bot's clock runs 300 times faster (CLOCK_SPEED, test-only): an hour of the bot's lasts
12 seconds, so a start set 65 minutes ahead brings the day-before and the hour-before
reminders within a second or two. The tests share one bot and run in order.
"""

from __future__ import annotations

import asyncio
import csv
import io
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.services.clock import scaled_clock
from domain.timeparse import JST
from tests.conftest import edit_behind_the_bots_back
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Upload, text_of
from tests.e2e.story import (
    FAST_CLOCK,
    JSON,
    member_id,
    pairings_of,
    run_cli,
    setup_server,
    start_event,
)

pytestmark = pytest.mark.e2e

FIRST, SECOND, THIRD, FOURTH = (f"第{n}回 週末交流会" for n in (1, 2, 3, 4))
SERIES = "週末リーグ"
PLAYERS = ("alice", "bob", "carol", "dave")  # the stronger first: alice beats everyone
HANDLES = {"alice": "アリス", "bob": "ボブ"}
SPEED = float(FAST_CLOCK["CLOCK_SPEED"])
# The points table the organizer types into the series' form (checked by hand below).
POINTS = {1: 5, 2: 3, 3: 2, 4: 2}
PARTICIPATION = 1
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4

fake = bot_fixture("weekly_series", **FAST_CLOCK)
state: dict[str, Any] = {}


# -- the bot's clock, and reading what it posted ----------------------------------------------


def bot_now() -> datetime:
    """The bot's fast clock, as the bot computes it."""
    return scaled_clock(SPEED, lambda: datetime.now(UTC))()


def typed(moment: datetime) -> str:
    """A time as an organizer types it (Japan time)."""
    return moment.astimezone(JST).strftime("%Y/%m/%d %H:%M")


def start_in(minutes: int) -> datetime:
    """A start `minutes` of the bot's ahead, to the minute (as typed)."""
    moment = (bot_now() + timedelta(minutes=minutes)).astimezone(JST)
    return moment.replace(second=0, microsecond=0) + timedelta(minutes=1)


def calendar_entry(fake: FakeDiscord, name: str) -> JSON:
    (entry,) = [e for e in fake.scheduled_events(include_deleted=True) if e["name"] == name]
    return entry


def starts(entry: JSON) -> datetime:
    return datetime.fromisoformat(str(entry["scheduled_start_time"]).replace("Z", "+00:00"))


async def wait_for(condition: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    for _ in range(int(seconds * 10)):
        if condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}")


def reminders_to(fake: FakeDiscord, player: str, name: str) -> list[str]:
    return [
        text
        for message in fake.dms(player)
        if "⏰" in (text := text_of(message)) and f"「{name}」" in text
    ]


async def set_start_and_see_reminders(fake: FakeDiscord, name: str) -> datetime:
    """The organizer moves the start 65 minutes ahead: the calendar follows at once, and
    five minutes of the bot's later every registered player gets the hour-before reminder
    (not the day-before one: they registered after its moment)."""
    start = start_in(65)
    saved = await fake.slash(
        "tournament settings",
        user="organizer",
        locale="ja",
        options={"tournament": name, "starts_at": typed(start)},
    )
    assert "設定を保存しました" in saved.text, saved.text
    await wait_for(lambda: starts(calendar_entry(fake, name)) == start, "the calendar to follow")
    assert calendar_entry(fake, name)["status"] == SCHEDULED
    for player in PLAYERS:
        await wait_for(lambda p=player: bool(reminders_to(fake, p, name)), "the reminder")  # type: ignore[misc]
    await asyncio.sleep(1.0)  # more of the bot's time: nothing more is said
    for player in PLAYERS:
        (reminded,) = reminders_to(fake, player, name)  # once, however often the bot looked
        assert f"<t:{int(start.timestamp())}:F>" in reminded
    return start


async def play(fake: FakeDiscord, name: str, rounds: int = 2) -> None:
    """Start, then each round paired and its clock started, every table won by the player
    first in PLAYERS (the judge records it), then the finish."""
    started = await start_event(fake)
    assert "開始" in started.text, started.text
    await wait_for(lambda: calendar_entry(fake, name)["status"] == ACTIVE, "the event under way")
    for number in range(1, rounds + 1):
        paired = await fake.slash("round pair", user="organizer", locale="ja")
        assert f"第 {number} 回戦" in paired.text, paired.text
        await fake.slash("round start", user="organizer", locale="ja")
        for table, players in pairings_of(fake, number).items():
            if table == 0:
                continue
            winner = min(players, key=PLAYERS.index)
            await fake.slash(
                "result set",
                user="judge",
                locale="ja",
                options={"table": table, "result": "win", "player": winner},
            )
    finished = await fake.slash("tournament finish", user="organizer", locale="ja")
    assert "終了しました" in finished.text, finished.text
    state[f"finished {name}"] = finished.text
    await wait_for(lambda: calendar_entry(fake, name)["status"] == COMPLETED, "the event over")
    assert fake.scheduled_event_history(calendar_entry(fake, name)["id"]) == [
        SCHEDULED,
        ACTIVE,
        COMPLETED,
    ]


async def exported_rows(fake: FakeDiscord, name: str) -> list[dict[str, str]]:
    """The standings CSV /tournament export attaches, row by row."""
    exported = await fake.slash(
        "tournament export", user="carol", locale="ja", options={"tournament": name}
    )
    (table,) = [f for f in exported.files if f["filename"].endswith("-standings.csv")]
    text = fake.file_bytes(table).decode("utf-8-sig")
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    return [dict(zip(header, row, strict=True)) for row in reader]


def name_in_event(player: str, event: int) -> str:
    """How the events show a player: their handle from the event they set it on."""
    if player == "alice" or (player == "bob" and event >= 3):
        return HANDLES[player]
    return player.capitalize()


# -- the story ----------------------------------------------------------------------------------


async def test_the_first_event_repeats_weekly_and_is_on_the_calendar(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    await fake.slash(
        "setup server", user="owner", locale="ja", options={"ratings": "ratings_series"}
    )
    created = await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={"name": FIRST, "format": "swiss", "regulation": "mix", "rounds": 2},
    )
    assert FIRST in created.text
    # A tournament without a start time has no calendar entry.
    assert fake.scheduled_events() == []
    saved = await fake.slash(
        "tournament settings",
        user="organizer",
        locale="ja",
        options={"decklist_required": False, "repeat": "weekly", "starts_at": typed(start_in(600))},
    )
    info = {f["name"]: f["value"] for f in saved.embed["fields"]}
    assert info["繰り返し"] == "毎週"
    entry = calendar_entry(fake, FIRST)
    assert entry["entity_type"] == 3  # EXTERNAL: a place, not a voice channel
    assert entry["privacy_level"] == 2
    assert entry["entity_metadata"]["location"].startswith("https://discord.com/channels/")
    assert entry["scheduled_end_time"] > entry["scheduled_start_time"]
    assert entry["creator_id"] == str(fake.world.bot_user.id)


async def test_players_register_one_with_a_handle_and_are_reminded(fake: FakeDiscord) -> None:
    registered = await fake.slash(
        "register", user="alice", locale="ja", options={"handle": HANDLES["alice"]}
    )
    assert "登録しました" in registered.text
    assert "ハンドルネームを設定" in [c.get("label") for c in registered.components]
    for player in PLAYERS[1:]:
        await fake.slash("register", user=player, locale="ja")
    listed = await fake.slash("players", user="dave", locale="ja")
    assert HANDLES["alice"] in listed.embed["description"]
    state["first start"] = await set_start_and_see_reminders(fake, FIRST)


async def test_the_finish_creates_the_second_event_a_week_later(fake: FakeDiscord) -> None:
    await play(fake, FIRST)
    assert f"次回の「{SECOND}」" in state[f"finished {FIRST}"]
    # The handle is in the posts: the standings and the final standings.
    final = [
        m
        for m in fake.messages("standings")
        if m.get("embeds") and FIRST in m["embeds"][0]["title"] and "最終順位" in text_of(m)
    ]
    assert final
    assert HANDLES["alice"] in text_of(final[-1])
    assert "Alice" not in text_of(final[-1])
    # The second event: the next number, a week later at the same time, on the calendar.
    second = calendar_entry(fake, SECOND)
    assert starts(second) == state["first start"] + timedelta(weeks=1)
    assert second["status"] == SCHEDULED
    info = await fake.slash(
        "tournament info", user="organizer", locale="ja", options={"tournament": SECOND}
    )
    fields = {f["name"]: f["value"] for f in info.embed["fields"]}
    assert fields["繰り返し"] == "毎週"
    assert fields["デッキリスト"] == "任意"
    # The log says who made it, and that the repeat did.
    ((first_id,),) = fake.database_rows("SELECT id FROM tournaments WHERE name = ?", FIRST)
    log = await fake.slash("log", user="organizer", locale="ja", options={"tournament": SECOND})
    assert f"大会 ID {first_id} の繰り返しで自動作成" in log.text, log.text
    assert f"<@{member_id(fake, 'organizer')}>" in log.text


async def test_the_second_events_entries_come_from_a_csv(fake: FakeDiscord) -> None:
    ids = {player: member_id(fake, player) for player in PLAYERS}
    bad = (
        "Discord ID,Discord名,ハンドルネーム\n"
        f"{ids['alice']},,\n"
        f"{ids['bob']},,\n"
        "12345,,\n"  # line 4: not a Discord ID
        f"{ids['carol']},,\n"
        "<@10000000000000000>,,\n"  # line 6: nobody on this server
        ",Dave,\n"
    )
    refused = await fake.slash(
        "tournament import",
        user="organizer",
        locale="ja",
        options={"file": Upload("entries.csv", bad.encode("utf-8")), "tournament": SECOND},
    )
    assert "問題のある行が 2 行あります" in refused.text, refused.text
    assert "1 人も登録していません" in refused.text
    assert "4 行目: 「12345」は Discord ID ではありません" in refused.text
    assert "6 行目: ID 10000000000000000 の人はこのサーバーにいません" in refused.text
    nobody = await fake.slash("players", user="dave", locale="ja", options={"tournament": SECOND})
    assert "まだ参加者はいません" in nobody.embed["description"]
    fixed = "\n".join(line for n, line in enumerate(bad.splitlines(), 1) if n not in (4, 6))
    imported = await fake.slash(
        "tournament import",
        user="organizer",
        locale="ja",
        options={"file": Upload("entries.csv", fixed.encode("utf-8")), "tournament": SECOND},
    )
    assert f"「{SECOND}」に 4 人を登録しました" in imported.text, imported.text
    listed = await fake.slash("players", user="dave", locale="ja", options={"tournament": SECOND})
    assert HANDLES["alice"] in listed.embed["description"]  # her handle on this server
    # As if the bot had crashed between making the calendar entry and remembering its id:
    # it finds its own entry again by its last line, and moves it rather than making one more.
    ((second_id,),) = fake.database_rows("SELECT id FROM tournaments WHERE name = ?", SECOND)
    forget = f"DELETE FROM calendar_events WHERE tournament_id = {second_id}"
    await asyncio.to_thread(edit_behind_the_bots_back, fake.database_location, forget)
    # The calendar follows the start the organizer moves, and the players are reminded.
    state["second start"] = await set_start_and_see_reminders(fake, SECOND)
    named = [e for e in fake.scheduled_events(include_deleted=True) if e["name"] == SECOND]
    assert len(named) == 1
    await play(fake, SECOND)


async def test_the_third_event_a_handle_from_the_registration_button(fake: FakeDiscord) -> None:
    assert f"次回の「{THIRD}」" in state[f"finished {SECOND}"]
    (post,) = [
        m for m in fake.messages("announcements") if THIRD in text_of(m) and m.get("components")
    ]
    pressed = await fake.click(post, "参加登録", user="bob", locale="ja")
    assert "登録しました" in pressed.text
    form = await fake.click(pressed, "ハンドルネームを設定", user="bob", locale="ja")
    done = await fake.submit_modal(form, {"handle": HANDLES["bob"]}, user="bob", locale="ja")
    assert f"ハンドルネームを「{HANDLES['bob']}」にしました" in done.text, done.text
    assert THIRD in done.text  # the event he is in shows it from now on
    # Nobody else on the server may take a handle that reads as his (full width alike).
    taken = await fake.slash("profile handle", user="carol", locale="ja", options={"name": "ボブ"})
    assert "別の参加者が使っています" in taken.text, taken.text
    for player in ("alice", "carol", "dave"):
        await fake.slash("register", user=player, locale="ja", options={"tournament": THIRD})
    await set_start_and_see_reminders(fake, THIRD)
    await play(fake, THIRD)
    # The handles are in the export, in place of the Discord names.
    names = {list(row.values())[1] for row in await exported_rows(fake, THIRD)}
    assert names == {HANDLES["alice"], HANDLES["bob"], "Carol", "Dave"}


async def test_the_repeat_made_a_fourth_event_which_is_called_off(fake: FakeDiscord) -> None:
    assert f"次回の「{FOURTH}」" in state[f"finished {THIRD}"]
    fourth = calendar_entry(fake, FOURTH)
    assert fourth["status"] == SCHEDULED
    await fake.slash("register", user="dave", locale="ja", options={"tournament": FOURTH})
    refused = await fake.slash(
        "tournament cancel", user="alice", locale="ja", options={"tournament": FOURTH}
    )
    assert "運営" in refused.text
    cancelled = await fake.slash(
        "tournament cancel", user="organizer", locale="ja", options={"tournament": FOURTH}
    )
    assert f"「{FOURTH}」を中止しました" in cancelled.text
    await wait_for(
        lambda: calendar_entry(fake, FOURTH)["status"] == CANCELED, "the calendar's 中止"
    )
    assert fake.scheduled_event_history(fourth["id"]) == [SCHEDULED, CANCELED]
    told = [text_of(m) for m in fake.dms("dave") if f"「{FOURTH}」は中止" in text_of(m)]
    assert told
    said = [m for m in fake.messages("announcements") if f"**{FOURTH}** は中止" in text_of(m)]
    (post,) = [m for m in said if m.get("embeds")]  # the registration post, edited
    assert not post.get("components")  # its buttons are gone
    assert any("個別にお知らせします" in text_of(m) for m in said)  # the announcement
    listed = await fake.slash("tournament list", user="dave", locale="ja")
    assert "中止" in listed.embed["description"]
    again = await fake.slash("register", user="erin", locale="ja", options={"tournament": FOURTH})
    assert "参加受付は終了しています" in again.text, again.text


async def test_a_series_of_the_three_checked_by_hand(fake: FakeDiscord) -> None:
    created = await fake.slash(
        "series create", user="organizer", locale="ja", options={"name": SERIES}
    )
    assert f"シリーズ「{SERIES}」を作成しました" in created.text
    for name in (FIRST, SECOND, THIRD):
        added = await fake.slash(
            "series add", user="organizer", locale="ja", options={"tournament": name}
        )
        assert f"「{name}」をシリーズ「{SERIES}」に加えました" in added.text, added.text
    form = await fake.slash("series points", user="organizer", locale="ja")
    table = "優勝 = 5\n準優勝 = 3\nベスト4 = 2\n参加 = 1\n"
    saved = await fake.submit_modal(form, {"points": table}, user="organizer", locale="ja")
    assert "ポイント表を保存しました" in saved.text, saved.text

    # By hand: each event's final ranks from its exported standings, the table above, and
    # the declared tiebreaks (points, best placing, events played, total Swiss points, who
    # entered first: event 1's registration order).
    totals: dict[str, dict[str, Any]] = {}
    for event, name in enumerate((FIRST, SECOND, THIRD), start=1):
        for row in await exported_rows(fake, name):
            values = list(row.values())
            rank, shown, points = int(values[0]), values[1], int(values[2])
            player = next(p for p in PLAYERS if name_in_event(p, event) == shown)
            mine = totals.setdefault(player, {"points": 0, "best": 99, "events": 0, "swiss": 0})
            mine["points"] += POINTS.get(rank, 0) + PARTICIPATION
            mine["best"] = min(mine["best"], rank)
            mine["events"] += 1
            mine["swiss"] += points
            state.setdefault("ranks", {}).setdefault(player, []).append((name, rank, values))
    expected = sorted(
        totals,
        key=lambda p: (
            -totals[p]["points"],
            totals[p]["best"],
            -totals[p]["events"],
            -totals[p]["swiss"],
            PLAYERS.index(p),
        ),
    )
    shown = await fake.slash("series standings", user="dave", locale="ja")
    embed = shown.embed
    assert f"シリーズ「{SERIES}」の順位（3 大会）" in embed["title"]
    assert "ポイントが同じときの順: 最高順位 → 参加回数 → 勝ち点の合計" in embed["description"]
    lines = [
        found.groups()
        for line in embed["description"].splitlines()
        if (found := re.match(r"\s*(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(-?[\d.]+)", line))
    ]
    assert [(int(rank), name) for rank, name, *_ in lines] == [
        (position, name_in_event(player, 3)) for position, player in enumerate(expected, 1)
    ]
    assert [int(points) for _, _, points, *_ in lines] == [
        totals[player]["points"] for player in expected
    ]
    assert [int(events) for _, _, _, events, *_ in lines] == [3, 3, 3, 3]
    assert "レート" in embed["description"]  # the server shows ratings in the series


async def test_profile_shows_the_history(fake: FakeDiscord) -> None:
    shown = await fake.slash("profile show", user="carol", locale="ja", options={"player": "alice"})
    fields = {f["name"]: f["value"] for f in shown.embed["fields"]}
    assert fields["ハンドルネーム"] == HANDLES["alice"]
    assert fields["参加回数"] == "3 回"
    assert fields["優勝"] == "3 回"  # alice wins every table
    assert fields["スイスドロー"] == "6 勝 0 敗 0 分"
    assert "レーティング" in fields
    assert "罰則（運営・ジャッジにだけ表示）" not in fields  # a player sees no penalties
    history = shown.embed["description"].splitlines()
    assert [line.split(": ")[0].split(" ", 1)[1] for line in history] == [THIRD, SECOND, FIRST]
    assert all("1 位／4 人（2 勝 0 敗 0 分）" in line for line in history)
    staff = await fake.slash("profile show", user="judge", locale="ja", options={"player": "dave"})
    staff_fields = {f["name"]: f["value"] for f in staff.embed["fields"]}
    assert staff_fields["罰則（運営・ジャッジにだけ表示）"] == "なし"
    for name, rank, values in state["ranks"]["dave"]:
        assert any(
            name in line and f"{rank} 位／4 人" in line
            for line in staff.embed["description"].splitlines()
        ), values


async def test_verify_agrees_after_the_story(fake: FakeDiscord) -> None:
    verified = await asyncio.to_thread(run_cli, "verify", **fake.database_env())
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.count("agrees") == 4
