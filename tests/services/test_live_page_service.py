"""/tournament page (the live page) through the services: organizers only, the address made once
and kept, the switch in the action log with its address (so `verify` replays it exactly),
and what the page's anonymous reader may see."""

from __future__ import annotations

import pytest

from bot.services import Services
from bot.services.live import decks_public, public_url, standings
from bot.store.actions import list_actions
from bot.store.verify import verify_all
from domain.errors import NotFound, PermissionDenied
from tests.services.conftest import GUILD, LEGAL_DECK, organizer, player


async def test_the_switch_is_logged_with_its_address_and_replays(configured: Services) -> None:
    services = configured
    await services.tournaments.create(organizer(), name="Cup", format="swiss", regulation="single")
    with pytest.raises(PermissionDenied):
        await services.tournaments.set_page(player(1), None, True)
    on = await services.tournaments.set_page(organizer(), None, True)
    slug = on.tournament.page_slug
    assert on.changed
    assert slug is not None
    assert len(slug) >= 22
    assert (
        public_url(on.tournament, "https://pm.example/live/") == f"https://pm.example/live/t/{slug}"
    )
    assert public_url(on.tournament, None) is None
    same = await services.tournaments.set_page(organizer(), None, True)
    assert not same.changed
    assert same.tournament.page_slug == slug
    off = await services.tournaments.set_page(organizer(), None, False)
    assert public_url(off.tournament, "https://pm.example") is None
    assert await services.live.open(slug) is None
    back = await services.tournaments.set_page(organizer(), None, True)
    assert back.tournament.page_slug == slug  # the printed link still works
    async with services.store.database.read() as connection:
        actions = await list_actions(connection, guild_id=GUILD)
        verdicts = await verify_all(connection)
    logged = [a for a in actions if a.kind == "set_live_page"]
    assert [a.payload for a in logged] == [
        {"public": True, "slug": slug},
        {"public": False, "slug": slug},
        {"public": True, "slug": slug},
    ]
    assert all(verdict.agrees for verdict in verdicts)
    page = await services.live.open(slug)
    assert page is not None
    assert page.tournament.id == on.tournament.id


async def test_lists_are_public_exactly_when_deck_show_says_so(configured: Services) -> None:
    services = configured
    await services.tournaments.create(organizer(), name="Cup", format="swiss", regulation="single")
    for number in (1, 2):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    info = await services.tournaments.info(organizer(), None)
    assert not decks_public(info.tournament)
    with pytest.raises(PermissionDenied):  # /deck show decides the same for another player
        await services.decks.show(player(1), None, player(2).user_id)
    await services.lifecycle.start(organizer(), None)
    await services.decks.publish(organizer(), None)
    published = (await services.tournaments.info(organizer(), None)).tournament
    assert decks_public(published)
    await services.decks.show(player(1), None, player(2).user_id)
    with pytest.raises(NotFound):
        standings(published, page=2)
    assert standings(published, page=1, per_page=1).pages == 2
