"""Steps and readers shared by the end-to-end stories (a helper module, not a test module).

The stories run in Japanese on the default guild of the fake: the owner sets the server
up, the organizer runs the event, `judge` judges and the eight players play. Pairings,
threads and standings are read back from what the bot posted.
"""

from __future__ import annotations

import re
import subprocess
from typing import Any, TypedDict

from bot.services import Services
from bot.services.actors import Actor
from bot.store.database import open_database
from tests.conftest import PYTHON, REPO_ROOT, cli_env
from tests.e2e.fake_discord import FakeDiscord, Reply
from tests.support.big_event import running_event

JSON = dict[str, Any]
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
LEGAL_CSV = (REPO_ROOT / "data" / "examples" / "keion.csv").read_bytes()
SERVER = {
    "organizer_role": "Organizer",
    "judge_role": "Judge",
    "announcements": "announcements",
    "pairings": "pairings",
    "standings": "standings",
    "judge_calls": "judge-calls",
    "log": "log",
    "language": "ja",
}


class ClockSettings(TypedDict):
    CLOCK_SPEED: str
    CLOCK_TICK_SECONDS: str
    CLOCK_GRACE_SECONDS: str


# The bot's clock 300 times faster (a 40-minute round lasts 8 s), ticking every 0.2 s;
# a round's notices still come when a restart ran late: the grace is the most allowed, an
# hour of the bot's time, 12 s of ours (a restart on a busy machine takes a few).
FAST_CLOCK = ClockSettings(CLOCK_SPEED="300", CLOCK_TICK_SECONDS="0.2", CLOCK_GRACE_SECONDS="3600")


async def setup_server(fake: FakeDiscord, *, locale: str = "en-US") -> Reply:
    """/setup server by the owner: the roles, every channel of the guild, Japanese."""
    return await fake.slash("setup server", user="owner", locale=locale, options=dict(SERVER))


async def start_event(fake: FakeDiscord, *, locale: str = "ja") -> Reply:
    """/tournament start by the organizer, then Start pressed on its preview."""
    preview = await fake.slash("tournament start", user="organizer", locale=locale)
    labels = [str(c.get("label", "")) for c in preview.components]
    start = next(label for label in labels if "Start" in label or "開始" in label)
    return await fake.click(preview, start, user="organizer", locale=locale)


async def assert_refused(
    fake: FakeDiscord,
    attempts: dict[str, JSON],
    *,
    naming: tuple[str, ...] = ("organizer", "judge"),
    user: str = "alice",
) -> None:
    """Each command of `attempts`, run by `user` with its options in English, is refused
    privately by a reply that names one of `naming` (who may run it)."""
    for command, options in attempts.items():
        reply = await fake.slash(command, user=user, options=options, locale="en-US")
        assert reply.ephemeral, command
        assert any(word in reply.text for word in naming), (command, reply.text)


def member_id(fake: FakeDiscord, name: str) -> int:
    return int(fake.member(name).id)


def name_of(fake: FakeDiscord, user_id: int) -> str:
    """The member's user name (as the stories name them: "alice")."""
    return fake.member(user_id).name


def posted_to(fake: FakeDiscord, channel: str) -> list[str]:
    """What the bot posted to a channel, as first sent (a pairings post is edited later to
    mark the finished tables)."""
    channel_id = fake.channel(channel).id
    sent = fake.requests_to("POST", f"/channels/{channel_id}/messages")
    return [str(r.json.get("content") or "") for r in sent if isinstance(r.json, dict)]


def round_title(round_number: int, stage: str | None) -> str:
    """How the bot names a round: 「第 2 回戦」, or a top-cut round's stage (「準決勝」)."""
    return stage or f"第 {round_number} 回戦"


def is_pairings_of(content: str, round_number: int, stage: str | None = None) -> bool:
    """Whether a message of the pairings channel is (a part of) that round's pairings."""
    marker = re.compile(
        rf"決勝トーナメント {stage}(\*\*|（)" if stage else rf"第 {round_number} 回戦"
    )
    return bool(marker.search(content.splitlines()[0] if content else ""))


def pairings_of(
    fake: FakeDiscord, round_number: int, stage: str | None = None
) -> dict[int, tuple[str, ...]]:
    """Table → players, read back from the posted pairings of a round (the bye at 0); a
    top-cut round is found by its `stage` (「準決勝」)."""
    tables: dict[int, tuple[str, ...]] = {}
    for content in posted_to(fake, "pairings"):
        if not is_pairings_of(content, round_number, stage):
            continue
        for line in content.splitlines():
            found = re.match(r"(?:✅ )?テーブル (\d+): <@(\d+)>.* vs <@(\d+)>", line)
            if found:
                table, first, second = found.groups()
                tables[int(table)] = (name_of(fake, int(first)), name_of(fake, int(second)))
            bye = re.match(r"<@(\d+)>（勝ち点 \d+）: 不戦勝", line)
            if bye:
                tables[0] = (name_of(fake, int(bye.group(1))),)
    return tables


def tables_of(fake: FakeDiscord, round_number: int) -> dict[int, tuple[str, str]]:
    """Table → its two players, as `pairings_of` without the bye."""
    return {
        table: (players[0], players[1])
        for table, players in pairings_of(fake, round_number).items()
        if table != 0
    }


def thread_messages(fake: FakeDiscord, round_number: int, stage: str | None = None) -> list[JSON]:
    name = f"{round_title(round_number, stage)} 結果報告"
    thread = [c for c in fake.threads("pairings") if c.name == name][-1]  # a re-pair opens anew
    return fake.messages(thread.id)


def notice_to(fake: FakeDiscord, round_number: int, user: str, stage: str | None = None) -> JSON:
    """The newest message of the round's thread that mentions `user` (a report's notice)."""
    mention = f"<@{member_id(fake, user)}>"
    thread = thread_messages(fake, round_number, stage)
    return [m for m in thread if mention in (m.get("content") or "")][-1]


def judge_call_post(fake: FakeDiscord) -> JSON:
    """The latest judge call's own post in #judge-calls, the one with its buttons: with the
    bot's clock sped up, its "unanswered" reminder may already have followed it."""
    return [m for m in fake.messages("judge-calls") if m.get("components")][-1]


async def confirm_in_thread(fake: FakeDiscord, round_number: int, user: str) -> Reply:
    """The opponent presses 確認 on the newest notice addressed to them."""
    notice = notice_to(fake, round_number, user)
    return await fake.click(notice, "確認", user=user, locale="ja")


async def judge_gives_win(fake: FakeDiscord, table: int, player: str) -> Reply:
    """/result set by the judge: `player` wins at `table`."""
    return await fake.slash(
        "result set",
        user="judge",
        options={"table": table, "result": "win", "player": player},
        locale="ja",
    )


async def wait_for_time_up(fake: FakeDiscord, round_number: int, since: int) -> list[str]:
    """Wait (up to 30 s: a restarted bot on a loaded machine) for the round's time-up
    notice among the pairings channel's messages from index `since` on; their texts."""

    def texts_with_time_up() -> list[str]:
        texts = [m.get("content") or "" for m in fake.messages("pairings")[since:]]
        if any("⏰" in text and f"第 {round_number} 回戦" in text for text in texts):
            return texts
        return []

    return await fake.wait_for(
        texts_with_time_up, f"the time-up notice of round {round_number}", within=30
    )


def standings_rows(
    message: JSON, names: tuple[str, ...] = PLAYERS
) -> list[tuple[int, str, int, str]]:
    """(rank, name, points, opponents' points) from a posted standings embed (after the
    finish, the 決勝T column between the rank and the name is skipped)."""
    rows = []
    for line in message["embeds"][0]["description"].splitlines():
        found = re.match(
            r"\s*(\d+)\s+(?:(?:優勝|準優勝|ベスト\d+)\s+)?(\S+)(?:\s+(?:ドロップ|失格))?\s+(\d+)\s+([\d.]+)",
            line,
        )
        if found and found.group(2).lower() in names:
            rank, name, points, opponents = found.groups()
            rows.append((int(rank), name.lower(), int(points), opponents))
    return rows


def assert_said_once(messages: list[JSON], where: object = "") -> None:
    """No message of the bot's in one place says the same twice."""
    said = [
        (m.get("content") or "", tuple(e.get("description") or "" for e in m.get("embeds") or []))
        for m in messages
    ]
    assert len(said) == len(set(said)), (where, [s for s in said if said.count(s) > 1])


def assert_every_place_said_once(
    fake: FakeDiscord, channels: tuple[str, ...], players: tuple[str, ...] = PLAYERS
) -> None:
    """Nothing said twice in each channel, the reports threads opened in it, and each
    player's DMs."""
    for channel in channels:
        assert_said_once(fake.messages(channel), channel)
        for thread in fake.threads(channel):
            assert_said_once(fake.messages(thread.id), thread.name)
    for player in players:
        assert_said_once(fake.dms(player), player)


def sent_payload(fake: FakeDiscord, content: str) -> JSON:
    """What the bot sent for the message with `content` (the fake keeps the request, e.g.
    allowed_mentions)."""
    sent = [r.json for r in fake.requests_to("POST", "/channels/") if isinstance(r.json, dict)]
    return next(body for body in reversed(sent) if body.get("content") == content)


def database_rows(fake: FakeDiscord, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """Read the bot's database as it is (a reader never blocks the bot)."""
    return fake.database_rows(sql, *args)


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` with `env` (e.g. DATABASE_PATH); it may take up to a minute."""
    return subprocess.run(
        [PYTHON, "-m", "bot", *args],
        env=cli_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def member_actor(fake: FakeDiscord, name: str, **extra: Any) -> Actor:
    """A member of the fake guild as the services see them."""
    return Actor(int(fake.member(name).id), fake.guild.id, name, **extra)


async def prepare_running_event(
    fake: FakeDiscord, players: list[str], *, name: str, seed: int, **channels: int
) -> None:
    """Round 1 of a Swiss event for `players`, paired through the services on the bot's
    database before the bot starts (for events too large to register one by one)."""
    database = await open_database(fake.database_location)
    try:
        await running_event(
            Services(database, seeds=lambda: seed),
            admin=member_actor(fake, "owner", manages_guild=True),
            organizer=member_actor(
                fake, "organizer", role_ids=frozenset({fake.role("Organizer").id})
            ),
            players=[member_actor(fake, player) for player in players],
            organizer_role=fake.role("Organizer").id,
            judge_role=fake.role("Judge").id,
            name=name,
            **channels,
        )
    finally:
        await database.close()
