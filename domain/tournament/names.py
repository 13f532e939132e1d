"""Players' names as the bot shows them: the name each registered under, made unique."""

from __future__ import annotations

from domain.tournament.model import Tournament


def display_names(tournament: Tournament) -> dict[int, str]:
    """Each player's name, made unique (a shared name gets its id) so records stay readable."""
    names = {user: entry.display_name for user, entry in tournament.players.items()}
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {user: name if counts[name] == 1 else f"{name} ({user})" for user, name in names.items()}


def display_name(tournament: Tournament, user_id: int) -> str | None:
    """One player's name as `display_names` gives it, without building the whole map (a
    report names two players; the event may have a thousand)."""
    entry = tournament.players.get(user_id)
    if entry is None:
        return None
    name = entry.display_name
    shared = sum(1 for other in tournament.players.values() if other.display_name == name) > 1
    return f"{name} ({user_id})" if shared else name
