"""Buttons, selects and forms routed by their custom ids, and the one error path every
interaction's failure goes through.

A button's press goes to its handler after any restart (a `DynamicItem` per custom-id
format, nothing kept in memory per message); whatever the handler raises, and whatever a
slash command raises (bot/app.py's command tree), becomes one private reply in the
member's language through `answer_error`.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.errors import StorageError
from bot.i18n import t
from bot.ui.buttons import CustomId
from bot.ui.messages import NotAcknowledged, interaction_lang, render_error, reply_ephemeral
from domain.errors import DomainError, IllegalTransition

log = logging.getLogger(__name__)


# Discord's codes for an interaction that can no longer be answered: already
# acknowledged (40060), unknown or expired (10062).
INTERACTION_GONE = frozenset({40060, 10062})


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one place where a failure becomes a private reply in the user's language.

    Typed errors say what is wrong and which rule; a failure of the storage (busy, disk
    full, I/O) asks to try again and logs one line naming the cause; anything unexpected is
    logged with a reference id, and the user gets that id instead of a traceback.
    """
    lang = interaction_lang(interaction)
    if isinstance(error, app_commands.CommandInvokeError) and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, NotAcknowledged):
        # Discord refused the acknowledgement (its 5xx, its 3 s past): the person saw the
        # interaction fail, and nothing of it was written; an answer would be refused too.
        what = _described(interaction)
        log.warning("%s not acknowledged, so nothing was written: %s", what, error.error)
        return
    if isinstance(error, discord.HTTPException) and error.code in INTERACTION_GONE:
        # The same interaction delivered twice (its first delivery answered it), or one
        # that expired: there is nobody left to tell, and nothing was done twice.
        log.warning("interaction %s could not be answered: %s", interaction.id, error.text)
        return
    if isinstance(error, DomainError):
        text = render_error(error, lang)
    elif isinstance(error, StorageError):
        # Rolled back whole, so trying again is safe: one line for the staff, no traceback.
        # A damaged file will not heal by waiting, hence ERROR (docs/OPERATIONS.md).
        level = logging.WARNING if error.transient else logging.ERROR
        what = _described(interaction)
        log.log(level, "%s not saved, nothing written: %s (%s)", what, error.cause, error.detail)
        text = t("errors.storage", lang)
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = t("errors.guild_only", lang)
    elif isinstance(error, app_commands.CommandOnCooldown):  # a CheckFailure: ask it first
        text = t("errors.cooldown", lang, seconds=error.retry_after)
    elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = t("errors.missing_permissions", lang)
    else:
        reference = secrets.token_hex(4)
        what = _described(interaction)
        log.error("unexpected error in %s (reference %s)", what, reference, exc_info=error)
        text = t("errors.unexpected", lang, reference=reference)
    try:
        await reply_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not send the error reply for interaction %s", interaction.id)


@runtime_checkable
class KeepsNotices(Protocol):
    """A client that keeps what a player could not get by DM (closed DMs) for their next
    use of the bot: the bot, after each press it routes."""

    async def show_kept_notices(self, interaction: discord.Interaction[Any], /) -> None: ...


ButtonHandler = Callable[..., Awaitable[None]]
RoutedItem = type[discord.ui.DynamicItem[Any]]


def route(custom: CustomId, handler: ButtonHandler) -> RoutedItem:
    """Presses of the buttons whose custom id has `custom`'s format go to
    `handler(interaction, **the id's fields)`, through the one error path, after any
    restart (a `DynamicItem`: nothing is kept in memory per message)."""
    return _routed(custom, handler, select=False)


def route_select(custom: CustomId, handler: ButtonHandler) -> RoutedItem:
    """As `route`, for a string select: a choice goes to `handler(interaction, the values
    chosen, **the id's fields)`. The values are the options the bot wrote on the message,
    which may be out of date: the handler checks what they name."""
    return _routed(custom, handler, select=True)


def chosen_values(interaction: discord.Interaction[Any]) -> list[str]:
    data: Any = interaction.data or {}
    return [str(value) for value in data.get("values") or []]


def _routed(custom: CustomId, handler: ButtonHandler, *, select: bool) -> RoutedItem:
    class Routed(discord.ui.DynamicItem[discord.ui.Item[Any]], template=custom.template):
        def __init__(self, custom_id: str) -> None:
            item: discord.ui.Item[Any] = (
                discord.ui.Select(custom_id=custom_id)
                if select
                else discord.ui.Button(custom_id=custom_id)
            )
            super().__init__(item)
            # None: the id has the format but names nothing that can exist (out of range).
            self.fields = custom.parse(custom_id)

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> Routed:
            return cls(match.group(0))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            try:
                if self.fields is None:
                    raise IllegalTransition("errors.stale_button")
                if select:
                    await handler(interaction, chosen_values(interaction), **self.fields)
                else:
                    await handler(interaction, **self.fields)
            except Exception as error:
                await answer_error(interaction, error)
            client = interaction.client
            if isinstance(client, KeepsNotices):
                await client.show_kept_notices(interaction)

    Routed.__name__ = Routed.__qualname__ = f"Routed_{custom.prefix.replace(':', '_')}"
    return Routed


def _described(interaction: discord.Interaction[Any]) -> str:
    """What the member did, for the log: `/report result`, or the button's or form's id."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Any = interaction.data or {}
    return f"{interaction.type.name} {data.get('custom_id', '?')}"
