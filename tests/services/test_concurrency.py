"""Concurrency: many writers at once on one Services and one SQLite file.

200 reports of a 400-player event arrive together (asyncio.gather): each is stored exactly
once, none fails, and the tables and the log agree. Two judges correcting one table at
once: the writes are serialised, the later one wins, and its reply names the earlier
judge's result as the one it replaced, so the second judge is told. Latency is measured
by bench/bench_concurrent_reports.py, not here.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace

from bot.services import Services
from bot.store.actions import list_actions
from bot.store.verify import verify_all
from domain.engine.results import MatchResult
from tests.services.conftest import (
    GUILD,
    JUDGE_ROLE,
    ORGANIZER_ROLE,
    Actor,
    admin,
    judge,
    organizer,
    player,
)
from tests.support.big_event import running_event

PLAYERS = 400


async def test_200_reports_at_once_are_each_stored_exactly_once(services: Services) -> None:
    players = [player(n) for n in range(1, PLAYERS + 1)]
    await running_event(
        services,
        admin=admin(),
        organizer=organizer(),
        players=players,
        organizer_role=ORGANIZER_ROLE,
        judge_role=JUDGE_ROLE,
    )
    status = await services.rounds.status(organizer(), None)
    tables = status[1].matches
    assert len(tables) == PLAYERS // 2
    by_id = {actor.user_id: actor for actor in players}
    # Each report is its own interaction, as on Discord.
    reporters = [replace(by_id[m.players[0]], request_id=10_000 + i) for i, m in enumerate(tables)]

    outcomes = await asyncio.gather(
        *(services.rounds.report(actor, None, "win") for actor in reporters),
        return_exceptions=True,
    )

    failures = [o for o in outcomes if isinstance(o, BaseException)]
    assert failures == []
    async with services.store.database.read() as connection:
        log = await list_actions(connection, guild_id=GUILD)
        verdicts = await verify_all(connection)
    reports = [a for a in log if a.kind == "report_result"]
    assert len(reports) == len(tables)
    assert Counter(a.actor_id for a in reports) == Counter(a.user_id for a in reporters)
    assert all(v.agrees for v in verdicts), verdicts
    current = (await services.rounds.status(organizer(), None))[1]
    for match in current.matches:
        (report,) = match.reports
        assert report.player_id == match.players[0]
        assert report.result == MatchResult.win(str(match.players[0]))


def second_judge() -> Actor:
    return Actor(4, GUILD, "Judge Two", frozenset({JUDGE_ROLE}))


async def test_two_judges_correcting_one_table_at_once_the_later_is_told(
    services: Services,
) -> None:
    players = [player(n) for n in range(1, 9)]
    await running_event(
        services,
        admin=admin(),
        organizer=organizer(),
        players=players,
        organizer_role=ORGANIZER_ROLE,
        judge_role=JUDGE_ROLE,
    )
    match = (await services.rounds.status(organizer(), None))[1].match_at(1)
    assert match is not None
    first, second = match.players

    one, two = await asyncio.gather(
        services.rounds.set_result(judge(), None, table=1, choice="win", player=first),
        services.rounds.set_result(second_judge(), None, table=1, choice="win", player=second),
    )

    # Serialised: exactly one of them saw the table empty; the other replaced its result
    # and its reply says so ("was: …"). The stored result is the later one's.
    (earlier, later) = sorted((one, two), key=lambda change: change.old is not None)
    assert earlier.old is None
    assert later.old == earlier.new
    assert later.new != earlier.new
    stored = (await services.rounds.status(organizer(), None))[1].match_at(1)
    assert stored is not None
    assert stored.result == later.new
    async with services.store.database.read() as connection:
        log = await list_actions(connection, guild_id=GUILD)
    sets = [a for a in log if a.kind == "set_result"]
    assert len(sets) == 2
    assert [a.actor_id for a in sets][-1] == (
        judge().user_id if later is one else second_judge().user_id
    )
