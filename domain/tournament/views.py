"""What people read about a running or finished event: standings with names, the final
order (top cut first), and the record that `python -m bot replay` reads back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from domain.engine.players import PlayerStatus
from domain.engine.record import TournamentRecord
from domain.engine.results import Outcome, RecordedMatch
from domain.engine.standings import Standing, strict_order
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


def standings_lines(tournament: Tournament) -> list[StandingLine]:
    """The Swiss standings (R-FMT-4, R-FMT-5: ties share a rank)."""
    return _lines(tournament, swiss_standings(tournament))


def final_standings(tournament: Tournament) -> tuple[list[StandingLine], list[StandingLine]]:
    """The final standings with shared ranks, and a strict order for prizes drawn from the
    recorded seed (R-FMT-5). With a top cut, its placings come first: the winner, the
    finalist, then each round's losers sharing a rank; everyone else follows in the Swiss
    standings' order, where ties still share a rank."""
    swiss = swiss_standings(tournament)
    strict = strict_order(swiss, tournament.seed or 0)
    groups = _placement_groups(tournament)
    if not groups:
        return _lines(tournament, swiss), _lines(tournament, strict)
    by_id = {row.player: row for row in swiss}
    strict_index = {row.player: index for index, row in enumerate(strict)}
    top_cut: set[str] = set().union(*groups)
    shared: list[Standing] = []
    position = 1
    for group in groups:
        for player in sorted(group, key=lambda p: strict_index[p]):
            shared.append(_ranked(by_id[player], position))
        position += len(group)
    rest = [row for row in swiss if row.player not in top_cut]
    for row in rest:
        first_tied = next(i for i, other in enumerate(rest) if other.sort_key == row.sort_key)
        shared.append(_ranked(row, position + first_tied))
    strict_players = [row.player for row in shared[: len(top_cut)]]
    strict_players += [row.player for row in strict if row.player not in top_cut]
    ordered = tuple(_ranked(by_id[p], index) for index, p in enumerate(strict_players, start=1))
    return _lines(tournament, tuple(shared)), _lines(tournament, ordered)


def _placement_groups(tournament: Tournament) -> list[list[str]]:
    """The top cut's placings, best first: the winner, the finalist, each round's losers."""
    bracket = [r for r in tournament.rounds if r.kind is RoundKind.ELIMINATION]
    if not bracket:
        return []
    groups = [[str(p) for p in bracket[-1].advancing() if p is not None]]
    for played in reversed(bracket):
        losers = [
            str(player)
            for match, advancing in zip(played.matches, played.advancing(), strict=True)
            for player in match.players
            if player != advancing
        ]
        if losers:
            groups.append(losers)
    return [group for group in groups if group]


def _ranked(row: Standing, rank: int) -> Standing:
    return replace(row, rank=rank)


def export_record(tournament: Tournament) -> TournamentRecord:
    """The Swiss rounds as a replay record, players by name in arrival order (the order
    ties keep), so that `python -m bot replay` of an export gives the posted standings."""
    names = display_names(tournament)
    in_standings = {line.user_id: line for line in standings_lines(tournament)}
    players = tuple(names[e.user_id] for e in tournament.entries() if e.user_id in in_standings)
    matches = tuple(
        RecordedMatch(
            match.round,
            tuple(names[int(p)] for p in match.players),
            replace(
                match.result,
                player=names[int(match.result.player)] if match.result.player else None,
            ),
        )
        for match in recorded_matches(tournament.swiss_rounds)
    )
    drops = {
        names[user]: tournament.players[user].dropped_round or 0
        for user, line in in_standings.items()
        if line.status is not PlayerStatus.ACTIVE
    }
    return TournamentRecord(
        rounds=tournament.state.planned_rounds or max(len(tournament.swiss_rounds), 1),
        players=players,
        matches=matches,
        drops=drops,
    )
