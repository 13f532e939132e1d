"""How many Swiss rounds an event plays (R-FMT-2, R-FMT-6)."""

from __future__ import annotations

from domain.errors import InvalidInput


def default_rounds(players: int) -> int:
    """ceil(log2 N): enough rounds for one undefeated player in a field of N (0 for N = 1)."""
    if players < 1:
        raise InvalidInput("engine.rounds.no_players", players=players)
    return (players - 1).bit_length()


def swiss_rounds(players: int, override: int | None = None) -> int:
    """The organizer's override (announced beforehand, R-FMT-6), else the default."""
    if override is None:
        return default_rounds(players)
    if override < 1:
        raise InvalidInput("engine.rounds.invalid_override", rounds=override, rule="R-FMT-2")
    return override
