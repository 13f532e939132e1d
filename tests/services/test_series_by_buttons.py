"""The organizer's series and entries by button, through the services on real SQLite: the
panel's シリーズ reads the server's series with the tournament's membership (organizers
only); its new-series form makes the series and adds the tournament in one transaction; the
menu's selects carry ids (another server's, or a gone one, are out of date); the import form
is refused before it opens to a non-organizer or once the event has started."""

from __future__ import annotations

import pytest

from bot.services import Services
from bot.services.actors import Actor
from bot.store.actions import Action, list_actions
from bot.store.books import load_series
from domain.errors import IllegalTransition, InvalidInput, PermissionDenied
from tests.services.conftest import (
    GUILD,
    LEGAL_DECK,
    ORGANIZER_ROLE,
    OTHER_GUILD,
    admin,
    judge,
    organizer,
    player,
)


async def created(services: Services, name: str = "Cup") -> int:
    made = await services.tournaments.create(
        organizer(), name=name, format="swiss", regulation="single"
    )
    return made.tournament.id


async def server_log(services: Services) -> list[Action]:
    async with services.store.database.read() as connection:
        found = await list_actions(connection, guild_id=GUILD)
    return [action for action in found if action.tournament_id is None]


async def series_names(services: Services) -> list[str]:
    async with services.store.database.read() as connection:
        return [row.series.name for row in await load_series(connection, GUILD)]


async def test_the_menu_lists_the_servers_series_newest_first_with_membership(
    configured: Services,
) -> None:
    cup = await created(configured)
    other = await created(configured, "Other Cup")
    first = await configured.series.create(organizer(), "冬リーグ")
    second = await configured.series.create(organizer(), "春リーグ")
    third = await configured.series.create(organizer(), "月例会")
    await configured.series.add(organizer(), first.id, cup)
    await configured.series.add(organizer(), third.id, cup)
    await configured.series.add(organizer(), second.id, other)
    shown = await configured.series.overview(organizer(), cup)
    assert shown.tournament.id == cup
    assert [s.name for s in shown.series] == ["月例会", "春リーグ", "冬リーグ"]
    assert [s.id for s in shown.joined] == [third.id, first.id]
    assert [s.id for s in shown.others] == [second.id]


async def test_only_organizers_open_the_menu(configured: Services) -> None:
    cup = await created(configured)
    for actor in (player(1), judge()):
        with pytest.raises(PermissionDenied):
            await configured.series.overview(actor, cup)
    # Another server's organizer, with this server's tournament id: out of date there.
    stranger = Actor(2, OTHER_GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
    await configured.guilds.configure(admin(OTHER_GUILD), organizer_role_id=ORGANIZER_ROLE)
    with pytest.raises(IllegalTransition) as gone:
        await configured.series.overview(stranger, cup)
    assert gone.value.key == "errors.stale_button"


async def test_a_new_series_from_the_menu_has_its_tournament_in_it(configured: Services) -> None:
    cup = await created(configured)
    change = await configured.series.create_with(organizer(), " 冬リーグ ", cup)
    assert change.series.name == "冬リーグ"
    assert change.series.event_ids == (cup,)
    assert change.tournament.id == cup
    logged = [
        (a.kind, a.actor_id, a.payload)
        for a in await server_log(configured)
        if a.kind.startswith("guild.series")
    ]
    assert [(kind, actor) for kind, actor, _ in logged] == [
        ("guild.series_create", organizer().user_id),
        ("guild.series_add", organizer().user_id),
    ]
    assert logged[1][2] == {"series": change.series.id, "tournament": cup}


async def test_a_new_series_that_cannot_take_its_tournament_is_not_made(
    configured: Services,
) -> None:
    """One transaction: a form of a tournament that is gone leaves no empty series behind,
    and a player's form makes nothing at all."""
    await created(configured)
    before = await server_log(configured)
    with pytest.raises(IllegalTransition) as gone:
        await configured.series.create_with(organizer(), "冬リーグ", 10**15)
    assert gone.value.key == "errors.stale_button"
    with pytest.raises(PermissionDenied):
        await configured.series.create_with(player(1), "冬リーグ", 1)
    assert await series_names(configured) == []
    assert await server_log(configured) == before
    # A name already taken is refused as by /series create.
    cup = await created(configured, "Cup 2")
    await configured.series.create(organizer(), "冬リーグ")
    with pytest.raises(InvalidInput) as taken:
        await configured.series.create_with(organizer(), "冬リーグ", cup)
    assert taken.value.key == "series.name_taken"


async def test_the_menus_choices_name_this_servers_series_by_id(configured: Services) -> None:
    cup = await created(configured)
    stranger = Actor(2, OTHER_GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
    await configured.guilds.configure(admin(OTHER_GUILD), organizer_role_id=ORGANIZER_ROLE)
    elsewhere = await configured.series.create(stranger, "League")
    here = await configured.series.create(organizer(), str(elsewhere.id))
    for carried in (elsewhere.id, here.id + 100):
        for change in (configured.series.add, configured.series.remove):
            with pytest.raises(IllegalTransition) as refused:
                await change(organizer(), carried, cup)
            assert refused.value.key == "errors.stale_button"
    added = await configured.series.add(organizer(), here.id, cup)
    assert added.series.event_ids == (cup,)
    removed = await configured.series.remove(organizer(), here.id, cup)
    assert removed.series.event_ids == ()


async def test_the_import_form_is_refused_before_it_opens(configured: Services) -> None:
    cup = await created(configured)
    await configured.registration.may_import(organizer(), cup)
    for actor in (player(1), judge()):
        with pytest.raises(PermissionDenied):
            await configured.registration.may_import(actor, cup)
    for number in (1, 2):
        await configured.registration.register(player(number), cup)
        await configured.decks.submit(player(number), cup, LEGAL_DECK, "deck.csv")
    await configured.lifecycle.start(organizer(), cup)
    with pytest.raises(IllegalTransition) as started:
        await configured.registration.may_import(organizer(), cup)
    assert started.value.key == "registration.closed"
