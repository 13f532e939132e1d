"""A person's request is acknowledged before anything of it is written: when the
acknowledgement fails (Discord refused the callback), the request stops with nothing stored.
On both backends; the structural checks are tests/bot/test_acknowledge_first.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services import Services
from tests.services.conftest import GUILD, organizer, player


class Refused(Exception):
    """What the cog's acknowledgement raises when Discord refuses it (NotAcknowledged)."""


async def acknowledge_refused() -> None:
    raise Refused("503 Service Unavailable")


async def test_a_refused_acknowledgement_writes_nothing(configured: Services) -> None:
    """Create and register, acknowledged by a function that fails as a refused callback
    does: the request stops before its transaction; nothing is stored."""
    with pytest.raises(Refused):
        await configured.tournaments.create(
            replace(organizer(), acknowledge=acknowledge_refused),
            name="Never Cup",
            format="swiss",
            regulation="single",
        )
    assert await configured.tournaments.overview(organizer()) == []
    await configured.tournaments.create(
        organizer(), name="Cup", format="swiss", regulation="single"
    )
    with pytest.raises(Refused):
        await configured.registration.register(
            replace(player(1), acknowledge=acknowledge_refused), None
        )
    _, players = await configured.registration.players(GUILD, None)
    assert players == []
