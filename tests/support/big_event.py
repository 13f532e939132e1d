"""A large running event built through the services (for the load tests and benches).

`running_event` configures the guild, creates a Swiss tournament, registers and submits a
legal deck for every player, starts it and pairs round 1: with 400 players, 200 tables.
"""

from __future__ import annotations

from bot.services import Services
from bot.services.actors import Actor
from tests.conftest import REPO_ROOT

LEGAL_DECK = (REPO_ROOT / "data" / "examples" / "keion.csv").read_bytes()


async def running_event(
    services: Services,
    *,
    admin: Actor,
    organizer: Actor,
    players: list[Actor],
    organizer_role: int,
    judge_role: int,
    name: str = "Big Cup",
    **channels: int,
) -> int:
    """Round 1 paired (not started) for `players`; the tournament's id."""
    await services.guilds.configure(
        admin, organizer_role_id=organizer_role, judge_role_id=judge_role, locale="ja", **channels
    )
    created = await services.tournaments.create(
        organizer, name=name, format="swiss", regulation="single"
    )
    for actor in players:
        await services.registration.register(actor, None)
        submitted = await services.decks.submit(actor, None, LEGAL_DECK, "deck.csv")
        assert submitted.stored
    await services.lifecycle.start(organizer, None)
    await services.rounds.pair(organizer, None)
    return created.tournament.id
