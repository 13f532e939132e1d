"""The export (`/tournament export`, `python -m bot export`) replays (`python -m bot replay`)
to what was posted: the Swiss standings with the organizer's no-show tiebreak, and once the
event is finished the final placings with the top cut first (R-FMT-1, R-FMT-4, R-FMT-5)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.engine.placings import PlaceKind, PlacingExplanation
from domain.engine.record import parse_record, read_record
from domain.engine.results import MatchResult
from domain.engine.standings import bye_opponent_points, strict_order
from domain.errors import IllegalTransition
from domain.event import EventFormat
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    ChangeSettings,
    Drop,
    FinishTournament,
    GivePenalty,
    NoShowTiebreak,
    RecordNoShow,
    SetResult,
    SettingsChange,
    StartRound,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.views import Views, export_json, export_record, placings, standings_lines
from tests.domain.engine.test_cli import run_cli
from tests.domain.engine.test_record import GOOD
from tests.domain.tournament.support import JUDGE, Clock
from tests.domain.tournament.test_play import (
    as_player,
    finished_after_a_finalist_left,
    pair,
    play_round,
    started,
)


def replayed(tournament: Tournament) -> list[tuple[object, ...]]:
    """The export, written as JSON text and read back as `replay` reads it."""
    text = json.dumps(export_record(tournament).to_json(), ensure_ascii=False)
    return [
        (
            line.rank,
            line.player,
            line.standing.points,
            line.standing.opponents_points,
            line.top_cut,
            line.explanation,
        )
        for line in read_record(text).placings()
    ]


def posted(tournament: Tournament) -> list[tuple[object, ...]]:
    return [
        (line.rank, line.name, line.points, line.opponents_points, line.top_cut, line.explanation)
        for line in placings(tournament)
    ]


def test_the_no_show_tiebreak_survives_the_export_r_match_6_r_fmt_4() -> None:
    # The open question of R-MATCH-6 with R-FMT-4 (RULES.md): with `bye_value`, a win
    # against an absent player counts that player as 3 × rounds ÷ 2 in the winner's
    # opponents' points, and "whatever is chosen, the export and its replay give the same
    # standings".
    clock = started(4)
    clock.apply(ChangeSettings(SettingsChange(noshow_tiebreak=NoShowTiebreak.BYE_VALUE)))
    pair(clock)
    clock.apply(StartRound(1))
    absent, present = clock.tournament.rounds[0].matches[0].players
    clock.apply(RecordNoShow(1, 1, absent), JUDGE)
    play_round(clock, random.Random(1))
    line = next(line for line in standings_lines(clock.tournament) if line.user_id == present)
    rounds = clock.tournament.state.planned_rounds
    assert line.opponents_points == bye_opponent_points(rounds)  # 3 × 2 ÷ 2 = 3
    assert replayed(clock.tournament) == posted(clock.tournament)
    # The replay's own standings of that player, as `python -m bot replay` prints them.
    record = read_record(json.dumps(export_record(clock.tournament).to_json()))
    (row,) = [row for row in record.standings() if row.player == line.name]
    assert row.opponents_points == Fraction(3 * rounds, 2)


def test_an_export_written_before_these_fields_still_replays() -> None:
    # No "noshow_tiebreak", "top_cut" or "finished": the real points, the Swiss standings.
    record = parse_record(GOOD)
    assert record.no_show_tiebreak is NoShowTiebreak.REAL_POINTS
    assert record.top_cut == ()
    assert [line.standing for line in record.placings()] == list(record.standings())
    assert parse_record(record.to_json()) == record


def top_four_event(seed: int = 3) -> Clock:
    """A 9-player Swiss event with a top 4, played to its end through the domain."""
    clock = started(9, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
    rng = random.Random(seed)
    swiss = clock.tournament.state.planned_rounds
    for number in range(1, swiss + 1):
        pair(clock, number)
        play_round(clock, rng)
    pair(clock, swiss + 1)
    semifinals = clock.tournament.rounds[-1]
    for match in semifinals.matches:
        # The lower seed wins both semifinals: the final placings differ from the points.
        winner = str(match.players[1])
        clock.apply(SetResult(swiss + 1, match.table, MatchResult.win(winner)), JUDGE)
    pair(clock, swiss + 2)
    play_round(clock, rng)
    clock.apply(FinishTournament())
    return clock


def test_the_final_placings_put_the_top_cut_first_r_fmt_1_r_fmt_5() -> None:
    clock = top_four_event()
    lines = placings(clock.tournament)
    (final,) = clock.tournament.rounds[-1].matches
    (champion,) = clock.tournament.rounds[-1].advancing()
    assert [line.rank for line in lines[:4]] == [1, 2, 3, 3]  # R-FMT-5: the semifinal losers
    assert lines[0].user_id == champion
    assert lines[0].top_cut is not None
    assert lines[0].top_cut.kind is PlaceKind.WINNER
    assert lines[1].top_cut is not None
    assert lines[1].top_cut.kind is PlaceKind.RUNNER_UP
    assert {line.user_id for line in lines[:2]} == set(final.players)
    assert all(line.top_cut is not None and line.top_cut.best == 4 for line in lines[2:4])
    assert all(line.top_cut is None for line in lines[4:])
    assert [line.rank for line in lines[4:]] == sorted(line.rank for line in lines[4:])
    # A line above one with more points says why (the renderer shows it).
    for index, line in enumerate(lines):
        better_below = any(
            (other.points, other.opponents_points) > (line.points, line.opponents_points)
            for other in lines[index + 1 :]
        )
        assert (line.explanation is not None) == better_below
    assert PlacingExplanation.WENT_FURTHER_IN_TOP_CUT in {line.explanation for line in lines}


def test_replay_of_the_export_gives_the_final_placings_end_to_end(tmp_path: Path) -> None:
    # A top 4 built through the domain, exported, replayed by `python -m bot replay --json`.
    clock = top_four_event()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export_record(clock.tournament).to_json(), ensure_ascii=False))
    result = run_cli("replay", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["standings"]
    expected = [
        {
            "rank": line.rank,
            "player": line.name,
            "points": line.points,
            "opponents_points": float(line.opponents_points),
            "dropped": line.status.value != "active",
        }
        | (
            {"top_cut": {"place": line.top_cut.kind.value, "best": line.top_cut.best}}
            if line.top_cut
            else {}
        )
        | ({"explanation": line.explanation.value} if line.explanation else {})
        for line in placings(clock.tournament)
    ]
    assert rows == expected
    table = run_cli("replay", str(path), cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "Winner" in table.stdout
    assert "Top 4" in table.stdout


def test_before_the_finish_every_view_shows_the_swiss_standings() -> None:
    clock = top_four_event()
    unfinished = clock.tournament
    from dataclasses import replace

    from domain.engine.state import Phase

    running = replace(unfinished, state=replace(unfinished.state, phase=Phase.TOP_CUT))
    assert placings(running) == standings_lines(running)
    assert replayed(running) == posted(running)


def test_a_top_cut_player_who_left_is_placed_where_they_went_out_r_fmt_7() -> None:
    # R-FMT-7: the semifinal winner who dropped is not paired in the final; the other
    # finalist wins with a bye, and the one who left is the runner-up (out in the final).
    clock, gone, stays = finished_after_a_finalist_left()
    lines = placings(clock.tournament)
    assert [(line.user_id, line.rank) for line in lines[:2]] == [(stays, 1), (gone, 2)]
    assert replayed(clock.tournament) == posted(clock.tournament)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=2, max_value=20),
    st.sampled_from([EventFormat.SWISS, EventFormat.SWISS_TOP_CUT, EventFormat.ELIMINATION]),
    st.sampled_from(NoShowTiebreak),
    st.integers(min_value=0, max_value=2**32),
)
def test_any_event_replays_to_its_posted_placings(
    players: int, format: EventFormat, tiebreak: NoShowTiebreak, seed: int
) -> None:
    # Random events with no-shows, drops and disqualifications, finished or not: the export
    # replays to the posted placings, line for line.
    config: dict[str, object] = {"format": format}
    if format is EventFormat.SWISS_TOP_CUT:
        if players < 4:
            players = 4
        config["top_cut"] = 4
    clock = started(players, **config)
    clock.apply(ChangeSettings(SettingsChange(noshow_tiebreak=tiebreak)))
    rng = random.Random(seed)
    number = 0
    while True:
        try:
            pair(clock, seed + number)
        except IllegalTransition as done:  # the Swiss rounds or the bracket are played
            assert done.key in ("engine.state.all_rounds_played", "rounds.bracket_complete")  # noqa: PT017
            break
        number += 1
        clock.apply(StartRound(number))
        current = clock.tournament.rounds[-1]
        for match in current.matches:
            if len(match.players) == 2 and rng.random() < 0.15:
                clock.apply(RecordNoShow(number, match.table, rng.choice(match.players)), JUDGE)
        play_round(clock, rng)
        active = [e.user_id for e in clock.tournament.entries() if e.status.value == "active"]
        if len(active) > 2 and rng.random() < 0.3:
            leaving = rng.choice(active)
            if rng.random() < 0.5:
                clock.apply(Drop(leaving), as_player(leaving))
            else:
                why = GivePenalty(leaving, PenaltyType.DISQUALIFICATION, Infraction.OTHER, "x")
                clock.apply(why, JUDGE)
        assert replayed(clock.tournament) == posted(clock.tournament)
    clock.apply(FinishTournament())
    assert replayed(clock.tournament) == posted(clock.tournament)


def test_the_export_holds_the_placings_and_the_last_standings_beside_the_record(
    tmp_path: Path,
) -> None:
    # A reader of the JSON (a stream overlay, a league site) learns who won without
    # replaying: the final placings, top cut first (R-FMT-1, R-FMT-5), and the Swiss
    # standings after the last round (R-FMT-4), beside the record replay reads.
    clock = top_four_event()
    data = export_json(clock.tournament)
    lines = placings(clock.tournament)
    assert [(row["rank"], row["player"]) for row in data["placings"]] == [
        (line.rank, line.name) for line in lines
    ]
    assert data["placings"][0]["top_cut"] == {"place": "winner", "best": 1}
    assert data["placings"][1]["top_cut"] == {"place": "runner_up", "best": 2}
    swiss = clock.tournament.state.planned_rounds
    assert data["standings"]["after_round"] == swiss
    assert [(row["rank"], row["player"], row["points"]) for row in data["standings"]["rows"]] == [
        (line.rank, line.name, line.points) for line in standings_lines(clock.tournament)
    ]
    # The record in it reads as it always did ...
    record = {key: value for key, value in data.items() if key not in ("placings", "standings")}
    assert record == export_record(clock.tournament).to_json()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert read_record(path.read_text(encoding="utf-8")) == parse_record(record)
    # ... and `python -m bot replay --json` of the same file prints the same placings.
    result = run_cli("replay", str(path), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["standings"] == data["placings"]


def test_an_export_before_the_finish_has_standings_and_no_placings() -> None:
    clock = started(4)
    pair(clock)
    play_round(clock, random.Random(4))
    data = export_json(clock.tournament)
    assert "placings" not in data  # nobody has won yet
    assert data["standings"]["after_round"] == 1
    assert len(data["standings"]["rows"]) == 4
    assert data["finished"] is False


def test_where_seeded_players_share_a_rank_the_standings_show_the_brackets_seeds_r_fmt_5() -> None:
    # R-FMT-5: players equal on points and opponents' points share a rank, and the top cut
    # is seeded in the strict order drawn from the recorded seed. Two players shown at rank
    # 2 are seeded 2 and 3: the standings show the seed the bracket used. Where no seeded
    # player shares a rank the seeds are the ranks, and no line carries one.
    seen = set()
    for game in range(12):
        clock = started(9, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
        rng = random.Random(game)
        swiss = clock.tournament.state.planned_rounds
        for number in range(1, swiss + 1):
            pair(clock, number)
            play_round(clock, rng)
        before_the_cut = Views(clock.tournament).placings
        assert all(line.seed is None for line in before_the_cut)
        pair(clock, swiss + 1)
        views = Views(clock.tournament)
        ordered = strict_order(views.swiss, clock.tournament.seed or 0)
        drawn = {int(row.player): row.rank for row in ordered[:4]}
        ranks = [line.rank for line in views.placings]
        shared = any(ranks.count(line.rank) > 1 for line in views.placings[:4])
        seeded = {line.user_id: line.seed for line in views.placings if line.seed is not None}
        assert seeded == (drawn if shared else {})
        seen.add(shared)
        for first, second in zip(views.placings, views.placings[1:], strict=False):
            if first.seed is not None and second.seed is not None and first.rank == second.rank:
                assert first.seed != second.seed
    assert seen == {True, False}  # both cases were tried
    # After the finish the placings say where each top-cut player finished (R-FMT-1).
    assert all(line.seed is None for line in Views(top_four_event(3).tournament).placings)
