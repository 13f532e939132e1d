"""Submitting, checking, showing and publishing decklists.

The rules come from `domain.decks` and the tournament model; this module finds the event,
reads the upload, and returns what the cog shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.actors import Actor
from bot.services.base import Service, TournamentRef
from domain.decks import DeckCheck, Decklist, check_deck, parse_decklist, read_stored_decklist
from domain.errors import NotFound
from domain.tournament.model import StoredDeck, Tournament
from domain.tournament.operations import PublishDecks, SubmitDeck
from domain.tournament.permissions import require_deck_visible
from domain.tournament.registration import check_submission_allowed


def read_and_check(
    tournament: Tournament, data: bytes | str, filename: str | None
) -> tuple[Decklist, DeckCheck]:
    rules = tournament.deck_rules()
    decklist = parse_decklist(data, filename=filename, titles=rules.titles)
    return decklist, check_deck(decklist, rules)


def stored_decklist(deck: StoredDeck) -> Decklist:
    # Stored lists are read without input limits: what was accepted always reads back.
    return read_stored_decklist(deck.canonical)


@dataclass(frozen=True)
class DeckSubmission:
    tournament: Tournament
    decklist: Decklist
    check: DeckCheck
    fingerprint: str
    stored: bool


@dataclass(frozen=True)
class DeckView:
    tournament: Tournament
    owner_id: int
    owner_name: str
    decklist: Decklist
    record: StoredDeck


class DeckService(Service):
    async def submit(
        self, actor: Actor, reference: TournamentRef, data: bytes | str, filename: str | None
    ) -> DeckSubmission:
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            check_submission_allowed(tournament, actor.user_id)
            decklist, check = read_and_check(tournament, data, filename)
            if not check.legal:
                return DeckSubmission(tournament, decklist, check, check.fingerprint, stored=False)
            # The checked list has its titles resolved, so an alias and its title
            # (映画けいおん！ / けいおん！) store the same list with the same fingerprint.
            operation = SubmitDeck(actor.user_id, check.decklist.canonical_csv())
            tournament, _ = await tx.apply(tournament, operation)
        return DeckSubmission(tournament, decklist, check, check.fingerprint, stored=True)

    async def may_submit(self, actor: Actor, reference: TournamentRef) -> Tournament:
        """Refuse before asking for a list that could not be stored (e.g. after the lock)."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference)
        check_submission_allowed(tournament, actor.user_id)
        return tournament

    async def check(
        self, actor: Actor, reference: TournamentRef, data: bytes | str, filename: str | None
    ) -> DeckSubmission:
        """Validate against the event's rules without storing anything."""
        async with self.reader(actor.guild_id) as tx:
            tournament = await tx.tournament(reference)
        decklist, check = read_and_check(tournament, data, filename)
        return DeckSubmission(tournament, decklist, check, check.fingerprint, stored=False)

    async def show(self, actor: Actor, reference: TournamentRef, owner_id: int | None) -> DeckView:
        """Your own list; anyone's for judges and organizers, or for all once published."""
        owner = owner_id or actor.user_id
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference, finished_too=True)
            require_deck_visible(tournament, tx.actor, owner)
        deck = tournament.decks.get(owner)
        entry = tournament.players.get(owner)
        if deck is None or entry is None:
            raise NotFound("submission.no_deck", tournament=tournament.name)
        return DeckView(tournament, owner, entry.display_name, stored_decklist(deck), deck)

    async def may_publish(self, actor: Actor, reference: TournamentRef) -> tuple[Tournament, int]:
        """Before the panel's 公開 asks to confirm: an organizer, and lists the rules would
        publish now (after the start, not yet public); the event and how many lists."""
        async with self.reader_as(actor) as tx:
            tx.authorize(PublishDecks)
            tournament = await tx.tournament(reference)
            await tx.outcome(tournament, PublishDecks())  # the rules' answer, nothing written
        return tournament, len(tournament.decks)

    async def publish(self, actor: Actor, reference: TournamentRef) -> tuple[Tournament, int]:
        """Make every list of the event public. Only after the event has started."""
        async with self.uow(actor) as tx:
            tournament = await tx.tournament(reference)
            tournament, _ = await tx.apply(tournament, PublishDecks())
        return tournament, len(tournament.decks)

    async def published_lists(self, actor: Actor, reference: TournamentRef) -> list[DeckView]:
        """Every list, for whoever may see them all: everyone once published, else judges."""
        async with self.reader_as(actor) as tx:
            tournament = await tx.tournament(reference)
            for owner in tournament.decks:
                require_deck_visible(tournament, tx.actor, owner)
        return [
            DeckView(
                tournament,
                deck.user_id,
                tournament.players[deck.user_id].display_name,
                stored_decklist(deck),
                deck,
            )
            for deck in sorted(tournament.decks.values(), key=lambda deck: deck.user_id)
        ]
