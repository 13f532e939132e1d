"""The end-of-round rush through Discord: every report of a round in at once.
`python bench/rush.py --players 1024 [--runs 3] [--no-limits]`.

The real bot (`python -m bot`, SQLite) runs against the fake Discord of tests/e2e on a copy
of bench/eventdb.py's event: `--players` players, 12 Swiss rounds, 10 played. Through
Discord, as the organizer, the players and a judge would:

1. the organizer pairs round 11 (`/round pair`): the time from the click until a player's
   `/pairing` shows the new table, and until the pairings post is complete; then the round's
   telling settles (its post, its reports thread);
2. the rush: every table's reports at once (the first player `/report result win`, the
   opponent `/report result lose`, which agrees and confirms); halfway through, a judge
   gives one table (left out of the rush) its result with `/result set`;
3. the round's whole telling is waited for: every "check your opponent's report", every
   "result confirmed", the pairings post's edits, the panel, the standings after the round.

Printed per run: the interactions' first responses (p50, p99, max; over 3 s), the time from
the last report's click to the last request the bot made for the round (its whole
telling), the judge's decision to #log and to the table's players, the requests by route,
the messages per place, 429s and invalid answers. The fake enforces Discord's rate limits
unless `--no-limits` (the bot alone, to compare).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.burst import (  # noqa: E402
    hook_env,
    load_average,
    ms,
    pairing_messages,
    pairings_posted,
    percentile,
    prepare,
    start_fake,
    times,
    until,
    wait_answered,
    wall,
)
from bench.eventdb import PLAYER_BASE, event_database  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, Reply  # noqa: E402
from tests.e2e.fake_discord.state import RecordedRequest  # noqa: E402

ROUNDS = 12
PLAYED = 10
ROUND = PLAYED + 1


def name_of(user_id: int) -> str:
    return f"p{user_id - PLAYER_BASE:05d}"


async def pairing_visible(fake: FakeDiscord, user_id: int, clicked: float) -> float:
    """Seconds from the pairing click until `/pairing` shows the player their new table."""
    while True:
        reply = await fake.slash("pairing", user=fake.member(user_id), locale="ja")
        if f"第 {ROUND} 回戦" in reply.text:
            return time.monotonic() - clicked
        await asyncio.sleep(0.05)


def mentions(message: Any, user_ids: tuple[int, int]) -> bool:
    if not isinstance(message, dict):
        return False
    text = message.get("content") or ""
    text += "".join(embed.get("description") or "" for embed in message.get("embeds") or [])
    return any(f"<@{user}>" in text for user in user_ids)


async def rush_run(
    source: Path,
    players: int,
    *,
    rate_limits: bool,
    explain: bool = False,
    spy: Path | None = None,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pm-rush-") as name:
        folder = Path(name)
        everyone = [PLAYER_BASE + number for number in range(players)]
        fake = await start_fake(folder, source, everyone, rate_limits=rate_limits)
        fake.timeout = 300.0  # a 4,096-player round's telling, on a busy machine
        fake.database = folder / "bot.sqlite3"
        await prepare(fake, fake.database)
        result: dict[str, Any] = {"load": load_average()}
        try:
            await fake.start_bot(**hook_env(folder))
            await fake.settled()

            # 1. The pairing.
            clicked_wall, clicked = time.time(), time.monotonic()
            pair = await fake.slash("round pair", user="organizer", locale="ja", wait=False)
            result["pairing_visible"] = await pairing_visible(fake, everyone[-1], clicked)
            await until(
                lambda: pairings_posted(fake, ROUND), 300.0, f"the pairings of round {ROUND}"
            )
            posted = pairing_messages(fake, ROUND)
            result["pair_posted"] = max(wall(m["timestamp"]) for m in posted) - clicked_wall
            result["pairing_messages"] = len(posted)
            await wait_answered([pair])
            await fake.settled()
            tables = [
                (int(first), int(second))
                for first, second in fake.database_rows(
                    "SELECT player1, player2 FROM matches WHERE round = ?"
                    " AND player2 IS NOT NULL ORDER BY table_no",
                    ROUND,
                )
            ]
            judged, *reporting = tables

            # 2. The rush, and a judge's decision in the middle of it.
            spying = None
            if spy is not None:  # py-spy (pip install py-spy) samples the bot meanwhile
                spying = await asyncio.create_subprocess_exec(
                    "py-spy", "record", "-p", str(fake.bot.process.pid), "-o", str(spy),
                    "-f", "raw", "--threads", "-r", "100", "-d", "120",
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
                )  # fmt: skip
                await asyncio.sleep(1.0)
            requests_before = seen = len(fake.requests)
            log_before = len(fake.messages("log"))
            reports: list[Reply] = []
            judge: Reply | None = None
            judge_clicked = 0.0
            for index, (first, second) in enumerate(reporting):
                if index == len(reporting) // 2:
                    seen = len(fake.requests)
                    log_before = len(fake.messages("log"))
                    judge_clicked = time.monotonic()
                    judge = await fake.slash(
                        "result set",
                        user="judge",
                        options={"table": 1, "result": "win", "player": name_of(judged[0])},
                        locale="ja",
                        wait=False,
                    )
                for user, said in ((first, "win"), (second, "lose")):
                    reports.append(
                        await fake.slash(
                            "report result",
                            user=fake.member(user),
                            options={"result": said},
                            locale="ja",
                            wait=False,
                        )
                    )
            last_click = time.monotonic()
            assert judge is not None

            def told_at(request: RecordedRequest) -> float | None:
                posted = request.method == "POST" and request.route.endswith("/messages")
                if posted and 200 <= request.status < 300 and mentions(request.json, judged):
                    return request.at
                return None

            def judge_told() -> float | None:
                return next(filter(None, map(told_at, fake.requests[seen:])), None)

            log_channel = fake.channel("log").id

            def logged_at(request: RecordedRequest) -> float | None:
                posted = request.method == "POST" and request.route.endswith("/messages")
                if posted and request.channel_id == log_channel and 200 <= request.status < 300:
                    return request.at
                return None

            def judge_logged() -> float | None:
                return next(filter(None, map(logged_at, fake.requests[seen:])), None)

            # Timed by when Discord got each post, not by when this script (busy sending
            # the rest of the rush) looked.
            await until(lambda: len(fake.messages("log")) > log_before, 300.0, "the #log post")
            result["judge_to_log"] = (judge_logged() or 0.0) - judge_clicked
            await until(judge_told, 300.0, "the judged table told")
            result["judge_to_table"] = (judge_told() or 0.0) - judge_clicked
            await wait_answered([*reports, judge], 300.0)
            if spying is not None:
                spying.send_signal(2)  # SIGINT: py-spy writes what it sampled
                await spying.wait()
            await fake.settled()
            made = [
                r for r in fake.requests[requests_before:] if r.method != "GET" and r.status < 400
            ]
            result["telling"] = max((r.at for r in made), default=last_click) - last_click
            traffic = fake.traffic(requests_before)
            result["traffic"] = str(traffic)
            result["too_many"] = traffic.too_many
            result["invalid"] = traffic.invalid
            result["requests"] = traffic.total
            result["first"], _ = times([*reports, judge])
            result["judge_answered"] = (
                (judge.shown_time or 0.0) + (judge.sent_at or 0.0) - judge_clicked
            )
            if explain:
                for row in fake.database_rows(
                    "SELECT id, say, places, state, created_at, done_at FROM outbox"
                    " WHERE action_id = (SELECT MAX(action_id) FROM outbox"
                    " WHERE say = 'result_set')"
                ):
                    print("  ", *row, flush=True)
            await fake.stop_bot(within=60)
        finally:
            fake.close()
    return result


def summary(runs: list[dict[str, Any]]) -> None:
    def row(label: str, values: list[float], show: Any = ms) -> None:
        shown = " | ".join(show(v) for v in values)
        print(f"| {label} | {shown} | {show(statistics.median(values))} |")

    print("\n| figure | " + " | ".join(f"run {i + 1}" for i in range(len(runs))) + " | median |")
    print("|---|" + "---:|" * (len(runs) + 1))
    print("| load average (1/5/15 min) | " + " | ".join(r["load"] for r in runs) + " | |")
    row("click → /pairing shows the new table", [r["pairing_visible"] for r in runs])
    row("click → pairings post complete", [r["pair_posted"] for r in runs])
    row("first response p50", [percentile(r["first"], 0.5) for r in runs])
    row("first response p99", [percentile(r["first"], 0.99) for r in runs])
    row("first response max", [max(r["first"]) for r in runs])
    over = " | ".join(str(sum(1 for t in r["first"] if t > 3.0)) for r in runs)
    print(f"| over 3 s | {over} | |")
    row("last report → last notice (the round's telling)", [r["telling"] for r in runs])
    row("judge's /result set → its answer", [r["judge_answered"] for r in runs])
    row("judge's /result set → #log", [r["judge_to_log"] for r in runs])
    row("judge's /result set → the table", [r["judge_to_table"] for r in runs])
    row("requests", [r["requests"] for r in runs], lambda v: f"{v:.0f}")
    for label, key in (("429s", "too_many"), ("invalid answers", "invalid")):
        print(f"| {label} | " + " | ".join(str(r[key]) for r in runs) + " | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--spy", type=Path, help="py-spy's samples of the bot in the rush")
    parser.add_argument("--explain", action="store_true", help="the judge's notices' times")
    parser.add_argument(
        "--no-limits", action="store_true", help="a Discord without rate limits, to compare"
    )
    args = parser.parse_args()
    limits = not args.no_limits
    print(f"Discord's rate limits: {'on' if limits else 'off'}", flush=True)
    source = event_database(args.players, ROUNDS, played=PLAYED, left=None)
    runs = []
    for run in range(args.runs):
        result = asyncio.run(
            rush_run(source, args.players, rate_limits=limits, explain=args.explain, spy=args.spy)
        )
        runs.append(result)
        print(
            f"run {run + 1} (load {result['load']}): pairing visible"
            f" {ms(result['pairing_visible'])}, post {ms(result['pair_posted'])}"
            f" ({result['pairing_messages']} messages); telling {ms(result['telling'])};"
            f" judge answered {ms(result['judge_answered'])},"
            f" → #log {ms(result['judge_to_log'])}, → table {ms(result['judge_to_table'])};"
            f" first p99 {ms(percentile(result['first'], 0.99))}",
            flush=True,
        )
        print(f"the rush's traffic (run {run + 1}):\n{result['traffic']}", flush=True)
    summary(runs)
    if args.json:
        args.json.write_text(json.dumps(runs, default=str))


if __name__ == "__main__":
    main()
