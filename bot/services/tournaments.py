"""Creating, finding, configuring and listing tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

import aiosqlite

from bot.services.actors import Actor, require_guild, require_organizer
from bot.services.base import Service
from bot.store.actions import append_action
from bot.store.guilds import GuildConfig, get_guild_config
from bot.store.tournaments import (
    TournamentRecord,
    count_players,
    find_tournament_by_name,
    get_tournament,
    insert_tournament,
    list_tournaments,
    update_tournament,
)
from domain.decks import DeckRules, parse_regulation
from domain.errors import IllegalTransition, InvalidInput, NotFound
from domain.event import Phase, make_event_config

JST = timezone(timedelta(hours=9), "JST")
AUTOCOMPLETE_LIMIT = 25  # Discord's limit of autocomplete choices


async def resolve_tournament(
    connection: aiosqlite.Connection, guild_id: int, reference: str | None
) -> TournamentRecord:
    """The tournament an option names: an id from autocomplete, a name, or the only open one."""
    if reference is None or not reference.strip():
        open_ones = await list_tournaments(connection, guild_id, open_only=True)
        if len(open_ones) == 1:
            return open_ones[0]
        if not open_ones:
            raise NotFound("tournament.none_open")
        names = ", ".join(t.name for t in open_ones[:10])
        raise InvalidInput("tournament.which_one", names=names)
    text = reference.strip()
    found = None
    if text.isdigit():
        found = await get_tournament(connection, guild_id, int(text))
    if found is None:
        found = await find_tournament_by_name(connection, guild_id, text)
    if found is None:
        raise NotFound("tournament.unknown", reference=text)
    return found


@dataclass(frozen=True)
class TournamentSummary:
    tournament: TournamentRecord
    registered: int
    waitlisted: int
    config: GuildConfig


class TournamentService(Service):
    def today(self) -> date:
        return self.clock().astimezone(JST).date()

    async def create(
        self,
        actor: Actor,
        *,
        name: str,
        format: str,
        regulation: str,
        rounds: int | None = None,
        top_cut: int | None = None,
        time_limit: int | None = None,
        titles: str | None = None,
        max_players: int | None = None,
        event_date: str | None = None,
    ) -> TournamentSummary:
        guild_id = require_guild(actor)
        config = make_event_config(
            name=name,
            format=format,
            regulation=regulation,
            event_date=self._parse_date(event_date),
            rounds=rounds,
            top_cut=top_cut,
            time_limit_minutes=time_limit,
            titles=titles,
            max_players=max_players,
        )
        if config.titles:
            # An unknown designated title is the organizer's mistake: refuse it now, not
            # at every player's deck check (R-REG-4).
            DeckRules(
                regulation=parse_regulation(config.regulation),
                date=config.event_date,
                designated_titles=config.titles,
            ).designated()
        async with self.database.write() as connection:
            guild = await get_guild_config(connection, guild_id)
            require_organizer(actor, guild)
            if await find_tournament_by_name(connection, guild_id, config.name):
                raise InvalidInput("tournament.name_taken", name=config.name)
            now = self.clock()
            tournament_id = await insert_tournament(
                connection, guild_id=guild_id, config=config, created_by=actor.user_id, at=now
            )
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament_id,
                actor_id=actor.user_id,
                kind="tournament.create",
                at=now,
                payload={
                    "name": config.name,
                    "format": config.format.value,
                    "regulation": config.regulation,
                    "rounds": config.rounds,
                    "top_cut": config.top_cut,
                    "time_limit_minutes": config.time_limit_minutes,
                    "titles": list(config.titles),
                    "max_players": config.max_players,
                    "event_date": config.event_date.isoformat(),
                },
            )
            tournament = await get_tournament(connection, guild_id, tournament_id)
            assert tournament is not None
        return TournamentSummary(tournament, 0, 0, guild)

    def _parse_date(self, text: str | None) -> date:
        if not text:
            return self.today()
        try:
            return date.fromisoformat(text.strip())
        except ValueError:
            raise InvalidInput("tournament.bad_date", value=text) from None

    async def info(self, actor: Actor, reference: str | None) -> TournamentSummary:
        guild_id = require_guild(actor)
        async with self.database.read() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            return TournamentSummary(
                tournament,
                await count_players(connection, tournament.id, "registered"),
                await count_players(connection, tournament.id, "waitlisted"),
                await get_guild_config(connection, guild_id),
            )

    async def overview(
        self, actor: Actor, *, include_finished: bool = True
    ) -> list[TournamentRecord]:
        guild_id = require_guild(actor)
        async with self.database.read() as connection:
            return await list_tournaments(connection, guild_id, open_only=not include_finished)

    async def autocomplete(self, guild_id: int | None, typed: str) -> list[tuple[str, str]]:
        """(label, value) pairs: open tournaments first, matching what was typed."""
        if guild_id is None:
            return []
        async with self.database.read() as connection:
            tournaments = await list_tournaments(connection, guild_id)
        needle = typed.strip().casefold()
        matches = [t for t in tournaments if needle in t.name.casefold()]
        matches.sort(key=lambda t: (t.state is Phase.FINISHED, -t.id))
        return [(t.name[:100], str(t.id)) for t in matches[:AUTOCOMPLETE_LIMIT]]

    async def update_settings(
        self,
        actor: Actor,
        reference: str | None,
        *,
        late_registration_rounds: int | None = None,
        decklist_required: bool | None = None,
        missing_deck_policy: str | None = None,
        starts_at: str | None = None,
        checkin_minutes: int | None = None,
        mix_two_minimum: int | None = None,
        restricted_list: tuple[str, bytes] | None = None,
        titles_file: tuple[str, bytes] | None = None,
        card_database: tuple[str, bytes] | None = None,
    ) -> TournamentRecord:
        """Change organizer settings. Uploaded files, as (filename, bytes), are validated first."""
        from bot.services.decks import read_uploaded_files

        guild_id = require_guild(actor)
        changes: dict[str, object] = {}
        if late_registration_rounds is not None:
            if not 0 <= late_registration_rounds <= 30:
                raise InvalidInput("tournament.bad_late_rounds", value=late_registration_rounds)
            changes["late_registration_rounds"] = late_registration_rounds
        if decklist_required is not None:
            changes["decklist_required"] = decklist_required
        if missing_deck_policy is not None:
            if missing_deck_policy not in ("drop", "start_anyway"):
                raise InvalidInput("tournament.bad_missing_deck_policy", value=missing_deck_policy)
            changes["missing_deck_policy"] = missing_deck_policy
        if starts_at is not None:
            changes["starts_at"] = self._parse_start(starts_at)
        if checkin_minutes is not None:
            if not 0 <= checkin_minutes <= 24 * 60:
                raise InvalidInput("tournament.bad_checkin_minutes", value=checkin_minutes)
            changes["checkin_minutes"] = checkin_minutes
        if mix_two_minimum is not None:
            if not 1 <= mix_two_minimum <= 30:
                raise InvalidInput("tournament.bad_mix_two_minimum", value=mix_two_minimum)
            changes["mix_two_minimum"] = mix_two_minimum
        files = read_uploaded_files(
            {
                "restricted_list": restricted_list,
                "titles_file": titles_file,
                "card_database": card_database,
            }
        )
        changes.update(files)
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            require_organizer(actor, await get_guild_config(connection, guild_id))
            if tournament.state is Phase.FINISHED:
                raise IllegalTransition("tournament.finished", name=tournament.name)
            if tournament.state is not Phase.REGISTRATION and (
                set(changes)
                & {"restricted_list", "titles_file", "card_database", "mix_two_minimum"}
            ):
                # R-DECK-4: lists are locked from the start, so their rules are too.
                raise IllegalTransition("tournament.deck_rules_locked", rule="R-DECK-4")
            if not changes:
                raise InvalidInput("tournament.no_settings_given")
            await update_tournament(connection, tournament.id, **changes)
            now = self.clock()
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="tournament.settings",
                at=now,
                payload={
                    name: (f"<{len(str(value))} characters>" if name in files else value)
                    for name, value in changes.items()
                },
            )
            updated = await get_tournament(connection, guild_id, tournament.id)
            assert updated is not None
        return updated

    def _parse_start(self, text: str) -> datetime | None:
        """`2026-12-01 13:00` (Japan time unless a zone is given), or empty to clear."""
        if not text.strip():
            return None
        try:
            moment = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
        except ValueError:
            raise InvalidInput("tournament.bad_start_time", value=text) from None
        return moment if moment.tzinfo else moment.replace(tzinfo=JST)
