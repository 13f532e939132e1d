"""What a button or form carries, through the services (issue 18).

A tournament id a button carries names that tournament of this server or nothing: never a
tournament that happens to be named with those digits (a name is what a member types).
"""

from __future__ import annotations

import pytest

from bot.services import Services
from bot.services.actors import Actor
from domain.errors import IllegalTransition
from tests.services.conftest import (
    GUILD,
    LEGAL_DECK,
    ORGANIZER_ROLE,
    OTHER_GUILD,
    admin,
    organizer,
    player,
)


async def running(services: Services, name: str = "Cup", players: int = 4) -> int:
    """A tournament of `players` in its round 1; its id."""
    created = await services.tournaments.create(
        organizer(), name=name, format="swiss", regulation="single"
    )
    for number in range(1, players + 1):
        await services.registration.register(player(number), name)
        await services.decks.submit(player(number), name, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), name)
    await services.rounds.pair(organizer(), name)
    return created.tournament.id


async def test_a_carried_id_names_this_servers_tournament_never_one_so_named(
    configured: Services,
) -> None:
    other_organizer = Actor(2, OTHER_GUILD, "Organizer", frozenset({ORGANIZER_ROLE}))
    await configured.guilds.configure(admin(OTHER_GUILD), organizer_role_id=ORGANIZER_ROLE)
    elsewhere = await configured.tournaments.create(
        other_organizer, name="Elsewhere", format="swiss", regulation="single"
    )
    other_id = elsewhere.tournament.id
    here = await configured.tournaments.create(
        organizer(), name=str(other_id), format="swiss", regulation="single"
    )
    # The other server's button, pressed here: out of date, nobody registered.
    with pytest.raises(IllegalTransition) as refused:
        await configured.registration.register(player(1), other_id)
    assert refused.value.key == "errors.stale_button"
    for gone in (0, 2**63, here.tournament.id + 100):
        with pytest.raises(IllegalTransition):
            await configured.registration.register(player(1), gone)
    players, _ = await configured.registration.players(GUILD, here.tournament.id)
    assert players.players == {}
    # Typed in an option, the same digits are the name; this server's button is its id.
    typed = await configured.registration.register(player(1), str(other_id))
    assert typed.tournament.id == here.tournament.id
    pressed = await configured.registration.register(player(2), here.tournament.id)
    assert pressed.tournament.id == here.tournament.id
