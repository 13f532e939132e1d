"""Tournament records: the JSON shape `python -m bot replay` reads, and its result tokens.

```json
{"rounds": 5, "players": ["alice", "bob", "carol"],
 "matches": [{"round": 1, "players": ["alice", "bob"], "result": "alice"},
             {"round": 1, "players": ["carol"], "result": "bye"}],
 "drops": [{"player": "bob", "after_round": 2}]}
```

A result token is a player's name (they won), `judge:NAME` (judgement win, R-MATCH-2),
`draw` (a time-out with equal counts, R-MATCH-2; never an agreed draw, R-MATCH-3), `bye`,
`double_loss` (R-PEN-3) or `concede:NAME` (NAME conceded, R-MATCH-4). Parsing checks the
whole record before anything is computed, and every error names the bad entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.engine.players import Player, PlayerStatus
from domain.engine.results import MatchResult, RecordedMatch, ResultKind
from domain.engine.standings import Standing, build_standings
from domain.errors import InvalidInput

JUDGE_PREFIX = "judge:"
CONCEDE_PREFIX = "concede:"


@dataclass(frozen=True)
class TournamentRecord:
    rounds: int
    players: tuple[str, ...]
    matches: tuple[RecordedMatch, ...]
    drops: Mapping[str, int] = field(default_factory=dict)  # player → after which round

    def standings(self) -> tuple[Standing, ...]:
        """The standings the record leads to; dropped players stay, marked (R-FMT-7)."""
        players = [
            Player(name, PlayerStatus.DROPPED if name in self.drops else PlayerStatus.ACTIVE)
            for name in self.players
        ]
        return build_standings(players, self.matches, self.rounds)

    def to_json(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "players": list(self.players),
            "matches": [
                {
                    "round": match.round,
                    "players": list(match.players),
                    "result": result_token(match.result, match.players),
                }
                for match in self.matches
            ],
            "drops": [{"player": p, "after_round": r} for p, r in self.drops.items()],
        }


def result_token(result: MatchResult, players: tuple[str, ...]) -> str:
    """The record's word for `result` (a no-show loss is written as the other player's win)."""
    if result.kind in (ResultKind.BYE, ResultKind.DOUBLE_LOSS):
        return result.kind.value
    if result.kind is ResultKind.TIME_DRAW:
        return "draw"
    if result.kind is ResultKind.JUDGEMENT:
        return f"{JUDGE_PREFIX}{result.player}"
    if result.kind is ResultKind.CONCESSION:
        return f"{CONCEDE_PREFIX}{result.player}"
    winner = result.winner(players)
    assert winner is not None  # WIN and NO_SHOW always have one
    return winner


def parse_result(token: str, players: tuple[str, ...]) -> MatchResult:
    """The result a token stands for; raises InvalidInput (key only, no position)."""
    if token == "bye":
        result = MatchResult.bye()
    elif token == "double_loss":
        result = MatchResult.double_loss()
    elif token == "draw":
        result = MatchResult.time_draw()
    elif token.startswith(JUDGE_PREFIX):
        result = MatchResult.judgement(token.removeprefix(JUDGE_PREFIX))
    elif token.startswith(CONCEDE_PREFIX):
        result = MatchResult.concession(token.removeprefix(CONCEDE_PREFIX))
    elif token in players:
        result = MatchResult.win(token)
    else:
        raise InvalidInput("engine.result.unknown_token", result=token)
    result.outcomes(players)  # checks that the result fits the players (e.g. bye = one)
    return result


def read_record(text: str) -> TournamentRecord:
    """Parse a record from JSON text; every problem, the JSON's included, raises InvalidInput.

    The json module raises RecursionError on deeply nested arrays (`[[[[…`) and ValueError on
    integers of more than 4300 digits: both are the file's fault, so both are typed here.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInput(
            "engine.record.bad_json", line=error.lineno, column=error.colno, details=error.msg
        ) from None
    except RecursionError:
        raise InvalidInput("engine.record.too_deep") from None
    except ValueError:
        raise InvalidInput("engine.record.number_too_long") from None
    return parse_record(data)


def parse_record(data: object) -> TournamentRecord:
    """Check and convert a decoded JSON record; the first problem raises InvalidInput."""
    if not isinstance(data, Mapping):
        raise InvalidInput("engine.record.not_an_object")
    rounds = data.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise InvalidInput("engine.record.bad_rounds", value=repr(rounds))
    players = _parse_players(data.get("players"))
    drops = _parse_drops(data.get("drops", []), players, rounds)
    raw_matches = data.get("matches")
    if not isinstance(raw_matches, list):
        raise InvalidInput("engine.record.bad_matches")
    seen: dict[int, set[str]] = {}
    matches = tuple(
        _parse_match(index, entry, players, rounds, drops, seen)
        for index, entry in enumerate(raw_matches)
    )
    return TournamentRecord(rounds, tuple(players), matches, drops)


def _parse_players(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        raise InvalidInput("engine.record.bad_players")
    names: list[str] = raw
    for name in names:
        if names.count(name) > 1:
            raise InvalidInput("engine.record.duplicate_player", player=name)
    return names


def _parse_drops(raw: object, players: Sequence[str], rounds: int) -> dict[str, int]:
    if not isinstance(raw, list):
        raise InvalidInput("engine.record.bad_drops")
    drops: dict[str, int] = {}
    for index, entry in enumerate(raw):
        player = entry.get("player") if isinstance(entry, Mapping) else None
        after = entry.get("after_round") if isinstance(entry, Mapping) else None
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= rounds:
            raise InvalidInput("engine.record.bad_drop", index=index)
        if player not in players:
            raise InvalidInput("engine.record.unknown_drop", index=index, player=str(player))
        assert isinstance(player, str)
        drops[player] = after
    return drops


def _parse_match(
    index: int,
    entry: object,
    players: Sequence[str],
    rounds: int,
    drops: Mapping[str, int],
    seen: dict[int, set[str]],
) -> RecordedMatch:
    if not isinstance(entry, Mapping):
        raise InvalidInput("engine.record.bad_match", index=index, round="?")
    number = entry.get("round")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= rounds:
        raise InvalidInput("engine.record.bad_round", index=index, round=repr(number))
    names = entry.get("players")
    token = entry.get("result")
    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= 2
        or not all(isinstance(n, str) for n in names)
        or not isinstance(token, str)
    ):
        raise InvalidInput("engine.record.bad_match", index=index, round=number)
    in_round = seen.setdefault(number, set())
    for name in names:
        if name not in players:
            raise InvalidInput(
                "engine.record.unknown_player", player=name, index=index, round=number
            )
        if name in in_round:
            raise InvalidInput("engine.record.player_twice", player=name, index=index, round=number)
        if name in drops and number > drops[name]:
            raise InvalidInput(
                "engine.record.dropped_player",
                player=name,
                index=index,
                round=number,
                rule="R-FMT-7",
            )
        in_round.add(name)
    pair = tuple(names)
    try:
        result = parse_result(token, pair)
    except InvalidInput as error:
        unknown = error.key == "engine.result.unknown_token"
        key = "engine.record.unknown_result" if unknown else "engine.record.bad_result"
        raise InvalidInput(key, result=token, index=index, round=number) from error
    return RecordedMatch(number, pair, result)
