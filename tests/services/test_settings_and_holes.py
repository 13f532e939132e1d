"""Settings and the holes found in review, through the services on real SQLite."""

from __future__ import annotations

import pytest

from bot.services import Services
from domain.errors import IllegalTransition, NotFound, PermissionDenied
from tests.conftest import REPO_ROOT
from tests.services.conftest import organizer, player

LEGAL_TEXT = (REPO_ROOT / "data" / "examples" / "keion.txt").read_text(encoding="utf-8")
WITH_EX = LEGAL_TEXT + "\n# EX\n# けいおん！\n2 01-100\n"


async def create(services: Services) -> None:
    await services.tournaments.create(
        organizer(), name="Winter Cup", format="swiss", regulation="single"
    )


async def test_the_ex_deck_is_an_organizer_setting_r_deck_6(configured: Services) -> None:
    await create(configured)
    await configured.registration.register(player(1), None)
    refused = await configured.decks.submit(player(1), None, WITH_EX, None)
    assert not refused.stored
    assert {v.rule for v in refused.check.violations} == {"R-DECK-6"}
    await configured.tournaments.update_settings(organizer(), None, ex_deck=True)
    accepted = await configured.decks.submit(player(1), None, WITH_EX, None)
    assert accepted.stored
    shown = await configured.decks.show(player(1), None, None)
    assert shown.decklist.canonical_text().count("01-100") == 1


async def test_a_players_upload_is_refused_before_it_is_parsed(configured: Services) -> None:
    # Deep nesting would raise RecursionError if parsed at all.
    await create(configured)
    hostile = ("a = " + "[" * 100_000).encode()
    with pytest.raises(PermissionDenied):
        await configured.tournaments.may_change_settings(player(1))
    with pytest.raises(PermissionDenied):
        await configured.tournaments.update_settings(
            player(1), None, restricted_list=("evil.toml", hostile)
        )


@pytest.mark.parametrize("reference", ["²", "①", "9" * 25, "9" * 5000, "٣"])
async def test_odd_digits_name_no_tournament_instead_of_crashing(
    configured: Services, reference: str
) -> None:
    # Only ASCII digits within SQLite's range are ids; the rest are names.
    await create(configured)
    with pytest.raises(NotFound) as unknown:
        await configured.tournaments.info(player(1), reference)
    assert unknown.value.key == "tournament.unknown"


async def test_published_lists_are_refused_before_publication(configured: Services) -> None:
    # Published lists: the service decides, not the command that happens to call it.
    await create(configured)
    for number in (1, 2):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_TEXT, None)
    with pytest.raises(PermissionDenied):
        await configured.decks.published_lists(player(1), None)
    await configured.lifecycle.start(organizer(), None)
    with pytest.raises(PermissionDenied):
        await configured.decks.published_lists(player(1), None)
    await configured.decks.publish(organizer(), None)
    assert len(await configured.decks.published_lists(player(1), None)) == 2


async def test_the_paste_box_is_refused_after_the_lock(configured: Services) -> None:
    # Decks locked at the start: refuse before asking for the list.
    await create(configured)
    for number in (1, 2):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_TEXT, None)
    await configured.decks.may_submit(player(1), None)
    await configured.lifecycle.start(organizer(), None)
    with pytest.raises(IllegalTransition) as locked:
        await configured.decks.may_submit(player(1), None)
    assert locked.value.rule == "R-DECK-4"


async def test_ex_settings_are_locked_with_the_decks(configured: Services) -> None:
    await create(configured)
    for number in (1, 2):
        await configured.registration.register(player(number), None)
        await configured.decks.submit(player(number), None, LEGAL_TEXT, None)
    await configured.lifecycle.start(organizer(), None)
    with pytest.raises(IllegalTransition) as locked:
        await configured.tournaments.update_settings(organizer(), None, ex_deck=True)
    assert locked.value.rule == "R-DECK-4"


async def test_the_same_interaction_applies_once(configured: Services) -> None:
    # Idempotency: a redelivered interaction (or a double click that Discord sends twice with
    # one id) must not apply twice.
    from dataclasses import replace

    from bot.store.actions import list_actions
    from tests.services.conftest import GUILD

    await create(configured)
    once = replace(player(1), request_id=987654321)
    await configured.registration.register(once, None)
    await configured.registration.unregister(replace(player(1), request_id=987654322), None)
    with pytest.raises(IllegalTransition) as again:
        await configured.registration.register(once, None)
    assert again.value.key == "errors.already_done"
    async with configured.store.database.read() as connection:
        kinds = [a.kind for a in await list_actions(connection, guild_id=GUILD)]
    assert kinds.count("register") == 1
