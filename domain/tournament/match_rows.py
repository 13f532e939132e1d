"""Per-round results, one row per match (the matches CSV): the round and its kind, the
top cut's stage, the table, the players, the result, whether a judge set or changed it,
and the penalties given to either player in that round."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.engine.placings import Stage, stage
from domain.engine.results import ResultKind
from domain.tournament.model import Tournament
from domain.tournament.operations import Role
from domain.tournament.penalties import Penalty
from domain.tournament.replay import LoggedOperation
from domain.tournament.rounds import Match, Round, RoundKind
from domain.tournament.undo import undone_ids

# Operations that only a judge or an organizer makes and that set a table's result.
JUDGES_RESULTS = frozenset({"set_result", "record_no_show"})
# A player's own operations, which staff may make for them (then a judge set the result).
PLAYERS_RESULTS = frozenset({"report_result", "confirm_result"})


@dataclass(frozen=True)
class MatchRow:
    round: int
    kind: RoundKind
    stage: Stage | None  # the top cut's stage (決勝, 準決勝, …); None in a Swiss round
    table: int
    players: tuple[int, ...]  # table order; one player: a bye; none: an empty bracket slot
    result: ResultKind | None  # None: no result yet
    winner: int | None  # None: a draw, a double loss, or no result yet
    advancing: int | None  # knockout: who went on (the judge's choice after a draw)
    point_zone: tuple[int, int] | None  # a time-out's counts, in table order (R-MATCH-2)
    by_judge: bool  # a judge set the result or changed it (a penalty included)
    penalties: tuple[Penalty, ...]  # given to either player in this round, revoked too


def match_rows(tournament: Tournament, log: Iterable[LoggedOperation] = ()) -> list[MatchRow]:
    """Every match of every round, in round and table order.

    Without the action log, `by_judge` knows only what the tournament itself shows: a
    penalty that changed the result, and results only judges can give (a no-show, a
    double loss). With the log (`bot.store.actions.logged_operations`), a judge's
    /result set and a report or confirmation a judge made for a player count too.
    """
    judged = _judged_tables(tournament, list(log))
    for penalty in tournament.penalties:
        if penalty.effect is not None:
            judged.add((penalty.effect.round, penalty.effect.table))
    given: dict[tuple[int, int], list[Penalty]] = {}
    for penalty in tournament.penalties:
        given.setdefault((penalty.round, penalty.player_id), []).append(penalty)
    rows = []
    for played in tournament.rounds:
        knockout = played.kind is RoundKind.ELIMINATION
        advancing = played.advancing() if knockout else [None] * len(played.matches)
        for match, going_on in zip(played.matches, advancing, strict=True):
            rows.append(_row(played, match, going_on, judged, given))
    return rows


def _row(
    played: Round,
    match: Match,
    advancing: int | None,
    judged: set[tuple[int, int]],
    given: dict[tuple[int, int], list[Penalty]],
) -> MatchRow:
    result = match.result
    knockout = played.kind is RoundKind.ELIMINATION
    winner = result.winner(match.ids) if result is not None and match.players else None
    only_judges = result is not None and result.kind in (
        ResultKind.NO_SHOW,
        ResultKind.DOUBLE_LOSS,
    )
    return MatchRow(
        round=played.number,
        kind=played.kind,
        stage=stage(2 * len(played.matches)) if knockout else None,
        table=match.table,
        players=match.players,
        result=result.kind if result is not None else None,
        winner=int(winner) if winner is not None else None,
        advancing=advancing,
        point_zone=result.point_zone if result is not None else None,
        by_judge=only_judges or (played.number, match.table) in judged,
        penalties=tuple(
            penalty
            for player in match.players
            for penalty in given.get((played.number, player), ())
        ),
    )


def _judged_tables(tournament: Tournament, log: Sequence[LoggedOperation]) -> set[tuple[int, int]]:
    """(round, table) of every result a judge set, from the operations still standing."""
    undone = undone_ids(log)
    judged: set[tuple[int, int]] = set()
    for entry in log:
        payload = entry.payload
        if entry.id in undone or "round" not in payload:
            continue
        by_staff = entry.role >= Role.JUDGE and entry.actor_id != payload.get("player_id")
        if entry.kind in JUDGES_RESULTS or (entry.kind in PLAYERS_RESULTS and by_staff):
            number = int(payload["round"])
            table = payload.get("table")
            if table is None:  # a report names the player; the table is theirs
                played = tournament.round(number)
                match = played.match_of(int(payload["player_id"])) if played else None
                table = match.table if match else None
            if table is not None:
                judged.add((number, int(table)))
    return judged
