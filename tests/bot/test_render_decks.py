"""How decks and their violations are shown, escaped, each rule once."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

from bot.i18n import deck_rule_label as rule_label
from bot.ui.render import deck_embed, violation_line
from bot.ui.text import code_block, violation_text
from domain.decks import Regulation, Violation, parse_decklist
from tests.domain.decks.helpers import check, deck, spread

if TYPE_CHECKING:
    from bot.services.decks import DeckView

KEION = "けいおん！"


def _view(text: str) -> DeckView:
    return cast(
        "DeckView",
        SimpleNamespace(
            decklist=parse_decklist(text),
            owner_name="唯",
            tournament=SimpleNamespace(name="春の大会"),
            record=SimpleNamespace(
                fingerprint="0123456789ab",
                total=60,
                submitted_at=datetime(2026, 5, 3, 10, 0, tzinfo=UTC),
                locked_at=None,
            ),
        ),
    )


def test_each_violation_shows_its_rule_once_in_words() -> None:
    # The rule once: 「• **R-DECK-1** [R-DECK-1] デッキが59枚です…」 showed the rule twice.
    (violation,) = check(deck({KEION: spread(59)})).violations
    line = violation_line(violation, "ja")
    assert line.count("R-DECK-1") == 1
    assert line.startswith("• デッキが59枚です。")
    assert line.endswith("（規定 R-DECK-1: デッキ枚数）")
    english = violation_line(violation, "en")
    assert english.count("R-DECK-1") == 1
    assert english.endswith(" (rule R-DECK-1: deck size)")


def test_every_rule_a_check_reports_has_a_name() -> None:
    for rule in ("R-DECK-1", "R-DECK-2", "R-DECK-3", "R-DECK-6", "R-REG-2", "R-REG-5", "R-REG-7"):
        for lang in ("ja", "en"):
            label = rule_label(rule, lang)
            assert rule in label
            assert label.rstrip(")").split(": ")[1]


def test_user_text_in_a_violation_cannot_break_the_markdown() -> None:
    # User text escaped: text holding ``` or ** or @everyone is shown literally.
    title = "ゆる**ゆり** @everyone"
    result = check(deck({KEION: spread(56), title: [(4, "01-001")]}), Regulation.MIX)
    (violation,) = [v for v in result.violations if v.rule == "R-REG-7"]
    # A label of the organizer's restricted list may hold backticks.
    violation = Violation(
        violation.rule, violation.key, {**violation.params, "title": f"```{title}"}
    )
    line = violation_line(violation, "ja")
    assert "```" not in line
    assert "**ゆり**" not in line
    assert "@everyone" not in line
    # The plain text (CLI, attached report) stays as written.
    assert "```ゆる**ゆり**" in violation_text(violation, "ja")


def test_a_card_name_cannot_close_the_deck_code_block() -> None:
    # User text escaped: ``` in a card name ended deck_embed's code block early.
    view = _view(f"# {KEION}\n4 01-001 唯```\n4 01-002 **太字** @everyone\n")
    embed, file = deck_embed(view, "ja")
    assert file is None
    description = embed.description or ""
    assert description.startswith("```\n")
    assert description.endswith("\n```")
    assert description.count("```") == 2
    assert "唯`\u200b`\u200b`\u200b" in description


def test_code_block_keeps_plain_text_unchanged() -> None:
    assert code_block("4 01-001 唯") == "```\n4 01-001 唯\n```"


def test_the_ex_deck_is_shown_apart() -> None:
    # The EX deck after the main deck, under its own header.
    view = _view(f"# {KEION}\n4 01-001\n# EX\n2 02-001\n")
    embed, _ = deck_embed(view, "ja")
    main, ex = (embed.description or "").split("# EX")
    assert "01-001" in main
    assert "02-001" in ex
    assert "02-001" not in main
