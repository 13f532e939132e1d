"""What people read about a running or finished event: standings with names, the final
placings (top cut first), and the record that `python -m bot replay` reads back."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any, TypeVar, cast

from domain.engine.elimination import bracket_order
from domain.engine.history import Tally
from domain.engine.placings import (
    KnockoutMatch,
    Placing,
    PlacingExplanation,
    TopCutPlace,
    final_placings,
)
from domain.engine.placings import prize_order as final_prize_order
from domain.engine.players import PlayerStatus
from domain.engine.record import TopCutRound, TournamentRecord, placing_rows
from domain.engine.results import MatchResult, RecordedMatch
from domain.engine.standings import Standing, strict_order
from domain.engine.state import Phase
from domain.tournament.model import Tournament
from domain.tournament.names import display_names
from domain.tournament.play import recorded_matches, swiss_standings, swiss_tally
from domain.tournament.rounds import RoundKind

T = TypeVar("T")


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
    seed: int | None = None  # the bracket's seed, shown where seeded players share a rank


class Views:
    """What people read about one tournament value, each part worked out once, when first
    asked for: the Swiss standings and their lines, the placings, the final standings with
    the strict order for prizes, each player's points.

    A tournament value never changes (every operation makes a new one), so neither does
    anything here: the bot keeps one `Views` per tournament version and every command,
    post and page of that version reads it. `memo` keeps what a presentation layer derives
    from it (a page's layout) for as long. The values are shared: read them, never change
    them."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self._memo: dict[Hashable, Any] = {}

    @cached_property
    def tally(self) -> Tally:
        return swiss_tally(self.tournament)

    @cached_property
    def swiss(self) -> tuple[Standing, ...]:
        """R-FMT-4, R-FMT-5: the Swiss standings, ties sharing a rank."""
        return swiss_standings(self.tournament, self.tally)

    @cached_property
    def points(self) -> Mapping[int, int]:
        """Each player's Swiss points (勝ち点) now."""
        return {int(player): points for player, points in self.tally.points.items()}

    @cached_property
    def lines(self) -> tuple[StandingLine, ...]:
        """The Swiss standings with names and records."""
        return tuple(self._lines(self.swiss))

    @cached_property
    def after_round(self) -> int:
        """The last Swiss round with every result in: what the standings are "after"."""
        return max((r.number for r in self.tournament.swiss_rounds if r.complete), default=0)

    @cached_property
    def placings(self) -> tuple[StandingLine, ...]:
        """What every standings view shows: the Swiss standings until the event is finished,
        then the final placings, the top cut first (R-FMT-1, R-FMT-5)."""
        return tuple(self._placed_lines(self._placed))

    @cached_property
    def final(self) -> tuple[tuple[StandingLine, ...], tuple[StandingLine, ...]]:
        """`placings`, and the same lines in the strict order for prizes."""
        by_player = {str(line.user_id): line for line in self.placings}
        strict = tuple(
            _at_rank(by_player[line.player], line.rank)
            for line in final_prize_order(
                self._placed, strict_order(self.swiss, self.tournament.seed or 0)
            )
        )
        return self.placings, strict

    @cached_property
    def seeds(self) -> Mapping[int, int]:
        """Each top-cut player's seed in the bracket (empty before it is paired, and in an
        elimination event, whose bracket is drawn at random)."""
        first = next(iter(knockout_rounds(self.tournament)), None)
        if first is None or not self.tournament.swiss_rounds:
            return {}
        return bracket_seeds(first.matches)

    @cached_property
    def names(self) -> Mapping[int, str]:
        """Every player's name as the bot shows it (`display_names`)."""
        return display_names(self.tournament)

    def points_before(self, number: int) -> Mapping[int, int]:
        """Each player's Swiss points from the rounds before round `number` (what the
        round's pairings show); a player with none is left out."""

        def fold() -> dict[int, int]:
            points: dict[int, int] = {}
            for played in self.tournament.swiss_rounds:
                if played.number < number:
                    for player, row in played.tally.rows.items():
                        user = int(player)
                        points[user] = points.get(user, 0) + row[0]
            return points

        return self.memo(("points before", number), fold)

    def has(self, part: Hashable) -> bool:
        """Whether `part` (a property's name, or a `memo` key) is worked out already."""
        return part in self._memo or (isinstance(part, str) and part in self.__dict__)

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, kept under `key` for this tournament value (made once; a second maker
        racing the first gives the same value, as everything here is a pure function of
        the tournament)."""
        try:
            return cast(T, self._memo[key])
        except KeyError:
            return cast(T, self._memo.setdefault(key, make()))

    @cached_property
    def _placed(self) -> tuple[Placing, ...]:
        tournament = self.tournament
        finished = tournament.phase is Phase.FINISHED
        knockout = [r.matches for r in knockout_rounds(tournament)] if finished else []
        return final_placings(self.swiss, knockout)

    def _lines(self, standings: Sequence[Standing]) -> list[StandingLine]:
        names = self.names
        records = self.tally.records
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

    def _placed_lines(self, placed: Sequence[Placing]) -> list[StandingLine]:
        lines = self._lines(tuple(line.standing for line in placed))
        seeds = self._shown_seeds
        return [
            replace(
                line,
                top_cut=place.top_cut,
                explanation=place.explanation,
                seed=seeds.get(line.user_id),
            )
            if place.top_cut is not None or place.explanation is not None or line.user_id in seeds
            else line
            for line, place in zip(lines, placed, strict=True)
        ]

    @cached_property
    def _shown_seeds(self) -> Mapping[int, int]:
        """The bracket's seeds where they tell more than the Swiss ranks the standings show
        during the top cut: when a seeded player shares their rank (R-FMT-5), the seed shows
        the strict order the bracket was drawn in from the recorded seed; when no rank is
        shared, the seeds are the ranks. After the finish the placings say where each
        top-cut player finished, and the seeds explain no rank."""
        seeds = self.seeds
        if not seeds or self.tournament.phase is Phase.FINISHED:
            return {}
        players = Counter(row.rank for row in self.swiss)
        if any(int(row.player) in seeds and players[row.rank] > 1 for row in self.swiss):
            return seeds
        return {}


def _at_rank(line: StandingLine, rank: int) -> StandingLine:
    return line if line.rank == rank else replace(line, rank=rank)


def standings_after(tournament: Tournament) -> int:
    """The last Swiss round with every result in: what the standings are "after"."""
    return Views(tournament).after_round


def standings_lines(tournament: Tournament) -> list[StandingLine]:
    """The Swiss standings (R-FMT-4, R-FMT-5: ties share a rank)."""
    return list(Views(tournament).lines)


def placings(tournament: Tournament) -> list[StandingLine]:
    """What every standings view shows: the Swiss standings until the event is finished,
    then the final placings, the top cut first (R-FMT-1, R-FMT-5)."""
    return list(Views(tournament).placings)


def prize_order(tournament: Tournament) -> list[StandingLine]:
    """`placings` in a strict order for prizes: each shared rank broken by a draw from the
    recorded seed (R-FMT-5)."""
    return final_standings(tournament)[1]


def final_standings(tournament: Tournament) -> tuple[list[StandingLine], list[StandingLine]]:
    """`placings`, and the same lines in the strict order for prizes (`prize_order`)."""
    shared, strict = Views(tournament).final
    return list(shared), list(strict)


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


def bracket_seeds(first_round: Sequence[KnockoutMatch]) -> dict[int, int]:
    """Each player's seed from the first bracket round's slots in bracket order (1v8, 4v5,
    2v7, 3v6 …, `bracket_order`)."""
    order = bracket_order(len(first_round) * 2)
    return {
        int(player): order[index * 2 + offset]
        for index, match in enumerate(first_round)
        for offset, player in enumerate(match.players)
    }


def export_record(tournament: Tournament, views: Views | None = None) -> TournamentRecord:
    """The event as a replay record, players by name in arrival order (the order ties
    keep), so that `python -m bot replay` of an export gives the posted placings: the
    Swiss rounds, the no-show tiebreak setting, the top cut and whether it was finished.
    `views`: the tournament's, when the caller has them."""
    views = views if views is not None else Views(tournament)
    names = views.names
    in_standings = {line.user_id: line for line in views.lines}
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


def export_json(tournament: Tournament, views: Views | None = None) -> dict[str, object]:
    """The export's JSON: the replay record (`export_record`) and beside it the Swiss
    standings after the last round and, once finished, the final placings (top cut first),
    both worked out from the record itself, so they are what its replay prints."""
    views = views if views is not None else Views(tournament)
    record = export_record(tournament, views)
    data = record.to_json()
    data["standings"] = {
        "after_round": views.after_round,
        "rows": placing_rows(record.standings()),
    }
    if record.finished:
        data["placings"] = placing_rows(record.placings())
    return data


def _named(result: MatchResult, names: Mapping[int, str]) -> MatchResult:
    """`result` naming its player by name instead of id."""
    return replace(result, player=names[int(result.player)] if result.player else None)
