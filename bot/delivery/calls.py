"""Calls to Discord, and which of their failures are worth trying again."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import aiohttp
import discord

T = TypeVar("T")


class Transient(Exception):
    """Discord or the network failed in a way that may work later: try again."""


async def call(awaitable: Awaitable[T]) -> T:
    """Discord's own failures and the network's are worth trying again later."""
    try:
        return await awaitable
    except discord.DiscordServerError as error:
        raise Transient(f"Discord {error.status}") from error
    except (aiohttp.ClientError, TimeoutError, ConnectionError) as error:
        raise Transient(type(error).__name__) from error
