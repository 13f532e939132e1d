"""A player's record across a server's events: placings, wins and losses, titles played.

Built from the tournaments themselves (as the domain has them), so it never disagrees with
the posted standings. Only finished events count, and only those where the player has a
final placing (entering and dropping before the first round is not playing).

Wins, losses and draws are counted per match, Swiss and top cut apart: a win or a
judgement win is a win (勝ち, 判定勝ち), a time-out with equal point zones a draw, a loss, a
judgement loss, a concession or a no-show a loss, and a double game loss (R-PEN-3) a loss
for both. A bye is counted apart (`byes`): it is no match won against anyone.

The titles a player played are shown only from events whose decklists the organizer has
published: decklists stay private until then. Penalties are a separate accessor,
`player_penalties`, for staff only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from domain.decks import read_stored_decklist
from domain.engine.results import Outcome
from domain.engine.state import Phase
from domain.series.placings import EventPlacing, event_result
from domain.tournament.model import Tournament
from domain.tournament.penalties import Penalty
from domain.tournament.rounds import RoundKind

_WINS = frozenset({Outcome.WIN, Outcome.JUDGEMENT_WIN})
_LOSSES = frozenset({Outcome.LOSS, Outcome.JUDGEMENT_LOSS})


@dataclass(frozen=True)
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.wins + other.wins,
            self.losses + other.losses,
            self.draws + other.draws,
            self.byes + other.byes,
        )

    def counting(self, outcome: Outcome) -> Tally:
        return self + Tally(
            wins=int(outcome in _WINS),
            losses=int(outcome in _LOSSES),
            draws=int(outcome is Outcome.DRAW),
            byes=int(outcome is Outcome.BYE),
        )

    @property
    def matches(self) -> int:
        """Matches played against an opponent (byes are not)."""
        return self.wins + self.losses + self.draws

    def __str__(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(frozen=True)
class RoundResult:
    round: int
    kind: RoundKind
    opponent_id: int | None  # None: a bye
    outcome: Outcome


@dataclass(frozen=True)
class EventRecord:
    tournament_id: int
    name: str
    event_date: date
    placing: EventPlacing
    players: int  # how many players have a final placing
    swiss: Tally
    top_cut: Tally
    rounds: tuple[RoundResult, ...]
    titles: tuple[str, ...]  # empty unless the event's decklists are published


@dataclass(frozen=True)
class PlayerRecord:
    player_id: int
    events: tuple[EventRecord, ...]  # oldest first

    @property
    def events_played(self) -> int:
        return len(self.events)

    @property
    def swiss(self) -> Tally:
        return sum((event.swiss for event in self.events), Tally())

    @property
    def top_cut(self) -> Tally:
        return sum((event.top_cut for event in self.events), Tally())

    @property
    def best_finish(self) -> int | None:
        return min((event.placing.finish for event in self.events), default=None)

    @property
    def event_wins(self) -> int:
        """Events won (優勝): first place, the bracket's winner where there was one."""
        return sum(1 for event in self.events if event.placing.finish == 1)

    @property
    def titles(self) -> tuple[tuple[str, int], ...]:
        """Each title played in a published list, with how many events it was played in,
        most played first."""
        counts: dict[str, int] = {}
        for event in self.events:
            for title in event.titles:
                counts[title] = counts.get(title, 0) + 1
        return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def player_record(player_id: int, tournaments: Iterable[Tournament]) -> PlayerRecord:
    """`player_id`'s record over the finished `tournaments` in which they have a placing."""
    events = []
    for tournament in tournaments:
        if tournament.phase is not Phase.FINISHED or player_id not in tournament.players:
            continue
        result = event_result(tournament)
        placing = next((p for p in result.placings if p.player_id == player_id), None)
        if placing is None:
            continue
        rounds = tuple(_rounds_of(tournament, player_id))
        events.append(
            EventRecord(
                tournament_id=tournament.id,
                name=tournament.name,
                event_date=tournament.event_date,
                placing=placing,
                players=len(result.placings),
                swiss=_tally(r for r in rounds if r.kind is RoundKind.SWISS),
                top_cut=_tally(r for r in rounds if r.kind is RoundKind.ELIMINATION),
                rounds=rounds,
                titles=_published_titles(tournament, player_id),
            )
        )
    events.sort(key=lambda event: (event.event_date, event.tournament_id))
    return PlayerRecord(player_id, tuple(events))


def _rounds_of(tournament: Tournament, player_id: int) -> Iterable[RoundResult]:
    for played in tournament.rounds:
        match = played.match_of(player_id)
        if match is None or match.result is None:
            continue
        outcome = match.result.outcomes(match.ids)[str(player_id)]
        yield RoundResult(played.number, played.kind, match.opponent_of(player_id), outcome)


def _tally(rounds: Iterable[RoundResult]) -> Tally:
    tally = Tally()
    for result in rounds:
        tally = tally.counting(result.outcome)
    return tally


def _published_titles(tournament: Tournament, player_id: int) -> tuple[str, ...]:
    deck = tournament.decks.get(player_id)
    if not tournament.decks_published or deck is None:
        return ()
    return read_stored_decklist(deck.canonical).titles


@dataclass(frozen=True)
class PenaltyRecord:
    tournament_id: int
    tournament_name: str
    event_date: date
    penalty: Penalty


def player_penalties(
    player_id: int, tournaments: Iterable[Tournament]
) -> tuple[PenaltyRecord, ...]:
    """Every penalty `player_id` was given, revoked ones included (`penalty.revoked` says so),
    oldest first. For staff only: the service decides who may see it."""
    found = [
        PenaltyRecord(tournament.id, tournament.name, tournament.event_date, penalty)
        for tournament in tournaments
        for penalty in tournament.penalties
        if penalty.player_id == player_id
    ]
    found.sort(key=lambda record: (record.penalty.at, record.tournament_id, record.penalty.id))
    return tuple(found)
