"""The matches CSV of /tournament export: one row per match that a Japanese
spreadsheet opens as it is, with the result in the regulation's words, the point-zone
counts of a time-out (R-MATCH-2), the judges' decisions and the penalties (R-PEN-3)."""

from __future__ import annotations

import csv
import io

from bot.ui.export import matches_csv
from domain.engine.results import MatchResult
from domain.tournament.match_rows import match_rows
from domain.tournament.operations import GivePenalty, ReportResult, SetResult, StartRound
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.rounds import Claim
from tests.domain.tournament.support import JUDGE
from tests.domain.tournament.test_play import as_player, pair, started


def read(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # Japanese Excel needs the BOM
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_each_match_is_a_row_with_its_result_counts_judge_and_penalties() -> None:
    clock = started(6)
    pair(clock)
    clock.apply(StartRound(1))
    first_table, second_table, third_table = clock.tournament.rounds[0].matches
    a, b = first_table.players
    _, d = second_table.players
    e, f = third_table.players
    # Table 1: a judgement at time (R-MATCH-2), reported by both.
    clock.apply(ReportResult(a, 1, Claim.TIME, 3, 5), as_player(a))
    clock.apply(ReportResult(b, 1, Claim.TIME, 5, 3), as_player(b))
    # Table 2: a judge's ruling. Table 3: a game loss decides it (R-PEN-3).
    clock.apply(SetResult(1, 2, MatchResult.win(str(d))), JUDGE)
    clock.apply(GivePenalty(e, PenaltyType.GAME_LOSS, Infraction.MARKED_SLEEVES, "x"), JUDGE)
    tournament = clock.tournament
    table = read(matches_csv(tournament, match_rows(tournament), "ja"))
    assert table[0] == [
        "回戦",
        "段階",
        "テーブル",
        "プレイヤー1",
        "プレイヤー2",
        "結果",
        "勝者",
        "勝ち上がり",
        "ポイント置き場（プレイヤー1）",
        "ポイント置き場（プレイヤー2）",
        "ジャッジの決定",
        "罰則",
    ]
    name = {p: entry.display_name for p, entry in tournament.players.items()}
    rows = {int(row[2]): row for row in table[1:]}
    assert rows[1][:5] == ["1", "スイスドロー", "1", name[a], name[b]]
    assert "判定勝ち" in rows[1][5]
    assert rows[1][8:11] == ["3", "5", ""]
    assert rows[2][6] == name[d]  # (that a judge set it is read from the log: see
    # tests/domain/tournament/test_match_rows.py)
    assert rows[3][6] == name[f]
    assert rows[3][10] == "はい"
    assert rows[3][11].startswith(f"{name[e]}: 敗北")
    english = read(matches_csv(tournament, match_rows(tournament), "en"))
    assert english[0][:3] == ["Round", "Stage", "Table"]
