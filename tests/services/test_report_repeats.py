"""The same report filed again (a player presses 勝ち a second time because Discord lost the
first answer) is answered "already received": nothing is written, not in the log, not in
the outbox, so the opponent is not asked to confirm twice; a changed report is filed and
told as ever. On both backends, and the acknowledgement comes before any of it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services import Services
from bot.store.verify import verify_all
from tests.services.conftest import LEGAL_DECK, organizer, player
from tests.services.test_disputes import logged, table_1
from tests.services.test_outbox import outbox


@pytest.fixture
async def paired(configured: Services) -> Services:
    await configured.tournaments.create(
        organizer(), name="Repeat Cup", format="swiss", regulation="single"
    )
    for number in range(1, 5):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await configured.lifecycle.start(organizer(), None)
    await configured.rounds.pair(organizer(), None)
    return configured


async def test_the_same_report_again_is_already_received_and_tells_nobody(
    paired: Services,
) -> None:
    services = paired
    number, first, _ = await table_1(services)
    reporter = player(first - 100)
    filed = await services.rounds.report(reporter, None, "win", number=number)
    assert not filed.repeated
    log, told = await logged(services), await outbox(services.store.database)
    again = await services.rounds.report(reporter, None, "win", number=number)
    assert again.repeated
    assert again.events == ()
    assert again.match.reports == filed.match.reports  # the report as filed, its time too
    assert await logged(services) == log
    assert await outbox(services.store.database) == told  # no second confirm request
    # A changed report is a report: filed, and the opponent is asked again.
    changed = await services.rounds.report(reporter, None, "lose", number=number)
    assert not changed.repeated
    assert [kind for kind, _ in await logged(services)][-1] == "report_result"
    assert len(await outbox(services.store.database)) > len(told)
    async with services.store.database.read() as connection:
        verdicts = await verify_all(connection)
    assert [v.agrees for v in verdicts] == [True]


async def test_the_answer_is_acknowledged_before_the_repeat_is_recognised(
    paired: Services,
) -> None:
    services = paired
    number, first, _ = await table_1(services)
    acknowledged: list[int] = []

    async def acknowledge() -> None:
        acknowledged.append(len(await logged(services)))

    reporter = replace(player(first - 100), acknowledge=acknowledge)
    await services.rounds.report(reporter, None, "win", number=number)
    await services.rounds.report(reporter, None, "win", number=number)
    before = len(await logged(services))
    assert acknowledged == [before - 1, before]  # each before its own transaction
