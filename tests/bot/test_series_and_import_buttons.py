"""The organizer's steps by button (the panel's シリーズ and 参加者の取り込み, the series menu,
ポイント表 under the standings, the new-series and import forms): each item carries, in its
custom id or its options, the ids it acts on and nothing else, so that it is routed after any
restart; and it reads in the reader's language, in both.

The presses themselves, through the fake Discord: tests/e2e/test_series_buttons_story.py.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.i18n import LANGUAGES, Lang, t
from bot.services.series import SeriesOverview, SeriesView
from bot.ui.buttons import (
    IMPORT_FILE_FIELD,
    IMPORT_FORM,
    MAX_OPTIONS,
    PAGE,
    PANEL_STEP,
    PANEL_TOOL,
    POINTS_BUTTON,
    ROUND_EXTEND_FORM,
    SERIES_ADD,
    SERIES_FORM,
    SERIES_NAME_FIELD,
    SERIES_NEW,
    SERIES_REMOVE,
    Labels,
    Tool,
    import_form,
    round_extend_form,
    series_form,
    series_menu_view,
)
from bot.ui.pagination import page_view
from bot.ui.panel import panel
from bot.ui.series import series_menu, series_page
from bot.ui.stateless import submitted_files, submitted_values
from domain.engine.results import MatchResult
from domain.series import DEFAULT_POINTS, Series, SeriesStanding
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    CancelTournament,
    ExtendRound,
    PublishDecks,
    Register,
    SetLivePage,
    SetResult,
    StartRound,
    StartTournament,
)
from domain.tournament.play import MAX_EXTENSION_MINUTES, propose_round
from tests.bot.test_button_labels import JAPANESE, LATIN
from tests.domain.tournament.support import (
    JUDGE,
    T0,
    Clock,
    new_tournament,
    player,
    submit,
)

CUP_ID = 1  # new_tournament's id


def series(series_id: int, name: str, *events: int) -> Series:
    return Series(series_id, 1000, name, DEFAULT_POINTS, events)


# Newest first, as the service lists them: the cup is in the second and the fourth.
SERVER_SERIES = (
    series(40, "春リーグ"),
    series(30, "冬リーグ", 7, CUP_ID),
    series(20, "Old League", 5),
    series(10, "月例会", CUP_ID),
)


def overview(all_series: tuple[Series, ...] = SERVER_SERIES) -> SeriesOverview:
    return SeriesOverview(new_tournament(), all_series)


def selects(view: discord.ui.View) -> dict[str, discord.ui.Select[Any]]:
    return {item.custom_id: item for item in view.children if isinstance(item, discord.ui.Select)}


def buttons(view: discord.ui.View) -> dict[str, discord.ui.Button[Any]]:
    return {
        str(item.custom_id): item for item in view.children if isinstance(item, discord.ui.Button)
    }


# -- custom ids: what each carries, parsed back -----------------------------------------------


def test_the_menus_selects_carry_the_tournament_and_offer_series_by_id() -> None:
    view = series_menu_view(CUP_ID, overview().joined, overview().others, Labels("ja"))
    found = selects(view)
    add, remove = found[SERIES_ADD(tournament=CUP_ID)], found[SERIES_REMOVE(tournament=CUP_ID)]
    assert SERIES_ADD.parse(add.custom_id) == {"tournament": CUP_ID}
    assert SERIES_REMOVE.parse(remove.custom_id) == {"tournament": CUP_ID}
    # Those it could join, newest first; those it is in: their ids, never their names.
    assert [o.value for o in add.options] == ["40", "20"]
    assert [o.label for o in add.options] == ["春リーグ", "Old League"]
    assert [o.value for o in remove.options] == ["30", "10"]
    assert (add.min_values, add.max_values) == (1, 1)


def test_the_menus_buttons_carry_the_tournament_or_the_series() -> None:
    view = series_menu_view(CUP_ID, overview().joined, overview().others, Labels("ja"))
    shown = buttons(view)
    assert SERIES_NEW.parse(next(iter(shown))) == {"tournament": CUP_ID}
    points = [POINTS_BUTTON.parse(custom) for custom in shown if POINTS_BUTTON.matches(custom)]
    assert points == [{"series": 30}, {"series": 10}]  # one per series the cup is in
    assert [b.label for b in shown.values()] == [
        "新しいシリーズ…",
        "ポイント表（冬リーグ）",
        "ポイント表（月例会）",
    ]


def test_a_menu_offers_only_what_can_be_done() -> None:
    none = series_menu_view(CUP_ID, (), (), Labels("en"))
    assert selects(none) == {}
    assert [b.label for b in buttons(none).values()] == ["New series…"]
    joined_all = overview((series(9, "A", CUP_ID),))
    view = series_menu_view(CUP_ID, joined_all.joined, joined_all.others, Labels("en"))
    assert list(selects(view)) == [SERIES_REMOVE(tournament=CUP_ID)]


def test_a_menu_of_many_series_offers_the_newest_25_and_says_how_many_more() -> None:
    many = tuple(series(100 - n, f"S{n}") for n in range(MAX_OPTIONS + 3))
    embed, view = series_menu(overview(many), "ja")
    (add,) = selects(view).values()
    assert len(add.options) == MAX_OPTIONS
    assert add.options[0].value == "100"  # the newest
    assert "ほかに古いシリーズが 3 件あります" in str(embed.description)
    assert len(view.to_components()) <= 5  # Discord's most rows


def test_the_panels_tools_carry_the_tournament_and_follow_its_phase() -> None:
    clock = Clock(new_tournament())

    def tools(tournament: Tournament) -> list[dict[str, Any] | None]:
        _, view = panel(tournament, T0, "ja")
        ids = [str(item.custom_id) for item in view.children]  # type: ignore[attr-defined]
        assert all(PANEL_STEP.matches(i) or PANEL_TOOL.matches(i) for i in ids)
        return [PANEL_TOOL.parse(i) for i in ids if PANEL_TOOL.matches(i)]

    # Before the start: the restricted list (the deck rules are not locked yet, R-DECK-4),
    # the entries, then the series; the match rooms' switch until the event is over.
    rooms = {"tool": "rooms", "tournament": CUP_ID}
    assert tools(clock.tournament) == [
        {"tool": "restricted", "tournament": CUP_ID},
        {"tool": "import", "tournament": CUP_ID},
        {"tool": "series", "tournament": CUP_ID},
        rooms,
    ]
    for number in (1, 2):
        clock.apply(Register(player(number).user_id, f"P{number}"), player(number))
        clock.apply(submit(player(number).user_id), player(number))
    running = clock.apply(StartTournament(seed=1))
    # After it: 公開 until the lists are public, and the series.
    assert tools(running) == [
        {"tool": "publish", "tournament": CUP_ID},
        {"tool": "series", "tournament": CUP_ID},
        rooms,
    ]
    published = clock.apply(PublishDecks())
    assert tools(published) == [{"tool": "series", "tournament": CUP_ID}, rooms]
    assert tools(Clock(new_tournament()).apply(CancelTournament())) == []


def panel_tools(tournament: Tournament) -> list[str]:
    _, view = panel(tournament, T0, "ja")
    ids = [str(item.custom_id) for item in view.children]  # type: ignore[attr-defined]
    return [PANEL_TOOL.parse(i)["tool"] for i in ids if PANEL_TOOL.matches(i)]  # type: ignore[index]


def test_the_round_extension_shows_while_the_clock_runs_and_a_table_plays_r_match_7() -> None:
    """全体延長: not before the round's clock starts, not once every table has its result;
    with the page made and the lists still private, the row is full: five tools at most
    (the restricted list and the import show only before the start)."""
    clock = Clock(new_tournament())
    for number in (1, 2, 3, 4):
        clock.apply(Register(player(number).user_id, f"P{number}"), player(number))
        clock.apply(submit(player(number).user_id), player(number))
    clock.apply(StartTournament(seed=1))
    clock.apply(SetLivePage(public=True, slug="abcdefghijklmnopqrstuvwxyz"))
    clock.apply(propose_round(clock.tournament, 2).operation())
    assert "extend_round" not in panel_tools(clock.tournament)
    clock.apply(StartRound(1))
    assert panel_tools(clock.tournament) == [
        "publish",
        "extend_round",
        "series",
        "rooms",
        "new_page",
    ]
    _, view = panel(clock.tournament, T0, "ja")
    (tools_row,) = [
        row for row in view.to_components() if PANEL_TOOL.matches(row["components"][0]["custom_id"])
    ]
    assert len(tools_row["components"]) == 5  # Discord's most in a row
    labels = [c["label"] for c in tools_row["components"]]
    assert "全体延長" in labels
    clock.apply(ExtendRound(1, 5), JUDGE)  # extended: still shown while tables play
    assert "extend_round" in panel_tools(clock.tournament)
    for match in clock.tournament.rounds[0].matches:
        clock.apply(SetResult(1, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    assert "extend_round" not in panel_tools(clock.tournament)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_round_extension_form_asks_for_the_minutes_in_the_readers_language(
    lang: Lang,
) -> None:
    form = round_extend_form(CUP_ID, "準決勝" if lang == "ja" else "Semifinals", lang)
    assert ROUND_EXTEND_FORM.parse(form.custom_id) == {"tournament": CUP_ID}
    assert form.title == ("準決勝の全体延長" if lang == "ja" else "Extend Semifinals")
    (label,) = form.to_components()
    assert label["type"] == 18  # a label around its input
    assert label["component"]["custom_id"] == "minutes"
    assert str(MAX_EXTENSION_MINUTES) in label["label"]
    assert max(len(label["label"]), len(form.title)) <= 45  # Discord's limits


def test_the_panels_tools_sit_on_their_own_row_below_the_steps() -> None:
    _, view = panel(new_tournament(), T0, "ja")
    rows = view.to_components()
    assert [c["custom_id"] for c in rows[-1]["components"]] == [
        PANEL_TOOL(tool=Tool.RESTRICTED.value, tournament=CUP_ID),
        PANEL_TOOL(tool=Tool.IMPORT.value, tournament=CUP_ID),
        PANEL_TOOL(tool=Tool.SERIES.value, tournament=CUP_ID),
        PANEL_TOOL(tool=Tool.ROOMS.value, tournament=CUP_ID),
    ]
    assert all(PANEL_STEP.matches(c["custom_id"]) for row in rows[:-1] for c in row["components"])


def test_the_forms_carry_the_tournament_and_name_their_fields() -> None:
    form = series_form(CUP_ID, "パネル杯", "ja")
    assert SERIES_FORM.parse(form.custom_id) == {"tournament": CUP_ID}
    (label,) = form.to_components()
    assert label["type"] == 18
    assert label["component"]["custom_id"] == SERIES_NAME_FIELD
    assert "「パネル杯」を加えます" in label["description"]

    upload = import_form(CUP_ID, "en")
    assert IMPORT_FORM.parse(upload.custom_id) == {"tournament": CUP_ID}
    (label,) = upload.to_components()
    # Discord takes a file upload only inside a label, in a modal.
    assert label["type"] == 18
    assert label["component"] == {
        "type": 19,
        "custom_id": IMPORT_FILE_FIELD,
        "min_values": 1,
        "max_values": 1,
        "required": True,
    }


def standings(count: int) -> SeriesView:
    rows = tuple(
        SeriesStanding(n, n, f"P{n}", 100 - n, 1, 1, 0, (T0.date(), 1, n), ())
        for n in range(1, count + 1)
    )
    return SeriesView(series(30, "冬リーグ", CUP_ID), (), rows, None)


@pytest.mark.parametrize("players", [0, 5, 45])
def test_the_series_standings_carry_their_points_table_button_on_every_page(
    players: int,
) -> None:
    view = standings(players)
    for index in range(3):
        page = series_page(view, "ja", index)
        shown = page_view("series", "30.ja", page)
        assert shown is not None
        ids = [str(item.custom_id) for item in shown.children]  # type: ignore[attr-defined]
        assert POINTS_BUTTON(series=30) in ids
        assert all(PAGE.matches(i) for i in ids if i != POINTS_BUTTON(series=30))
        assert len(ids) == (1 if page.count == 1 else 3)


# -- labels in both languages ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_new_label_reads_in_the_readers_language(lang: Lang) -> None:
    embed, view = series_menu(overview(), lang)
    labels = [str(b.label) for b in buttons(view).values()]
    for select in selects(view).values():
        labels.append(str(select.placeholder))
        labels += [str(option.description) for option in select.options]
    _, panel_view = panel(new_tournament(), T0, lang)
    labels += [str(item.label) for item in panel_view.children]  # type: ignore[attr-defined]
    # The forms' words (a Japanese one may name a CSV or a Discord ID).
    words = [str(embed.title)]
    for form in (series_form(CUP_ID, "Cup", lang), import_form(CUP_ID, lang)):
        (label,) = form.to_components()
        words += [form.title, label["label"], label["description"]]
    names = sorted({s.name for s in SERVER_SERIES} | {"Cup"}, key=len, reverse=True)

    def unnamed(text: str) -> str:
        for name in names:
            text = text.replace(name, "")
        return text

    if lang == "ja":
        assert [text for text in labels if LATIN.search(unnamed(text))] == []
    else:
        assert [text for text in labels + words if JAPANESE.search(unnamed(text))] == []
    expected = {
        "ja": ["シリーズ", "参加者の取り込み", "シリーズに加える…", "ポイント表（冬リーグ）"],
        "en": ["Series", "Import entries", "Add to a series…", "Points table (冬リーグ)"],
    }[lang]
    assert all(label in labels for label in expected), labels
    titles = {"ja": ["新しいシリーズ", "参加者の取り込み"], "en": ["New series", "Import entries"]}
    assert all(title in words for title in titles[lang]), words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_forms_fit_discords_limits(lang: Lang) -> None:
    long_name = "長" * 100
    for form in (series_form(CUP_ID, long_name, lang), import_form(CUP_ID, lang)):
        assert len(form.title) <= 45
        (label,) = form.to_components()
        assert len(label["label"]) <= 45
        assert len(label["description"]) <= 100


def test_the_menu_marks_the_series_the_tournament_is_in() -> None:
    embed, _ = series_menu(overview(), "ja")
    assert embed.title == "シリーズ（✅ は「Cup」が入っているもの）"
    assert str(embed.description).splitlines() == [
        "✅ 冬リーグ（2 大会）",
        "✅ 月例会（1 大会）",
        "▫️ 春リーグ（0 大会）",
        "▫️ Old League（1 大会）",
    ]
    empty, _ = series_menu(overview(()), "en")
    assert empty.description == t("ui.series.menu_none", "en")


# -- a form's uploaded file, as Discord sends it -----------------------------------------------


def test_a_forms_file_is_read_from_the_resolved_attachments() -> None:
    attachment = {
        "id": "555",
        "filename": "entries.csv",
        "size": 12,
        "url": "https://cdn.example/555/entries.csv",
        "proxy_url": "https://cdn.example/555/entries.csv",
        "content_type": "text/csv",
    }
    data = {
        "custom_id": IMPORT_FORM(tournament=CUP_ID),
        "components": [
            {
                "type": 18,
                "id": 1,
                "component": {
                    "type": 19,
                    "id": 2,
                    "custom_id": IMPORT_FILE_FIELD,
                    "values": ["555"],
                },
            }
        ],
        "resolved": {"attachments": {"555": attachment, "777": dict(attachment, id="777")}},
    }
    interaction: Any = SimpleNamespace(data=data, _state=SimpleNamespace(http=None))
    (found,) = submitted_files(interaction, IMPORT_FILE_FIELD)
    assert (found.id, found.filename, found.size) == (555, "entries.csv", 12)
    assert submitted_files(interaction, "other") == []
    assert submitted_values(interaction) == {IMPORT_FILE_FIELD: "555"}
