"""The README's quick start stays true: CI runs its test command verbatim."""

from __future__ import annotations

import re

from tests.conftest import REPO_ROOT


def quick_start_commands() -> list[str]:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_quick_start_is_exactly_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    run, test = commands
    assert "python -m bot" in run
    assert "python -m pytest" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[1] in ci.splitlines()


def test_every_setting_is_documented() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    example = (REPO_ROOT / ".env.example").read_text(encoding="utf-8")
    from bot.config import Settings

    for name in Settings.model_fields:
        assert f"`{name.upper()}`" in readme, name
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "LOG_LEVEL", "DEV_GUILD_ID", "DEFAULT_LOCALE"):
        assert f"{name}=" in example, name
