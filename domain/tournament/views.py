"""What people read about a running or finished event: standings with names, the final
placings (top cut first), and the record that `python -m bot replay` reads back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from domain.engine.placings import (
    KnockoutMatch,
    Placing,
    PlacingExplanation,
    TopCutPlace,
    final_placings,
)
from domain.engine.placings import prize_order as final_prize_order
from domain.engine.players import PlayerStatus
from domain.engine.record import TopCutRound, TournamentRecord
from domain.engine.results import MatchResult, Outcome, RecordedMatch
from domain.engine.standings import Standing, strict_order
from domain.engine.state import Phase
from domain.tournament.model import Tournament
from domain.tournament.names import display_names
from domain.tournament.play import recorded_matches, swiss_standings
from domain.tournament.rounds import RoundKind


@dataclass(frozen=True)
class StandingLine:
    rank: int
    user_id: int
    name: str
    points: int
    opponents_points: Fraction
    status: PlayerStatus
    record: str  # wins-losses-draws over the Swiss rounds, e.g. "2-1-0"
    top_cut: TopCutPlace | None = None  # the final placings: 優勝, 準優勝, ベスト4, …
    explanation: PlacingExplanation | None = None  # why above a line with more points


def _records(tournament: Tournament) -> dict[str, tuple[int, int, int]]:
    tally: dict[str, list[int]] = {}
    for match in recorded_matches(tournament.swiss_rounds):
        for player, outcome in match.outcomes().items():
            row = tally.setdefault(player, [0, 0, 0])
            if outcome in (Outcome.WIN, Outcome.JUDGEMENT_WIN, Outcome.BYE):
                row[0] += 1
            elif outcome is Outcome.DRAW:
                row[2] += 1
            else:
                row[1] += 1
    return {player: (row[0], row[1], row[2]) for player, row in tally.items()}


def _lines(tournament: Tournament, standings: tuple[Standing, ...]) -> list[StandingLine]:
    names = display_names(tournament)
    records = _records(tournament)
    return [
        StandingLine(
            rank=row.rank,
            user_id=int(row.player),
            name=names[int(row.player)],
            points=row.points,
            opponents_points=row.opponents_points,
            status=row.status,
            record="-".join(map(str, records.get(row.player, (0, 0, 0)))),
        )
        for row in standings
    ]


def standings_after(tournament: Tournament) -> int:
    """The last Swiss round with every result in: what the standings are "after"."""
    return max((r.number for r in tournament.swiss_rounds if r.complete), default=0)


def standings_lines(tournament: Tournament) -> list[StandingLine]:
    """The Swiss standings (R-FMT-4, R-FMT-5: ties share a rank)."""
    return _lines(tournament, swiss_standings(tournament))


def placings(tournament: Tournament) -> list[StandingLine]:
    """What every standings view shows: the Swiss standings until the event is finished,
    then the final placings, the top cut first (R-FMT-1, R-FMT-5)."""
    return _placed_lines(tournament, _placings(tournament, swiss_standings(tournament)))


def prize_order(tournament: Tournament) -> list[StandingLine]:
    """`placings` in a strict order for prizes: each shared rank broken by a draw from the
    recorded seed (R-FMT-5)."""
    return final_standings(tournament)[1]


def final_standings(tournament: Tournament) -> tuple[list[StandingLine], list[StandingLine]]:
    """`placings`, and the same lines in the strict order for prizes (`prize_order`)."""
    swiss = swiss_standings(tournament)
    placed = _placings(tournament, swiss)
    shared = _placed_lines(tournament, placed)
    by_player = {str(line.user_id): line for line in shared}
    strict = [
        replace(by_player[line.player], rank=line.rank)
        for line in final_prize_order(placed, strict_order(swiss, tournament.seed or 0))
    ]
    return shared, strict


def knockout_rounds(tournament: Tournament) -> tuple[TopCutRound, ...]:
    """The knockout rounds as the engine places them, slots in bracket order."""
    return tuple(
        TopCutRound(
            played.number,
            tuple(
                KnockoutMatch(
                    match.ids,
                    match.result,
                    str(match.advancing) if match.advancing is not None else None,
                )
                for match in played.matches
            ),
        )
        for played in tournament.rounds
        if played.kind is RoundKind.ELIMINATION
    )


def _placings(tournament: Tournament, swiss: Sequence[Standing]) -> tuple[Placing, ...]:
    finished = tournament.phase is Phase.FINISHED
    knockout = [r.matches for r in knockout_rounds(tournament)] if finished else []
    return final_placings(swiss, knockout)


def _placed_lines(tournament: Tournament, placed: Sequence[Placing]) -> list[StandingLine]:
    lines = _lines(tournament, tuple(line.standing for line in placed))
    return [
        replace(line, top_cut=place.top_cut, explanation=place.explanation)
        for line, place in zip(lines, placed, strict=True)
    ]


def export_record(tournament: Tournament) -> TournamentRecord:
    """The event as a replay record, players by name in arrival order (the order ties
    keep), so that `python -m bot replay` of an export gives the posted placings: the
    Swiss rounds, the no-show tiebreak setting, the top cut and whether it was finished."""
    names = display_names(tournament)
    in_standings = {line.user_id: line for line in standings_lines(tournament)}
    players = tuple(names[e.user_id] for e in tournament.entries() if e.user_id in in_standings)
    matches = tuple(
        RecordedMatch(
            match.round,
            tuple(names[int(p)] for p in match.players),
            _named(match.result, names),
        )
        for match in recorded_matches(tournament.swiss_rounds)
    )
    left = {user for user, line in in_standings.items() if line.status is not PlayerStatus.ACTIVE}
    drops = {names[user]: tournament.players[user].dropped_round or 0 for user in left}
    disqualified = frozenset(
        names[user] for user in left if in_standings[user].status is PlayerStatus.DISQUALIFIED
    )
    top_cut = tuple(
        TopCutRound(
            played.number,
            tuple(
                KnockoutMatch(
                    tuple(names[int(p)] for p in match.players),
                    _named(match.result, names) if match.result is not None else None,
                    names[int(match.decided)] if match.decided is not None else None,
                )
                for match in played.matches
            ),
        )
        for played in knockout_rounds(tournament)
    )
    return TournamentRecord(
        rounds=tournament.state.planned_rounds or max(len(tournament.swiss_rounds), 1),
        players=players,
        matches=matches,
        drops=drops,
        disqualified=disqualified,
        no_show_tiebreak=tournament.settings.noshow_tiebreak,
        top_cut=top_cut,
        finished=tournament.phase is Phase.FINISHED,
    )


def _named(result: MatchResult, names: Mapping[int, str]) -> MatchResult:
    """`result` naming its player by name instead of id."""
    return replace(result, player=names[int(result.player)] if result.player else None)
