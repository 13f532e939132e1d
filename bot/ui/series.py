"""Series and player records, shown: series standings (paginated like /standings), a player's
profile, the entry import's report and the replies of the series commands. Presentation only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, describe_error, join_list, show_date, t
from bot.ui.buttons import MAX_OPTIONS, Labels, points_button, series_menu_view
from bot.ui.judges import infraction_name, penalty_type
from bot.ui.pagination import Page, chunk_lines
from bot.ui.render import safe
from bot.ui.standings import (
    EMBED_TITLE_LIMIT,
    NAME_COLUMNS,
    clean_name,
    display_width,
    pad,
    truncate,
    unpinged,
)
from bot.ui.text import code_block
from domain.entry_import import RowProblem
from domain.errors import InvalidInput
from domain.series.model import Series
from domain.series.points import PointsTable
from domain.series.standings import TIEBREAKS

if TYPE_CHECKING:
    from bot.services.profiles import ProfileView
    from bot.services.registration import ImportReport
    from bot.services.series import SeriesOverview, SeriesView
    from domain.series.records import Tally

SERIES_PER_PAGE = 20
EVENTS_PER_PAGE = 10
EMBED_DESCRIPTION_LIMIT = 4096

# -- series standings -------------------------------------------------------------------------


def series_rows(view: SeriesView, lang: Lang) -> list[list[str]]:
    """Each standing as its cells: rank, name, points, events played, best placing (and the
    rating when the server shows it in the series)."""
    rows = []
    for standing in view.standings:
        best = str(standing.best_finish) if standing.best_finish is not None else "-"
        cells = [
            str(standing.rank),
            standing.name,
            str(standing.points),
            str(standing.events_played),
            best,
        ]
        if view.ratings is not None:
            rating = view.ratings.get(standing.player_id)
            cells.append(f"{rating.ordinal:.1f}" if rating is not None else "-")
        rows.append(cells)
    return rows


def _series_header(view: SeriesView, lang: Lang) -> list[str]:
    columns = ["rank", "name", "points", "events", "best"]
    if view.ratings is not None:
        columns.append("rating")
    return [t(f"ui.series.col.{column}", lang) for column in columns]


def series_lines(view: SeriesView, lang: Lang) -> tuple[str, list[str]]:
    """The header and one line per player, columns lined up by display width (Japanese
    names take two columns a character), as /standings does."""
    header = _series_header(view, lang)
    rows = series_rows(view, lang)
    widths = [display_width(cell) for cell in header]
    for cells in rows:
        for index, cell in enumerate(cells):
            shown = clean_name(cell) if index == 1 else cell
            widths[index] = max(widths[index], display_width(shown))
    widths[1] = min(widths[1], max(NAME_COLUMNS, display_width(header[1])))

    def line(cells: Sequence[str]) -> str:
        out = []
        for index, cell in enumerate(cells):
            if index == 1:
                out.append(pad(unpinged(truncate(clean_name(cell), widths[1])), widths[1]))
            else:
                out.append(pad(cell, widths[index], right=True))
        return " ".join(out).rstrip()

    return line(header), [line(cells) for cells in rows]


def tiebreak_order(lang: Lang) -> str:
    """The declared tiebreaks, in order (domain.series.standings.TIEBREAKS)."""
    names = [t(f"series.tiebreak.{tiebreak.value}", lang) for tiebreak in TIEBREAKS[1:]]
    return t("ui.series.tiebreaks", lang, order=" → ".join(names))


def series_page(view: SeriesView, lang: Lang, page: int) -> Page:
    """One page of a series' standings, with its events and its tiebreaks."""
    title = t("ui.series.title", lang, series=safe(view.series.name), events=len(view.counted))
    embed = discord.Embed(title=truncate(title, EMBED_TITLE_LIMIT - 1))
    legend = tiebreak_order(lang)
    points = (points_button(view.series.id, Labels(lang)),)
    if not view.standings:
        embed.description = t("ui.series.empty", lang) + "\n" + legend
        return Page(embed, 0, 1, points)
    header, lines = series_lines(view, lang)
    budget = EMBED_DESCRIPTION_LIMIT - len(code_block(header)) - len(legend) - 8
    pages = chunk_lines(lines, SERIES_PER_PAGE, budget)
    index = min(max(page, 0), len(pages) - 1)
    embed.description = f"{code_block(chr(10).join([header, *pages[index]]))}\n{legend}"
    events = "\n".join(
        t("ui.series.event_line", lang, date=show_date(event.event_date), name=safe(event.name))
        for event in view.counted[-10:]
    )
    if events:
        embed.add_field(name=t("ui.series.events", lang), value=events[:1024], inline=False)
    embed.set_footer(
        text=t("ui.series.footer", lang, page=index + 1, pages=len(pages), players=len(lines))
    )
    return Page(embed, index, len(pages), points)


def points_table_text(table: PointsTable) -> str:
    """The table as organizers type it (`parse_points_table` reads it back)."""
    return table.to_text()


def series_menu(overview: SeriesOverview, lang: Lang) -> tuple[discord.Embed, discord.ui.View]:
    """The panel's シリーズ, to the organizer: the server's series, newest first, those the
    tournament is in marked, with the selects and buttons that change them."""
    joined, others = overview.joined, overview.others

    def line(key: str, series: Series) -> str:
        return t(key, lang, series=safe(series.name), count=len(series.event_ids))

    lines = [line("ui.series.menu_in", series) for series in joined]
    lines += [line("ui.series.menu_out", series) for series in others[:MAX_OPTIONS]]
    if len(others) > MAX_OPTIONS:
        lines.append(t("ui.series.menu_more", lang, count=len(others) - MAX_OPTIONS))
    embed = discord.Embed(
        title=truncate(
            t("ui.series.menu_title", lang, tournament=safe(overview.tournament.name)),
            EMBED_TITLE_LIMIT - 1,
        ),
        description="\n".join(lines) if lines else t("ui.series.menu_none", lang),
    )
    view = series_menu_view(overview.tournament.id, joined, others, Labels(lang))
    return embed, view


# -- profiles ---------------------------------------------------------------------------------


def _tally(tally: Tally, lang: Lang) -> str:
    text = t(
        "ui.profile.record_value", lang, wins=tally.wins, losses=tally.losses, draws=tally.draws
    )
    if tally.byes:
        text += t("ui.profile.byes", lang, byes=tally.byes)
    return text


def profile_lines(view: ProfileView, lang: Lang) -> list[str]:
    """One line per event played, newest first."""
    lines = []
    for event in reversed(view.record.events):
        placing = event.placing
        place = t("ui.profile.place", lang, place=placing.finish, players=event.players)
        if placing.disqualified:
            place += t("ui.profile.disqualified", lang)
        elif placing.dropped:
            place += t("ui.profile.dropped", lang)
        record = _tally(event.swiss + event.top_cut, lang)
        lines.append(
            t(
                "ui.profile.event_line",
                lang,
                date=show_date(event.event_date),
                name=safe(event.name),
                place=place,
                record=record,
            )
        )
    return lines


def profile_page(view: ProfileView, lang: Lang, page: int) -> Page:
    """/profile show: the player's totals, titles, rating and (for staff) penalties, and a
    page of their events."""
    record = view.record
    embed = discord.Embed(title=t("ui.profile.title", lang, name=safe(view.name)))

    def field(key: str, value: str, inline: bool = True) -> None:
        embed.add_field(name=t(f"ui.profile.{key}", lang), value=value[:1024], inline=inline)

    handle = view.profile.handle
    field("handle", safe(handle) if handle else t("ui.profile.no_handle", lang))
    field("events", t("ui.profile.count_value", lang, count=record.events_played))
    if record.events:
        field("wins", t("ui.profile.count_value", lang, count=record.event_wins))
        best = record.best_finish
        field("best", t("ui.profile.best_value", lang, place=best) if best else "-")
        field("swiss", _tally(record.swiss, lang))
        if record.top_cut.matches or record.top_cut.byes:
            field("top_cut", _tally(record.top_cut, lang))
    if record.titles:
        titles = [
            t("ui.profile.title_count", lang, title=safe(n), count=c) for n, c in record.titles
        ]
        field("titles", join_list(titles[:10], lang), False)
    if view.rating is not None:
        rating = view.rating
        field(
            "rating",
            t(
                "ui.profile.rating_value",
                lang,
                rating=f"{rating.rating.ordinal:.1f}",
                rank=rating.rank,
                rated=rating.rated,
                matches=rating.rating.matches,
            ),
        )
    if view.penalties is not None:
        shown = [
            t(
                "ui.profile.penalty_line",
                lang,
                date=show_date(found.event_date),
                tournament=safe(found.tournament_name),
                type=penalty_type(found.penalty.type, lang),
                infraction=infraction_name(found.penalty, lang),
            )
            + (t("ui.profile.revoked", lang) if found.penalty.revoked else "")
            for found in view.penalties
        ]
        field("penalties", "\n".join(shown[-10:]) or t("ui.profile.no_penalties", lang), False)
    lines = profile_lines(view, lang)
    if not lines:
        embed.description = t("ui.profile.no_events", lang)
        return Page(embed, 0, 1)
    pages = chunk_lines(lines, EVENTS_PER_PAGE, 3000)
    index = min(max(page, 0), len(pages) - 1)
    embed.description = "\n".join(pages[index])
    embed.set_footer(text=t("ui.profile.footer", lang, page=index + 1, pages=len(pages)))
    return Page(embed, index, len(pages))


# -- the entry import's report ----------------------------------------------------------------


def problem_line(problem: RowProblem, lang: Lang) -> str:
    """「3 行目: 「xyz」という名前のメンバーが見つかりません。…」"""
    params: dict[str, Any] = dict(problem.params)
    reason = describe_error(InvalidInput(problem.key, **params), lang, escape=safe)
    return t("entry_import.line", lang, line=problem.line, reason=reason)


def import_report_text(report: ImportReport, lang: Lang) -> str:
    """What the organizer is told: every refused row with its reason (nothing registered),
    or who was registered; the rows skipped (already entered) either way."""
    plan = report.plan
    name = safe(report.tournament.name)
    if not plan.accepted:
        lines = [t("ui.import.refused", lang, tournament=name, count=len(plan.refused))]
        lines += [problem_line(problem, lang) for problem in plan.refused]
    else:
        lines = [t("ui.import.done", lang, tournament=name, count=len(report.registered))]
    if plan.skipped:
        lines.append(t("ui.import.skipped", lang, count=len(plan.skipped)))
        lines += [problem_line(problem, lang) for problem in plan.skipped]
    return "\n".join(lines)
