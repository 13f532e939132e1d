"""Series: an organizer groups the server's tournaments into a series (a season, a
league) and sets its points table; anyone reads its standings.

A series is the server's bookkeeping, not a tournament's state: it changes no tournament,
so it needs no operation of the tournament model. Its rules are the domain's
(`domain.series`: who may be added, the points table, the standings and their declared
tiebreaks); each change is written with who made it (the series' rows, and a server-level
row of the action log: `series.create`, `series.add`, `series.remove`, `series.points`).
The standings are computed from the stored tournaments each time, so they never disagree
with them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from bot.services.ratings import RatingsMemo
from bot.store.books import SeriesRow
from bot.store.uow import Store, Transaction, tournament_id_in
from domain.decks.decoding import decode
from domain.engine.state import Phase
from domain.errors import IllegalTransition, InvalidInput, NotFound
from domain.guild import Ratings
from domain.series import (
    DEFAULT_POINTS,
    Series,
    SeriesStanding,
    add_event,
    clean_series_name,
    parse_points_table,
    remove_event,
    standings_of,
)
from domain.series.ratings import Rating
from domain.tournament.model import Tournament
from domain.tournament.operations import Role
from domain.tournament.permissions import require_role

AUTOCOMPLETE_LIMIT = 25


@dataclass(frozen=True)
class SeriesView:
    """A series, its events (finished ones count) and its standings."""

    series: Series
    events: tuple[Tournament, ...]  # in the series, oldest first
    standings: tuple[SeriesStanding, ...]
    ratings: dict[int, Rating] | None  # the rating column, when the server shows it

    @property
    def counted(self) -> tuple[Tournament, ...]:
        return tuple(t for t in self.events if t.phase is Phase.FINISHED)


@dataclass(frozen=True)
class SeriesChange:
    """A series after a tournament joined or left it, and that tournament."""

    series: Series
    tournament: Tournament


@dataclass(frozen=True)
class SeriesOverview:
    """The server's series, newest first, and the tournament whose membership the organizer
    is looking at (the panel's シリーズ)."""

    tournament: Tournament
    series: tuple[Series, ...]

    @property
    def joined(self) -> tuple[Series, ...]:
        """The series the tournament is in."""
        return tuple(s for s in self.series if self.tournament.id in s.event_ids)

    @property
    def others(self) -> tuple[Series, ...]:
        """The series it could join."""
        return tuple(s for s in self.series if self.tournament.id not in s.event_ids)


# A series a form or page button carries (int), or what a member typed (str), or nothing.
SeriesRef = int | str | None


async def find_series(tx: Transaction, reference: SeriesRef) -> Series:
    """The series an option names: an id from autocomplete or a name; the only one when
    nothing is named. A carried id names a series of this server or nothing, never one
    named with those digits: one that names nothing here is out of date."""
    rows: list[SeriesRow] = await tx.books.series()
    if isinstance(reference, int):
        carried = next((row.series for row in rows if row.series.id == reference), None)
        if carried is None:
            raise IllegalTransition("errors.stale_button")
        return carried
    if reference is None or not reference.strip():
        if len(rows) == 1:
            return rows[0].series
        if not rows:
            raise NotFound("series.none")
        raise InvalidInput("series.which_one", names=[row.series.name for row in rows[:10]])
    text = reference.strip()
    by_id = tournament_id_in(text)
    for row in rows:
        if row.series.id == by_id or row.series.name == text:
            return row.series
    raise NotFound("series.unknown", reference=text[:100])


async def series_view(
    tx: Transaction, series: Series, ratings: Ratings, memo: RatingsMemo
) -> SeriesView:
    """The series' standings from the stored tournaments, by its own points table, with the
    server's ratings as a column when the server asks for it."""
    tournaments = await tx.tournaments()
    members = set(series.event_ids)
    events = tuple(
        sorted(
            (t for t in tournaments if t.id in members),
            key=lambda t: (t.event_date, t.id),
        )
    )
    column = None
    if ratings is Ratings.SERIES:
        column = memo.of(tx.guild_id, tournaments, tx.versions)
    return SeriesView(series, events, standings_of(series, events), column)


class SeriesService(Service):
    def __init__(self, store: Store, ratings: RatingsMemo, **shared: Any) -> None:
        super().__init__(store, **shared)
        self.ratings = ratings  # one server's ratings, kept once for every reader of them

    async def create(self, actor: Actor, name: str) -> Series:
        """/series create (organizers): an empty series with the default points table."""
        async with self.uow(actor) as tx:
            return await _create(tx, name)

    async def create_with(self, actor: Actor, name: str, tournament: int) -> SeriesChange:
        """The panel's new-series form (organizers): a series made for the tournament whose
        panel it came from, with that tournament in it, in one transaction (a tournament
        that cannot join leaves no empty series behind)."""
        async with self.uow(actor) as tx:
            series = await _create(tx, name)
            return await _add(tx, series, tournament)

    async def add(
        self, actor: Actor, reference: SeriesRef, tournament: TournamentRef
    ) -> SeriesChange:
        """/series add and the panel's シリーズ (organizers): a tournament of this server
        joins the series."""
        async with self.uow(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)
            return await _add(tx, await find_series(tx, reference), tournament)

    async def remove(
        self, actor: Actor, reference: SeriesRef, tournament: TournamentRef
    ) -> SeriesChange:
        """/series remove and the panel's シリーズ (organizers)."""
        async with self.uow(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)
            series = await find_series(tx, reference)
            found = await tx.tournament(tournament, finished_too=True)
            updated = remove_event(series, found)
            await tx.books.save_series(series, updated)
            await tx.log_guild_change(
                "guild.series_remove", {"series": series.id, "tournament": found.id}
            )
        return SeriesChange(updated, found)

    async def set_points(self, actor: Actor, reference: SeriesRef, text: str | bytes) -> Series:
        """/series points (organizers): the points table from its text form (a form's text,
        or a file as uploaded: UTF-8 or Shift_JIS), every line checked
        (`parse_points_table`); a refused table changes nothing."""
        async with self.uow(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)
            series = await find_series(tx, reference)
            decoded = decode(text)
            if decoded is None:
                raise InvalidInput("series.points.unreadable")
            updated = replace(series, table=parse_points_table(decoded))
            await tx.books.save_series(series, updated)
            await tx.log_guild_change(
                "guild.series_points", {"series": series.id, "points": _text(updated)}
            )
        return updated

    async def may_change(self, actor: Actor) -> None:
        """Refuse a non-organizer before a form is even opened."""
        async with self.reader_as(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)

    async def overview(self, actor: Actor, tournament: TournamentRef) -> SeriesOverview:
        """The panel's シリーズ (organizers): the server's series and which of them the
        tournament is in."""
        async with self.reader_as(actor) as tx:
            require_role(tx.actor, Role.ORGANIZER)
            found = await tx.tournament(tournament, finished_too=True)
            rows = await tx.books.series()
        return SeriesOverview(found, tuple(row.series for row in reversed(rows)))

    async def points_of(self, actor: Actor, reference: SeriesRef) -> Series:
        async with self.reader_as(actor) as tx:
            return await find_series(tx, reference)

    async def standings(self, guild_id: int | None, reference: SeriesRef) -> SeriesView:
        """/series standings: anyone."""
        async with self.reader(guild_id) as tx:
            series = await find_series(tx, reference)
            config = await tx.guild_config()
            return await series_view(tx, series, config.ratings, self.ratings)

    async def autocomplete(self, guild_id: int | None, typed: str) -> list[tuple[str, str]]:
        if guild_id is None:
            return []
        async with self.reader(guild_id) as tx:
            rows = await tx.books.series()
        needle = typed.strip().casefold()
        found = [row.series for row in reversed(rows) if needle in row.series.name.casefold()]
        return [(series.name[:100], str(series.id)) for series in found[:AUTOCOMPLETE_LIMIT]]


async def _create(tx: Transaction, name: str) -> Series:
    """A new series of the server, empty, with the default points table."""
    require_role(tx.actor, Role.ORGANIZER)
    cleaned = clean_series_name(name)
    if await tx.books.find_series(cleaned) is not None:
        raise InvalidInput("series.name_taken", name=cleaned)
    series = Series(0, tx.guild_id, cleaned, DEFAULT_POINTS)
    series = replace(series, id=await tx.books.create_series(series))
    await tx.log_guild_change(
        "guild.series_create", {"series": series.id, "name": cleaned, "points": _text(series)}
    )
    return series


async def _add(tx: Transaction, series: Series, tournament: TournamentRef) -> SeriesChange:
    found = await tx.tournament(tournament, finished_too=True)
    updated = add_event(series, found)
    await tx.books.save_series(series, updated)
    await tx.log_guild_change("guild.series_add", {"series": series.id, "tournament": found.id})
    return SeriesChange(updated, found)


def _text(series: Series) -> str:
    return series.table.to_text()
