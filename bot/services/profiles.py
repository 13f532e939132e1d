"""Player records and handles: /profile show, /profile handle, /profile public.

A handle (ハンドルネーム) belongs to a player on one server (`Books` profiles). The name a
tournament shows for its player is the handle when there is one: it is given with the
registration (`Register.handle`), and a handle set or cleared later renames the player in
every event of the server not over yet (`SetHandle`, logged in each), so posts, standings
and exports from then on show it. Events already over keep the name they were played under.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.services.actors import Actor
from bot.services.base import Service
from bot.services.ratings import RatingsMemo
from bot.store.uow import Store, Transaction
from domain.handles import Profile, set_handle
from domain.series.ratings import Rating, leaderboard
from domain.series.records import PenaltyRecord, PlayerRecord, player_penalties, player_record
from domain.tournament.model import Tournament
from domain.tournament.operations import Role, SetHandle
from domain.tournament.registration import shown_entry_name

HANDLE_CHANGE = "guild.handle"
PUBLIC_CHANGE = "guild.profile_public"


async def give_handle(
    tx: Transaction, player_id: int, discord_name: str, text: str | None
) -> tuple[Profile, list[Tournament]]:
    """Set (or, with None or blank text, clear) `player_id`'s handle on this server, as the
    transaction's actor, and rename them in every event not over yet. The handle is checked
    (`domain.handles.set_handle`: one line, no mentions, nobody else's). Returns the profile
    and the events renamed."""
    current = await tx.books.profile(player_id) or Profile(player_id)
    handle = None
    if text is not None and text.strip():
        handle = set_handle(text, player_id, await tx.books.handles())
    profile = replace(current, handle=handle, updated_by=tx.actor.user_id)
    await tx.books.save_profile(profile)
    await tx.log_guild_change(HANDLE_CHANGE, {"player": player_id, "handle": handle})
    renamed = []
    for tournament in await tx.tournaments(open_only=True):
        entry = tournament.players.get(player_id)
        if entry is None or entry.display_name == shown_entry_name(discord_name, handle):
            continue
        updated, _ = await tx.apply(tournament, SetHandle(player_id, discord_name, handle))
        renamed.append(updated)
    return profile, renamed


@dataclass(frozen=True)
class HandleChange:
    profile: Profile
    renamed: list[Tournament]  # the events whose name for the player changed


@dataclass(frozen=True)
class RatingView:
    rating: Rating
    rank: int  # among the server's rated players
    rated: int  # how many players have a rating


@dataclass(frozen=True)
class ProfileView:
    """What /profile shows of one player on one server."""

    player_id: int
    name: str  # as the server's events show them now (the handle, else the last name)
    profile: Profile
    record: PlayerRecord
    rating: RatingView | None  # None: the server does not show ratings, or none yet
    penalties: tuple[PenaltyRecord, ...] | None  # None: not the reader's to see (staff only)


def profile_view(
    player_id: int,
    fallback_name: str,
    profile: Profile,
    tournaments: list[Tournament],
    *,
    ratings: Mapping[int, Rating] | None,
    staff: bool,
) -> ProfileView:
    """A player's profile from the server's tournaments (every rule is the domain's), with
    the server's `ratings` when it shows them."""
    record = player_record(player_id, tournaments)
    name = profile.handle or _last_name(player_id, tournaments) or fallback_name
    rating = None
    if ratings is not None:
        board = leaderboard(ratings)
        for rank, (player, found) in enumerate(board, start=1):
            if player == player_id:
                rating = RatingView(found, rank, len(board))
                break
    penalties = player_penalties(player_id, tournaments) if staff else None
    return ProfileView(player_id, name, profile, record, rating, penalties)


def _last_name(player_id: int, tournaments: list[Tournament]) -> str | None:
    """The name the player's newest event shows."""
    for tournament in tournaments:  # newest first
        entry = tournament.players.get(player_id)
        if entry is not None:
            return entry.display_name
    return None


class ProfileService(Service):
    def __init__(self, store: Store, ratings: RatingsMemo, **shared: Any) -> None:
        super().__init__(store, **shared)
        self.ratings = ratings  # one server's ratings, kept once for every reader of them

    async def show(self, actor: Actor, player_id: int | None, player_name: str) -> ProfileView:
        """/profile show: anyone's record (what the standings already showed); their
        penalties to judges and organizers only."""
        target = player_id if player_id is not None else actor.user_id
        async with self.reader_as(actor) as tx:
            profile = await tx.books.profile(target) or Profile(target)
            tournaments = await tx.tournaments()
            config = await tx.guild_config()
            staff = tx.actor.role >= Role.JUDGE
            ratings = None
            if config.ratings.shown:
                ratings = self.ratings.of(tx.guild_id, tournaments, tx.versions)
        return profile_view(target, player_name, profile, tournaments, ratings=ratings, staff=staff)

    async def own(self, actor: Actor, tournament_id: int | None = None) -> Profile:
        """The actor's own profile on this server (the handle form shows their handle);
        `tournament_id`, the registration the button sits under, must be of this server."""
        async with self.reader_as(actor) as tx:
            if tournament_id is not None:
                await tx.tournament(tournament_id)
            return await tx.books.profile(actor.user_id) or Profile(actor.user_id)

    async def set_handle(
        self, actor: Actor, text: str | None, tournament_id: int | None = None
    ) -> HandleChange:
        """/profile handle: the player's own handle (blank: back to their Discord name); from
        the registration's form, `tournament_id` must be of this server."""
        async with self.uow(actor) as tx:
            if tournament_id is not None:
                await tx.tournament(tournament_id)
            profile, renamed = await give_handle(tx, actor.user_id, actor.display_name, text)
        return HandleChange(profile, renamed)

    async def set_public(self, actor: Actor, public: bool) -> Profile:
        """/profile public: whether the player's record may be shown on the live pages of
        the server's events (opt-in, off until they turn it on)."""
        async with self.uow(actor) as tx:
            current = await tx.books.profile(actor.user_id) or Profile(actor.user_id)
            profile = replace(current, public=public, updated_by=actor.user_id)
            await tx.books.save_profile(profile)
            await tx.log_guild_change(PUBLIC_CHANGE, {"player": actor.user_id, "public": public})
        return profile
