"""Submitting, checking, showing and publishing decklists.

The rules come from `domain.decks`; this module only finds the event's rule set, stores
legal lists and decides who may see them (their owner, judges and organizers, and everyone
once the organizer publishes them).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.actors import Actor, is_judge, require_guild, require_organizer
from bot.services.base import Service
from bot.services.tournaments import resolve_tournament
from bot.store.actions import append_action
from bot.store.guilds import get_guild_config
from bot.store.tournaments import (
    DeckRecord,
    TournamentRecord,
    get_deck,
    get_player,
    list_decks,
    list_players,
    save_deck,
    update_tournament,
)
from domain.decks import (
    DeckCheck,
    Decklist,
    DeckRules,
    check_deck,
    default_titles,
    load_card_database,
    load_restricted_list,
    load_titles,
    parse_decklist,
    parse_regulation,
)
from domain.decks.decoding import decode
from domain.errors import IllegalTransition, InvalidInput, NotFound, PermissionDenied
from domain.event import Phase


def read_uploaded_files(files: dict[str, tuple[str, bytes] | None]) -> dict[str, str]:
    """The text of each uploaded settings file, refused before anything is stored when it is
    not text or is malformed (the loaders name the entry and the field)."""
    loaders = {
        "restricted_list": load_restricted_list,
        "titles_file": load_titles,
        "card_database": load_card_database,
    }
    texts: dict[str, str] = {}
    for setting, upload in files.items():
        if upload is None:
            continue
        filename, data = upload
        text = decode(data)
        if text is None:
            raise InvalidInput("files.not_text", name=filename)
        loaders[setting](text, source=filename)
        texts[setting] = text
    return texts


def deck_rules(tournament: TournamentRecord) -> DeckRules:
    """The rule set a deck of this event is checked against."""
    titles = load_titles(tournament.titles_file) if tournament.titles_file else default_titles()
    return DeckRules(
        regulation=parse_regulation(tournament.regulation),
        date=tournament.event_date,
        designated_titles=tournament.titles,
        mix_two_minimum=tournament.mix_two_minimum,
        titles=titles,
        restricted=(
            load_restricted_list(tournament.restricted_list) if tournament.restricted_list else None
        ),
        cards=load_card_database(tournament.card_database) if tournament.card_database else None,
    )


def read_and_check(
    tournament: TournamentRecord, data: bytes | str, filename: str | None
) -> tuple[Decklist, DeckCheck]:
    rules = deck_rules(tournament)
    decklist = parse_decklist(data, filename=filename, titles=rules.titles)
    return decklist, check_deck(decklist, rules)


@dataclass(frozen=True)
class DeckSubmission:
    tournament: TournamentRecord
    decklist: Decklist
    check: DeckCheck
    fingerprint: str
    stored: bool


@dataclass(frozen=True)
class DeckView:
    tournament: TournamentRecord
    owner_id: int
    owner_name: str
    decklist: Decklist
    record: DeckRecord


class DeckService(Service):
    async def submit(
        self, actor: Actor, reference: str | None, data: bytes | str, filename: str | None
    ) -> DeckSubmission:
        guild_id = require_guild(actor)
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            player = await get_player(connection, tournament.id, actor.user_id)
            if player is None or player.status not in ("registered", "waitlisted"):
                raise InvalidInput("submission.register_first", tournament=tournament.name)
            existing = await get_deck(connection, tournament.id, actor.user_id)
            late_entry = player.joined_round > 0 and existing is None
            if tournament.state is not Phase.REGISTRATION and not late_entry:
                raise IllegalTransition(
                    "submission.locked", tournament=tournament.name, rule="R-DECK-4"
                )
            decklist, check = read_and_check(tournament, data, filename)
            # The checked list has its titles resolved, so an alias and its title
            # (映画けいおん！ / けいおん！) store the same list with the same fingerprint.
            print_ = check.fingerprint
            if not check.legal:
                return DeckSubmission(tournament, decklist, check, print_, stored=False)
            now = self.clock()
            await save_deck(
                connection,
                tournament_id=tournament.id,
                user_id=actor.user_id,
                canonical=check.decklist.canonical_csv(),
                fingerprint=print_,
                total=check.total,
                at=now,
            )
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="deck.submit",
                at=now,
                payload={"user_id": actor.user_id, "fingerprint": print_, "total": check.total},
            )
        return DeckSubmission(tournament, decklist, check, print_, stored=True)

    async def check(
        self, actor: Actor, reference: str | None, data: bytes | str, filename: str | None
    ) -> DeckSubmission:
        """Validate against the event's rules without storing anything."""
        guild_id = require_guild(actor)
        async with self.database.read() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
        decklist, check = read_and_check(tournament, data, filename)
        return DeckSubmission(tournament, decklist, check, check.fingerprint, stored=False)

    async def show(self, actor: Actor, reference: str | None, owner_id: int | None) -> DeckView:
        """Your own list; anyone's for judges and organizers, or for all once published."""
        guild_id = require_guild(actor)
        owner = owner_id or actor.user_id
        async with self.database.read() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            config = await get_guild_config(connection, guild_id)
            if owner != actor.user_id and not (
                tournament.decks_published or is_judge(actor, config)
            ):
                raise PermissionDenied("submission.private")
            record = await get_deck(connection, tournament.id, owner)
            player = await get_player(connection, tournament.id, owner)
        if record is None or player is None:
            raise NotFound("submission.no_deck", tournament=tournament.name)
        decklist = parse_decklist(record.canonical, filename="deck.csv")
        return DeckView(tournament, owner, player.display_name, decklist, record)

    async def publish(self, actor: Actor, reference: str | None) -> tuple[TournamentRecord, int]:
        """Make every list of the event public. Only after the event has started."""
        guild_id = require_guild(actor)
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            require_organizer(actor, await get_guild_config(connection, guild_id))
            if tournament.state is Phase.REGISTRATION:
                raise IllegalTransition("submission.publish_too_early", name=tournament.name)
            if tournament.decks_published:
                raise IllegalTransition("submission.already_published", name=tournament.name)
            now = self.clock()
            await update_tournament(connection, tournament.id, decks_published=True)
            decks = await list_decks(connection, tournament.id)
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="deck.publish",
                at=now,
                payload={"decks": len(decks)},
            )
        return tournament, len(decks)

    async def published_lists(self, actor: Actor, reference: str | None) -> list[DeckView]:
        guild_id = require_guild(actor)
        async with self.database.read() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            names = {
                p.user_id: p.display_name for p in await list_players(connection, tournament.id)
            }
            records = await list_decks(connection, tournament.id)
        return [
            DeckView(
                tournament,
                record.user_id,
                names.get(record.user_id, str(record.user_id)),
                parse_decklist(record.canonical, filename="deck.csv"),
                record,
            )
            for record in records
        ]
