"""Every extension loads, every command is unique and localised, every message exists twice."""

from __future__ import annotations

import importlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord import app_commands

from bot.app import EXTENSIONS, TournamentBot
from bot.config import Settings
from bot.i18n import LANGUAGES, catalog, placeholders
from bot.store.database import open_database
from bot.ui.translator import translation_key

JA_ONLY_PREFIXES = ("commands.", "choices.")


@pytest.fixture
async def loaded_bot(clean_env: Path) -> AsyncIterator[TournamentBot]:
    database = await open_database(clean_env / "bot.sqlite3")
    bot = TournamentBot(Settings(), database)
    try:
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        yield bot
    finally:
        await bot.close()
        await database.close()


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_extension_imports_and_has_setup(extension: str) -> None:
    module = importlib.import_module(extension)
    assert callable(module.setup)


async def test_every_extension_setup_runs(loaded_bot: TournamentBot) -> None:
    assert set(loaded_bot.extensions) == set(EXTENSIONS)
    assert loaded_bot.tree.get_commands(), "no slash command was registered"


async def test_no_two_slash_commands_share_a_name(loaded_bot: TournamentBot) -> None:
    names = [command.qualified_name for command in loaded_bot.tree.walk_commands()]
    assert len(names) == len(set(names))
    top_level = [command.name for command in loaded_bot.tree.get_commands()]
    assert len(top_level) == len(set(top_level))
    assert len(top_level) <= 100  # Discord's limit of top-level slash commands


async def test_every_command_and_option_has_a_japanese_name_and_description(
    loaded_bot: TournamentBot,
) -> None:
    ja = catalog("ja")
    missing = []
    for command in loaded_bot.tree.walk_commands():
        key = "commands." + command.qualified_name.replace(" ", ".")
        missing += [k for k in (f"{key}.name", f"{key}.description") if k not in ja]
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                base = f"{key}.params.{parameter.name}"
                missing += [k for k in (f"{base}.name", f"{base}.description") if k not in ja]
                for choice in parameter.choices:
                    if f"choices.{choice.value}" not in ja:
                        missing.append(f"choices.{choice.value}")
    assert missing == []


def test_every_message_exists_in_both_languages_with_the_same_placeholders() -> None:
    shared = [
        {k: v for k, v in catalog(lang).items() if not k.startswith(JA_ONLY_PREFIXES)}
        for lang in LANGUAGES
    ]
    ja, en = shared
    assert set(ja) - set(en) == set(), "keys missing in English"
    assert set(en) - set(ja) == set(), "keys missing in Japanese"
    for key in ja:
        assert placeholders(ja[key]) == placeholders(en[key]), key


def test_translation_keys_follow_the_command_path() -> None:
    group = app_commands.Group(name="tournament", description="x")

    @group.command(name="create", description="y")
    async def create(interaction: object, name: str) -> None: ...

    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, create
    )
    assert translation_key(app_commands.locale_str("create"), context) == (
        "commands.tournament.create.name"
    )
    parameter = create.parameters[0]
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.parameter_description, parameter
    )
    assert translation_key(app_commands.locale_str("n"), context) == (
        "commands.tournament.create.params.name.description"
    )


def test_japanese_command_names_follow_discords_rules() -> None:
    # Discord refuses the whole sync if one localised name breaks these rules.
    for key, text in catalog("ja").items():
        if not key.startswith("commands."):
            continue
        if key.endswith(".name"):
            assert re.fullmatch(r"[-_'\w]{1,32}", text), key
            assert text == text.lower(), key
        elif key.endswith(".description"):
            assert 1 <= len(text) <= 100, key
    for key, text in catalog("ja").items():
        if key.startswith("choices."):
            assert 1 <= len(text) <= 100, key
