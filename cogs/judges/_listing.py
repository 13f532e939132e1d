"""The staff's paginated listings (/penalty list, /log): one way to show the first page and
to turn pages, whatever the lines are. A page button carries the tournament, an optional
player (0: everyone) and the reader's language, as `12.0.ja`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Lang, normalise_locale
from bot.services.base import TournamentRef
from bot.ui.buttons import carried_number
from bot.ui.messages import interaction_lang, reply
from bot.ui.pagination import Page, PageRenderer, lines_page, page_view
from domain.errors import IllegalTransition
from domain.tournament.model import Tournament


@dataclass(frozen=True)
class Listing:
    tournament_id: int
    player_id: int | None
    lang: Lang

    def encode(self) -> str:
        return f"{self.tournament_id}.{self.player_id or 0}.{self.lang}"

    @classmethod
    def parse(cls, arg: str) -> Listing:
        """The listing a page button names; one that names nothing is out of date."""
        parts = arg.split(".")
        if len(parts) != 3:
            raise IllegalTransition("errors.stale_button")
        tournament, player = (carried_number(part) for part in parts[:2])
        if tournament is None or player is None:
            raise IllegalTransition("errors.stale_button")
        return cls(tournament, player or None, normalise_locale(parts[2]))


# (interaction, tournament reference, player or None, lang) → the tournament, title, lines
Lines = Callable[
    [discord.Interaction[Any], TournamentRef, int | None, Lang],
    Awaitable[tuple[Tournament, str, list[str]]],
]


async def show_first_page(
    interaction: discord.Interaction[Any],
    kind: str,
    lines_of: Lines,
    reference: TournamentRef,
    player: discord.Member | None,
) -> None:
    lang = interaction_lang(interaction)
    player_id = player.id if player else None
    tournament, title, lines = await lines_of(interaction, reference, player_id, lang)
    arg = Listing(tournament.id, player_id, lang).encode()
    page = lines_page(title, lines, 0)
    await reply(interaction, embed=page.embed, view=page_view(kind, arg, page))


def page_turner(lines_of: Lines) -> PageRenderer:
    async def render(interaction: discord.Interaction[Any], arg: str, page: int) -> Page:
        listing = Listing.parse(arg)
        reference = listing.tournament_id
        _, title, lines = await lines_of(interaction, reference, listing.player_id, listing.lang)
        return lines_page(title, lines, page)

    return render
