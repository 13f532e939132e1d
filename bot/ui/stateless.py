"""Modals that survive a restart.

discord.py delivers a modal's submission only to the Modal object that is still in memory,
so a form opened before a restart would be lost. These modals carry what they act on in
their custom id (`rt:12:3` …) and are routed by a pattern instead: the bot's
`on_interaction` listener finds the handler and gives it the submitted values.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

ModalHandler = Callable[
    [discord.Interaction[Any], "re.Match[str]", dict[str, str]], Awaitable[None]
]


class ModalRoutes:
    def __init__(self) -> None:
        self._routes: list[tuple[re.Pattern[str], ModalHandler]] = []

    def add(self, pattern: str, handler: ModalHandler) -> None:
        self._routes.append((re.compile(pattern), handler))

    def find(self, custom_id: str) -> tuple[re.Match[str], ModalHandler] | None:
        for pattern, handler in self._routes:
            match = pattern.fullmatch(custom_id)
            if match:
                return match, handler
        return None


def submitted_values(interaction: discord.Interaction[Any]) -> dict[str, str]:
    """The text inputs of a modal submission, by custom id."""
    values: dict[str, str] = {}
    data: Any = interaction.data or {}
    pending = list(data.get("components", []))
    while pending:
        component = pending.pop()
        if "components" in component:
            pending.extend(component["components"])
        elif "component" in component:  # a label wrapping its input
            pending.append(component["component"])
        elif "custom_id" in component and "value" in component:
            values[component["custom_id"]] = component["value"]
    return values


async def send_stateless_modal(
    interaction: discord.Interaction[Any], modal: discord.ui.Modal
) -> None:
    """Open `modal` without keeping it in memory: its submission goes to the routes."""
    await interaction.response.send_modal(modal)
    modal.stop()
