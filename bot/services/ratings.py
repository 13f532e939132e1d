"""A server's ratings, kept (opt-in). They are a fold over every match of the
server's finished events, in order (`domain.series.ratings.server_ratings`), each match a
cost in OpenSkill that adds up over a year of weekly events (docs/BENCHMARKS.md, "Series,
ratings and entry import"). They are kept per server until one of those events changes or another
one finishes, so /profile and the series standings do not refold a year on every look."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.engine.state import Phase
from domain.series.ratings import Rating, server_ratings
from domain.tournament.model import Tournament

Key = tuple[tuple[int, int], ...]


class RatingsMemo:
    def __init__(self) -> None:
        self._kept: dict[int, tuple[Key, dict[int, Rating]]] = {}

    def of(
        self, guild_id: int, tournaments: Sequence[Tournament], versions: Mapping[int, int]
    ) -> dict[int, Rating]:
        """The server's ratings from `tournaments` (read at `versions`, as the unit of work
        loaded them): the ones kept when the same finished events are at the same versions."""
        finished = [t for t in tournaments if t.phase is Phase.FINISHED]
        key = tuple(sorted((t.id, versions.get(t.id, -1)) for t in finished))
        kept = self._kept.get(guild_id)
        if kept is not None and kept[0] == key and -1 not in (v for _, v in key):
            return kept[1]
        ratings = server_ratings(finished)
        self._kept[guild_id] = (key, ratings)
        return ratings
