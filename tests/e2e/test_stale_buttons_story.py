"""Stale buttons: a button or form that no longer applies is refused, and nothing is stored.

Two servers. On ours (the default guild, in Japanese) "Old Cup" is played and finished, then
"Stale Cup" runs with four players; on the second server "Other Cup" is in its first round,
with a report waiting for Bob's confirmation, an open judge call and a penalty preview.

First the story as it was found: a player opens their round-1 report form (and its time-out form)
and leaves it open across the pairing of round 2, their opponent leaves 確認 / 異議 unpressed;
in round 2 each is pressed, and each is refused with 「第 1 回戦はすでに終わっています」.
Then every routed button and form of bot/ui/buttons.py is pressed with an id that is out of
date, one of the other server's, and one past 64 bits. Each gets a private refusal in the
presser's language through the one error path, and the database is what it was. Last, a
tournament named like the other server's id: that server's button is not read as its name.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.store.actions import list_actions
from bot.store.books import load_profiles, load_series
from bot.store.database import read_snapshot
from bot.store.tournaments import load_tournament, tournament_ids
from bot.ui import buttons
from bot.ui.buttons import (
    CALL_FORM,
    CALL_JUDGE,
    CANCEL_PENDING,
    CHECK_IN,
    CLAIM,
    CLAIM_CALL,
    CONFIRM,
    CONFIRM_MINE,
    CONFIRM_PENDING,
    DECIDE_DOUBLE_LOSS,
    DECIDE_TIME,
    DECIDE_TIME_FORM,
    DECIDE_WIN,
    DISPUTE,
    DISPUTE_FORM,
    DISPUTE_MINE,
    DROP,
    DROP_CONFIRM,
    HANDLE_BUTTON,
    HANDLE_FORM,
    IMPORT_FORM,
    MINUTES_FORM,
    PAGE,
    PANEL_STEP,
    PANEL_TOOL,
    PASTE_BOX,
    POINTS_BUTTON,
    POINTS_FORM,
    PUBLISH,
    REGISTER,
    REPORT,
    RESOLVE_CALL,
    RESTRICTED_FORM,
    ROOMS_FIT,
    ROUND_EXTEND_FORM,
    SERIES_ADD,
    SERIES_FORM,
    SERIES_NEW,
    SERIES_REMOVE,
    START,
    SUBMIT_DECK,
    TIME_FORM,
    CustomId,
)
from tests.conftest import REPO_ROOT
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Reply, Upload
from tests.e2e.fake_discord.state import CREATE_PUBLIC_THREADS, Guild
from tests.e2e.story import (
    JSON,
    SERVER,
    confirm_in_thread,
    judge_call_post,
    member_id,
    notice_to,
    pairings_of,
    setup_server,
)

pytestmark = pytest.mark.e2e

SECOND = "Second Server"


def second_server(fake: FakeDiscord) -> None:
    other = fake.add_guild(SECOND, preferred_locale="en-US")
    fake.load_commands(fake.commands(fake.guild), guild=other)


fake = bot_fixture("stale", before_start=second_server)


@dataclass
class Ids:
    """What the story made, by id, for the presses that come after."""

    old: int = 0  # Old Cup: finished
    cup: int = 0  # Stale Cup: running
    other: int = 0  # Other Cup, on the second server
    other_call: int = 0  # its open judge call
    other_pending: int = 0  # its penalty preview, not yet given
    other_series: int = 0  # the other server's series
    league: int = 0  # our server's series, with Stale Cup in it
    resolved_call: int = 0  # Stale Cup's judge call, resolved
    used_pending: int = 0  # Stale Cup's penalty preview, called off
    seats: dict[int, tuple[str, str]] = field(default_factory=dict)  # round 1 of Stale Cup
    first_id: int = 0  # the first seat of its table 1, by member id


def ids(fake: FakeDiscord) -> Ids:
    found: Ids = fake.__dict__.setdefault("stale_story", Ids())
    return found


def second(fake: FakeDiscord) -> Guild:
    return next(g for g in fake.world.guilds.values() if g.name == SECOND)


def custom_ids_of(message: JSON) -> list[str]:
    return [c["custom_id"] for row in message["components"] for c in row["components"]]


async def create(fake: FakeDiscord, name: str, *, guild: Guild | None = None) -> int:
    """A Swiss tournament without decklists; its id, read from its registration post."""
    await fake.slash(
        "tournament create",
        user="organizer",
        guild=guild,
        options={"name": name, "format": "swiss", "regulation": "single"},
    )
    await fake.slash(
        "tournament settings",
        user="organizer",
        guild=guild,
        options={"tournament": name, "decklist_required": False},
    )
    await fake.settled()
    post = fake.messages("announcements", guild=guild)[-1]
    register = next(c for c in custom_ids_of(post) if c.startswith("en:reg:"))
    return int(register.removeprefix("en:reg:"))


async def start(
    fake: FakeDiscord, name: str, players: tuple[str, ...], *, guild: Guild | None = None
) -> None:
    """`players` register, the organizer starts the tournament and pairs round 1."""
    for player in players:
        await fake.slash("register", user=player, guild=guild, options={"tournament": name})
    preview = await fake.slash(
        "tournament start", user="organizer", guild=guild, options={"tournament": name}
    )
    go = next(c for c in preview.custom_ids if c.startswith("ts:go:"))
    await fake.click(preview, go, user="organizer")
    await fake.slash("round pair", user="organizer", guild=guild, options={"tournament": name})


async def series_ids(fake: FakeDiscord, guild: Guild) -> list[int]:
    async with read_snapshot(fake.database_location, "the bot's database") as snapshot:
        connection = snapshot.connection
        return [row.series.id for row in await load_series(connection, guild.id)]


async def stored(fake: FakeDiscord) -> dict[str, Any]:
    """Everything a press could change, read through the store: every tournament (its
    rounds, matches, reports, players, calls, penalties), each server's action log, series
    and players' profiles, the operations waiting for a confirmation and the notices
    written."""
    guilds = (fake.guild.id, second(fake).id)
    async with read_snapshot(fake.database_location, "the bot's database") as snapshot:
        connection = snapshot.connection
        state: dict[str, Any] = {}
        for guild_id, tournament_id in await tournament_ids(connection):
            state[f"tournament {tournament_id}"] = await load_tournament(
                connection, guild_id, tournament_id
            )
        for guild_id in guilds:
            state[f"log {guild_id}"] = await list_actions(connection, guild_id=guild_id)
            state[f"series {guild_id}"] = await load_series(connection, guild_id)
            state[f"profiles {guild_id}"] = await load_profiles(connection, guild_id)
        for table in ("pending_operations", "outbox"):
            rows = await connection.execute_fetchall(f"SELECT id FROM {table} ORDER BY id", ())
            state[table] = [tuple(row) for row in rows]
    return state


async def test_two_servers_each_with_an_event(fake: FakeDiscord) -> None:
    story = ids(fake)
    other = second(fake)
    await setup_server(fake, locale="ja")
    await fake.slash(
        "setup server", user="owner", guild=other, options={**SERVER, "language": "en"}
    )

    # Old Cup: played and finished.
    story.old = await create(fake, "Old Cup")
    await start(fake, "Old Cup", ("erin", "frank"))
    await fake.slash(
        "result set",
        user="judge",
        options={"table": 1, "result": "win", "player": "erin", "tournament": "Old Cup"},
    )
    finished = await fake.slash(
        "tournament finish", user="organizer", options={"tournament": "Old Cup"}
    )
    assert "Old Cup" in finished.text

    # Other Cup on the second server: a report waits for Bob's confirmation, Alice has
    # called a judge, and a caution for Bob waits for the judge's confirmation.
    story.other = await create(fake, "Other Cup", guild=other)
    await start(fake, "Other Cup", ("alice", "bob"), guild=other)
    reported = await fake.slash(
        "report result", user="alice", guild=other, options={"result": "win"}
    )
    assert "Waiting for Bob" in reported.text
    called = await fake.slash("judge call", user="alice", guild=other)
    story.other_call = int(re.findall(r"#(\d+)", called.text)[0])
    preview = await fake.slash(
        "penalty give",
        user="judge",
        guild=other,
        options={"player": "bob", "type": "caution", "reason": "x"},
    )
    story.other_pending = int(preview.custom_ids[0].removeprefix("pc:"))
    await fake.slash("series create", user="organizer", guild=other, options={"name": "League"})
    (story.other_series,) = await series_ids(fake, other)

    # Stale Cup, round 1, in Japanese.
    story.cup = await create(fake, "Stale Cup")
    await start(fake, "Stale Cup", ("alice", "bob", "carol", "dave"))
    story.seats = {t: (p[0], p[1]) for t, p in pairings_of(fake, 1).items() if t}
    assert len(story.seats) == 2
    story.first_id = member_id(fake, story.seats[1][0])


ROUND_1_IS_OVER = "第 1 回戦はすでに終わっています"


def assert_refused_privately(reply: Reply, text: str) -> None:
    # A private message (6: a deferred update, then a private follow-up), not an edit.
    assert reply.type in (4, 5, 6), (reply.type, reply.text)
    assert reply.ephemeral, reply.text
    assert text in reply.text, reply.text


async def test_round_1_forms_left_open_are_refused_in_round_2(fake: FakeDiscord) -> None:
    story = ids(fake)
    (first, second), (third, fourth) = story.seats[1], story.seats[2]
    post = [m for m in fake.messages("pairings") if m.get("components")][-1]
    assert f"rp:{story.cup}:1" in custom_ids_of(post)

    # Round 1: the first player opens their report form, and its time-out form, and
    # leaves both open; they report by command instead. Their opponent gets 確認 / 異議,
    # and reports the same result by command instead of pressing them.
    form = await fake.click(post, "結果報告", user=first, locale="ja")
    assert form.ephemeral
    time_form = await fake.click(form, "時間切れ", user=first, locale="ja")
    assert time_form.type == 9
    await fake.slash("report result", user=first, options={"result": "win"}, locale="ja")
    notice = notice_to(fake, 1, second)
    assert f"cf:{story.cup}:1:1" in custom_ids_of(notice)
    await fake.slash("report result", user=second, options={"result": "lose"}, locale="ja")
    await fake.slash("report result", user=third, options={"result": "win"}, locale="ja")
    await fake.slash("report result", user=fourth, options={"result": "lose"}, locale="ja")

    # Round 2: the winners meet, and so do the losers. The fourth player reports a win,
    # which waits for the second player's confirmation; the first player's table has no
    # report yet.
    await fake.slash("round pair", user="organizer", locale="ja")
    seated = {frozenset(players) for table, players in pairings_of(fake, 2).items() if table}
    assert seated == {frozenset((first, third)), frozenset((second, fourth))}
    await fake.slash("report result", user=fourth, options={"result": "win"}, locale="ja")
    before = await stored(fake)

    # The round-1 items, pressed now: each is refused, and nothing is stored.
    presses = {
        "勝ち on the round-1 report form": lambda: fake.click(
            form, "勝ち", user=first, locale="ja"
        ),
        "the round-1 time-out form": lambda: fake.submit_modal(
            time_form, {"mine": "5", "theirs": "0"}, user=first, locale="ja"
        ),
        "確認 on the round-1 notice": lambda: fake.click(notice, "確認", user=second, locale="ja"),
        "異議 on the round-1 notice": lambda: fake.click(notice, "異議", user=second, locale="ja"),
    }
    for what, press in presses.items():
        refused = await press()
        assert_refused_privately(refused, ROUND_1_IS_OVER)
        assert await stored(fake) == before, what

    # The round-2 notice is the one that works.
    confirmed = await confirm_in_thread(fake, 2, second)
    assert "確定" in confirmed.text


OVERFLOW = "99999999999999999999999"  # past 64 bits
GONE = 10**15  # an id in range that names nothing
OUT_OF_DATE = {
    "ja": "このボタンは古くなっていて使えません",
    "en-US": "This button is out of date",
}


@dataclass(frozen=True)
class Row:
    """One routed format pressed three ways: by `user` with ids that are out of date (in
    Japanese, refused with `refusal`); with the other server's ids (in English); and with
    the other server's ids but `overflow` (a field) past 64 bits (in Japanese). A form
    (`form` given) is submitted with those values; a button is pressed on a message of the
    bot's that carries it; a select (`chosen` names the value that is its option, not a
    field of its id) is chosen in on such a message. An item whose id is nobody's server's
    (a member's profile: user ids are the same on every server) has no `foreign` press; its
    overflow is of `stale`."""

    custom: CustomId
    user: str
    stale: dict[str, object]
    refusal: str
    foreign: dict[str, object] | None
    overflow: str
    form: dict[str, object] | None = None
    foreign_refusal: str = OUT_OF_DATE["en-US"]
    chosen: str | None = None

    def presses(self) -> dict[str, tuple[str, str | None, str, str]]:
        """Case → (custom id, the option chosen, locale, what the refusal says)."""
        too_long = {**(self.foreign or self.stale), self.overflow: OVERFLOW}
        found = {
            "stale": (*self.item(self.stale), "ja", self.refusal),
            "overflow": (*self.item(too_long), "ja", OUT_OF_DATE["ja"]),
        }
        if self.foreign is not None:
            found["foreign"] = (*self.item(self.foreign), "en-US", self.foreign_refusal)
        return found

    def item(self, values: dict[str, object]) -> tuple[str, str | None]:
        choice = str(values[self.chosen]) if self.chosen is not None else None
        return formatted(self.custom, values), choice


def formatted(custom: CustomId, values: dict[str, object]) -> str:
    """The custom id as the bot formats it, whether or not its ids are in range."""
    return custom.prefix + "".join(f":{values[name]}" for name, _ in custom.fields)


def rows(story: Ids) -> list[Row]:
    """Every routed format, with ids that no longer apply. Stale Cup is in round 2, so its
    round 1 is over; Old Cup is finished; the call was resolved and the penalty preview
    called off."""
    cup, old, other = (
        {"tournament": story.cup},
        {"tournament": story.old},
        {"tournament": story.other},
    )
    (first, _), (_, fourth) = story.seats[1], story.seats[2]
    round_1 = {**cup, "round": 1}
    other_round_1 = {**other, "round": 1}
    call = {**cup, "call": story.resolved_call}
    other_call = {**other, "call": story.other_call}
    started = "すでに開始しています"
    deck_locked = "デッキは変更できません"
    no_call = "対戦中ではないため、ジャッジコールできません"
    no_drop = "対戦中ではないため、ドロップできません"
    resolved = "すでに解決済みです"
    decided = "テーブル 1 の結果はもう決まっています"
    nothing_pending = "確認待ちの操作はありません"
    nothing_pending_en = "There is nothing waiting for confirmation"
    gone = {"tournament": GONE}  # an id that names nothing (a backup restored, say)
    out_of_date = OUT_OF_DATE["ja"]
    closed = "参加受付は終了しています"
    league = {"series": story.league}
    other_series = {"series": story.other_series}
    entries = {"file": Upload("entries.csv", f"Discord ID\n{story.first_id}\n".encode())}
    rules_locked = "大会開始後はデッキの規定"
    example = (REPO_ROOT / "data" / "restricted" / "example.toml").read_bytes()
    restricted = {"file": Upload("restricted.toml", example)}
    return [
        Row(REGISTER, "grace", cup, "参加受付は終了しています", other, "tournament"),
        Row(CHECK_IN, "grace", cup, "チェックインは終了しました", other, "tournament"),
        Row(SUBMIT_DECK, "alice", cup, deck_locked, other, "tournament"),
        Row(
            PASTE_BOX,
            "alice",
            {"kind": "box", **cup},
            deck_locked,
            {"kind": "cbox", **other},
            "tournament",
            form={"decklist": "4 x Card"},
        ),
        Row(
            PAGE,  # a listing this version no longer has
            "alice",
            {"kind": "gone", "arg": f"{story.cup}.ja", "page": 1, "direction": "n"},
            OUT_OF_DATE["ja"],
            {"kind": "players", "arg": f"{story.other}.ja", "page": 0, "direction": "n"},
            "page",
        ),
        # Each listing whose page buttons carry an id: a tournament's (players, standings,
        # the log, penalties; the log and penalties with a player) or a series'.
        *(
            Row(
                PAGE,
                "judge",
                {"kind": kind, "arg": f"{GONE}{rest}", "page": 1, "direction": "n"},
                out_of_date,
                {"kind": kind, "arg": f"{others}{rest}", "page": 1, "direction": "n"},
                "arg",
            )
            for kind, rest, others in (
                ("players", ".ja", story.other),
                ("standings", ".ja", story.other),
                ("log", ".0.ja", story.other),
                ("penalties", ".0.ja", story.other),
                ("series", ".ja", story.other_series),
            )
        ),
        # A player past 64 bits in the log's listing; a member's profile in a listing this
        # version does not read.
        Row(
            PAGE,
            "judge",
            {"kind": "log", "arg": f"{story.cup}.{OVERFLOW}.ja", "page": 1, "direction": "n"},
            out_of_date,
            {"kind": "log", "arg": f"{story.other}.0.ja", "page": 1, "direction": "n"},
            "page",
        ),
        Row(
            PAGE,
            "alice",
            {"kind": "profile", "arg": "me.ja", "page": 1, "direction": "n"},
            out_of_date,
            None,
            "arg",
        ),
        Row(
            START,
            "organizer",
            {"choice": "go", **cup},
            started,
            {"choice": "go", **other},
            "tournament",
        ),
        Row(REPORT, first, round_1, ROUND_1_IS_OVER, other_round_1, "round"),
        Row(
            CLAIM,
            first,
            {**round_1, "claim": "win"},
            ROUND_1_IS_OVER,
            {**other_round_1, "claim": "win"},
            "round",
        ),
        # 時間切れ asks for the counts first: refused before the form opens.
        Row(
            CLAIM,
            first,
            {**round_1, "claim": "time"},
            ROUND_1_IS_OVER,
            {**other_round_1, "claim": "time"},
            "tournament",
        ),
        Row(
            TIME_FORM,
            first,
            round_1,
            ROUND_1_IS_OVER,
            other_round_1,
            "round",
            form={"mine": "5", "theirs": "0"},
        ),
        # On the other server Alice's report waits for Bob: here, Bob's press is refused.
        Row(
            CONFIRM,
            fourth,
            {**round_1, "table": 2},
            ROUND_1_IS_OVER,
            {**other_round_1, "table": 1},
            "table",
        ),
        Row(
            DISPUTE,
            fourth,
            {**round_1, "table": 2},
            ROUND_1_IS_OVER,
            {**other_round_1, "table": 1},
            "round",
        ),
        # The same two under several tables' reports (the presser's own table).
        Row(CONFIRM_MINE, fourth, round_1, ROUND_1_IS_OVER, other_round_1, "round"),
        Row(DISPUTE_MINE, fourth, round_1, ROUND_1_IS_OVER, other_round_1, "round"),
        Row(
            DISPUTE_FORM,
            fourth,
            {**round_1, "table": 2},
            ROUND_1_IS_OVER,
            {**other_round_1, "table": 1},
            "round",
            form={"claim": "win"},
        ),
        # The judges' one-press decisions on a dispute's notice: a table decided since is
        # never decided again (/result set changes a result on purpose).
        Row(
            DECIDE_WIN,
            "judge",
            {**round_1, "table": 1, "player": story.first_id},
            decided,
            {**other_round_1, "table": 1, "player": story.first_id},
            "player",
        ),
        Row(
            DECIDE_DOUBLE_LOSS,
            "judge",
            {**round_1, "table": 1},
            decided,
            {**other_round_1, "table": 1},
            "table",
        ),
        # 時間切れ判定… asks for the counts first: refused before the form opens.
        Row(
            DECIDE_TIME,
            "judge",
            {**round_1, "table": 1},
            decided,
            other_round_1 | {"table": 1},
            "round",
        ),
        Row(
            DECIDE_TIME_FORM,
            "judge",
            {**round_1, "table": 1},
            decided,
            {**other_round_1, "table": 1},
            "tournament",
            form={"first": "1", "second": "3"},
        ),
        Row(CALL_JUDGE, "erin", old, no_call, other, "tournament"),
        Row(CALL_FORM, "erin", old, no_call, other, "tournament", form={"reason": "x"}),
        Row(DROP, "erin", old, no_drop, other, "tournament"),
        Row(DROP_CONFIRM, "erin", old, no_drop, other, "tournament"),
        Row(
            CONFIRM_PENDING,
            "judge",
            {"pending": story.used_pending},
            nothing_pending,
            {"pending": story.other_pending},
            "pending",
            foreign_refusal=nothing_pending_en,
        ),
        Row(
            CANCEL_PENDING,
            "judge",
            {"pending": story.used_pending},
            nothing_pending,
            {"pending": story.other_pending},
            "pending",
            foreign_refusal=nothing_pending_en,
        ),
        Row(CLAIM_CALL, "judge", call, resolved, other_call, "call"),
        Row(
            RESOLVE_CALL,
            "judge",
            {**call, "minutes": 0},
            resolved,
            {**other_call, "minutes": 0},
            "tournament",
        ),
        # 延長を指定… asks for the minutes first: refused before the form opens.
        Row(
            RESOLVE_CALL,
            "judge",
            {**call, "minutes": "x"},
            resolved,
            {**other_call, "minutes": "x"},
            "call",
        ),
        Row(MINUTES_FORM, "judge", call, resolved, other_call, "call", form={"minutes": "5"}),
        # The handle is the server's: the registration's answer it sits under must be of a
        # tournament here.
        Row(HANDLE_BUTTON, "grace", gone, out_of_date, other, "tournament"),
        Row(HANDLE_FORM, "grace", gone, out_of_date, other, "tournament", form={"handle": "G"}),
        Row(
            POINTS_FORM,
            "organizer",
            {"series": GONE},
            out_of_date,
            {"series": story.other_series},
            "series",
            form={"points": "優勝 = 10"},
        ),
        # The other server's round 1 has not started its clock: not from here.
        Row(
            PANEL_STEP,
            "organizer",
            {"step": "start", **cup},
            started,
            {"step": "clock", **other},
            "tournament",
        ),
        # The panel's tools: no import once the event has started; no series menu of a
        # tournament that is gone, or of another server's.
        Row(
            PANEL_TOOL,
            "organizer",
            {"tool": "import", **cup},
            closed,
            {"tool": "series", **other},
            "tournament",
        ),
        Row(
            PANEL_TOOL,
            "organizer",
            {"tool": "series", **gone},
            out_of_date,
            {"tool": "import", **other},
            "tournament",
        ),
        Row(IMPORT_FORM, "organizer", cup, closed, other, "tournament", form=entries),
        # The restricted list only before the start (R-DECK-4); 公開 of a tournament that is
        # gone, or of another server's, is never asked.
        Row(
            PANEL_TOOL,
            "organizer",
            {"tool": "restricted", **cup},
            rules_locked,
            {"tool": "publish", **other},
            "tournament",
        ),
        Row(
            PANEL_TOOL,
            "organizer",
            {"tool": "publish", **gone},
            out_of_date,
            {"tool": "restricted", **other},
            "tournament",
        ),
        Row(RESTRICTED_FORM, "organizer", cup, rules_locked, other, "tournament", form=restricted),
        # 全体延長 only while a round's clock runs and a table still plays (R-MATCH-7): Old
        # Cup's round was decided without its clock; Stale Cup's round 2 has not started it.
        Row(
            PANEL_TOOL,
            "judge",
            {"tool": "extend_round", **old},
            "第 1 回戦の時計はまだ始まっていません",
            {"tool": "extend_round", **other},
            "tournament",
        ),
        Row(
            ROUND_EXTEND_FORM,
            "judge",
            cup,
            "第 2 回戦の時計はまだ始まっていません",
            other,
            "tournament",
            form={"minutes": "5"},
        ),
        Row(
            PUBLISH,
            "organizer",
            {"choice": "go", **gone},
            out_of_date,
            {"choice": "go", **other},
            "tournament",
        ),
        # Where the rooms would not fit: the organizer's choice of fewer rooms, or none.
        Row(
            ROOMS_FIT,
            "organizer",
            {"tables": 2, **gone},
            out_of_date,
            {"tables": 2, **other},
            "tournament",
        ),
        # The series menu: its options carry the series (`chosen`), its ids the tournament.
        Row(
            SERIES_ADD,
            "organizer",
            {**cup, **league},
            "すでにシリーズ「Stale League」に入っています",
            {**other, **other_series},
            "series",
            chosen="series",
        ),
        Row(
            SERIES_REMOVE,
            "organizer",
            {**old, **league},
            "シリーズ「Stale League」に入っていません",
            {**other, **league},
            "tournament",
            chosen="series",
        ),
        Row(SERIES_NEW, "organizer", gone, out_of_date, other, "tournament"),
        # A new series for a tournament that is gone is not made at all.
        Row(SERIES_FORM, "organizer", gone, out_of_date, other, "tournament", form={"name": "N"}),
        Row(POINTS_BUTTON, "organizer", {"series": GONE}, out_of_date, other_series, "series"),
    ]


async def press(
    fake: FakeDiscord, row: Row, custom_id: str, choice: str | None, locale: str
) -> Reply:
    """Submit the form, or press the button (choose in the select) on a message of the
    bot's that carries it; the message is as it was afterwards (a refusal edits nothing)."""
    if row.form is not None:
        return await fake.submit_modal(custom_id, row.form, user=row.user, locale=locale)
    if choice is not None:
        message = fake.plant_select("general", custom_id, [choice])
        reply = await fake.click_custom_id(
            message, custom_id, component_type=3, values=[choice], user=row.user, locale=locale
        )
    else:
        message = fake.plant_buttons("general", [custom_id])
        reply = await fake.click_custom_id(message, custom_id, user=row.user, locale=locale)
    after = fake.message(message["id"])
    assert after is not None
    assert (after["content"], after["components"]) == (message["content"], message["components"])
    return reply


async def test_every_button_and_form_refuses_stale_foreign_and_overflowing_ids(
    fake: FakeDiscord,
) -> None:
    story = ids(fake)
    (first, _), (third, _) = story.seats[1], story.seats[2]
    # A judge call of Stale Cup, taken and resolved; a penalty preview, called off.
    await fake.slash("judge call", user=first, locale="ja")
    await fake.settled()
    post = judge_call_post(fake)
    claim = next(c for c in custom_ids_of(post) if c.startswith(f"jc:{story.cup}:"))
    story.resolved_call = int(claim.split(":")[-1])
    claimed = await fake.click(post, claim, user="judge", locale="ja")
    resolved = await fake.click(claimed.message, "解決（延長なし）", user="judge", locale="ja")
    assert "解決" in resolved.text
    preview = await fake.slash(
        "penalty give",
        user="judge",
        options={"player": third, "type": "caution", "reason": "x"},
        locale="ja",
    )
    story.used_pending = int(preview.custom_ids[0].removeprefix("pc:"))
    await fake.click(preview, "やめる", user="judge", locale="ja")
    # Our server's series, with Stale Cup in it.
    await fake.slash("series create", user="organizer", options={"name": "Stale League"})
    await fake.slash(
        "series add",
        user="organizer",
        options={"series": "Stale League", "tournament": "Stale Cup"},
    )
    (story.league,) = await series_ids(fake, fake.guild)

    table = rows(story)
    # A new format without a row fails here.
    formats = {value for value in vars(buttons).values() if isinstance(value, CustomId)}
    assert {row.custom for row in table} == formats
    before = await stored(fake)
    for row in table:
        presses = row.presses()
        for custom_id, _, _, _ in presses.values():
            assert row.custom.matches(custom_id), custom_id  # routed by the format tested
        # The three at once: the bot answers each within Discord's 3 s all the same.
        replies = await asyncio.gather(
            *(
                press(fake, row, custom_id, choice, locale)
                for custom_id, choice, locale, _ in presses.values()
            )
        )
        for (_, _, _, refusal), reply in zip(presses.values(), replies, strict=True):
            assert_refused_privately(reply, refusal)
        assert await stored(fake) == before, row
    fake.assert_no_errors_logged()


async def test_a_page_button_of_one_who_lost_the_role_is_refused(fake: FakeDiscord) -> None:
    """The organizer opens the log, then loses the organizer role: ▶ answers privately that
    the log is the staff's (the page buttons go through the one error path), the page stays
    as it was, and nothing is logged as an error."""
    story = ids(fake)
    listed = await fake.slash(
        "log", user="organizer", options={"tournament": "Stale Cup"}, locale="ja"
    )
    assert "▶" in str(listed.components), "the log fits one page: nothing to turn"
    await fake.set_roles("organizer")
    try:
        refused = await fake.click(listed, "▶", user="organizer", locale="ja")
    finally:
        await fake.set_roles("organizer", "Organizer")
    assert_refused_privately(refused, "ジャッジと大会運営だけ")
    turned = await fake.click(listed, "▶", user="organizer", locale="ja")
    assert turned.type == 7, turned.text  # the role back: the page turns
    assert f"{story.cup}" in str(turned.message["components"])
    fake.assert_no_errors_logged()


async def test_a_button_names_its_tournament_by_id_never_by_name(fake: FakeDiscord) -> None:
    """Our server has a tournament named like the other server's id: the other server's
    参加登録 button does not register anyone in it."""
    story = ids(fake)
    named_like_it = await create(fake, str(story.other))
    before = await stored(fake)
    custom_id = REGISTER(tournament=story.other)
    message = fake.plant_buttons("general", [custom_id])
    refused = await fake.click_custom_id(message, custom_id, user="grace", locale="ja")
    assert_refused_privately(refused, OUT_OF_DATE["ja"])
    assert await stored(fake) == before
    # Its own button works.
    post = fake.messages("announcements")[-1]
    registered = await fake.click(post, REGISTER(tournament=named_like_it), user="grace")
    assert str(story.other) in registered.text
    fake.assert_no_errors_logged()


async def test_a_form_names_its_series_by_id_never_by_name(fake: FakeDiscord) -> None:
    """Our server has a series named like the other server's series id: the other server's
    points form does not change it."""
    story = ids(fake)
    await fake.slash("series create", user="organizer", options={"name": str(story.other_series)})
    before = await stored(fake)
    custom_id = POINTS_FORM(series=story.other_series)
    refused = await fake.submit_modal(
        custom_id, {"points": "優勝 = 10"}, user="organizer", locale="ja"
    )
    assert_refused_privately(refused, OUT_OF_DATE["ja"])
    assert await stored(fake) == before
    fake.assert_no_errors_logged()


async def test_confirm_in_a_dm_acts_in_the_tournament_of_its_button(fake: FakeDiscord) -> None:
    """A server that does not let the bot open threads: the round has no reports thread, so
    the opponent is asked by DM. A DM has no server: the 確認 button there acts in the
    server of the tournament it carries."""
    with fake.bot_without(CREATE_PUBLIC_THREADS):
        dm_cup = await create(fake, "DM Cup")
        await start(fake, "DM Cup", ("grace", "heidi"))
        await fake.settled()
    round_post = int(fake.messages("pairings")[-1]["id"])
    assert round_post not in [thread.id for thread in fake.threads("pairings")]
    await fake.slash(
        "report result",
        user="grace",
        options={"result": "win", "tournament": "DM Cup"},
        locale="ja",
    )
    await fake.settled()
    asked = fake.dms("heidi")[-1]
    assert CONFIRM(tournament=dm_cup, round=1, table=1) in custom_ids_of(asked)
    confirmed = await fake.click(asked, "確認", user="heidi", locale="ja")
    assert "確定" in confirmed.text, confirmed.text
    state = await stored(fake)
    (match,) = state[f"tournament {dm_cup}"].round(1).matches
    assert match.result is not None
    fake.assert_no_errors_logged()


async def test_dispute_in_a_dm_opens_its_form_and_reaches_the_judges(fake: FakeDiscord) -> None:
    """As 確認, 異議 in a DM acts in the server of the tournament it carries: the form opens,
    and the claim it sends is stored beside the report for the judges."""
    with fake.bot_without(CREATE_PUBLIC_THREADS):
        dm_cup = await create(fake, "DM Cup 2")
        await start(fake, "DM Cup 2", ("erin", "frank"))
        await fake.settled()
    await fake.slash(
        "report result",
        user="erin",
        options={"result": "win", "tournament": "DM Cup 2"},
        locale="ja",
    )
    await fake.settled()
    asked = fake.dms("frank")[-1]
    assert DISPUTE(tournament=dm_cup, round=1, table=1) in custom_ids_of(asked)
    opened = await fake.click(asked, "異議", user="frank", locale="ja")
    assert opened.type == 9, opened.text  # the form, not "server only"
    sent = await fake.submit_modal(opened, {"claim": "win"}, user="frank", locale="ja")
    assert "異議を受け付けました" in sent.text, sent.text
    state = await stored(fake)
    (match,) = state[f"tournament {dm_cup}"].round(1).matches
    assert match.disputed
    assert match.result is None
    fake.assert_no_errors_logged()
