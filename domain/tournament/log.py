"""One row of the action log, as the rest of the bot reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.tournament.operations import Role


@dataclass(frozen=True)
class Action:
    id: int
    guild_id: int
    tournament_id: int | None
    actor_id: int
    actor_role: Role | None
    kind: str
    payload: dict[str, Any]
    created_at: str
