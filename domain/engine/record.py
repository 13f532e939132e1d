"""Tournament records: the JSON shape `python -m bot replay` reads, and its result tokens.

```json
{"rounds": 5, "players": ["alice", "bob", "carol"],
 "matches": [{"round": 1, "players": ["alice", "bob"], "result": "alice"},
             {"round": 1, "players": ["carol"], "result": "bye"}],
 "drops": [{"player": "bob", "after_round": 2}],
 "noshow_tiebreak": "real_points",
 "top_cut": [{"round": 6, "matches": [{"players": ["alice", "carol"], "result": "carol"}]}],
 "finished": true}
```

A result token is a player's name (they won), `judge:NAME` (judgement win, R-MATCH-2),
`draw` (a time-out with equal counts, R-MATCH-2; never an agreed draw, R-MATCH-3), `bye`,
`double_loss` (R-PEN-3), `concede:NAME` (NAME conceded, R-MATCH-4) or `no_show:NAME` (NAME
was not seated, R-MATCH-6). Parsing checks the whole record before anything is computed,
and every error names the bad entry.

Later fields are optional, so that older records read as they always did: a drop may say
`"disqualified": true` (R-PEN-4); `noshow_tiebreak` is the organizer's setting for a win
against an absent player (default `real_points`); `top_cut` lists the knockout rounds in
order, each round's slots in bracket order (a slot of one player is a bye, of none an
empty slot after a double loss; a drawn match names who `advancing`, R-FMT-1); `finished`
says the event was finished, so the replay gives the final placings (R-FMT-1, R-FMT-5).

An export (`/tournament export`, `python -m bot export`) also carries, beside the record, what
a reader of the JSON (a stream overlay, a league site) wants without replaying it:
`standings` (`{"after_round": N, "rows": [...]}`, the Swiss standings) and, once finished,
`placings` (the final placings, the top cut first), each row as `placing_rows` writes it and
`python -m bot replay --json` prints it. Reading a record ignores both: they follow from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.engine.placings import KnockoutMatch, Placing, final_placings
from domain.engine.players import Player, PlayerStatus
from domain.engine.results import MatchResult, RecordedMatch, ResultKind
from domain.engine.standings import NoShowTiebreak, Standing, build_standings
from domain.errors import InvalidInput
from domain.syntax import json_problem

JUDGE_PREFIX = "judge:"
CONCEDE_PREFIX = "concede:"
NO_SHOW_PREFIX = "no_show:"


@dataclass(frozen=True)
class TopCutRound:
    """One knockout round of the record: its number and its slots in bracket order."""

    number: int
    matches: tuple[KnockoutMatch, ...]


@dataclass(frozen=True)
class TournamentRecord:
    rounds: int
    players: tuple[str, ...]
    matches: tuple[RecordedMatch, ...]
    drops: Mapping[str, int] = field(default_factory=dict)  # player → after which round
    disqualified: frozenset[str] = frozenset()  # of the dropped: out by R-PEN-4
    no_show_tiebreak: NoShowTiebreak = NoShowTiebreak.REAL_POINTS
    top_cut: tuple[TopCutRound, ...] = ()
    finished: bool = False

    def standings(self) -> tuple[Standing, ...]:
        """The Swiss standings the record leads to; players who left stay, marked (R-FMT-7,
        R-PEN-4)."""
        players = [Player(name, self._status(name)) for name in self.players]
        return build_standings(
            players,
            self.matches,
            self.rounds,
            no_show_as_bye=self.no_show_tiebreak is NoShowTiebreak.BYE_VALUE,
        )

    def placings(self) -> tuple[Placing, ...]:
        """The final placings once the event was finished (the top cut first), before that
        the Swiss standings."""
        knockout = [r.matches for r in self.top_cut] if self.finished else []
        return final_placings(self.standings(), knockout)

    def _status(self, name: str) -> PlayerStatus:
        if name in self.disqualified:
            return PlayerStatus.DISQUALIFIED
        return PlayerStatus.DROPPED if name in self.drops else PlayerStatus.ACTIVE

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
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
            "drops": [
                {"player": p, "after_round": r}
                | ({"disqualified": True} if p in self.disqualified else {})
                for p, r in self.drops.items()
            ],
            "noshow_tiebreak": self.no_show_tiebreak.value,
        }
        if self.top_cut:
            data["top_cut"] = [
                {"round": r.number, "matches": [_knockout_json(m) for m in r.matches]}
                for r in self.top_cut
            ]
        data["finished"] = self.finished
        return data


def _knockout_json(match: KnockoutMatch) -> dict[str, object]:
    data: dict[str, object] = {"players": list(match.players)}
    if match.result is not None:
        data["result"] = result_token(match.result, match.players)
    if match.decided is not None:
        data["advancing"] = match.decided
    return data


def placing_rows(lines: Sequence[Standing | Placing]) -> list[dict[str, object]]:
    """One JSON row per line (rank, player, points, opponents' points, whether they left);
    a line of the top cut also says where it finished there, and a line above one with more
    points why."""
    rows: list[dict[str, object]] = []
    for line in lines:
        placing = line if isinstance(line, Placing) else Placing(line)
        row = placing.standing
        shown: dict[str, object] = {
            "rank": row.rank,
            "player": row.player,
            "points": row.points,
            "opponents_points": float(row.opponents_points),
            "dropped": row.dropped,
        }
        if placing.top_cut is not None:
            shown["top_cut"] = {"place": placing.top_cut.kind.value, "best": placing.top_cut.best}
        if placing.explanation is not None:
            shown["explanation"] = placing.explanation.value
        rows.append(shown)
    return rows


def result_token(result: MatchResult, players: tuple[str, ...]) -> str:
    """The record's word for `result`."""
    if result.kind in (ResultKind.BYE, ResultKind.DOUBLE_LOSS):
        return result.kind.value
    if result.kind is ResultKind.TIME_DRAW:
        return "draw"
    if result.kind is ResultKind.JUDGEMENT:
        return f"{JUDGE_PREFIX}{result.player}"
    if result.kind is ResultKind.CONCESSION:
        return f"{CONCEDE_PREFIX}{result.player}"
    if result.kind is ResultKind.NO_SHOW:
        # Kept apart from a win: the no-show tiebreak setting needs it (R-MATCH-6, R-FMT-4).
        return f"{NO_SHOW_PREFIX}{result.player}"
    winner = result.winner(players)
    assert winner is not None  # a WIN always has one
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
    elif token.startswith(NO_SHOW_PREFIX):
        result = MatchResult.no_show(token.removeprefix(NO_SHOW_PREFIX))
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
        problem = json_problem(error)
        raise InvalidInput(
            "engine.record.bad_json",
            line=problem.line,
            column=problem.column,
            problem=problem.code,
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
    if "rounds" not in data:
        raise InvalidInput("engine.record.missing_rounds")
    rounds = data["rounds"]
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise InvalidInput("engine.record.bad_rounds", value=_as_written(rounds))
    players = _parse_players(data.get("players"))
    top_cut = _parse_top_cut(data.get("top_cut", []), players)
    last_round = max([rounds, *(r.number for r in top_cut)])
    drops, disqualified = _parse_drops(data.get("drops", []), players, last_round)
    raw_matches = data.get("matches")
    if not isinstance(raw_matches, list):
        raise InvalidInput("engine.record.bad_matches")
    seen: dict[int, set[str]] = {}
    matches = tuple(
        _parse_match(index, entry, players, rounds, drops, seen)
        for index, entry in enumerate(raw_matches)
    )
    if top_cut and seen and top_cut[0].number <= max(seen):
        raise InvalidInput("engine.record.top_cut_before_swiss", round=top_cut[0].number)
    tiebreak = data.get("noshow_tiebreak", NoShowTiebreak.REAL_POINTS.value)
    if tiebreak not in tuple(NoShowTiebreak):
        choices = ", ".join(NoShowTiebreak)
        raise InvalidInput(
            "engine.record.bad_noshow_tiebreak", value=_as_written(tiebreak), choices=choices
        )
    finished = data.get("finished", False)
    if not isinstance(finished, bool):
        raise InvalidInput("engine.record.bad_finished", value=_as_written(finished))
    if finished and top_cut and not _bracket_finished(top_cut):
        raise InvalidInput("engine.record.top_cut_unfinished", round=top_cut[-1].number)
    return TournamentRecord(
        rounds,
        tuple(players),
        matches,
        drops,
        frozenset(disqualified),
        NoShowTiebreak(tiebreak),
        top_cut,
        finished,
    )


def _as_written(value: object) -> str:
    """A value of the record as JSON writes it (`null`, `"3"`, `true`), not as Python does."""
    shown = json.dumps(value, ensure_ascii=False)
    return shown if len(shown) <= 40 else shown[:39] + "…"


def _parse_players(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        raise InvalidInput("engine.record.bad_players")
    names: list[str] = raw
    for name in names:
        if names.count(name) > 1:
            raise InvalidInput("engine.record.duplicate_player", player=name)
    return names


def _parse_drops(
    raw: object, players: Sequence[str], rounds: int
) -> tuple[dict[str, int], set[str]]:
    if not isinstance(raw, list):
        raise InvalidInput("engine.record.bad_drops")
    drops: dict[str, int] = {}
    disqualified: set[str] = set()
    for index, entry in enumerate(raw):
        player = entry.get("player") if isinstance(entry, Mapping) else None
        after = entry.get("after_round") if isinstance(entry, Mapping) else None
        out = entry.get("disqualified", False) if isinstance(entry, Mapping) else False
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= rounds:
            raise InvalidInput("engine.record.bad_drop", index=index)
        if not isinstance(out, bool):
            raise InvalidInput("engine.record.bad_drop", index=index)
        if player not in players:
            raise InvalidInput("engine.record.unknown_drop", index=index, player=str(player))
        assert isinstance(player, str)
        drops[player] = after
        if out:
            disqualified.add(player)
    return drops, disqualified


def _parse_top_cut(raw: object, players: Sequence[str]) -> tuple[TopCutRound, ...]:
    """The knockout rounds, checked as a bracket: each round half the slots of the one
    before, and everyone in a slot sent on from one of the two slots that feed it."""
    if not isinstance(raw, list):
        raise InvalidInput("engine.record.bad_top_cut")
    parsed: list[TopCutRound] = []
    for index, entry in enumerate(raw):
        number = entry.get("round") if isinstance(entry, Mapping) else None
        slots = entry.get("matches") if isinstance(entry, Mapping) else None
        if (
            not isinstance(number, int)
            or isinstance(number, bool)
            or number < 1
            or not isinstance(slots, list)
            or not slots
        ):
            raise InvalidInput("engine.record.bad_top_cut_round", index=index)
        if parsed and number <= parsed[-1].number:
            raise InvalidInput("engine.record.top_cut_out_of_order", round=number)
        seen: set[str] = set()
        matches = tuple(
            _parse_knockout(number, slot, entry, players, seen)
            for slot, entry in enumerate(slots, start=1)
        )
        if parsed:
            before = parsed[-1].matches
            if 2 * len(matches) != len(before):
                raise InvalidInput("engine.record.top_cut_not_a_bracket", round=number)
            for slot, match in enumerate(matches):
                feeding = {before[2 * slot].advancing, before[2 * slot + 1].advancing}
                for player in match.players:
                    if player not in feeding:
                        raise InvalidInput(
                            "engine.record.top_cut_not_advanced",
                            player=player,
                            round=number,
                            slot=slot + 1,
                            rule="R-FMT-1",
                        )
        parsed.append(TopCutRound(number, matches))
    return tuple(parsed)


def _parse_knockout(
    number: int, slot: int, entry: object, players: Sequence[str], seen: set[str]
) -> KnockoutMatch:
    names = entry.get("players") if isinstance(entry, Mapping) else None
    token = entry.get("result") if isinstance(entry, Mapping) else None
    decided = entry.get("advancing") if isinstance(entry, Mapping) else None
    if (
        not isinstance(names, list)
        or len(names) > 2
        or not all(isinstance(n, str) for n in names)
        or not (token is None or isinstance(token, str))
        or not (decided is None or isinstance(decided, str))
    ):
        raise InvalidInput("engine.record.bad_top_cut_match", round=number, slot=slot)
    for name in names:
        if name not in players:
            raise InvalidInput(
                "engine.record.unknown_top_cut_player", player=name, round=number, slot=slot
            )
        if name in seen:
            raise InvalidInput(
                "engine.record.top_cut_player_twice", player=name, round=number, slot=slot
            )
        seen.add(name)
    pair = tuple(names)
    result = None
    if token is not None:
        try:
            result = parse_result(token, pair)
        except InvalidInput as error:
            raise InvalidInput(
                "engine.record.bad_top_cut_result", result=token, round=number, slot=slot
            ) from error
    drawn = result is not None and result.kind is ResultKind.TIME_DRAW
    if decided is not None and (not drawn or decided not in pair):
        # R-FMT-1: only a drawn match needs the judge to say who goes on, one of its players.
        raise InvalidInput(
            "engine.record.bad_top_cut_advancing", player=decided, round=number, slot=slot
        )
    return KnockoutMatch(pair, result, decided)


def _bracket_finished(top_cut: Sequence[TopCutRound]) -> bool:
    """The final was played: one slot left, and every match of every round decided."""
    return len(top_cut[-1].matches) == 1 and all(
        len(m.players) < 2 or m.advancing is not None or _double_loss(m)
        for r in top_cut
        for m in r.matches
    )


def _double_loss(match: KnockoutMatch) -> bool:
    return match.result is not None and match.result.kind is ResultKind.DOUBLE_LOSS


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
