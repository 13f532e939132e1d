"""Japanese names and descriptions for every command, option and choice.

English is written in the code (the decorators); Japanese comes from the `commands.` and
`choices.` keys of the `ja` catalog. discord.py calls this before `tree.sync()` and sends
the results to Discord as `name_localizations` / `description_localizations`.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import catalog, t
from bot.ui.options import OPTION_FACTS


def _command_key(command: app_commands.Command | app_commands.Group) -> str:  # type: ignore[type-arg]
    return "commands." + command.qualified_name.replace(" ", ".")


def translation_key(
    string: app_commands.locale_str, context: app_commands.TranslationContextTypes
) -> str | None:
    explicit = string.extras.get("key")
    if isinstance(explicit, str):
        return explicit
    data = context.data
    suffix = {
        Where.command_name: "name",
        Where.group_name: "name",
        Where.parameter_name: "name",
        Where.command_description: "description",
        Where.group_description: "description",
        Where.parameter_description: "description",
    }.get(context.location)
    if isinstance(data, app_commands.Command | app_commands.Group) and suffix:
        return f"{_command_key(data)}.{suffix}"
    if isinstance(data, app_commands.Parameter) and suffix:
        return f"{_command_key(data.command)}.params.{data.name}.{suffix}"
    if isinstance(data, app_commands.Choice):
        return f"choices.{data.value}"
    return None


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.japanese:
            return None
        key = translation_key(string, context)
        if key is None or key not in catalog("ja"):
            return None
        return t(key, "ja", **OPTION_FACTS)
