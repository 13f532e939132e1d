"""Fold every tournament's action log and compare it with the stored tables."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.store.actions import tournament_log
from bot.store.backend import Connection
from bot.store.tournaments import load_tournament, tournament_ids
from domain.errors import DomainError
from domain.tournament.compare import Difference, differences
from domain.tournament.replay import fold


@dataclass(frozen=True)
class Verdict:
    guild_id: int
    tournament_id: int
    name: str
    operations: int
    replayable: bool = True
    differences: tuple[Difference, ...] = field(default=())
    error: DomainError | None = None

    @property
    def agrees(self) -> bool:
        return self.replayable and not self.differences and self.error is None


async def verify_tournament(connection: Connection, guild_id: int, tournament_id: int) -> Verdict:
    stored = await load_tournament(connection, guild_id, tournament_id)
    assert stored is not None
    count, log = await tournament_log(connection, guild_id=guild_id, tournament_id=tournament_id)
    if log is None:
        return Verdict(guild_id, tournament_id, stored.name, count, replayable=False)
    try:
        folded = fold(tournament_id, guild_id, log)
    except DomainError as error:
        return Verdict(guild_id, tournament_id, stored.name, count, error=error)
    found = tuple(differences(folded, stored))
    return Verdict(guild_id, tournament_id, stored.name, count, differences=found)


async def verify_all(connection: Connection, tournament_id: int | None = None) -> list[Verdict]:
    verdicts = []
    for guild_id, found_id in sorted(await tournament_ids(connection)):
        if tournament_id is None or found_id == tournament_id:
            verdicts.append(await verify_tournament(connection, guild_id, found_id))
    return verdicts
