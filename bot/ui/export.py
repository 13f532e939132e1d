"""The files of /tournament export for spreadsheets: the standings (`standings_csv`) and
every match of every round, which organizers keep in their own records."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Lang, t
from bot.ui.judges import infraction_name, penalty_type
from bot.ui.rounds import describe_result
from bot.ui.spreadsheet import spreadsheet_csv
from bot.ui.standings import clean_name
from domain.tournament.match_rows import MatchRow
from domain.tournament.model import Tournament
from domain.tournament.penalties import Penalty

MATCH_COLUMNS = (
    "round",
    "stage",
    "table",
    "first",
    "second",
    "result",
    "winner",
    "advancing",
    "first_points",
    "second_points",
    "by_judge",
    "penalties",
)


def matches_csv(tournament: Tournament, rows: Sequence[MatchRow], lang: Lang) -> bytes:
    """One row per match, in round and table order: the players, the result in the
    regulation's words, the point-zone counts of a time-out (R-MATCH-2), whether a judge
    decided it, and the penalties of that round to either player."""
    header = [t(f"export.matches.{column}", lang) for column in MATCH_COLUMNS]
    return spreadsheet_csv(header, (_cells(tournament, row, lang) for row in rows))


def _cells(tournament: Tournament, row: MatchRow, lang: Lang) -> list[object]:
    def name(user_id: int | None) -> str:
        entry = tournament.players.get(user_id) if user_id is not None else None
        return clean_name(entry.display_name) if entry else ""

    played = tournament.round(row.round)
    match = played.match_at(row.table) if played else None
    first, second = (*row.players, None, None)[:2]
    if row.stage is not None:
        stage = t(f"ui.stage.{row.stage.kind.value}", lang, players=row.stage.players)
    else:
        stage = t("export.matches.swiss", lang)
    if match is None or not row.players:
        result = ""
    else:
        result = describe_result(tournament, match, match.result, lang)
    counts = row.point_zone or ("", "")
    return [
        row.round,
        stage,
        row.table,
        name(first),
        name(second),
        result,
        name(row.winner),
        name(row.advancing),
        counts[0],
        counts[1],
        t("export.matches.yes", lang) if row.by_judge else "",
        " / ".join(_penalty(tournament, penalty, lang) for penalty in row.penalties),
    ]


def _penalty(tournament: Tournament, penalty: Penalty, lang: Lang) -> str:
    entry = tournament.players.get(penalty.player_id)
    return t(
        "export.matches.penalty",
        lang,
        player=clean_name(entry.display_name) if entry else str(penalty.player_id),
        type=penalty_type(penalty.type, lang),
        infraction=infraction_name(penalty, lang),
        revoked=t("export.matches.revoked", lang) if penalty.revoked else "",
    )
