"""The pictures of docs/ja/運営ガイド.md, drawn from what the real bot posts:
`python docs/render_guide.py [--out DIR]` (default: docs/ja/images).

A short event runs through the fake Discord of tests/e2e (the real bot process, started as
users start it, talks to it over loopback): the bot starts as the README says, the server
is set up, the event created, the players register, submit and check in with the
registration post's buttons, and the organizer runs the rounds with the staff panel's
buttons; a result is disputed and a judge settles it, a judge gives a penalty, the bot is
killed mid-round and started again, the top 4 play off, the event finishes and is
exported. At each step the messages, embeds, buttons and forms the fake received (and the
bot's own log, for the terminal pictures) are kept as they were then, and
`docs/discord_cards.py` draws them as Discord-like PNG cards. About 15 s.

Round 1's pairings come from a random seed, so two runs draw the same steps with other
pairings and times. tests/docs/test_operator_guide.py runs this into a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(HERE)]

from discord_cards import Card, Directory, Item, render_card, text_inputs  # noqa: E402

from domain.timeparse import JST  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply, Upload  # noqa: E402
from tests.e2e.fake_discord.harness import text_of, walk_components  # noqa: E402
from tests.e2e.fake_discord.permissions import (  # noqa: E402
    MANAGE_CHANNELS,
    MANAGE_ROLES,
    SPEAK,
    STREAM,
)
from tests.e2e.fake_discord.state import GUILD_TEXT, Channel  # noqa: E402

JSON = dict[str, Any]
OUT = HERE / "ja" / "images"
CUP = "第1回 プレメモ交流会"
NEXT = "第2回 プレメモ交流会"
SERIES = "2026 冬リーグ"
# The example list as a player pastes it: without the file's comment lines.
DECK = "\n".join(
    line
    for line in (REPO / "data" / "examples" / "keion.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("//")
)
PROMPT = r"PS C:\pm-bot> .venv\Scripts\python -m bot"  # how the guide starts the bot
READY_SAID = "起動しました（"  # what the guide tells the organizer to wait for
DECK_CSV = (REPO / "data" / "examples" / "keion.csv").read_bytes()
# The filled restricted list the guide shows, attached as the guide says (no list ships).
_GUIDE = (HERE / "ja" / "運営ガイド.md").read_text(encoding="utf-8")
RESTRICTED = re.findall(r"```toml\n(.*?)```", _GUIDE, flags=re.S)[0].encode()

# The fake's default server, named as a Japanese community names it.
CHANNELS = {
    "general": "雑談",
    "announcements": "告知",
    "pairings": "組み合わせ",
    "standings": "順位",
    "judge-calls": "ジャッジコール",
    "log": "ログ",
}
STAFF = "運営"  # a staff-only channel for the panel, added to the server
ROLES = {"Organizer": "運営", "Judge": "ジャッジ"}
NAMES = {
    "owner": "サーバー主",
    "organizer": "運営のさとう",
    "judge": "ジャッジのたなか",
    "alice": "ゆい",
    "bob": "みお",
    "carol": "りつ",
    "dave": "むぎ",
    "erin": "あずさ",
    "frank": "うい",
    "grace": "のどか",
    "heidi": "じゅん",
}
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
LATE = "heidi"  # registers and submits a deck, but does not check in


@dataclass
class Album:
    """The guide's cards by file name (without .png), each as things were when taken."""

    cards: dict[str, Card] = field(default_factory=dict)

    def take(self, name: str, channel: str, *items: Item | list[Item], dm: bool = False) -> None:
        assert name not in self.cards, f"two cards named {name}"
        flat: list[Item] = []
        for item in items:
            flat += item if isinstance(item, list) else [item]
        taken_at = datetime.now(JST)
        self.cards[name] = Card(channel, copy.deepcopy(flat), taken_at, dm=dm)

    def take_rooms(
        self, name: str, server: str, rows: list[tuple[str, str, str]], *items: Item
    ) -> None:
        """The server's channel list as one member sees it, then `items`."""
        assert name not in self.cards, f"two cards named {name}"
        self.cards[name] = Card(server, copy.deepcopy(list(items)), datetime.now(JST))
        self.cards[name].channels = rows

    def take_terminal(self, name: str, lines: list[str]) -> None:
        """The terminal the bot runs in (PowerShell on Windows), with its log lines."""
        assert name not in self.cards, f"two cards named {name}"
        self.cards[name] = Card("Windows PowerShell", [], datetime.now(JST), terminal=lines)


# The top cut's rounds of the guide's event (two Swiss rounds, then the top 4), as the bot
# names them.
TOP_CUT = {3: "準決勝", 4: "決勝"}


def seen(message: JSON | None) -> Item:
    """A message as everyone in the channel sees it now."""
    assert message is not None
    return Item(message=copy.deepcopy(message))


def answer(reply: Reply, typed: dict[str, str] | None = None) -> list[Item]:
    """What the person who acted sees: the form the bot opened (with what they type in
    it), or the answer's messages, under the command they used."""
    user_id = int((reply.interaction.get("member") or reply.interaction)["user"]["id"])
    if reply.type == 9:
        return [Item(modal=reply.modal, typed=dict(typed or {}), user_id=user_id)]
    items = [Item(message=copy.deepcopy(m), user_id=user_id) for m in reply.messages]
    assert items, f"the bot did not answer: {reply!r}"
    if reply.interaction["type"] == 2:  # a slash command: Discord shows it over the answer
        items[0].command = command_path(reply.interaction["data"])
    return items


def command_path(data: JSON) -> str:
    """ "tournament create:ID" for the interaction's command and subcommands."""
    names = [data["name"]]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        names.append(options[0]["name"])
        options = options[0].get("options") or []
    return f"{' '.join(names)}:{data['id']}"


def labels(message: JSON | None) -> list[str]:
    components = walk_components((message or {}).get("components") or [])
    return [str(c.get("label")) for c in components if c.get("type") == 2]


async def until(found: Callable[[], Any], what: str, seconds: float = 30.0) -> Any:
    """`found()` once it is truthy (the bot posts after its commit, on its own time, and
    at the pace Discord's rate limits allow)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


# -- the server ----------------------------------------------------------------------------


def japanese_server(fake: FakeDiscord) -> None:
    """Before the bot starts: Japanese names for the channels, roles and members, and a
    staff-only channel for the panel."""
    guild = fake.guild
    with fake.world.lock:
        for old, new in CHANNELS.items():
            guild.channel(old).name = new
        for old, new in ROLES.items():
            guild.role(old).name = new
        announcements = guild.channel(CHANNELS["announcements"])
        staff = Channel(
            fake.world.ids.next(),
            STAFF,
            GUILD_TEXT,
            guild.id,
            announcements.parent_id,
            len(guild.channels),
        )
        guild.channels[staff.id] = staff
        for user, name in NAMES.items():
            fake.member(user).user.global_name = name
        fake.world.bot_user.global_name = "プレメモ大会ボット"
    # Match rooms (対戦部屋): the bot's role may make channels and give them permissions.
    fake.grant_bot(MANAGE_CHANNELS | MANAGE_ROLES)


# -- the event ------------------------------------------------------------------------------


class Event:
    """The steps of the guide, each taking its pictures."""

    def __init__(self, fake: FakeDiscord, album: Album) -> None:
        self.fake = fake
        self.album = album

    async def slash(self, command: str, user: str, **options: Any) -> Reply:
        """A slash command in Japanese, used where that person would: staff in the staff
        channel, judges in the judges' channel, players in the chat channel."""
        where = {"judge": CHANNELS["judge-calls"]}.get(user, STAFF)
        if user in PLAYERS:
            where = CHANNELS["general"]
        return await self.fake.slash(
            command, user=user, options=options, locale="ja", channel=where
        )

    async def click(self, target: Reply | JSON, label: str, user: str) -> Reply:
        return await self.fake.click(target, label, user=user, locale="ja")

    def latest(self, channel: str, containing: str = "") -> JSON | None:
        found = [m for m in self.fake.messages(channel) if containing in text_of(m)]
        return found[-1] if found else None

    def panel(self, name: str = CUP) -> JSON:
        found = self.posted_panel(name)
        assert found, f"no panel of {name} in the staff channel"
        return found

    def posted_panel(self, name: str = CUP) -> JSON | None:
        """The newest panel of `name`, or None before the bot has posted it."""
        title = f"運営パネル: {name}"
        found = [
            m
            for m in self.fake.messages(STAFF)
            if any(e.get("title") == title for e in m.get("embeds") or [])
        ]
        return found[-1] if found else None

    async def panel_shows(self, label: str) -> JSON:
        """The panel once its button `label` can be pressed (it is edited after commits)."""

        def ready() -> JSON | None:
            panel = self.panel()
            for component in walk_components(panel.get("components") or []):
                if component.get("label") == label and not component.get("disabled"):
                    return panel
            return None

        panel: JSON = await until(ready, f"the panel's {label}")
        return panel

    async def press_on_panel(self, label: str) -> Reply:
        panel = await self.panel_shows(label)
        return await self.click(panel, label, "organizer")

    def registration_post(self) -> JSON:
        found = [m for m in self.fake.messages(CHANNELS["announcements"]) if m["components"]]
        assert found, "no registration post"
        return found[-1]

    def tables(self, number: int) -> dict[int, tuple[str, ...]]:
        """Table → players (user names) from the round's pairings post; the bye at 0."""
        ids = {str(self.fake.member(name).id): name for name in PLAYERS}
        post = self.pairings(number)
        assert post is not None, f"no pairings of round {number}"
        tables: dict[int, tuple[str, ...]] = {}
        for line in post["content"].splitlines():
            mentioned = [ids[i] for i in _mentions(line) if i in ids]
            if line.startswith("テーブル ") and len(mentioned) == 2:
                tables[int(line.split()[1].rstrip(":"))] = tuple(mentioned)
            elif "不戦勝" in line and len(mentioned) == 1:
                tables[0] = tuple(mentioned)
        return tables

    def rooms_seen_by(self, user: str) -> list[tuple[str, str, str]]:
        """The tournament's rooms in the channel list, and what `user` may do in each (by
        Discord's permission arithmetic over the rooms' overwrites)."""
        guild = self.fake.guild
        category = next(c for c in guild.channels.values() if c.name.endswith("対戦部屋"))
        rows = [("category", category.name, "")]
        for room in sorted(self.fake.voice_channels(), key=lambda c: c.name):
            allowed = self.fake.permissions_in(user, room.id)
            if allowed & SPEAK and allowed & STREAM:
                note = "あなたの卓: 話す・カメラ"
            else:
                note = "観戦（聞く・見るだけ）"
            rows.append(("voice", room.name, note))
        return rows

    def pairings(self, number: int) -> JSON | None:
        """The pairings post of round `number` (its first line names the round)."""
        title = (
            f"決勝トーナメント {TOP_CUT[number]}**" if number in TOP_CUT else f"第 {number} 回戦"
        )
        found = [
            m
            for m in self.fake.messages(CHANNELS["pairings"])
            if title in (m["content"] or "").split("\n")[0] and "テーブル" in m["content"]
        ]
        return found[-1] if found else None

    def _threads(self, number: int) -> list[Any]:
        """The round's report threads: 「第 1 回戦 結果報告」, 「準決勝 結果報告」."""
        name = f"{TOP_CUT.get(number, f'第 {number} 回戦')} 結果報告"
        return [t for t in self.fake.threads(CHANNELS["pairings"]) if t.name == name]

    def thread(self, number: int) -> list[JSON]:
        """The messages of the round's report thread (none before it is opened)."""
        threads = self._threads(number)
        return self.fake.messages(threads[-1].id) if threads else []

    def thread_name(self, number: int) -> str:
        """The thread as a card's title: "組み合わせ › 第 1 回戦 結果報告"."""
        threads = self._threads(number)
        return f"{CHANNELS['pairings']} › {threads[-1].name}"

    def thread_notice(self, number: int, user: str) -> JSON | None:
        """The newest message of the round's report thread that mentions `user`."""
        mention = f"<@{self.fake.member(user).id}>"
        found = [m for m in self.thread(number) if mention in (m["content"] or "")]
        return found[-1] if found else None

    async def settle(self, number: int, skip: tuple[int, ...] = ()) -> None:
        """The first player of each other table wins, by two matching reports."""
        for table, players in sorted(self.tables(number).items()):
            if table == 0 or table in skip:
                continue
            first, second = players
            await self.slash("report result", first, result="win")
            await self.slash("report result", second, result="lose")

    # -- the steps ------------------------------------------------------------------------

    async def prepare(self) -> None:
        """/setup, /tournament create and /tournament settings; the panel and the
        registration post appear; the restricted list is attached by the panel's form."""
        reply = await self.slash(
            "setup server",
            "owner",
            organizer_role=ROLES["Organizer"],
            judge_role=ROLES["Judge"],
            announcements=CHANNELS["announcements"],
            pairings=CHANNELS["pairings"],
            standings=CHANNELS["standings"],
            judge_calls=CHANNELS["judge-calls"],
            log=CHANNELS["log"],
            staff=STAFF,
            language="ja",
        )
        self.album.take("setup", STAFF, answer(reply))
        created = await self.slash(
            "tournament create",
            "organizer",
            name=CUP,
            format="swiss_top_cut",
            regulation="mix",
            rounds=2,
            top_cut=4,
            max_players=16,
        )
        self.album.take("create", STAFF, answer(created))
        starts = datetime.now(JST) + timedelta(minutes=20)
        settings = await self.slash(
            "tournament settings",
            "organizer",
            starts_at=starts.strftime("%Y/%m/%d %H:%M"),
            checkin_minutes=30,
        )
        self.album.take("settings", STAFF, answer(settings))
        panel = await until(lambda: self.latest(STAFF, "運営パネル"), "the panel")
        self.album.take("panel-created", STAFF, seen(panel))
        # The official restricted list does not ship: the organizer attaches it by the form.
        form = await self.press_on_panel("制限カードリスト")
        upload = Upload("制限カード.toml", RESTRICTED)
        typed = answer(form, {"file": upload.filename})
        attached = await self.fake.submit_modal(
            form, {"file": upload}, user="organizer", locale="ja"
        )
        self.album.take("restricted-form", STAFF, seen(self.panel()), typed)
        self.album.take("restricted", STAFF, answer(attached))

    async def entries(self) -> None:
        """The players register, submit and check in with the registration post's buttons
        (all but one, who forgets to check in)."""
        post = await until(
            lambda: "チェックイン" in labels(self.registration_post()) and self.registration_post(),
            "the check-in button",
        )
        self.album.take("registration-post", CHANNELS["announcements"], seen(post))
        registered = await self.click(post, "参加登録", "alice")
        opened = await self.click(post, "デッキ提出", "alice")
        typed = {_text_inputs(opened.modal)[0]: DECK}
        self.album.take("register", CHANNELS["announcements"], answer(registered))
        self.album.take("deck-form", CHANNELS["announcements"], answer(opened, typed))
        submitted = await self.fake.submit_modal(opened, typed, user="alice", locale="ja")
        checked = await self.click(post, "チェックイン", "alice")
        self.album.take(
            "deck-and-checkin", CHANNELS["announcements"], answer(submitted), answer(checked)
        )
        for player in PLAYERS[1:]:
            await self.click(post, "参加登録", player)
            await self.slash("deck submit", player, file=Upload("deck.csv", DECK_CSV))
            if player != LATE:
                await self.click(post, "チェックイン", player)

    async def start(self) -> None:
        panel = await until(lambda: "7 / 8" in text_of(self.panel()) and self.panel(), "check-ins")
        preview = await self.press_on_panel("開始")
        self.album.take("start", STAFF, seen(panel), answer(preview))
        await self.click(preview, "開始する", "organizer")

    async def round_one(self) -> None:
        """Round 1 by the panel; a report by buttons, a time result through its form, a
        dispute a judge settles."""
        paired = await self.press_on_panel("組み合わせ")
        self.album.take("pair", STAFF, answer(paired))
        clock = await self.press_on_panel("時計開始")
        panel = await until(lambda: "<t:" in text_of(self.panel()) and self.panel(), "the clock")
        self.album.take("panel-round", STAFF, seen(panel), answer(clock))
        post = await until(lambda: self.pairings(1), "the pairings")
        clock_post = await until(lambda: self.latest(CHANNELS["pairings"], "制限時間"), "the clock")
        self.album.take("pairings", CHANNELS["pairings"], seen(post), seen(clock_post))
        tables = self.tables(1)
        # Table 1: by buttons, confirmed by the opponent.
        first, second = tables[1]
        form = await self.click(post, "結果報告", first)
        won = await self.click(form, "勝ち", first)
        self.album.take("report", CHANNELS["pairings"], answer(form), answer(won))
        notice = await until(lambda: self.thread_notice(1, second), "the report's notice")
        confirmed = await self.click(notice, "確認", second)
        self.album.take("confirm", self.thread_name(1), seen(notice), answer(confirmed))
        # Table 2: time, with the point-zone counts.
        first, second = tables[2]
        form = await self.click(post, "結果報告", first)
        opened = await self.click(form, "時間切れ", first)
        inputs = _text_inputs(opened.modal)
        typed = {inputs[0]: "2", inputs[1]: "4"}
        self.album.take("time", CHANNELS["pairings"], answer(opened, typed))
        await self.fake.submit_modal(opened, typed, user=first, locale="ja")
        notice = await until(lambda: self.thread_notice(1, second), "the time report's notice")
        await self.click(notice, "確認", second)
        # Table 3: disputed, the opponent saying in the form what they claim; a judge
        # settles it with one press on the judges' notice.
        first, second = tables[3]
        await self.slash("report result", first, result="win")
        notice = await until(lambda: self.thread_notice(1, second), "the disputed notice")
        form = await self.click(notice, "異議", second)
        typed = {"claim": "win", "reason": "最後のターンで相手のポイント置き場が 7 枚になりました"}
        self.album.take("dispute", self.thread_name(1), seen(notice), answer(form, typed))
        await self.fake.submit_modal(form, typed, user=second, locale="ja")
        call = await until(
            lambda: self.latest(CHANNELS["judge-calls"], "テーブル 3"), "the judges' notice"
        )
        before = copy.deepcopy(call)
        await self.click(call, f"{NAMES[second]}の勝ち", "judge")
        settled = self.fake.message(call["id"])
        told = await until(
            lambda: next((m for m in self.thread(1) if "判断で" in (m["content"] or "")), None),
            "the players told the decision",
        )
        self.album.take("dispute-judge", CHANNELS["judge-calls"], seen(before), seen(settled))
        self.album.take("dispute-decided", self.thread_name(1), seen(told))
        complete = await until(
            lambda: self.latest(STAFF, "結果がすべて揃いました"), "the round's completion"
        )
        standings = await until(
            lambda: self.latest(CHANNELS["standings"], "第 1 回戦"), "the standings"
        )
        self.album.take("round-complete", STAFF, seen(complete))
        self.album.take("standings", CHANNELS["standings"], seen(standings))

    async def round_two(self) -> None:
        """次の回戦 in one press; a judge gives a penalty; the bot restarts mid-round and a
        confirmation asked before the restart is answered after it."""
        complete = await until(
            lambda: self.latest(STAFF, "第 1 回戦の結果がすべて揃いました"), "round 1's end"
        )
        rooms_on = await self.press_on_panel("対戦部屋: オフ")
        self.album.take("rooms-on", STAFF, answer(rooms_on))
        next_round = await self.click(complete, "次の回戦", "organizer")
        self.album.take("next-round", STAFF, answer(next_round))
        post = await until(lambda: self.pairings(2), "round 2's pairings")
        tables = self.tables(2)
        self.album.take_rooms(
            "rooms", "サーバーのチャンネル一覧", self.rooms_seen_by(tables[1][0]), seen(post)
        )
        player = tables[1][0]
        preview = await self.slash(
            "penalty give",
            "judge",
            player=player,
            type="warning",
            reason="シャッフルが不十分でした",
            infraction="deck_manipulation",
        )
        shown = answer(preview)
        given = await self.click(preview, "与える", "judge")
        self.album.take("penalty", CHANNELS["judge-calls"], shown, answer(given))
        dm = await until(
            lambda: [m for m in self.fake.dms(player) if "罰則" in m["content"]], "the DM"
        )
        self.album.take("penalty-dm", "プレメモ大会ボット", seen(dm[-1]), dm=True)
        first, second = tables[1]
        await self.slash("report result", first, result="win")
        notice = await until(lambda: self.thread_notice(2, second), "the notice")
        await self.fake.kill_bot()  # as when the PC goes off
        restarted = await self.fake.start_bot()
        log = await until(
            lambda: READY_SAID in restarted.stderr and restarted.stderr, "the organizer's line"
        )
        self.album.take_terminal("restart", [PROMPT, *log.splitlines()])
        confirmed = await self.click(notice, "確認", second)
        self.album.take("after-restart", self.thread_name(2), seen(notice), answer(confirmed))
        await self.settle(2, skip=(1,))
        await until(
            lambda: self.latest(STAFF, "第 2 回戦の結果がすべて揃いました"), "round 2's end"
        )

    async def top_cut(self) -> None:
        complete = await until(
            lambda: self.latest(STAFF, "第 2 回戦の結果がすべて揃いました"), "round 2's end"
        )
        self.album.take("top-cut-prompt", STAFF, seen(complete))
        await self.click(complete, "決勝トーナメント", "organizer")
        posts = await until(
            lambda: [m for m in self.fake.messages(CHANNELS["pairings"]) if m.get("attachments")],
            "the bracket picture",
        )
        bracket = seen(posts[-1])
        bracket.files = {a["id"]: self.fake.file_bytes(a) for a in posts[-1]["attachments"]}
        self.album.take("top-cut", CHANNELS["pairings"], seen(self.pairings(3)), bracket)
        await self.press_on_panel("時計開始")
        await self.settle(3)
        await self.press_on_panel("次の回戦")
        await until(lambda: self.pairings(4), "the final")
        await self.settle(4)

    async def finish(self) -> None:
        finished = await self.press_on_panel("終了")
        final = await until(
            lambda: self.latest(CHANNELS["standings"], "最終順位"), "the final standings"
        )
        self.album.take("finish", STAFF, answer(finished))
        self.album.take("final-standings", CHANNELS["standings"], seen(final))
        exported = await self.press_on_panel("書き出し")
        self.album.take("export", STAFF, seen(self.panel()), answer(exported))

    async def next_event(self) -> None:
        """The next event's entries from a CSV, and both events in a series, by the panels'
        buttons; the series standings with their ポイント表 button."""
        await self.slash(
            "tournament create", "organizer", name=NEXT, format="swiss", regulation="mix"
        )
        panel = await until(lambda: self.posted_panel(NEXT), "the next event's panel")
        form = await self.click(panel, "参加者の取り込み", "organizer")
        ids = "\n".join(str(self.fake.member(player).id) for player in PLAYERS)
        csv = Upload("参加者.csv", f"Discord ID\n{ids}\n".encode())
        self.album.take("import-form", STAFF, seen(panel), answer(form, {"file": csv.filename}))
        imported = await self.fake.submit_modal(form, {"file": csv}, user="organizer", locale="ja")
        self.album.take("import", STAFF, answer(imported))
        menu = await self.click(self.panel(CUP), "シリーズ", "organizer")
        named = await self.click(menu, "新しいシリーズ…", "organizer")
        typed = {_text_inputs(named.modal)[0]: SERIES}
        self.album.take("series-form", STAFF, answer(menu), answer(named, typed))
        await self.fake.submit_modal(named, typed, user="organizer", locale="ja")
        menu = await self.click(self.panel(NEXT), "シリーズ", "organizer")
        (series_id,) = [
            option["value"]
            for component in walk_components((menu.message or {}).get("components") or [])
            for option in component.get("options") or []
        ]
        added = await self.fake.click(
            menu, "シリーズに加える…", values=[series_id], user="organizer", locale="ja"
        )
        self.album.take("series", STAFF, answer(added))
        standings = await self.slash("series standings", "organizer", series=SERIES)
        self.album.take("series-standings", STAFF, answer(standings))


def _mentions(line: str) -> list[str]:
    return re.findall(r"<@(\d+)>", line)


def _text_inputs(modal: JSON) -> list[str]:
    return [component["custom_id"] for component in text_inputs(modal)]


async def play(fake: FakeDiscord, album: Album) -> None:
    """The event, through the started fake Discord and the real bot, started in the fake's
    folder with the README's settings: the commands registered at start-up to the server
    in DEV_GUILD_ID, the database in data/bot.sqlite3."""
    fake.database = Path("data") / "bot.sqlite3"
    japanese_server(fake)
    # A Japanese PC: the bot's own lines for the organizer read in Japanese.
    fake.default_env.update(
        DEV_GUILD_ID=str(fake.guild.id), CLOCK_TICK_SECONDS="0.2", LANG="ja_JP.UTF-8"
    )
    bot = await fake.start_bot()
    log = await until(lambda: READY_SAID in bot.stderr and bot.stderr, "the organizer's line")
    album.take_terminal("first-start", [PROMPT, *log.splitlines()])
    event = Event(fake, album)
    for step in (
        event.prepare,
        event.entries,
        event.start,
        event.round_one,
        event.round_two,
        event.top_cut,
        event.finish,
        event.next_event,
    ):
        await step()
    fake.assert_no_unknown_routes()
    await fake.stop_bot()


def directory(fake: FakeDiscord) -> Directory:
    """The names Discord shows for the ids in the bot's messages."""
    guild = fake.guild
    with fake.world.lock:
        users = {
            member.id: member.nick or member.user.global_name or member.name
            for member in guild.members.values()
        }
        roles = {role.id: role.name for role in guild.roles.values()}
        # Channels deleted since (the match rooms, at the finish) as the pictures showed them.
        gone = fake.world.deleted_channels.values()
        channels = {channel.id: channel.name for channel in [*gone, *guild.channels.values()]}
    return Directory.of(fake.commands(guild), users=users, roles=roles, channels=channels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go")
    args = parser.parse_args()
    album = Album()
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="render-guide-") as folder,
        FakeDiscord(log_level="INFO", timeout=30.0, settle=0.1) as fake,
    ):
        fake.workdir = Path(folder)
        try:
            asyncio.run(play(fake, album))
        except BaseException:
            print(f"the bot's log:\n{fake.log_tail(60)}", file=sys.stderr)
            raise
        names = directory(fake)
    played = time.monotonic() - started
    args.out.mkdir(parents=True, exist_ok=True)
    for name, card in album.cards.items():
        (args.out / f"{name}.png").write_bytes(render_card(card, names))
    stale = sorted(p.name for p in args.out.glob("*.png") if p.stem not in album.cards)
    if stale:
        print(f"not drawn by this run (delete them if the guide no longer shows them): {stale}")
    drawn = time.monotonic() - started - played
    print(
        f"{len(album.cards)} pictures in {args.out} (event {played:.1f} s, drawing {drawn:.1f} s)"
    )


if __name__ == "__main__":
    main()
