"""The tournament use cases, end to end below Discord: permissions, transactions, the log."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from bot.services import Services
from bot.store.actions import list_actions
from bot.store.verify import verify_all
from domain.errors import IllegalTransition, InvalidInput, NotFound, PermissionDenied
from domain.event import Phase
from tests.conftest import (
    PYTHON,
    cli_env,
    database_env,
    database_location_of,
    edit_behind_the_bots_back,
)
from tests.services.conftest import (
    GUILD,
    LEGAL_DECK,
    OTHER_GUILD,
    admin,
    judge,
    organizer,
    player,
)

# Five copies of 01-001: R-DECK-2, and 61 cards: R-DECK-1.
ILLEGAL_DECK = (
    LEGAL_DECK.decode("utf-8").replace("4,けいおん！,01-001", "5,けいおん！,01-001", 1).encode()
)


async def create(services: Services, **options: object) -> int:
    values: dict[str, object] = {"name": "Winter Cup", "format": "swiss", "regulation": "single"}
    values.update(options)
    summary = await services.tournaments.create(organizer(), **values)  # type: ignore[arg-type]
    return summary.tournament.id


async def actions(services: Services, guild: int = GUILD) -> list[str]:
    async with services.store.database.read() as connection:
        return [a.kind for a in await list_actions(connection, guild_id=guild)]


async def test_full_flow_register_submit_start_lock(configured: Services) -> None:
    services = configured
    await create(services)
    for number in range(1, 9):
        await services.registration.register(player(number), None)
    # One illegal list (R-DECK-2: five copies), then corrected.
    rejected = await services.decks.submit(player(1), None, ILLEGAL_DECK, "deck.csv")
    assert not rejected.stored
    assert {v.rule for v in rejected.check.violations} >= {"R-DECK-1", "R-DECK-2"}
    for number in range(1, 9):
        accepted = await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
        assert accepted.stored
        assert accepted.check.legal
    report = await services.lifecycle.start(organizer(), None)
    assert report.tournament.phase is Phase.RUNNING
    assert report.tournament.seed == 424242
    assert report.tournament.round_count == 3  # ceil(log2 8)
    assert len(report.players) == 8
    # R-DECK-4: the list is locked from the start.
    with pytest.raises(IllegalTransition) as locked:
        await services.decks.submit(player(1), None, LEGAL_DECK, "deck.csv")
    assert locked.value.rule == "R-DECK-4"
    shown = await services.decks.show(player(1), None, None)
    assert shown.record.locked_at is not None
    kinds = await actions(services)
    assert kinds.count("register") == 8
    assert kinds.count("submit_deck") == 8
    assert kinds[-1] == "start_tournament"


async def test_start_drops_players_without_a_legal_deck(configured: Services) -> None:
    services = configured
    await create(services)
    for number in range(1, 4):
        await services.registration.register(player(number), None)
    await services.decks.submit(player(1), None, LEGAL_DECK, "deck.csv")
    await services.decks.submit(player(2), None, LEGAL_DECK, "deck.csv")
    report = await services.lifecycle.start(organizer(), None)
    assert [p.user_id for p in report.without_deck] == [player(3).user_id]
    assert [p.user_id for p in report.dropped] == [player(3).user_id]
    assert len(report.players) == 2


async def test_start_anyway_keeps_players_without_a_deck(configured: Services) -> None:
    services = configured
    await create(services)
    for number in range(1, 4):
        await services.registration.register(player(number), None)
    await services.tournaments.update_settings(
        organizer(), None, missing_deck_policy="start_anyway"
    )
    report = await services.lifecycle.start(organizer(), None)
    assert len(report.without_deck) == 3
    assert report.dropped == []
    assert len(report.players) == 3


async def test_registering_twice_is_refused(configured: Services) -> None:
    await create(configured)
    await configured.registration.register(player(1), None)
    with pytest.raises(InvalidInput) as twice:
        await configured.registration.register(player(1), None)
    assert twice.value.key == "registration.already_registered"


async def test_a_full_event_waitlists_and_promotes_on_unregister(configured: Services) -> None:
    services = configured
    await create(services, max_players=2)
    await services.registration.register(player(1), None)
    await services.registration.register(player(2), None)
    third = await services.registration.register(player(3), None)
    assert third.waitlist_position == 1
    left = await services.registration.unregister(player(1), None)
    assert left.promoted is not None
    assert left.promoted.user_id == player(3).user_id
    _, players = await services.registration.players(GUILD, None)
    statuses = {p.user_id: p.status for p in players}
    assert statuses[player(3).user_id] == "registered"
    assert statuses[player(1).user_id] == "dropped"
    # The promotion follows from the logged unregistration: replaying the log redoes it.
    assert (await actions(services))[-1] == "unregister"


@pytest.mark.parametrize(
    "attempt",
    [
        "create",
        "settings",
        "start",
        "publish",
        "setup",
    ],
)
async def test_ordinary_players_cannot_use_organizer_use_cases(
    configured: Services, attempt: str
) -> None:
    services = configured
    await create(services)
    await services.registration.register(player(1), None)
    before = await actions(services)
    calls = {
        "create": lambda: services.tournaments.create(
            player(1), name="Mine", format="swiss", regulation="mix"
        ),
        "settings": lambda: services.tournaments.update_settings(
            player(1), None, decklist_required=False
        ),
        "start": lambda: services.lifecycle.start(player(1), None),
        "publish": lambda: services.decks.publish(player(1), None),
        "setup": lambda: services.guilds.configure(player(1), locale="en"),
    }
    with pytest.raises(PermissionDenied):
        await calls[attempt]()
    assert await actions(services) == before  # nothing written


async def test_judges_see_any_deck_players_only_their_own(configured: Services) -> None:
    services = configured
    await create(services)
    await services.registration.register(player(1), None)
    await services.decks.submit(player(1), None, LEGAL_DECK, "deck.csv")
    await services.registration.register(player(2), None)
    with pytest.raises(PermissionDenied):
        await services.decks.show(player(2), None, player(1).user_id)
    seen = await services.decks.show(judge(), None, player(1).user_id)
    assert seen.record.total == 60


async def test_publishing_makes_lists_visible_to_all(configured: Services) -> None:
    services = configured
    await create(services)
    for number in (1, 2):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    with pytest.raises(IllegalTransition):
        await services.decks.publish(organizer(), None)  # not before the event
    await services.lifecycle.start(organizer(), None)
    _, count = await services.decks.publish(organizer(), None)
    assert count == 2
    seen = await services.decks.show(player(2), None, player(1).user_id)
    assert seen.owner_id == player(1).user_id


async def test_other_guilds_cannot_see_or_touch_a_tournament(configured: Services) -> None:
    services = configured
    tournament_id = await create(services)
    stranger = player(1, guild=OTHER_GUILD)
    with pytest.raises(NotFound):
        await services.registration.register(stranger, str(tournament_id))
    with pytest.raises(NotFound):
        await services.tournaments.info(stranger, "Winter Cup")
    with pytest.raises(NotFound):
        await services.lifecycle.start(admin(OTHER_GUILD), str(tournament_id))
    assert await services.tournaments.autocomplete(OTHER_GUILD, "") == []


async def test_bad_names_are_refused_before_anything_is_written(configured: Services) -> None:
    services = configured
    for name, key in (
        ("x" * 65, "event.name_too_long"),
        ("@everyone come", "event.name_mentions"),
        ("two\nlines", None),  # whitespace is folded to one line, so this one is accepted
    ):
        if key is None:
            await create(services, name=name)
            continue
        with pytest.raises(InvalidInput) as refused:
            await create(services, name=name)
        assert refused.value.key == key
    assert (await actions(services)).count("create_tournament") == 1


async def test_event_regulation_needs_known_titles(configured: Services) -> None:
    # R-REG-4: an event admits only designated titles, which must exist.
    with pytest.raises(InvalidInput) as missing:
        await create(configured, regulation="event")
    assert missing.value.rule == "R-REG-4"
    with pytest.raises(InvalidInput) as unknown:
        await create(configured, regulation="event", titles="けいおんX")
    assert unknown.value.rule == "R-REG-4"
    created = await create(configured, regulation="event", titles="けいおん！")
    assert created > 0


async def test_malformed_settings_files_are_refused_and_nothing_changes(
    configured: Services,
) -> None:
    services = configured
    await create(services)
    with pytest.raises(InvalidInput):
        await services.tournaments.update_settings(
            organizer(),
            None,
            decklist_required=False,
            restricted_list=("restricted.toml", b"[[limit]]\nlabel = 3\n"),
        )
    info = await services.tournaments.info(organizer(), None)
    assert info.tournament.restricted_list is None
    assert info.tournament.decklist_required is True
    with pytest.raises(InvalidInput) as not_text:
        await services.tournaments.update_settings(
            organizer(), None, card_database=("cards.csv", b"\xff\xfe\x00\x81\xff")
        )
    assert not_text.value.key == "tournament.settings_refused"  # naming the setting
    assert not_text.value.params["setting"] == "card_database"
    assert not_text.value.params["problem"].key == "files.not_text"


async def test_without_setup_manage_server_is_the_organizer(services: Services) -> None:
    # Before /setup, only members with Manage Server may run organizer commands.
    await services.tournaments.create(admin(), name="Cup", format="swiss", regulation="mix")
    with pytest.raises(PermissionDenied) as refused:
        await services.tournaments.create(
            organizer(), name="Cup 2", format="swiss", regulation="mix"
        )
    assert refused.value.key == "permissions.organizer_only_unconfigured"


async def test_only_one_open_tournament_can_be_left_out(configured: Services) -> None:
    await create(configured)
    await create(configured, name="Spring Cup")
    with pytest.raises(InvalidInput) as ambiguous:
        await configured.registration.register(player(1), None)
    assert ambiguous.value.key == "tournament.which_one"
    registered = await configured.registration.register(player(1), "Spring Cup")
    assert registered.tournament.name == "Spring Cup"


async def test_the_full_flow_ends_with_verify_agreeing_and_naming_a_hand_edit(
    configured: Services, tmp_path: Path
) -> None:
    services = configured
    await create(services)
    for number in range(1, 6):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), None)
    paired = await services.rounds.pair(organizer(), None)
    await services.rounds.start_clock(organizer(), None)
    first, second = paired.round.matches[0].players
    await services.rounds.report(player(first - 100), None, "time", 1, 4)
    await services.rounds.confirm(player(second - 100), paired.tournament.id, 1, 1)
    await services.rounds.extend(judge(), None, 2, 5)
    await services.rounds.drop(player(paired.round.matches[1].players[0] - 100), None)
    async with services.store.database.read() as connection:
        (verdict,) = await verify_all(connection)
    assert verdict.agrees, verdict
    location = database_location_of(services.store.database)

    def cli() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [PYTHON, "-m", "bot", "verify"],
            env=cli_env(**database_env(location)),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    agreed = await asyncio.to_thread(cli)
    assert agreed.returncode == 0, agreed.stderr
    assert "agrees" in agreed.stdout
    # Someone edits a row behind the bot's back.
    await asyncio.to_thread(
        edit_behind_the_bots_back,
        location,
        "UPDATE players SET status = 'active', dropped_round = NULL WHERE status = 'dropped'",
        "UPDATE matches SET extension_minutes = 0",
    )
    edited = await asyncio.to_thread(cli)
    assert edited.returncode == 1
    assert "status" in edited.stdout
    assert "extension_minutes" in edited.stdout
    missing = await asyncio.to_thread(
        lambda: subprocess.run(
            [PYTHON, "-m", "bot", "verify"],
            env=cli_env(DATABASE_PATH=str(tmp_path / "missing.sqlite3")),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    )
    assert missing.returncode == 2
    assert "DATABASE_PATH" in missing.stderr
