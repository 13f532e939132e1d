"""Paginated embeds whose buttons survive a restart.

A page button carries everything needed to redraw in its custom id
(`pg:<kind>:<arg>:<page>:<p|n>`), and the bot routes it (bot/app.py), so no view state lives
in memory: after a restart, the buttons on old messages still work. The cog that owns a kind
of listing names its renderer (`Paged.pages`), and the bot finds it there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import discord

from bot.i18n import Lang, normalise_locale
from bot.ui.buttons import PAGE, button, carried_number, stateless_view
from domain.errors import IllegalTransition

EMBED_DESCRIPTION_LIMIT = 4096


@dataclass(frozen=True)
class Page:
    embed: discord.Embed
    index: int
    count: int
    # Routed buttons shown under every page (a series' ポイント表), after ◀ ▶.
    extra: tuple[discord.ui.Item[Any], ...] = ()


PageRenderer = Callable[[discord.Interaction[Any], str, int], Awaitable[Page]]


@runtime_checkable
class Paged(Protocol):
    """A cog with listings that page: the renderer of each listing kind its ◀ ▶ buttons
    carry (the bot finds a kind's renderer among its cogs; nothing is registered)."""

    def pages(self) -> Mapping[str, PageRenderer]: ...


def page_renderer(cogs: Iterable[object], kind: str) -> PageRenderer | None:
    """The renderer of listing `kind` among `cogs`, or None (a kind this version lacks)."""
    for cog in cogs:
        if isinstance(cog, Paged) and kind in (pages := cog.pages()):
            return pages[kind]
    return None


def page_id_arg(arg: str) -> tuple[int, Lang]:
    """The id (a tournament's, a series', a member's) and the language a listing's page
    button carries (`12.ja`); an argument that names nothing is out of date."""
    text, _, lang_code = arg.partition(".")
    number = carried_number(text)
    if number is None:
        raise IllegalTransition("errors.stale_button")
    return number, normalise_locale(lang_code)


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


def page_view(kind: str, arg: str, page: Page) -> discord.ui.View | None:
    """Previous/next buttons (none for a single page) and the page's own, or no view at all
    when that leaves nothing."""
    if page.count <= 1:
        return stateless_view(*page.extra) if page.extra else None
    last = page.count - 1
    before = max(page.index - 1, 0)
    after = min(page.index + 1, last)
    return stateless_view(
        button(PAGE(kind=kind, arg=arg, page=before, direction="p"), "◀", disabled=page.index == 0),
        button(
            PAGE(kind=kind, arg=arg, page=after, direction="n"), "▶", disabled=page.index >= last
        ),
        *page.extra,
    )


def lines_page(title: str, lines: Sequence[str], page: int, per_page: int = 15) -> Page:
    """One page of a list of lines under `title`, with "page/pages" below."""
    chunk, index, count = page_of(lines, per_page, page)
    embed = discord.Embed(title=title, description="\n".join(chunk))
    embed.set_footer(text=f"{index + 1}/{count}")
    return Page(embed, index, count)
