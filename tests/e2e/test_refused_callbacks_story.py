"""Discord refusing interaction callbacks for a few seconds (503), told through the real bot:
every kind of handler that changes something (a slash command, a button answered by a new
message, a button that edits its message, a form, the panel's steps, 確認 and 異議) is
pressed while the fake refuses its callback. The person sees "This interaction failed", so
nothing of it may be stored: the bot acknowledges before it writes. Pressed again once
Discord answers, each works once; and the 勝ち button pressed a third time answers "already
received" and does not ask the opponent a second time.

Before the fix, the 勝ち button stored the report while its player saw a failure, and
pressing again answered 「報告を受け付けました」 and sent the opponent a second confirm
request; the clock's start, the standings' post and a judge call did the same.

discord.py tries a refused callback again after 1 s and 3 s: refused for 2.5 s, the third
try comes after Discord's 3 s and is refused as unknown (10062), so each refused
interaction ends about 4 s after it was sent, with nothing stored. SQLite only: the
acknowledgement is Discord's side; the store's part is the same on both backends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import BACKENDS
from tests.e2e.conftest import bot_fixture
from tests.e2e.fake_discord import FakeDiscord, Reply, text_of, walk_components
from tests.e2e.story import (
    JSON,
    database_rows,
    member_id,
    run_cli,
    setup_server,
    start_event,
    tables_of,
    thread_messages,
)

pytestmark = pytest.mark.e2e

CUP = "応答なし杯"
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
CLAIM = {"claim": "win", "reason": "数え間違いです"}  # 異議's form: what the player claims
REFUSED_FOR = 2.5  # seconds: past discord.py's second try (1 s), ending before its third
fake = bot_fixture("refused_callbacks", backends=tuple(b for b in BACKENDS if b.id == "sqlite"))


@dataclass
class Story:
    tables: dict[int, tuple[str, str]] = field(default_factory=dict)
    refused: list[Reply] = field(default_factory=list)  # every interaction refused so far


STORY = Story()


# -- reading the bot's posts and its database -----------------------------------------------


def panel(fake: FakeDiscord) -> JSON:
    (found,) = [m for m in fake.messages("log") if "運営パネル" in text_of(m)]
    return found


def buttons(message: JSON) -> dict[str, JSON]:
    return {
        str(c["label"]): c
        for c in walk_components(message.get("components") or [])
        if c.get("type") == 2
    }


def pairings_post(fake: FakeDiscord) -> JSON:
    return next(m for m in fake.messages("pairings") if m.get("components"))


def confirm_requests(fake: FakeDiscord, user: str) -> list[JSON]:
    """The round's thread notices that ask `user` to confirm (or dispute) a report."""
    mention = f"<@{member_id(fake, user)}>"
    return [
        m
        for m in thread_messages(fake, 1)
        if mention in (m.get("content") or "") and "確認" in buttons(m)
    ]


def judges_notice(fake: FakeDiscord) -> JSON | None:
    found = [m for m in fake.messages("judge-calls") if "食い違い" in (m.get("content") or "")]
    return found[-1] if found else None


def stored() -> Callable[[FakeDiscord], tuple[int, int, int]]:
    def counts(fake: FakeDiscord) -> tuple[int, int, int]:
        """The action log, the outbox and the judge calls: what any change would add to."""
        ((actions,),) = database_rows(fake, "SELECT COUNT(*) FROM action_log")
        ((notices,),) = database_rows(fake, "SELECT COUNT(*) FROM outbox")
        ((calls,),) = database_rows(fake, "SELECT COUNT(*) FROM judge_calls")
        return int(actions), int(notices), int(calls)

    return counts


counts = stored()


def logged(fake: FakeDiscord, kind: str) -> int:
    ((found,),) = database_rows(fake, "SELECT COUNT(*) FROM action_log WHERE kind = ?", kind)
    return int(found)


async def eventually(found: Callable[[], Any], what: str, seconds: float = 10.0) -> Any:
    for _ in range(int(seconds * 20)):
        value = found()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {what}")


# -- refusing -------------------------------------------------------------------------------


async def while_refused(fake: FakeDiscord, *presses: Callable[[], Awaitable[Reply]]) -> None:
    """Refuse callbacks, make `presses` together, and wait until the bot is done with each:
    none was acknowledged or answered, and nothing of any of them was stored."""
    assert fake.bot is not None
    # What was said before is out first: the delivery's own bookkeeping (the panel brought
    # up to date once a backlog clears) would otherwise land inside the refused window.
    await fake.settled()
    before = counts(fake)
    fault = fake.refuse_callbacks(seconds=REFUSED_FOR)
    began = time.monotonic()
    replies = await asyncio.gather(*(press() for press in presses))
    for reply in replies:
        await fake.wait_for(
            lambda reply=reply: fake.bot is not None and fake.bot.finished[reply.id],
            f"the bot to give up on interaction {reply.id}",
        )
        assert reply.type is None, reply  # never acknowledged: "This interaction failed"
        assert reply.messages == []  # and never answered
    assert fault.hits >= 2 * len(replies)  # tried again, refused again
    await asyncio.sleep(max(0.0, REFUSED_FOR - (time.monotonic() - began)))
    await fake.settled()
    assert counts(fake) == before, "a refused interaction stored something"
    STORY.refused.extend(replies)


def click(fake: FakeDiscord, target: Any, label: str, user: str, **extra: Any) -> Any:
    return lambda: fake.click(target, label, user=user, locale="ja", expect_response=False, **extra)


# -- the story ------------------------------------------------------------------------------


async def test_an_event_with_its_panel(fake: FakeDiscord) -> None:
    await setup_server(fake, locale="ja")
    await fake.slash(
        "tournament create",
        user="organizer",
        locale="ja",
        options={"name": CUP, "format": "swiss", "regulation": "single"},
    )
    await fake.slash("tournament settings", user="organizer", options={"decklist_required": False})
    for name in PLAYERS:
        assert CUP in (await fake.slash("register", user=name, locale="ja")).text
    await start_event(fake)
    await fake.settled()
    assert "組み合わせ" in buttons(panel(fake))


async def test_the_panels_steps_refused_store_nothing_then_work_once(fake: FakeDiscord) -> None:
    await while_refused(fake, click(fake, panel(fake), "組み合わせ", "organizer"))
    assert logged(fake, "pair_round") == 0
    assert fake.messages("pairings") == []
    paired = await fake.click(panel(fake), "組み合わせ", user="organizer", locale="ja")
    assert "第 1 回戦" in paired.text
    STORY.tables = tables_of(fake, 1)
    assert len(STORY.tables) == 4

    await fake.settled()
    await while_refused(fake, click(fake, panel(fake), "時計開始", "organizer"))
    assert logged(fake, "start_round") == 0
    started = await fake.click(panel(fake), "時計開始", user="organizer", locale="ja")
    assert "時計を始めました" in started.text
    assert logged(fake, "start_round") == 1


async def test_a_report_a_time_out_and_a_judge_call_refused_store_nothing(
    fake: FakeDiscord,
) -> None:
    (a, b), (c, _), (e, _) = STORY.tables[1], STORY.tables[2], STORY.tables[3]
    form = await fake.click(pairings_post(fake), "結果報告", user=a, locale="ja")
    time_form = await fake.click(pairings_post(fake), "結果報告", user=c, locale="ja")
    modal = await fake.click(time_form, "時間切れ", user=c, locale="ja")
    assert modal.type == 9  # opening a form writes nothing: it needs no acknowledgement first
    await while_refused(
        fake,
        click(fake, form, "勝ち", a),
        lambda: fake.submit_modal(
            modal, {"mine": "2", "theirs": "4"}, user=c, locale="ja", expect_response=False
        ),
        lambda: fake.slash(
            "judge call",
            user=e,
            locale="ja",
            options={"reason": "相手が席にいません"},
            expect_response=False,
        ),
    )
    assert logged(fake, "report_result") == logged(fake, "call_judge") == 0
    assert confirm_requests(fake, b) == []
    assert fake.messages("judge-calls") == []

    # Discord answers again: the same form's 勝ち files the report, and asks the opponent once.
    filed = await fake.click(form, "勝ち", user=a, locale="ja")
    assert "報告を受け付けました" in filed.text
    assert len(confirm_requests(fake, b)) == 1
    # Pressed again, and again in English: already received, nobody asked a second time.
    again = await fake.click(form, "勝ち", user=a, locale="ja")
    assert "この報告はすでに受け付けています: " in again.text
    assert "確認を待っています" in again.text
    english = await fake.click(form, "勝ち", user=a, locale="en-US")
    assert "Your report was already received: " in english.text
    await fake.settled()
    assert len(confirm_requests(fake, b)) == 1
    assert logged(fake, "report_result") == 1
    timed = await fake.submit_modal(modal, {"mine": "2", "theirs": "4"}, user=c, locale="ja")
    assert "報告を受け付けました" in timed.text
    called = await fake.slash("judge call", user=e, locale="ja", options={"reason": "遅刻"})
    assert "ジャッジを呼びました" in called.text


async def test_confirm_and_dispute_refused_store_nothing(fake: FakeDiscord) -> None:
    (_, b), (_, d) = STORY.tables[1], STORY.tables[2]
    (request,) = confirm_requests(fake, b)
    (to_dispute,) = confirm_requests(fake, d)
    form = await fake.click(to_dispute, "異議", user=d, locale="ja")
    assert form.type == 9
    await while_refused(
        fake,
        click(fake, request, "確認", b),
        lambda: fake.submit_modal(
            form,
            {"claim": "win", "reason": "数え間違い"},
            user=d,
            locale="ja",
            expect_response=False,
        ),
    )
    assert logged(fake, "confirm_result") == logged(fake, "dispute_result") == 0
    assert judges_notice(fake) is None
    confirmed = await fake.click(request, "確認", user=b, locale="ja")
    assert "確定" in confirmed.text
    disputed = await fake.submit_modal(form, CLAIM, user=d, locale="ja")
    assert "異議を受け付けました" in disputed.text
    assert judges_notice(fake) is not None


async def test_a_judges_decision_refused_decides_nothing(fake: FakeDiscord) -> None:
    _, d = STORY.tables[2]
    notice = await eventually(lambda: judges_notice(fake), "the judges' notice")
    decide = f"{d.capitalize()}の勝ち"
    await while_refused(fake, click(fake, notice, decide, "judge"))
    assert logged(fake, "set_result") == 0
    assert buttons(fake.message(notice["id"]) or {})  # still undecided, its buttons there
    decided = await fake.click(notice, decide, user="judge", locale="ja")
    assert decided.type == 6  # acknowledged first, then the notice edited
    assert "Judgeが決めました" in (fake.message(notice["id"]) or {})["content"]
    assert logged(fake, "set_result") == 1


async def test_the_standings_step_refused_posts_nothing(fake: FakeDiscord) -> None:
    for table in (3, 4):
        winner, loser = STORY.tables[table]
        await fake.slash("report result", user=winner, options={"result": "win"}, locale="ja")
        await fake.slash("report result", user=loser, options={"result": "lose"}, locale="ja")
    await fake.settled()
    posted = len(fake.messages("standings"))
    await while_refused(fake, click(fake, panel(fake), "順位表を投稿", "organizer"))
    assert len(fake.messages("standings")) == posted
    shown = await fake.click(panel(fake), "順位表を投稿", user="organizer", locale="ja")
    assert "順位表を順位チャンネルに投稿します" in shown.text
    await fake.settled()
    assert len(fake.messages("standings")) == posted + 1


async def test_nothing_was_unexpected_and_verify_agrees(fake: FakeDiscord) -> None:
    assert fake.bot is not None
    assert len(STORY.refused) == 9
    log = fake.bot.stderr
    assert "unexpected error" not in log
    assert "Traceback" not in log
    # One line each, saying that nothing was written.
    told = [line for line in fake.bot.stderr_lines if "not acknowledged" in line]
    assert len(told) == len(STORY.refused), told
    assert all("so nothing was written" in line for line in told)
    checked = run_cli("verify", **fake.database_env())
    assert checked.returncode == 0, checked.stdout + checked.stderr
