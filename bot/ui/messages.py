"""Turning typed errors into what a user reads, in their language."""

from __future__ import annotations

import discord

from bot.i18n import Lang, normalise_locale, t
from domain.errors import DomainError


def interaction_lang(interaction: discord.Interaction) -> Lang:
    """The language to answer the person who invoked the interaction in."""
    return normalise_locale(interaction.locale)


def render_error(error: DomainError, lang: Lang) -> str:
    text = t(error.key, lang, **error.params)
    if error.rule:
        text += "\n" + t("errors.rule_suffix", lang, rule=error.rule)
    return text


async def reply_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    allowed = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, allowed_mentions=allowed)
    else:
        await interaction.response.send_message(content, ephemeral=True, allowed_mentions=allowed)
