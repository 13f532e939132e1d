"""The tournament model: operations, the aggregate that applies them, and the log's fold.

Every change a person makes is an `Operation`; `apply.apply(tournament, operation, at, actor)`
decides every rule and returns the new tournament with what happened (`events`). The bot
stores the changed rows and the operation itself in one transaction, so the action log can
be folded back (`replay.fold`) into the same tournament.
"""

from domain.tournament.model import Entry, Settings, StoredDeck, Tournament
from domain.tournament.operations import Actor, Operation, Role

__all__ = ["Actor", "Entry", "Operation", "Role", "Settings", "StoredDeck", "Tournament"]
