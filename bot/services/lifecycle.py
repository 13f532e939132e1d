"""Starting a tournament: close registration, lock decks (R-DECK-4), record the seed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.actors import Actor, require_guild, require_organizer
from bot.services.base import Service
from bot.services.decks import deck_rules
from bot.services.tournaments import resolve_tournament
from bot.store.actions import append_action
from bot.store.guilds import get_guild_config
from bot.store.tournaments import (
    PlayerRecord,
    TournamentRecord,
    get_tournament,
    list_decks,
    list_players,
    lock_decks,
    set_player_status,
    update_tournament,
)
from domain.decks import check_deck, parse_decklist
from domain.engine.rounds import default_rounds
from domain.errors import IllegalTransition
from domain.event import EventFormat, Phase

MINIMUM_PLAYERS = 2


@dataclass(frozen=True)
class StartReport:
    tournament: TournamentRecord
    players: list[PlayerRecord]  # everyone in the event as it starts
    without_deck: list[PlayerRecord]  # no legal list at the start
    dropped: list[PlayerRecord]  # removed at the start (no deck per setting, or no check-in)
    not_checked_in: list[PlayerRecord]


class LifecycleService(Service):
    async def start(self, actor: Actor, reference: str | None) -> StartReport:
        guild_id = require_guild(actor)
        async with self.database.write() as connection:
            tournament = await resolve_tournament(connection, guild_id, reference)
            require_organizer(actor, await get_guild_config(connection, guild_id))
            if tournament.state is not Phase.REGISTRATION:
                raise IllegalTransition("tournament.already_started", name=tournament.name)
            registered = await list_players(connection, tournament.id, statuses=("registered",))
            not_checked_in = []
            if tournament.checkin_minutes > 0 and tournament.starts_at is not None:
                not_checked_in = [p for p in registered if p.checked_in_at is None]
            without_deck = []
            if tournament.decklist_required:
                # Re-check every stored list: the organizer may have changed the rules since.
                rules = deck_rules(tournament)
                decks = {d.user_id: d for d in await list_decks(connection, tournament.id)}
                without_deck = [
                    p
                    for p in registered
                    if p.user_id not in decks
                    or not check_deck(
                        parse_decklist(decks[p.user_id].canonical, filename="deck.csv"), rules
                    ).legal
                ]
            dropped = list(not_checked_in)
            if tournament.missing_deck_policy == "drop":
                dropped += [p for p in without_deck if p not in dropped]
            playing = [p for p in registered if p not in dropped]
            if len(playing) < MINIMUM_PLAYERS:
                raise IllegalTransition(
                    "tournament.not_enough_players", count=len(playing), minimum=MINIMUM_PLAYERS
                )
            rounds = tournament.rounds
            if rounds is None and tournament.format is not EventFormat.ELIMINATION:
                rounds = default_rounds(len(playing))
            seed = self.seeds()
            now = self.clock()
            for player in dropped:
                await set_player_status(
                    connection, tournament.id, player.user_id, "dropped", dropped_round=0
                )
            await lock_decks(connection, tournament.id, now)
            await update_tournament(
                connection,
                tournament.id,
                state=Phase.RUNNING,
                seed=seed,
                started_at=now,
                rounds=rounds,
            )
            await append_action(
                connection,
                guild_id=guild_id,
                tournament_id=tournament.id,
                actor_id=actor.user_id,
                kind="tournament.start",
                at=now,
                payload={
                    "seed": seed,
                    "rounds": rounds,
                    "players": [p.user_id for p in playing],
                    "dropped_without_deck": [p.user_id for p in dropped if p in without_deck],
                    "dropped_not_checked_in": [p.user_id for p in not_checked_in],
                    "without_deck": [p.user_id for p in without_deck],
                },
            )
            started = await get_tournament(connection, guild_id, tournament.id)
            assert started is not None
        return StartReport(started, playing, without_deck, dropped, not_checked_in)
