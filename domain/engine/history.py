"""What Swiss pairing needs to know about each player, folded from the match history."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.engine.players import Player
from domain.engine.points import POINTS
from domain.engine.results import Outcome, RecordedMatch
from domain.errors import InvalidInput


@dataclass(frozen=True)
class SwissEntrant:
    """A player to pair: current points, everyone already played, and byes received."""

    player: str
    points: int = 0
    opponents: frozenset[str] = frozenset()
    byes: int = 0


def entrants_from_history(
    players: Sequence[Player], matches: Iterable[RecordedMatch]
) -> list[SwissEntrant]:
    """The active players with their points, opponents and byes (R-FMT-7: others are left out).

    Late entrants' given losses score 0 and have no opponent, so they need no entry here.
    """
    return entrants_from_tally(players, tally(players, matches))


def entrants_from_tally(players: Sequence[Player], folded: Tally) -> list[SwissEntrant]:
    """`entrants_from_history` from the history already folded (`tally`): a tournament's
    played rounds keep their own part tallied, so pairing a round does not fold every match
    of the event again."""
    return [
        SwissEntrant(
            p.id, folded.points[p.id], frozenset(folded.opponents[p.id]), folded.byes[p.id]
        )
        for p in players
        if p.active
    ]


def tally_history(
    players: Sequence[Player], matches: Iterable[RecordedMatch]
) -> tuple[dict[str, int], dict[str, list[str]], dict[str, int]]:
    """Points, opponents played (in order, repeats kept) and byes of every player."""
    folded = tally(players, matches)
    return folded.points, folded.opponents, folded.byes


@dataclass(frozen=True)
class Tally:
    """What the matches gave every player, folded: points, opponents played (in order,
    repeats kept), byes, and wins, losses and draws (a bye and a judgement win count as
    wins, a judgement loss as a loss)."""

    points: dict[str, int]
    opponents: dict[str, list[str]]
    byes: dict[str, int]
    records: dict[str, list[int]]  # [wins, losses, draws] of every player with a match


@dataclass(frozen=True)
class PartTally:
    """Some matches (one round's, typically) folded on their own, for any players: each
    player's points, wins, losses and draws and the first round they played in, the pairs
    that met, in order, and the byes. A played round's part never changes, so the standings
    after each result fold the earlier rounds' parts instead of their matches."""

    rows: dict[str, tuple[int, int, int, int, int]]  # points, wins, losses, draws, round
    pairs: tuple[tuple[str, str], ...]
    byes: tuple[str, ...]


_WINS = frozenset({Outcome.WIN, Outcome.JUDGEMENT_WIN, Outcome.BYE})


def tally_part(matches: Iterable[RecordedMatch]) -> PartTally:
    rows: dict[str, tuple[int, int, int, int, int]] = {}
    pairs: list[tuple[str, str]] = []
    byes: list[str] = []
    for match in matches:
        for player_id, outcome in match.outcomes().items():
            won, drew = outcome in _WINS, outcome is Outcome.DRAW
            points, wins, losses, draws, first = rows.get(player_id, (0, 0, 0, 0, match.round))
            rows[player_id] = (
                points + POINTS[outcome],
                wins + won,
                losses + (not won and not drew),
                draws + drew,
                first,
            )
        if match.is_bye:
            byes.append(match.players[0])
        else:
            first_player, second_player = match.players
            pairs.append((first_player, second_player))
    return PartTally(rows, tuple(pairs), tuple(byes))


def tally(
    players: Sequence[Player],
    matches: Iterable[RecordedMatch] = (),
    *,
    parts: Iterable[PartTally] = (),
) -> Tally:
    """Fold `matches` (or their `parts`, already tallied, in order) for `players`; a match
    naming anyone else is refused."""
    points = {player.id: 0 for player in players}
    if len(points) != len(players):
        raise InvalidInput("engine.standings.duplicate_player")
    opponents: dict[str, list[str]] = {player_id: [] for player_id in points}
    byes = dict.fromkeys(points, 0)
    records: dict[str, list[int]] = {}
    folded = [*parts, tally_part(matches)]
    for part in folded:
        for player_id, (gained, wins, losses, draws, number) in part.rows.items():
            if player_id not in points:
                raise InvalidInput(
                    "engine.standings.unknown_player", player=player_id, round=number
                )
            points[player_id] += gained
            record = records.get(player_id)
            if record is None:
                records[player_id] = [wins, losses, draws]
            else:
                record[0] += wins
                record[1] += losses
                record[2] += draws
    for part in folded:
        for first, second in part.pairs:
            opponents[first].append(second)
            opponents[second].append(first)
        for player_id in part.byes:
            byes[player_id] += 1
    return Tally(points, opponents, byes, records)
