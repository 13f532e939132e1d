"""Rounds, matches and result reports: the data of a running event.

A match's `players` are in table order: two players, one (a bye), or none (an empty
bracket slot after a double loss, kept so the bracket keeps its shape). Results are the
engine's `MatchResult`, naming players by their id as text.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cached_property
from itertools import chain

from domain.engine.history import PartTally, tally_part
from domain.engine.results import MatchResult, RecordedMatch, ResultKind


class RoundKind(StrEnum):
    SWISS = "swiss"
    ELIMINATION = "elimination"  # R-FMT-1: the top cut, or a whole elimination event


class Claim(StrEnum):
    """What a player reports about their own match (R-MATCH-2 to R-MATCH-4).

    There is deliberately no agreed draw (R-MATCH-3).
    """

    WIN = "win"  # 勝ち, including a game that ended during the extra turns
    LOSE = "lose"  # 負け
    CONCEDE = "concede"  # 投了: the reporter conceded
    TIME = "time"  # 時間切れ: both point-zone counts decide (判定勝ち or a draw)


@dataclass(frozen=True)
class Report:
    """A player's report, waiting for their opponent's confirmation."""

    player_id: int
    result: MatchResult
    at: datetime


@dataclass(frozen=True)
class Match:
    table: int
    players: tuple[int, ...]
    result: MatchResult | None = None
    advancing: int | None = None  # elimination: who goes on, when the result alone cannot say
    reports: tuple[Report, ...] = ()
    disputed: bool = False
    extension_minutes: int = 0  # R-MATCH-7: this table's extra time

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    @property
    def ids(self) -> tuple[str, ...]:
        """The players as the engine names them."""
        return tuple(str(player) for player in self.players)

    # A report and a confirmation each make a match: built directly, since
    # `dataclasses.replace` was a large share of a replayed report (docs/BENCHMARKS.md, "the
    # last three points", its "verify").
    def decided(self, result: MatchResult, advancing: int | None = None) -> Match:
        """This match with its result: the reports and any dispute settled."""
        return Match(self.table, self.players, result, advancing, (), False, self.extension_minutes)

    def with_reports(self, reports: tuple[Report, ...], disputed: bool) -> Match:
        """This match with the reports waiting on it, and whether they disagree."""
        return Match(
            self.table,
            self.players,
            self.result,
            self.advancing,
            reports,
            disputed,
            self.extension_minutes,
        )

    def opponent_of(self, player_id: int) -> int | None:
        others = [player for player in self.players if player != player_id]
        return others[0] if len(self.players) == 2 and others else None


@dataclass(frozen=True)
class Round:
    """One round and its matches. Its lookups (a player's match, a table, whether every
    result is in) are indexed once per round value, and `with_match` hands the index on to
    the round it makes: a report at a 2,048-table round costs no scan of the round."""

    number: int
    kind: RoundKind
    seed: int
    paired_at: datetime
    matches: tuple[Match, ...]
    started_at: datetime | None = None  # the clock (R-MATCH-1)
    ends_at: datetime | None = None

    def finished(self, match: Match) -> bool:
        """Whether the match needs nothing more: a result, and in elimination someone who
        goes on (a time draw waits for the judge's decision, R-FMT-1)."""
        if not match.players:
            return True
        if match.result is None:
            return False
        return not (
            self.kind is RoundKind.ELIMINATION
            and match.result.kind is ResultKind.TIME_DRAW
            and match.advancing is None
        )

    @cached_property
    def recorded(self) -> tuple[RecordedMatch, ...]:
        """The finished matches as the engine scores them (a played round is the same value
        from version to version: worked out once)."""
        return tuple(
            RecordedMatch(self.number, match.ids, match.result)
            for match in self.matches
            if match.players and match.result is not None
        )

    @cached_property
    def tally(self) -> PartTally:
        """The round's finished matches folded (points, records, who met whom, byes)."""
        return tally_part(self.recorded)

    @property
    def missing_tables(self) -> list[int]:
        return [match.table for match in self.matches if not self.finished(match)]

    @property
    def complete(self) -> bool:
        return self._unfinished == 0

    def match_of(self, player_id: int) -> Match | None:
        return self._match_in(self._seats.get(player_id))

    def match_at(self, table: int) -> Match | None:
        return self._match_in(self._tables.get(table))

    def _match_in(self, position: int | None) -> Match | None:
        if position is None:
            return None
        return self._chunks[position // MATCH_CHUNK][position % MATCH_CHUNK]

    def with_match(self, match: Match) -> Round:
        """This round with the match at `match.table` replaced (unchanged when there is no
        such table)."""
        position = self._tables.get(match.table)
        if position is None:
            return self
        old = self._match_in(position)
        assert old is not None
        # Built field by field (dataclasses.replace costs more than the rest of a report),
        # and without its `matches`: the new round shares every chunk of matches but the
        # one that changed, and joins them only when `matches` is read. A report at 2,048
        # tables copies 64 matches and 32 chunks, not 2,048 matches (every report and
        # confirmation of a replayed log comes here).
        updated = object.__new__(Round)
        carried, known = updated.__dict__, self.__dict__
        carried.update({name: known[name] for name in _KEPT_BY_WITH_MATCH})
        carried["_chunks"] = _replaced(self._chunks, position, match)
        # The derived lookups of this round, still true of the new one: the tables sit where
        # they sat; the seats too unless the match changed its players; one count moved.
        carried["_tables"] = self._tables
        if "_seats" in known and old.players == match.players:
            carried["_seats"] = known["_seats"]
        if "_unfinished" in known:
            moved = (not updated.finished(match)) - (not self.finished(old))
            carried["_unfinished"] = known["_unfinished"] + moved
        return updated

    def changes_since(
        self, before: Round | None
    ) -> tuple[list[tuple[Match | None, Match]], set[int]]:
        """What the store must write when `before` becomes this round: (the match `before`
        had at the table, or None, and this round's) for each match that is not the very
        same object, and the tables `before` had that this round has not. A round made
        from `before` by reports (`with_match`) shares its table layout and every chunk of
        matches but the changed ones, so only those are looked at: a report at 2,048
        tables looks at 64 matches, not 2,048."""
        if before is not None and before._tables is self._tables:
            changed: list[tuple[Match | None, Match]] = []
            for old, new in zip(before._chunks, self._chunks, strict=True):
                if old is not new:
                    changed += [(a, b) for a, b in zip(old, new, strict=True) if a is not b]
            return changed, set()
        known = {match.table: match for match in before.matches} if before else {}
        pairs = [(known.get(match.table), match) for match in self.matches]
        gone = known.keys() - {match.table for match in self.matches}
        return [(a, b) for a, b in pairs if a is not b], gone

    @cached_property
    def _chunks(self) -> tuple[tuple[Match, ...], ...]:
        """The matches in chunks of `MATCH_CHUNK`, which rounds made by `with_match` share."""
        matches = self.matches
        return tuple(
            matches[start : start + MATCH_CHUNK] for start in range(0, len(matches), MATCH_CHUNK)
        )

    @cached_property
    def _tables(self) -> dict[int, int]:
        """Table number → its position (the first match at that table)."""
        found: dict[int, int] = {}
        for position, match in enumerate(self.matches):
            found.setdefault(match.table, position)
        return found

    @cached_property
    def _seats(self) -> dict[int, int]:
        """Player → the position of their (first) match."""
        found: dict[int, int] = {}
        for position, match in enumerate(self.matches):
            for player in match.players:
                found.setdefault(player, position)
        return found

    @cached_property
    def _unfinished(self) -> int:
        return sum(1 for match in self.matches if not self.finished(match))

    def table_ends_at(self, match: Match) -> datetime | None:
        """When this table's time is up: the round's end plus the table's extension."""
        if self.ends_at is None:
            return None
        return self.ends_at + timedelta(minutes=match.extension_minutes)

    def advancing(self) -> list[int | None]:
        """Elimination: who goes on from each slot, in slot order (None: nobody)."""
        found: list[int | None] = []
        for match in self.matches:
            if match.advancing is not None:
                found.append(match.advancing)
            elif match.result is None:
                found.append(match.players[0] if match.is_bye else None)
            else:
                winner = match.result.winner(match.ids)
                found.append(int(winner) if winner is not None else None)
        return found


# How many matches a chunk of `Round._chunks` holds: a report copies one chunk and the
# tuple of chunks (64 + 32 at 2,048 tables).
MATCH_CHUNK = 64

# The fields `Round.with_match` carries over unchanged (`matches` is joined when read).
_KEPT_BY_WITH_MATCH = tuple(f.name for f in fields(Round) if f.name != "matches")


def _replaced(
    chunks: tuple[tuple[Match, ...], ...], position: int, match: Match
) -> tuple[tuple[Match, ...], ...]:
    """`chunks` with the match at `position` replaced: one chunk copied, the others shared."""
    index, offset = divmod(position, MATCH_CHUNK)
    chunk = chunks[index]
    changed = chunk[:offset] + (match,) + chunk[offset + 1 :]  # noqa: RUF005
    return chunks[:index] + (changed,) + chunks[index + 1 :]  # noqa: RUF005


class _JoinedMatches:
    """`Round.matches` of a round made by `with_match`: its chunks joined on first read and
    kept (a round made by `Round(...)` has its `matches` from the start and never comes
    here). A class attribute set after the dataclass is made, so that `matches` stays an
    ordinary field for construction, equality, repr and `replace`."""

    def __get__(self, round_: Round | None, owner: type[Round]) -> tuple[Match, ...]:
        if round_ is None:
            raise AttributeError("matches")
        joined = tuple(chain.from_iterable(round_.__dict__["_chunks"]))
        round_.__dict__["matches"] = joined
        return joined


setattr(Round, "matches", _JoinedMatches())  # noqa: B010 (mypy: `matches` is a field)
