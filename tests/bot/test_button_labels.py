"""Buttons in the server's language: on a Japanese server a button reads 「結果報告」,
not 「結果報告 / Report result」. Both languages only on a server that asked for it in /setup
(bilingual_buttons); a reply to one person follows that person's language."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest

from bot.i18n import LANGUAGES, Lang, catalog
from bot.ui import buttons
from bot.ui.buttons import Labels, server_labels
from domain.guild import GuildConfig
from domain.series import Series
from domain.tournament.rounds import Claim
from tests.conftest import REPO_ROOT

LATIN = re.compile(r"[A-Za-z]")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def label_keys_in_buttons_module() -> set[str]:
    """Every catalog key bot/ui/buttons.py passes to `labels(...)`, read from its source. An
    key that is not a literal (an f-string, a parameter) is listed in `KEYS_OF` with the keys
    it stands for."""
    tree = ast.parse((REPO_ROOT / "bot" / "ui" / "buttons.py").read_text(encoding="utf-8"))
    keys: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "labels"):
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant):
            keys.add(str(first.value))
        else:
            keys |= KEYS_OF[ast.unparse(first)]
    return keys


KEYS_OF = {
    "f'ui.report.{claim.value}'": {f"ui.report.{claim.value}" for claim in Claim},
    "confirm_key": {"ui.penalty.confirm_button", "ui.undo.confirm_button"},  # the callers'
}


def label_keys() -> set[str]:
    """The button labels: what buttons.py labels with, every `*_button` of the catalogs, and
    the staff panel's steps and tools (bot/ui/panel.py, in the server's language)."""
    return label_keys_in_buttons_module() | {
        k
        for k in catalog("ja")
        if k.endswith("_button") or k.startswith(("ui.panel.step.", "ui.panel.tool."))
    }


def test_the_scan_finds_the_labels() -> None:
    keys = label_keys_in_buttons_module()
    assert {"ui.rounds.report_button", "ui.report.confirm_button", "ui.cancel_button"} <= keys
    assert {"ui.report.win", "ui.report.time"} <= keys  # through the f-string
    assert {"ui.panel.step.pair", "ui.panel.step.export", "ui.panel.tool.series"} <= label_keys()
    assert {"ui.series.new_button", "ui.series.points_of"} <= keys


def test_a_japanese_label_has_no_latin_letters() -> None:
    ja = catalog("ja")
    latin = {key: ja[key] for key in label_keys() if LATIN.search(PLACEHOLDER.sub("", ja[key]))}
    assert latin == {}, "a Japanese button label must read in Japanese only: " + repr(latin)


def test_an_english_label_has_no_japanese() -> None:
    en = catalog("en")
    assert {key: en[key] for key in label_keys() if JAPANESE.search(en[key])} == {}


def every_view(labels: Labels) -> list[discord.ui.View]:
    """One of each view the bot shows, labelled with `labels`."""
    built: list[discord.ui.View] = [
        buttons.registration_view(1, labels, checkin=True),
        buttons.start_view(1, labels),
        buttons.report_view(1, 2, labels),
        buttons.claim_view(1, 2, labels),
        buttons.confirm_view(1, 2, 3, labels),
        buttons.drop_view(1, labels),
        buttons.pending_view(1, "ui.penalty.confirm_button", labels),
        buttons.pending_view(1, "ui.undo.confirm_button", labels),
        buttons.claim_call_view(1, 2, labels),
        buttons.resolve_call_view(1, 2, 5, labels, at_a_table=True),
        # Players' own names go into these labels as they are: neither script here.
        buttons.decide_view(1, 2, 3, ((101, "★"), (102, "☆")), labels),
        # A series' name goes into its ポイント表 label as it is: neither script here.
        buttons.series_menu_view(1, [Series(7, 1, "★", event_ids=(1,))], [], labels),
    ]
    return built


def shown_labels(view: discord.ui.View) -> list[str]:
    return [str(item.label) for item in view.children if isinstance(item, discord.ui.Button)]


def test_every_button_of_a_japanese_post_reads_in_japanese_only() -> None:
    for view in every_view(Labels("ja")):
        for label in shown_labels(view):
            assert not LATIN.search(label), label
            assert " / " not in label


def test_every_button_of_an_english_post_reads_in_english_only() -> None:
    for view in every_view(Labels("en")):
        for label in shown_labels(view):
            assert not JAPANESE.search(label), label


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [("ja", "結果報告", "Report result"), ("en", "Report result", "結果報告")],
)
def test_a_mixed_server_reads_its_language_first_then_the_other(
    lang: Lang, first: str, second: str
) -> None:
    report, call, drop = shown_labels(buttons.report_view(1, 2, Labels(lang, bilingual=True)))
    assert report == f"{first} / {second}"
    assert call.count(" / ") == drop.count(" / ") == 1


def test_a_bilingual_label_fits_discords_80_characters() -> None:
    for lang in LANGUAGES:
        for view in every_view(Labels(lang, bilingual=True)):
            assert all(len(label) <= 80 for label in shown_labels(view))


def test_a_label_the_same_in_both_languages_is_not_written_twice() -> None:
    # Parameters only (a number): nothing to translate, nothing to repeat.
    same: Callable[..., Any] = Labels("ja", bilingual=True)
    assert " / " in same("ui.judge.resolve_extend", minutes=5)
    assert same("ui.report.win") == "勝ち / Win"


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (GuildConfig(1), Labels("ja")),  # before /setup: the bot's default language
        (GuildConfig(1, locale="en"), Labels("en")),
        (GuildConfig(1, locale="ja", bilingual_buttons=True), Labels("ja", bilingual=True)),
    ],
)
def test_the_servers_labels_come_from_its_setup(config: GuildConfig, expected: Labels) -> None:
    assert server_labels(config, "ja") == expected
