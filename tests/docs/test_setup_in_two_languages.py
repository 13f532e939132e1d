"""The README's setup is one text in two languages: 「Setup, step by step」 and 「セットアップ手順」
have the same steps in the same order, each with the same commands, files, settings,
addresses, and the same Discord permissions, scopes and intents; the
permissions are the ones the invite address grants. Nothing in them is a placeholder to fill
in, and both say how to update to a new version keeping `.env` and the database, and to make
the channels and roles before `/setup server`."""

from __future__ import annotations

import re

import pytest

from bot.i18n import t
from tests.conftest import REPO_ROOT
from tests.docs.test_operator_guide import anchors

README = REPO_ROOT / "README.md"
ENGLISH, JAPANESE = "## Setup, step by step", "## セットアップ手順"
# Discord's permission bits (discord-api-docs, "Permissions"), by the names the portal shows.
PERMISSION_BITS = {
    "View Channels": 10,
    "Send Messages": 11,
    "Embed Links": 14,
    "Attach Files": 15,
    "Read Message History": 16,
    "Create Public Threads": 35,
    "Send Messages in Threads": 38,
    "Create Events": 44,
}


def section(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("\n" + heading + "\n", 1)[1].split("\n## ", 1)[0]


def steps(heading: str) -> list[tuple[int, str]]:
    """The numbered steps (`### N. …`) of a setup, each with its text."""
    found = re.split(r"^### (\d+)\. .*$", section(heading), flags=re.M)
    return [(int(number), body) for number, body in zip(found[1::2], found[2::2], strict=True)]


def code_blocks(body: str) -> list[str]:
    """Each fenced block's lines, with what the reader writes after `KEY=` left out (the
    token and the ID the reader pastes, described in the reader's language)."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", body, flags=re.S)
    return [re.sub(r"(?m)^(\s*[A-Z_]+)=.*$", r"\1=", block).strip() for block in blocks]


def inline_code(body: str) -> set[str]:
    without_blocks = re.sub(r"```.*?```", "", body, flags=re.S)
    return set(re.findall(r"`([^`\n]+)`", without_blocks))


def addresses(body: str) -> set[str]:
    return set(re.findall(r"https?://[^\s>)`]+", body))


def permissions(body: str) -> list[str]:
    (listed,) = re.findall(r"BOT PERMISSIONS[^*]*\*([^*]+)\*", body)
    return [name.strip() for name in listed.split(",")]


def test_the_two_setups_have_the_same_steps() -> None:
    english, japanese = steps(ENGLISH), steps(JAPANESE)
    assert [n for n, _ in english] == [n for n, _ in japanese] == list(range(1, len(english) + 1))
    assert len(english) >= 13


@pytest.mark.parametrize("number", range(1, 14))
def test_each_step_says_the_same_in_both_languages(number: int) -> None:
    english = dict(steps(ENGLISH))[number]
    japanese = dict(steps(JAPANESE))[number]
    assert code_blocks(english) == code_blocks(japanese)
    if number == 9:  # the Japanese table of every setting; the English one is "Settings"
        assert "](#settings)" in english
        assert "| `DISCORD_TOKEN` |" in japanese
        return
    assert addresses(english) == addresses(japanese)
    assert inline_code(english) == inline_code(japanese)


def test_the_same_permissions_scopes_and_intents_and_the_invite_grants_them() -> None:
    english, japanese = dict(steps(ENGLISH)), dict(steps(JAPANESE))
    listed = permissions(english[3])
    assert listed == permissions(japanese[3])
    assert set(listed) == set(PERMISSION_BITS)
    (granted,) = re.findall(r"permissions=(\d+)", english[3])
    assert int(granted) == sum(1 << bit for bit in PERMISSION_BITS.values())
    for text in (english[3], japanese[3]):
        assert "`bot`" in text
        assert "`applications.commands`" in text
        assert "Create Events" in text
    # The import needs Server Members Intent (the guide says so); the others stay off.
    for text in (english[2], japanese[2]):
        for intent in ("Server Members Intent", "Presence Intent", "Message Content Intent"):
            assert f"**{intent}**" in text


def test_nothing_is_a_placeholder_and_the_links_lead_somewhere() -> None:
    known = anchors(README)
    for heading in (ENGLISH, JAPANESE):
        text = section(heading)
        assert "所有者名" not in text
        assert "リポジトリ名" not in text
        assert "OWNER" not in text
        for anchor in re.findall(r"\]\(#([^)]+)\)", text):
            assert anchor in known, (heading, anchor)
        for target, anchor in re.findall(r"\]\((docs/[^)#]+)(?:#([^)]+))?\)", text):
            assert (REPO_ROOT / target).is_file(), target
            if anchor:
                assert anchor in anchors(REPO_ROOT / target), (target, anchor)


def test_both_say_how_to_update_and_to_make_the_channels_and_roles_first() -> None:
    english, japanese = dict(steps(ENGLISH)), dict(steps(JAPANESE))
    for text in (english[13], japanese[13]):
        assert "`.env`" in text
        assert "`data`" in text
        assert "git pull" in text
        assert "backup" in text
    for text in (english[4], japanese[4]):
        assert "/setup server" in text
        assert "運営" in text
        assert "ジャッジ" in text


def test_starting_and_stopping_quote_what_the_bot_prints_in_each_language() -> None:
    # Both quoted `bot ready: logged in as ...`, the operators' log line in English, which a
    # Japanese terminal now reads as 「起動しました（…としてログインしています）」.
    english, japanese = dict(steps(ENGLISH))[11], dict(steps(JAPANESE))[11]
    guide = (REPO_ROOT / "docs" / "ja" / "運営ガイド.md").read_text(encoding="utf-8")
    for lang, text in (("en", english), ("ja", japanese), ("ja", guide)):
        ready = t("cli.run.ready", lang, user="…", command="/help")
        assert ready.split("…")[0] + "…" in text, lang
        assert "bot ready" not in text
    for lang, text in (("en", english), ("ja", japanese)):
        assert t("cli.run.stopped", lang) in text
