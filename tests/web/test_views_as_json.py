"""The page's views as JSON: every field of every view, and nothing else; and the points a
round's pairings show, kept while the round is played, follow a change to a round before."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass, replace
from datetime import date, datetime
from fractions import Fraction
from typing import Any

from bot.services import live
from bot.web.render import json_bytes
from domain.engine.results import MatchResult
from domain.event import EventFormat
from domain.tournament.rounds import RoundKind
from domain.tournament.views import Views, standings_lines
from tests.domain.tournament.test_play import pair, play_round, started
from tests.web.conftest import Site


def expected(value: Any) -> Any:
    """The JSON a view should become, written out the slow, obvious way."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: expected(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else round(float(value), 2)
    if isinstance(value, tuple | list):
        return [expected(item) for item in value]
    if isinstance(value, dict):
        return {str(key): expected(item) for key, item in value.items()}
    return value


async def test_every_view_is_written_with_all_its_fields(finished: Site) -> None:
    tournament = await finished.tournament()
    views: list[Any] = [
        live.overview(tournament),
        live.standings(tournament),
        live.bracket(tournament),
        live.decklists(tournament),
        live.decklist(tournament, 1),
        live.title_distribution(tournament),
        *(live.pairings(tournament, r.number) for r in tournament.rounds),
    ]
    for view in views:
        assert json.loads(json_bytes(view)) == expected(view)
    shares = json.loads(json_bytes(live.title_distribution(tournament)))["titles"]
    assert any(isinstance(share["share"], float) for share in shares)  # a fraction, rounded


def test_an_attribute_that_is_not_a_field_is_never_written() -> None:
    @dataclass(frozen=True)
    class Seat:
        name: str

    seat = Seat("Aoi")
    object.__setattr__(seat, "user_id", 123456789)  # e.g. a value cached on the instance
    assert json.loads(json_bytes((seat, Seat("Rin")))) == [{"name": "Aoi"}, {"name": "Rin"}]


async def test_the_points_of_a_round_follow_a_changed_earlier_round(finished: Site) -> None:
    """R-FMT-4: the pairings show each player's 勝ち点 before the round; an earlier round
    corrected (an undo, a judge's ruling) shows at once, not the points as they were."""
    tournament = await finished.tournament()
    first = tournament.rounds[0]
    assert first.kind is RoundKind.SWISS
    match = next(m for m in first.matches if len(m.players) == 2 and m.result is not None)
    winner = match.result.winner(match.ids) if match.result is not None else None
    loser = next(p for p in match.ids if p != winner)
    turned = replace(match, result=MatchResult.win(loser))
    corrected_round = replace(
        first, matches=tuple(turned if m is match else m for m in first.matches)
    )
    corrected = replace(tournament, rounds=(corrected_round, *tournament.rounds[1:]))

    for event in (tournament, corrected, tournament):
        shown = {
            seat["name"]: seat["points"]
            for table in json.loads(json_bytes(live.pairings(event, 2)))["tables"]
            for seat in table["seats"]
        }
        names = live.public_names(event)
        before = replace(event, rounds=event.rounds[:1])
        assert shown == {names[line.user_id]: line.points for line in standings_lines(before)}
    assert live.pairings(tournament, 2) != live.pairings(corrected, 2)


def test_during_the_top_cut_the_page_shows_the_seed_where_ranks_are_shared_r_fmt_5() -> None:
    # R-FMT-5: seeded players sharing a Swiss rank were ordered by the draw from the
    # recorded seed; the page's standings carry the seed the bracket used, as Discord's do.
    for game in range(12):
        clock = started(9, format=EventFormat.SWISS_TOP_CUT, top_cut=4)
        rng = random.Random(game)
        swiss = clock.tournament.state.planned_rounds
        for number in range(1, swiss + 1):
            pair(clock, number)
            play_round(clock, rng)
        pair(clock, swiss + 1)
        views = Views(clock.tournament)
        if any(line.seed for line in views.placings):
            break
    else:
        raise AssertionError("no game of the twelve had seeded players sharing a rank")
    shown = json.loads(json_bytes(live.standings(clock.tournament)))
    assert {row["name"]: row["seed"] for row in shown["rows"] if row["seed"]} == {
        views.names[line.user_id]: line.seed for line in views.placings if line.seed
    }
    assert sorted(row["seed"] for row in shown["rows"] if row["seed"]) == [1, 2, 3, 4]
