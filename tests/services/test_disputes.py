"""Disputes settled in one click, below Discord: 異議 stores what the disputing
player claims beside the report (in the action log too, so `verify` agrees), and the judges'
buttons are /result set's operation through the same service, refused to players and to a
table decided since."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services import Services
from bot.store.actions import list_actions
from bot.store.verify import verify_all
from domain.engine.results import MatchResult
from domain.errors import IllegalTransition, InvalidInput, PermissionDenied
from domain.tournament import codec
from tests.services.conftest import GUILD, LEGAL_DECK, judge, organizer, player
from tests.services.test_outbox import outbox


@pytest.fixture
async def paired(configured: Services) -> Services:
    await configured.tournaments.create(
        organizer(), name="異議杯", format="swiss", regulation="single"
    )
    for number in range(1, 5):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await configured.lifecycle.start(organizer(), None)
    await configured.rounds.pair(organizer(), None)
    return configured


async def logged(services: Services) -> list[tuple[str, dict[str, Any]]]:
    async with services.store.database.read() as connection:
        return [(a.kind, a.payload) for a in await list_actions(connection, guild_id=GUILD)]


async def table_1(services: Services) -> tuple[int, int, int]:
    """The tournament and the two players of table 1, as player numbers' users."""
    _, current = await services.rounds.status(organizer(), None)
    first, second = current.matches[0].players
    return current.number, first, second


async def test_a_dispute_stores_the_claim_beside_the_report_and_verify_agrees(
    paired: Services,
) -> None:
    services = paired
    number, first, second = await table_1(services)
    reporter, disputer = player(first - 100), player(second - 100)
    filed = await services.rounds.report(reporter, None, "win")
    tournament_id = filed.tournament.id
    # Only the reporter's opponent may open the form; the reporter and others are refused.
    found = await services.rounds.disputable(disputer, tournament_id, number, 1)
    assert found.report.player_id == first
    with pytest.raises(IllegalTransition) as own:  # their own report is not theirs to dispute
        await services.rounds.disputable(reporter, tournament_id, number, 1)
    assert own.value.key == "report.nothing_to_dispute"
    other = next(p for p in (101, 102, 103, 104) if p not in (first, second))
    with pytest.raises(PermissionDenied):
        await services.rounds.disputable(player(other - 100), tournament_id, number, 1)

    before = await logged(services)
    with pytest.raises(InvalidInput) as agrees:
        await services.rounds.dispute(disputer, tournament_id, number, 1, "lose")
    assert agrees.value.key == "report.dispute_agrees"
    assert await logged(services) == before  # a refusal writes nothing

    outcome = await services.rounds.dispute(
        disputer, tournament_id, number, 1, "time", 1, 4, "時間切れでした"
    )
    assert outcome.disputed
    match = outcome.match
    assert match.disputed
    assert [r.player_id for r in match.reports] == [first, second]
    kind, payload = (await logged(services))[-1]
    assert kind == "dispute_result"
    assert payload == {
        "player_id": second,
        "round": number,
        "table": 1,
        "reason": "時間切れでした",
        "claim": "time",
        "my_points": 1,
        "opponent_points": 4,
    }
    (told,) = [n for n in await outbox(services.store.database) if n["say"] == "dispute"]
    claimed = MatchResult.from_point_zone((str(first), str(second)), (4, 1))
    assert told["data"]["claims"] == [
        [first, codec.encode(MatchResult.win(str(first)))],
        [second, codec.encode(claimed)],
    ]
    assert (told["data"]["disputer"], told["data"]["reason"]) == (second, "時間切れでした")
    async with services.store.database.read() as connection:
        verdicts = await verify_all(connection)
    assert [v.differences for v in verdicts] == [()]


async def test_the_judges_buttons_are_result_set_refused_to_players_and_to_a_decided_table(
    paired: Services,
) -> None:
    services = paired
    number, first, second = await table_1(services)
    filed = await services.rounds.report(player(first - 100), None, "win")
    tournament_id = filed.tournament.id
    await services.rounds.dispute(player(second - 100), tournament_id, number, 1, "win")
    decision = {"table": 1, "number": number, "unsettled_only": True}
    before = await logged(services)
    for someone in (player(first - 100), player(second - 100)):
        with pytest.raises(PermissionDenied):
            await services.rounds.set_result(
                someone, str(tournament_id), choice="win", player=second, **decision
            )
        with pytest.raises(PermissionDenied):
            await services.rounds.table_to_decide(someone, tournament_id, number, 1)
    assert await logged(services) == before

    _, _, match = await services.rounds.table_to_decide(judge(), tournament_id, number, 1)
    assert match.players == (first, second)
    change = await services.rounds.set_result(
        judge(), str(tournament_id), choice="win", player=second, **decision
    )
    assert change.new == MatchResult.win(str(second))
    assert (change.match.reports, change.match.disputed) == ((), False)
    kind, payload = (await logged(services))[-1]
    assert kind == "set_result"  # the very operation of /result set
    assert payload["result"] == codec.encode(MatchResult.win(str(second)))
    # A second judge pressing a stale button does not decide the table again.
    settled = await logged(services)
    with pytest.raises(IllegalTransition) as again:
        await services.rounds.set_result(
            organizer(), str(tournament_id), choice="double_loss", **decision
        )
    assert again.value.key == "result.already_settled"
    assert await logged(services) == settled
    # /result set itself still corrects it.
    await services.rounds.set_result(
        judge(), str(tournament_id), table=1, number=number, choice="double_loss"
    )
    # Each decision is told to both players of the table, naming the judge.
    told = [n for n in await outbox(services.store.database) if n["say"] == "result_decided"]
    assert [(n["user"], n["data"]["judge"]) for n in told] == [
        (first, "Judge"),
        (second, "Judge"),
    ] * 2
