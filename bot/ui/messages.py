"""Turning typed errors into what a user reads, in their language."""

from __future__ import annotations

import discord

from bot.i18n import Lang, describe_error, normalise_locale
from domain.errors import DomainError

MESSAGE_LIMIT = 2000


def interaction_lang(interaction: discord.Interaction) -> Lang:
    """The language to answer the person who invoked the interaction in."""
    return normalise_locale(interaction.locale)


def render_error(error: DomainError, lang: Lang) -> str:
    return fit_message(describe_error(error, lang))


def fit_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Discord refuses messages over 2000 characters: cut at a line, and say so."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit - 2)
    return text[: cut if cut > 0 else limit - 2] + "\n…"


async def reply_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    allowed = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=allowed)
