"""Modals that survive a restart.

discord.py delivers a modal's submission only to the Modal object that is still in memory,
so a form opened before a restart would be lost. These modals carry what they act on in
their custom id (`rt:12:3` …, formats in bot/ui/buttons.py) and are routed by it instead: the
bot's `on_interaction` listener finds the handler and gives it the submitted values.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.ui.buttons import CustomId

# handler(interaction, submitted values, **the custom id's fields)
ModalHandler = Callable[..., Awaitable[None]]


class ModalRoutes:
    def __init__(self) -> None:
        self._routes: list[tuple[CustomId, ModalHandler]] = []

    def add(self, custom: CustomId, handler: ModalHandler) -> None:
        self._routes.append((custom, handler))

    def find(self, custom_id: str) -> tuple[dict[str, Any] | None, ModalHandler] | None:
        """The handler of the form `custom_id` names, with the id's fields (None: the id has
        the format but names nothing that can exist), or None for a form not routed here."""
        for custom, handler in self._routes:
            if custom.matches(custom_id):
                return custom.parse(custom_id), handler
        return None


def submitted_values(interaction: discord.Interaction[Any]) -> dict[str, str]:
    """The text inputs of a modal submission, by custom id, and the choice of each select
    (the bot's selects choose one value; none chosen reads as "")."""
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
        elif "custom_id" in component and "values" in component:
            values[component["custom_id"]] = ",".join(component["values"])
    return values


def submitted_files(
    interaction: discord.Interaction[Any], custom_id: str
) -> list[discord.Attachment]:
    """The files uploaded in a form's file field (`custom_id`): the field's values are
    attachment ids, which Discord resolves in `data.resolved.attachments`. discord.py fills
    a `FileUpload` only on a modal it keeps in memory, so a routed form reads them here, as
    discord.py itself makes them (with the connection that downloads them)."""
    data: Any = interaction.data or {}
    chosen = [key for key in submitted_values(interaction).get(custom_id, "").split(",") if key]
    resolved = (data.get("resolved") or {}).get("attachments") or {}
    state = interaction._state
    return [
        discord.Attachment(data=resolved[key], state=state) for key in chosen if key in resolved
    ]


async def send_stateless_modal(
    interaction: discord.Interaction[Any], modal: discord.ui.Modal
) -> None:
    """Open `modal` without keeping it in memory: its submission goes to the routes."""
    await interaction.response.send_modal(modal)
    modal.stop()
