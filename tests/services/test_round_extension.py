"""全体延長 through the service, on real SQLite and PostgreSQL: one unit of work extends every
table still playing, logs the whole operation, and writes what is told in the same
transaction (each table's players, and the round's channel once); a refusal writes nothing;
the panel's check before its form refuses by the same rule; the tables and the log agree,
and an undo takes it back (R-MATCH-7)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.services import Services
from bot.store.actions import list_actions
from bot.store.verify import verify_all
from domain.engine.players import PlayerStatus
from domain.errors import DomainError, IllegalTransition, PermissionDenied
from tests.services.conftest import GUILD, LEGAL_DECK, judge, organizer, player
from tests.services.test_outbox import outbox


@pytest.fixture
async def event(configured: Services) -> Services:
    """Five players: two tables and a bye in round 1, paired, its clock not started."""
    await configured.tournaments.create(
        organizer(), name="Outage Cup", format="swiss", regulation="single"
    )
    for number in range(1, 6):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await configured.lifecycle.start(organizer(), None)
    await configured.rounds.pair(organizer(), None)
    return configured


async def log_kinds(services: Services) -> list[tuple[str, dict[str, Any], int]]:
    async with services.store.database.read() as connection:
        actions = await list_actions(connection, guild_id=GUILD)
    return [(action.kind, action.payload, action.actor_id) for action in actions]


async def test_the_whole_round_is_extended_logged_and_told_r_match_7(event: Services) -> None:
    services = event
    await services.rounds.start_clock(organizer(), None)
    tournament, current = await services.rounds.status(judge(), None)
    first, second = current.matches[0].players
    await services.rounds.report(player(first - 100), None, "win")
    await services.rounds.confirm(player(second - 100), tournament.id, 1, 1)
    before = await outbox(services.store.database)

    done = await services.rounds.extend_round(judge(), None, 5)

    assert current.ends_at is not None
    assert done.event.tables == (2,)  # table 1 has its result; the bye plays no one
    assert done.event.ends_at == current.ends_at + timedelta(minutes=5)
    _, stored = await services.rounds.status(judge(), None)
    assert [m.extension_minutes for m in stored.matches] == [0, 5, 0]
    kind, payload, actor = (await log_kinds(services))[-1]
    assert (kind, payload, actor) == ("extend_round", {"round": 1, "minutes": 5}, judge().user_id)
    told = (await outbox(services.store.database))[len(before) :]
    assert all(notice["operation"] == "extend_round" for notice in told)
    announced = [n for n in told if n["say"] == "round_extended"]
    ends = int(done.event.ends_at.timestamp())
    assert [(n["places"], n["data"]) for n in announced] == [
        (
            ["round_channel", "pairings", "announcements"],
            {"round": 1, "minutes": 5, "tables": 1, "ends": ends},
        )
    ]
    table_2 = set(stored.matches[1].players)
    assert {n["user"] for n in told if n["say"] == "table_extended"} == table_2
    async with services.store.database.read() as connection:
        (verdict,) = await verify_all(connection)
    assert verdict.agrees, verdict

    # Taken back like /judge extend: the tables keep their time as before.
    preview = await services.judges.preview_undo(organizer(), None)
    await services.judges.confirm(organizer(), preview.pending_id)
    _, undone = await services.rounds.status(judge(), None)
    assert [m.extension_minutes for m in undone.matches] == [0, 0, 0]


async def test_a_refusal_writes_nothing_and_the_panels_check_refuses_the_same(
    event: Services,
) -> None:
    services = event
    before = (await log_kinds(services), await outbox(services.store.database))
    with pytest.raises(IllegalTransition) as not_started:
        await services.rounds.extend_round(judge(), None, 5)
    assert (not_started.value.key, not_started.value.rule) == (
        "rounds.clock_not_started",
        "R-MATCH-7",
    )
    with pytest.raises(IllegalTransition) as asked_first:
        await services.rounds.may_extend_round(judge(), None)
    assert asked_first.value.key == not_started.value.key
    with pytest.raises(PermissionDenied):
        await services.rounds.may_extend_round(player(1), None)
    await services.rounds.start_clock(organizer(), None)
    started = (await log_kinds(services), await outbox(services.store.database))
    with pytest.raises(PermissionDenied):
        await services.rounds.extend_round(player(1), None, 5)
    with pytest.raises(DomainError) as too_few:
        await services.rounds.extend_round(judge(), None, 0)
    assert too_few.value.key == "judge.bad_extension"
    assert (await log_kinds(services), await outbox(services.store.database)) == started
    assert started[0][:-1] == before[0]  # only the clock's start was logged meanwhile
    found = await services.rounds.may_extend_round(judge(), None)
    assert found.count(PlayerStatus.ACTIVE) == 5
