"""Paginated embeds whose buttons survive a restart.

A page button carries everything needed to redraw in its custom id
(`pg:<kind>:<arg>:<page>:<p|n>`), and a `DynamicItem` matches it, so no view state lives
in memory: after a restart, the buttons on old messages still work. Each kind of listing
registers a renderer on the bot (`bot.page_renderers[kind]`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

EMBED_DESCRIPTION_LIMIT = 4096


@dataclass(frozen=True)
class Page:
    embed: discord.Embed
    index: int
    count: int


PageRenderer = Callable[[discord.Interaction[Any], str, int], Awaitable[Page]]


def chunk_lines(
    lines: Sequence[str], per_page: int, limit: int = EMBED_DESCRIPTION_LIMIT
) -> list[list[str]]:
    """Split lines into pages of at most `per_page` lines and `limit` characters each."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if pages[-1] and (len(pages[-1]) >= per_page or size + len(line) + 1 > limit):
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    return pages


def page_of(lines: Sequence[str], per_page: int, page: int) -> tuple[list[str], int, int]:
    """The lines of page `page` (clamped into range), its index and the page count."""
    pages = chunk_lines(lines, per_page)
    index = min(max(page, 0), len(pages) - 1)
    return pages[index], index, len(pages)


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pg:(?P<kind>[a-z_]+):(?P<arg>[^:]*):(?P<page>\d+):(?P<dir>[pn])",
):
    def __init__(self, kind: str, arg: str, page: int, direction: str, disabled: bool = False):
        super().__init__(
            discord.ui.Button(
                label="◀" if direction == "p" else "▶",
                style=discord.ButtonStyle.secondary,
                custom_id=f"pg:{kind}:{arg}:{page}:{direction}",
                disabled=disabled,
            )
        )
        self.kind, self.arg, self.page = kind, arg, page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> PageButton:
        return cls(match["kind"], match["arg"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        renderer: PageRenderer | None = interaction.client.page_renderers.get(self.kind)
        if renderer is None:
            await interaction.response.defer()
            return
        page = await renderer(interaction, self.arg, self.page)
        await interaction.response.edit_message(
            embed=page.embed, view=page_view(self.kind, self.arg, page)
        )


def page_view(kind: str, arg: str, page: Page) -> discord.ui.View | None:
    """Previous/next buttons, or no view at all for a single page."""
    if page.count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(kind, arg, max(page.index - 1, 0), "p", disabled=page.index == 0))
    last = page.count - 1
    view.add_item(PageButton(kind, arg, min(page.index + 1, last), "n", page.index >= last))
    return view
